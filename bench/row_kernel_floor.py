"""The floor of the three row workloads at their size, by hand-written kernels.

    python3 bench/row_kernel_floor.py --bundle DIR/gpu-bundle --corpus DIR/corpus --out $OUT
    python3 bench/row_kernel_floor.py --emit-instances FILE   # for nvcc -DFLOOR_INSTANTIATE

Times, in one process and on the harness's rotating input sets and CUDA-graph
event timing (scheduler_opt.harness.run_workloads.time_workload and
graph_time_us), our kernels (the bundle's ours/), torch.compile and eager,
then the hand kernels of bench/row_kernel_floor.cu (CuPy/NVRTC): softmax,
rmsnorm_silu and layernorm_gelu at the workloads' 4096 x 1024 f32, a
read-only kernel (16 MiB read) and a copy (16 MiB read, 16 MiB written) in
several memory schemes; everything twice (pass a, pass b) to show the
spread. Each hand kernel is first checked against the corpus FX graph run by
PyTorch in float64 on fresh random inputs, with NaN-poisoned outputs
(max |ours - ref| / max |ref|, as the harness reports).
"""
import argparse
import json
import os
import sys

ROWS, COLS = 4096, 1024
OPS = {"softmax": 0, "rmsnorm_silu": 1, "layernorm_gelu": 2, "read": 3,
       "copy": 4}
# name -> (template, ld hint, st hint, warps or threads (a row's threads
# for k_group), stages (rows a block for k_group))
SCHEMES = {
    "warp8": ("k_warp", 0, 0, 8, 0),
    "warp8_nc": ("k_warp", 1, 0, 8, 0),
    "warp8_cs": ("k_warp", 0, 1, 8, 0),
    "warp8_nc_cs": ("k_warp", 1, 1, 8, 0),
    "warp4_nc_cs": ("k_warp", 1, 1, 4, 0),
    "block256": ("k_block", 0, 0, 256, 0),
    "block256_nc_cs": ("k_block", 1, 1, 256, 0),
    "block128_nc_cs": ("k_block", 1, 1, 128, 0),
    "tma_w4s2_cs": ("k_tma", 0, 1, 4, 2),
    "tma_w8s2_cs": ("k_tma", 0, 1, 8, 2),
    "tma_w4s4_cs": ("k_tma", 0, 1, 4, 4),
    "tma_w2s4_cs": ("k_tma", 0, 1, 2, 4),
    "tma_w4s2": ("k_tma", 0, 0, 4, 2),
    # Run 2: plain .nc loads (what our lowering emits), and our softmax's
    # mapping (64 threads a row, 2 rows a block).
    "warp8_ncp": ("k_warp", 2, 0, 8, 0),
    "warp8_ncp_cs": ("k_warp", 2, 1, 8, 0),
    "block128_ncp": ("k_block", 2, 0, 128, 0),
    "block128_ncp_cs": ("k_block", 2, 1, 128, 0),
    "block128_nc": ("k_block", 1, 0, 128, 0),
    "g64x2_ncp": ("k_group", 2, 0, 64, 2),
    "g64x2_ncp_cs": ("k_group", 2, 1, 64, 2),
    "g64x2_nc_cs": ("k_group", 1, 1, 64, 2),
}
SMEM_PER_SM = 227 * 1024


def instance(op, scheme):
    t, ld, st, n, s = SCHEMES[scheme]
    if t in ("k_tma", "k_group"):
        return "%s<%d,%d,%d,%d,%d>" % (t, op, ld, st, n, s) \
            if t == "k_group" else "k_tma<%d,%d,%d,%d>" % (op, st, n, s)
    return "%s<%d,%d,%d,%d>" % (t, op, ld, st, n)


def all_instances():
    return [instance(op, s) for op in OPS.values() for s in SCHEMES]


def emit_instances(path):
    sig = ("(const float4 *, float4 *, float *, float *, const float4 *, "
           "const float4 *, int);")
    with open(path, "w") as f:
        for name in all_instances():
            f.write("template __global__ void %s%s\n" % (name, sig))


