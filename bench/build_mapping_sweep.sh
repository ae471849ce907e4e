#!/usr/bin/env bash
# Builds the five corpus workloads (as bench/build_gpu_bundle.sh's ours/:
# the unfused graphs through --fusion-to-ptx) under fixed thread mappings,
# one variant folder each, to calibrate convert-fusion-to-gpu's choices on
# a GPU: threads per row (reduction-lanes) and rows per block, loop unroll,
# the exact against Triton's approximate exponential, PyTorch eager's
# IEEE division against Triton's div.full, blocks per row of split
# reductions (split*) and rows a thread takes the same columns of (rpt*).
#
#   bash bench/build_mapping_sweep.sh DIR      # adds DIR/sweep_*/
#
# Then on the GPU machine (after bench/stage_device_run.sh):
#   python3 -m scheduler_opt.harness.run_workloads --bundle DIR ... \
#       --variants ours,sweep_... --baselines ends
set -euo pipefail
out="$1"
source "$(dirname "${BASH_SOURCE[0]}")/workload_files.sh"
declare -A sweep=(
  [exactexp]="approx-exp=0" [ieeediv]="f32-division=ieee"
  [scalarpw]="pointwise-vector-width=1"
  [l32]="reduction-lanes=32 max-persistent-elements=32"
  [l64]="reduction-lanes=64" [l64r2]="reduction-lanes=64 reduction-rows-per-block=2"
  [l64r4]="reduction-lanes=64 reduction-rows-per-block=4"
  [l128r2]="reduction-lanes=128 reduction-rows-per-block=2"
  [l128r4]="reduction-lanes=128 reduction-rows-per-block=4"
  [l256]="reduction-lanes=256" [l256r2]="reduction-lanes=256 reduction-rows-per-block=2"
  [l256r4]="reduction-lanes=256 reduction-rows-per-block=4"
  [l512]="reduction-lanes=512" [l512r2]="reduction-lanes=512 reduction-rows-per-block=2"
  [l1024]="reduction-lanes=1024"
  [u16]="loop-unroll=16" [l1024u16]="reduction-lanes=1024 loop-unroll=16"
  [l256u16]="reduction-lanes=256 loop-unroll=16"
  [p32]="max-persistent-elements=32"
  [split1]="reduction-split=1" [split2]="reduction-split=2"
  [split4]="reduction-split=4" [split8]="reduction-split=8"
  [rpt1]="reduction-rows-per-thread=1" [rpt2]="reduction-rows-per-thread=2"
  [rpt4]="reduction-rows-per-thread=4")
for variant in "${!sweep[@]}"; do
  for file in "${workloads[@]}"; do
    "$opt" "$file" -o /dev/null \
      --fusion-to-ptx="chip=$chip output-dir=$out/sweep_$variant ${sweep[$variant]}"
  done
done
printf '%s\n' "${!sweep[@]}" | sort | sed 's/^/sweep_/' | paste -sd, -
