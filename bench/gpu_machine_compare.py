#!/usr/bin/env python3
"""Times PyTorch Inductor's Scheduler.__init__ and scheduler-opt on the
same machine, in one run.

Meant for the GPU machine (PyTorch with CUDA installed); run it through
bench/gpu_machine_compare.sh, which supplies the statically linked
scheduler-corpus-bench built here. For each graph of corpus/inductor:

 1. The FX graph Inductor lowered (fx_graph_readable.py) is rebuilt as a
    torch.fx.GraphModule with random CUDA inputs of the annotated dtypes,
    shapes and strides, and compiled with torch._inductor.compile (caches
    disabled, dynamo reset first) --compiles times without debug tracing;
    a wrapper around Scheduler.__init__ records its wall time in each.
 2. It is compiled once more with debug tracing on, which writes fresh
    ir_pre_fusion.txt / ir_post_fusion.txt dumps (Scheduler.__init__ then
    includes writing them, as in the corpus run that produced
    result.json); V.graph.lists, which the trace does not write, goes
    beside them as foreach_lists.json, as in the corpus.
 3. scheduler-corpus-bench times import + --fusion-schedule on the corpus dump
    and on the fresh dump, on the same machine.
 4. With --turns N (N > 1), steps 1 and 3 run N times in alternation on
    each graph (the traced compile of step 2 once), and each turn's
    ratio is Inductor's median over ours in that turn: on a host whose
    speed moves from one minute to the next, a ratio of times taken
    seconds apart holds where a ratio of two medians taken apart does
    not. The report gives the median turn's ratio and the range.

wide2000 has no fx_graph_readable.py in the corpus, so only our side is
measured on it. Backward graphs are compiled as inference graphs (their inputs do not
require grad), so Inductor may schedule slightly different nodes than in
training; the fresh dumps record what it scheduled, and both node counts
are reported. Results go to <out>/gpu_compare.json (rewritten after every
graph, so a run cut short keeps what it measured) and
<out>/gpu_compare.md; the fresh dumps to <out>/dumps/.

    python3 bench/gpu_machine_compare.py --bench .device-carry/bin/scheduler-corpus-bench \\
        --out /tmp/gpu-compare [--graphs gpt2,resnet18] [--skip wide2000]
    python3 bench/gpu_machine_compare.py --bench build/bin/scheduler-corpus-bench --dry-run

--dry-run needs no PyTorch: it parses every FX signature and runs our tool
on the corpus dumps only, to check the setup.
"""

import argparse
import glob
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
from scheduler_opt import dtypes, fx_graph  # noqa: E402


def parse_signature(source):
    """[(name, torch dtype name, size, stride or None)] of the forward()
    inputs, from the text of fx_graph_readable.py."""
    inputs = []
    for param in fx_graph.parse_signature(source):
        if param.dtype not in dtypes.TORCH_NAME_BY_FX_CODE:
            raise ValueError("unsupported annotation of %s" % param.name)
        stride = param.stride
        if any(isinstance(d, str) for d in param.shape + (stride or ())):
            raise ValueError("symbolic size in the annotation of %s" %
                             param.name)
        inputs.append((param.name, dtypes.TORCH_NAME_BY_FX_CODE[param.dtype],
                       list(param.shape),
                       list(stride) if stride is not None else None))
    return inputs


ASSERT_STRIDE = re.compile(
    r"assert_size_stride\((\w+), \(([^)]*)\), \(([^)]*)\)")


def output_code_strides(path):
    """{input name: strides} from the assert_size_stride checks of
    Inductor's output_code.py beside the FX graph: the strides Inductor was
    given, which fx_graph_readable.py leaves out for some inputs (a view
    of a permuted input fails on a contiguous one)."""
    strides = {}
    if not os.path.exists(path):
        return strides
    with open(path) as f:
        for name, _, stride in ASSERT_STRIDE.findall(f.read()):
            try:
                strides.setdefault(name, [int(x) for x in stride.split(",")
                                          if x.strip()])
            except ValueError:  # symbolic
                pass
    return strides


def find_graphs(corpus, only, skip):
    dirs = sorted(os.path.dirname(p) for p in glob.glob(
        os.path.join(corpus, "*", "*", "ir_pre_fusion.txt")))
    chosen = []
    for d in dirs:
        gid = os.path.relpath(d, corpus)
        if only and not any(o in gid for o in only):
            continue
        if any(s in gid for s in skip):
            continue
        chosen.append((gid, d))
    return chosen


