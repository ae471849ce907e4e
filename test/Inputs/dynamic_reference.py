#!/usr/bin/env python3
"""Reference outputs of the dynamic corpus graphs, computed independently of
scheduler-opt from the definitions of the PyTorch models (their
fx_graph_readable.py), on the inputs test-fusion-jit-main fills (its hash
pattern, reproduced here), and compared with what a JIT run printed.

    dynamic_reference.py GRAPH SIZE... < run.txt

GRAPH is softmax, layernorm_gelu_fwd or layernorm_gelu_bwd; the SIZEs are
the size symbols' values in the graph's order (those given to
test-fusion-jit-main's `sizes`). Prints one line per output checked; exits 1
at the first value that differs by more than 2e-5 + 1e-4 |ref| (the run
prints six significant digits). The input pattern is jit_fill.py's, the
parsing compare_runs.py's. Pure Python: no numpy.
"""
import math
import sys

from compare_runs import parse
from jit_fill import float_input


def fill(n, salt):
    """A float input of n elements, the host function's argument `salt`."""
    return [float_input(i, salt) for i in range(n)]


def softmax(rows, cols):
    # arg0: x [rows, cols]; output: softmax over the last dimension.
    x = fill(rows * cols, 0)
    out = []
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        m = max(row)
        e = [math.exp(v - m) for v in row]
        s = sum(e)
        out += [v / s for v in e]
    return [out]


H = 1024


def _layernorm(rows, x, mean, rstd, w, b):
    return [[(x[r * H + k] - mean[r]) * rstd[r] * w[k] + b[k]
             for k in range(H)] for r in range(rows)]


def layernorm_gelu_fwd(rows):
    # args: primals_1 (weight), primals_2 (bias), primals_4 x [rows, 1024];
    # outputs: mean, rsqrt(var + 1e-5), gelu(layernorm(x)).
    w, b, x = fill(H, 0), fill(H, 1), fill(rows * H, 2)
    mean = [sum(x[r * H:(r + 1) * H]) / H for r in range(rows)]
    var = [sum((v - mean[r]) ** 2 for v in x[r * H:(r + 1) * H]) / H
           for r in range(rows)]
    rstd = [1 / math.sqrt(v + 1e-5) for v in var]
    y = _layernorm(rows, x, mean, rstd, w, b)
    gelu = [0.5 * a * (1 + math.erf(a * 0.7071067811865476))
            for row in y for a in row]
    return [mean, rstd, gelu]


def layernorm_gelu_bwd(rows):
    # args: getitem_1 (mean), primals_1 (weight), primals_2 (bias),
    # primals_4 x, rsqrt, tangents_1; outputs: sum over rows of
    # grad * normalized x (the weight's gradient) and of grad (the bias').
    mean, w, b = fill(rows, 0), fill(H, 1), fill(H, 2)
    x, rstd, t = fill(rows * H, 3), fill(rows, 4), fill(rows * H, 5)
    y = _layernorm(rows, x, mean, rstd, w, b)
    dw, db = [0.0] * H, [0.0] * H
    for r in range(rows):
        for k in range(H):
            a = y[r][k]
            dgelu = 0.5 * (1 + math.erf(a * 0.7071067811865476)) + \
                a * math.exp(-0.5 * a * a) * 0.3989422804014327
            g = t[r * H + k] * dgelu
            dw[k] += g * (x[r * H + k] - mean[r]) * rstd[r]
            db[k] += g
    return [dw, db]


GRAPHS = {"softmax": softmax, "layernorm_gelu_fwd": layernorm_gelu_fwd,
          "layernorm_gelu_bwd": layernorm_gelu_bwd}


def main():
    graph, sizes = sys.argv[1], [int(v) for v in sys.argv[2:]]
    expected = GRAPHS[graph](*sizes)
    printed = parse("/dev/stdin")
    if len(printed) != len(expected):
        print("%s: %d outputs printed, %d expected"
              % (graph, len(printed), len(expected)))
        return 1
    for j, (got, ref) in enumerate(zip(printed, expected)):
        if len(got) != len(ref):
            print("%s output %d: %d values, expected %d"
                  % (graph, j, len(got), len(ref)))
            return 1
        worst = 0.0
        for i, (a, b) in enumerate(zip(got, ref)):
            err = abs(a - b)
            if not err <= 2e-5 + 1e-4 * abs(b):
                print("%s output %d [%d]: %r, expected %r"
                      % (graph, j, i, a, b))
                return 1
            worst = max(worst, err)
        print("%s %s output %d: %d values match" % (
            graph, "x".join(map(str, sizes)), j, len(ref)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
