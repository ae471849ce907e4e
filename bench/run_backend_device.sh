#!/usr/bin/env bash
# Every dev-corpus model through torch.compile(backend="scheduler_opt") on
# the GPU machine (bench/backend_models.py says what is checked and timed).
#
# Here, on the build machine: build the static tools into
# .device-carry/backend/bin (git-ignored; carry .device-carry/backend):
#
#   bash bench/build_backend_tools.sh
#
# On the GPU machine, from the repository root:
#
#   bash bench/run_backend_device.sh [--models gpt2,resnet18]
#
# Results: $OUT/backend_models.{json,md} (or backend-out/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SCHEDULER_OPT_BIN="${SCHEDULER_OPT_BIN:-$root/.device-carry/backend/bin}"
if [[ ! -x "$SCHEDULER_OPT_BIN/scheduler-opt" && -f "$SCHEDULER_OPT_BIN/scheduler-opt.xz" ]]; then
  unpacked="$(mktemp -d)"
  for tool in scheduler-opt scheduler-translate; do
    xz -dc "$SCHEDULER_OPT_BIN/$tool.xz" > "$unpacked/$tool"
    chmod +x "$unpacked/$tool"
  done
  export SCHEDULER_OPT_BIN="$unpacked"
fi
if [[ ! -x "$SCHEDULER_OPT_BIN/scheduler-opt" ]]; then
  echo "run_backend_device: no tools in $SCHEDULER_OPT_BIN; run bench/build_backend_tools.sh here and carry .device-carry/backend" >&2
  exit 1
fi
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
out="${OUT:-$root/backend-out}"
python3 "$root/bench/backend_models.py" --out "$out" "$@"