def run_ours(bench, dirs, repetitions, threads=0):
    """scheduler-corpus-bench on the given graph folders, each context with
    `threads` threads (0: none): {dir: graph JSON}."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "ours.json")
        subprocess.run([bench, "--repetitions=%d" % repetitions,
                        "--context-threads=%d" % threads,
                        "--explain-options=", "-o", out] + dirs,
                       capture_output=True, text=True)
        if not os.path.exists(out):
            return {}
        with open(out) as f:
            graphs = json.load(f)["graphs"]
    return {d: g for d, g in zip(dirs, graphs)}


def time_ours(bench, d, fresh, repetitions, threads):
    """run_ours on the corpus dump `d` and the fresh dumps: the summaries
    of the corpus dump's run and of each fresh dump's."""
    ours = run_ours(bench, [d] + fresh, repetitions, threads)
    return (summarize_ours(ours.get(d)),
            [summarize_ours(ours.get(f)) for f in fresh])


def summarize_ours(graph):
    if not graph:
        return None
    time_ = graph.get("time") or {}
    return {"nodes": graph.get("nodes"),
            "total_s": time_.get("total_s") if time_.get("repetitions")
            else None,
            "kernels": (graph.get("ours") or {}).get("num_kernels"),
            "inductor_kernels": (graph.get("inductor") or {}).get(
                "num_kernels"),
            "errors": graph.get("errors") or []}


# ---------------------------------------------------------------------------
# PyTorch side
# ---------------------------------------------------------------------------

class StopAfterScheduler(Exception):
    """Raised after Scheduler.__init__ to cut a compile short."""


class InductorTimer:
    """Wraps Scheduler.__init__ to record its wall time."""

    def __init__(self):
        from torch._inductor import scheduler
        self.times = []
        # With `stop`, the compile is abandoned once Scheduler.__init__ has
        # returned: the fusion decisions (and the debug dumps) are made by
        # then, and code generation and the Triton compiles that follow
        # would take most of the run.
        self.stop = False
        self.stopped = False
        # V.graph.lists of each Scheduler.__init__ call (the foreach lists
        # create_foreach_nodes reads), recorded before the timing starts.
        self.foreach_lists = []
        original = scheduler.Scheduler.__init__
        timer = self

        def timed_init(sched, *args, **kwargs):
            timer.foreach_lists.append(current_foreach_lists())
            start = time.perf_counter()
            try:
                result = original(sched, *args, **kwargs)
            finally:
                timer.times.append(time.perf_counter() - start)
            if timer.stop:
                timer.stopped = True
                raise StopAfterScheduler()
            return result

        scheduler.Scheduler.__init__ = timed_init


def current_foreach_lists():
    """V.graph.lists as foreach_lists.json holds it (the corpus's and the
    torch.compile backend's format): {list name: [node names]}."""
    from torch._inductor.virtualized import V
    return {str(k): [str(n) for n in v] for k, v in V.graph.lists.items()}


def write_foreach_lists(dump_dir, lists):
    """Writes foreach_lists.json beside a fresh dump. Inductor's debug trace
    does not write V.graph.lists, and without them the importer makes no
    foreach nodes: adam_step's fresh dump gave 32 kernels where Inductor
    made 2 (seventh session)."""
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from scheduler_opt import dump
    with open(os.path.join(dump_dir, dump.FOREACH_LISTS), "w") as f:
        f.write(json.dumps(lists, indent=1))  # as the corpus: no final newline


def load_fx_graph(path, torch):
    with open(path) as f:
        source = f.read()
    signature = parse_signature(source)
    source = source.replace("class <lambda>(torch.nn.Module):",
                            "class GraphModule(torch.nn.Module):")
    namespace = {"torch": torch, "device": torch.device, "inf": math.inf,
                 "nan": math.nan}
    exec(compile(source, path, "exec"), namespace)
    classes = [v for v in namespace.values()
               if isinstance(v, type) and issubclass(v, torch.nn.Module)
               and v is not torch.nn.Module]
    if len(classes) != 1:
        raise ValueError("expected one nn.Module class in %s" % path)
    gm = torch.fx.symbolic_trace(classes[0]())
    known = output_code_strides(
        os.path.join(os.path.dirname(path), "output_code.py"))
    inputs = []
    for name, dtype, size, stride in signature:
        dt = getattr(torch, dtype)
        if stride is None and len(known.get(name, ())) == len(size):
            stride = known[name]
        if stride is None:
            t = torch.empty(size, dtype=dt, device="cuda")
        else:
            t = torch.empty_strided(size, stride, dtype=dt, device="cuda")
        if dt.is_floating_point:
            t.normal_()
        elif dt == torch.bool:
            t.copy_(torch.rand(size, device="cuda") < 0.5)
        else:
            t.zero_()  # valid as any index or seed
        inputs.append(t)
    return gm, inputs


def compile_once(torch, gm, inputs, timer, trace_root=None):
    """Compiles gm with Inductor (up to the end of Scheduler.__init__ when
    timer.stop is set); returns (Scheduler.__init__ seconds, compile wall
    seconds, number of Scheduler.__init__ calls)."""
    import torch._dynamo
    import torch._inductor
    from torch._inductor import config
    torch._dynamo.reset()
    patch = {"trace.enabled": trace_root is not None}
    if hasattr(config, "force_disable_caches"):
        patch["force_disable_caches"] = True
    if timer.stop and hasattr(config, "compile_threads"):
        patch["compile_threads"] = 1  # no compile workers: nothing to compile
    dynamo_patch = {}
    if trace_root is not None:
        dynamo_patch["debug_dir_root"] = trace_root
    timer.times.clear()
    timer.foreach_lists.clear()
    timer.stopped = False
    start = time.perf_counter()
    try:
        with config.patch(patch), torch._dynamo.config.patch(dynamo_patch):
            torch._inductor.compile(gm, inputs)
    except Exception:
        # Inductor wraps what Scheduler.__init__ raised; the flag says it
        # was our stop.
        if not timer.stopped:
            raise
    wall = time.perf_counter() - start
    torch.cuda.synchronize()
    return sum(timer.times), wall, len(timer.times)


def trace_order(path):
    """Sort key of a trace folder: Inductor numbers its graphs in compile
    order (model__0_inference_10.9 after model__0_inference_2.1)."""
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", path)]


def measure_torch(torch, timer, fx_path, compiles, dump_dir):
    """Untraced and traced compiles of one FX graph; also returns a
    function that times `compiles` more untraced ones (for later turns)."""
    gm, inputs = load_fx_graph(fx_path, torch)
    untraced = [compile_once(torch, gm, inputs, timer)
                for _ in range(compiles)]
    with tempfile.TemporaryDirectory() as trace_root:
        traced = compile_once(torch, gm, inputs, timer, trace_root)
        dumps = sorted((os.path.dirname(p) for p in glob.glob(
            os.path.join(trace_root, "**", "ir_pre_fusion.txt"),
            recursive=True)), key=trace_order)
        if len(dumps) != len(timer.foreach_lists):
            raise RuntimeError(
                "%d fresh dumps for %d Scheduler.__init__ calls: cannot "
                "tell which foreach lists belong to which dump" %
                (len(dumps), len(timer.foreach_lists)))
        kept = []
        for i, (d, lists) in enumerate(zip(dumps, timer.foreach_lists)):
            dest = os.path.join(dump_dir, str(i))
            shutil.copytree(d, dest, dirs_exist_ok=True)
            write_foreach_lists(dest, lists)
            kept.append(dest)
    return {"scheduler_init_s": statistics.median(t[0] for t in untraced),
            "stopped_after_scheduler": timer.stop,
            "scheduler_init_samples_s": [t[0] for t in untraced],
            "schedulers_per_compile": untraced[0][2],
            "compile_s": statistics.median(t[1] for t in untraced),
            "scheduler_init_traced_s": traced[0],
            "fresh_dumps": kept}, \
        lambda: [compile_once(torch, gm, inputs, timer)[0]
                 for _ in range(compiles)]


def turn_ratios(turns):
    """Each turn's Inductor median over our time in that turn (the fresh
    dump's when there is one, else the corpus dump's), for the turns where
    both sides have a time; and their median, min and max."""
    ratios = []
    for turn in turns:
        ours = turn.get("ours_fresh_s") or turn.get("ours_corpus_s")
        if turn.get("scheduler_init_s") and ours:
            ratios.append(turn["scheduler_init_s"] / ours)
    if not ratios:
        return None
    return {"ratios": ratios, "median": statistics.median(ratios),
            "min": min(ratios), "max": max(ratios)}


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def fmt_ms(seconds):
    if seconds is None:
        return "n/a"
    return "%.2f ms" % (seconds * 1e3) if seconds < 0.1 else \
        "%.0f ms" % (seconds * 1e3)


def ratio(a, b):
    return "%.0f\u00d7" % (a / b) if a and b else "n/a"


def fmt_turns(summary):
    """`median× (min–max, N turns)` of turn_ratios' summary."""
    if not summary:
        return "n/a"
    return "%.0f\u00d7 (%.0f\u2013%.0f, %d turns)" % (
        summary["median"], summary["min"], summary["max"],
        len(summary["ratios"]))


def write_report(out, data):
    with open(os.path.join(out, "gpu_compare.json"), "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    lines = ["# Inductor's Scheduler.__init__ and scheduler-opt on one "
             "machine", "",
             "Host: %s. PyTorch %s, Triton %s, GPU %s." %
             (data["host"], data.get("torch"), data.get("triton"),
              data.get("gpu")), "",
             "| graph | nodes (corpus / fresh) | Inductor Scheduler.__init__ "
             "| with debug trace | ours, corpus dump | ours, fresh dump | "
             "ratio | ratio in turns | result.json |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for rec in data["graphs"]:
        t = rec.get("torch") or {}
        corpus = rec.get("ours_corpus") or {}
        fresh = (rec.get("ours_fresh") or [None])[0] or {}
        lines.append("| `%s` | %s / %s | %s | %s | %s | %s | %s | %s | %s |" % (
            rec["graph"], corpus.get("nodes", "n/a"),
            fresh.get("nodes", "n/a"), fmt_ms(t.get("scheduler_init_s")),
            fmt_ms(t.get("scheduler_init_traced_s")),
            fmt_ms(corpus.get("total_s")), fmt_ms(fresh.get("total_s")),
            ratio(t.get("scheduler_init_s"),
                  fresh.get("total_s") or corpus.get("total_s")),
            fmt_turns(rec.get("turn_ratios")),
            fmt_ms(rec.get("result_json_s"))))
        for threads, runs in sorted((rec.get("ours_by_threads") or {}).items(),
                                    key=lambda item: int(item[0])):
            fresh_t = (runs.get("fresh") or [None])[0] or {}
            corpus_t = runs.get("corpus") or {}
            lines.append("| %d threads | | | | %s | %s | %s | | |" % (
                int(threads), fmt_ms(corpus_t.get("total_s")),
                fmt_ms(fresh_t.get("total_s")),
                ratio(t.get("scheduler_init_s"),
                      fresh_t.get("total_s") or corpus_t.get("total_s"))))
        if rec.get("torch_error"):
            lines.append("|  | error: %s | | | | | | | |" %
                         rec["torch_error"].replace("|", "/")[:200])
    lines += ["", "*ratio*: Inductor's Scheduler.__init__ without tracing "
              "over our import + schedule (on the fresh dump when there is "
              "one, else on the corpus dump), with %d context threads; "
              "the *N threads* rows run the same with contexts of N "
              "threads; *ratio in turns*: with --turns, the median of the turns' "
              "ratios, each Inductor's median over ours in the same turn, "
              "and their range." % data["context_threads"][0]]
    with open(os.path.join(out, "gpu_compare.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def result_json_times(corpus):
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from compare_inductor import scheduler_init_times
    ids = [os.path.relpath(os.path.dirname(p), corpus) for p in glob.glob(
        os.path.join(corpus, "*", "*", "ir_pre_fusion.txt"))]
    return scheduler_init_times(corpus, ids)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", required=True,
                        help="scheduler-corpus-bench (a static build)")
    parser.add_argument("--corpus",
                        default=os.path.join(ROOT, "corpus", "inductor"))
    parser.add_argument("--out", default=os.environ.get("OUT") or
                        os.path.join(ROOT, "gpu-compare-out"))
    parser.add_argument("--graphs", default="",
                        help="comma-separated substrings; only matching "
                             "graphs")
    parser.add_argument("--skip", default="",
                        help="comma-separated substrings of graphs to skip "
                             "(wide2000 takes over a minute per compile)")
    parser.add_argument("--compiles", type=int, default=2,
                        help="untraced Inductor compiles per graph")
    parser.add_argument("--repetitions", type=int, default=7,
                        help="our timed runs per dump")
    parser.add_argument("--context-threads", default="0",
                        help="comma-separated thread counts of our "
                             "contexts; the first is the reported run, "
                             "each other one is recorded beside it "
                             "(ours_by_threads)")
    parser.add_argument("--turns", type=int, default=1,
                        help="alternate Inductor's untraced compiles and "
                             "our runs this many times on each graph; "
                             "each turn's ratio is recorded (turns, "
                             "turn_ratios)")
    parser.add_argument("--full-compile", action="store_true",
                        help="compile to the end (code generation, Triton) "
                             "instead of stopping after Scheduler.__init__")
    parser.add_argument("--dumps", default=None,
                        help="where the fresh Inductor dumps go (default: "
                             "<out>/dumps)")
    parser.add_argument("--dry-run", action="store_true",
                        help="no PyTorch: parse the FX signatures and run "
                             "our tool on the corpus dumps")
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    corpus = os.path.abspath(args.corpus)
    graphs = find_graphs(corpus, [g for g in args.graphs.split(",") if g],
                         [s for s in args.skip.split(",") if s])
    init_times = result_json_times(corpus)
    thread_counts = [int(t) for t in args.context_threads.split(",") if t]
    data = {"host": "%s, %d cores" % (cpu_model(), os.cpu_count() or 0),
            "bench": os.path.abspath(args.bench),
            "context_threads": thread_counts, "graphs": []}
    torch = timer = None
    if not args.dry_run:
        import torch
        import triton
        data["torch"] = torch.__version__
        data["triton"] = triton.__version__
        data["gpu"] = torch.cuda.get_device_name(0)
        timer = InductorTimer()
        timer.stop = not args.full_compile
        data["stopped_after_scheduler"] = timer.stop
        data["compiles"] = args.compiles
    data["turns"] = args.turns

    for gid, d in graphs:
        rec = {"graph": gid, "result_json_s": init_times.get(gid)}
        data["graphs"].append(rec)
        fx_path = os.path.join(d, "fx_graph_readable.py")
        fresh = []
        more_compiles = None
        try:
            if not os.path.exists(fx_path):
                raise FileNotFoundError(
                    "no fx_graph_readable.py: the corpus keeps only the "
                    "dumps of this graph, so Inductor cannot be rerun on it")
            with open(fx_path) as f:
                rec["inputs"] = len(parse_signature(f.read()))
            if torch is not None:
                rec["torch"], more_compiles = measure_torch(
                    torch, timer, fx_path, args.compiles,
                    os.path.join(args.dumps or os.path.join(args.out, "dumps"),
                                 gid))
                fresh = rec["torch"]["fresh_dumps"]
        except Exception as e:  # report and go on with the next graph
            rec["torch_error"] = "%s: %s" % (type(e).__name__, e)
        for i, threads in enumerate(thread_counts):
            corpus_run, fresh_runs = time_ours(args.bench, d, fresh,
                                               args.repetitions, threads)
            if i == 0:
                rec["ours_corpus"], rec["ours_fresh"] = corpus_run, fresh_runs
            else:
                rec.setdefault("ours_by_threads", {})[str(threads)] = {
                    "corpus": corpus_run, "fresh": fresh_runs}
        if args.turns > 1 and thread_counts:
            measure_turns(args, rec, d, fresh, more_compiles,
                          thread_counts[0])
        write_report(args.out, data)
        print("%-40s %s" % (gid, rec.get("torch_error") or "ok"),
              flush=True)
    write_report(args.out, data)
    return 0


def measure_turns(args, rec, d, fresh, more_compiles, threads):
    """Turns 2 to --turns: Inductor's untraced compiles, then our runs; the
    first turn is the run above (its untraced compiles came before the
    traced one)."""
    def our_times():
        corpus_run, fresh_runs = time_ours(args.bench, d, fresh,
                                           args.repetitions, threads)
        fresh_run = (fresh_runs or [None])[0] or {}
        return (corpus_run or {}).get("total_s"), fresh_run.get("total_s")

    first_fresh = (rec.get("ours_fresh") or [None])[0] or {}
    turns = [{"scheduler_init_s": (rec.get("torch") or {}).get(
                  "scheduler_init_s"),
              "ours_corpus_s": (rec.get("ours_corpus") or {}).get("total_s"),
              "ours_fresh_s": first_fresh.get("total_s")}]
    try:
        for _ in range(1, args.turns):
            init = (statistics.median(more_compiles()) if more_compiles
                    else None)
            corpus_s, fresh_s = our_times()
            turns.append({"scheduler_init_s": init,
                          "ours_corpus_s": corpus_s, "ours_fresh_s": fresh_s})
    except Exception as e:  # keep the turns measured so far
        rec["turns_error"] = "%s: %s" % (type(e).__name__, e)
    rec["turns"] = turns
    rec["turn_ratios"] = turn_ratios(turns)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
