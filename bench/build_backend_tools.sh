#!/usr/bin/env bash
# Builds statically linked, stripped scheduler-translate and scheduler-opt
# for machines without LLVM (the GPU machines), for the torch.compile
# backend (python/scheduler_opt), which finds them through SCHEDULER_OPT_BIN.
# They go into DIR xz-compressed (about 15 MB instead of 55: what travels to
# a device machine is limited to 64 MiB); `bench/run_backend_device.sh`
# unpacks them there.
#
#   bash bench/build_backend_tools.sh [DIR]   # default: .device-carry/backend/bin
#   NO_XZ=1 bash bench/build_backend_tools.sh DIR   # plain binaries
#
# BUILD_STATIC_DIR (default: build-static) is the CMake build directory
# (-DSCHEDULER_OPT_STATIC=ON); bench/gpu_machine_compare.sh --package
# shares it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/.device-carry/backend/bin}"
build_dir="${BUILD_STATIC_DIR:-$root/build-static}"
llvm="/usr/lib/llvm-22"
if [[ ! -f "$build_dir/build.ninja" ]]; then
  linker=()
  if command -v ld.lld >/dev/null; then linker=(-DLLVM_USE_LINKER=lld); fi
  cmake -G Ninja -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
    -DSCHEDULER_OPT_STATIC=ON -DSCHEDULER_OPT_ENABLE_UNITTESTS=OFF \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" \
    -DMLIR_TABLEGEN_EXE="$llvm/bin/mlir-tblgen" "${linker[@]}"
fi
ninja -C "$build_dir" -j2 scheduler-opt scheduler-translate
mkdir -p "$out"
for tool in scheduler-opt scheduler-translate; do
  rm -f "$out/$tool" "$out/$tool.xz"
  strip -o "$out/$tool" "$build_dir/bin/$tool"
  if [[ -z "${NO_XZ:-}" ]]; then xz -T2 -6 "$out/$tool"; fi
done
ls -l "$out"
