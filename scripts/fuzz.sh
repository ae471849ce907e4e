#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, ASan + UBSan + coverage, clang 22) in
# build-fuzz/ and runs one target, or all of them, for a given time each.
#
#   bash scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#   bash scripts/fuzz.sh all 600
#
# TARGET: fuzz-import-inductor, fuzz-parse-verify, fuzz-schedule,
# fuzz-lower, fuzz-generated or all. The corpus grows in
# $FUZZ_DIR/TARGET/corpus (default FUZZ_DIR: build-fuzz/fuzz-work) and is
# kept from run to run; crashes, timeouts and out-of-memory inputs land in
# $FUZZ_DIR/TARGET/crashes/. The first run seeds the corpus from
# examples/, test/ (each -split-input-file case alone) and the Inductor
# dumps of corpus/. JOBS (default 1) is the build's parallelism; the run
# itself is one process.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$root/build-fuzz}"
fuzz_dir="${FUZZ_DIR:-$build_dir/fuzz-work}"
jobs="${JOBS:-1}"
targets=(fuzz-import-inductor fuzz-parse-verify fuzz-schedule fuzz-lower fuzz-generated)

if (($# < 2)); then
  echo "usage: $0 TARGET|all SECONDS [libFuzzer options...]" >&2
  exit 2
fi
target="$1"
seconds="$2"
shift 2
if [[ "$target" == all ]]; then
  selected=("${targets[@]}")
elif [[ " ${targets[*]} " == *" $target "* ]]; then
  selected=("$target")
else
  echo "fuzz: unknown target '$target' (one of: ${targets[*]} all)" >&2
  exit 2
fi

source "$root/scripts/clang-toolchain.sh"
configure_clang_build "$build_dir" -DSCHEDULER_OPT_SANITIZE="address;undefined" \
  -DSCHEDULER_OPT_FUZZ=ON -DSCHEDULER_OPT_ENABLE_UNITTESTS=OFF
cmake --build "$build_dir" -j "$jobs" --target "${selected[@]}"

# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its free space
# (__asan_poison_memory_region) in code compiled with ASan, that is in the
# allocator functions inlined into our code; Debian's MLIR libraries are not
# instrumented and allocate from the same allocators without unpoisoning,
# so every context creation would be reported (use-after-poison in
# mlir::Dialect::addType).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allow_user_poisoning=0}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# seed TARGET DIR: writes the seed inputs of TARGET into DIR.
seed() {
  local target="$1" dir="$2"
  case "$target" in
  fuzz-import-inductor)
    find "$root/corpus/inductor" -name ir_pre_fusion.txt -size -200k |
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
    with open(os.path.join(out, "%s.%d" % (name, i)), "wb") as f:
        f.write((b"\0" if prefix else b"") + case.encode())
PY
    done
    ;;
  fuzz-generated)
    # A few byte strings; the generator turns any of them into a graph.
    for i in 1 2 3 4 5 6 7 8; do
      head -c 64 /dev/urandom >"$dir/random$i"
    done
    ;;
  esac
}

status=0
for t in "${selected[@]}"; do
  corpus="$fuzz_dir/$t/corpus"
  crashes="$fuzz_dir/$t/crashes"
  mkdir -p "$corpus" "$crashes"
  if [[ -z "$(ls -A "$corpus")" ]]; then
    (cd "$root" && seed "$t" "$corpus")
  fi
  echo "fuzz: $t for $seconds s ($(ls "$corpus" | wc -l) corpus inputs)"
  "$build_dir/bin/$t" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=3072 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$@" "$corpus" \
    2>&1 | tee "$fuzz_dir/$t/last-run.log" | grep -E '^#|ERROR|==[0-9]+==|invariant|stat::' || true
  if ls "$crashes" | grep -q .; then
    echo "fuzz: $t: inputs in $crashes"
    status=1
  fi
done
exit $status
