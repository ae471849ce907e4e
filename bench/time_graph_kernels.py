"""Times single kernels of lowered graphs, in place in L2, as a model's
small kernels run (their inputs were just written by the kernel before).

    python3 bench/time_graph_kernels.py [--rounds N] --kernels K1,K2 NAME=DIR ...

Each DIR holds one lowered graph (`graph.json` and its PTX: a compile-cache
entry of the backend, or `scheduler-opt --fusion-to-ptx=output-dir=DIR`
on its `graph.mlir` with other options). For each kernel present in a
DIR, its storages are allocated alone (floats from randn, integers from
0 to 127, so that gathers stay inside any table of at least 128 rows,
booleans 0 or 1),
and one CUDA graph of 50 back-to-back launches is replayed; the median
over `--rounds` replays, divided by 50, is its time. The variants take
turns kernel by kernel, round by round, so that a drift of the clocks
reaches all of them alike. Prints a line a kernel (µs) and writes --out
as JSON. With --once each kernel is launched once instead (for `ncu`,
whose list is then in the order of the kernels and variants given).

`--triton KERNEL=PTX:NAME:GRID:BLOCK:SIZES` adds Triton's kernel NAME
(Inductor's PTX from its cache) to KERNEL's row, timed in the same turns,
with its arguments from SIZES, comma-separated: an element count for an
f32 pointer argument, `i,N` for an i32 scalar argument of value N, `l,N`
for an i64 pointer of N elements, `p` for a pointer Triton passes as null
(its scratch pointers). Nothing checks SIZES against the kernel: a wrong
list can fault (Triton's looped layer norm over gpt2's embeddings did,
with the list its signature seemed to need).
"""
import argparse
import json
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
from scheduler_opt import cuda_driver  # noqa: E402
from scheduler_opt.autotune import replay_us  # noqa: E402
from scheduler_opt import manifest as manifest_lib  # noqa: E402
from scheduler_opt.runtime import TORCH_DTYPES  # noqa: E402

LAUNCHES = 50


def fill(n, dtype):
    t = torch.empty(n, dtype=dtype, device="cuda")
    if t.is_floating_point():
        t.normal_()
    elif dtype == torch.bool:
        t.random_(0, 2)
    else:
        t.random_(0, 128)
    return t


def graph_kernel(directory, name):
    """(launch function, what it keeps alive) for kernel `name` of the graph
    in `directory`, or None where the graph has no such kernel."""
    m = manifest_lib.load(os.path.join(directory, "graph.json"))
    steps = [s for s in m.steps if s.kind == "kernel" and s.name == name]
    if not steps:
        return None
    step = steps[0]
    with open(m.binary_path(), "rb") as f:
        module = cuda_driver.Module(f.read())
    kernel = cuda_driver.Kernel(module, name, step.block, len(step.args),
                                cluster=step.cluster)
    storages = {s.name: s for s in m.storages}
    tensors = [fill(int(storages[a].elements), TORCH_DTYPES[storages[a].dtype])
               for a in step.args]
    pointers = [t.data_ptr() for t in tensors]
    grid = [int(g) for g in step.grid]

    def launch():
        kernel.launch(grid, pointers, torch.cuda.current_stream().cuda_stream)
    return launch, (module, kernel, tensors)


def triton_kernel(spec):
    path, name, grid, block, sizes = spec.split(":", 4)
    with open(path, "rb") as f:
        module = cuda_driver.Module(f.read())
    args = sizes.split(",")
    tensors, values = [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "p":
            values.append(0)
        elif a == "i":
            values.append(int(args[i + 1]))
            i += 1
        elif a == "l":
            tensors.append(fill(int(args[i + 1]), torch.int64))
            values.append(tensors[-1].data_ptr())
            i += 1
        else:
            tensors.append(fill(int(a), torch.float32))
            values.append(tensors[-1].data_ptr())
        i += 1
    kernel = cuda_driver.Kernel(module, name, (int(block), 1, 1), len(values))

    def launch():
        kernel.launch([int(grid), 1, 1], values,
                      torch.cuda.current_stream().cuda_stream)
    return launch, (module, kernel, tensors)


def capture(launch):
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for _ in range(3):
            launch()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        for _ in range(LAUNCHES):
            launch()
    graph.replay()
    torch.cuda.synchronize()
    return graph


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--once", action="store_true",
                        help="launch each kernel once, without graphs or "
                        "timing (for ncu)")
    parser.add_argument("--out", default=None)
    parser.add_argument("--triton", action="append", default=[],
                        help="KERNEL=PTX:NAME:GRID:BLOCK:SIZES")
    parser.add_argument("--kernels", required=True,
                        help="comma-separated kernel names")
    parser.add_argument("variants", nargs="+", help="NAME=DIR")
    args = parser.parse_args()
    variants = [v.split("=", 1) for v in args.variants]
    kernels = args.kernels.split(",")
    torch.zeros(1, device="cuda")
    rows = {}
    tritons = {}
    for spec in args.triton:
        kernel, rest = spec.split("=", 1)
        tritons.setdefault(kernel, []).append(rest)
    for kernel in kernels:
        graphs = {}
        found = [(name, graph_kernel(directory, kernel))
                 for name, directory in variants]
        found += [("triton" + (str(i) if i else ""), triton_kernel(rest))
                  for i, rest in enumerate(tritons.get(kernel, []))]
        if args.once:
            for name, f in found:
                if f:
                    f[0]()
            torch.cuda.synchronize()
            continue
        for name, f in found:
            if f:
                graphs[name] = (capture(f[0]), f[1])
        times = {name: [] for name in graphs}
        for _ in range(args.rounds):
            for name, (graph, _) in graphs.items():
                times[name].append(replay_us(graph, LAUNCHES))
        rows[kernel] = {name: round(statistics.median(t), 3)
                        for name, t in times.items()}
        print(kernel, json.dumps(rows[kernel]), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(),
                       "launches_per_replay": LAUNCHES,
                       "rounds": args.rounds, "kernels": rows}, f, indent=1)


if __name__ == "__main__":
    main()