def launch_shape(scheme, sms):
    """(grid, block, dynamic shared bytes) for ROWS rows."""
    t, _, _, n, s = SCHEMES[scheme]
    if t == "k_warp":
        return (ROWS + n - 1) // n, 32 * n, 0
    if t == "k_block":
        return ROWS, n, 0
    if t == "k_group":
        return ROWS // s, n * s, 0
    smem = n * s * COLS * 4
    per_sm = min(2048 // (32 * n), 32, SMEM_PER_SM // (smem + 1024))
    return min((ROWS + n - 1) // n, sms * per_sm), 32 * n, smem


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--emit-instances")
    parser.add_argument("--bundle")
    parser.add_argument("--corpus")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--schemes", default=",".join(SCHEMES))
    parser.add_argument("--passes", type=int, default=2)
    args = parser.parse_args(argv)
    if args.emit_instances:
        emit_instances(args.emit_instances)
        return 0

    import cupy as cp
    import numpy as np
    import torch
    from scheduler_opt import manifest as manifest_lib
    from scheduler_opt.fx_graph import find_fx_graph, load_forward
    from scheduler_opt.harness import run_workloads as rw
    from scheduler_opt.harness.program import Program

    schemes = args.schemes.split(",")
    src_path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "row_kernel_floor.cu")
    with open(src_path) as f:
        source = f.read()
    names = [instance(op, s) for op in OPS.values() for s in schemes]
    module = cp.RawModule(code=source, options=("-std=c++17",),
                          name_expressions=names)
    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count
    report = {"device": props.name, "torch": torch.__version__,
              "cupy": cp.__version__, "sms": sms,
              "copy_bytes_per_s": rw.copy_bandwidth(), "passes": {}}
    print("device", props.name, "copy %.0f GB/s" % (
        report["copy_bytes_per_s"] / 1e9), flush=True)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(0)
    sets = 8

    def kernel(op, scheme):
        fn = module.get_function(instance(op, scheme))
        grid, block, smem = launch_shape(scheme, sms)
        if smem > 48 * 1024:
            fn.max_dynamic_shared_size_bytes = smem
        return fn, grid, block, smem

    def buffers(workload):
        """Inputs (x, w, b) and poisoned outputs (out, stat0, stat1)."""
        x = torch.randn(ROWS, COLS, device="cuda", generator=gen)
        w = torch.randn(COLS, device="cuda", generator=gen)
        b = torch.randn(COLS, device="cuda", generator=gen)
        out = torch.full((ROWS, COLS), float("nan"), device="cuda")
        s0 = torch.full((ROWS,), float("nan"), device="cuda")
        s1 = torch.full((ROWS,), float("nan"), device="cuda")
        return x, w, b, out, s0, s1

    def launcher(k, bufs):
        fn, grid, block, smem = k
        x, w, b, out, s0, s1 = bufs
        kargs = tuple(np.uint64(t.data_ptr()) for t in (x, out, s0, s1, w, b)
                      ) + (np.int32(ROWS),)

        def run():
            stream = torch.cuda.current_stream().cuda_stream
            with cp.cuda.ExternalStream(stream):
                fn((grid,), (block,), kargs, shared_mem=smem)
        run.bufs = bufs
        return run

    def check(workload, k, forward, fx_names):
        bufs = buffers(workload)
        x, w, b, out, s0, s1 = bufs
        launcher(k, bufs)()
        torch.cuda.synchronize()
        if workload == "read":
            return rw.relative_error(s0, x.double().sum(1))
        if workload == "copy":
            return rw.relative_error(out, x)
        by_name = {"arg0_1": x, "arg1_1": w, "primals_1": w, "primals_2": b,
                   "primals_3": x}
        with torch.no_grad():
            ref = forward(*[by_name[n].double() for n in fx_names])
        errs = [rw.relative_error(out, ref[0])]
        if workload == "layernorm_gelu":
            errs += [rw.relative_error(s0, ref[4].flatten()),
                     rw.relative_error(s1, ref[5].flatten())]
        return max(errs)

    graphs = {}
    for workload in ("softmax", "rmsnorm_silu", "layernorm_gelu"):
        forward, fx_names = load_forward(find_fx_graph(args.corpus, workload))
        program = Program(manifest_lib.load(
            os.path.join(args.bundle, "ours", workload + ".json")))
        graphs[workload] = (forward, fx_names, program,
                            torch.compile(forward))

    for p in range(args.passes):
        name = "ab"[p] if args.passes <= 2 else str(p)
        rows = report["passes"].setdefault(name, {})
        for workload in ("softmax", "rmsnorm_silu", "layernorm_gelu", "read",
                         "copy"):
            entry = rows.setdefault(workload, {})
            forward = fx_names = None
            if workload in graphs:
                forward, fx_names, program, compiled = graphs[workload]
                r = rw.time_workload(workload, program, forward, fx_names,
                                     gen, compiled, baselines=True)
                entry["ours"] = {k: r[k] for k in (
                    "ours_us", "compiled_us", "eager_us",
                    "copy_same_bytes_us", "min_bytes")}
                print(name, workload, "ours", json.dumps(entry["ours"]),
                      flush=True)
            for scheme in schemes:
                res = {}
                try:
                    k = kernel(OPS[workload], scheme)
                    res["launch"] = list(k[1:])
                    res["max_rel_err"] = check(workload, k, forward, fx_names)
                    runs = [launcher(k, buffers(workload)) for _ in range(sets)]
                    res["us"] = rw.graph_time_us(runs)
                except Exception as e:  # report, go on with the others
                    res["error"] = "%s: %s" % (type(e).__name__,
                                               str(e).splitlines()[0])
                entry[scheme] = res
                print(name, workload, scheme, json.dumps(res), flush=True)
            with open(os.path.join(args.out, "row-floor.json"), "w") as f:
                json.dump(report, f, indent=1)
    print_table(report)
    return 0


def print_table(report):
    moved = {"softmax": 2 * ROWS * COLS * 4,
             "rmsnorm_silu": 2 * ROWS * COLS * 4 + COLS * 4,
             "layernorm_gelu": 2 * ROWS * COLS * 4 + 2 * COLS * 4 + 2 * ROWS * 4,
             "read": ROWS * COLS * 4 + ROWS * 4, "copy": 2 * ROWS * COLS * 4}
    for p, rows in report["passes"].items():
        print("\npass", p)
        for workload, entry in rows.items():
            best = min((r["us"], s) for s, r in entry.items()
                       if s != "ours" and "us" in r and r["max_rel_err"] < 1e-4)
            line = "%-15s best %-15s %7.2f us %5.2f TB/s" % (
                workload, best[1], best[0], moved[workload] / best[0] / 1e6)
            if "ours" in entry:
                o = entry["ours"]
                line += " | ours %6.2f inductor %6.2f copy %6.2f" % (
                    o["ours_us"], o["compiled_us"], o["copy_same_bytes_us"])
            print(line)
            print("   " + " ".join("%s=%.2f(%.0e)" % (s, r["us"], r["max_rel_err"])
                                   if "us" in r else "%s=ERR" % s
                                   for s, r in entry.items() if s != "ours"))


if __name__ == "__main__":
    sys.exit(main())
