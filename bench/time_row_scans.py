"""On the GPU machine: cumulative sums along rows through
torch.compile(backend="scheduler_opt") against Inductor, checked against
eager in float64 and timed: rows of symbolic length (dynamic=True, both
sizes from one compiled graph) and static rows (BlockScan.h: a block
scans each row, in one pass over it). With --op sort, descending sorts
along rows with their indices (torch.sort; BlockSort.h) instead, checked
against eager's stable sort element for element.

    SCHEDULER_OPT_BIN=DIR PYTHONPATH=python:bench python3 \
        bench/time_row_scans.py --out "$OUT" [--label L] [--static-only] \
        [--ptx-flags "block-scans=0"] [--no-inductor] [--short] \
        [--op sort]

--ptx-flags passes --fusion-to-ptx options to our backend (block-scans=0:
a thread per row, as before block scans; block-sorts=0 the same for
sorts); --no-inductor times ours alone; --short times many short rows
(16 to 256 elements) instead.

Times are triton.testing.do_bench medians (ms, 10 ms warm-up, 50 ms of
repeats) of the compiled function on fixed random inputs, which for
kernels of some 20 us include the host's launch overhead, and the GPU's
busy time per call under torch.profiler (kernel_us, from
backend_models.kernel_profile: kernels, copies and memsets of 20 calls,
summed, per call). Writes row_scans[_L].json (row_sorts[_L].json for
--op sort) under --out; a sort's rel_err is the fraction of elements whose
value or index differs from eager's.
"""
import argparse
import json
import os

import torch
import triton.testing

from backend_models import kernel_profile
from backend_models import so_backend  # noqa: F401  (registers the backend)

# (name, rows, row length, dynamic)
CASES = [
    ("dynamic_4096x1000", 4096, 1000, True),
    ("dynamic_1024x4096", 1024, 4096, True),
    ("static_4096x1000", 4096, 1000, False),
    ("static_1024x8192", 1024, 8192, False),
]
# --short: many short rows, where a block per row has little to do.
SHORT_CASES = [
    ("dynamic_65536x64", 65536, 64, True),
    ("dynamic_16384x256", 16384, 256, True),
    ("static_262144x16", 262144, 16, False),
    ("static_65536x64", 65536, 64, False),
    ("static_16384x256", 16384, 256, False),
]
# --op sort: the rows Inductor sorts in a kernel, static ones of up to 512
# elements (ir.Sort; longer and symbolic rows go to aten.sort, an extern
# kernel, in its graphs and so in ours).
SORT_CASES = [
    ("static_65536x16", 65536, 16, False),
    ("static_16384x64", 16384, 64, False),
    ("static_8192x128", 8192, 128, False),
    ("static_4096x256", 4096, 256, False),
    ("static_4096x512", 4096, 512, False),
]


def cumsum(x):
    return x.cumsum(1)


def sort(x):
    return torch.sort(x, 1, descending=True)


def cumsum_error(x, y):
    ref = x.double().cumsum(1)
    return ((y.double() - ref).norm() / ref.norm()).item()


def sort_error(x, y):
    values, indices = torch.sort(x, dim=1, descending=True, stable=True)
    wrong = (y[0] != values) | (y[1] != indices)
    return wrong.double().mean().item()


# op: (function, its error against eager, bytes moved per element)
OPS = {"cumsum": (cumsum, cumsum_error, 2 * 4),
       "sort": (sort, sort_error, 4 + 4 + 8)}


def run(backend, dynamic, shapes, ptx_flags=None, op="cumsum"):
    torch._dynamo.reset()
    options = ({"fallback": False, "cache": False, "ptx_flags": ptx_flags}
               if backend == "scheduler_opt" else None)
    function, error, bytes_per_element = OPS[op]
    fn = torch.compile(function, backend=backend, dynamic=dynamic,
                       options=options)
    out = []
    for rows, cols in shapes:
        x = torch.randn(rows, cols, device="cuda")
        err = error(x, fn(x))
        ms = triton.testing.do_bench(lambda: fn(x), warmup=10, rep=50,
                                     return_mode="median")
        out.append({"rows": rows, "cols": cols, "rel_err": err, "ms": ms,
                    "gb_per_s": bytes_per_element * rows * cols / ms / 1e6,
                    "kernel_us": kernel_profile(lambda: fn(x), steps=20)["busy_ms"] * 1e3})
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--label", default="")
    parser.add_argument("--static-only", action="store_true")
    parser.add_argument("--ptx-flags", default=None)
    parser.add_argument("--no-inductor", action="store_true")
    parser.add_argument("--short", action="store_true")
    parser.add_argument("--op", choices=sorted(OPS), default="cumsum")
    args = parser.parse_args()
    cases = (SORT_CASES if args.op == "sort"
             else SHORT_CASES if args.short else CASES)
    report = {"torch": torch.__version__, "op": args.op,
              "device": torch.cuda.get_device_name(),
              "ptx_flags": args.ptx_flags, "cases": {}}
    dynamic = [(r, c) for _, r, c, d in cases if d]
    backends = ["scheduler_opt"] + ([] if args.no_inductor else ["inductor"])
    if not args.static_only:
        for backend in backends:
            for (name, *_), res in zip([c for c in cases if c[3]],
                                       run(backend, True, dynamic,
                                           args.ptx_flags, args.op)):
                report["cases"].setdefault(name, {})[backend] = res
    for name, rows, cols, d in cases:
        if d:
            continue
        for backend in backends:
            report["cases"].setdefault(name, {})[backend] = \
                run(backend, False, [(rows, cols)], args.ptx_flags,
                    args.op)[0]
    suffix = "_" + args.label if args.label else ""
    stem = "row_sorts" if args.op == "sort" else "row_scans"
    with open(os.path.join(args.out, "%s%s.json" % (stem, suffix)), "w") as f:
        json.dump(report, f, indent=1)
    for name, by in report["cases"].items():
        print(name, " ".join("%s %.4f ms (%.0f GB/s, kernels %.1f us, err %.1e)"
                             % (b, r["ms"], r["gb_per_s"], r["kernel_us"],
                                r["rel_err"]) for b, r in by.items()))


if __name__ == "__main__":
    main()
