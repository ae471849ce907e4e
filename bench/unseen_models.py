"""Models outside the dev corpus through torch.compile(backend="scheduler_opt").

    PYTHONPATH=python SCHEDULER_OPT_BIN=DIR python3 bench/unseen_models.py \
        --out "$OUT" [--models llama_block,t5_bias] [--no-inductor] [--verbose]

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
graph compiled for the first). A second batch adds a ViT block (strided
patch convolution, class token concatenated, tanh GELU; eval and
training), dropout in training (Inductor's own random numbers, checked by
what holds for any stream), top-2 mixture-of-experts routing, a
Mamba-style scan (softplus, cumsum, cummax), a MobileNetV3 block in
training (depthwise convolution, hardswish, squeeze-and-excite), bfloat16
autocast in training, AdamW with amsgrad through the foreach path, a dozen
loss functions, a U-Net decoder step (upsampling concatenated with the
skip), a concatenation of more inputs than Inductor fuses pointwise,
int8/float8 quantization, an elementwise zoo (tril, roll, flip, fmod,
copysign, hypot, nextafter, frexp, ldexp), index ops (index_add,
scatter_reduce amax/mean, take_along_dim, unfold), attention written out
with a causal mask, a transposed convolution with group norm, Mish and
bicubic upsampling in training, pooling forward and backward, an
EmbeddingBag, non-contiguous inputs (transposes, expands, steps,
overlapping as_strided), boolean and integer reductions, in-place updates
of the inputs, and five more dynamic models (attention, a reshape whose
sizes divide a symbol, a residual layer norm, the router, the scan). The
third batch is in unseen_models_third.py (its docstring lists it).

Each model is compiled with options={"fallback": False} (a graph we cannot
compile is an error, not a silent Inductor fallback; --options adds
others, as JSON) and checked against
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
import unseen_models_third  # noqa: E402


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


# --- a second batch (seventh session): more of what models put in front of
# Inductor, each construct again outside the corpus --------------------------

class ViTBlock(nn.Module):
    """A ViT front and one encoder block: a strided patch convolution, a
    class token concatenated in front, learned positions, the tanh GELU."""

    def __init__(self, dim=192, heads=3, patch=8):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, patch, stride=patch)
        self.cls = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, 17, dim) * 0.02)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.fc1, self.fc2 = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)

    def forward(self, img):
        x = self.patch(img).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], 1) + self.pos
        h = self.n1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        x = x + self.fc2(F.gelu(self.fc1(self.n2(x)), approximate="tanh"))
        return x[:, 0]


def vit_block():
    m = ViTBlock().to(DEVICE).eval()
    return Case(lambda x: m(x), [rnd(4, 3, 32, 32)])


def vit_block_train():
    m = ViTBlock().to(DEVICE).train()
    return Case(lambda x: m(x).square().mean(), [rnd(4, 3, 32, 32)],
                m.parameters(), train=True)


def dropout_train():
    """Dropout in training: Inductor's own random numbers (load_seed, rand),
    so the check is what holds for any stream: each output is 0 or x/(1-p),
    and the kept share is 1-p to one decimal over a million elements."""
    def f(x):
        y = F.dropout(x, p=0.3, training=True)
        kept = y != 0
        return ((~kept) | ((y - x / 0.7).abs() <= 1e-5 * x.abs())).all(), \
            torch.round(kept.float().mean(), decimals=1)
    return Case(f, [rnd(1024, 1024)])


def moe_router():
    """Top-2 mixture-of-experts routing: softmax, topk, scatter of the
    weights into a dense gate, experts weighted by it, a load-balancing
    loss."""
    experts = nn.ModuleList(nn.Linear(64, 64) for _ in range(4)).to(DEVICE)
    router = nn.Linear(64, 4).to(DEVICE)

    def f(x):
        probs = router(x).softmax(-1)
        top_v, top_i = probs.topk(2, -1)
        gate = torch.zeros_like(probs).scatter(
            1, top_i, top_v / top_v.sum(-1, keepdim=True))
        out = sum(gate[:, e:e + 1] * experts[e](x) for e in range(4))
        load = F.one_hot(top_i[:, 0], 4).float().mean(0)
        return out, (load * probs.mean(0)).sum() * 4
    return Case(f, [rnd(512, 64)])


def selective_scan():
    """A Mamba-style discretized scan: softplus step sizes, exp of a cumsum,
    a running maximum (cummax)."""
    def f(x, dt, a):
        delta = F.softplus(dt)
        decay = torch.exp(torch.cumsum(delta * a, 1))
        run_max, where = torch.cummax(x, 1)
        return (x * decay).cumsum(1) / decay, run_max, where
    return Case(f, [rnd(8, 256, 16), rnd(8, 256, 16), -rnd(16).abs()])


class MobileBlock(nn.Module):
    """MobileNetV3's inverted residual: expansion, depthwise convolution,
    ReLU6 and hardswish, squeeze-and-excite with a hard sigmoid."""

    def __init__(self, c=16, e=64):
        super().__init__()
        self.expand = nn.Conv2d(c, e, 1, bias=False)
        self.b1 = nn.BatchNorm2d(e)
        self.dw = nn.Conv2d(e, e, 3, padding=1, groups=e, bias=False)
        self.b2 = nn.BatchNorm2d(e)
        self.se1, self.se2 = nn.Conv2d(e, 8, 1), nn.Conv2d(8, e, 1)
        self.project = nn.Conv2d(e, c, 1, bias=False)
        self.b3 = nn.BatchNorm2d(c)

    def forward(self, x):
        h = F.relu6(self.b1(self.expand(x)))
        h = F.hardswish(self.b2(self.dw(h)))
        s = F.hardsigmoid(self.se2(F.relu(self.se1(
            F.adaptive_avg_pool2d(h, 1)))))
        return x + self.b3(self.project(h * s))


def mobilenet_train():
    m = MobileBlock().to(DEVICE).train()
    return Case(lambda x: m(x).square().mean(), [rnd(8, 16, 24, 24)],
                m.parameters(), train=True,
                state=lambda: [m.b1.running_mean, m.b2.running_var,
                               m.b3.num_batches_tracked])


def autocast_mlp_train():
    """bfloat16 autocast in training: casts in and out of every matmul, the
    backward's casts, a float32 loss."""
    m = nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.LayerNorm(512),
                      nn.Linear(512, 10)).to(DEVICE)

    def f(x, t):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return F.cross_entropy(m(x), t)
    return Case(f, [rnd(128, 256), torch.randint(0, 10, (128,),
                                                 device=DEVICE)],
                m.parameters(), train=True)


