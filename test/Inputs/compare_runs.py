#!/usr/bin/env python3
"""Compares the outputs two runs of test-fusion-jit-main printed (blocks of
printMemrefF64), value by value: |a - b| <= atol + rtol * |b|, NaN equal to
NaN. Prints a one-line summary; exits 1 with the first differences if the
runs disagree. Used by the differential tests: the same graph before and
after fusion (and each run poisons unwritten outputs differently, so an
output left unwritten by either run shows as a difference)."""
import argparse
import math
import re
import sys


def parse(path):
    text = open(path).read()
    blocks = re.split(r"Unranked Memref base@ = \S+ ", text)[1:]
    outputs = []
    for block in blocks:
        data = block.split("data =", 1)[1]
        numbers = re.findall(r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)",
                             data)
        outputs.append([float(n) for n in numbers])
    return outputs


def close(a, b, rtol, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


def differences(path_a, path_b, rtol=1e-5, atol=1e-6):
    """None when the runs printed the same outputs, else what differs."""
    a, b = parse(path_a), parse(path_b)
    if not a:
        return "no outputs in %s" % path_a
    if len(a) != len(b):
        return "%d outputs against %d" % (len(a), len(b))
    bad = []
    for k, (x, y) in enumerate(zip(a, b)):
        if len(x) != len(y):
            return "output %d: %d values against %d" % (k, len(x), len(y))
        bad += [(k, i, u, v) for i, (u, v) in enumerate(zip(x, y))
                if not close(u, v, rtol, atol)]
    if bad:
        return "\n".join(["output %d element %d: %r != %r" % d
                          for d in bad[:10]] +
                         ["%d values differ" % len(bad)])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    args = parser.parse_args()
    problem = differences(args.a, args.b, args.rtol, args.atol)
    if problem:
        print(problem)
        return 1
    a = parse(args.a)
    print("same outputs: %d outputs, %d values" % (len(a), sum(map(len, a))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
