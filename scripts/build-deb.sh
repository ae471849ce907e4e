#!/usr/bin/env bash
# Builds the Debian package of scheduler-opt (CPack, cmake/SchedulerOptPackage.cmake):
# builds build/ as scripts/setup.sh does, then packages its install under
# /usr into build-deb/scheduler-opt_<version>_<arch>.deb.
#
#   bash scripts/build-deb.sh
#   apt-get install ./build-deb/scheduler-opt_*.deb   # next to LLVM 22's packages
#
# BUILD_DIR (default: build) and DEB_DIR (default: build-deb) can be set;
# scripts/check-deb.sh installs the package and checks it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${BUILD_DIR:-$root/build}")"
deb_dir="$(realpath -m "${DEB_DIR:-$root/build-deb}")"

# dpkg-shlibdeps (dpkg-dev) computes the dependencies of the binaries.
if ! command -v dpkg-shlibdeps >/dev/null; then
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends dpkg-dev
fi

BUILD_DIR="$build_dir" SKIP_EXAMPLE=1 bash "$root/scripts/setup.sh"
rm -rf "$deb_dir"
cpack --config "$build_dir/CPackConfig.cmake" -B "$deb_dir"
rm -rf "$deb_dir/_CPack_Packages"
for deb in "$deb_dir"/*.deb; do
  dpkg-deb --info "$deb"
done
