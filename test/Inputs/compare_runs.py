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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    args = parser.parse_args()
    a, b = parse(args.a), parse(args.b)
    if not a:
        print("no outputs in %s" % args.a)
        return 1
    if len(a) != len(b):
        print("%d outputs against %d" % (len(a), len(b)))
        return 1
    bad = []
    for k, (x, y) in enumerate(zip(a, b)):
        if len(x) != len(y):
            print("output %d: %d values against %d" % (k, len(x), len(y)))
            return 1
        bad += [(k, i, u, v) for i, (u, v) in enumerate(zip(x, y))
                if not close(u, v, args.rtol, args.atol)]
    if bad:
        for k, i, u, v in bad[:10]:
            print("output %d element %d: %r != %r" % (k, i, u, v))
        print("%d values differ" % len(bad))
        return 1
    print("same outputs: %d outputs, %d values" % (len(a), sum(map(len, a))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