def adamw_foreach():
    """AdamW with amsgrad through the foreach path: Inductor's combo
    (foreach) kernels over parameters of unlike shapes."""
    params = [nn.Parameter(rnd(128, 64)), nn.Parameter(rnd(64)),
              nn.Parameter(rnd(10, 3, 3)), nn.Parameter(rnd(1000))]
    for p in params:
        p.grad = rnd(*p.shape)
    opt = torch.optim.AdamW(params, lr=1e-2, weight_decay=0.1, amsgrad=True,
                            foreach=True)

    def f():
        opt.step()
        return [p.detach() for p in params]
    return Case(f, [], state=lambda: [t for p in params if p in opt.state
                                      for k, t in sorted(opt.state[p].items())
                                      if k != "step"])


def losses():
    def f(x, y, t):
        p = x.sigmoid()
        return (F.smooth_l1_loss(x, y, beta=0.5),
                F.huber_loss(x, y, delta=2.0),
                F.kl_div(F.log_softmax(x, 1), F.log_softmax(y, 1),
                         reduction="batchmean", log_target=True),
                F.binary_cross_entropy_with_logits(
                    x, t, pos_weight=torch.full((x.shape[1],), 2.0,
                                                device=DEVICE)),
                F.binary_cross_entropy(p, t),
                F.cosine_similarity(x, y, dim=1),
                F.multilabel_soft_margin_loss(x, t),
                F.margin_ranking_loss(x[:, 0], y[:, 0], t[:, 0] * 2 - 1))
    return Case(f, [rnd(256, 40), rnd(256, 40),
                    torch.randint(0, 2, (256, 40), device=DEVICE).float()])


