"""One step of backend models, ours and Inductor's, for Nsight Compute.

    PYTHONPATH=python SCHEDULER_OPT_BIN=DIR ncu --profile-from-start off \
        --clock-control none --csv --metrics ... \
        python3 bench/ncu_models.py --models gpt2,resnet18

Compiles each model (bench/backend_models.py's small equivalents) with
`backend="scheduler_opt"` and with Inductor, runs three warm-up steps of
each (Inductor's autotuning happens there), then one step of ours and one
of Inductor's between cudaProfilerStart and cudaProfilerStop, so that
`ncu --profile-from-start off` sees exactly one step of each and none of
the compiles or autotuning launches. Ours comes first, so in ncu's list a
model's `kernel_*` launches precede its `triton_*` ones.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import backend_models as bm  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="gpt2")
    args = parser.parse_args()
    torch._inductor.config.fx_graph_cache = False
    torch._functorch.config.enable_autograd_cache = False
    for name in args.models.split(","):
        torch._dynamo.reset()
        runs = []
        for backend, options in (("scheduler_opt", {"fallback": False}),
                                 ("inductor", None)):
            torch.manual_seed(0)
            case = bm.MODELS[name]()
            compiled = torch.compile(case.fn, backend=backend,
                                     options=options)
            run = bm.step_fn(case, compiled)
            for _ in range(3):
                run()
            runs.append((case, run))
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        for _, run in runs:
            run()
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
        print("ncu_models: profiled", name, flush=True)
        del runs


if __name__ == "__main__":
    main()
