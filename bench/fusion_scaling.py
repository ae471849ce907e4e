#!/usr/bin/env python3
"""Times the whole --fusion-schedule pipeline on generated graphs of growing
size (issue 4's scaling target: 100k nodes in under 5 s, sub-quadratic).

For each size, fusion-graph-gen writes a graph in program order (the order
a model's graph comes in; --shuffle writes it in random order, which the
topological sort then turns into an order with long edges), then
scheduler-opt runs --fusion-schedule with -mlir-timing and without the
verifier between passes; the script reads the timing report and prints the
parse time, each pass (the two topological sorts and the dependence
analyses they compute counted together), the pipeline total and its growth
ratio. An untimed run with `explain` gives the kernel count and peak
memory. Each size runs --repeat times and the fastest run is kept (the
machine is shared).

    python3 bench/fusion_scaling.py [--build build] [--sizes 1000,10000,100000]
                                    [--shuffle] [--max-distance N]
"""

import os
import re
import subprocess
import tempfile

from mlir_timing import scaling_arguments, timing_report, tools

SUMMARY = re.compile(r"fused (\d+) nodes into (\d+) in (\d+) rounds .*?"
                     r"peak memory (\d+) -> (\d+) bytes")


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


def summary(opt, graph):
    result = subprocess.run(
        [opt, graph, "--fusion-schedule=explain", "-verify-each=0", "-o",
         os.devnull], capture_output=True, text=True, check=True)
    nodes, kernels, rounds, before, after = map(
        int, SUMMARY.search(result.stderr).groups())
    return {"nodes": nodes, "kernels": kernels, "rounds": rounds,
            "peak_before": before, "peak_after": after}


def main():
    parser = scaling_arguments(__doc__)
    parser.add_argument("--shuffle", action="store_true")
    parser.add_argument("--max-distance", type=int, default=256)
    args = parser.parse_args()
    gen, opt = tools(args.build)

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
                         summary(opt, graph)))

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
                  s["peak_before"], s["peak_after"]))
        previous = r["total"]


if __name__ == "__main__":
    main()
