#!/usr/bin/env bash
# Installs what is missing (Debian 12 packages), configures and builds
# scheduler-opt, then runs it on a bundled real example.
#
#   bash scripts/setup.sh            # install + build + run the example
#   SKIP_EXAMPLE=1 bash scripts/setup.sh
#
# BUILD_DIR (default: build) and BUILD_TYPE (default: Release) can be set.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$root/build}"
build_type="${BUILD_TYPE:-Release}"
llvm="/usr/lib/llvm-22"

packages=(
  cmake ninja-build ccache g++
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libgtest-dev python3 python3-pytest python3-setuptools
  libgoogle-perftools-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

linker=()
if command -v ld.lld >/dev/null; then
  linker=(-DLLVM_USE_LINKER=lld)
fi

if [[ ! -f "$build_dir/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build_dir" \
    -DCMAKE_BUILD_TYPE="$build_type" \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" \
    -DMLIR_TABLEGEN_EXE="$llvm/bin/mlir-tblgen" \
    "${linker[@]}"
fi
cmake --build "$build_dir"

if [[ -z "${SKIP_EXAMPLE:-}" ]]; then
  # Inductor's sum(a + b, dim=1), hand-written from the corpus: its memory
  # dependences, printed as Inductor's dumps print them.
  echo "setup: scheduler-opt examples/add_sum.mlir --test-print-dependences"
  "$build_dir/bin/scheduler-opt" "$root/examples/add_sum.mlir" \
    --pass-pipeline='builtin.module(fusion.graph(test-print-dependences))'
  # A real Inductor graph: gelu(layer_norm(x)), as Inductor dumped it before
  # fusion, imported and scheduled; the remarks explain the fusion.
  dump="corpus/inductor/layernorm_gelu/model__0_forward_1.0/ir_pre_fusion.txt"
  echo "setup: scheduler-translate --import-inductor $dump | scheduler-opt --fusion-schedule=explain"
  "$build_dir/bin/scheduler-translate" --import-inductor "$root/$dump" |
    "$build_dir/bin/scheduler-opt" --fusion-schedule=explain
fi
