"""Shared helpers of the benchmarks: run scheduler-opt with -mlir-timing
(as JSON, -mlir-output-format=json) and read its timing report."""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TIMING_FLAGS = ["-mlir-timing", "-mlir-output-format=json"]


def parse_timing(stderr):
    """{name: seconds} of the JSON timing report at the end of `stderr`,
    summing the entries that share a name at any depth (a pass or analysis
    that runs twice); None when there is no report."""
    # The report is a list that opens on a line of its own.
    start = 0 if stderr.startswith("[\n") else stderr.rfind("\n[\n") + 1
    if start == 0 and not stderr.startswith("[\n"):
        return None
    try:
        report, _ = json.JSONDecoder().raw_decode(stderr, start)
    except ValueError:
        return None
    times = {}
    entries = list(report)
    while entries:
        entry = entries.pop()
        if "name" in entry:
            name = entry["name"]
            times[name] = times.get(name, 0.0) + entry["wall"]["duration"]
        entries.extend(entry.get("passes", ()))
    return times


def timing_report(opt, graph, args, verify):
    """Runs `opt graph args` with -mlir-timing and returns ({name: seconds},
    stderr) (parse_timing)."""
    cmd = [opt, graph, *args, *TIMING_FLAGS,
           "-verify-each=" + ("1" if verify else "0"), "-o", "/dev/null"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("scheduler-opt failed:\n" + result.stderr)
    times = parse_timing(result.stderr)
    if times is None:
        sys.exit("scheduler-opt printed no timing report:\n" + result.stderr)
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
    """scheduler-graph-gen and scheduler-opt of a build folder."""
    return (os.path.join(build, "bin", "scheduler-graph-gen"),
            os.path.join(build, "bin", "scheduler-opt"))
