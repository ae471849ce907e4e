#!/usr/bin/env python3
"""Differential testing at scale: generates random graphs with
scheduler-graph-gen (pointwise and reduction nodes, views, in-place mutations,
gathers through indirect indices, transposes, broadcasts, padding; odd
sizes and size-1 dimensions in half of them) and checks for each that

  1. --fusion-schedule (options drawn per graph) succeeds on the shuffled
     graph, its output verifies, and a second run prints the same bytes;
  2. the graph as generated and the scheduled graph, both lowered to loops
     and run by the LLVM JIT (mlir-runner), give the same outputs and leave
     the same inputs after in-place updates (test/Inputs/compare_runs.py;
     each run poisons unwritten outputs differently).

Extern kernels are left out: the JIT cannot call them (see
docs/Reliability.md). Each failing graph is described in
WORKDIR/failures/seedN.txt, with the command that shows the failure.

  python3 scripts/differential.py --graphs 10000 [--first-seed 1] \
      [--jobs 2] [--bindir build/bin] [--workdir build/differential]
"""
import argparse
import functools
import multiprocessing
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM = "/usr/lib/llvm-22"
sys.path.insert(0, os.path.join(ROOT, "test", "Inputs"))
import compare_runs  # noqa: E402  (test/Inputs/compare_runs.py)


def graph_options(seed):
    """The generator's options for graph `seed` (the same on every run)."""
    rng = random.Random(seed)
    opts = ["--seed=%d" % seed,
            "--nodes=%d" % rng.randint(2, 60),
            "--max-dim=%d" % rng.choice([4, 8, 16, 32]),
            "--extern-percent=0",
            "--reduction-percent=%d" % rng.randint(0, 45),
            "--nop-percent=%d" % rng.randint(0, 15),
            "--mutation-percent=%d" % rng.randint(0, 25),
            "--max-distance=%d" % rng.choice([0, 2, 8, 256])]
    if rng.random() < 0.5:
        opts.append("--odd-sizes")
    schedule = [rng.choice(["", "pick-loop-order=0"]),
                rng.choice(["", "merge-loops=1"]),
                rng.choice(["", "peak-memory=inductor"])]
    schedule = " ".join(s for s in schedule if s)
    return opts, "--fusion-schedule" + ("=" + schedule if schedule else "")


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, capture_output=True)


def check_graph(seed, tools, workdir):
    """Returns None when graph `seed` passes, else a description."""
    gen_opts, schedule = graph_options(seed)
    gen = run([tools["gen"]] + gen_opts)
    if gen.returncode:
        return "scheduler-graph-gen failed: " + gen.stderr.decode()[-2000:]
    shuffled = run([tools["gen"], "--shuffle"] + gen_opts)
    first = run([tools["opt"], schedule], shuffled.stdout)
    if first.returncode:
        return "%s failed: %s" % (schedule, first.stderr.decode()[-2000:])
    second = run([tools["opt"], schedule], shuffled.stdout)
    if second.stdout != first.stdout:
        return "%s is not deterministic" % schedule
    outputs = []
    # Lowering the scheduled graph parses and verifies its printed form
    # first: a scheduled graph that does not read back fails there.
    for poison, text, what in ((-1, gen.stdout, "the generated graph"),
                               (-2, first.stdout, "the scheduled graph")):
        lowered = run([tools["opt"], "--convert-fusion-to-loops",
                       "--test-fusion-jit-main=poison=%d print-inputs=1" % poison,
                       "--fusion-loops-to-llvm"], text)
        if lowered.returncode:
            return "%s does not read back or lower: %s" % (
                what, lowered.stderr.decode()[-2000:])
        ran = run(tools["runner"], lowered.stdout)
        if ran.returncode:
            return "the JIT run failed: " + ran.stderr.decode()[-2000:]
        path = os.path.join(workdir, "seed%d.run%d.txt" % (seed, -poison))
        with open(path, "wb") as f:
            f.write(ran.stdout)
        outputs.append(path)
    differences = compare_runs.differences(*outputs)
    for path in outputs:
        os.remove(path)
    if differences:
        return "outputs differ: " + differences
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graphs", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--bindir", default=os.path.join(ROOT, "build", "bin"),
                        help="where scheduler-opt and scheduler-graph-gen are")
    parser.add_argument("--workdir",
                        default=os.path.join(ROOT, "build", "differential"),
                        help="scratch files; failing graphs go to failures/")
    parser.add_argument("--runner",
                        help="a JIT runner that needs no runner-utils "
                             "libraries (default: LLVM's mlir-runner with "
                             "them)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="graphs checked at the same time")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    bindir = args.bindir
    libs = ",".join(os.path.join(LLVM, "lib", "lib%s.so" % n)
                    for n in ("mlir_c_runner_utils", "mlir_runner_utils"))
    tools = {"gen": os.path.join(bindir, "scheduler-graph-gen"),
             "opt": os.path.join(bindir, "scheduler-opt"),
             "runner": ([args.runner] if args.runner else
                        [os.path.join(LLVM, "bin", "mlir-runner"),
                         "-shared-libs=" + libs]) +
                       ["-e", "main", "-entry-point-result=void"],
             }
    workdir = args.workdir
    keep = os.path.join(workdir, "failures")
    os.makedirs(workdir, exist_ok=True)
    start = time.monotonic()
    failures = 0
    seeds = range(args.first_seed, args.first_seed + args.graphs)
    check = functools.partial(check_graph, tools=tools, workdir=workdir)
    with multiprocessing.Pool(args.jobs) as pool:
        # imap keeps the seeds' order, so the log reads the same at any
        # --jobs.
        for done, (seed, problem) in enumerate(
                zip(seeds, pool.imap(check, seeds)), 1):
            if problem:
                failures += 1
                os.makedirs(keep, exist_ok=True)
                gen_opts, schedule = graph_options(seed)
                with open(os.path.join(keep, "seed%d.txt" % seed), "w") as f:
                    f.write("scheduler-graph-gen %s [--shuffle] | scheduler-opt %s\n%s\n"
                            % (" ".join(gen_opts), schedule, problem))
                print("graph %d: %s" % (seed, problem.splitlines()[0]),
                      flush=True)
            elif not args.quiet and done % 100 == 0:
                print("%d graphs, %d failures, %.0f s" % (
                    done, failures, time.monotonic() - start), flush=True)
    print("differential: %d graphs (seeds %d-%d), %d failures, %.1f s" % (
        args.graphs, args.first_seed, args.first_seed + args.graphs - 1,
        failures, time.monotonic() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
