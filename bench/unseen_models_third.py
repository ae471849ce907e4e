"""The third batch of models outside the dev corpus for unseen_models.py.

Each is a small, self-contained version (plain PyTorch, no downloads) of a
construct real models put in front of Inductor that neither the corpus nor
the first two batches hold: Swin's shifted windows (roll, window
partition, a relative-position bias gathered through an index buffer),
a ConvNeXt block on a channels-last input (depthwise 7x7, a LayerNorm
over permuted channels, layer scale; training), BERT-style padding (a
boolean key mask, -inf fills, position ids from a cumsum of the mask), a
GRU unrolled in training, a diffusion ResBlock (sinusoidal timestep
embedding, GroupNorm(32) and SiLU; training), random normals in the graph
(a VAE's reparameterization, a hard Gumbel softmax), CLIP's symmetric
contrastive loss (training), a KV-cache decode step (index_copy_ into
captured caches, a mask from the position), integer division and
remainder with negative operands, a spatial transformer (affine_grid and
grid_sample; training), bilinear upsampling with align_corners in
training, an EMA update through foreach lerp and addcmul, FNet's Fourier
mixing (a complex FFT fallback read through .real), weight
normalization in training, mixed-precision statistics (std_mean in half,
aminmax, a bfloat16 p-norm and logsumexp), median, kthvalue and
quantile, NaN and infinity cleaning with tensor bounds and isin,
distances (cdist, cosine similarity, a triplet loss), masked_scatter,
label smoothing with ignore_index and a focal loss in training, embedding
backwards with padding_idx and scale_grad_by_freq, batch norm in training
on channels-last inputs, reflection and replication padding with
instance norm and pixel_unshuffle, searchsorted along rows, and seven
more dynamic models.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from backend_models import DEVICE, Case, rnd


def randint(low, high, shape, dtype=torch.int64):
    return torch.randint(low, high, shape, device=DEVICE, dtype=dtype)


class SwinWindow(nn.Module):
    """One shifted-window attention of Swin: roll, partition into windows,
    attention with a relative-position bias gathered through an index
    buffer, windows put back, roll back."""

    def __init__(self, dim=64, heads=2, win=8, shift=4):
        super().__init__()
        self.heads, self.win, self.shift = heads, win, shift
        self.norm = nn.LayerNorm(dim)
        self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.table = nn.Parameter(torch.randn((2 * win - 1) ** 2, heads))
        ij = torch.stack(torch.meshgrid(torch.arange(win), torch.arange(win),
                                        indexing="ij")).flatten(1)
        rel = (ij[:, :, None] - ij[:, None, :]).permute(1, 2, 0) + win - 1
        self.register_buffer("index", rel[..., 0] * (2 * win - 1)
                             + rel[..., 1])

    def forward(self, x):
        b, hh, ww, c = x.shape
        w, s, n = self.win, self.shift, self.win * self.win
        h = torch.roll(self.norm(x), (-s, -s), (1, 2))
        h = h.view(b, hh // w, w, ww // w, w, c).permute(0, 1, 3, 2, 4, 5) \
            .reshape(-1, n, c)
        q, k, v = self.qkv(h).view(h.shape[0], n, 3, self.heads,
                                   c // self.heads).permute(2, 0, 3, 1, 4)
        a = (q * (c // self.heads) ** -0.5) @ k.transpose(-2, -1)
        a = a + self.table[self.index.view(-1)].view(n, n, -1) \
            .permute(2, 0, 1)
        h = (a.softmax(-1) @ v).transpose(1, 2).reshape(-1, n, c)
        h = self.proj(h).view(b, hh // w, ww // w, w, w, c) \
            .permute(0, 1, 3, 2, 4, 5).reshape(b, hh, ww, c)
        return x + torch.roll(h, (s, s), (1, 2))


def swin_window():
    m = SwinWindow().to(DEVICE).eval()
    return Case(lambda x: m(x), [rnd(2, 16, 16, 64)])


def swin_window_train():
    m = SwinWindow().to(DEVICE).train()
    return Case(lambda x: m(x).square().mean(), [rnd(2, 16, 16, 64)],
                m.parameters(), train=True)


class ConvNeXtBlock(nn.Module):
    def __init__(self, c=64):
        super().__init__()
        self.dw = nn.Conv2d(c, c, 7, padding=3, groups=c)
        self.norm = nn.LayerNorm(c)
        self.fc1, self.fc2 = nn.Linear(c, 4 * c), nn.Linear(4 * c, c)
        self.gamma = nn.Parameter(torch.full((c,), 0.1))

    def forward(self, x):
        h = self.norm(self.dw(x).permute(0, 2, 3, 1))
        h = self.fc2(F.gelu(self.fc1(h)))
        return x + (self.gamma * h).permute(0, 3, 1, 2)


def convnext_train():
    m = ConvNeXtBlock().to(DEVICE).train()
    x = rnd(4, 64, 14, 14).to(memory_format=torch.channels_last)
    return Case(lambda x: m(x).square().mean(), [x], m.parameters(),
                train=True)


def bert_padding():
    """Padding as BERT-style encoders see it: a key mask from lengths,
    position ids from a cumsum of the mask, -inf fills before the
    softmax, padded rows zeroed after."""
    emb = nn.Embedding(1000, 64).to(DEVICE)
    pos_emb = nn.Embedding(128, 64).to(DEVICE)
    ln, qkv = nn.LayerNorm(64).to(DEVICE), nn.Linear(64, 192).to(DEVICE)

    def f(ids, lengths):
        b, t = ids.shape
        mask = torch.arange(t, device=ids.device)[None, :] < lengths[:, None]
        pos = (mask.long().cumsum(-1) - 1).masked_fill(~mask, 1)
        x = ln(emb(ids) + pos_emb(pos))
        q, k, v = qkv(x).view(b, t, 3, 4, 16).permute(2, 0, 3, 1, 4)
        s = (q @ k.transpose(-1, -2)) / 4.0
        s = s.masked_fill(~mask[:, None, None, :], float("-inf"))
        return (s.softmax(-1) @ v) * mask[:, None, :, None]
    return Case(f, [randint(0, 1000, (4, 96)),
                    torch.tensor([96, 50, 1, 73], device=DEVICE)])


def gru_train():
    """A GRU written out and unrolled over six steps, in training."""
    wi, wh = nn.Linear(32, 192).to(DEVICE), nn.Linear(64, 192).to(DEVICE)

    def f(xs, h):
        for t in range(xs.shape[0]):
            ir, iz, i_n = wi(xs[t]).chunk(3, -1)
            hr, hz, h_n = wh(h).chunk(3, -1)
            r, z = torch.sigmoid(ir + hr), torch.sigmoid(iz + hz)
            h = (1 - z) * torch.tanh(i_n + r * h_n) + z * h
        return h.square().mean()
    return Case(f, [rnd(6, 16, 32), rnd(16, 64)],
                list(wi.parameters()) + list(wh.parameters()), train=True)


class ResBlock(nn.Module):
    """A diffusion U-Net's ResBlock: a sinusoidal timestep embedding, two
    GroupNorm(32) + SiLU + convolution steps, the time added between."""

    def __init__(self, c=64, tdim=128):
        super().__init__()
        self.tdim = tdim
        self.n1, self.n2 = nn.GroupNorm(32, c), nn.GroupNorm(32, c)
        self.c1 = nn.Conv2d(c, c, 3, padding=1)
        self.c2 = nn.Conv2d(c, c, 3, padding=1)
        self.t = nn.Linear(tdim, c)

    def forward(self, x, t):
        half = self.tdim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(
            half, device=x.device, dtype=torch.float32) / half)
        args = t[:, None].float() * freqs[None]
        temb = torch.cat([torch.cos(args), torch.sin(args)], -1)
        h = self.c1(F.silu(self.n1(x)))
        h = h + self.t(F.silu(temb))[:, :, None, None]
        return x + self.c2(F.silu(self.n2(h)))


def diffusion_resblock_train():
    m = ResBlock().to(DEVICE).train()
    return Case(lambda x, t: m(x, t).square().mean(),
                [rnd(2, 64, 16, 16), torch.tensor([10, 500], device=DEVICE)],
                m.parameters(), train=True)


def random_normal():
    """Normal and Gumbel noise made in the graph (Inductor's randn and
    rand), checked by what holds for any stream: the KL term is
    deterministic, the standardized noise has mean 0.0 and deviation 1.0
    to one decimal over a million elements, a hard Gumbel softmax has one
    nonzero in every row, and that one is 1 (y_hard - y_soft + y_soft
    rounds, so to 1e-6)."""
    def f(mu, logvar, logits):
        std = (0.5 * logvar).exp()
        z = mu + torch.randn_like(mu) * std
        eps = (z - mu) / std
        kl = -0.5 * (1 + logvar - mu.square() - logvar.exp()).sum()
        y = F.gumbel_softmax(logits, tau=0.5, hard=True)
        return kl, torch.round(eps.mean(), decimals=1), \
            torch.round(eps.std(), decimals=1), \
            ((y != 0).sum(-1) == 1).all(), \
            ((y.amax(-1) - 1).abs() < 1e-6).all()
    return Case(f, [rnd(1024, 1024), rnd(1024, 1024) * 0.1, rnd(512, 10)])


def clip_loss_train():
    img_proj = nn.Linear(128, 64).to(DEVICE)
    txt_proj = nn.Linear(96, 64).to(DEVICE)
    scale = nn.Parameter(torch.tensor(math.log(1 / 0.07), device=DEVICE))

    def f(img, txt):
        a = F.normalize(img_proj(img), dim=-1)
        b = F.normalize(txt_proj(txt), dim=-1)
        logits = scale.exp() * a @ b.t()
        labels = torch.arange(logits.shape[0], device=logits.device)
        return (F.cross_entropy(logits, labels)
                + F.cross_entropy(logits.t(), labels)) / 2
    return Case(f, [rnd(64, 128), rnd(64, 96)],
                list(img_proj.parameters()) + list(txt_proj.parameters())
                + [scale], train=True)


def kv_cache_decode():
    """One decoding step against a static KV cache: the new key and value
    written in place at the position (index_copy_ into captured tensors),
    attention over the cache masked past the position."""
    b, h, length, d = 2, 4, 256, 32
    qkv = nn.Linear(128, 3 * 128).to(DEVICE)
    kc = torch.zeros(b, h, length, d, device=DEVICE)
    vc = torch.zeros_like(kc)
    kc[:, :, :37], vc[:, :, :37] = rnd(b, h, 37, d), rnd(b, h, 37, d)

    def f(x, pos):
        q, k, v = qkv(x).view(b, 1, 3, h, d).permute(2, 0, 3, 1, 4)
        kc.index_copy_(2, pos, k)
        vc.index_copy_(2, pos, v)
        s = (q @ kc.transpose(-1, -2)) * d ** -0.5
        s = s.masked_fill(torch.arange(length, device=x.device) > pos,
                          float("-inf"))
        return s.softmax(-1) @ vc
    return Case(f, [rnd(b, 1, 128), torch.tensor([37], device=DEVICE)],
                state=lambda: [kc, vc])


def integer_division():
    """Integer division and remainder with negative operands (floor,
    trunc, %, fmod, true division), arithmetic shifts of negative int32,
    xor of int64 products."""
    def f(a, b, c):
        b = torch.where(b == 0, 1, b)
        return (torch.div(a, b, rounding_mode="floor"),
                torch.div(a, b, rounding_mode="trunc"), a % b,
                torch.fmod(a, b), torch.div(a, b),
                (a.to(torch.int32) * 3 + c) >> 2,
                (a * 1000003) ^ (c.abs().to(torch.int64) << 7))
    return Case(f, [randint(-1000, 1000, (64, 97)), randint(-7, 8, (64, 97)),
                    randint(-50, 50, (64, 97), torch.int32)])


def grid_sample_train():
    """A spatial transformer: affine_grid, bilinear grid_sample with zero
    padding, gradients for both the image and the transform."""
    theta = nn.Parameter(torch.tensor(
        [[[0.9, 0.1, 0.05], [-0.1, 1.1, 0.0]]], device=DEVICE).repeat(2, 1, 1))
    img = nn.Parameter(rnd(2, 3, 20, 24))

    def f():
        grid = F.affine_grid(theta, (2, 3, 16, 16), align_corners=False)
        return F.grid_sample(img, grid, mode="bilinear", padding_mode="zeros",
                             align_corners=False).square().mean()
    return Case(f, [], [theta, img], train=True)


def bilinear_train():
    x = nn.Parameter(rnd(2, 8, 13, 17))
    return Case(lambda: F.interpolate(x, scale_factor=2, mode="bilinear",
                                      align_corners=True).sin().mean(),
                [], [x], train=True)


def ema_foreach():
    """An EMA of weights through foreach lerp_ and addcmul_ in place,
    foreach norms returned."""
    params = [rnd(256, 64), rnd(64), rnd(3, 3, 16), rnd(1000)]
    ema = [p.clone() * 0.5 for p in params]

    def f():
        torch._foreach_lerp_(ema, params, 0.01)
        torch._foreach_addcmul_(ema, params, params, value=1e-3)
        return list(torch._foreach_norm(ema))
    return Case(f, [], state=lambda: ema)


def fnet():
    """FNet's Fourier mixing: the real part of a 2-D FFT (a complex
    fallback read through .real), residual layer norms, a GELU MLP."""
    ln, ff = nn.LayerNorm(64).to(DEVICE), nn.Linear(64, 64).to(DEVICE)

    def f(x):
        x = ln(x + torch.fft.fft2(x).real)
        return ln(x + F.gelu(ff(x)))
    return Case(f, [rnd(4, 32, 64)])


def weight_norm_train():
    v = nn.Parameter(rnd(32, 16, 3, 3))
    g = nn.Parameter(rnd(32, 1, 1, 1).abs())

    def f(x):
        w = g * v / v.square().sum((1, 2, 3), keepdim=True).sqrt()
        return F.conv2d(x, w, padding=1).relu().mean()
    return Case(f, [rnd(4, 16, 12, 12)], [v, g], train=True)


def mixed_statistics():
    def f(x):
        s, m = torch.std_mean(x.half(), -1, correction=0)
        lo, hi = torch.aminmax(x, dim=1)
        b = x.bfloat16()
        return s, m, torch.var(x, (0, 2)), b.norm(p=3, dim=1), lo, hi, \
            b.logsumexp(-1)
    return Case(f, [rnd(16, 96, 130)])


def order_statistics():
    def f(x):
        med, med_i = torch.median(x, -1)
        kth, kth_i = torch.kthvalue(x, 3, -1)
        return med, med_i, kth, kth_i, torch.quantile(x, 0.9, dim=-1), \
            torch.nanmedian(x.masked_fill(x > 1.5, float("nan")), -1)[0]
    return Case(f, [rnd(64, 301)])


def nan_cleaning():
    def f(x, lo, hi, a, b):
        y = torch.where(x > 2, float("inf"), x)
        y = torch.where(x < -2, float("nan"), y)
        return torch.nan_to_num(y, nan=0.0, posinf=1e4), \
            torch.clamp(x, min=lo, max=hi), torch.isin(a, b), \
            torch.isclose(x, lo, rtol=0.1, atol=0.5), torch.signbit(x), \
            torch.heaviside(x.round(), hi)
    return Case(f, [rnd(128, 64), rnd(128, 64) - 1, rnd(128, 64) + 1,
                    randint(0, 50, (4096,)), randint(0, 50, (20,))])


def distances():
    def f(a, b, p, n):
        return torch.cdist(a, b), F.cosine_similarity(a[:, None], b[None],
                                                      dim=-1), \
            F.pairwise_distance(a, p), F.triplet_margin_loss(a, p, n)
    return Case(f, [rnd(64, 32), rnd(48, 32), rnd(64, 32), rnd(64, 32)])


def masked_scatter():
    def f(x, mask, src):
        return x.masked_scatter(mask, src).cumsum(-1), \
            x.masked_fill(mask, 0.5)
    return Case(f, [rnd(64, 100), torch.rand(64, 100, device=DEVICE) > 0.6,
                    rnd(64 * 100)])


def focal_smoothing_train():
    """Cross entropy with label smoothing and ignore_index beside a focal
    loss over the same targets, in training."""
    x = nn.Parameter(rnd(256, 1000))
    t = randint(0, 1000, (256,))
    t[::7] = -100

    def f(t):
        keep = t != -100
        ce = F.cross_entropy(x, t, label_smoothing=0.1, ignore_index=-100)
        logp = x.log_softmax(-1).gather(1, t.clamp(min=0)[:, None])[:, 0]
        focal = (-(1 - logp.exp()) ** 2 * logp * keep).sum() / keep.sum()
        return ce + focal
    return Case(f, [t], [x], train=True)


def embedding_backward_train():
    e1 = nn.Embedding(500, 32, padding_idx=0).to(DEVICE)
    e2 = nn.Embedding(500, 32, scale_grad_by_freq=True).to(DEVICE)
    ids = randint(0, 500, (8, 64))
    ids[:, -5:] = 0
    return Case(lambda ids: (e1(ids) * e2(ids)).tanh().mean(), [ids],
                list(e1.parameters()) + list(e2.parameters()), train=True)


def bn_channels_last_train():
    conv, bn = nn.Conv2d(32, 32, 3, padding=1).to(DEVICE), \
        nn.BatchNorm2d(32).to(DEVICE)
    x = rnd(8, 32, 20, 20).to(memory_format=torch.channels_last)
    return Case(lambda x: F.relu(bn(conv(x))).square().mean(), [x],
                list(conv.parameters()) + list(bn.parameters()), train=True,
                state=lambda: [bn.running_mean, bn.running_var])


def padding_modes():
    """Reflection and replication padding (Abs and clamped indices),
    instance norm with affine parameters, pixel_unshuffle."""
    norm = nn.InstanceNorm2d(4, affine=True).to(DEVICE)
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.5, 0.5)

    def f(x):
        r = F.pad(x, (3, 2, 1, 4), mode="reflect")
        e = F.pad(x, (2, 2, 2, 2), mode="replicate")
        return F.pixel_unshuffle(norm(r), 2), e.cumsum(-1)
    return Case(f, [rnd(2, 4, 15, 15)])


def searchsorted_rows():
    def f(seq, v):
        s, _ = seq.sort(-1)
        return torch.searchsorted(s, v), torch.searchsorted(s, v, right=True)
    return Case(f, [rnd(32, 50), rnd(32, 17)])


MODELS = {
    "swin_window": swin_window, "swin_window_train": swin_window_train,
    "convnext_train": convnext_train, "bert_padding": bert_padding,
    "gru_train": gru_train, "diffusion_resblock_train":
    diffusion_resblock_train, "random_normal": random_normal,
    "clip_loss_train": clip_loss_train, "kv_cache_decode": kv_cache_decode,
    "integer_division": integer_division,
    "grid_sample_train": grid_sample_train,
    "bilinear_train": bilinear_train, "ema_foreach": ema_foreach,
    "fnet": fnet, "weight_norm_train": weight_norm_train,
    "mixed_statistics": mixed_statistics,
    "order_statistics": order_statistics, "nan_cleaning": nan_cleaning,
    "distances": distances, "masked_scatter": masked_scatter,
    "focal_smoothing_train": focal_smoothing_train,
    "embedding_backward_train": embedding_backward_train,
    "bn_channels_last_train": bn_channels_last_train,
    "padding_modes": padding_modes, "searchsorted_rows": searchsorted_rows,
}

# dynamic=True at two sizes, as unseen_models.DYNAMIC.
DYNAMIC = {
    "swin_window_dynamic": (
        lambda: SwinWindow().to(DEVICE).eval(),
        lambda s: [rnd(2, s, s, 64)], [16, 24]),
    "bert_padding_dynamic": (
        None, lambda t: [randint(0, 1000, (4, t)),
                         torch.tensor([t, t // 2, 1, t - 5], device=DEVICE)],
        [96, 61]),
    "mixed_statistics_dynamic": (
        None, lambda n: [rnd(16, n, 130)], [96, 41]),
    "masked_scatter_dynamic": (
        None, lambda n: [rnd(n, 100), torch.rand(n, 100, device=DEVICE) > 0.6,
                         rnd(n * 100)], [64, 23]),
    # The width stays 13 (odd, as pixel_unshuffle needs after the pad of
    # 5) and unlike both heights: an equal height and width would share
    # one symbol, and the second size would recompile.
    "padding_modes_dynamic": (
        None, lambda h: [rnd(2, 4, h, 13)], [15, 21]),
    "searchsorted_rows_dynamic": (
        None, lambda n: [rnd(32, n), rnd(32, 17)], [50, 29]),
    "integer_division_dynamic": (
        None, lambda n: [randint(-1000, 1000, (n, 97)),
                         randint(-7, 8, (n, 97)),
                         randint(-50, 50, (n, 97), torch.int32)], [64, 19]),
}
