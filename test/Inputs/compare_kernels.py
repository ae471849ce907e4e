#!/usr/bin/env python3
"""Compares the kernels of two scheduled graphs.

Reads two outputs of `test-print-dependences` (Inductor's debug format: one
`<name>: <Kind>SchedulerNode` line per top-level node, where a fused node's
name joins its members' names) and prints `same kernels: N (F fused)` when
both graphs have the same kernels with the same members and kinds, or the
kernels only one of them has, and exits with 1. With --unordered, members
count as a set (a kernel's name lists its members in the order they joined
it).
"""

import re
import sys

NODE = re.compile(r"^(\S+): (\w*SchedulerNode)$")


def kernels(path, unordered):
    with open(path) as f:
        found = {m.groups() for m in map(NODE.match, f) if m}
    if unordered:
        found = {("_".join(sorted(name.split("_"))), kind)
                 for name, kind in found}
    return found


def main():
    args = sys.argv[1:]
    unordered = "--unordered" in args
    args = [a for a in args if a != "--unordered"]
    if len(args) != 2:
        sys.exit("usage: compare_kernels.py [--unordered] EXPECTED ACTUAL")
    sys.argv[1:] = args
    expected = kernels(args[0], unordered)
    actual = kernels(args[1], unordered)
    if not expected:
        sys.exit(f"{args[0]}: no nodes")
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
