"""The dev-corpus models through torch.compile(backend="scheduler_opt").

    PYTHONPATH=python SCHEDULER_OPT_BIN=DIR python3 bench/backend_models.py \
        --out "$OUT" [--models gpt2,resnet18]

For each model (small equivalents of corpus/inductor's workloads, rebuilt
here: the corpus README and each fx_graph_readable.py say what they are):

- correctness: outputs (and, for training models, the loss and every
  parameter's gradient; for the optimizer step, the updated parameters and
  state) against eager under torch.testing.assert_close's default
  tolerances; when those fail, the smallest of a ladder of tolerances that
  passes, for us and for torch.compile's default (Inductor), whose own
  rounding differs from eager's the same way;
- variants, all compiled in one Dynamo session and kept: eager, ours
  (`backend="scheduler_opt"`), Inductor (torch.compile's default), ours
  with options={"cuda_graphs": True} and Inductor with
  mode="reduce-overhead" (these two not for --no-cuda-graphs models;
  their steps 2 and 3, after the warm-up, checked against eager's); like
  is compared with like: ours against the default, ours with CUDA graphs
  against reduce-overhead; when --variants names them, ours autotuned
  (`tuned`) and ours with cache hints (`ours_hints_loads`,
  `ours_hints_stores`, `ours_hints`: options={"cache_hints": ...}) and
  ours with scalar atomic adds (`ours_scalar_atomics`:
  options={"vector_atomics": False});
- time (`timing`): 15 rounds, each running every variant on the same
  inputs, starting at a rotating one; per variant the median (and the
  quartiles) of the GPU time of a step (the stream held by a sleep kernel
  until the host has queued 10 steps, so the events time the device
  alone), the step time (10 steps issued back to back, host included
  where the GPU waits for it) and the host time of a step (issuing it
  while the GPU sleeps);
- the profiler's view (`kernel_profile`): the GPU's busy time per step
  (kernels, copies, memsets), kernels per step, the largest kernels; with
  --host-profile, cProfile's view of the host work;
- peak memory: what one step allocates beyond what it holds before;
  for the CUDA-graph variants, whose steps allocate nothing, the memory
  held after compiling and three steps beyond what was held before
  (`held_mib`: live tensors and the graphs' pools, other free segments
  released);
- compile time: the first call's wall time for us and for Inductor (their
  caches off or empty), and ours split into Inductor's front half (inside
  compile_fx_inner, up to the pre-fusion scheduler nodes), our tools
  (import, schedule and PTX), and loading the module.

The `*_dynamic` models compile with `torch.compile(dynamic=True)` (size
symbols, one compiled graph for every size) and run at two sizes each, the
second after the first without recompiling: outputs (and the loss and
gradients) against eager with assert_close at each size, and the graphs
compiled, their size symbols and the recompiles between the sizes.

Then a graph we cannot compile (a cumulative sum, Inductor's ops.scan): the
exception names the op and the reason, options={"fallback": True} compiles
it with Inductor and warns, and the compile cache holds no half-written
entry; a compile-cache hit; dropout (random numbers), checked
statistically; and CUDA graphs given a new input after the capture, with
the earlier one kept by the caller (left unchanged: a new capture) or
dropped (copied into: no new capture).

Writes backend_models.json and backend_models.md under --out: the table of
models, the generated kernels' time a step on both sides with externs and
copies left out (kernel_pairs.generated_table: the part of a step that is
the compiler's own), and the generated kernels that lose most to
Inductor's (losses_table).
"""
import argparse
import contextlib
import gc
import json
import math
import os
import statistics
import sys
import tempfile
import time
import traceback
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
import scheduler_opt  # noqa: E402  (registers the backend)
from scheduler_opt import backend as so_backend  # noqa: E402
from scheduler_opt.harness import kernel_pairs  # noqa: E402

DEVICE = "cuda"
TOLERANCES = [None, (1e-5, 1e-5), (1e-4, 1e-4), (1e-3, 1e-3), (1e-2, 1e-2)]


def rnd(*shape, dtype=torch.float32):
    return torch.randn(*shape, device=DEVICE, dtype=dtype)


# --- models ------------------------------------------------------------------
# Each returns a Case: the callable to compile, its inputs, the parameters
# whose gradients are checked (training), and what the step returns.

class Case:
    def __init__(self, fn, inputs, params=(), train=False, state=None):
        self.fn, self.inputs, self.params = fn, inputs, list(params)
        self.train, self.state = train, state or (lambda: [])


def add_sum():
    return Case(lambda a, b: (a + b).sum(1), [rnd(64, 4096), rnd(64, 4096)])


def softmax():
    return Case(lambda x: torch.softmax(x, -1), [rnd(4096, 1024)])


def layernorm_gelu():
    ln = nn.LayerNorm(1024).to(DEVICE)
    return Case(lambda x: F.gelu(ln(x)).mean(), [rnd(4096, 1024)],
                ln.parameters(), train=True)


def rmsnorm_silu():
    w = rnd(1024)

    def f(x, w):
        return F.silu(x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
                      * w)
    return Case(f, [rnd(4096, 1024), w])


def cross_entropy():
    target = torch.randint(0, 32000, (4096,), device=DEVICE)
    target[torch.rand(4096, device=DEVICE) < 0.05] = -100
    return Case(lambda x, t: F.cross_entropy(x, t, ignore_index=-100),
                [rnd(4096, 32000), target])


class MLP(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, h), nn.Linear(h, d)
        self.ln = nn.LayerNorm(d)

    def forward(self, x):
        return self.ln(self.fc2(F.gelu(self.fc1(x))))


