"""Runs the workloads' kernels once each between cudaProfilerStart and
cudaProfilerStop, for Nsight Compute (`ncu --profile-from-start off`): our
kernels of each bundle variant, then torch.compile's (Inductor's Triton
kernels) on the same inputs. Everything is warmed up first, so that the
profiled launches are the steady-state kernels, not compilation or module
loading.

    ncu --profile-from-start off --clock-control none --set full -o prof \\
        python3 bench/profile_kernels.py --bundle B --corpus C \\
        --workloads layernorm_gelu --variants ours
"""
import argparse
import os
import sys

import torch


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--workloads", default="layernorm_gelu")
    parser.add_argument("--variants", default="ours")
    parser.add_argument("--no-inductor", action="store_true")
    args = parser.parse_args(argv)

    from scheduler_opt import manifest as manifest_lib
    from scheduler_opt.fx_graph import find_fx_graph, load_forward
    from scheduler_opt.harness.program import Program
    from scheduler_opt.harness.run_workloads import make_inputs

    generator = torch.Generator(device="cuda")
    generator.manual_seed(0)
    runs = []
    for workload in args.workloads.split(","):
        forward, names = load_forward(find_fx_graph(args.corpus, workload))
        for variant in args.variants.split(","):
            path = os.path.join(args.bundle, variant, workload + ".json")
            if not os.path.exists(path):
                continue
            program = Program(manifest_lib.load(path))
            storages = program.allocate()
            inputs = make_inputs(workload, program, storages, generator)
            runs.append(program.launcher(storages))
            if not args.no_inductor and variant == args.variants.split(",")[0]:
                compiled = torch.compile(forward)
                values = [inputs[n].clone() for n in names]
                runs.append(lambda c=compiled, v=values: c(*v))
    with torch.no_grad():
        for run in runs:
            run()
            run()
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStart()
        for run in runs:
            run()
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
