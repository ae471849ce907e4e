"""GPU check of concatenation inputs that another op also reads, the
input realized before torch.cat took it (bucketize, searchsorted with and
without a sorter, mm first): torch.compile(backend="scheduler_opt",
fallback off) against eager, two calls each, and each graph's dump and
sidecars copied to $OUT/dumps/NAME (also when the compile fails). From the
repository root, with the static tools (bench/build_backend_tools.sh) in
SCHEDULER_OPT_BIN and PYTHONPATH=python:bench:

    python3 bench/check_concat_readers_device.py
"""
import glob, os, shutil, sys, warnings
sys.path[:0] = ["python", "bench"]
warnings.filterwarnings("ignore")
import torch, torch._dynamo
import scheduler_opt
OUT = os.environ.get("OUT", "/tmp/out")
D = "cuda"
def sorted_rows(n, m):
    return torch.rand(n, m, device=D) + 10 * torch.arange(n, device=D)[:, None]
def bucketize_first(x, y, v):
    s = x.sum(1)
    i = torch.bucketize(v, s)
    return torch.cat([y.sum(1), s]), i
def searchsorted_first(x, y, v):
    s = x.sum(1)
    i = torch.searchsorted(s, v, right=True)
    return torch.cat([y.sum(1), s]), i
def sorter_first(x, y, v):
    s = x.sum(1)
    i = torch.searchsorted(s.flip(0), v, sorter=torch.arange(63, -1, -1, device=D))
    return torch.cat([y.sum(1), s]), i
def mm_first(x, y, w):
    s = x.sum(2)
    r = s @ w
    return torch.cat([y.sum(2), s]), r
mk1 = lambda: [sorted_rows(64, 8), torch.randn(64, 8, device=D), torch.rand(1000, device=D) * 700]
cases = {"bucketize_first": (bucketize_first, mk1),
         "searchsorted_first": (searchsorted_first, mk1),
         "sorter_first": (sorter_first, mk1),
         "mm_first": (mm_first, lambda: [torch.randn(16, 16, 32, device=D), torch.randn(16, 16, 32, device=D), torch.randn(16, 8, device=D)])}
for name, (fn, make) in cases.items():
    before = set(glob.glob("/tmp/scheduler_opt-*"))
    r = {}
    try:
        torch._dynamo.reset()
        f = torch.compile(fn, backend="scheduler_opt", options={"fallback": False, "cache": False})
        ok = []
        for _ in range(2):
            a = make()
            o, e = f(*a), fn(*a)
            ok.append(all(torch.equal(p, q) if not p.is_floating_point() else torch.allclose(p, q, rtol=1e-5, atol=1e-4) for p, q in zip(o, e)))
        r["ours"] = ok
    except Exception as ex:
        r["ours"] = "raises " + repr(ex)[-700:]
    for d in sorted(set(glob.glob("/tmp/scheduler_opt-*")) - before):
        dst = os.path.join(OUT, "dumps", name)
        os.makedirs(dst, exist_ok=True)
        for fl in glob.glob(d + "/dump/*"):
            shutil.copy(fl, dst)
    print(name, r, flush=True)
