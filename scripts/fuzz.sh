#!/usr/bin/env bash
# Runs the libFuzzer targets (fuzz/, ASan + UBSan + coverage, clang 22) for a
# given time each, keeping each target's corpus and crashes.
#
#   bash scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#   bash scripts/fuzz.sh all 600
#   PARALLEL=1 bash scripts/fuzz.sh all 600 -fork=3 -ignore_crashes=1
#   bash scripts/fuzz.sh seeds          # rebuilds fuzz/corpus/ (minimized)
#
# TARGET: fuzz-import-inductor, fuzz-parse-verify, fuzz-schedule,
# fuzz-lower, fuzz-generated or all. The targets are built in build-fuzz/
# (BUILD_DIR), unless FUZZ_ALL names a fuzz-all binary already built (one
# copied to a machine without LLVM, say), which then runs every target
# (SCHEDULER_OPT_FUZZ_TARGET). The corpus grows in $FUZZ_DIR/TARGET/corpus
# (default FUZZ_DIR: build-fuzz/fuzz-work) and is kept from run to run;
# crashes, timeouts and out-of-memory inputs land in
# $FUZZ_DIR/TARGET/crashes/, libFuzzer's log in $FUZZ_DIR/TARGET/last-run.log.
# The first run seeds the corpus from fuzz/corpus/TARGET, the committed
# seeds: the examples, the tests (each -split-input-file case alone) and
# the Inductor dumps of corpus/, minimized by libFuzzer's -merge=1 to those
# that add coverage (`seeds` rebuilds them). With PARALLEL=1 the targets
# run at the same time (for machines with a core or more per target);
# otherwise one after another. JOBS (default 1) is the build's parallelism.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$root/build-fuzz}"
fuzz_dir="${FUZZ_DIR:-$build_dir/fuzz-work}"
jobs="${JOBS:-1}"
targets=(fuzz-import-inductor fuzz-parse-verify fuzz-schedule fuzz-lower fuzz-generated)

if [[ "${1:-}" != seeds ]] && (($# < 2)); then
  echo "usage: $0 TARGET|all SECONDS [libFuzzer options...] | $0 seeds" >&2
  exit 2
fi
target="$1"
seconds="${2:-0}"
shift $(($# < 2 ? $# : 2))
if [[ "$target" == all || "$target" == seeds ]]; then
  selected=("${targets[@]}")
elif [[ " ${targets[*]} " == *" $target "* ]]; then
  selected=("$target")
else
  echo "fuzz: unknown target '$target' (one of: ${targets[*]} all)" >&2
  exit 2
fi

# fuzzer TARGET [ARGS...]: runs TARGET's fuzzer with ARGS.
if [[ -n "${FUZZ_ALL:-}" ]]; then
  fuzzer() { SCHEDULER_OPT_FUZZ_TARGET="$1" "$FUZZ_ALL" "${@:2}"; }
else
  source "$root/scripts/clang-toolchain.sh"
  configure_clang_build "$build_dir" -DSCHEDULER_OPT_SANITIZE="address;undefined" \
    -DSCHEDULER_OPT_FUZZ=ON -DSCHEDULER_OPT_ENABLE_UNITTESTS=OFF
  cmake --build "$build_dir" -j "$jobs" --target "${selected[@]}"
  fuzzer() { "$build_dir/bin/$1" "${@:2}"; }
fi

# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its free space
# (__asan_poison_memory_region) in code compiled with ASan, that is in the
# allocator functions inlined into our code; Debian's MLIR libraries are not
# instrumented and allocate from the same allocators without unpoisoning,
# so every context creation would be reported (use-after-poison in
# mlir::Dialect::addType).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allow_user_poisoning=0}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# seed TARGET DIR: writes every candidate seed input of TARGET into DIR
# (`seeds` keeps those that add coverage in fuzz/corpus/TARGET). Inputs
# over 32 kB are left out: the committed seeds stay small.
seed() {
  local target="$1" dir="$2"
  case "$target" in
  fuzz-import-inductor)
    find "$root/corpus/inductor" -name ir_pre_fusion.txt -size -33k |
      sort | while read -r f; do
        cp "$f" "$dir/$(echo "$f" | sed "s|$root/corpus/inductor/||; s|/|_|g")"
      done
    ;;
  fuzz-parse-verify | fuzz-schedule | fuzz-lower)
    # One selector byte first for the targets that take one (0: defaults).
    local prefix=""
    [[ "$target" != fuzz-parse-verify ]] && prefix='\0'
    find "$root/examples" "$root/test" -name '*.mlir' | sort | while read -r f; do
      python3 - "$f" "$dir" "$prefix" <<'PY'
import os, sys
path, out, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path).read()
name = os.path.relpath(path).replace("/", "_")
for i, case in enumerate(text.split("// -----")):
    if len(case) > 32768:
        continue
    with open(os.path.join(out, "%s.%d" % (name, i)), "wb") as f:
        f.write((b"\0" if prefix else b"") + case.encode())
PY
    done
    ;;
  fuzz-generated)
    # A few byte strings; the generator turns any of them into a graph.
    for i in 1 2 3 4 5 6 7 8; do
      python3 -c "import random, sys; random.seed($i); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(64)))" >"$dir/random$i"
    done
    ;;
  esac
}

if [[ "$target" == seeds ]]; then
  for t in "${selected[@]}"; do
    raw="$(mktemp -d)"
    (cd "$root" && seed "$t" "$raw")
    rm -rf "$root/fuzz/corpus/$t"
    mkdir -p "$root/fuzz/corpus/$t"
    fuzzer "$t" -merge=1 -max_len=65536 -timeout=20 -rss_limit_mb=3072 \
      "$root/fuzz/corpus/$t" "$raw" 2>&1 | grep -E '^MERGE-OUTER: [0-9]+ new' || true
    echo "seeds: $t: $(ls "$raw" | wc -l) candidates," \
      "$(ls "$root/fuzz/corpus/$t" | wc -l) kept," \
      "$(du -sk "$root/fuzz/corpus/$t" | cut -f1) kB"
    rm -rf "$raw"
  done
  exit 0
fi

# run TARGET: fuzzes TARGET for $seconds s; fails when it left crashes.
run() {
  local t="$1"
  shift
  local corpus="$fuzz_dir/$t/corpus" crashes="$fuzz_dir/$t/crashes"
  mkdir -p "$corpus" "$crashes"
  if [[ -z "$(ls -A "$corpus")" ]]; then
    cp "$root/fuzz/corpus/$t/"* "$corpus/" 2>/dev/null ||
      (cd "$root" && seed "$t" "$corpus")
  fi
  echo "fuzz: $t for $seconds s ($(ls "$corpus" | wc -l) corpus inputs)"
  fuzzer "$t" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=3072 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$@" "$corpus" \
    >"$fuzz_dir/$t/last-run.log" 2>&1 || true
  grep -E '^#[0-9]+ *DONE|ERROR|==[0-9]+==|invariant|stat::number_of_executed_units|stat::average_exec_per_sec' \
    "$fuzz_dir/$t/last-run.log" | sed "s/^/$t: /" || true
  if ls "$crashes" | grep -q .; then
    echo "fuzz: $t: inputs in $crashes"
    return 1
  fi
}

status=0
if [[ -n "${PARALLEL:-}" ]]; then
  pids=()
  for t in "${selected[@]}"; do
    run "$t" "$@" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
else
  for t in "${selected[@]}"; do run "$t" "$@" || status=1; done
fi
exit $status
