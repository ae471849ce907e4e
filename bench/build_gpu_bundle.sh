#!/usr/bin/env bash
# Builds what the GPU run needs (no LLVM there): PTX and launch manifests of
# the five corpus workloads the harness in python/ checks and times, before
# fusion (unfused/) and after it (fused/, Inductor's groups).
#
#   bash bench/build_gpu_bundle.sh [DIR]     # default: build/gpu-bundle
#
# Then, on the GPU machine, from the repository root:
#   cd python && python3 -m fusion_gpu.run_workloads --bundle ../DIR \
#       --corpus ../corpus/inductor --out "$OUT"
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/build/gpu-bundle}"
opt="${SCHEDULER_OPT:-$root/build/bin/scheduler-opt}"
chip="${CHIP:-sm_90}"
w="$root/bench/workloads"
ex="$root/examples"

declare -A unfused=(
  [add_sum]="$ex/add_sum.mlir" [softmax]="$w/softmax.mlir"
  [layernorm_gelu]="$ex/layernorm_gelu.mlir"
  [rmsnorm_silu]="$w/rmsnorm_silu.mlir" [cross_entropy]="$w/cross_entropy.mlir")
declare -A fused=(
  [add_sum]="$ex/add_sum.mlir" [softmax]="$w/softmax.fused.mlir"
  [layernorm_gelu]="$w/layernorm_gelu.fused.mlir"
  [rmsnorm_silu]="$w/rmsnorm_silu.fused.mlir"
  [cross_entropy]="$w/cross_entropy.fused.mlir")

# Variant name -> graphs, extra --fusion-to-ptx options. fused_warp maps
# rows of up to 1024 elements to one warp each instead of one block.
declare -A graphs=([unfused]=unfused [fused]=fused [fused_warp]=fused)
declare -A options=([unfused]="" [fused]=""
  [fused_warp]="warp-reduction-max-size=1024 max-persistent-elements=32")

rm -rf "$out"
for variant in unfused fused fused_warp; do
  declare -n files="${graphs[$variant]}"
  for name in "${!files[@]}"; do
    "$opt" "${files[$name]}" -o /dev/null \
      --fusion-to-ptx="chip=$chip output-dir=$out/$variant ${options[$variant]}"
    if command -v ptxas >/dev/null; then
      ptxas -arch="$chip" "$out/$variant/$name.ptx" -o /dev/null
    fi
  done
done
ls -l "$out"/*
