#!/usr/bin/env python3
"""The input pattern of test-fusion-jit-main, reimplemented independently of
the lowering, and reference results of small graphs computed from it in
plain Python, printed as printMemrefF64 would print them.

    jit_fill.py add_sum         # sum(arg0_1 + arg1_1, dim=1) on 64x4096
    jit_fill.py cat_reductions  # torch.cat of three row reductions and x*2
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


def cat_reductions():
    """torch.cat([x.sum(1, keepdim=True), x.amax(1, keepdim=True),
    x.mean(1, keepdim=True), x * 2], 1) on 512x300 (f32 sums in row order,
    the mean as the f32 sum divided by 300)."""
    rows, cols = 512, 300
    x = [float_input(i, 0) for i in range(rows * cols)]
    out = []
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        total = 0.0
        for v in row:
            total = f32(total + v)
        out += [total, max(row), f32(total / 300.0)]
        out += [f32(2.0 * v) for v in row]
    print_memref(out)


if __name__ == "__main__":
    {"add_sum": add_sum, "cat_reductions": cat_reductions}[sys.argv[1]]()
