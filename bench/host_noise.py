#!/usr/bin/env python3
"""How much the GPU machine's host moves our compile time, and whether
Inductor's compiles are what moves it.

    python3 bench/host_noise.py --bench /tmp/scheduler-corpus-bench \\
        --graphs adam_step,gpt2_train/model__0_backward --out noise.json

For each graph (chosen as bench/gpu_machine_compare.py chooses them):
 1. before PyTorch is imported, --quiet runs of our bench (invoked as the
    compare invokes it: run_ours, --repetitions each);
 2. --turns turns, each three untraced Inductor compiles stopped after
    Scheduler.__init__ (the compare's compile_once), then one run of ours
    at once, one after a pause of 0.5 s and one after 2.5 s;
 3. three more runs at the end, PyTorch loaded and idle.
Every run records the bench's median and fastest repetition, its import
and schedule times in wall and CPU seconds, and how many of the host's
CPUs were busy while it ran (/proc/stat; 1.0 is our process alone), and
in turns how many of this process's threads were running when ours
started. bench/README.md (same-machine figures) says what it showed.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_machine_compare import (InductorTimer, compile_once,  # noqa: E402
                                 find_graphs, load_fx_graph, run_ours)


def read_cpu_jiffies(stat_text):
    """(all jiffies, idle + iowait jiffies) of the `cpu` line of
    /proc/stat's text."""
    for line in stat_text.splitlines():
        fields = line.split()
        if fields and fields[0] == "cpu":
            values = [int(v) for v in fields[1:]]
            return sum(values), values[3] + values[4]
    raise ValueError("no cpu line in /proc/stat")


def busy_cpus(before, after, seconds, hz=100):
    """CPUs busy on average between two read_cpu_jiffies samples taken
    `seconds` apart."""
    total = after[0] - before[0]
    idle = after[1] - before[1]
    return (total - idle) / hz / seconds if seconds > 0 else 0.0


def sample_cpu():
    with open("/proc/stat") as f:
        return read_cpu_jiffies(f.read())


def running_threads():
    """(running, all) threads of this process."""
    running = 0
    tasks = os.listdir("/proc/self/task")
    for task in tasks:
        try:
            with open("/proc/self/task/%s/stat" % task) as f:
                text = f.read()
        except OSError:
            continue
        if text[text.rfind(")") + 2] == "R":
            running += 1
    return running, len(tasks)


def timed_run(bench, d, repetitions):
    before, start = sample_cpu(), time.perf_counter()
    graph = run_ours(bench, [d], repetitions).get(d) or {}
    seconds = time.perf_counter() - start
    after = sample_cpu()
    t = graph.get("time") or {}
    keys = ("total_s", "total_min_s", "import_s", "import_cpu_s",
            "schedule_s", "schedule_cpu_s")
    run = {k: t.get(k) for k in keys}
    run["host_busy_cpus"] = busy_cpus(before, after, seconds,
                                      os.sysconf("SC_CLK_TCK"))
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", required=True)
    parser.add_argument("--graphs", required=True)
    parser.add_argument("--corpus", default="corpus/inductor")
    parser.add_argument("--repetitions", type=int, default=21)
    parser.add_argument("--quiet", type=int, default=5)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    graphs = find_graphs(os.path.abspath(args.corpus),
                         args.graphs.split(","), [])
    report = {"cpus": os.cpu_count(), "repetitions": args.repetitions,
              "graphs": {gid: {} for gid, _ in graphs}}
    for gid, d in graphs:
        report["graphs"][gid]["quiet"] = [
            timed_run(args.bench, d, args.repetitions)
            for _ in range(args.quiet)]
    import torch
    timer = InductorTimer()
    timer.stop = True
    for gid, d in graphs:
        gm, inputs = load_fx_graph(os.path.join(d, "fx_graph_readable.py"),
                                   torch)
        turns = []
        for _ in range(args.turns):
            inits = [compile_once(torch, gm, inputs, timer)[0]
                     for _ in range(3)]
            threads = running_threads()
            now = timed_run(args.bench, d, args.repetitions)
            time.sleep(0.5)
            later = timed_run(args.bench, d, args.repetitions)
            time.sleep(2.0)
            last = timed_run(args.bench, d, args.repetitions)
            turns.append({"scheduler_init_s": inits,
                          "threads_running_of_all": threads,
                          "ours_at_once": now, "ours_after_0_5_s": later,
                          "ours_after_2_5_s": last})
            print(gid, ["%.1f" % (s * 1e3) for s in inits], threads,
                  ["%.2f" % (r["total_s"] * 1e3) for r in (now, later, last)],
                  flush=True)
        report["graphs"][gid]["turns"] = turns
    time.sleep(3.0)
    for gid, d in graphs:
        report["graphs"][gid]["idle_after"] = [
            timed_run(args.bench, d, args.repetitions) for _ in range(3)]
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