def mlp():
    m = MLP(1024, 4096).to(DEVICE)
    return Case(m, [rnd(2048, 1024)])


def mlp_train():
    m = MLP(512, 2048).to(DEVICE)
    return Case(lambda x: m(x).mean(), [rnd(1024, 512)], m.parameters(),
                train=True)


class Attention(nn.Module):
    def __init__(self, d=512, h=8):
        super().__init__()
        self.h, self.ln = h, nn.LayerNorm(d)
        self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln(x)).split(D, -1)
        q, k, v = (t.view(B, T, self.h, D // self.h).transpose(1, 2)
                   for t in (q, k, v))
        a = torch.softmax(q @ k.transpose(-1, -2) / (D // self.h) ** 0.5,
                          -1) @ v
        return x + self.o(a.transpose(1, 2).reshape(B, T, D))


def attention():
    return Case(Attention().to(DEVICE), [rnd(8, 256, 512)])


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(D, -1)
        q, k, v = (t.view(B, T, self.h, D // self.h).transpose(1, 2)
                   for t in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(B, T, D))
        return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class GPT2(nn.Module):
    """GPT-2's structure at the corpus's size: vocabulary 8192, width 256,
    4 heads, 2 blocks, 128 positions, tied embedding."""

    def __init__(self, vocab=8192, d=256, h=4, layers=2, positions=128):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(positions, d)
        self.blocks = nn.ModuleList(Block(d, h) for _ in range(layers))
        self.ln = nn.LayerNorm(d)

    def forward(self, ids):
        x = self.wte(ids) + self.wpe(torch.arange(ids.shape[1],
                                                  device=ids.device))
        for b in self.blocks:
            x = b(x)
        return self.ln(x) @ self.wte.weight.t()


def gpt2():
    return Case(GPT2().to(DEVICE),
                [torch.randint(0, 8192, (4, 128), device=DEVICE)])


def gpt2_train():
    m = GPT2().to(DEVICE)

    def f(ids):
        logits = m(ids)
        return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]),
                               ids[:, 1:].reshape(-1))
    return Case(f, [torch.randint(0, 8192, (4, 128), device=DEVICE)],
                m.parameters(), train=True)


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride,
                                                bias=False),
                                      nn.BatchNorm2d(cout))

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        y = self.b2(self.c2(y))
        return F.relu(y + (x if self.down is None else self.down(x)))


class ResNet18(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False),
                                  nn.BatchNorm2d(64), nn.ReLU(),
                                  nn.MaxPool2d(3, 2, 1))
        layers, cin = [], 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers += [BasicBlock(cin, cout, stride),
                       BasicBlock(cout, cout, 1)]
            cin = cout
        self.layers = nn.Sequential(*layers)
        self.fc = nn.Linear(512, classes)

    def forward(self, x):
        x = self.layers(self.stem(x))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def resnet18():
    """A training-mode forward, as the corpus graph: batch statistics, and
    the running statistics updated in place (buffers mutated)."""
    m = ResNet18().to(DEVICE).train()
    buffers = [b for n, b in m.named_buffers() if "running" in n]
    return Case(m, [rnd(8, 3, 224, 224)], state=lambda: buffers)


def adam_step():
    params = []
    for _ in range(8):
        params += [nn.Parameter(rnd(256, 256)), nn.Parameter(rnd(256))]
    for p in params:
        p.grad = rnd(*p.shape)
    opt = torch.optim.Adam(params, lr=1e-3, foreach=True, capturable=True)

    def step():
        opt.step()
    state = lambda: params + [t for s in opt.state.values()  # noqa: E731
                              for t in s.values()]
    return Case(step, [], state=state)


def chain(n):
    def make():
        def f(a, b):
            for i in range(n):
                k = i % 4
                if k == 0:
                    v = a + b * 0.5
                elif k == 1:
                    v = a * torch.sigmoid(b)
                elif k == 2:
                    v = torch.tanh(a) - b
                else:
                    v = torch.relu(a) + 0.5
                a, b = v, a
            return a
        return Case(f, [rnd(256, 512), rnd(256, 512)])
    return make


MODELS = {
    "add_sum": add_sum, "softmax": softmax, "layernorm_gelu": layernorm_gelu,
    "rmsnorm_silu": rmsnorm_silu, "cross_entropy": cross_entropy, "mlp": mlp,
    "mlp_train": mlp_train, "attention": attention, "gpt2": gpt2,
    "gpt2_train": gpt2_train, "resnet18": resnet18, "adam_step": adam_step,
    "chain200": chain(200), "chain800": chain(800),
}


# --- dynamic shapes ----------------------------------------------------------
# The same workloads compiled with dynamic=True (corpus/inductor/*_dynamic):
# one model, inputs at two sizes (the second with rows longer or fewer than
# the first, and longer than the hint where the row length is symbolic).

class DynamicCase:
    def __init__(self, fn, inputs_at, sizes, params=(), train=False):
        self.fn, self.inputs_at, self.sizes = fn, inputs_at, sizes
        self.params, self.train = list(params), train

    def at(self, size):
        torch.manual_seed(1)
        return Case(self.fn, self.inputs_at(*size), self.params, self.train)


def softmax_dynamic():
    return DynamicCase(lambda x: torch.softmax(x, -1),
                       lambda r, c: [rnd(r, c)], [(4096, 1024), (300, 5000)])


def layernorm_gelu_dynamic():
    ln = nn.LayerNorm(1024).to(DEVICE)
    return DynamicCase(lambda x: F.gelu(ln(x)).mean(),
                       lambda r: [rnd(r, 1024)], [(4096,), (1000,)],
                       ln.parameters(), train=True)


