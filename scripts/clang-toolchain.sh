# Sourced by scripts/sanitize.sh and scripts/fuzz.sh: installs clang 22 and
# its sanitizer and libFuzzer runtimes (Debian packages) when they are
# missing, and sets CLANG_CC / CLANG_CXX. CI's default build does not need
# them, so scripts/setup.sh does not install them.
clang_packages=(clang-22 libclang-rt-22-dev)
clang_missing=()
for p in "${clang_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || clang_missing+=("$p")
done
if ((${#clang_missing[@]})); then
  echo "installing ${clang_missing[*]}"
  clang_sudo=()
  if [[ $(id -u) -ne 0 ]]; then clang_sudo=(sudo); fi
  DEBIAN_FRONTEND=noninteractive "${clang_sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${clang_sudo[@]}" apt-get install -y -qq \
    --no-install-recommends "${clang_missing[@]}"
fi
CLANG_CC=/usr/bin/clang-22
CLANG_CXX=/usr/bin/clang++-22

# configure_clang_build DIR [CMAKE ARGS...]: configures DIR with clang 22,
# -O1 and line tables for reports. NDEBUG stays defined: Debian's LLVM and
# MLIR are built with it, and headers differ with it (llvm::Statistic has
# another layout without NDEBUG, so a pass counting statistics would read
# garbage from an object libMLIR constructed; UBSan reports it at once).
configure_clang_build() {
  local dir="$1"
  shift
  [[ -f "$dir/build.ninja" ]] && return 0
  local linker=()
  if command -v ld.lld >/dev/null; then linker=(-DLLVM_USE_LINKER=lld); fi
  cmake -G Ninja -S "$root" -B "$dir" \
    -DCMAKE_C_COMPILER="$CLANG_CC" -DCMAKE_CXX_COMPILER="$CLANG_CXX" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only -DNDEBUG" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DMLIR_TABLEGEN_EXE=/usr/lib/llvm-22/bin/mlir-tblgen \
    "${linker[@]}" "$@"
}
