#!/usr/bin/env bash
# Stages what a GPU run of the harness needs into one folder to carry to
# the GPU machine (which has PyTorch and CuPy but no LLVM): the PTX bundle,
# the harness, and the FX graphs of the corpus workloads.
#
#   bash bench/stage_device_run.sh DIR
#
# On the GPU machine: cd DIR/python && python3 -m scheduler_opt.harness.run_workloads \
#   --bundle ../gpu-bundle --corpus ../corpus --out "$OUT"
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$1"
rm -rf "$dir"
mkdir -p "$dir/python" "$dir/corpus"
bash "$root/bench/build_gpu_bundle.sh" "$dir/gpu-bundle" >/dev/null
cp -r "$root/python/scheduler_opt" "$dir/python/"
find "$dir" -name __pycache__ -prune -exec rm -rf {} +
for w in add_sum softmax layernorm_gelu rmsnorm_silu cross_entropy; do
  for f in "$root"/corpus/inductor/$w/*/fx_graph_readable.py; do
    sub="$dir/corpus/$w/$(basename "$(dirname "$f")")"
    mkdir -p "$sub"
    cp "$f" "$sub/"
  done
done
du -sh "$dir"
