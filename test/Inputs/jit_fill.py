#!/usr/bin/env python3
"""The input pattern of test-fusion-jit-main, reimplemented independently of
the lowering, and reference results of small graphs computed from it in
plain Python, printed as printMemrefF64 would print them.

    jit_fill.py add_sum         # sum(arg0_1 + arg1_1, dim=1) on 64x4096
    jit_fill.py cat_reductions  # torch.cat of three row reductions and x*2
    jit_fill.py packed CASE R   # the float4_e2m1fn_x2 graphs of packed.test,
                                # integer inputs in [0, R)
    jit_fill.py packed_bits R   # packed.test's bits* graph
    jit_fill.py sort_cumsum C R # stride-max.test: view(-1, 64) sorted, cumsum
    jit_fill.py cat_bucketize   # concat-views.test: s = x.sum(1) read whole by
                                # bucketize, then an input of a cat
    jit_fill.py padding N H     # where-relations.test: reflection padding,
                                # instance norm, pixel_unshuffle; replication
                                # padding, cumsum
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


def sort_cumsum(cols, rows):
    """x.view(-1, 64) sorted along its rows (stable, ascending: the values,
    then the positions) and torch.cumsum(x, 0) of the rows x cols input
    (f32 sums in row order)."""
    x = [float_input(i, 0) for i in range(rows * cols)]
    values, positions = [], []
    for r in range(rows * cols // 64):
        row = x[r * 64:(r + 1) * 64]
        order = sorted(range(64), key=lambda k: row[k])
        values += [row[k] for k in order]
        positions += order
    sums, running = [], [0.0] * cols
    for r in range(rows):
        running = [f32(a + x[r * cols + c]) for c, a in enumerate(running)]
        sums += running
    print_memref(values)
    print_memref(positions)
    print_memref(sums)


def bucketize_binary_search(value, boundaries, size, numel, stride, base,
                            right):
    """Inductor's triton_helpers.bucketize_binary_search for one value
    and no sorter: ceil(log2(size + 1)) halvings of [low, high), a
    position past `numel` or `size` read as 0 and never moving `low`."""
    low, high, full_range = 0, size, size + 1
    while full_range > 1:
        mid = (low + high) // 2
        mask = mid * stride + base < numel and mid < size
        bound = boundaries[base + stride * mid] if mask else 0.0
        above = value >= bound if right else value > bound
        if above and mask:
            low = mid + 1
        if not above:
            high = mid
        full_range = (full_range + 1) // 2
    return low


def row_sums(x, rows, cols):
    """f32 sums of each row, in row order."""
    out = []
    for r in range(rows):
        total = 0.0
        for v in x[r * cols:(r + 1) * cols]:
            total = f32(total + v)
        out.append(total)
    return out


def cat_bucketize():
    """The graph of Inputs/unseen/cat-bucketize: s = arg0_1.sum(1) (64x8),
    torch.bucketize(arg1_1, s) (1000 values, right=False), and
    torch.cat([arg2_1.sum(1), s]); s is read at its own positions."""
    s = row_sums([float_input(i, 0) for i in range(64 * 8)], 64, 8)
    v = [float_input(i, 1) for i in range(1000)]
    y = row_sums([float_input(i, 2) for i in range(64 * 8)], 64, 8)
    print_memref(y + s)
    print_memref([bucketize_binary_search(x, s, 64, 64, 1, 0, False)
                  for x in v])
def padding(n, h):
    """bench/unseen_models_third.py's padding_modes on an [n, 4, h, h]
    input x (h odd), weight w and bias b of 4: pixel_unshuffle(
    instance_norm(F.pad(x, (3, 2, 1, 4), mode="reflect")), 2) and
    F.pad(x, (2, 2, 2, 2), mode="replicate").cumsum(-1). Statistics in
    double (the comparison's tolerance covers f32's), eps 1e-5, biased
    variance."""
    c = 4
    x = [float_input(i, 0) for i in range(n * c * h * h)]
    w = [float_input(i, 1) for i in range(c)]
    b = [float_input(i, 2) for i in range(c)]

    def at(k, ch, r, col):
        return x[((k * c + ch) * h + r) * h + col]

    def reflect(i, before):
        i -= before
        if i < 0:
            i = -i
        if i >= h:
            i = 2 * (h - 1) - i
        return i

    hp = h + 5
    unshuffled = []
    for k in range(n):
        normed = []
        for ch in range(c):
            plane = [at(k, ch, reflect(r, 1), reflect(col, 3))
                     for r in range(hp) for col in range(hp)]
            mean = sum(plane) / len(plane)
            var = sum((v - mean) ** 2 for v in plane) / len(plane)
            scale = 1.0 / (var + 1e-5) ** 0.5
            normed.append([(v - mean) * scale * w[ch] + b[ch] for v in plane])
        half = hp // 2
        for ch in range(c):
            for i in range(2):
                for j in range(2):
                    unshuffled += [normed[ch][(2 * a + i) * hp + 2 * bb + j]
                                   for a in range(half) for bb in range(half)]
    sums = []
    he = h + 4
    for k in range(n):
        for ch in range(c):
            for r in range(he):
                running = 0.0
                for col in range(he):
                    src = at(k, ch, min(max(r - 2, 0), h - 1),
                             min(max(col - 2, 0), h - 1))
                    running = f32(running + src)
                    sums.append(running)
    print_memref(unshuffled)
    print_memref(sums)


def int_input(i, salt, int_range):
    """Integer inputs: h mod int-range (TestJitMain's spread, truncated)."""
    return hash31(i, salt) % int_range


def bool_input(i, salt):
    """Boolean inputs: the hash's lowest bit."""
    return hash31(i, salt) & 1


def signed8(v):
    """A byte as the JIT prints an i8 (signed)."""
    v &= 0xFF
    return v - 256 if v >= 128 else v


def packed(case, int_range):
    """The graphs PyTorch 2.11 printed for float4_e2m1fn_x2 tensors
    (test/Target/Inductor/Inputs/unseen/packed-*), on bytes: the output's
    bytes as the JIT prints them (signed)."""
    r = int_range
    x = [int_input(i, 0, r) for i in range(64 * 32)]
    if case == "u8_to_f4":      # (x + 1).view(float4_e2m1fn_x2)
        out = [v + 1 for v in x]
    elif case == "f4_to_u8":    # x.view(uint8) * 3
        out = [v * 3 for v in x]
    elif case == "roundtrip":   # (x.view(uint8) ^ 0x11).view(f4).t().contiguous()
        out = [x[j * 32 + i] ^ 0x11 for i in range(32) for j in range(64)]
    elif case == "cat":         # torch.cat([a, b])
        out = x + [int_input(i, 1, r) for i in range(64 * 32)]
    elif case == "gather":      # x[idx], idx int64 of 16 rows
        idx = [int_input(i, 1, r) for i in range(16)]
        out = [x[k * 32 + c] for k in idx for c in range(32)]
    elif case == "where":       # torch.where(m, a, b)
        m = [bool_input(i, 0) for i in range(64 * 32)]
        a = [int_input(i, 1, r) for i in range(64 * 32)]
        b = [int_input(i, 2, r) for i in range(64 * 32)]
        out = [u if c else v for c, u, v in zip(m, a, b)]
    print_memref([signed8(v) for v in out])


def packed_bits(int_range):
    """test/Target/Inductor/Inputs/packed-bits.txt: bits16 read as int16
    times -3; a bits1x8 4x8 transposed; where(c > 100, a + b, a) on the
    bytes of a bits2x4 and a bits4x2, stored as bits8."""
    r = int_range
    x = [int_input(i, 0, r) for i in range(8)]
    prod = [(v * -3) & 0xFFFF for v in x]
    print_memref([v - 65536 if v >= 32768 else v for v in prod])
    t = [int_input(i, 1, r) for i in range(32)]
    print_memref([signed8(t[j * 8 + i]) for i in range(8) for j in range(4)])
    a, b, c = ([int_input(i, s, r) for i in range(8)] for s in (2, 3, 4))
    print_memref([signed8(a[i] + b[i] if c[i] > 100 else a[i])
                  for i in range(8)])


if __name__ == "__main__":
    if sys.argv[1] == "packed":
        packed(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "packed_bits":
        packed_bits(int(sys.argv[2]))
    elif sys.argv[1] == "sort_cumsum":
        sort_cumsum(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1] == "padding":
        padding(int(sys.argv[2]), int(sys.argv[3]))
    else:
        {"add_sum": add_sum, "cat_reductions": cat_reductions,
         "cat_bucketize": cat_bucketize}[sys.argv[1]]()