def attention_dynamic():
    # The loss squares the output: its gradient is not a constant (the
    # mean of a LayerNorm-ed or residual output gives near-zero gradients).
    m = Attention().to(DEVICE)
    return DynamicCase(lambda x: m(x).pow(2).mean(),
                       lambda b, t: [rnd(b, t, 512)], [(8, 256), (3, 100)],
                       m.parameters(), train=True)


def mlp_train_dynamic():
    # As the corpus graph (its backward differentiates pow(2).mean()).
    m = MLP(512, 2048).to(DEVICE)
    return DynamicCase(lambda x: m(x).pow(2).mean(), lambda r: [rnd(r, 512)],
                       [(1024,), (333,)], m.parameters(), train=True)


DYNAMIC_MODELS = {
    "softmax_dynamic": softmax_dynamic,
    "layernorm_gelu_dynamic": layernorm_gelu_dynamic,
    "attention_dynamic": attention_dynamic,
    "mlp_train_dynamic": mlp_train_dynamic,
}


def run_dynamic_model(name, make, args):
    """Compiles once with dynamic=True and runs at each size: errors
    against eager, what was compiled (graphs, their size symbols; none
    compiled again at the later sizes), and the step and GPU times
    (`timing`, a few rounds)."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    dyn = make()
    variants = {"ours": torch.compile(dyn.fn, backend="scheduler_opt",
                                      options={"fallback": False},
                                      dynamic=True)}
    if args.dynamic_inductor:
        variants["inductor"] = torch.compile(dyn.fn, dynamic=True)
    result = {"model": name, "sizes": []}
    for size in dyn.sizes:
        case = dyn.at(size)
        ref = step_fn(case, case.fn)()
        before = len(so_backend.STATS)
        entry = {"size": list(size)}
        runs = {}
        for label, fn in variants.items():
            prefix = "" if label == "ours" else label + "_"
            try:
                out = step_fn(case, fn)()
                torch.cuda.synchronize()
                (entry[prefix + "max_abs"], entry[prefix + "max_rel"],
                 entry[prefix + "tolerance"]) = compare(out, ref)
                if label == "ours":
                    entry["outputs_checked"] = len(out)
                    # Per output: (shape, max |ours - eager|, max |eager|).
                    entry["per_output"] = [
                        [list(a.shape),
                         (a.double() - b.double()).abs().max().item(),
                         b.double().abs().max().item()]
                        for a, b in zip(out, ref)
                        if a.is_floating_point() and a.numel()]
                runs[label] = step_fn(case, fn)
            except Exception as e:
                entry[prefix + "error"] = error_text(e)
                if args.verbose:
                    traceback.print_exc()
        stats = so_backend.STATS[before:]
        entry["graphs_compiled"] = len(stats)
        entry["kernels"] = sum(s.get("kernels", 0) for s in stats)
        entry["size_symbols"] = sorted({n for s in stats
                                        for n in s.get("symbols", ())})
        entry["fallbacks"] = [s["fallback"] for s in stats
                              if "fallback" in s]
        if runs:
            entry.update(timing(runs, rounds=5))
        result["sizes"].append(entry)
    return result


def dynamic_table(results):
    lines = ["| model | size | graphs compiled | size symbols | kernels | "
             "ours vs eager (assert_close) | max abs | max rel | GPU ms "
             "ours / Inductor | step ms ours / Inductor | Inductor "
             "dynamic vs eager |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | "
             "--- |"]
    for r in results:
        for e in r.get("sizes", []):
            lines.append("| %s | %s | %d | %s | %d | %s | %.1e | %.1e | "
                         "%.3f / %.3f | %.3f / %.3f | %s |" % (
                             r["model"], "x".join(map(str, e["size"])),
                             e["graphs_compiled"],
                             ", ".join(e["size_symbols"]), e["kernels"],
                             e.get("tolerance") or ("**fails**: " +
                                                    e.get("error", "")),
                             e.get("max_abs", math.nan),
                             e.get("max_rel", math.nan),
                             e.get("ours_gpu_ms", math.nan),
                             e.get("inductor_gpu_ms", math.nan),
                             e.get("ours_ms", math.nan),
                             e.get("inductor_ms", math.nan),
                             e.get("inductor_tolerance",
                                   e.get("inductor_error", "not run"))))
    return "\n".join(lines) + "\n"


# --- running -----------------------------------------------------------------

def flat(x):
    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in flat(v)]
    return []


def step_fn(case, fn):
    """One model step: outputs (and gradients, state) as a list of
    tensors."""
    def run():
        if case.train:
            for p in case.params:
                p.grad = None
            out = fn(*case.inputs)
            out.backward()
            return [out.detach()] + [p.grad for p in case.params] + \
                [t.detach().clone() for t in case.state()]
        with torch.no_grad():
            out = fn(*case.inputs)
        # State (optimizer, batch-norm statistics) changes on later steps.
        return [t.detach() for t in flat(out)] + \
            [t.detach().clone() for t in case.state()]
    return run


def compare(ours, ref):
    """(max abs error, max rel error, the first tolerance of the ladder
    under which assert_close passes or None)."""
    if len(ours) != len(ref):
        return math.inf, math.inf, "outputs: %d, expected %d" % (
            len(ours), len(ref))
    worst_abs = worst_rel = 0.0
    for a, b in zip(ours, ref):
        if a.shape != b.shape:
            return math.inf, math.inf, "shape %s, expected %s" % (
                tuple(a.shape), tuple(b.shape))
        if a.is_floating_point():
            d = (a.double() - b.double()).abs()
            worst_abs = max(worst_abs, d.max().item() if d.numel() else 0.0)
            scale = b.double().abs().max().item() if b.numel() else 0.0
            worst_rel = max(worst_rel, (d.max().item() / scale)
                            if d.numel() and scale else 0.0)
    for tol in TOLERANCES:
        try:
            for a, b in zip(ours, ref):
                if tol is None:
                    torch.testing.assert_close(a, b)
                else:
                    torch.testing.assert_close(a, b, rtol=tol[0], atol=tol[1])
            return worst_abs, worst_rel, "default" if tol is None else \
                "rtol=atol=%g" % tol[0]
        except AssertionError:
            continue
    return worst_abs, worst_rel, None


def _sleep_cycles_per_ms():
    """torch.cuda._sleep's cycles per millisecond on this GPU (measured)."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(1000)
    start.record()
    torch.cuda._sleep(20_000_000)
    end.record()
    end.synchronize()
    return 20_000_000 / start.elapsed_time(end)


