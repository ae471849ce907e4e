"""On the GPU machine: the host's time per call of graphs compiled through
torch.compile(backend="scheduler_opt") against Inductor's, for graphs
with size symbols (dynamic=True) and a static one.

    SCHEDULER_OPT_BIN=DIR PYTHONPATH=python:bench python3 \
        bench/host_per_call.py --out "$OUT" [--cases a,b] [--profile a,b] \
        [--other DIR]

Cases: a cumsum along rows (4096 x 1000, dynamic and static, as
time_row_scans.py compiles it) and backend_models.py's `*_dynamic`
models at their first size. Each case runs eagerly first (so that
autograd's device thread has a CUDA context, as in backend_models.py),
then is compiled with ours and with Inductor in one Dynamo session, and
with --other DIR also with the scheduler_opt package in DIR (another
checkout's python/scheduler_opt, imported as `scheduler_opt_other`:
`ours_other`), so that two runtimes are timed in the same rounds.
`backend_models.timing` times one step of each variant, interleaved over
15 rounds: `host_us` is the host's time to issue a step while a sleep
kernel holds the GPU (Dynamo's guards, AOT autograd's wrappers, the
compiled graph's call, and autograd for the training models), `gpu_ms`
the GPU's time; `max_abs` each variant's largest difference from eager.
With --profile, cProfile's view of 200 steps of those cases (the
functions with the most own time). Writes host_per_call.json under --out
after each case.
"""
import argparse
import functools
import importlib.util
import json
import os
import sys
import traceback

import scheduler_opt  # noqa: F401  (the one PYTHONPATH names first)
import torch

import backend_models as bm

CUMSUM = {"cumsum_dynamic": True, "cumsum_static": False}


def cumsum(x):
    return x.cumsum(1)


def load_other(directory):
    """The scheduler_opt package in `directory`, as scheduler_opt_other."""
    name = "scheduler_opt_other"
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(directory, "__init__.py"),
        submodule_search_locations=[directory])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def variants(fn, dynamic, other):
    """label -> compiled fn."""
    out = {"ours": torch.compile(fn, backend="scheduler_opt",
                                 dynamic=dynamic,
                                 options={"fallback": False})}
    if other is not None:
        out["ours_other"] = torch.compile(
            fn, backend=functools.partial(other.backend.backend,
                                          options={"fallback": False}),
            dynamic=dynamic)
    out["inductor"] = torch.compile(fn, dynamic=dynamic)
    return out


def case_runs(name, other):
    """(label -> step function, eager's step function)."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    if name in CUMSUM:
        x = torch.randn(4096, 1000, device="cuda")
        runs = {k: (lambda f: lambda: [f(x)])(f)
                for k, f in variants(cumsum, CUMSUM[name], other).items()}
        return runs, lambda: [cumsum(x)]
    dyn = bm.DYNAMIC_MODELS[name]()
    case = dyn.at(dyn.sizes[0])
    runs = {k: bm.step_fn(case, f)
            for k, f in variants(dyn.fn, True, other).items()}
    return runs, bm.step_fn(case, case.fn)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--cases", default=",".join(
        list(CUMSUM) + list(bm.DYNAMIC_MODELS)))
    parser.add_argument("--profile", default="cumsum_dynamic,cumsum_static")
    parser.add_argument("--other", default="")
    args = parser.parse_args()
    other = load_other(args.other) if args.other else None
    report = {"ours": os.path.dirname(scheduler_opt.__file__),
              "ours_other": args.other,
              "device": torch.cuda.get_device_name(),
              "torch": torch.__version__, "cases": {}}
    path = os.path.join(args.out, "host_per_call.json")
    for name in args.cases.split(","):
        try:
            runs, eager = case_runs(name, other)
            ref = eager()
            r = {}
            for label, run in runs.items():
                out = run()  # compiles
                r[label + "_max_abs"] = max(
                    (a.double() - b.double()).abs().max().item()
                    for a, b in zip(out, ref) if a.numel())
            torch.cuda.synchronize()
            r.update(bm.timing(runs, rounds=15))
            if name in args.profile.split(","):
                for label, run in runs.items():
                    r[label + "_profile"] = bm.host_profile(run, steps=200,
                                                            top=20)
        except Exception as e:
            traceback.print_exc()
            r = {"error": bm.error_text(e)}
        report["cases"][name] = r
        print(name, json.dumps({k: v for k, v in r.items()
                                if "host_us" in k or "gpu_ms" in k and
                                "iqr" not in k or "max_abs" in k or
                                k == "error"}), flush=True)
        for k, v in r.items():
            if k.endswith("_profile"):
                print("==", name, k, "\n" + v)
        with open(path, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
