"""Models outside the dev corpus through torch.compile(backend="scheduler_opt").

    PYTHONPATH=python SCHEDULER_OPT_BIN=DIR python3 bench/unseen_models.py \
        --out "$OUT" [--models llama_block,t5_bias] [--verbose]

The dev corpus (corpus/inductor) is what the importer, the scheduler and
the lowering were built against; the issues check them on models it does
not hold. This is that check, run by us first: small, self-contained
versions (plain PyTorch, no downloads) of the constructs real models put
in front of Inductor that the corpus lacks. Each model names what it
exercises: rotary embeddings (float index_expr), T5's relative-position
buckets (Abs, Min, log in index arithmetic), torch.cat of reductions
(NonOwningLayout, ConcatKernel), a softmax backward, convolutions with
batch norm in eval mode and pooling, an LSTM cell unrolled, embeddings
with scatter_add and index_put, scans (cumsum, cumprod, logcumsumexp),
sorts (sort, topk, argsort), half and bfloat16 arithmetic, integer and
bitwise arithmetic, NaN handling, argmax and variance (Welford), upsampling
(FloorDiv index functions), gathers, group norm, padding (masked loads),
logsumexp and NLL, pixel shuffle and transposes, special functions,
bucketize, an SGD step with momentum, complex numbers (Llama's original
rotary embedding), and dynamic shapes (dynamic=True, two sizes each, no
recompilation allowed to hide a failure: the second size must run the
graph compiled for the first).

Each model is compiled with options={"fallback": False} (a graph we cannot
compile is an error, not a silent Inductor fallback) and checked against
eager with backend_models.compare (torch.testing.assert_close's default
tolerances, else the smallest of a ladder that passes); Inductor's own
result is checked the same way beside it, since both round differently
from eager. No timing here: bench/backend_models.py times the corpus
models.

Writes unseen_models.json and unseen_models.md under --out.
"""
import argparse
import json
import math
import os
import sys
import traceback

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from backend_models import (  # noqa: E402  (registers the backend)
    DEVICE, Case, compare, error_text, rnd, so_backend, step_fn)


# --- models ------------------------------------------------------------------

class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) \
            * self.weight


def rope_cos_sin(t, dim, base=10000.0, device=DEVICE):
    """Llama's rotary frequencies: float positions (ops.index_expr of a
    float dtype once Inductor fuses the arange)."""
    inv = 1.0 / base ** (torch.arange(0, dim, 2, device=device).float() / dim)
    freqs = torch.outer(torch.arange(t, device=device).float(), inv)
    emb = torch.cat([freqs, freqs], -1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    a, b = x.chunk(2, -1)
    return torch.cat([-b, a], -1)


class LlamaBlock(nn.Module):
    def __init__(self, dim=256, heads=4, hidden=688):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.n1, self.n2 = RMSNorm(dim), RMSNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.n1(x)).split(d, -1)
        q, k, v = (z.view(b, t, self.heads, self.hd).transpose(1, 2)
                   for z in (q, k, v))
        cos, sin = rope_cos_sin(t, self.hd, device=x.device)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o(a.transpose(1, 2).reshape(b, t, d))
        h = self.n2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


def llama_block():
    m = LlamaBlock().to(DEVICE)
    return Case(lambda x: m(x), [rnd(2, 128, 256)])


def llama_block_train():
    m = LlamaBlock().to(DEVICE)
    return Case(lambda x: m(x).pow(2).mean(), [rnd(2, 128, 256)],
                m.parameters(), train=True)


def llama_rope_complex():
    """Llama's original rotary embedding: view_as_complex and a complex
    multiply."""
    t, hd = 64, 32
    inv = 1.0 / 10000.0 ** (torch.arange(0, hd, 2, device=DEVICE).float()
                            / hd)
    freqs = torch.polar(torch.ones(t, hd // 2, device=DEVICE),
                        torch.outer(torch.arange(t, device=DEVICE).float(),
                                    inv))

    def f(x):
        xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(xc * freqs).flatten(-2)
    return Case(f, [rnd(2, t, hd)])


def t5_relative_bucket(relative_position, num_buckets=32, max_distance=128):
    """T5's bidirectional buckets (transformers' T5Attention), verbatim."""
    num_buckets //= 2
    buckets = (relative_position > 0).to(torch.long) * num_buckets
    relative_position = torch.abs(relative_position)
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).to(torch.long)
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    return buckets + torch.where(is_small, relative_position, large)