def timing(runs, rounds=15, per=10):
    """Times one step of each variant (`runs`: label -> step function),
    interleaved: round r runs every variant once, starting at a rotating
    one, on the same inputs each time. Two numbers per variant, medians
    over the rounds (with the 25th and 75th percentiles, to judge the
    noise):

    - *step* (`ms`): CUDA events around `per` steps issued back to back:
      what a loop of steps takes, host work included where the GPU waits
      for it (small models);
    - *GPU* (`gpu_ms`): the same after a sleep kernel that holds the
      stream until the host has queued all `per` steps (checked: the host
      must finish queueing before the sleep ends, else the sleep is
      lengthened and the round repeated), so the events time the GPU
      running the steps' work back to back: kernels and the gaps between
      them on the device, without the host's pace. A step that waits for
      the GPU itself (embedding's backward reads a count back) cannot be
      timed so: its variant has `gpu_ms_syncs` instead;
    - *host* (`host_us`): the host's time to issue one step while the GPU
      sleeps (Dynamo's guards, AOT autograd's wrappers, the graphs' own
      calls; training steps include autograd), so that the GPU never
      paces it; for a step that synchronizes, the issue time of the step
      loop above.
    """
    for run in runs.values():
        for _ in range(3):
            run()
    torch.cuda.synchronize()
    cycles = _sleep_cycles_per_ms()
    labels = list(runs)
    step = {k: [] for k in labels}
    gpu = {k: [] for k in labels}
    host = {k: [] for k in labels}
    issue = {k: [] for k in labels}
    sleep_ms = {k: 2.0 for k in labels}
    syncs = set()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    for r in range(rounds):
        k0 = r % len(labels)
        for k in labels[k0:] + labels[:k0]:
            run = runs[k]
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            start.record()
            for _ in range(per):
                run()
            end.record()
            issue[k].append((time.perf_counter() - t0) * 1e3 / per)
            end.synchronize()
            step[k].append(start.elapsed_time(end) / per)
            if k in syncs:
                continue
            # Queueing a step takes at most what a step issued back to back
            # takes: a sleep twice as long as `per` of those covers it.
            sleep_ms[k] = max(sleep_ms[k],
                              2 * per * statistics.median(step[k]) + 1.0)
            for attempt in range(2):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                torch.cuda._sleep(int(cycles * sleep_ms[k]))
                start.record()
                for _ in range(per):
                    run()
                end.record()
                queued_ms = (time.perf_counter() - t0) * 1e3
                end.synchronize()
                if queued_ms < 0.8 * sleep_ms[k]:
                    gpu[k].append(start.elapsed_time(end) / per)
                    host[k].append(queued_ms / per)
                    break
                if attempt == 1 or sleep_ms[k] > 200:
                    # The host waited for the sleep twice: the step
                    # synchronizes.
                    syncs.add(k)
                    break
                sleep_ms[k] = 2 * queued_ms + 1.0
    out = {k + "_gpu_ms_syncs": True for k in syncs}
    for k in labels:
        # Host time of a step that synchronizes: issuing steps back to back
        # (the GPU's pace included).
        host_ms = host[k] if k not in syncs else issue[k]
        for name, values in (("ms", step[k]), ("gpu_ms", gpu[k]),
                             ("host_us", [1e3 * v for v in host_ms])):
            if values:
                q = statistics.quantiles(values, n=4) if len(values) > 1 \
                    else [values[0]] * 3
                out["%s_%s" % (k, name)] = statistics.median(values)
                out["%s_%s_iqr" % (k, name)] = [q[0], q[2]]
    return out


def kernel_profile(run, steps=3, top=200):
    """torch.profiler over `steps` steps: the GPU's busy time per step
    (kernels, copies and memsets, summed), kernels per step, and the
    largest kernels by time (µs per step)."""
    from torch.profiler import ProfilerActivity, profile
    run()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            run()
        torch.cuda.synchronize()
    by_name = {}
    events = []
    for evt in prof.events():
        if evt.device_type != torch.autograd.DeviceType.CUDA:
            continue
        us = evt.time_range.elapsed_us()
        events.append((evt.time_range.start, evt.name, us))
        total, count = by_name.get(evt.name, (0.0, 0))
        by_name[evt.name] = (total + us, count + 1)
    busy = sum(t for t, _ in by_name.values()) / steps
    launches = sum(c for _, c in by_name.values()) / steps
    largest = sorted(by_name.items(), key=lambda kv: -kv[1][0])[:top]
    result = {"busy_ms": busy / 1e3, "kernels_per_step": launches,
              "largest": [[name[:100], round(t / steps, 2),
                           round(c / steps, 2)]
                          for name, (t, c) in largest]}
    # One step's work in launch order (each entry's median over the
    # steps), for kernel_pairs; only where every step launched the same.
    events.sort()
    n = len(events) // steps
    if n * steps == len(events) and all(
            events[i][1] == events[i + k * n][1]
            for i in range(n) for k in range(steps)):
        result["sequence"] = [
            [events[i][1][:kernel_pairs.NAME_CUT], round(statistics.median(
                events[i + k * n][2] for k in range(steps)), 2)]
            for i in range(n)]
    return result


