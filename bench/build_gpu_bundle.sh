#!/usr/bin/env bash
# Builds what the GPU run needs (no LLVM there): PTX and launch manifests of
# the five corpus workloads the harness in python/ checks and times: before
# fusion (unfused/, one kernel per node: --fusion-schedule with fuse=0, then
# --fusion-to-ptx with schedule=0), with the kernels our fusion pass picks
# (ours/, the unfused graphs through the default --fusion-to-ptx, which runs
# --fusion-schedule first), and with Inductor's groups written out by hand
# (fused/, bench/workloads/*.fused.mlir, and its variants).
#
#   bash bench/build_gpu_bundle.sh [DIR]     # default: build/gpu-bundle
#   PTX_OPTIONS="cache-hints=all" bash bench/build_gpu_bundle.sh DIR
#       # the same options added to every --fusion-to-ptx of the bundle
#       # (its semantics graphs checked with them, say)
#
# Then, on the GPU machine, from the repository root:
#   cd python && python3 -m scheduler_opt.harness.run_workloads --bundle ../DIR \
#       --corpus ../corpus/inductor --out "$OUT"
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/build/gpu-bundle}"
opt="${SCHEDULER_OPT:-$root/build/bin/scheduler-opt}"
chip="${CHIP:-sm_90}"
more="${PTX_OPTIONS:-}"
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

# Variant name -> graphs, extra --fusion-to-ptx options. ours_hints is
# ours with the cache hints on streamed loads and on stores
# (cache-hints=all), ours_hints_loads and ours_hints_stores with one of
# the two (none by default, so ours/ is the PTX without them). Variants of the
# fused kernels map rows of up to 1024 elements to one warp each
# (fused_warp) or aim at 4 or 16 elements per thread instead of 8.
declare -A graphs=([unfused]=unfused [ours]=unfused [ours_hints]=unfused
  [ours_hints_loads]=unfused [ours_hints_stores]=unfused [fused]=fused
  [fused_warp]=fused [fused_e4]=fused [fused_e16]=fused)
declare -A options=([unfused]="schedule=0" [ours]=""
  [ours_hints]="cache-hints=all" [ours_hints_loads]="cache-hints=loads"
  [ours_hints_stores]="cache-hints=stores" [fused]=""
  [fused_warp]="warp-reduction-max-size=1024 max-persistent-elements=32"
  [fused_e4]="elements-per-thread=4" [fused_e16]="elements-per-thread=16")

rm -rf "$out"
for variant in unfused ours ours_hints ours_hints_loads ours_hints_stores \
    fused fused_warp fused_e4 fused_e16; do
  declare -n files="${graphs[$variant]}"
  for name in "${!files[@]}"; do
    if [[ $variant == unfused ]]; then
      # Inductor's order without fusion; the lowering then keeps it.
      "$opt" "${files[$name]}" --fusion-schedule=fuse=0
    else
      cat "${files[$name]}"
    fi | "$opt" - -o /dev/null \
      --fusion-to-ptx="chip=$chip output-dir=$out/$variant ${options[$variant]} $more"
    if command -v ptxas >/dev/null; then
      ptxas -arch="$chip" "$out/$variant/$name.ptx" -o /dev/null
    fi
  done
