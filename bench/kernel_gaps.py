"""Our kernels against Triton's for the same work, launched as the backend's
models launch them: one at a time onto an idle GPU.

    python3 bench/kernel_gaps.py --ln MANIFEST:KERNEL --one MANIFEST:KERNEL \
        [--rounds 200] [--out FILE]

The models' steps are bound by the host (gpt2: 0.68 ms of wall time for
0.2 ms of GPU work), so each small kernel starts on an idle GPU, while
time_graph_kernels.py times back-to-back launches in a CUDA graph. Here
each variant is launched in turns with the host spinning `--gap` µs
after each launch (0: back to back), and torch.profiler's kernel
durations give each its median.

Variants of ours are edits of the graph's PTX, assembled with ptxas and
loaded as a module of their own (each entry renamed, so that the profiler
tells them apart): `ours` as lowered; `plain` with every `ld.global.nc`
a plain `ld.global` (Triton's loads); `alone`, the one kernel's entry
alone in a module (ours share one module a graph); `jit`, the PTX loaded
through the driver's JIT (no ptxas); for the one-element update,
`same`, ours on the counter Triton's kernel updates (the same address).
`--dump DIR` writes both sides' SASS (cuobjdump) and Triton's PTX there.
Triton's kernels are written here
from Inductor's output code for the same nodes (corpus/inductor/gpt2's
`..._layer_norm_..._view_6`, 512 rows of 256 at XBLOCK 1 and 2 warps;
Inductor's one-element `add_copy_` update at XBLOCK 1 and 1 warp).
`--gemm` adds a mode where a 512 x 1024 x 256 matrix product writes the
layer norm's input just before it, as in gpt2.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import triton
import triton.language as tl
from torch._inductor.runtime.triton_helpers import libdevice

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "python"))
from scheduler_opt import cuda_driver, tools  # noqa: E402
from scheduler_opt import manifest as manifest_lib  # noqa: E402
from scheduler_opt.runtime import TORCH_DTYPES  # noqa: E402


@triton.jit
def triton_ln(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5,
              out_ptr2, out_ptr3, out_ptr4, xnumel, r0_numel,
              XBLOCK: tl.constexpr):
    # Inductor's triton_per_fused_add_addmm_native_layer_norm_
    # native_layer_norm_backward_view_6 (corpus/inductor/gpt2).
    xnumel = 512
    R0_BLOCK: tl.constexpr = 256
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_2 = tl.arange(0, R0_BLOCK)[None, :]
    x3 = xindex
    x0 = (xindex % 128)
    tmp0 = tl.load(in_ptr0 + (r0_2), None, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (r0_2 + 256*x3), xmask, other=0.0)
    tmp3 = tl.load(in_ptr2 + (r0_2 + 256*x3), xmask, other=0.0)
    tmp4 = tl.load(in_ptr3 + (r0_2 + 256*x0), xmask,
                   eviction_policy='evict_last', other=0.0)
    tmp30 = tl.load(in_ptr4 + (r0_2), None, eviction_policy='evict_last')
    tmp32 = tl.load(in_ptr5 + (r0_2), None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp5 = tmp3 + tmp4
    tmp6 = tmp2 + tmp5
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
    tmp12 = tl.where(xmask, tmp7, 0)
    tmp13 = tl.sum(tmp12, 1)[:, None].to(tl.float32)
    tmp16 = tmp13 / 256.0
    tmp17 = tmp7 - tmp16
    tmp18 = tmp17 * tmp17
    tmp21 = tl.where(xmask, tmp18, 0)
    tmp22 = tl.sum(tmp21, 1)[:, None].to(tl.float32)
    tmp23 = tmp6 - tmp16
    tmp25 = tmp22 / 256.0
    tmp27 = tmp25 + 1e-05
    tmp28 = libdevice.rsqrt(tmp27)
    tmp29 = tmp23 * tmp28
    tmp31 = tmp29 * tmp30
    tmp33 = tmp31 + tmp32
    tmp35 = tmp28 * 0.00390625
    tl.store(out_ptr2 + (r0_2 + 256*x3), tmp29, xmask)
    tl.store(out_ptr3 + (r0_2 + 256*x3), tmp33, xmask)
    tl.store(out_ptr4 + (x3), tmp35, xmask)


@triton.jit
def triton_one(in_ptr0, out_ptr1, xnumel, XBLOCK: tl.constexpr):
    # Inductor's triton_poi_fused_add_copy__34 (resnet18's
    # num_batches_tracked += 1).
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (0))
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK])
    tmp3 = tmp1 + 1
    tl.store(out_ptr1 + (tl.full([XBLOCK], 0, tl.int32)), tmp3, xmask)


def fill(n, dtype):
    t = torch.empty(n, dtype=dtype, device="cuda")
    if t.is_floating_point():
        t.normal_()
    else:
        t.random_(0, 128)
    return t


def entry_alone(ptx, name):
    """The PTX's header and the one entry `name`."""
    header = ptx[:ptx.index(".visible .entry")]
    start = ptx.index(".visible .entry %s(" % name)
    end = ptx.index("\n}\n", start) + 3
    return header + ptx[start:end]


def assemble(ptx, ptxas):
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        subprocess.run([ptxas, "-arch=sm_90", "-O3", src, "-o", out],
                       check=True)
        with open(out, "rb") as f:
            return f.read()