def host_profile(run, steps=100, top=25):
    """cProfile of `steps` steps (the host's Python work), the functions
    with the most own time."""
    import cProfile
    import io
    import pstats
    run()
    torch.cuda.synchronize()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(steps):
        run()
    prof.disable()
    torch.cuda.synchronize()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(top)
    return text.getvalue()


def held_bytes():
    """GPU memory held now: live tensors, and the segments of every
    private pool (CUDA graphs) whether in use or not; the caching
    allocator's other free segments are released first."""
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    return torch.cuda.memory_reserved()


def peak_mib(run):
    """GPU memory one step allocates at its peak beyond what is held
    before it (MiB)."""
    run()
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    run()
    torch.cuda.synchronize()
    return (torch.cuda.max_memory_allocated() - base) / 2 ** 20


@contextlib.contextmanager
def output_code():
    """The output code of each graph Inductor compiles meanwhile, in
    compile order (what torch._inductor.utils.run_and_get_code collects)."""
    from torch._inductor.graph import GraphLowering
    codes = []
    saved = GraphLowering.__dict__["save_output_code"]
    GraphLowering.save_output_code = staticmethod(codes.append)
    try:
        yield codes
    finally:
        GraphLowering.save_output_code = saved


def ours_launches(stats):
    """Our kernels of the graphs just compiled (the backend's STATS
    entries, in compile order) with the buffers each creates."""
    launches = []
    for i, s in enumerate(stats):
        path = os.path.join(s["cache_entry"], "graph.json") \
            if s.get("cache_entry") else ""
        if not os.path.exists(path):
            return []
        with open(path) as f:
            launches += kernel_pairs.manifest_writes(json.load(f), i)
    return launches


def first_call(case, fn):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    out = step_fn(case, fn)()
    torch.cuda.synchronize()
    return out, time.perf_counter() - t0


def error_text(e):
    """The line of an exception that says what failed: ours when Dynamo
    wraps it (BackendCompilerFailed), else the first."""
    lines = [l for l in ("%s: %s" % (type(e).__name__, e)).splitlines()
             if l.strip()]
    for line in lines:
        if "scheduler_opt cannot compile" in line:
            return line.strip()[:500]
    return lines[0][:500] if lines else type(e).__name__


# (label, backend, mode, options). The pairs compared: ours against
# torch.compile's default, ours with CUDA graphs against
# mode="reduce-overhead" (Inductor's cudagraph trees).
VARIANTS = (
    ("ours", "scheduler_opt", None, {"fallback": False}),
    ("inductor", "inductor", None, None),
    ("ours_cg", "scheduler_opt", None, {"fallback": False,
                                        "cuda_graphs": True}),
    ("inductor_ro", "inductor", "reduce-overhead", None),
    # Each kernel's configuration chosen by timing candidates on the GPU
    # at the first compile (python/scheduler_opt/autotune.py).
    ("tuned", "scheduler_opt", None, {"fallback": False, "autotune": True}),
    # Ours with --fusion-to-ptx's cache hints (docs/Lowering.md, "Cache
    # hints"): on a row's streamed loads, on vector stores, on both.
    ("ours_hints_loads", "scheduler_opt", None,
     {"fallback": False, "cache_hints": "loads"}),
    ("ours_hints_stores", "scheduler_opt", None,
     {"fallback": False, "cache_hints": "stores"}),
    ("ours_hints", "scheduler_opt", None,
     {"fallback": False, "cache_hints": "all"}),
    # Ours with scalar atomic adds instead of sm_90's vector atomics
    # (docs/Lowering.md, "Atomic adds").
    ("ours_scalar_atomics", "scheduler_opt", None,
     {"fallback": False, "vector_atomics": False}),
    # Ours without combo kernels (options={"combo_kernels": False}: each
    # kernel its own launch, as Inductor's default config.combo_kernels).
    ("ours_no_combo", "scheduler_opt", None,
     {"fallback": False, "combo_kernels": False}),
)
# Run only when --variants names them.
OPTIONAL_VARIANTS = ("tuned", "ours_hints_loads", "ours_hints_stores",
                     "ours_hints", "ours_scalar_atomics", "ours_no_combo")


