#!/usr/bin/env python3
"""Compile time of several builds of scheduler-corpus-bench, in turns.

    python3 bench/compile_ab.py --bench start=/tmp/a/scheduler-corpus-bench \\
        --bench end=/tmp/b/scheduler-corpus-bench --turns 3 --repetitions 21 \\
        --graphs adam_step,gpt2 --corpus corpus/inductor --out ab.json

Each turn runs every build once on every graph (invoked and chosen as
bench/gpu_machine_compare.py does: run_ours, find_graphs), builds in the order given,
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
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The compare's own graph choice and bench invocation, so that the turns
# time what the compare times.
from gpu_machine_compare import find_graphs, run_ours  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", action="append", required=True,
                        metavar="NAME=PATH", help="a build to time (two or more)")
    parser.add_argument("--graphs", required=True,
                        help="comma-separated corpus graph names (as the "
                        "compare's --graphs: every model whose path holds one)")
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
    graphs = [d for _, d in find_graphs(args.corpus, args.graphs.split(","), [])]
    if not graphs:
        sys.exit(f"compile_ab: no graph of {args.corpus} matches {args.graphs}")

    turns = []
    for _ in range(args.turns):
        turns.append({name: {d: g["time"] for d, g in
                             run_ours(path, graphs, args.repetitions).items()}
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
