# Generates real Inductor 2.11 dumps of scans, sorts and the special
# functions: on a GPU machine with PyTorch 2.11, in an empty directory,
#   TORCH_COMPILE_DEBUG=1 OUT=<dir> python3 generate.py [graph ...]
# writes <dir>/dumps.tar.gz of each graph's torchinductor/ directory
# (ir_pre_fusion.txt, fx_graph_readable.py and output_code.py are kept
# here).
import os, sys, tarfile, glob, shutil
import torch
import torch._dynamo
print(torch.__version__, flush=True)
dev = "cuda"
torch.manual_seed(0)
x = torch.randn(8, 64, device=dev)
xi = torch.randint(-5, 5, (8, 64), device=dev, dtype=torch.int32)
a = torch.rand(4096, device=dev) * 5 + 0.1
graphs = {
    "scans": (lambda x: (torch.cumsum(x, 1), torch.cumprod(x, 1), torch.logcumsumexp(x, 1)), (x,)),
    "cumext": (lambda x: (torch.cummax(x, 1), torch.cummin(x, 1)), (x,)),
    "sorts": (lambda x: (torch.sort(x, dim=1, descending=True, stable=True), torch.argsort(x, 1), torch.sort(x, 0)), (x,)),
    "intscan": (lambda x: (torch.cumsum(x, 1), torch.cumsum(x > 0, 1)), (xi,)),
    "special": (lambda a, b: (torch.special.gammainc(a, b), torch.special.gammaincc(a, b), torch.igamma(a, b), torch.igammac(a, b), torch.special.airy_ai(b - 3)), (a, a.flip(0))),
}
only = sys.argv[1:]
for name, (fn, args) in graphs.items():
    if only and name not in only: continue
    torch._dynamo.reset()
    os.makedirs(f"/tmp/gen/{name}", exist_ok=True)
    torch._dynamo.config.debug_dir_root = f"/tmp/gen/{name}"
    try:
        out = torch.compile(fn)(*args)
        torch.cuda.synchronize()
        print(name, "ok", flush=True)
    except Exception as e:
        print(name, "FAILED", repr(e)[:500], flush=True)
out = os.environ["OUT"]
with tarfile.open(f"{out}/dumps.tar.gz", "w:gz") as t:
    for f in glob.glob("/tmp/gen/**/torchinductor/**/*", recursive=True):
        if os.path.isfile(f) and os.path.getsize(f) < 400000:
            t.add(f, arcname=f.replace("/tmp/gen/", ""))
print("done", flush=True)
