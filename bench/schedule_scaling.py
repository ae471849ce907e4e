#!/usr/bin/env python3
"""Times dependence analysis + topological sort + dead-node elimination on
generated graphs of growing size (the target: 100k nodes in under 1 s).

For each size, scheduler-graph-gen writes a shuffled graph (so the sort has
work to do), then scheduler-opt runs

    fusion.graph(fusion-topological-sort, fusion-dead-node-elimination,
                 fusion-reorder-loops)

with -mlir-timing; the script reads the timing report and prints the parse
time, the DependenceGraph analysis (computed by the sort), the sort itself,
dead-node elimination, their total, and the growth ratio of that total.
Each size is run --repeat times and the fastest run kept (the machine is
shared). By default the verifier is not run between passes (-verify-each=0)
so that the figures are those of the passes; --verify includes it.

    python3 bench/schedule_scaling.py [--build build] [--sizes 1000,10000,100000]
"""

import os
import subprocess
import tempfile

from mlir_timing import scaling_arguments, timing_report as run_timing, tools

PIPELINE = ("builtin.module(fusion.graph(fusion-topological-sort,"
            "fusion-dead-node-elimination,fusion-reorder-loops))")


def timing_report(opt, graph, verify):
    return run_timing(opt, graph, ["--pass-pipeline=" + PIPELINE], verify)[0]


def measure(opt, graph, verify, repeat):
    best = None
    for _ in range(repeat):
        t = timing_report(opt, graph, verify)
        run = {
            "parse": t["Parser"],
            "analysis": t["(A) fusion::DependenceGraph"],
            "sort": t["TopologicalSortPass"] - t["(A) fusion::DependenceGraph"],
            "dne": t["DeadNodeEliminationPass"],
            "reorder": t["ReorderLoopsPass"],
        }
        run["total"] = run["analysis"] + run["sort"] + run["dne"]
        if best is None or run["total"] < best["total"]:
            best = run
    return best


def main():
    parser = scaling_arguments(__doc__)
    parser.add_argument("--verify", action="store_true",
                        help="run the verifier after each pass (counted in "
                             "the pass times, as mlir-opt does)")
    args = parser.parse_args()
    gen, opt = tools(args.build)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            graph = os.path.join(tmp, "graph_%d.mlir" % size)
            subprocess.run([gen, "--nodes", str(size), "--seed",
                            str(args.seed), "--shuffle", "-o", graph],
                           check=True)
            rows.append((size, os.path.getsize(graph),
                         measure(opt, graph, args.verify, args.repeat)))

    print("| nodes | file | parse | analysis | sort | DNE | "
          "analysis+sort+DNE | ratio | (reorder-loops) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    previous = None
    for size, nbytes, r in rows:
        ratio = "" if previous is None else "%.1fx" % (r["total"] / previous)
        print("| %d | %.1f MB | %.3f s | %.3f s | %.3f s | %.3f s | "
              "**%.3f s** | %s | %.3f s |" % (
                  size, nbytes / 1e6, r["parse"], r["analysis"], r["sort"],
                  r["dne"], r["total"], ratio, r["reorder"]))
        previous = r["total"]


if __name__ == "__main__":
    main()