def dump(directory, compiled, specs, ptxas):
    """Triton's PTX and SASS of `compiled` ({name: CompiledKernel}) and
    the SASS of our graphs' modules, into `directory`."""
    os.makedirs(directory, exist_ok=True)
    for name, kernel in compiled.items():
        with open(os.path.join(directory, name + ".ptx"), "w") as f:
            f.write(kernel.asm["ptx"])
        with open(os.path.join(directory, name + ".cubin"), "wb") as f:
            f.write(kernel.asm["cubin"])
    for spec in specs:
        path, name = spec.split(":")
        m = manifest_lib.load(path)
        with open(os.path.join(os.path.dirname(path), m.binary)) as f:
            image = assemble(f.read(), ptxas)
        with open(os.path.join(directory, name + ".cubin"), "wb") as f:
            f.write(image)
    for cubin in sorted(os.listdir(directory)):
        if cubin.endswith(".cubin"):
            with open(os.path.join(directory, cubin[:-6] + ".sass"), "w") as f:
                subprocess.run(["cuobjdump", "-sass", "-res-usage",
                                os.path.join(directory, cubin)], stdout=f)


def ours_variants(spec, ptxas, edits, pointers=None):
    """{label: launch} for kernel KERNEL of the graph whose manifest is
    MANIFEST, one per edit."""
    path, name = spec.split(":")
    m = manifest_lib.load(path)
    directory = os.path.dirname(path)
    step = [s for s in m.steps if s.kind == "kernel" and s.name == name][0]
    with open(os.path.join(directory, m.binary)) as f:
        ptx = f.read()
    storages = {s.name: s for s in m.storages}
    tensors = [fill(int(storages[a].elements), TORCH_DTYPES[storages[a].dtype])
               for a in step.args]
    pointers = pointers or [t.data_ptr() for t in tensors]
    out = {}
    for label in edits:
        renamed = name + "_" + label
        text = re.sub(r"\b%s\b" % name, renamed, ptx)
        if label == "plain":
            text = text.replace("ld.global.nc.", "ld.global.")
        if label == "alone":
            text = entry_alone(text, renamed)
        image = text.encode() if label == "jit" else assemble(text, ptxas)
        module = cuda_driver.Module(image)
        kernel = cuda_driver.Kernel(module, renamed, step.block,
                                    len(step.args))
        grid = [int(g) for g in step.grid]

        def launch(kernel=kernel, grid=grid, keep=(module, tensors)):
            kernel.launch(grid, pointers,
                          torch.cuda.current_stream().cuda_stream)
        out[renamed] = launch
    return out, tensors


def spin(us):
    if us <= 0:
        return
    end = time.perf_counter() + us * 1e-6
    while time.perf_counter() < end:
        pass


def measure(launches, rounds, gap, before=None):
    """Median profiler duration (µs) of each launch, in turns: with `gap`
    µs of host spin after each launch, or (gap 0) back to back, replayed
    from a CUDA graph of 20 turns."""
    from torch.profiler import ProfilerActivity, profile
    names = list(launches)

    def turns(count):
        for k in range(count):
            for n in names[k % len(names):] + names[:k % len(names)]:
                if before:
                    before()
                launches[n]()
                spin(gap)
    turns(3)
    torch.cuda.synchronize()
    graph = None
    if gap <= 0:
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            turns(2)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            turns(20)
        graph.replay()
        torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        if graph:
            for _ in range(max(1, rounds // 20)):
                graph.replay()
        else:
            turns(rounds)
        torch.cuda.synchronize()
    durations = {}
    for evt in prof.events():
        if evt.device_type == torch.autograd.DeviceType.CUDA:
            durations.setdefault(evt.name, []).append(
                evt.time_range.elapsed_us())
    return {n: round(statistics.median(v), 3) for n, v in durations.items()
            if any(n.startswith(k) for k in names)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ln", required=True)
    parser.add_argument("--one", required=True)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--out", default="")
    parser.add_argument("--dump", default="",
                        help="directory for both sides' PTX and SASS")
    args = parser.parse_args()
    torch.zeros(1, device="cuda")
    ptxas = tools.cuda_toolkit()["ptxas"]
    report = {"device": torch.cuda.get_device_name()}

    ln, ln_tensors = ours_variants(args.ln, ptxas,
                                   ["ours", "plain", "alone", "jit"])
    t = [fill(n, torch.float32) for n in
         (256, 512 * 256, 512 * 256, 128 * 256, 256, 256,
          512 * 256, 512 * 256, 512)]
    ln["triton_ln"] = lambda: triton_ln[(512,)](
        *t, 512, 256, XBLOCK=1, num_warps=2, num_stages=1)
    one, one_tensors = ours_variants(args.one, ptxas, ["ours", "alone"])
    counter = torch.zeros(1, dtype=torch.int64, device="cuda")
    one["triton_one"] = lambda: triton_one[(1,)](
        counter, counter, 1, XBLOCK=1, num_warps=1, num_stages=1)
    # Ours on Triton's counter (the same address: where a buffer lies
    # counts too).
    same, _ = ours_variants(args.one, ptxas, ["same"], pointers=[
        counter.data_ptr()])
    one.update(same)
    if args.dump:
        dump(args.dump, {"triton_ln": triton_ln[(512,)](
            *t, 512, 256, XBLOCK=1, num_warps=2, num_stages=1),
            "triton_one": triton_one[(1,)](
            counter, counter, 1, XBLOCK=1, num_warps=1, num_stages=1)},
            [args.ln, args.one], ptxas)

    a = torch.randn(512, 1024, device="cuda")
    b = torch.randn(1024, 256, device="cuda")
    c = torch.empty(512, 256, device="cuda")

    def gemm():
        torch.mm(a, b, out=c)

    for label, launches, gap, before in (
            ("ln_back_to_back", ln, 0, None), ("ln_idle", ln, 30, None),
            ("ln_after_gemm_idle", ln, 30, gemm),
            ("one_back_to_back", one, 0, None), ("one_idle", one, 30, None)):
        r = measure(launches, args.rounds, gap, before)
        report[label] = r
        print(label, json.dumps(r), flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
