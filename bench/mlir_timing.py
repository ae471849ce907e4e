"""Shared helpers of the scaling benchmarks: run scheduler-opt with
-mlir-timing and read its timing report."""

import re
import subprocess
import sys

LINE = re.compile(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(.*\S)\s*$")


def timing_report(opt, graph, args, verify):
    """Runs `opt graph args` with -mlir-timing and returns {name: seconds},
    summing the entries that share a name (a pass or analysis that runs
    twice)."""
    cmd = [opt, graph, *args, "-mlir-timing",
           "-verify-each=" + ("1" if verify else "0"), "-o", "/dev/null"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("scheduler-opt failed:\n" + result.stderr)
    times = {}
    for line in result.stderr.splitlines():
        match = LINE.match(line)
        if match:
            name = match.group(2)
            times[name] = times.get(name, 0.0) + float(match.group(1))
    return times, result.stderr
