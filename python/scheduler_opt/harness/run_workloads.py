"""Checks and times scheduler-opt's kernels for corpus workloads on a GPU.

    python3 -m scheduler_opt.harness.run_workloads --bundle DIR --corpus corpus/inductor

DIR holds one folder per variant of <graph>.{ptx,json}, written by
`scheduler-opt --fusion-to-ptx="output-dir=..."` (bench/build_gpu_bundle.sh:
unfused/, ours/ with the kernels of our fusion pass, fused/ with Inductor's
groups written out by hand, and tuning variants of fused/); variants
missing from DIR are skipped. For each workload: the
max relative error of every output against PyTorch eager (max |ours - eager|
/ max |eager| over the output's elements, the worst output reported), then
the time per run (CUDA-graph replay of many runs over rotating input sets,
median of repeats) of our kernels, of torch.compile of the same FX function
and of eager, and the bytes our run must move over that time against the
GPU's measured device-to-device copy bandwidth.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

import torch

from .. import manifest as manifest_lib
from . import semantics
from ..fx_graph import find_fx_graph, load_forward
from .program import Program

WORKLOADS = ("add_sum", "softmax", "layernorm_gelu", "rmsnorm_silu",
             "cross_entropy")
# Integer inputs: (low, high, ignore value, ignore fraction).
INT_INPUTS = {("cross_entropy", "arg1_1"): (0, 32000, -100, 0.05)}
# Workloads whose float inputs are optimizer state: values in [0, 1) (a
# second moment is never negative), and step counts (0-d tensors) whole
# numbers from 1 to 100, as an optimizer has them.
OPTIMIZER_STATE = ("adam_step",)
ROTATE_BYTES = 256 << 20


def make_inputs(workload, program, storages, generator):
    """Fills the input storages; returns the graph inputs as tensors."""
    tensors = {}
    for t in program.manifest.inputs:
        view = program.view(storages, t)
        if view.is_floating_point() and workload in OPTIMIZER_STATE:
            if view.dim() == 0:
                v = torch.randint(1, 101, (), generator=generator,
                                  device=view.device)
            else:
                v = torch.rand(view.shape, generator=generator,
                               device=view.device)
            view.copy_(v)
        elif view.is_floating_point():
            view.copy_(torch.randn(view.shape, generator=generator,
                                   device=view.device, dtype=view.dtype))
        else:
            lo, hi, ignore, frac = INT_INPUTS.get((workload, t.name),
                                                  (0, 2, None, 0))
            v = torch.randint(lo, hi, view.shape, generator=generator,
                              device=view.device, dtype=view.dtype)
            if ignore is not None:
                mask = torch.rand(view.shape, generator=generator,
                                  device=view.device) < frac
                v = torch.where(mask, torch.full_like(v, ignore), v)
            view.copy_(v)
        tensors[t.name] = view
    return tensors


def input_sets(workload, program, names, generator, sets):
    """`sets` fresh input sets of `program`: a launcher of its kernels on
    each, and each set's graph inputs in the order of `names`."""
    launchers, arg_sets = [], []
    for _ in range(sets):
        storages = program.allocate()
        inputs = make_inputs(workload, program, storages, generator)
        launchers.append(program.launcher(storages))
        arg_sets.append([inputs[n] for n in names])
    return launchers, arg_sets


def relative_error(ours, ref):
    ours = ours.double()
    ref = ref.double()
    if ours.shape != ref.shape:
        return math.inf
    bad = torch.isnan(ours) & ~torch.isnan(ref)
    if bad.any():
        return math.inf
    diff = (ours - ref).abs().nan_to_num(0.0)
    scale = ref.abs().nan_to_num(0.0).max().item()
    return diff.max().item() / max(scale, 1e-30)


def _median_event_time_us(fn, reps):
    """Median over `reps` calls of `fn` of the time between CUDA events
    recorded around it, in microseconds."""
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(times)


def graph_time_us(runs, reps=25, per_graph=20):
    """Median time of one call, from CUDA-graph replays of `per_graph` calls
    cycling through `runs` (one callable per input set). What the calls
    return stays alive while the graph is captured, so that each call
    writes its outputs to memory of its own (as ours write into their input
    set's storages): an output rewritten in place by every call would stay
    in the L2 cache and never cost its write to memory."""
    per_graph = max(per_graph, len(runs))
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            for run in runs:
                run()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    kept = []
    with torch.cuda.graph(graph):
        for i in range(per_graph):
            kept.append(runs[i % len(runs)]())
    graph.replay()
    torch.cuda.synchronize()
    return _median_event_time_us(graph.replay, reps) / per_graph


def event_time_us(run, reps=50):
    """Median time of single calls with events (launch overhead included)."""
    for _ in range(3):
        run()
    torch.cuda.synchronize()
    return _median_event_time_us(run, reps)


