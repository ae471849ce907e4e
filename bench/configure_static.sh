#!/usr/bin/env bash
# Configures the CMake build directory of statically linked tools
# (-DSCHEDULER_OPT_STATIC=ON), for machines without LLVM, and prints its
# path. BUILD_STATIC_DIR (default: build-static) names it. Used by
# build_backend_tools.sh and gpu_machine_compare.sh --package.
#
# With GCC the tools are optimized with a profile (SCHEDULER_OPT_PGO=1, the
# default): bench/train_profile.sh first builds them instrumented in
# BUILD_STATIC_DIR-train and runs them on generated graphs, on every call,
# so that the profile follows the sources. SCHEDULER_OPT_PGO=0 builds them
# without. Arguments are passed on to cmake after the script's own (they
# win). Everything but the directory's path goes to stderr.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_STATIC_DIR:-$root/build-static}"
llvm="/usr/lib/llvm-22"
pgo="${SCHEDULER_OPT_PGO:-1}"
if [[ "$pgo" == 1 ]] && ! "${CXX:-c++}" --version 2>/dev/null | grep -q "Free Software Foundation"; then
  echo "configure_static: not GCC, so no profile-guided build" >&2
  pgo=0
fi
profile=()
if [[ "$pgo" == 1 ]]; then
  bash "$root/bench/train_profile.sh" "$build_dir"
  profile=(-DSCHEDULER_OPT_PROFILE=use -DSCHEDULER_OPT_PROFILE_DIR="$build_dir-train/profile")
else
  profile=(-DSCHEDULER_OPT_PROFILE=)
fi
linker=()
if command -v ld.lld >/dev/null; then linker=(-DLLVM_USE_LINKER=lld); fi
# Configured on every call (a few seconds): switching SCHEDULER_OPT_PGO
# reconfigures the same directory.
cmake -G Ninja -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
  -DSCHEDULER_OPT_STATIC=ON -DSCHEDULER_OPT_ENABLE_UNITTESTS=OFF \
  -DMLIR_DIR="$llvm/lib/cmake/mlir" -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" \
  -DMLIR_TABLEGEN_EXE="$llvm/bin/mlir-tblgen" "${profile[@]}" "${linker[@]}" "$@" >&2
echo "$build_dir"
