#!/usr/bin/env python3
"""Prints a .mlir file with whole integers replaced: `resize_graph.py FILE
4096=8 1024=64` shrinks a 4096x1024 workload to 8x64 (shapes, strides and
index maps alike), so that tests run the same graph structure on other
sizes. Numbers inside names (%buf2, %p1, i64, f32) and floats (2.0,
1e-05, 9.99999974E-6) are left alone."""
import re
import sys

NAME = re.compile(r"[A-Za-z0-9_.%]")


def whole(text, start, end):
    """True when text[start:end] (digits) is a number of its own."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    # "4096x1024xf32": dimensions of a shape are separated by 'x'.
    dim_before = before == "x" and start > 1 and text[start - 2].isdigit()
    if NAME.match(before) and not dim_before:
        return False
    if before == "-" and start > 1 and text[start - 2] in "eE":
        return False  # an exponent
    return after == "x" or not NAME.match(after)


def main():
    text = open(sys.argv[1]).read()
    table = dict(arg.split("=") for arg in sys.argv[2:])
    out, last = [], 0
    for m in re.finditer(r"\d+", text):
        if m.group() in table and whole(text, m.start(), m.end()):
            out.append(text[last:m.start()])
            out.append(table[m.group()])
            last = m.end()
    out.append(text[last:])
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
