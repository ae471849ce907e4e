#!/usr/bin/env python3
"""Import + --fusion-schedule on generated Inductor dumps of growing size.

    python3 bench/inductor_scaling.py                       # 1k, 10k, 100k nodes
    python3 bench/inductor_scaling.py --sizes 1000000       # 1M (about 1.4 GB of dump)
    python3 bench/inductor_scaling.py --repetitions 3 --json run.json

For each size, `scheduler-graph-gen --format=inductor --nodes N --seed 1`
writes a transformer-like model as Inductor's ir_pre_fusion.txt (once, into
--work, default build/inductor-scaling), and `scheduler-corpus-bench
--compare=false` imports it and runs --fusion-schedule in one fresh process
per size, with --repetitions runs each (median). Reported per size: the
dump's size, import and schedule time (wall clock, and CPU time of the
process, user + system), import speed (MB of dump per wall and per CPU
second), the growth of each time from the previous size, the top-level
nodes after scheduling, and the process's peak resident memory. On a
shared machine the CPU times are the steadier figures.
"""

import argparse
import json
import os
import subprocess
import sys


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(root, "build"),
                        help="build directory holding bin/ (default: build)")
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="comma-separated node counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repetitions", type=int, default=1)
    parser.add_argument("--context-threads", type=int, default=0,
                        help="threads of the MLIR context (0: none)")
    parser.add_argument("--work", default=None,
                        help="folder for the generated dumps "
                             "(default: BUILD/inductor-scaling)")
    parser.add_argument("--json", help="also write the raw figures here")
    args = parser.parse_args()

    bin_dir = os.path.join(args.build, "bin")
    work = args.work or os.path.join(args.build, "inductor-scaling")
    rows = []
    for n in [int(s) for s in args.sizes.split(",") if s]:
        folder = os.path.join(work, f"n{n}-seed{args.seed}")
        dump = os.path.join(folder, "ir_pre_fusion.txt")
        if not os.path.exists(dump):
            subprocess.run([os.path.join(bin_dir, "scheduler-graph-gen"),
                            "--format=inductor", f"--nodes={n}",
                            f"--seed={args.seed}", "-o", folder], check=True)
        out = subprocess.run(
            [os.path.join(bin_dir, "scheduler-corpus-bench"), "--compare=false",
             "--explain-options=", f"--repetitions={args.repetitions}",
             f"--context-threads={args.context_threads}", folder],
            check=True, capture_output=True, text=True).stdout
        report = json.loads(out)
        graph = report["graphs"][0]
        if graph["errors"]:
            sys.exit(f"inductor_scaling: {n} nodes: {graph['errors'][0]}")
        t = graph["time"]
        rows.append({
            "nodes": n,
            "dump_mb": os.path.getsize(dump) / 1e6,
            "import_s": t["import_s"], "import_cpu_s": t["import_cpu_s"],
            "schedule_s": t["schedule_s"],
            "schedule_cpu_s": t["schedule_cpu_s"],
            "scheduled_nodes": graph.get("scheduled_nodes"),
            "max_rss_mb": report["max_rss_mb"],
        })
        print(f"{n} nodes done", file=sys.stderr)

    print("| nodes | dump | import (CPU) | MB/s (CPU) | schedule (CPU) "
          "| import + schedule (CPU) | growth import / schedule (CPU) "
          "| scheduled | peak RSS |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    prev = None
    for r in rows:
        growth = ""
        if prev:
            growth = (f"{r['import_cpu_s'] / prev['import_cpu_s']:.1f}x / "
                      f"{r['schedule_cpu_s'] / prev['schedule_cpu_s']:.1f}x")
        print(f"| {r['nodes']:,} | {r['dump_mb']:.0f} MB "
              f"| {r['import_s']:.2f} s ({r['import_cpu_s']:.2f} s) "
              f"| {r['dump_mb'] / r['import_s']:.0f} "
              f"({r['dump_mb'] / r['import_cpu_s']:.0f}) "
              f"| {r['schedule_s']:.2f} s ({r['schedule_cpu_s']:.2f} s) "
              f"| {r['import_s'] + r['schedule_s']:.2f} s "
              f"({r['import_cpu_s'] + r['schedule_cpu_s']:.2f} s) "
              f"| {growth} | {r['scheduled_nodes']:,} "
              f"| {r['max_rss_mb'] / 1024:.2f} GB |")
        prev = r
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
