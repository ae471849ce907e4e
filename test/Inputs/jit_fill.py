#!/usr/bin/env python3
"""The input pattern of test-fusion-jit-main, reimplemented independently of
the lowering, and reference results of small graphs computed from it in
plain Python, printed as printMemrefF64 would print them.

    jit_fill.py add_sum     # sum(arg0_1 + arg1_1, dim=1) on 64x4096
"""
import struct
import sys

MASK = (1 << 64) - 1


def hash31(i, salt, seed=0):
    """The 31-bit hash of TestJitMain.cpp (i64 arithmetic, wrapping)."""
    u = (i * 2654435761) & MASK
    u = (u + salt * 40503 + seed * 97 + 12345) & MASK
    for shift in (13, 16):
        u ^= u >> shift
        u = (u * 1274126177) & MASK
    u ^= u >> 15
    return u & 0x7FFFFFFF


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def float_input(i, salt):
    """Float inputs: (h mod 4001) * 0.001 - 2, rounded to f32."""
    return f32((hash31(i, salt) % 4001) * 0.001 - 2.0)


def print_memref(values):
    print("Unranked Memref base@ = 0x0 rank = 1 offset = 0 sizes = [%d] "
          "strides = [1] data = " % len(values))
    print("[" + ",  ".join("%.9g" % v for v in values) + "]")


def add_sum():
    rows, cols = 64, 4096
    a = [float_input(i, 0) for i in range(rows * cols)]
    b = [float_input(i, 1) for i in range(rows * cols)]
    print_memref([sum(a[r * cols + c] + b[r * cols + c] for c in range(cols))
                  for r in range(rows)])


if __name__ == "__main__":
    {"add_sum": add_sum}[sys.argv[1]]()
