#!/usr/bin/env python3
"""Compile time of several builds of scheduler-corpus-bench, in turns.

    python3 bench/compile_ab.py --bench start=/tmp/a/scheduler-corpus-bench \\
        --bench end=/tmp/b/scheduler-corpus-bench --turns 3 --repetitions 21 \\
        --graphs adam_step,gpt2 --corpus corpus/inductor --out ab.json

Each turn runs every build once on every graph, builds in the order given,
so that a machine that speeds up or slows down during the run moves all of
them alike; a build's figure is the median over the turns of the bench's
own median of --repetitions (setup + import + schedule, `total_s`). Prints
each build's time as a share of the first build's, per graph. Used on the
GPU machine's host beside bench/gpu_machine_compare.py, where only a
side-by-side ratio means something (bench/README.md).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys


def graph_dirs(corpus, names):
    """The corpus's pre-fusion dumps of the named graphs (every model of each)."""
    dirs = []
    for name in names:
        root = os.path.join(corpus, name)
        found = sorted(d for d in os.listdir(root)
                       if os.path.isfile(os.path.join(root, d, "ir_pre_fusion.txt")))
        if not found:
            sys.exit(f"compile_ab: no ir_pre_fusion.txt under {root}")
        dirs += [os.path.join(root, d) for d in found]
    return dirs


def run_bench(tool, graphs, repetitions):
    out = subprocess.run(
        [tool, "--compare=false", "--explain-options=",
         f"--repetitions={repetitions}", *graphs],
        check=True, capture_output=True, text=True).stdout
    return {g["graph"]: g["time"] for g in json.loads(out)["graphs"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", action="append", required=True,
                        metavar="NAME=PATH", help="a build to time (two or more)")
    parser.add_argument("--graphs", required=True,
                        help="comma-separated corpus graph names")
    parser.add_argument("--corpus", default="corpus/inductor")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=21)
    parser.add_argument("--out", help="JSON file for every turn's figures")
    args = parser.parse_args()

    benches = []
    for spec in args.bench:
        name, sep, path = spec.partition("=")
        if not sep or not os.access(path, os.X_OK):
            sys.exit(f"compile_ab: --bench wants NAME=PATH to a tool, not {spec!r}")
        benches.append((name, path))
    graphs = graph_dirs(args.corpus, args.graphs.split(","))

    turns = []
    for _ in range(args.turns):
        turns.append({name: run_bench(path, graphs, args.repetitions)
                      for name, path in benches})

    first = benches[0][0]
    summary = {}
    for graph in graphs:
        medians = {name: statistics.median(t[name][graph]["total_s"] for t in turns)
                   for name, _ in benches}
        summary[graph] = {"total_s": medians,
                          "share_of_" + first: {n: m / medians[first]
                                                for n, m in medians.items()}}
        print(graph, " ".join(f"{n} {m * 1e3:.3f} ms ({m / medians[first]:.2f})"
                              for n, m in medians.items()))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"benches": dict(benches), "repetitions": args.repetitions,
                       "turns": turns, "summary": summary}, f, indent=1)


if __name__ == "__main__":
    main()