def copy_bandwidth():
    """Device-to-device copy of 1 GiB: bytes read plus written per second."""
    n = 256 << 20
    src = torch.randn(n, device="cuda")
    dst = torch.empty_like(src)
    t = event_time_us(lambda: dst.copy_(src), reps=20)
    return 2 * n * 4 / (t * 1e-6)


def same_bytes_copy_us(nbytes, sets):
    """Time of a copy moving about `nbytes` (half read, half written to
    fresh memory per call), timed as the workloads are (graph replays over
    `sets` rotating sources): the copy rate a kernel of this size can
    reach, where copy_bandwidth's 1 GiB copy has no launch, ramp-up or
    tail to pay. The float count is rounded down to a multiple of 2^16
    (256 KiB) when larger: a copy of 4096 x 1024 + 512 floats took 15.8
    us where 4096 x 1024 took 13.4 on an H100."""
    n = max(1, nbytes // 8)
    if n > 1 << 16:
        n -= n % (1 << 16)
    sources = [torch.randn(n, device="cuda") for _ in range(sets)]
    return graph_time_us([lambda s=s: s.clone() for s in sources])


def check(workload, program, forward, names, generator):
    """Errors of every output, and of every input a graph updates in place
    (an optimizer step returns nothing), against eager on the same inputs."""
    storages = program.allocate()
    inputs = make_inputs(workload, program, storages, generator)
    args = [inputs[n].clone() for n in names]
    args64 = [a.double() if a.is_floating_point() else a.clone()
              for a in args]
    program.launcher(storages)()
    torch.cuda.synchronize()
    with torch.no_grad():
        ref = list(forward(*args))
        ref64 = list(forward(*args64))
    # Inputs, after the run: eager's updated its arguments in place.
    tensors = list(program.manifest.outputs)
    by_name = {t.name: t for t in program.manifest.inputs}
    for name, a, a64 in zip(names, args, args64):
        tensors.append(by_name[name])
        ref.append(a)
        ref64.append(a64)
    errors, eager_errors, small = [], [], {}
    for t, r, r64 in zip(tensors, ref, ref64):
        ours = program.view(storages, t)
        errors.append(relative_error(ours, r))
        eager_errors.append(relative_error(r, r64))
        if ours.numel() <= 4:  # show tiny outputs (losses) in full
            small[t.name] = {"ours": ours.double().flatten().tolist(),
                             "eager": r.double().flatten().tolist(),
                             "fp64": r64.double().flatten().tolist()}
    return max(errors), max(eager_errors), errors, small


def time_workload(workload, program, forward, names, generator,
                  compiled=None, baselines=True):
    """Times our kernels and, with `baselines`, torch.compile (`compiled`,
    compiled here when None) and eager on the same input sets."""
    m = program.manifest
    footprint = sum(s.elements * manifest_lib.dtype_size(s.dtype)
                    for s in m.storages)
    sets = max(1, min(8, math.ceil(ROTATE_BYTES / max(footprint, 1))))
    launchers, arg_sets = input_sets(workload, program, names, generator,
                                     sets)
    if compiled is None:
        compiled = torch.compile(forward)
    with torch.no_grad():
        start = time.time()
        if baselines:
            for args in arg_sets:
                compiled(*args)
        torch.cuda.synchronize()
        compile_s = time.time() - start
        result = {"sets": sets}
        timed = [("ours_us", launchers)]
        if baselines:
            result["compile_s"] = compile_s
            timed += [
                ("compiled_us", [lambda a=a: compiled(*a) for a in arg_sets]),
                ("eager_us", [lambda a=a: forward(*a) for a in arg_sets])]
        for key, runs in timed:
            try:
                result[key] = graph_time_us(runs)
            except Exception as e:  # report, fall back to plain events
                result[key + "_graph_error"] = str(e).splitlines()[0]
                result[key] = event_time_us(runs[0])
        result["ours_event_us"] = event_time_us(launchers[0])
        if len(m.kernels()) > 1:
            # Each kernel alone, on the same rotating input sets.
            result["kernels_us"] = {}
            for i, step in enumerate(m.steps):
                if step.kind == "kernel":
                    result["kernels_us"][step.name] = graph_time_us(
                        [program.launcher(run.storages, only=i)
                         for run in launchers])
        if baselines:
            result["compiled_event_us"] = event_time_us(
                lambda: compiled(*arg_sets[0]))
    result["min_bytes"] = m.min_bytes()
    result["ours_bytes_per_s"] = m.min_bytes() / (result["ours_us"] * 1e-6)
    if baselines:
        result["copy_same_bytes_us"] = same_bytes_copy_us(m.min_bytes(), sets)
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--variants",
                        default="fused,unfused,ours,fused_e4,fused_e16,"
                                "fused_warp")
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--baselines", default="all",
                        help="variants timed with torch.compile and eager "
                             "besides ours: all, or ends (the first and "
                             "last variant of each workload, to save "
                             "time in sweeps; the others report the "
                             "workload's first baseline)")
    parser.add_argument("--skip-semantics", action="store_true")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args(argv)

    torch.backends.cuda.matmul.allow_tf32 = False
    props = torch.cuda.get_device_properties(0)
    report = {"device": props.name, "torch": torch.__version__,
              "workloads": {}}
    print("device:", props.name, "torch", torch.__version__, flush=True)
    if not args.no_timing:
        report["copy_bytes_per_s"] = copy_bandwidth()
        print("copy bandwidth: %.0f GB/s" % (report["copy_bytes_per_s"] / 1e9),
              flush=True)
    report["semantics"] = ({} if args.skip_semantics
                           else semantics.check_all(args.bundle))
    for case, r in report["semantics"].items():
        print("semantics", case, json.dumps(r), flush=True)
    write_report(args.out, report)
    generator = torch.Generator(device="cuda")
    generator.manual_seed(0)
    for workload in args.workloads.split(","):
        forward, names = load_forward(find_fx_graph(args.corpus, workload))
        entry = report["workloads"].setdefault(workload, {})
        variants = [v for v in args.variants.split(",") if os.path.exists(
            os.path.join(args.bundle, v, workload + ".json"))]
        compiled = torch.compile(forward)
        baseline = None
        for i, variant in enumerate(variants):
            path = os.path.join(args.bundle, variant, workload + ".json")
            timed = (args.baselines == "all" or baseline is None
                     or i == len(variants) - 1)
            try:
                program = Program(manifest_lib.load(path))
                err, eager_err, per_output, small = check(
                    workload, program, forward, names, generator)
                result = {"kernels": len(program.manifest.kernels()),
                          "max_rel_err": err, "eager_vs_fp64_rel_err": eager_err,
                          "per_output_rel_err": per_output}
                if small:
                    result["values"] = small
            except Exception as e:
                result = {"error": "%s: %s" % (type(e).__name__, e)}
            if "error" not in result and not args.no_timing:
                try:
                    result.update(time_workload(workload, program, forward,
                                                names, generator, compiled,
                                                baselines=timed))
                    if timed and baseline is None:
                        baseline = {k: result[k] for k in (
                            "compiled_us", "eager_us") if k in result}
                        baseline["baseline_from"] = variant
                    elif not timed:
                        result.update(baseline)
                except Exception as e:
                    result["timing_error"] = "%s: %s" % (type(e).__name__, e)
            entry[variant] = result
            print(workload, variant, json.dumps(result), flush=True)
            write_report(args.out, report)  # a run cut short keeps these
    write_report(args.out, report)
    print_table(report)