done
# Semantics: graphs that make their own data, run on the GPU against the
# outputs of the CPU JIT (whose values the lit tests check by hand at 2x6):
# every reduction kind on rows of 6 and 37 (one warp per row, masked
# lanes), 1000 (one block per row, in registers) and 20000 (looped), 512
# rows of 256 (too few for 132 SMs at a warp a row: two warps a row), and
# split over several blocks per row (split_*), the
# larger ones on v = (37 i mod 101) - 1, whose first maximum lies in
# another lane than the first element; body ops and host-side copies;
# Philox random numbers (also against Triton); a normalization whose
# threads take the same columns of 4 rows (rows_600x1024); scatter-adds
# of rows into a table, several rows a token, each thread's four
# elements in one vector atomic on sm_90 (scatter), and scatter-adds
# under a guard, predicated (scatter_guarded: a partial last block in f32
# vectors, f64 and i64, a row's leader lane).
runner="${MLIR_RUNNER:-/usr/lib/llvm-22/bin/mlir-runner}"
libs="$(dirname "$runner")/../lib"
libs="$libs/libmlir_c_runner_utils.so,$libs/libmlir_runner_utils.so"
red="$root/test/Conversion/FusionToLoops/reductions-jit.mlir"
outer="$root/test/Conversion/FusionToLoops/outer-reductions-jit.mlir"
transposes="$root/test/Conversion/FusionToLoops/transpose-jit.mlir"
masked="$root/test/Conversion/FusionToLoops/masked-jit.mlir"
# Reductions over columns (2-D tiles; the pipeline fuses the producer in,
# whose per-element store is what runs across rows): one thread per
# column (6 rows), 8 lanes per column in registers (100 rows; 37 columns,
# a partial block), and looped (20000 rows).
declare -A semantics=(
  [outer_6x2]="$outer" [outer_100x37]="$outer 6=100 2=37"
  [outer_20000x101]="$outer 6=20000 2=101"
  [reductions_2x6]="$red" [reductions_3x37]="$red 2=3 6=37 3=37 4=101"
  [reductions_3x1000]="$red 2=3 6=1000 3=37 4=101"
  [reductions_3x20000]="$red 2=3 6=20000 3=37 4=101"
  [reductions_512x256]="$red 2=512 6=256 3=37 4=101"
  [split_3x1000]="$red 2=3 6=1000 3=37 4=101"
  [split_3x20000]="$red 2=3 6=20000 3=37 4=101"
  [split_2x20000]="$red 2=2 6=20000 3=37 4=101"
  [cluster4_3x5000]="$red 2=3 6=5000 3=37 4=101"
  [cluster8_3x20000]="$red 2=3 6=20000 3=37 4=101"
  [global_3x1000]="$red 2=3 6=1000 3=37 4=101"
  [rows_600x1024]="$root/bench/semantics/rows.mlir"
  [scatter]="$root/bench/semantics/scatter.mlir"
  [scatter_guarded]="$root/bench/semantics/scatter_guarded.mlir"
  [ops]="$root/test/Conversion/FusionToLoops/ops-jit.mlir"
  [rand]="$root/bench/semantics/rand.mlir"
  [transposes_100x37]="$transposes 3=100 5=37"
  [transposes_4096x9]="$transposes 3=4096 5=9"
  [transposes_200x1000]="$transposes 3=200 5=1000"
  [transposes_64x49]="$transposes 3=64 5=49"
  [transposes_66x49]="$transposes 3=66 5=49"
  [masked_16x8]="$masked" [masked_64x1024]="$masked 8=1024 24=3072 16=64")
# Masked regions: a mask shared by a thread's four elements (one branch,
# vector loads inside), at 16 x 8 and 64 x 1024 (blocks of 256 threads);
# three split Welford nodes with their own masked loads, merged into one.
# Transposes (2-D tiles through shared memory): partial tiles, tiles of 9
# columns (a 3x3 convolution weight into channels-last), larger tiles;
# op4, which only reorders, in vectors of 4 rows down the columns where
# the rows are a multiple of 4 (64 x 49 and the others) and in a tile of
# 7 columns at 66 x 49;
# unfused (schedule=0), since fused the consumers read the producer's
# registers and no kernel changes layout. Split reductions of every kind
# (the rows above compute their values and read nothing, so the default
# keeps them whole): 2 blocks per row in registers, 32 in registers, 2
# looped (at 20000: on rows of 60000 the JIT's own sequential float sums
# drift by 2e-4 from the exact Welford m2 and softmax sum, which the
# GPU's matched to 1e-7). Splits of at most 8 blocks run on a thread block
# cluster (split_3x1000, split_2x20000, cluster4_3x5000, cluster8_3x20000),
# 32 blocks and global_3x1000 through global memory. The normalization's 4 rows a thread are fixed
# (its weight and bias exceed the default's register budget), 4 rows of
# 128 threads a block: 16 rows a block, so that the last block's rows
# past the 600th compute and store nothing.
declare -A ptx_options=(
  [transposes_100x37]="schedule=0" [transposes_4096x9]="schedule=0"
  [transposes_200x1000]="schedule=0" [transposes_64x49]="schedule=0"
  [transposes_66x49]="schedule=0"
  [split_3x1000]="reduction-split=2"
  [split_3x20000]="reduction-split=32" [split_2x20000]="reduction-split=2"
  [cluster4_3x5000]="reduction-split=4" [cluster8_3x20000]="reduction-split=8"
  [global_3x1000]="reduction-split=2 reduction-cluster=0"
  [rows_600x1024]="reduction-rows-per-thread=4 reduction-lanes=128 reduction-rows-per-block=4")
