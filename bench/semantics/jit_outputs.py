#!/usr/bin/env python3
"""Turns what test-fusion-jit-main printed (printMemrefF64 blocks, one per
output storage) into JSON: a list of lists of numbers (NaN and infinities
as strings). The GPU run compares its output storages with them."""
import json
import re
import sys

blocks = re.split(r"Unranked Memref base@ = \S+ ", sys.stdin.read())[1:]
outputs = []
for block in blocks:
    data = block.split("data =", 1)[1]
    values = re.findall(r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", data)
    outputs.append([v if v.lstrip("-") in ("nan", "inf") else float(v)
                    for v in values])
json.dump(outputs, sys.stdout)
