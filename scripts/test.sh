#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (lit + GoogleTest +
# pytest) through the check-scheduler-opt target.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$root/build}"
SKIP_EXAMPLE=1 bash "$root/scripts/setup.sh"
cmake --build "$build_dir" --target check-scheduler-opt
