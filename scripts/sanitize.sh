#!/usr/bin/env bash
# Builds scheduler-opt with AddressSanitizer + UndefinedBehaviorSanitizer
# (clang 22, -fno-sanitize-recover=all: the first report fails the run) in
# build-asan/, and runs the whole lit + GoogleTest suite (check-scheduler-opt)
# under it. Every tool the tests run is the instrumented one; mlir-runner
# (the JIT) and the MLIR libraries are Debian's, uninstrumented.
#
#   bash scripts/sanitize.sh            # JOBS=1 by default: the build is long
#   JOBS=2 BUILD_DIR=/tmp/asan bash scripts/sanitize.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$root/build-asan}"
jobs="${JOBS:-1}"
source "$root/scripts/clang-toolchain.sh"

# SchedulerOptUnitTests and the C API test are built like everything else;
# the examples/downstream install check is not part of this run.
configure_clang_build "$build_dir" -DSCHEDULER_OPT_SANITIZE="address;undefined"

# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its free space
# (__asan_poison_memory_region) in code compiled with ASan, that is in the
# allocator functions inlined into our code; Debian's MLIR libraries are not
# instrumented and allocate from the same allocators without unpoisoning,
# so every context creation would be reported (use-after-poison in
# mlir::Dialect::addType).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:allow_user_poisoning=0}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LIT_OPTS="${LIT_OPTS:--sv}"
start=$(date +%s)
cmake --build "$build_dir" -j "$jobs" --target SchedulerOptUnitTests scheduler-opt-capi-test \
  scheduler-corpus-bench scheduler-graph-gen scheduler-opt scheduler-translate
built=$(date +%s)
cmake --build "$build_dir" -j "$jobs" --target check-scheduler-opt
done_at=$(date +%s)
echo "sanitize: build $((built - start)) s, tests $((done_at - built)) s"
