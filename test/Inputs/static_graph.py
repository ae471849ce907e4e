#!/usr/bin/env python3
"""Prepares a scheduled graph for the CPU JIT's differential runs of
dynamic shapes: the results of every `fusion.extern` become graph inputs
(the JIT has no matmuls; the kernels then read pseudo-random "extern
results"), and with NAME=VALUE arguments the size symbols are replaced by
constants, which gives the same graph with static sizes.

    static_graph.py GRAPH.mlir [s0=3 s1=10]
"""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    values = dict(kv.split("=") for kv in sys.argv[2:])
    inputs, lines = [], []
    for line in text.splitlines():
        m = re.match(r"\s*(%\w+) = fusion\.extern .*-> (!fusion\.buffer<.*>)\s*$",
                     line)
        if m:
            inputs.append("%s: %s" % (m.group(1), m.group(2)))
        else:
            lines.append(line)
    text = "\n".join(lines)
    if inputs:
        text = text.replace(") -> (", ", %s) -> (" % ", ".join(inputs), 1)
    if values:
        text = re.sub(r"symbols\([^)]*\) ", "", text, count=1)
        text = re.sub(r", symbol_names = \[[^]]*\]", "", text)
        for name, value in values.items():
            text = re.sub(r"\b%s\b" % name, value, text)
    print(text)


if __name__ == "__main__":
    main()
