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
# The build directory is configure_static.sh's (BUILD_STATIC_DIR, default
# build-static), shared with bench/gpu_machine_compare.sh --package; with GCC
# the tools are optimized with a profile of generated graphs
# (SCHEDULER_OPT_PGO=0: without; docs/Reliability.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/.device-carry/backend/bin}"
build_dir="$(bash "$root/bench/configure_static.sh")"
ninja -C "$build_dir" -j2 scheduler-opt scheduler-translate
mkdir -p "$out"
for tool in scheduler-opt scheduler-translate; do
  rm -f "$out/$tool" "$out/$tool.xz"
  strip -o "$out/$tool" "$build_dir/bin/$tool"
  if [[ -z "${NO_XZ:-}" ]]; then xz -T2 -6 "$out/$tool"; fi
done
ls -l "$out"
