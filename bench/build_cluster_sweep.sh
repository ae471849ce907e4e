#!/usr/bin/env bash
# Builds the five corpus workloads (as bench/build_gpu_bundle.sh's ours/)
# with split reductions through thread block clusters off (nocluster/: the
# rule before clusters, reduction-cluster=0), and the two kernels that
# split (add_sum's 64 rows of 4096, cross_entropy's mean over one row of
# 4096) at fixed blocks per row, on a cluster (cluster{2,4,8}/) and
# through global memory (global{2,4,8}/), by kernel-configs so that no
# other kernel changes. ours_again/ and nocluster_again/ are copies, timed
# in the same run to show the spread.
#
#   bash bench/build_cluster_sweep.sh DIR      # DIR: a gpu-bundle
#
# Then on the GPU machine (after bench/stage_device_run.sh):
#   python3 -m scheduler_opt.harness.run_workloads --bundle DIR ... \
#       --variants ours,nocluster,ours_again,nocluster_again,cluster2,...
set -euo pipefail
out="$1"
source "$(dirname "${BASH_SOURCE[0]}")/workload_files.sh"
for file in "${workloads[@]}"; do
  "$opt" "$file" -o /dev/null \
    --fusion-to-ptx="chip=$chip output-dir=$out/nocluster reduction-cluster=0"
done
declare -A kernel=([add_sum]=kernel_op0 [cross_entropy]=kernel_op2_op3_op4)
declare -A file=([add_sum]="$ex/add_sum.mlir"
                 [cross_entropy]="$w/cross_entropy.mlir")
for n in 2 4 8; do
  for name in add_sum cross_entropy; do
    "$opt" "${file[$name]}" -o /dev/null --fusion-to-ptx="chip=$chip \
output-dir=$out/cluster$n kernel-configs=${kernel[$name]}:reduction-split=$n"
    "$opt" "${file[$name]}" -o /dev/null --fusion-to-ptx="chip=$chip \
output-dir=$out/global$n \
kernel-configs=${kernel[$name]}:reduction-split=$n,reduction-cluster=0"
  done
done
cp -r "$out/ours" "$out/ours_again"
cp -r "$out/nocluster" "$out/nocluster_again"
if command -v ptxas >/dev/null; then
  for f in "$out"/{nocluster,cluster?,global?}/*.ptx; do
    ptxas -arch="$chip" "$f" -o /dev/null
  done
fi
