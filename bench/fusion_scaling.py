#!/usr/bin/env python3
"""Times the whole --fusion-schedule pipeline on generated graphs of growing
size (the target: 100k nodes in under 5 s, growing sub-quadratically).

For each size, scheduler-graph-gen writes a graph in program order (the order
a model's graph comes in; --shuffle writes it in random order, which the
topological sort then turns into an order with long edges), then
scheduler-opt runs --fusion-schedule with -mlir-timing and without the
verifier between passes; the script reads the timing report and prints the
parse time, each pass (the two topological sorts and the dependence
analyses they compute counted together), the pipeline total and its growth
ratio. scheduler-corpus-bench's explaining run (the fusion pass's summary,
as data) gives the kernel count and peak memory. Each size runs --repeat
times and the fastest run is kept (the machine is shared).

    python3 bench/fusion_scaling.py [--build build] [--sizes 1000,10000,100000]
                                    [--shuffle] [--max-distance N]
"""

import json
import os
import subprocess
import tempfile

from mlir_timing import scaling_arguments, timing_report, tools

def measure(opt, graph, repeat):
    best = None
    for _ in range(repeat):
        t, _ = timing_report(opt, graph, ["--fusion-schedule"], verify=False)
        run = {
            "parse": t["Parser"],
            "sort": t["TopologicalSortPass"],
            "dne": t["DeadNodeEliminationPass"],
            "reorder": t["ReorderLoopsPass"],
            "fuse": t["FuseNodesPass"],
            "total": t["'fusion.graph' Pipeline"],
            "output": t["Output"],
        }
        if best is None or run["total"] < best["total"]:
            best = run
    return best


def summary(bench, graph):
    """The fusion pass's summary of `graph` (--fusion-schedule=explain)."""
    result = subprocess.run(
        [bench, "--compare=false", "--repetitions=1", graph],
        capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["graphs"][0]["explain"]["summary"]


def main():
    parser = scaling_arguments(__doc__)
    parser.add_argument("--shuffle", action="store_true")
    parser.add_argument("--max-distance", type=int, default=256)
    args = parser.parse_args()
    gen, opt = tools(args.build)
    bench = os.path.join(args.build, "bin", "scheduler-corpus-bench")

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            graph = os.path.join(tmp, "graph_%d.mlir" % size)
            gen_args = [gen, "--nodes", str(size), "--seed", str(args.seed),
                        "--max-distance", str(args.max_distance), "-o", graph]
            if args.shuffle:
                gen_args.append("--shuffle")
            subprocess.run(gen_args, check=True)
            rows.append((size, measure(opt, graph, args.repeat),
                         summary(bench, graph)))

    print("| nodes | parse | sorts | DNE | reorder-loops | fuse-nodes | "
          "pipeline | ratio | kernels | peak memory |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    previous = None
    for size, r, s in rows:
        ratio = "" if previous is None else "%.1fx" % (r["total"] / previous)
        print("| %d | %.3f s | %.3f s | %.3f s | %.3f s | %.3f s | **%.3f s** "
              "| %s | %d | %d -> %d |" % (
                  s["nodes"], r["parse"], r["sort"], r["dne"], r["reorder"],
                  r["fuse"], r["total"], ratio, s["kernels"],
                  s["peak_bytes_before"], s["peak_bytes_after"]))
        previous = r["total"]


if __name__ == "__main__":
    main()