for case in "${!semantics[@]}"; do
  dir="$out/semantics/$case"
  mkdir -p "$dir"
  python3 "$root/test/Inputs/resize_graph.py" ${semantics[$case]} > "$dir/graph.mlir"
  "$opt" "$dir/graph.mlir" -o /dev/null \
      --fusion-to-ptx="chip=$chip output-dir=$dir ${ptx_options[$case]:-} $more"
  "$opt" "$dir/graph.mlir" --convert-fusion-to-loops --test-fusion-jit-main \
      --fusion-loops-to-llvm \
    | "$runner" -e main -entry-point-result=void -shared-libs="$libs" \
    | python3 "$root/bench/semantics/jit_outputs.py" > "$dir/expected.json"
  rm "$dir/graph.mlir"
done
# Generated graphs (scheduler-graph-gen, no externs), shuffled, scheduled by
# the pipeline: outputs and in-place updated inputs against the CPU JIT
# run of the same scheduled graph, on the JIT's input pattern.
gen="${SCHEDULER_GRAPH_GEN:-$root/build/bin/scheduler-graph-gen}"
# The combo_ cases combine independent kernels into foreach (combo) kernels
# (combo-kernels=1): parts of every kind share one launch.
for seed in 1 2 3 4 5 6 combo_1 combo_2 combo_3; do
  dir="$out/semantics/generated_$seed"
  schedule="--fusion-schedule"
  [[ $seed == combo_* ]] && schedule="--fusion-schedule=combo-kernels=1"
  mkdir -p "$dir"
  "$gen" --seed=${seed#combo_} --nodes=60 --max-dim=64 --extern-percent=0 \
      --shuffle | "$opt" - $schedule > "$dir/graph.mlir"
  "$opt" "$dir/graph.mlir" -o /dev/null \
      --fusion-to-ptx="chip=$chip output-dir=$dir schedule=0 $more"
  "$opt" "$dir/graph.mlir" --convert-fusion-to-loops \
      --test-fusion-jit-main=print-inputs=1 --fusion-loops-to-llvm \
    | "$runner" -e main -entry-point-result=void -shared-libs="$libs" \
    | python3 "$root/bench/semantics/jit_outputs.py" > "$dir/expected.json"
  rm "$dir/graph.mlir"
done
# adam_step from the corpus, whose kernels are foreach (combo) kernels: as
# dumped without fusion (unfused/, 80 kernels), fused without its foreach
# lists (ours_nolists/, 32 kernels), and fused from its lists as Inductor
# does (ours/, 2 combo kernels).
adam="$root/corpus/inductor/adam_step/model__0_inference_0.0/ir_pre_fusion.txt"
translate="${SCHEDULER_TRANSLATE:-$root/build/bin/scheduler-translate}"
"$translate" --import-inductor "$adam" --inductor-graph-name=adam_step \
    --inductor-no-foreach-lists > "$out/adam_step.plain.mlir"
"$translate" --import-inductor "$adam" --inductor-graph-name=adam_step \
    > "$out/adam_step.mlir"
"$opt" "$out/adam_step.plain.mlir" --fusion-schedule=fuse=0 \
  | "$opt" - -o /dev/null --fusion-to-ptx="chip=$chip output-dir=$out/unfused schedule=0 $more"
"$opt" "$out/adam_step.plain.mlir" -o /dev/null \
    --fusion-to-ptx="chip=$chip output-dir=$out/ours_nolists $more"
"$opt" "$out/adam_step.mlir" -o /dev/null \
    --fusion-to-ptx="chip=$chip output-dir=$out/ours $more"
rm "$out/adam_step.plain.mlir" "$out/adam_step.mlir"
ls -l "$out"/*
