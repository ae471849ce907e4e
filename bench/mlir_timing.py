"""Shared helpers of the scaling benchmarks: run scheduler-opt with
-mlir-timing and read its timing report."""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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


def scaling_arguments(doc):
    """The command line both scaling scripts share: build folder, sizes,
    seed and repetitions."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    return parser


def tools(build):
    """fusion-graph-gen and scheduler-opt of a build folder."""
    return (os.path.join(build, "bin", "fusion-graph-gen"),
            os.path.join(build, "bin", "scheduler-opt"))
