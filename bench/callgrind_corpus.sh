#!/usr/bin/env bash
# Counts the instructions of the timed import + schedule on six corpus
# graphs under callgrind (bench/README.md, *Where the time goes*):
#
#   bash bench/callgrind_corpus.sh BENCH OUT [--functions N]
#
# BENCH is a scheduler-corpus-bench (for instance build/bin/scheduler-corpus-bench),
# OUT a directory for callgrind's files (OUT/<graph>.callgrind). For each of
# adam_step, chain200, gpt2 forward, gpt2_train forward and backward and
# resnet18 it runs
#
#   LD_BIND_NOW=1 valgrind --tool=callgrind --toggle-collect='importAndSchedule*' \
#     BENCH --compare=false --explain-options= --repetitions=5 --context-threads=0 DIR -o /dev/null
#
# and prints one line a graph, in instructions a repetition (over the five):
# all those counted in importAndSchedule ("timed", the context's setup
# included), mlir::verify's inclusive ones (the verification of the
# schedule after its timer stops), the import's (importInductorDump,
# inclusive) and the timed less mlir::verify, the figure bench/README.md
# compares. --functions N adds, under each graph, its N costliest
# functions below importAndSchedule by inclusive instructions a repetition
# (callgrind_annotate --inclusive=yes).
# LD_BIND_NOW keeps the dynamic linker's lazy binding out of the count.
set -euo pipefail

bench=${1:?usage: callgrind_corpus.sh BENCH OUT [--functions N]}
out=${2:?usage: callgrind_corpus.sh BENCH OUT [--functions N]}
functions=0
if [[ ${3:-} == --functions ]]; then functions=${4:?--functions needs a count}; fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reps=5
mkdir -p "$out"

graphs=(
  "adam_step adam_step/model__0_inference_0.0"
  "chain200 chain200/model__0_inference_0.0"
  "gpt2_forward gpt2/model__0_forward_1.0"
  "gpt2_train_forward gpt2_train/model__0_forward_1.0"
  "gpt2_train_backward gpt2_train/model__0_backward_7.3"
  "resnet18 resnet18/model__0_forward_1.0"
)

# The inclusive count of the first function whose name starts with $2 in
# callgrind_annotate's inclusive listing $1 (0 when none).
inclusive() {
  awk -v name="$2" '
    { line = $0; gsub(/,/, "", $1) }
    $1 ~ /^[0-9]+$/ {
      fn = line; sub(/^[^:]*:/, "", fn)
      if (index(fn, name) == 1) { print $1; found = 1; exit }
    }
    END { if (!found) print 0 }' "$1"
}

printf '%-22s %10s %10s %10s %12s\n' graph timed verify import 'less verify'
for entry in "${graphs[@]}"; do
  read -r name dir <<<"$entry"
  file="$out/$name.callgrind"
  LD_BIND_NOW=1 valgrind --tool=callgrind --callgrind-out-file="$file" \
    --toggle-collect='importAndSchedule*' \
    "$bench" --compare=false --explain-options= --repetitions=$reps \
    --context-threads=0 "$root/corpus/inductor/$dir" -o /dev/null \
    >"$out/$name.log" 2>&1
  callgrind_annotate --inclusive=yes --threshold=100 --show-percs=no \
    --auto=no "$file" >"$out/$name.inclusive" 2>/dev/null
  total=$(awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); print $1; exit }' "$out/$name.inclusive")
  verify=$(inclusive "$out/$name.inclusive" 'mlir::verify(')
  import=$(inclusive "$out/$name.inclusive" 'mlir::fusion::importInductorDump(')
  awk -v n="$name" -v t="$total" -v v="$verify" -v i="$import" -v r=$reps 'BEGIN {
    printf "%-22s %9.3fM %9.3fM %9.3fM %11.3fM\n", n, t / r / 1e6, v / r / 1e6,
      i / r / 1e6, (t - v) / r / 1e6 }'
  if ((functions > 0)); then
    # Below importAndSchedule: the functions that count less than the total.
    awk -v k="$functions" -v r=$reps -v t="$total" '
      { line = $0; gsub(/,/, "", $1) }
      $1 ~ /^[0-9]+$/ && !/PROGRAM TOTALS/ && $1 + 0 < t + 0 && shown < k {
        fn = line; sub(/^[^:]*:/, "", fn)
        printf "    %9.3fM  %s\n", $1 / r / 1e6, substr(fn, 1, 100); shown++ }' \
      "$out/$name.inclusive"
  fi
done
