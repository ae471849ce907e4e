#!/usr/bin/env bash
# Trains the profile of the profile-guided static tools (configure_static.sh
# runs it; cmake/SchedulerOptProfile.cmake has the flags):
#
#   bash bench/train_profile.sh STATIC_BUILD_DIR
#
# builds scheduler-graph-gen and scheduler-corpus-bench instrumented
# (-DSCHEDULER_OPT_PROFILE=generate) in STATIC_BUILD_DIR-train, and runs the
# import and --fusion-schedule on generated graphs only, never on the corpus
# that the benchmarks measure: Inductor dumps of 300, 3,000 and 30,000 nodes
# (two seeds each) and one MLIR graph of 3,000 nodes. The counters go to
# STATIC_BUILD_DIR-train/profile, which the optimized build reads. Progress
# goes to stderr. The runs have no context threads; the counters still vary
# a little between runs where the bench sorts its own timings.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
static_dir="${1:?usage: train_profile.sh STATIC_BUILD_DIR}"
train_dir="$static_dir-train"
profile_dir="$train_dir/profile"
# The static configuration of configure_static.sh, instrumented.
BUILD_STATIC_DIR="$train_dir" SCHEDULER_OPT_PGO=0 \
  bash "$root/bench/configure_static.sh" -DSCHEDULER_OPT_PROFILE=generate \
  -DSCHEDULER_OPT_PROFILE_DIR="$profile_dir" > /dev/null
ninja -C "$train_dir" -j2 scheduler-graph-gen scheduler-corpus-bench >&2

graphs="$train_dir/training-graphs"
inputs=()
for nodes in 300 3000 30000; do
  for seed in 1 2; do
    dir="$graphs/inductor-n$nodes-s$seed"
    [[ -f "$dir/ir_pre_fusion.txt" ]] ||
      "$train_dir/bin/scheduler-graph-gen" --format=inductor --nodes=$nodes \
        --seed=$seed -o "$dir" >&2
    inputs+=("$dir")
  done
done
mlir="$graphs/mlir-n3000-s1.mlir"
[[ -f "$mlir" ]] ||
  "$train_dir/bin/scheduler-graph-gen" --format=mlir --nodes=3000 --seed=1 -o "$mlir" >&2
inputs+=("$mlir")

# Only the training run's counters: the generator's runs above are not what
# users time.
rm -rf "$profile_dir"
"$train_dir/bin/scheduler-corpus-bench" --compare=false --repetitions=3 \
  "${inputs[@]}" > "$train_dir/training.json"
echo "train_profile: profile of ${#inputs[@]} generated graphs in $profile_dir" >&2
