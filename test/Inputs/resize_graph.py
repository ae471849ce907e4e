#!/usr/bin/env python3
"""Prints a .mlir file with whole integers replaced: `resize_graph.py FILE
4096=8 1024=64` shrinks a 4096x1024 workload to 8x64 (shapes, strides and
index maps alike), so that tests run the same graph structure on small
sizes. Float constants are left alone."""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    table = dict(arg.split("=") for arg in sys.argv[2:])
    pattern = re.compile(r"(?<![\d.])(%s)(?![\d.eE])" % "|".join(
        re.escape(k) for k in sorted(table, key=len, reverse=True)))
    sys.stdout.write(pattern.sub(lambda m: table[m.group(1)], text))


if __name__ == "__main__":
    main()
