"""ops.to_dtype_bitcast and ops.pow of floats (math.powf) on x = (p0 -
2048) / 256 in float32, p0 = 0 .. 4095: one node per case, each storing
one output. `python3 cases.py dump` writes bitcast-pow.txt; `python3
cases.py check` reads the JSON of the CPU JIT's outputs (bench/semantics/
jit_outputs.py, which has six significant digits) on stdin and compares
them with Python's values (struct for the bits, f64 pow rounded to f32 for
powf). bench/check_inductor_ops.py compares the GPU's outputs with
PyTorch's (Tensor.view(dtype), torch.pow) exactly."""
import json
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from node_dump import pointwise_node  # noqa: E402

N = 4096


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def f16(v):
    return struct.unpack("<e", struct.pack("<e", v))[0]


def bits(fmt, ifmt, v):
    return struct.unpack(ifmt, struct.pack(fmt, v))[0]


def x(p):
    return (p - 2048) / 256.0  # exact in f32


# (name, dtype of the output, body lines after `x = ...`, Python value)
CASES = [
    ("bits32", "int32", ["r = ops.to_dtype_bitcast(x, torch.int32, torch.float32)"],
     lambda p: bits("<f", "<i", x(p))),
    ("negated", "float32",
     ["b = ops.to_dtype_bitcast(x, torch.int32, torch.float32)",
      "m = ops.constant(-2147483648, torch.int32)",
      "n = ops.bitwise_xor(b, m)",
      "r = ops.to_dtype_bitcast(n, torch.float32, torch.int32)"],
     lambda p: -x(p)),
    ("bits16", "int16",
     ["h = ops.to_dtype(x, torch.float16, src_dtype = torch.float32)",
      "r = ops.to_dtype_bitcast(h, torch.int16, torch.float16)"],
     lambda p: bits("<e", "<h", f16(x(p)))),
    ("bits64", "int64",
     ["d = ops.to_dtype(x, torch.float64, src_dtype = torch.float32)",
      "r = ops.to_dtype_bitcast(d, torch.int64, torch.float64)"],
     lambda p: bits("<d", "<q", x(p))),
    ("powf", "float32",
     ["a = ops.abs(x)",
      "h = ops.constant(0.5, torch.float32)",
      "b = ops.add(a, h)",
      "r = ops.pow(b, x)"],
     lambda p: f32(math.pow(abs(x(p)) + 0.5, x(p)))),
    ("powf_int_valued", "float32",
     ["e = ops.floor(x)",
      "r = ops.pow(x, e)"],
     lambda p: f32(math.pow(x(p), math.floor(x(p))))
     if x(p) != 0 or math.floor(x(p)) >= 0 else math.inf),
    ("pow64", "float64",
     ["d = ops.to_dtype(x, torch.float64, src_dtype = torch.float32)",
      "a = ops.abs(d)",
      "h = ops.constant(0.5, torch.float64)",
      "b = ops.add(a, h)",
      "r = ops.pow(b, d)"],
     lambda p: math.pow(abs(x(p)) + 0.5, x(p))),
]

# The body's first lines: x = (p0 - 2048) / 256 in float32.
X_LINES = ["get_index = self.get_index('index0')",
           "i = ops.index_expr(get_index, torch.float32)",
           "s = ops.constant(0.00390625, torch.float32)",
           "x = ops.mul(i, s)"]


def main():
    if sys.argv[1:] == ["dump"]:
        print("\n".join(
            pointwise_node(i, N, dtype, "p0 - 2048", X_LINES + lines, "r")
            for i, (_, dtype, lines, _) in enumerate(CASES)), end="")
        return 0
    outputs = json.load(sys.stdin)
    bad = 0
    for (name, _, _, f), got in zip(CASES, outputs, strict=True):
        miss = []
        for p in range(N):
            want, g = f(p), got[p]
            if isinstance(g, str) or math.isinf(want) or math.isnan(want):
                ok = str(g).lstrip("-") == str(abs(want)).replace("math.", "")
                ok = ok or (isinstance(g, str) and g.lstrip("-") == "inf"
                            and math.isinf(want))
            else:
                ok = math.isclose(g, want, rel_tol=1e-5, abs_tol=1e-6)
            if not ok:
                miss.append((p, g, want))
        if miss:
            bad += 1
            print(f"MISMATCH {name}: {len(miss)} of {N}, first {miss[0]}")
    print(f"{len(CASES) - bad} of {len(CASES)} cases agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