def unet_up():
    """A U-Net decoder step: nearest upsampling concatenated with the skip
    connection along channels, a convolution, instance norm."""
    conv = nn.Conv2d(24, 8, 3, padding=1).to(DEVICE)

    def f(x, skip):
        up = F.interpolate(x, scale_factor=2, mode="nearest")
        return F.leaky_relu(F.instance_norm(conv(torch.cat([up, skip], 1))),
                            0.1)
    return Case(f, [rnd(2, 16, 12, 12), rnd(2, 8, 24, 24)])


def cat_many():
    """A concatenation of more inputs than Inductor fuses as one pointwise
    kernel (max_pointwise_cat_inputs): a ConcatKernel whose inputs are
    pointwise buffers written in place, and a stack of strided slices."""
    def f(x):
        parts = [torch.sin(x[:, i::12] * (i + 1)) for i in range(12)]
        return torch.cat(parts, 1), torch.stack([x[:, :5].T, x[:, 7:12].T])
    return Case(f, [rnd(64, 120)])


def quantize():
    """Per-channel int8 quantization (absmax scales, round, clamp), a
    dequantize, a float8 round trip and fake quantization."""
    def f(w):
        scale = w.abs().amax(1, keepdim=True) / 127
        q = torch.clamp(torch.round(w / scale), -128, 127).to(torch.int8)
        f8 = w.to(torch.float8_e4m3fn).float()
        fq = torch.fake_quantize_per_tensor_affine(w, 0.05, 3, -128, 127)
        return q, q.float() * scale, f8, fq
    return Case(f, [rnd(64, 256)])


def elementwise_zoo():
    def f(x, y):
        return (torch.tril(x, -1) + torch.triu(y, 2), torch.roll(x, 3, 1),
                torch.flip(y, [0]), torch.fmod(x, 0.7), torch.remainder(y,
                                                                        -0.3),
                torch.floor_divide(x * 10, 3), torch.sign(x) * y.abs(),
                torch.copysign(x, y), torch.hypot(x, y), torch.atan2(x, y),
                torch.logaddexp(x, y), torch.xlogy(x.abs(), y.abs()),
                torch.where(x > y, 1.5, -2.0), torch.clamp(x, min=-0.5),
                torch.nextafter(x, y), torch.frexp(x)[0],
                torch.ldexp(x, torch.full_like(x, 3.0)))
    return Case(f, [rnd(96, 96), rnd(96, 96)])


def index_ops():
    idx = torch.randint(0, 200, (300,), device=DEVICE)

    def f(x, v, idx):
        a = x.index_select(0, idx[:50])
        b = x.index_add(0, idx, v, alpha=0.5)
        c = x.scatter_reduce(0, idx[:, None].expand(-1, 16), v, "amax",
                             include_self=False)
        d = x.scatter_reduce(0, idx[:, None].expand(-1, 16), v, "mean")
        e = x.masked_fill(x > 1, -1.0)
        g = torch.take_along_dim(x, x.argsort(1)[:, :4], 1)
        return a, b, c, d, e, g, x.diagonal().exp(), x.unfold(0, 4, 3).sum(-1)
    return Case(f, [rnd(200, 16), rnd(300, 16), idx])


def causal_attention():
    """Attention written out: a causal mask from comparing aranges,
    masked_fill with -inf, softmax, a second matmul."""
    def f(q, k, v):
        t = q.shape[-2]
        s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        i = torch.arange(t, device=q.device)
        s = s.masked_fill(i[None, :] > i[:, None], float("-inf"))
        return s.softmax(-1) @ v
    return Case(f, [rnd(2, 4, 100, 32), rnd(2, 4, 100, 32),
                    rnd(2, 4, 100, 32)])


