#!/usr/bin/env python3
"""Compares the kernels of two scheduled graphs.

Reads two outputs of `test-print-dependences` (Inductor's debug format: one
`<name>: <Kind>SchedulerNode` line per top-level node, where a fused node's
name joins its members' names) and prints `same kernels: N (F fused)` when
both graphs have the same kernels with the same members and kinds, or the
kernels only one of them has, and exits with 1.
"""

import re
import sys

NODE = re.compile(r"^(\S+): (\w*SchedulerNode)$")


def kernels(path):
    with open(path) as f:
        return {m.groups() for m in map(NODE.match, f) if m}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare_kernels.py EXPECTED ACTUAL")
    expected, actual = kernels(sys.argv[1]), kernels(sys.argv[2])
    if not expected:
        sys.exit(f"{sys.argv[1]}: no nodes")
    if expected == actual:
        fused = sum(1 for _, kind in expected if kind == "FusedSchedulerNode")
        print(f"same kernels: {len(expected)} ({fused} fused)")
        return
    for name, kind in sorted(expected - actual):
        print(f"only in {sys.argv[1]}: {name}: {kind}")
    for name, kind in sorted(actual - expected):
        print(f"only in {sys.argv[2]}: {name}: {kind}")
    sys.exit(1)


if __name__ == "__main__":
    main()
