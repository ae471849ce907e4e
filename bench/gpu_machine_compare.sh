#!/usr/bin/env bash
# Times PyTorch Inductor's Scheduler.__init__ and scheduler-opt on the same
# machine, in one run (bench/gpu_machine_compare.py says how).
#
# Here, on the build machine: build the statically linked, stripped
# scheduler-corpus-bench into .device-carry/bin/ (git-ignored):
#
#   bash bench/gpu_machine_compare.sh --package
#
# On the GPU machine, from the repository root, with .device-carry carried
# along (it holds only the static binary, about 5 MB):
#
#   bash bench/gpu_machine_compare.sh [--graphs gpt2,resnet18] [--skip wide2000]
#
# Results go to $OUT (or gpu-compare-out/): gpu_compare.md, gpu_compare.json
# and the fresh Inductor dumps.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
carry="$root/.device-carry/bin"

if [[ "${1:-}" == "--package" ]]; then
  build_dir="$(bash "$root/bench/configure_static.sh")"
  ninja -C "$build_dir" -j2 scheduler-corpus-bench
  mkdir -p "$carry"
  strip -o "$carry/scheduler-corpus-bench" "$build_dir/bin/scheduler-corpus-bench"
  file "$carry/scheduler-corpus-bench"
  ls -l "$carry/scheduler-corpus-bench"
  exit 0
fi

tool="${SCHEDULER_CORPUS_BENCH:-$carry/scheduler-corpus-bench}"
if [[ ! -x "$tool" ]]; then
  echo "gpu_machine_compare: $tool not found; run 'bash bench/gpu_machine_compare.sh --package' on the build machine and carry .device-carry" >&2
  exit 1
fi
out="${OUT:-$root/gpu-compare-out}"
python3 "$root/bench/gpu_machine_compare.py" --bench "$tool" \
  --corpus "$root/corpus/inductor" --out "$out" "$@"
echo "gpu_machine_compare: results in $out/gpu_compare.md"