class ConvTransposeGN(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1)
        self.gn = nn.GroupNorm(2, 8)

    def forward(self, x):
        y = F.mish(self.gn(self.up(x)))
        return F.interpolate(y, size=(20, 20), mode="bicubic",
                             align_corners=True)


def convtranspose_train():
    m = ConvTransposeGN().to(DEVICE)
    return Case(lambda x: m(x).square().mean(), [rnd(2, 16, 8, 8)],
                m.parameters(), train=True)


def pooling_train():
    """Pooling forward and backward: max pooling with indices (its backward
    scatters through them), average pooling with ceil_mode, adaptive max
    pooling, LP pooling."""
    w = nn.Parameter(rnd(1, 8, 1, 1))

    def f(x):
        x = x * w
        m, _ = F.max_pool2d(x, 3, 2, 1, return_indices=True)
        a = F.avg_pool2d(x, 3, 2, ceil_mode=True, count_include_pad=False)
        return m.sum() + a.square().sum() + \
            F.adaptive_max_pool2d(x, 5).sum() + F.lp_pool2d(x.abs(), 2,
                                                            2).sum()
    return Case(f, [rnd(2, 8, 17, 17)], [w], train=True)


def embedding_bag():
    bag = nn.EmbeddingBag(500, 32, mode="mean").to(DEVICE)
    idx = torch.randint(0, 500, (200,), device=DEVICE)
    offsets = torch.tensor([0, 3, 50, 51, 120, 180], device=DEVICE)
    return Case(lambda i, o: bag(i, o).relu() * 2, [idx, offsets])


def strided_inputs():
    """Inputs that are not contiguous: a transpose, an expand (stride 0),
    a slice with a step, and an as_strided overlap."""
    base = rnd(64, 48)

    def f(t, e, s, o):
        return t * 2 + e, s.sum(0), o.exp()
    return Case(f, [base.t(), rnd(48, 1).expand(48, 64), base[::2, 1::3],
                    torch.as_strided(base, (20, 8), (2, 1))])


def bool_int_reductions():
    def f(x, n):
        m = x > 0
        return m.all(1), m.any(0), torch.count_nonzero(m, 1), \
            n.prod(1), n.sum(0, dtype=torch.int32), n.amax(1), \
            (n % 3 == 0).sum(), x.nansum(1), x.norm(dim=1), x.abs().amin(0)
    return Case(f, [rnd(100, 37), torch.randint(-3, 4, (100, 9),
                                                 device=DEVICE)])


def inplace_inputs():
    """In-place updates of the inputs, a slice of one included: the graph
    writes back into the caller's tensors."""
    def f(x, y):
        x.add_(1).mul_(y.sigmoid())
        y[:, :10].mul_(2)
        return x.sum()
    x, y = rnd(128, 64), rnd(128, 64)
    return Case(f, [x, y], state=lambda: [x, y])