def t5_bias():
    emb = nn.Embedding(32, 8).to(DEVICE)

    def f(scores):
        q, k = scores.shape[-2:]
        ctx = torch.arange(q, dtype=torch.long, device=DEVICE)[:, None]
        mem = torch.arange(k, dtype=torch.long, device=DEVICE)[None, :]
        bias = emb(t5_relative_bucket(mem - ctx)).permute(2, 0, 1)
        return torch.softmax(scores + bias, -1)
    return Case(f, [rnd(2, 8, 100, 100)])


def cat_reductions():
    def f(x):
        return torch.cat([x.sum(1, keepdim=True), x.amax(1, keepdim=True),
                          x.mean(1, keepdim=True), x * 2], 1)
    return Case(f, [rnd(512, 300)])


def softmax_backward():
    w = nn.Parameter(rnd(1000, 500))
    return Case(lambda x: (torch.softmax(x * w, -1) * x).sum(),
                [rnd(1000, 500)], [w], train=True)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.b1 = nn.BatchNorm2d(16)
        self.c2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.b2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.b1(self.c1(x))), 2)
        x = F.hardswish(self.b2(self.c2(x)))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


def convnet_eval():
    m = ConvNet().to(DEVICE).eval()
    for b in (m.b1, m.b2):  # statistics that are not the identity
        b.running_mean.uniform_(-0.5, 0.5)
        b.running_var.uniform_(0.5, 2.0)
    return Case(lambda x: m(x), [rnd(8, 3, 32, 32)])


def convnet_train():
    m = ConvNet().to(DEVICE).train()
    return Case(lambda x: m(x).pow(2).mean(), [rnd(8, 3, 32, 32)],
                m.parameters(), train=True,
                state=lambda: [m.b1.running_mean, m.b2.running_var])


def lstm_cell():
    cell = nn.LSTMCell(64, 128).to(DEVICE)

    def f(xs):
        h = c = torch.zeros(xs.shape[1], 128, device=DEVICE)
        outs = []
        for x in xs.unbind(0):
            h, c = cell(x, (h, c))
            outs.append(h)
        return torch.stack(outs)
    return Case(f, [rnd(4, 32, 64)])


def embedding_scatter():
    emb = nn.Embedding(1000, 64).to(DEVICE)
    idx = torch.randint(0, 1000, (4096,), device=DEVICE)
    seg = torch.randint(0, 100, (4096,), device=DEVICE)

    def f(idx, seg):
        e = emb(idx)
        out = torch.zeros(100, 64, device=DEVICE)
        return out.scatter_add(0, seg[:, None].expand(-1, 64), e).tanh()
    return Case(f, [idx, seg])


def index_put_accumulate():
    idx = torch.randint(0, 256, (2000,), device=DEVICE)

    def f(x, v, idx):
        y = x.clone()
        y.index_put_((idx,), v * 2, accumulate=True)
        return y.relu()
    return Case(f, [rnd(256, 32), rnd(2000, 32), idx])


def scans():
    def f(x):
        return (torch.cumsum(x, 1), torch.cumprod(x.sigmoid() + 0.5, 1),
                torch.logcumsumexp(x, 1))
    return Case(f, [rnd(64, 300)])


def sorts():
    def f(x):
        s, i = torch.sort(x, -1, descending=True)
        tv, ti = torch.topk(x, 5, -1)
        return s * 2, i, tv, ti, torch.argsort(x.abs(), -1)
    return Case(f, [rnd(32, 200)])


def half_precision():
    ln = nn.LayerNorm(512).to(DEVICE).to(torch.bfloat16)

    def f(x, y):
        return F.gelu(ln(x)).float().sum(-1), (y * y.sigmoid()).half()
    return Case(f, [rnd(256, 512, dtype=torch.bfloat16),
                    rnd(256, 512, dtype=torch.float16)])


def integer_bitwise():
    a = torch.randint(-1000, 1000, (4096,), device=DEVICE)
    b = torch.randint(1, 37, (4096,), device=DEVICE)

    def f(a, b):
        return ((a & 0xFF) ^ (b << 3)) | (a >> 2), torch.remainder(a, b), \
            torch.div(a, b, rounding_mode="floor"), (a.abs() % 7 == 0).sum()
    return Case(f, [a, b])


def nan_handling():
    x = rnd(1024, 64)
    x[::7, ::5] = float("nan")
    x[::11, ::3] = float("inf")

    def f(x):
        # amax propagates NaN (a row with one is NaN): compared as a mask,
        # since assert_close does not equate NaNs.
        y = torch.where(torch.isnan(x), torch.zeros_like(x), x)
        m = x.amax(1)
        return torch.nan_to_num(x, posinf=1e4).sum(1), y.clamp(-1, 1), \
            torch.isinf(x).any(1), torch.isnan(m), m.nan_to_num(0.0)
    return Case(f, [x])


