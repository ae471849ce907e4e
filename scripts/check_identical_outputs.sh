#!/usr/bin/env bash
# Records, or compares against a recording, what the tools produce for every
# graph of corpus/inductor: the imported graph (scheduler-translate
# --import-inductor, and again with --mlir-print-debuginfo for its
# locations), the schedule (scheduler-opt --fusion-schedule) and the PTX
# (scheduler-opt --fusion-to-ptx). A refactoring that must not change
# behaviour records before its first change and compares after each step.
#
#   scripts/check_identical_outputs.sh record  DIR   # write DIR/<graph>.{import,debuginfo,schedule,ptx}
#   scripts/check_identical_outputs.sh compare DIR   # exit 1 on the first difference
#
# BUILD_DIR (default: build) names the build whose bin/ holds the tools.
# A tool's exit status and stderr are recorded too, so a graph that used to be
# refused must still be refused the same way. The one field that changes from
# run to run (the time gpu-module-to-binary spent in LLVM) is masked.
set -euo pipefail
mode=${1:?record or compare}
dir=${2:?output directory}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BUILD_DIR:-$root/build}/bin
case $mode in
  record) mkdir -p "$dir"; out=$dir ;;
  compare) out=$(mktemp -d); trap 'rm -rf "$out"' EXIT ;;
  *) echo "usage: $0 record|compare DIR" >&2; exit 2 ;;
esac

run() { # NAME STDIN-FILE CMD...: writes NAME (stdout), NAME.err (stderr + status)
  local name=$1 in=$2; shift 2
  local rc=0
  "$@" <"$in" >"$name" 2>"$name.err" || rc=$?
  echo "exit $rc" >>"$name.err"
}

for dump in "$root"/corpus/inductor/*/*/ir_pre_fusion.txt; do
  graph=$(dirname "$dump")
  name=$(basename "$(dirname "$graph")").$(basename "$graph")
  run "$out/$name.import" /dev/null "$bin/scheduler-translate" --import-inductor "$dump"
  # The locations, which the plain print leaves out.
  run "$out/$name.debuginfo" /dev/null "$bin/scheduler-translate" --import-inductor --mlir-print-debuginfo "$dump"
  run "$out/$name.schedule" "$out/$name.import" "$bin/scheduler-opt" --fusion-schedule
  run "$out/$name.ptx" "$out/$name.import" "$bin/scheduler-opt" --fusion-to-ptx
  # gpu-module-to-binary records how long LLVM took (LLVMIRToISATimeInMs).
  sed -i -E 's/LLVMIRToISATimeInMs = [0-9]+/LLVMIRToISATimeInMs = N/' "$out/$name.ptx"
done

if [[ $mode == compare ]]; then
  diff -r "$dir" "$out" >&2 || { echo "check_identical_outputs: outputs differ from $dir" >&2; exit 1; }
  echo "check_identical_outputs: $(ls "$out" | wc -l) files identical to $dir"
fi