def dynamic_reshape():
    def f(x):
        b, n = x.shape
        y = x.view(b, n // 4, 4).transpose(1, 2).reshape(b * 4, n // 4)
        return y.softmax(-1), y.var(0)
    return Case(f, [rnd(6, 64)])


def layernorm_residual():
    ln = nn.LayerNorm(96).to(DEVICE)

    def f(x, r):
        h = x + r
        return ln(h) * 2, h
    return Case(f, [rnd(3, 50, 96), rnd(3, 50, 96)])


def top_p():
    """Nucleus (top-p) sampling's filter: probabilities in descending order,
    their running sum along the vocabulary (a scan), the tokens kept while
    the mass before them is under p. With dynamic=True the vocabulary is
    symbolic: Inductor leaves the sort to aten.sort (an extern), the scan
    runs along rows of symbolic length."""
    def f(logits):
        p, i = torch.sort(logits.softmax(-1), -1, descending=True)
        mass = p.cumsum(-1)
        return torch.where(mass - p < 0.9, p, 0.0), i, mass
    return Case(f, [rnd(8, 1000)])


def sort_cumsum():
    """A sort along rows of 64 (static even with dynamic=True: the view
    makes them) and a cumsum along the first dimension, whose length is
    symbolic with dynamic=True."""
    def f(x):
        s, i = torch.sort(x.view(-1, 64), -1)
        return s, i, torch.cumsum(x, 0)
    return Case(f, [rnd(300, 128)])


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
    "vit_block": vit_block, "vit_block_train": vit_block_train,
    "dropout_train": dropout_train, "moe_router": moe_router,
    "selective_scan": selective_scan, "mobilenet_train": mobilenet_train,
    "autocast_mlp_train": autocast_mlp_train,
    "adamw_foreach": adamw_foreach, "losses": losses, "unet_up": unet_up,
    "cat_many": cat_many, "quantize": quantize,
    "elementwise_zoo": elementwise_zoo, "index_ops": index_ops,
    "causal_attention": causal_attention,
    "convtranspose_train": convtranspose_train,
    "pooling_train": pooling_train, "embedding_bag": embedding_bag,
    "strided_inputs": strided_inputs,
    "bool_int_reductions": bool_int_reductions,
    "inplace_inputs": inplace_inputs,
    "dynamic_reshape": dynamic_reshape,
    "layernorm_residual": layernorm_residual,
    "top_p": top_p, "sort_cumsum": sort_cumsum,
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
    "causal_attention_dynamic": (
        None, lambda t: [rnd(2, 4, t, 32), rnd(2, 4, t, 32),
                         rnd(2, 4, t, 32)], [100, 61]),
    "dynamic_reshape_dynamic": (
        None, lambda b: [rnd(b, 64)], [6, 11]),
    "layernorm_residual_dynamic": (
        None, lambda t: [rnd(3, t, 96), rnd(3, t, 96)], [50, 33]),
    "moe_router_dynamic": (
        None, lambda n: [rnd(n, 64)], [512, 300]),
    "selective_scan_dynamic": (
        None, lambda t: [rnd(8, t, 16), rnd(8, t, 16), -rnd(16).abs()],
        [256, 100]),
    "top_p_dynamic": (
        None, lambda v: [rnd(8, v)], [1000, 333]),
    "sort_cumsum_dynamic": (
        None, lambda t: [rnd(t, 128)], [300, 77]),
}

MODELS.update(unseen_models_third.MODELS)
DYNAMIC.update(unseen_models_third.DYNAMIC)


def dynamic_fn(name, module):
    """The callable of a dynamic model: the module's call, or the static
    model's function of the same name without "_dynamic"."""
    if module is not None:
        return lambda x: module(x)
    return MODELS[name[:-len("_dynamic")]]().fn


# --- running -----------------------------------------------------------------

def check(case, compiled, ref):
    out = step_fn(case, compiled)()
    torch.cuda.synchronize()
    return compare(out, ref)


def run_static(name, make):
    result = {"model": name}
    variants = [("ours", "scheduler_opt", dict(ARGS.options,
                                               fallback=False))]
    if not ARGS.no_inductor:
        variants.append(("inductor", "inductor", None))
    for label, backend, options in variants:
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
                             options=dict(ARGS.options, fallback=False),
                             dynamic=True)
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
               if "inductor_error" in r else
               r.get("inductor_tolerance", "not run"))
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
    parser.add_argument("--no-inductor", action="store_true",
                        help="ours against eager only (Inductor's compiles "
                        "take most of a full run)")
    parser.add_argument("--options", type=json.loads, default={},
                        help="further scheduler_opt options for ours, as "
                        "JSON (for instance '{\"combo_kernels\": "
                        "false}')")
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
