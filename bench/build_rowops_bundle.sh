#!/usr/bin/env bash
# The semantics bundle of sorts, scans and float8 for the GPU machine
# (bench/check_rowops_device.py runs it): each case's PTX and launch
# manifest, and the CPU JIT's outputs on test-fusion-jit-main's inputs
# (expected.json), as bench/build_gpu_bundle.sh builds its semantics
# cases. Cases: the lit tests' sort and scan graphs, also on longer rows
# (37 rows of 1000, 40 rows of 5000), the real 2.11 sort dump, the scan
# dumps with their traced combine functions, and the float8 dump. The
# scan cases get a tolerance.json (semantics.check_case): the GPU's block
# scans combine in a tree (BlockScan.h), the JIT element by element, so
# their float sums round differently (a cumsum of 5000 values in [-2, 2)
# by up to 1.2e-4: rtol 1e-4, atol 5e-4).
#   bash bench/build_rowops_bundle.sh OUT_DIR   (needs build/bin and LLVM)
# Given cases, it builds those instead: NAME=FILE, a graph (.mlir, run as
# its JIT test runs it, unscheduled) or an Inductor dump (.txt, imported
# and scheduled as its value test does), e.g. the CPU JIT value tests'
# graphs (bench/results/ops-device-h100.json):
#   bash bench/build_rowops_bundle.sh OUT_DIR math=test/.../inductor-math-jit.mlir
# PTX_FLAGS adds --fusion-to-ptx options to every case's PTX (not to the
# JIT's outputs), e.g. PTX_FLAGS="register-sort-row=512".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${BIN:-$root/build/bin}"
out="$1/semantics"
rm -rf "$out" && mkdir -p "$out"
runner="${MLIR_RUNNER:-/usr/lib/llvm-22/bin/mlir-runner}"
libs="$(dirname "$runner")/../lib"
libs="$libs/libmlir_c_runner_utils.so,$libs/libmlir_runner_utils.so"
inputs="$root/test/Target/Inductor/Inputs"
jit="$root/test/Conversion/FusionToLoops"
# case NAME < scheduled graph
case_graph() {
  local dir="$out/$1"
  mkdir -p "$dir"
  cat > "$dir/graph.mlir"
  "$bin/scheduler-opt" "$dir/graph.mlir" -o /dev/null \
      --fusion-to-ptx="chip=sm_90 output-dir=$dir schedule=0${PTX_FLAGS:+ $PTX_FLAGS}"
  "$bin/scheduler-opt" "$dir/graph.mlir" --convert-fusion-to-loops \
      --test-fusion-jit-main --fusion-loops-to-llvm \
    | "$runner" -e main -entry-point-result=void -shared-libs="$libs" \
    | python3 "$root/bench/semantics/jit_outputs.py" > "$dir/expected.json"
  rm "$dir/graph.mlir"
}
if [ $# -gt 1 ]; then
  shift
  for c in "$@"; do
    case "${c#*=}" in
      *.txt) "$bin/scheduler-translate" --import-inductor "${c#*=}" \
               | "$bin/scheduler-opt" --fusion-schedule | case_graph "${c%%=*}" ;;
      *) case_graph "${c%%=*}" < "${c#*=}" ;;
    esac
  done
  exit 0
fi
case_graph sort_jit < "$jit/sort-jit.mlir"
python3 "$root/test/Inputs/resize_graph.py" "$jit/sort-jit.mlir" 16=1000 4=37 \
  | case_graph sort_jit_37x1000
# tolerance NAME: the case's outputs are scans
tolerance() {
  echo '{"rtol": 1e-4, "atol": 5e-4}' > "$out/$1/tolerance.json"
}
case_graph scan_jit < "$jit/scan-jit.mlir"
tolerance scan_jit
python3 "$root/test/Inputs/resize_graph.py" "$jit/scan-jit.mlir" 16=5000 4=40 \
  | case_graph scan_jit_40x5000
tolerance scan_jit_40x5000
for d in sorts:scan-sort-2.11/sorts/ir_pre_fusion.txt \
         scans:scan-combine/scans.txt cumext:scan-combine/cumext.txt \
         intscan:scan-combine/intscan.txt; do
  "$bin/scheduler-translate" --import-inductor "$inputs/${d#*:}" \
      --inductor-no-fx-lookup \
    | "$bin/scheduler-opt" --fusion-schedule | case_graph "${d%%:*}"
  [ "${d%%:*}" = sorts ] || tolerance "${d%%:*}"
done
"$bin/scheduler-translate" --import-inductor "$inputs/float8.txt" \
  | "$bin/scheduler-opt" --fusion-schedule=fuse=0 | case_graph float8