def run_model(name, make, args):
    result = {"model": name}
    torch._dynamo.reset()
    torch.manual_seed(0)
    eager_case = make()

    def fresh():
        """The same model and inputs again (seeded), for a compiler that
        mutates state (optimizer steps, batch-norm statistics)."""
        torch.manual_seed(0)
        return make()

    ref = step_fn(eager_case, eager_case.fn)()
    # Steps 2 and 3 (state-mutating models change), for CUDA graphs, whose
    # first call is a warm-up and second the capture.
    refs = [ref] + [step_fn(eager_case, eager_case.fn)() for _ in range(2)]
    torch.cuda.synchronize()
    del eager_case
    eager_case = fresh()
    runs = {"eager": step_fn(eager_case, eager_case.fn)}
    cases = [eager_case]
    graphs = name not in args.no_cuda_graphs.split(",")
    # What each side's generated launches write, for kernel_pairs.
    writes = {}
    # Every variant stays compiled (Dynamo keeps one cache entry per
    # backend) so that the timing interleaves them.
    for label, backend, mode, options in VARIANTS:
        if label.endswith(("_cg", "_ro")) and not graphs or \
                label not in args.variants.split(","):
            continue
        c = fresh()
        before = len(so_backend.STATS)
        graphed = label.endswith(("_cg", "_ro"))
        if graphed:
            held = held_bytes()
        try:
            compiled = torch.compile(c.fn, backend=backend, mode=mode) \
                if mode else torch.compile(c.fn, backend=backend,
                                           options=options)
            run = step_fn(c, compiled)
            if graphed:
                check_graphs(result, label, run, refs)
                result[label + "_held_mib"] = (held_bytes() - held) / 2 ** 20
            else:
                with output_code() as codes:
                    out, wall = first_call(c, compiled)
                result[label + "_compile_s"] = wall
                ab, rel, tol = compare(out, ref)
                result[label + "_max_abs"] = ab
                result[label + "_max_rel"] = rel
                result[label + "_tolerance"] = tol
            result[label + "_peak_mib"] = peak_mib(run)
            if label == "ours":
                stats = so_backend.STATS[before:]
                writes["ours"] = ours_launches(stats)
                result["graphs"] = len(stats)
                result["kernels"] = sum(s.get("kernels", 0) for s in stats)
                result["externs"] = sum(s.get("externs", 0) for s in stats)
                for k in ("front_half_s", "tools_s", "import_s",
                          "pipeline_s", "load_s"):
                    result["ours_" + k] = sum(s.get(k, 0.0) for s in stats)
                result["fallbacks"] = [s["fallback"] for s in stats
                                       if "fallback" in s]
            if label == "inductor":
                writes["inductor"] = [
                    w for i, code in enumerate(codes)
                    for w in kernel_pairs.inductor_writes(code, i)]
            if label == "tuned":
                stats = so_backend.STATS[before:]
                result["tuned_kernel_configs"] = [
                    s.get("kernel_configs", "") for s in stats]
                result["tuned_autotune_s"] = sum(
                    s.get("autotune_s", 0.0) for s in stats)
            runs[label] = run
            cases.append(c)
        except Exception as e:  # report and go on with the next variant
            result[label + "_error"] = error_text(e)
            if args.verbose:
                traceback.print_exc()
    try:
        result.update(timing(runs))
        for label, run in runs.items():
            result[label + "_profile"] = kernel_profile(run)
            if label in args.host_profile.split(","):
                result[label + "_host_profile"] = host_profile(run)
        sequences = [result.get(v + "_profile", {}).get("sequence")
                     for v in ("ours", "inductor")]
        if all(sequences):
            launched = [kernel_pairs.launch_writes(seq, writes.get(v, []))
                        for seq, v in zip(sequences, ("ours", "inductor"))]
            result["kernel_pairs"] = kernel_pairs.pair_kernels(
                *sequences, *launched)
            result["kernel_pairs_by"] = "buffers" if all(
                w is not None for w in launched) else "position"
    except Exception as e:
        result["timing_error"] = error_text(e)
        if args.verbose:
            traceback.print_exc()
    del runs, cases
    torch._dynamo.reset()
    torch.cuda.empty_cache()
    for a, b in (("ours", "inductor"), ("ours_cg", "inductor_ro")):
        for unit in ("ms", "gpu_ms"):
            if a + "_" + unit in result and b + "_" + unit in result:
                result["%s_over_%s_%s" % (b, a, unit)] = \
                    result[b + "_" + unit] / result[a + "_" + unit]
    if "ours_ms" in result and "inductor_ms" in result:
        result["inductor_over_ours"] = result["inductor_ms"] / result["ours_ms"]
    return result


def check_graphs(result, label, run, refs):
    """A CUDA-graph variant: steps 2 (capture) and 3 (replay) against
    eager's (the first is a warm-up), each output cloned at once (Inductor's
    cudagraph trees overwrite a replay's outputs on the next one)."""
    worst = "default"
    names = ["default"] + ["rtol=atol=%g" % t[0] for t in TOLERANCES[1:]]
    for k in range(3):
        out = [t.clone() for t in run()]
        if k == 0:
            continue
        _, rel, tol = compare(out, refs[k])
        result[label + "_max_rel"] = max(result.get(label + "_max_rel", 0.0),
                                         rel)
        if tol not in names:
            worst = tol or "FAILS"
            break
        if names.index(tol) > names.index(worst):
            worst = tol
    result[label + "_tolerance"] = worst


def bad_input(args):
    """A cumulative sum (Inductor's ops.scan, which the importer does not
    read): a clear exception, then the fallback; no half-written cache
    entry."""
    result = {}

    def f(a, b):
        return torch.cumsum(a.sin() + b, 1) * 2

    a, b = rnd(64, 128), rnd(64, 128)
    torch._dynamo.reset()
    try:
        torch.compile(f, backend="scheduler_opt")(a, b)
        result["strict"] = "no error (the lowering handled it)"
    except Exception as e:
        result["strict"] = error_text(e)
    torch._dynamo.reset()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = torch.compile(f, backend="scheduler_opt",
                            options={"fallback": True})(a, b)
    result["fallback_matches_eager"] = bool(torch.allclose(
        out, f(a, b), rtol=1e-4, atol=1e-4))
    result["fallback_warnings"] = [str(w.message)[:300] for w in caught
                                   if "scheduler_opt" in str(w.message)]
    cache = os.environ["SCHEDULER_OPT_CACHE_DIR"]
    leftovers = [os.path.join(d, n) for d, dirs, files in os.walk(cache)
                 for n in dirs if n.startswith(".tmp-")]
    result["half_written_cache_entries"] = leftovers
    return result


