#!/usr/bin/env bash
# Installs the package scripts/build-deb.sh made into the system with apt,
# checks it there, and removes it again:
#   - apt resolves its Depends against the configured repositories (LLVM
#     22's packages), both for a system with nothing installed (a simulated
#     install against an empty dpkg status, as on a fresh machine) and for
#     this one;
#   - the installed tools run from /usr/bin: scheduler-opt --version, and a
#     corpus dump imported by scheduler-translate and scheduled by
#     scheduler-opt, fused as Inductor fuses it;
#   - examples/downstream configures, builds and passes its tests against
#     /usr alone (find_package(SchedulerOpt) from /usr/lib/cmake, the C API
#     from /usr/lib/libSchedulerOpt-C.so).
# Needs root (or sudo). KEEP_INSTALLED=1 leaves the package installed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deb_dir="$(realpath -m "${DEB_DIR:-$root/build-deb}")"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive

debs=("$deb_dir"/scheduler-opt_*.deb)
[[ -f "${debs[0]}" ]] || { echo "check-deb: no package in $deb_dir; run scripts/build-deb.sh" >&2; exit 1; }
if [[ "$(dpkg-query -W -f='${Status}' scheduler-opt 2>/dev/null)" == *" installed" ]]; then
  echo "check-deb: scheduler-opt is already installed; remove it first" >&2
  exit 1
fi

remove() {
  if [[ -z "${KEEP_INSTALLED:-}" ]]; then
    echo "+ apt-get remove --purge -y scheduler-opt"
    "${sudo_cmd[@]}" apt-get remove --purge -y -q scheduler-opt
  fi
}
trap remove EXIT

empty_status="$(mktemp)"
echo "+ apt-get install --simulate -o Dir::State::status=<empty> ${debs[0]}"
apt-get install --simulate -o Dir::State::status="$empty_status" "${debs[0]}" |
  grep -E '^Inst (scheduler-opt|libmlir|mlir-|llvm-|libllvm)|newly installed'
rm -f "$empty_status"

set -x
"${sudo_cmd[@]}" apt-get install -y -q "${debs[0]}"
dpkg -s scheduler-opt | grep -E '^(Status|Version|Depends):'
command -v scheduler-opt scheduler-translate scheduler-graph-gen
scheduler-opt --version
dump="$root/corpus/inductor/layernorm_gelu/model__0_forward_1.0/ir_pre_fusion.txt"
# Inductor's post-fusion dump of this graph: op0_op1_op3_op4_op5, one kernel.
scheduler-translate --import-inductor "$dump" |
  scheduler-opt --fusion-schedule |
  grep -c 'fusion.fused' | grep -qx 1
scheduler-translate --import-inductor "$dump" |
  scheduler-opt --fusion-schedule |
  grep -o 'fusion.node "op[0-9]*"' | tr '\n' ' '
echo
set +x
DOWNSTREAM_PREFIX=/usr bash "$root/scripts/check-downstream.sh"
