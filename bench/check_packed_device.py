"""GPU check of the packed dtypes: torch.compile(backend="scheduler_opt",
fallback off) of the float4_e2m1fn_x2 functions of
test/Target/Inductor/packed.test (and a 4096x1000 transpose), three calls
each on fresh inputs, bit for bit against eager (where eager has the op:
it has no where or indexing of float4_e2m1fn_x2) and against Inductor's
own compile (always). From the repository root, with the static tools
(bench/build_backend_tools.sh) in SCHEDULER_OPT_BIN:

    python3 bench/check_packed_device.py     # writes $OUT/packed-h100.json
"""
import json, os, sys, warnings
sys.path.insert(0, "python")
warnings.filterwarnings("ignore")
import torch, torch._dynamo
import scheduler_opt
from scheduler_opt import backend as B

D = "cuda"
F4, U8 = torch.float4_e2m1fn_x2, torch.uint8


def u8(n=64, m=32):
    return torch.randint(0, 256, (n, m), device=D, dtype=U8)


cases = {
    "u8_to_f4": (lambda x: (x + 1).view(F4), lambda: [u8()], True),
    "f4_to_u8": (lambda x: x.view(U8) * 3, lambda: [u8().view(F4)], True),
    "f4_roundtrip": (lambda x: (x.view(U8) ^ 0x11).view(F4).t().contiguous(), lambda: [u8().view(F4)], True),
    "f4_transpose_big": (lambda x: x.t().contiguous(), lambda: [u8(4096, 1000).view(F4)], True),
    "f4_cat": (lambda a, b: torch.cat([a, b]), lambda: [u8().view(F4), u8().view(F4)], True),
    "f4_gather": (lambda x, i: x[i], lambda: [u8().view(F4), torch.randint(0, 64, (16,), device=D)], False),
    "f4_where": (lambda m, a, b: torch.where(m, a, b), lambda: [torch.rand(64, 32, device=D) > 0.5, u8().view(F4), u8().view(F4)], False),
}
results = {}
for name, (fn, make, eager_ok) in cases.items():
    r = results.setdefault(name, {})
    try:
        torch._dynamo.reset()
        n0 = len(B.STATS)
        ours = torch.compile(fn, backend="scheduler_opt", options={"fallback": False})
        torch._dynamo.reset()
        ind = torch.compile(fn)
        ok = []
        for k in range(3):
            args = make()
            o = ours(*args)
            i = ind(*args)
            same_ind = torch.equal(o.view(U8), i.view(U8)) and o.dtype == i.dtype and o.stride() == i.stride()
            same_eager = None
            if eager_ok:
                e = fn(*args)
                same_eager = torch.equal(o.view(U8), e.view(U8)) and o.dtype == e.dtype
            ok.append((same_ind, same_eager))
        r["calls"] = ok
        r["pass"] = all(a and b is not False for a, b in ok)
        r["kernels"] = [s.get("kernels") for s in B.STATS[n0:]]
        r["inductor_fallback"] = [s.get("fallback") for s in B.STATS[n0:] if s.get("fallback")]
    except Exception as e:
        r["pass"] = False
        r["error"] = repr(e)[-800:]
    print(name, r, flush=True)
out = os.environ.get("OUT", "/tmp")
json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(),
           "results": results}, open(os.path.join(out, "packed-h100.json"), "w"), indent=1)
print("PASS %d of %d" % (sum(r["pass"] for r in results.values()), len(results)))
