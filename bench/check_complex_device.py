"""Complex numbers end to end on the GPU machine: four functions through
torch.compile(backend="scheduler_opt", options={"fallback": False}),
three calls each on fresh inputs against eager (assert_close), Inductor's
result beside it, and the median time of a call (CUDA events, 100 calls)
of eager, ours and Inductor; then variants, checked the same way: the
rotary embedding in training (gradients), with dynamic=True at two
lengths (the second must not compile again), in complex128 and
complex32, an FFT low-pass filter (rfft, irfft) and complex inputs and
outputs. From the repository root, with the static
tools (bench/build_backend_tools.sh) in SCHEDULER_OPT_BIN:

    python3 bench/check_complex_device.py      # writes $OUT/complex-e2e.json

Models (`results`): llama_rope_complex (bench/unseen_models.py's, Llama's original
rotary embedding with a complex64 constant), rope_input (freqs an
argument, then * 2 + 1: a kernel after the externs), misc (polar, conj,
complex mul and add, abs, real, imag, angle), rope_big (8 x 2048 tokens,
32 heads of 128). Variants (`variants`): rope_train, rope_dynamic,
rope_complex128, rope_complex32, fft_filter, complex_io."""
import json, os, sys, time, traceback
sys.path.insert(0, "python")
import torch
import scheduler_opt  # registers the backend
from scheduler_opt import backend as so_backend
D = "cuda"
torch.manual_seed(0)


