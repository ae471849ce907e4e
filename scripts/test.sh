#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (lit + GoogleTest +
# pytest) through the check-scheduler-opt target; then installs the build
# to a fresh prefix and builds and tests examples/downstream against it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$root/build}"
SKIP_EXAMPLE=1 bash "$root/scripts/setup.sh"
cmake --build "$build_dir" --target check-scheduler-opt
BUILD_DIR="$build_dir" bash "$root/scripts/check-downstream.sh"