def argmax_var():
    def f(x):
        v, m = torch.var_mean(x, 1, correction=1)
        return x.argmax(1), x.argmin(0), v, m, x.std(0)
    return Case(f, [rnd(777, 333)])


def upsample():
    def f(x):
        return F.interpolate(x, scale_factor=2, mode="bilinear",
                             align_corners=False) + \
            F.interpolate(x, scale_factor=2, mode="nearest")
    return Case(f, [rnd(2, 4, 15, 17)])


def gather_onehot():
    idx = torch.randint(0, 50, (128, 10), device=DEVICE)

    def f(x, idx):
        g = torch.gather(x, 1, idx)
        return g.softmax(1), F.one_hot(idx, 50).float().sum(1)
    return Case(f, [rnd(128, 50), idx])


def group_norm():
    gn = nn.GroupNorm(4, 32).to(DEVICE)
    return Case(lambda x: F.silu(gn(x)), [rnd(4, 32, 16, 16)])


def pad_masked():
    def f(x):
        return F.pad(x, (2, 3, 1, 0), value=-1.5).relu() * 3
    return Case(f, [rnd(16, 30, 40)])


def logsumexp_nll():
    tgt = torch.randint(0, 100, (512,), device=DEVICE)

    def f(x, t):
        return torch.logsumexp(x, 1), F.nll_loss(F.log_softmax(x, 1), t)
    return Case(f, [rnd(512, 100), tgt])


def pixel_shuffle_transpose():
    def f(x):
        y = F.pixel_shuffle(x, 2)
        return y.permute(0, 2, 3, 1).contiguous() * 2, x.transpose(1, 3) + 1
    return Case(f, [rnd(2, 16, 24, 20)])


def special_functions():
    def f(x):
        p = x.sigmoid() * 0.98 + 0.01
        return torch.erf(x), torch.erfinv(p * 2 - 1), torch.lgamma(x.abs()
                                                                    + 0.1), \
            torch.digamma(x.abs() + 0.5), torch.special.i0(x), torch.expm1(x)
    return Case(f, [rnd(1000)])


def bucketize():
    edges = torch.linspace(-2, 2, 17, device=DEVICE)
    return Case(lambda x, e: torch.bucketize(x, e, right=True),
                [rnd(4096), edges])


def sgd_momentum():
    params = [nn.Parameter(rnd(256, 256)), nn.Parameter(rnd(256))]
    for p in params:
        p.grad = rnd(*p.shape)
    opt = torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=1e-4)

    def f():
        opt.step()
        return [p.detach() for p in params]
    return Case(f, [], state=lambda: [opt.state[p]["momentum_buffer"]
                                      for p in params
                                      if p in opt.state])


MODELS = {
    "llama_block": llama_block, "llama_block_train": llama_block_train,
    "llama_rope_complex": llama_rope_complex, "t5_bias": t5_bias,
    "cat_reductions": cat_reductions, "softmax_backward": softmax_backward,
    "convnet_eval": convnet_eval, "convnet_train": convnet_train,
    "lstm_cell": lstm_cell, "embedding_scatter": embedding_scatter,
    "index_put_accumulate": index_put_accumulate, "scans": scans,
    "sorts": sorts, "half_precision": half_precision,
    "integer_bitwise": integer_bitwise, "nan_handling": nan_handling,
    "argmax_var": argmax_var, "upsample": upsample,
    "gather_onehot": gather_onehot, "group_norm": group_norm,
    "pad_masked": pad_masked, "logsumexp_nll": logsumexp_nll,
    "pixel_shuffle_transpose": pixel_shuffle_transpose,
    "special_functions": special_functions, "bucketize": bucketize,
    "sgd_momentum": sgd_momentum,
}

# dynamic=True at two sizes: (model, the inputs at a size, the sizes).
DYNAMIC = {
    "llama_block_dynamic": (
        lambda: LlamaBlock().to(DEVICE),
        lambda t: [rnd(2, t, 256)], [128, 77]),
    "t5_bias_dynamic": (
        None, lambda q: [rnd(2, 8, q, q)], [100, 37]),
    "cat_reductions_dynamic": (
        None, lambda r: [rnd(r, 300)], [512, 129]),
    "upsample_dynamic": (
        None, lambda h: [rnd(2, 4, h, 17)], [15, 22]),
}


def dynamic_fn(name, module):
    if name == "llama_block_dynamic":
        return lambda x: module(x)
    return {"t5_bias_dynamic": t5_bias, "cat_reductions_dynamic":
            cat_reductions, "upsample_dynamic": upsample}[name]().fn


