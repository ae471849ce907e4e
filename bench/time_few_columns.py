"""Times bench/workloads/ln_weight_grad.mlir (gpt2_train's layer-norm
weight-gradient column sums, kernel_op77_op79) as lowered into DIR/VARIANT
(graph.json, graph.ptx) for each VARIANT, and Inductor's Triton kernel for
the same nodes (from its output code) at several tiles; hot (inputs in L2)
and cold (a 256 MB fill before each launch), torch.profiler's median of 50.

Here:   scheduler-opt bench/workloads/ln_weight_grad.mlir -o /dev/null \
            --fusion-to-ptx="chip=sm_90 output-dir=DIR/VARIANT [options]"
On the GPU:  python3 bench/time_few_columns.py DIR VARIANT[,VARIANT...]
(ONCE=1: one launch of each between cudaProfilerStart/Stop, for ncu.)
"""
import os, sys, statistics
import torch, triton, triton.language as tl
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
from scheduler_opt import manifest as manifest_lib
from scheduler_opt.harness.program import Program

@triton.jit
def ind13(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 1024
    r0_numel = 128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    x0 = (xindex % 256)
    x1 = xindex // 256
    _tmp10 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    _tmp13 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 256*r0_2 + 32768*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (x0 + 256*r0_2 + 32768*x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_ptr2 + (x0 + 256*r0_2), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp4 = tl.load(in_ptr3 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp6 = tl.load(in_ptr4 + (r0_2 + 128*x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp3 = tmp1 + tmp2
        tmp5 = tmp3 - tmp4
        tmp7 = tmp5 * tmp6
        tmp8 = tmp0 * tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp11 = _tmp10 + tmp9
        _tmp10 = tl.where(r0_mask & xmask, tmp11, _tmp10)
        tmp12 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp14 = _tmp13 + tmp12
        _tmp13 = tl.where(r0_mask & xmask, tmp14, _tmp13)
    tmp10 = tl.sum(_tmp10, 1)[:, None]
    tmp13 = tl.sum(_tmp13, 1)[:, None]
    tl.store(out_ptr0 + (x3), tmp10, xmask)
    tl.store(out_ptr1 + (x3), tmp13, xmask)

g = torch.Generator(device="cuda"); g.manual_seed(0)
ins = {"buf71": torch.randn(512 * 256, device="cuda", generator=g),
       "embedding": torch.randn(4 * 128 * 256, device="cuda", generator=g),
       "embedding_1": torch.randn(128 * 256, device="cuda", generator=g),
       "getitem_1": torch.randn(512, device="cuda", generator=g),
       "rsqrt": torch.rand(512, device="cuda", generator=g)}
x = (ins["embedding"].view(4, 128, 256) + ins["embedding_1"].view(1, 128, 256) - ins["getitem_1"].view(4, 128, 1)) * ins["rsqrt"].view(4, 128, 1)
ref77 = (ins["buf71"].view(4, 128, 256).double() * x.double()).sum(1).reshape(-1)
ref79 = ins["buf71"].view(4, 128, 256).double().sum(1).reshape(-1)
runs = {}
for v in sys.argv[2].split(","):
    p = Program(manifest_lib.load(os.path.join(sys.argv[1], v, "graph.json")))
    st = p.allocate()
    for t in p.manifest.inputs:
        p.view(st, t).copy_(ins[t.name].view(p.view(st, t).shape))
    run = p.launcher(st)
    run(); torch.cuda.synchronize()
    outs = [p.view(st, t).reshape(-1) for t in p.manifest.outputs]
    # buffers are 256x4 strides [1,256]: flat index p0*256+p1
    o77 = st[p.manifest.outputs[0].storage]; o79 = st[p.manifest.outputs[1].storage]
    e = max(((o77.double() - ref77).norm() / ref77.norm()).item(), ((o79.double() - ref79).norm() / ref79.norm()).item())
    print(v, "rel err", e)
    runs[v] = run
o77 = torch.empty(1024, device="cuda"); o79 = torch.empty(1024, device="cuda")
for xb, rb, nw in ((8, 64, 4), (32, 32, 4), (64, 8, 4), (16, 32, 4), (8, 128, 4)):
    def tr(xb=xb, rb=rb, nw=nw):
        ind13[(1024 // xb,)](ins["buf71"], ins["embedding"], ins["embedding_1"], ins["getitem_1"], ins["rsqrt"], o77, o79, 1024, 128, XBLOCK=xb, R0_BLOCK=rb, num_warps=nw)
    tr(); torch.cuda.synchronize()
    e = ((o77.double() - ref77).norm() / ref77.norm()).item()
    print("triton", xb, rb, nw, "rel err", e)
    runs["triton_%d_%d_%d" % (xb, rb, nw)] = tr
if os.environ.get("ONCE"):
    torch.cuda.cudart().cudaProfilerStart()
    for r in runs.values(): r()
    torch.cuda.synchronize(); torch.cuda.cudart().cudaProfilerStop()
    sys.exit(0)
flush = torch.empty(64 * 1024 * 1024, device="cuda")
from torch.profiler import profile, ProfilerActivity
res = {}
for cold in (False, True):
    for name, r in runs.items():
        for _ in range(5): r()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(50):
                if cold: flush.fill_(1.0)
                r()
            torch.cuda.synchronize()
        ts = [ev.device_time for ev in prof.events() if ev.device_type.name == "CUDA" and ("kernel_op" in ev.name or "ind13" in ev.name)]
        res[(name, cold)] = statistics.median(ts)
for name in runs:
    print("%-22s hot %6.2f us  cold %6.2f us" % (name, res[(name, False)], res[(name, True)]))