def write_report(out, report):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(report, f, indent=1)


def print_table(report):
    for case, r in report.get("semantics", {}).items():
        status = ("ERROR " + r["error"] if "error" in r else
                  "FAIL " + "; ".join(r["mismatches"]) if r["mismatches"] else
                  "ok (max rel err %.1e%s)" % (
                      r["max_rel_err"],
                      ", vs Triton %.1e" % r["max_abs_diff_vs_triton"]
                      if "max_abs_diff_vs_triton" in r else ""))
        print("semantics %-20s %s" % (case, status))
    bw = report.get("copy_bytes_per_s")
    print("\n%-15s %-8s %3s %10s %10s %10s %10s %8s %9s %7s %8s" % (
        "workload", "variant", "k", "max_rel", "ours_us", "compile_us",
        "eager_us", "speedup", "GB/s", "%copy", "copy_us"))
    for workload, variants in report["workloads"].items():
        for variant, r in variants.items():
            if "error" in r:
                print("%-15s %-8s ERROR %s" % (workload, variant, r["error"]))
                continue
            ours = r.get("ours_us", float("nan"))
            comp = r.get("compiled_us", float("nan"))
            gbs = r.get("ours_bytes_per_s", float("nan")) / 1e9
            pct = 100 * r["ours_bytes_per_s"] / bw if bw and "ours_bytes_per_s" in r else float("nan")
            print("%-15s %-8s %3d %10.2e %10.2f %10.2f %10.2f %8.2f %9.0f %7.1f %8.2f" % (
                workload, variant, r["kernels"], r["max_rel_err"], ours, comp,
                r.get("eager_us", float("nan")), comp / ours, gbs, pct,
                r.get("copy_same_bytes_us", float("nan"))))


if __name__ == "__main__":
    sys.exit(main())