def llama_rope_complex():
    # bench/unseen_models.py's llama_rope_complex, copied.
    t, hd = 64, 32
    inv = 1.0 / 10000.0 ** (torch.arange(0, hd, 2, device=D).float() / hd)
    freqs = torch.polar(torch.ones(t, hd // 2, device=D),
                        torch.outer(torch.arange(t, device=D).float(), inv))

    def f(x):
        xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(xc * freqs).flatten(-2)
    return f, lambda: [torch.randn(2, t, hd, device=D)]


def rope_input():
    t, hd = 64, 32
    inv = 1.0 / 10000.0 ** (torch.arange(0, hd, 2, device=D).float() / hd)
    freqs = torch.polar(torch.ones(t, hd // 2, device=D),
                        torch.outer(torch.arange(t, device=D).float(), inv))

    def f(x, fr):
        xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(xc * fr).flatten(-2) * 2.0 + 1.0
    return f, lambda: [torch.randn(2, t, hd, device=D), freqs]


def misc():
    def f(x, a):
        p = torch.polar(x.abs() + 0.5, a)
        q = p * p.conj() + p
        return (torch.view_as_real(q).sum(-1), q.abs(), q.real - q.imag,
                torch.angle(p))
    return f, lambda: [torch.randn(8, 16, device=D),
                       torch.randn(8, 16, device=D)]


def rope_big():
    # A Llama-sized rotary embedding: 8 x 2048 tokens, 32 heads of 128.
    b, t, h, hd = 8, 2048, 32, 128
    inv = 1.0 / 10000.0 ** (torch.arange(0, hd, 2, device=D).float() / hd)
    freqs = torch.polar(torch.ones(t, hd // 2, device=D),
                        torch.outer(torch.arange(t, device=D).float(), inv))

    def f(x):
        xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        fr = freqs.view(1, t, 1, hd // 2)
        return torch.view_as_real(xc * fr).flatten(-2).type_as(x)
    return f, lambda: [torch.randn(b, t, h, hd, device=D)]


def as_tuple(v):
    return v if isinstance(v, (tuple, list)) else (v,)


def bench(fn, args, reps=100):
    for _ in range(5):
        fn(*args)
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record(); fn(*args); e.record(); e.synchronize()
        ts.append(s.elapsed_time(e) * 1000)
    ts.sort()
    return ts[len(ts) // 2]


results = []
for name, make in [("llama_rope_complex", llama_rope_complex),
                   ("rope_input", rope_input), ("misc", misc),
                   ("rope_big", rope_big)]:
    r = {"model": name}
    try:
        torch._dynamo.reset()
        fn, inputs = make()
        ours = torch.compile(fn, backend="scheduler_opt",
                             options={"fallback": False})
        before = len(so_backend.STATS)
        calls = []
        for call in range(3):
            args = inputs()
            ref = as_tuple(fn(*args))
            # float64 reference where the eager values are complex64
            out = as_tuple(ours(*args))
            torch.cuda.synchronize()
            errs = []
            for o, e in zip(out, ref):
                torch.testing.assert_close(o, e)
                errs.append(float((o - e).abs().max()))
            calls.append(errs)
        stats = so_backend.STATS[before:]
        r.update(ok=True, max_abs_err=calls, graphs=len(stats),
                 kernels=sum(s.get("kernels", 0) for s in stats),
                 externs=sum(s.get("externs", 0) for s in stats))
        args = inputs()
        ind = torch.compile(fn, backend="inductor")
        for o, e in zip(as_tuple(ind(*args)), as_tuple(fn(*args))):
            torch.testing.assert_close(o, e)
        r["us"] = {"eager": bench(fn, args), "ours": bench(ours, args),
                   "inductor": bench(ind, args)}
    except Exception as e:
        import traceback
        traceback.print_exc()
        r.update(ok=False, error="%s: %s" % (type(e).__name__, str(e)[:2000]))
    print(json.dumps(r), flush=True)
    results.append(r)
def freqs_of(t, hd, dtype=torch.float32):
    inv = 1.0 / 10000.0 ** (torch.arange(0, hd, 2, device=D, dtype=dtype) / hd)
    return torch.polar(torch.ones(t, hd // 2, device=D, dtype=dtype),
                       torch.outer(torch.arange(t, device=D, dtype=dtype), inv))


F64 = freqs_of(64, 32)


def rope(x, fr):
    xc = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(xc * fr).flatten(-2)


def check(name, fn, make, dynamic=False, train=False, sizes=(None,)):
    r = {"model": name}
    try:
        torch._dynamo.reset()
        compiled = torch.compile(fn, backend="scheduler_opt",
                                 options={"fallback": False}, dynamic=dynamic)
        before = len(so_backend.STATS)
        errs = []
        for size in sizes:
            torch.manual_seed(1)
            args = make(size)
            if train:
                args = [a.requires_grad_() if a.is_floating_point() else a
                        for a in args]
                ref = fn(*args).pow(2).sum()
                ref.backward()
                gref = [a.grad.clone() for a in args if a.requires_grad]
                for a in args:
                    a.grad = None
                out = compiled(*args).pow(2).sum()
                out.backward()
                g = [a.grad for a in args if a.requires_grad]
                torch.testing.assert_close(out, ref)
                for x, y in zip(g, gref):
                    torch.testing.assert_close(x, y)
                errs.append(max(float((x - y).abs().max())
                                for x, y in zip(g, gref)))
            else:
                out, ref = compiled(*args), fn(*args)
                torch.testing.assert_close(out, ref)
                errs.append(float((out - ref).abs().max()))
            torch.cuda.synchronize()
        stats = so_backend.STATS[before:]
        r.update(ok=True, max_abs_err=errs, graphs=len(stats),
                 kernels=[s.get("kernels", 0) for s in stats],
                 externs=[s.get("externs", 0) for s in stats])
    except Exception as e:
        traceback.print_exc(limit=3)
        r.update(ok=False, error="%s: %s" % (type(e).__name__, str(e)[:1500]))
    print(json.dumps(r), flush=True)
    return r


variants = []
# Training: the backward of view_as_real(view_as_complex(x) * freqs).
variants.append(check("rope_train", lambda x: rope(x, F64),
                     lambda s: [torch.randn(2, 64, 32, device=D)],
                     train=True))
# dynamic=True at two sequence lengths (freqs sliced to the length).
variants.append(check("rope_dynamic", lambda x: rope(x, F64[:x.shape[1]]),
                     lambda s: [torch.randn(2, s, 32, device=D)],
                     dynamic=True, sizes=(64, 37)))
# complex128.
F64D = freqs_of(64, 32, torch.float64)
variants.append(check("rope_complex128", lambda x: rope(x, F64D),
                     lambda s: [torch.randn(2, 64, 32, device=D,
                                            dtype=torch.float64)]))
# complex32 (chalf): view_as_complex of half.
F32H = F64.to(torch.complex32)
variants.append(check("rope_complex32", lambda x: rope(x, F32H),
                     lambda s: [torch.randn(2, 64, 32, device=D,
                                            dtype=torch.float16)]))
# An FFT low-pass filter: rfft, a mask, irfft.
def fft_filter(x):
    X = torch.fft.rfft(x, dim=-1)
    X = X * (torch.arange(X.shape[-1], device=D) < 20)
    return torch.fft.irfft(X, n=x.shape[-1], dim=-1) + x.abs()
variants.append(check("fft_filter", fft_filter,
                     lambda s: [torch.randn(16, 256, device=D)]))
# Complex inputs and outputs: a complex graph input, a complex result.
variants.append(check("complex_io", lambda z, w: (z * w + z.conj()).exp(),
                     lambda s: [torch.randn(64, 64, dtype=torch.complex64,
                                            device=D),
                                torch.randn(64, 64, dtype=torch.complex64,
                                            device=D)]))
json.dump({"torch": torch.__version__,
           "device": torch.cuda.get_device_name(), "results": results,
           "variants": variants},
          open(os.path.join(os.environ.get("OUT", "/tmp"),
                            "complex-e2e.json"), "w"), indent=1)