def dropout(args):
    """Random numbers: Inductor's seeds come from an extern
    (prims.inductor_seeds) and kernels draw from them (Philox, as
    tl.rand). Eager draws differently, so the check is statistical: about
    half the elements dropped, the others scaled by 2, and two calls
    different."""
    torch._dynamo.reset()
    x = torch.ones(1 << 20, device=DEVICE)
    f = torch.compile(lambda x: F.dropout(x, 0.5, training=True),
                      backend="scheduler_opt")
    a, b = f(x), f(x)
    kept = (a != 0).float().mean().item()
    return {"kept_fraction": kept,
            "kept_values_are_2": bool(((a == 0) | (a == 2)).all()),
            "calls_differ": bool((a != b).any())}


def cuda_graph_inputs(args):
    """CUDA graphs and the caller's inputs: a graph reads an input at the
    warm-up's address in place; a later call with another tensor must
    leave an earlier input the caller kept as it was (the graph captures
    again, with a placeholder), and copy into one the caller dropped (no
    new capture)."""
    from scheduler_opt import cudagraphs
    made = []
    init = cudagraphs.CudaGraphed.__init__

    def record(self, compiled):
        init(self, compiled)
        made.append(self)

    def f(x):
        return torch.softmax(x * 2, -1)

    result = {}
    cudagraphs.CudaGraphed.__init__ = record
    try:
        for case in ("kept", "dropped"):
            torch._dynamo.reset()
            made.clear()
            g = torch.compile(f, backend="scheduler_opt",
                              options={"cuda_graphs": True})
            x = rnd(256, 512)
            first = x.clone()
            g(x)  # warm-up
            g(x)  # capture: x read in place
            if case == "dropped":
                del x
            outs = []
            for _ in range(3):
                y = rnd(256, 512)
                outs.append(bool(torch.allclose(g(y), f(y), rtol=1e-5,
                                                atol=1e-6)))
            r = {"results_match_eager": outs,
                 "captures": [m.captures for m in made],
                 "uncaptured_calls": [m.uncaptured_calls for m in made]}
            if case == "kept":
                r["kept_input_unchanged"] = bool(torch.equal(x, first))
            result[case] = r
    finally:
        cudagraphs.CudaGraphed.__init__ = init
    return result


def cache_hit(args):
    """Compiling the same graph again in a fresh Dynamo skips our tools."""
    torch._dynamo.reset()
    x = rnd(4096, 1024)
    f = lambda x: torch.softmax(x, -1)  # noqa: E731
    before = len(so_backend.STATS)
    torch.compile(f, backend="scheduler_opt")(x)
    torch._dynamo.reset()
    torch.compile(f, backend="scheduler_opt")(x)
    stats = so_backend.STATS[before:]
    return [{"cache_hit": s.get("cache_hit"), "tools_s": s.get("tools_s")}
            for s in stats]


def _f(r, key, fmt="%.3f"):
    v = r.get(key)
    return fmt % v if isinstance(v, (int, float)) else "–"


def _pair(r, a, b, key, fmt="%.3f"):
    return "%s / %s" % (_f(r, a + "_" + key, fmt), _f(r, b + "_" + key, fmt))


def _busy(r, label):
    p = r.get(label + "_profile")
    return p["busy_ms"] if p else None


def table(results):
    """One row per model. GPU ms: the device running the steps back to
    back (timing()'s gpu_ms); step ms: steps issued back to back, host
    included; busy: the profiler's kernel time per step."""
    lines = [
        "| model | graphs | kernels / externs | tolerance ours / Inductor "
        "| GPU ms ours / Inductor | step ms ours / Inductor | busy ms ours / "
        "Inductor | eager step ms | host µs ours / Inductor | peak MiB ours "
        "/ Inductor | compile s ours (front half / tools / load) / Inductor "
        "| CUDA graphs ours / reduce-overhead: GPU ms, step ms, host µs, "
        "MiB held, tolerance |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
        "| --- |"]
    for r in results:
        if "ours_error" in r:
            ours = "**fails**: " + r["ours_error"].replace("|", "/")
        else:
            ours = "%s / %s" % (r.get("ours_tolerance") or "FAILS",
                                r.get("inductor_tolerance") or "FAILS")
        cg = ("ours: **fails**: " + r["ours_cg_error"].replace("|", "/")
              if "ours_cg_error" in r else
              "%s; %s; %s; %s; %s / %s" % (
                  _pair(r, "ours_cg", "inductor_ro", "gpu_ms"),
                  _pair(r, "ours_cg", "inductor_ro", "ms"),
                  _pair(r, "ours_cg", "inductor_ro", "host_us", "%.0f"),
                  _pair(r, "ours_cg", "inductor_ro", "held_mib", "%.0f"),
                  r.get("ours_cg_tolerance", "–"),
                  r.get("inductor_ro_tolerance", "–"))
              if "ours_cg_ms" in r else "not run")
        busy = {k: _busy(r, k) for k in ("ours", "inductor")}
        lines.append(
            "| %s | %d | %d / %d | %s | %s | %s | %s / %s | %s | %s | %s | "
            "%s (%s / %s / %s) / %s | %s |" % (
                r["model"], r.get("graphs", 0), r.get("kernels", 0),
                r.get("externs", 0), ours,
                _pair(r, "ours", "inductor", "gpu_ms"),
                _pair(r, "ours", "inductor", "ms"),
                _f(busy, "ours"), _f(busy, "inductor"),
                _f(r, "eager_ms"),
                _pair(r, "ours", "inductor", "host_us", "%.0f"),
                _pair(r, "ours", "inductor", "peak_mib", "%.0f"),
                _f(r, "ours_compile_s", "%.1f"),
                _f(r, "ours_front_half_s", "%.2f"),
                _f(r, "ours_tools_s", "%.2f"), _f(r, "ours_load_s", "%.2f"),
                _f(r, "inductor_compile_s", "%.1f"), cg))
    return "\n".join(lines) + "\n"


