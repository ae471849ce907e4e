# Sourced by the sweep builders (build_mapping_sweep.sh,
# build_cluster_sweep.sh): the tool, the chip and the five corpus
# workloads that build_gpu_bundle.sh's ours/ lowers, as `workloads`.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opt="${SCHEDULER_OPT:-$root/build/bin/scheduler-opt}"
chip="${CHIP:-sm_90}"
w="$root/bench/workloads"
ex="$root/examples"
workloads=("$ex/add_sum.mlir" "$w/softmax.mlir" "$ex/layernorm_gelu.mlir"
           "$w/rmsnorm_silu.mlir" "$w/cross_entropy.mlir")