# --- running -----------------------------------------------------------------

def check(case, compiled, ref):
    out = step_fn(case, compiled)()
    torch.cuda.synchronize()
    return compare(out, ref)


def run_static(name, make):
    result = {"model": name}
    for label, backend, options in (
            ("ours", "scheduler_opt", {"fallback": False}),
            ("inductor", "inductor", None)):
        torch._dynamo.reset()
        torch.manual_seed(0)
        case = make()
        ref = step_fn(case, case.fn)()
        torch.manual_seed(0)
        case = make()
        before = len(so_backend.STATS)
        try:
            compiled = torch.compile(case.fn, backend=backend,
                                     options=options)
            _, rel, tol = check(case, compiled, ref)
            result[label + "_max_rel"] = rel
            result[label + "_tolerance"] = tol or "FAILS"
        except Exception as e:
            result[label + "_error"] = error_text(e)
            if ARGS.verbose:
                traceback.print_exc()
        if label == "ours":
            stats = so_backend.STATS[before:]
            result["graphs"] = len(stats)
            result["kernels"] = sum(s.get("kernels", 0) for s in stats)
            result["externs"] = sum(s.get("externs", 0) for s in stats)
    return result


def run_dynamic(name, spec):
    make_module, inputs_at, sizes = spec
    torch._dynamo.reset()
    torch.manual_seed(0)
    module = make_module() if make_module else None
    fn = dynamic_fn(name, module)
    compiled = torch.compile(fn, backend="scheduler_opt",
                             options={"fallback": False}, dynamic=True)
    result = {"model": name, "sizes": []}
    before = len(so_backend.STATS)
    for size in sizes:
        torch.manual_seed(1)
        case = Case(fn, inputs_at(size))
        entry = {"size": size}
        try:
            ref = step_fn(case, fn)()
            _, entry["max_rel"], tol = check(case, compiled, ref)
            entry["tolerance"] = tol or "FAILS"
        except Exception as e:
            entry["error"] = error_text(e)
            if ARGS.verbose:
                traceback.print_exc()
        entry["graphs_compiled"] = len(so_backend.STATS) - before
        before = len(so_backend.STATS)
        result["sizes"].append(entry)
    return result


def passed(r):
    if "sizes" in r:
        return all(e.get("tolerance", "FAILS") != "FAILS" for e in r["sizes"]) \
            and r["sizes"][-1]["graphs_compiled"] == 0
    return r.get("ours_tolerance", "FAILS") != "FAILS"


def table(results):
    lines = ["| model | graphs / kernels / externs | ours vs eager | "
             "Inductor vs eager |", "| --- | --- | --- | --- |"]
    for r in results:
        if "sizes" in r:
            ours = "; ".join(
                "%s: %s (%d compiled)" % (e["size"], e.get("tolerance") or "",
                                          e["graphs_compiled"])
                if "error" not in e else "%s: **fails**: %s" % (
                    e["size"], e["error"].replace("|", "/"))
                for e in r["sizes"])
            lines.append("| %s | dynamic | %s | – |" % (r["model"], ours))
            continue
        ours = ("**fails**: " + r["ours_error"].replace("|", "/")
                if "ours_error" in r else r["ours_tolerance"])
        ind = ("**fails**: " + r["inductor_error"].replace("|", "/")
               if "inductor_error" in r else r["inductor_tolerance"])
        lines.append("| %s | %d / %d / %d | %s | %s |" % (
            r["model"], r.get("graphs", 0), r.get("kernels", 0),
            r.get("externs", 0), ours, ind))
    return "\n".join(lines) + "\n"


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(
        list(MODELS) + list(DYNAMIC)))
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--verbose", action="store_true")
    ARGS = parser.parse_args()
    results = []
    for name in ARGS.models.split(","):
        if name in MODELS:
            r = run_static(name, MODELS[name])
        elif name in DYNAMIC:
            r = run_dynamic(name, DYNAMIC[name])
        else:
            parser.error("unknown model %r" % name)
        r["passed"] = passed(r)
        print(json.dumps(r), flush=True)
        results.append(r)
    os.makedirs(ARGS.out, exist_ok=True)
    with open(os.path.join(ARGS.out, "unseen_models.json"), "w") as f:
        json.dump({"torch": torch.__version__,
                   "device": torch.cuda.get_device_name(),
                   "results": results}, f, indent=1)
    md = table(results)
    md += "\n%d of %d pass.\n" % (sum(r["passed"] for r in results),
                                  len(results))
    with open(os.path.join(ARGS.out, "unseen_models.md"), "w") as f:
        f.write(md)
    print(md)


ARGS = None

if __name__ == "__main__":
    main()