def summary(r):
    """One line per model for the log (the JSON has everything)."""
    busy = {k: _busy(r, k) for k in ("ours", "inductor", "ours_cg",
                                     "inductor_ro")}
    errors = {k: v for k, v in r.items() if k.endswith("_error")}
    return ("%s: GPU ms %s, step ms %s, busy ms %s / %s, host µs %s, peak "
            "MiB %s, tolerance %s / %s; CUDA graphs GPU ms %s, step ms %s, "
            "busy %s / %s; wall %.0f s%s" % (
                r["model"], _pair(r, "ours", "inductor", "gpu_ms"),
                _pair(r, "ours", "inductor", "ms"), _f(busy, "ours"),
                _f(busy, "inductor"),
                _pair(r, "ours", "inductor", "host_us", "%.0f"),
                _pair(r, "ours", "inductor", "peak_mib", "%.1f"),
                r.get("ours_tolerance"), r.get("inductor_tolerance"),
                _pair(r, "ours_cg", "inductor_ro", "gpu_ms"),
                _pair(r, "ours_cg", "inductor_ro", "ms"),
                _f(busy, "ours_cg"), _f(busy, "inductor_ro"),
                r.get("wall_s", 0), (" ERRORS " + json.dumps(errors))
                if errors else ""))


def losses_table(results, top=3):
    """Per model, the generated kernels that lose the most time to
    Inductor's counterparts (kernel_pairs: one step, launch order)."""
    lines = ["| model | ours | Inductor | µs ours / Inductor |",
             "| --- | --- | --- | --- |"]
    for r in results:
        rows = r.get("kernel_pairs")
        if rows is None:
            continue
        for row in kernel_pairs.largest_losses(rows, top):
            lines.append("| %s | %s | %s | %.2f / %.2f |" % (
                r["model"], row["ours"][:60], row["inductor"][:60],
                row["ours_us"], row["inductor_us"]))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default=",".join(
        list(MODELS) + list(DYNAMIC_MODELS)))
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--skip-extras", action="store_true")
    parser.add_argument("--no-cuda-graphs", default="chain200,chain800",
                        help="models not run with CUDA graphs (their "
                        "front half is long: device time)")
    parser.add_argument("--variants",
                        default=",".join(v[0] for v in VARIANTS
                                         if v[0] not in OPTIONAL_VARIANTS),
                        help="which of ours, inductor, ours_cg, "
                        "inductor_ro, tuned (ours autotuned), "
                        "ours_hints_loads, ours_hints_stores, ours_hints "
                        "(ours with cache hints), ours_scalar_atomics "
                        "(without vector atomics), ours_no_combo (without "
                        "combo kernels) to run")
    parser.add_argument("--host-profile", default="",
                        help="variants (ours, inductor, ...) whose host "
                        "work per step is profiled with cProfile")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--dynamic-inductor", action="store_true",
                        help="also run the *_dynamic models with "
                        "torch.compile(dynamic=True)'s Inductor")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    os.environ.setdefault("SCHEDULER_OPT_CACHE_DIR",
                          tempfile.mkdtemp(prefix="scheduler_opt_cache-"))
    # Inductor's own caches off: its compile time is a full compile.
    torch._inductor.config.fx_graph_cache = False
    torch._functorch.config.enable_autograd_cache = False
    report = {"device": torch.cuda.get_device_name(),
              "torch": torch.__version__, "models": []}
    path = os.path.join(args.out, "backend_models.json")
    for name in args.models.split(","):
        t0 = time.time()
        try:
            if name in DYNAMIC_MODELS:
                r = run_dynamic_model(name, DYNAMIC_MODELS[name], args)
                r["wall_s"] = time.time() - t0
                report.setdefault("dynamic", []).append(r)
                print(json.dumps(r), flush=True)
                with open(path, "w") as f:
                    json.dump(report, f, indent=1)
                continue
            r = run_model(name, MODELS[name], args)
        except Exception as e:
            r = {"model": name, "ours_error": "eager run: " + error_text(e)}
        r["wall_s"] = time.time() - t0
        report["models"].append(r)
        print(summary(r), flush=True)
        with open(path, "w") as f:
            json.dump(report, f, indent=1)
    if not args.skip_extras:
        for label, fn in (("bad_input", bad_input), ("cache", cache_hit),
                          ("dropout", dropout),
                          ("cuda_graph_inputs", cuda_graph_inputs)):
            try:
                report[label] = fn(args)
            except Exception as e:
                report[label] = {"error": error_text(e)}
            print(label, json.dumps(report[label]), flush=True)
    with open(path, "w") as f:
        json.dump(report, f, indent=1)
    with open(os.path.join(args.out, "backend_models.md"), "w") as f:
        f.write("%s, PyTorch %s\n\n" % (report["device"], report["torch"]))
        if report["models"]:
            f.write(table([r for r in report["models"]]))
        if report.get("dynamic"):
            f.write("\n" + dynamic_table(report["dynamic"]))
        if report["models"]:
            f.write("\n" + kernel_pairs.generated_table(report["models"]))
            f.write("\n" + losses_table(report["models"]))
    if report["models"]:
        print(table(report["models"]))
        print(kernel_pairs.generated_table(report["models"]))
        print(losses_table(report["models"]))
    if report.get("dynamic"):
        print(dynamic_table(report["dynamic"]))


if __name__ == "__main__":
    main()
