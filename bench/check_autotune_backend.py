"""torch.compile(backend="scheduler_opt", options={"autotune": True}) on a
GPU machine: a layer norm + GELU model (layernorm_gelu's shapes) and a
GPT-2-sized one (two layer norms, a residual add, softmax attention),
compiled with autotuning into a fresh cache, checked against eager, then
compiled again (a new torch.compile past the compile cache, the same
autotuning cache) to show that the second compile times nothing and
gives the same kernel configurations.
Needs the static tools (SCHEDULER_OPT_BIN).

    python3 bench/check_autotune_backend.py --out OUT
"""
import argparse
import json
import os
import sys
import tempfile
import time

import torch
import torch.nn.functional as F


def layernorm_gelu(x, w, b):
    return F.gelu(F.layer_norm(x, (x.shape[-1],), w, b))


def block(x, w1, b1, w2, b2):
    h = F.layer_norm(x, (x.shape[-1],), w1, b1)
    a = torch.softmax(h @ h.transpose(-1, -2) / 16.0, dim=-1) @ h
    return F.layer_norm(x + a, (x.shape[-1],), w2, b2)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args(argv)
    import scheduler_opt  # registers the backend
    from scheduler_opt import backend
    cache_dir = tempfile.mkdtemp(prefix="so-cache-")
    g = torch.Generator(device="cuda").manual_seed(0)

    def rnd(*shape):
        return torch.randn(*shape, generator=g, device="cuda")
    cases = {
        "layernorm_gelu": (layernorm_gelu,
                           (rnd(4096, 1024), rnd(1024), rnd(1024))),
        "block": (block, (rnd(8, 128, 256), rnd(256), rnd(256), rnd(256),
                          rnd(256))),
    }
    report = {}
    for name, (fn, inputs) in cases.items():
        entry = report.setdefault(name, {})
        for attempt in ("first", "second"):
            torch._dynamo.reset()
            first = len(backend.STATS)
            # The second compile bypasses the compile cache (cache=False)
            # but not the autotuner's, under the same cache_dir.
            compiled = torch.compile(fn, backend="scheduler_opt", options={
                "autotune": True, "cache_dir": cache_dir,
                "cache": attempt == "first"})
            t0 = time.perf_counter()
            with torch.no_grad():
                out = compiled(*inputs)
                ref = fn(*inputs)
            torch.cuda.synchronize()
            err = ((out - ref).abs().max() / ref.abs().max()).item()
            stats = backend.STATS[first:]
            entry[attempt] = {
                "compile_and_run_s": time.perf_counter() - t0,
                "max_rel_err": err,
                "graphs": [{k: s.get(k) for k in (
                    "cache_hit", "autotune_s", "kernel_configs", "kernels")}
                    for s in stats]}
            print(name, attempt, json.dumps(entry[attempt]), flush=True)
    with open(os.path.join(args.out, "autotune_backend.json"), "w") as f:
        json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
