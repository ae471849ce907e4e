"""GPU check of the packed dtypes: torch.compile(backend="scheduler_opt",
fallback off) of the float4_e2m1fn_x2 functions of
test/Target/Inductor/packed.test (and a 4096x1000 transpose), three calls
each on fresh inputs, bit for bit against eager (where eager has the op:
it has no where or indexing of float4_e2m1fn_x2) and against Inductor's
own compile (always); then views from and to uint8, a transpose and a cat
of bits8, bits2x4 and bits4x2 tensors against eager on uint8 views, with
whether Inductor compiles them, and torch's FX printer on them alone and
through fx_graph.readable. From the repository root, with the static tools
(bench/build_backend_tools.sh) in SCHEDULER_OPT_BIN:

    python3 bench/check_packed_device.py [--bits-only]
                                             # writes $OUT/packed-h100.json
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
# --bits-only: the bits graphs alone.
for name, (fn, make, eager_ok) in ({} if "--bits-only" in sys.argv
                                   else cases).items():
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

# The bits dtypes (bits8, bits2x4, bits4x2: torch's FX printer has no
# annotation code for them, docs/Importer.md "Packed dtypes"): Inductor's
# compile is recorded, not required (it lowers no operation on most);
# ours must equal the same computation in eager on uint8 views.
def bits_cases(dt):
    v = lambda t: t.view(U8)
    return {
        "to_u8": (lambda x: x.view(U8) + 1, lambda: [u8().view(dt)],
                  lambda x: v(x) + 1),
        "from_u8": (lambda x: (x + 1).view(dt), lambda: [u8()],
                    lambda x: x + 1),
        "transpose": (lambda x: x.t().contiguous(), lambda: [u8().view(dt)],
                      lambda x: v(x).t().contiguous()),
        "cat": (lambda a, b: torch.cat([a, b]),
                lambda: [u8().view(dt), u8().view(dt)],
                lambda a, b: torch.cat([v(a), v(b)])),
    }


def printer_check(dt):
    """torch's printer alone raises KeyError on a graph holding `dt`;
    fx_graph.readable annotates it with our code."""
    import torch.fx.graph as fx_printer
    from torch.fx.experimental.proxy_tensor import make_fx
    from scheduler_opt import fx_graph
    gm = make_fx(lambda x: x.view(U8) + 1)(u8().view(dt))
    try:
        gm.print_readable(print_output=False)
        plain = "printed"
    except KeyError as e:
        plain = "KeyError %s" % e
    text = fx_graph.readable(gm)
    code = "%s[64, 32]" % str(dt).split(".")[-1]
    return {"torch_printer": plain, "annotated": code in text,
            "table_restored": dt not in fx_printer.dtype_abbrs}


for dt in (torch.bits8, torch.bits2x4, torch.bits4x2):
    dname = str(dt).split(".")[-1]
    try:
        results[dname + "_printer"] = printer_check(dt)
    except Exception as e:
        results[dname + "_printer"] = {"error": repr(e)[-800:]}
    print(dname, results[dname + "_printer"], flush=True)
    for cname, (fn, make, ref) in bits_cases(dt).items():
        name = "%s_%s" % (dname, cname)
        r = results.setdefault(name, {})
        try:
            torch._dynamo.reset()
            n0 = len(B.STATS)
            ours = torch.compile(fn, backend="scheduler_opt",
                                 options={"fallback": False})
            ok = []
            for k in range(3):
                args = make()
                o = ours(*args)
                e = ref(*args)
                ok.append(torch.equal(o.view(U8), e) and
                          o.stride() == e.stride())
            r["calls"] = ok
            r["pass"] = all(ok)
            r["kernels"] = [s.get("kernels") for s in B.STATS[n0:]]
        except Exception as e:
            r["pass"] = False
            r["error"] = repr(e)[-800:]
        try:
            torch._dynamo.reset()
            args = make()
            i = torch.compile(fn)(*args)
            r["inductor"] = bool(torch.equal(i.view(U8), ref(*args)))
        except Exception as e:
            r["inductor"] = "raises " + repr(e)[:300]
        print(name, r, flush=True)

out = os.environ.get("OUT", "/tmp")
json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(),
           "results": results}, open(os.path.join(out, "packed-h100.json"), "w"), indent=1)
checked = [r for r in results.values() if "pass" in r]
print("PASS %d of %d" % (sum(r["pass"] for r in checked), len(checked)))
