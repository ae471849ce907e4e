#!/usr/bin/env bash
# What a compiler outside this repository does with scheduler-opt: install
# the build to a fresh prefix, then configure, build and test
# examples/downstream against that prefix only.
#
#   bash scripts/check-downstream.sh               # install build/ first
#   DOWNSTREAM_PREFIX=/usr bash scripts/check-downstream.sh
#                                                  # use an existing install
#                                                  # (e.g. the .deb), as is
#
# BUILD_DIR (default: build) is the scheduler-opt build to install; the
# prefix and the example's build live in $BUILD_DIR/downstream/, wiped
# first, at fixed paths so that ccache hits on a rerun.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath "${BUILD_DIR:-$root/build}")"
llvm="/usr/lib/llvm-22"
work="$build_dir/downstream"

rm -rf "$work"
mkdir -p "$work"
if [[ -n "${DOWNSTREAM_PREFIX:-}" ]]; then
  prefix="$DOWNSTREAM_PREFIX"
else
  prefix="$work/prefix"
  echo "check-downstream: cmake --install $build_dir --prefix $prefix"
  cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log"
fi

options=(-DCMAKE_BUILD_TYPE=Release
         -DCMAKE_PREFIX_PATH="$prefix"
         -DLLVM_EXTERNAL_LIT="$llvm/bin/lit")
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$root"
  options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if command -v ld.lld >/dev/null; then
  options+=(-DLLVM_USE_LINKER=lld)
fi

echo "check-downstream: examples/downstream against $prefix"
cmake -G Ninja -S "$root/examples/downstream" -B "$work/build" "${options[@]}" \
  >"$work/configure.log"  # errors still reach stderr
grep "Using SchedulerOptConfig.cmake" "$work/configure.log"
cmake --build "$work/build" --target check-downstream
