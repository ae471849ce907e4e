#!/usr/bin/env bash
# Configures (once) the CMake build directory of statically linked tools
# (-DSCHEDULER_OPT_STATIC=ON), for machines without LLVM, and prints its
# path. BUILD_STATIC_DIR (default: build-static) names it. Used by
# build_backend_tools.sh and gpu_machine_compare.sh --package.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_STATIC_DIR:-$root/build-static}"
llvm="/usr/lib/llvm-22"
if [[ ! -f "$build_dir/build.ninja" ]]; then
  linker=()
  if command -v ld.lld >/dev/null; then linker=(-DLLVM_USE_LINKER=lld); fi
  cmake -G Ninja -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
    -DSCHEDULER_OPT_STATIC=ON -DSCHEDULER_OPT_ENABLE_UNITTESTS=OFF \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" \
    -DMLIR_TABLEGEN_EXE="$llvm/bin/mlir-tblgen" "${linker[@]}" >&2
fi
echo "$build_dir"
