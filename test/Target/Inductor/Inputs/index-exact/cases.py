"""The index functions of index-functions-exact.txt and their values as
sympy computes them (Python's float arithmetic and math module, which is
what torch/utils/_sympy/functions.py evaluates them with), independent of
the importer. `python3 cases.py dump` writes the dump; `python3 cases.py
check` reads the JSON of the CPU JIT's outputs (bench/semantics/
jit_outputs.py) on stdin and compares every element exactly."""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from node_dump import pointwise_node  # noqa: E402

N = 4096
U = "FloatTrueDiv(ToFloat(p0) - 2048.0, 2048.0)"  # u in [-1, 1)


def u(p):
    return (float(p) - 2048.0) / 2048.0


def a16(p):
    return p % 16


def k4(p):
    return (p // 16) % 4


CASES = [
    ("TruncToInt(OpaqueUnaryFn_log2(ToFloat(p0 + 1)))",
     lambda p: math.trunc(math.log2(float(p + 1)))),
    ("FloorToInt(OpaqueUnaryFn_log2(FloatTrueDiv(ToFloat(p0 + 1), 64.0)))",
     lambda p: math.floor(math.log2(float(p + 1) / 64.0))),
    ("CeilToInt(OpaqueUnaryFn_log2(ToFloat(p0 + 1)))",
     lambda p: math.ceil(math.log2(float(p + 1)))),
    ("RoundToInt(1000*OpaqueUnaryFn_log2(ToFloat(p0 + 1)))",
     lambda p: round(1000 * math.log2(float(p + 1)))),
    ("TruncToInt(OpaqueUnaryFn_sqrt(ToFloat(p0)))",
     lambda p: math.trunc(math.sqrt(float(p)))),
    ("FloorToInt(FloatPow(ToFloat(p0), 0.5))",
     lambda p: math.floor(float(p) ** 0.5)),
    ("TruncToInt(FloatPow(ToFloat(ModularIndexing(p0, 1, 16)), ToFloat(ModularIndexing(p0, 16, 4))))",
     lambda p: math.trunc(float(a16(p)) ** float(k4(p)))),
    ("CeilToInt(FloatPow(ToFloat(ModularIndexing(p0, 1, 16)), ToFloat(ModularIndexing(p0, 16, 4))))",
     lambda p: math.ceil(float(a16(p)) ** float(k4(p)))),
    ("FloorToInt(1024*FloatPow(2.0, ToFloat(ModularIndexing(p0, 1, 16)) - 10.0))",
     lambda p: math.floor(1024 * 2.0 ** (float(a16(p)) - 10.0))),
    ("RoundToInt(IntTrueDiv(p0 - 2048, 4))",
     lambda p: round((p - 2048) / 4)),
    ("FloorToInt(IntTrueDiv(p0 - 2048, 3))",
     lambda p: math.floor((p - 2048) / 3)),
    ("CeilToInt(IntTrueDiv(p0 - 2048, 7))",
     lambda p: math.ceil((p - 2048) / 7)),
    ("TruncToInt(FloatTrueDiv(ToFloat(p0) - 2048.5, 7.0))",
     lambda p: math.trunc((float(p) - 2048.5) / 7.0)),
    ("PowByNatural(ModularIndexing(p0, 1, 16), ModularIndexing(p0, 16, 4))",
     lambda p: a16(p) ** k4(p)),
    ("PowByNatural(ModularIndexing(p0, 1, 32) - 16, 3)",
     lambda p: (p % 32 - 16) ** 3),
    ("TruncToInt(10.0*TruncToFloat(FloatTrueDiv(ToFloat(p0) - 2048.0, 100.0)))",
     lambda p: math.trunc(10.0 * float(math.trunc((float(p) - 2048.0) / 100.0)))),
    ("TruncToInt(1000*OpaqueUnaryFn_exp(FloatTrueDiv(ToFloat(p0) - 2048.0, 1024.0)))",
     lambda p: math.trunc(1000 * math.exp((float(p) - 2048.0) / 1024.0))),
    ("TruncToInt(1000*OpaqueUnaryFn_log(ToFloat(p0 + 1)))",
     lambda p: math.trunc(1000 * math.log(float(p + 1)))),
] + [
    (f"TruncToInt(1000*OpaqueUnaryFn_{fn}({U}))",
     (lambda f: lambda p: math.trunc(1000 * f(u(p))))(getattr(math, fn)))
    for fn in ("cos", "sin", "tan", "tanh", "sinh", "cosh", "asin", "acos",
               "atan", "asinh")
]

INDEX_LINES = ["get_index = self.get_index('index0')",
               "index_expr = ops.index_expr(get_index, torch.int64)"]


def main():
    if sys.argv[1:] == ["dump"]:
        print("\n".join(
            pointwise_node(i, N, "int64", e, INDEX_LINES, "index_expr")
            for i, (e, _) in enumerate(CASES)), end="")
        return 0
    outputs = json.load(sys.stdin)
    bad = 0
    for (expr, f), got in zip(CASES, outputs, strict=True):
        want = [f(p) for p in range(N)]
        diff = [p for p in range(N) if got[p] != want[p]]
        if diff:
            bad += 1
            p = diff[0]
            print(f"MISMATCH {expr}: {len(diff)} of {N}, "
                  f"p0={p}: got {got[p]}, want {want[p]}")
    print(f"{len(CASES) - bad} of {len(CASES)} index functions exact")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
