#!/usr/bin/env python3
"""Checks the GPU lowerings of Inductor's operations that the lowerings
emit themselves against PyTorch on the GPU machine: runs the PTX of
bench/ops/inductor_ops_gpu.mlir and of test/Target/Inductor/Inputs/asserts.txt
(built on the CPU machine, see bench/README.md) on the inputs of
test-fusion-jit-main, and compares every output with torch.special,
torch.frexp, torch.pow, torch.fmod, torch.remainder, indexing, Triton's
tl.randn and Inductor's triton_helpers.randint64.

    PYTHONPATH=python python3 bench/check_inductor_ops.py DIR OUT.json

DIR holds inductor_ops_gpu.{ptx,json} and asserts/graph.{ptx,json}, and
optionally more/ (check_more), bitcast_pow/ (the bitcast-pow.txt dump),
index_exact/ (index-functions-exact.txt) and index_exact_before/ (the same
dump imported by an older importer); with only those, it checks them alone.
"""
import json
import os
import sys

import torch

from scheduler_opt import manifest as manifest_lib
from scheduler_opt.harness.program import Program
from scheduler_opt.harness.semantics import jit_pattern

SEED = 1311768467294899695  # bench/ops/inductor_ops_gpu.mlir


def triton_random(n):
    import triton
    import triton.language as tl
    from torch._inductor.runtime import triton_helpers

    @triton.jit
    def randn_kernel(out, seed, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, tl.randn(seed, offs.to(tl.uint32)), mask=offs < n)

    @triton.jit
    def randint_kernel(out, seed, low, high, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        r = triton_helpers.randint64(seed, offs.to(tl.uint32), low, high)
        tl.store(out + offs, r, mask=offs < n)

    normal = torch.empty(n, device="cuda", dtype=torch.float32)
    ints = torch.empty(n, device="cuda", dtype=torch.int64)
    grid = (triton.cdiv(n, 256),)
    randn_kernel[grid](normal, SEED, n, BLOCK=256)
    randint_kernel[grid](ints, SEED, -7, 1000, n, BLOCK=256)
    return normal, ints


def integer_pow(base, exp):
    """torch.pow of integer tensors; where PyTorch refuses negative
    exponents, ATen's powi rule (1, +-1 or 0) written out."""
    try:
        return torch.pow(base, exp)
    except RuntimeError:
        pos = torch.pow(base, exp.clamp(min=0))
        neg = torch.where(base == 1, 1, torch.where(
            base == -1, 1 - 2 * (exp.abs() % 2), 0))
        return torch.where(exp < 0, neg, pos)


def run(path, int_range=4):
    program = Program(manifest_lib.load(path), alias_inputs=False)
    storages = program.allocate()
    for k, t in enumerate(program.manifest.inputs):
        s = storages[t.storage]
        s.copy_(jit_pattern(s.numel(), k, s.dtype, int_range=int_range))
    program.launcher(storages)()
    torch.cuda.synchronize()
    return program.manifest, storages


def compare(name, ours, ref, rtol=1e-5, atol=1e-6):
    ours, ref = ours.double().cpu(), ref.double().cpu()
    close = torch.isclose(ours, ref, rtol=rtol, atol=atol, equal_nan=True)
    finite = torch.isfinite(ref) & torch.isfinite(ours)
    diff = (ours - ref).abs()[finite]
    result = {"elements": ours.numel(), "mismatches": int((~close).sum()),
              "max_abs_err": diff.max().item() if diff.numel() else 0.0,
              "max_rel_err": (diff / ref.abs()[finite].clamp(min=1e-6))
              .max().item() if diff.numel() else 0.0,
              "rtol": rtol, "atol": atol}
    if result["mismatches"]:
        i = int((~close).nonzero()[0])
        result["first"] = [i, ours[i].item(), ref[i].item()]
    return result


def by_degree(fn, x, n, degrees):
    """fn(x, k) where n == k, for each degree k (torch.special.polygamma
    takes one integer order)."""
    out = torch.empty_like(x)
    for k in degrees:
        sel = n == k
        out[sel] = fn(k, x[sel])
    return out


def check_more(directory):
    """The graphs of the JIT tests that no device run had checked
    (inductor-opaque-jit.mlir and inductor-polynomials-jit.mlir at 65536
    elements, inductor-gamma-jit.mlir, the bucketize dump, inline-asm.mlir),
    each output against PyTorch on the GPU."""
    sp = torch.special
    results = {}

    def check(prefix, get, refs, **tol):
        for name, ref in refs.items():
            ours = get[name][:ref.numel()]
            results[prefix + name] = compare(name, ours, ref, **tol)

    m, s = run(os.path.join(directory, "inductor_opaque.json"))
    get = {t.name: s[t.storage] for t in m.outputs}
    x = s[m.inputs[0].storage]
    n = torch.arange(x.numel(), device="cuda") % 4
    a6 = x.abs() * 6.0
    y2 = x.abs() * 2.0 + 0.1
    y6 = x.abs() * 6.0 + 0.1
    check("opaque.", get, {
        "i1": sp.i1(x * 6.0), "i1e": sp.i1e(x * 6.0),
        "k0": sp.modified_bessel_k0(a6), "k1": sp.modified_bessel_k1(a6),
        "k0e": sp.scaled_modified_bessel_k0(a6),
        "k1e": sp.scaled_modified_bessel_k1(a6),
        "j0": sp.spherical_bessel_j0(x * 6.0),
        "zeta": sp.zeta(n.float() + 1.5, x.abs() * 3.0 + 0.05),
        "polygamma": by_degree(sp.polygamma, y2, n, range(4)),
        "erfcx": sp.erfcx(x * 10.0), "ndtri": sp.ndtri((x + 2.0) * 0.25),
        "logndtr": sp.log_ndtr(x * 10.0),
        "j1": sp.bessel_j1(x * 6.0), "y0": sp.bessel_y0(y6),
        "y1": sp.bessel_y1(y6), "next": torch.nextafter(x, torch.ones_like(x)),
    })

    m, s = run(os.path.join(directory, "polynomials.json"))
    get = {t.name: s[t.storage] for t in m.outputs}
    x = s[m.inputs[0].storage]
    deg = (torch.arange(x.numel(), device="cuda") % 13).float()
    y, ys = x * 0.5, x * 0.25 + 0.5
    check("polynomials.", get, {
        "t": sp.chebyshev_polynomial_t(y, deg),
        "u": sp.chebyshev_polynomial_u(y, deg),
        "v": sp.chebyshev_polynomial_v(y, deg),
        "w": sp.chebyshev_polynomial_w(y, deg),
        "h": sp.hermite_polynomial_h(y, deg),
        "he": sp.hermite_polynomial_he(y, deg),
        "l": sp.laguerre_polynomial_l(y, deg),
        "p": sp.legendre_polynomial_p(y, deg),
        "st": sp.shifted_chebyshev_polynomial_t(ys, deg),
        "su": sp.shifted_chebyshev_polynomial_u(ys, deg),
        "sv": sp.shifted_chebyshev_polynomial_v(ys, deg),
        "sw": sp.shifted_chebyshev_polynomial_w(ys, deg),
    }, atol=1e-5)

    m, s = run(os.path.join(directory, "inductor_gamma.json"))
    get = {t.name: s[t.storage] for t in m.outputs}
    v, w = (s[t.storage] for t in m.inputs)
    r = torch.arange(v.numel(), device="cuda") % 4
    av, aw = v.abs(), w.abs()
    a1 = av * 40.0 + 0.5
    a2 = v * 20.0 + 250.0
    a = torch.where(r == 1, a1, av * 2.0 + 0.05)
    a = torch.where(r == 2, a2, a)
    a = torch.where(r == 3, av * 0.5 + 0.01, a)
    t = torch.where(r == 1, a1 * (w * 0.2 + 1.0), aw * 3.0)
    t = torch.where(r == 2, a2 + w * 10.0, t)
    t = torch.where(r == 3, aw * 0.5, t)
    inf, nan = float("inf"), float("nan")
    ba = torch.tensor([1, 0, -1, 1, inf, 2, inf, 0], device="cuda")
    bx = torch.tensor([0, 2, 1, -1, 1, inf, inf, 0], device="cuda")
    bg = torch.tensor([200, inf, -inf, nan, -0.5, 0, 2.09, 8.4],
                      device="cuda")
    g = v * 4.0
    mm = torch.matmul(v[:64].view(8, 8).double(), w[:64].view(8, 8).double())
    check("gamma.", get, {
        "p": sp.gammainc(a, t), "q": sp.gammaincc(a, t),
        "pinc": torch.igamma(a, t), "qinc": torch.igammac(a, t),
        "p64": sp.gammainc(a.double(), t.double()),
        "q64": sp.gammaincc(a.double(), t.double()),
        "pb": sp.gammainc(ba, bx), "ab": sp.airy_ai(bg),
        "ai": sp.airy_ai(g), "ai64": sp.airy_ai(g.double()),
        "clamped": (torch.arange(v.numel(), device="cuda") - 20).clamp(0, 29),
    })
    # An f32 sum of 8 products against the f64 product.
    check("gamma.", get, {"mm": mm.flatten()}, atol=1e-5)

    m, s = run(os.path.join(directory, "graph.json"))
    get = {t.name: s[t.storage] for t in m.outputs}
    x = s[m.inputs[0].storage]
    bounds = torch.tensor([-1.0, -0.5, 0.0, 0.5, 1.0], device="cuda")
    check("bucketize.", get, {
        "buf2": torch.bucketize(x, bounds, right=False),
        "buf3": torch.bucketize(x, bounds, right=True),
    })

    m, s = run(os.path.join(directory, "inline_asm.json"))
    get = {t.name: s[t.storage] for t in m.outputs}
    x = s[m.inputs[0].storage]
    check("inline_asm.", get, {
        "out": x.abs(),
        "out2": torch.arange(x.numel(), device="cuda", dtype=torch.int32),
    }, rtol=0, atol=0)
    return results


def load_cases(name):
    """The cases module of test/Target/Inductor/Inputs/<name>/ (the
    formulas and Python's values of a generated dump)."""
    import importlib.util
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(root, "test", "Target", "Inductor", "Inputs", name,
                        "cases.py")
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_bitcast_pow(directory):
    """bitcast-pow.txt (ops.to_dtype_bitcast, ops.pow of floats) against
    Tensor.view(dtype) and torch.pow on the GPU, exactly."""
    cases = load_cases("bitcast-pow")
    m, s = run(os.path.join(directory, "graph.json"))
    outs = [s[t.storage] for t in m.outputs]
    p = torch.arange(cases.N, device="cuda")
    x = (p - 2048).float() * 0.00390625
    b = x.abs() + 0.5
    refs = {
        "bits32": x.view(torch.int32),
        "negated": (x.view(torch.int32) ^ -2147483648).view(torch.float32),
        "bits16": x.half().view(torch.int16),
        "bits64": x.double().view(torch.int64),
        "powf": torch.pow(b, x),
        "powf_int_valued": torch.pow(x, torch.floor(x)),
        "pow64": torch.pow(b.double(), x.double()),
    }
    results = {}
    for (name, *_), ours in zip(cases.CASES, outs, strict=True):
        ref = refs[name]
        if ref.dtype.is_floating_point:
            # Equal bits, NaN included (an int64 does not fit a double).
            ours, ref = ours.view(torch.int32 if ref.dtype == torch.float32
                                  else torch.int64), ref.view(
                torch.int32 if ref.dtype == torch.float32 else torch.int64)
        bad = (ours != ref).nonzero()
        r = {"elements": ref.numel(), "mismatches": int(bad.numel()),
             "dtype": str(refs[name].dtype), "exact": True}
        if bad.numel():
            i = int(bad[0])
            r["first"] = [i, ours[i].item(), ref[i].item()]
        results["bitcast_pow." + name] = r
    return results


def check_index_exact(directory):
    """index-functions-exact.txt: every element of every index function
    against Python's value (the dump's cases.py), exactly."""
    cases = load_cases("index-exact")
    m, s = run(os.path.join(directory, "graph.json"))
    outs = [s[t.storage].cpu().tolist() for t in m.outputs]
    results = {}
    for (expr, f), got in zip(cases.CASES, outs, strict=True):
        bad = [p for p in range(cases.N) if got[p] != f(p)]
        r = {"elements": cases.N, "mismatches": len(bad)}
        if bad:
            r["first"] = [bad[0], got[bad[0]], f(bad[0])]
        results[expr] = r
    return results


def main():
    directory, out = sys.argv[1:3]
    extra = {}
    for sub, check_fn in (("bitcast_pow", check_bitcast_pow),
                          ("index_exact", check_index_exact),
                          ("index_exact_before", check_index_exact)):
        if os.path.isdir(os.path.join(directory, sub)):
            extra[sub] = check_fn(os.path.join(directory, sub))
    if not os.path.exists(os.path.join(directory, "inductor_ops_gpu.json")):
        # Only the extra graphs were built.
        with open(out, "w") as f:
            json.dump(extra, f, indent=1)
        print(json.dumps(extra, indent=1))
        return
    results = {"device": torch.cuda.get_device_name()}
    m, s = run(os.path.join(directory, "inductor_ops_gpu.json"))
    get = {t.name: s[t.storage] for t in m.outputs}
    x = s[m.inputs[0].storage]
    n = x.numel()
    normal, ints = triton_random(n)
    i = torch.arange(n, device="cuda")
    base, exp = i % 7 - 3, torch.div(i, 7, rounding_mode="floor") % 9 - 2
    mant, expo = torch.frexp(x * 1000.0)
    tiny = x * torch.tensor(2.0 ** -140, device="cuda", dtype=torch.float32)
    mant2, expo2 = torch.frexp(tiny)
    refs = {
        "randn": normal, "randint": ints,
        "erfinv": torch.special.erfinv(x * 0.5),
        "i0": torch.special.i0(x * 6.0), "i0e": torch.special.i0e(x * 6.0),
        "ndtr": torch.special.ndtr(x * 2.0),
        "digamma": torch.special.digamma(x * 4.0),
        "m": mant, "ex": expo, "ms": mant2, "exs": expo2,
        "pow": integer_pow(base, exp),
        "fmod": torch.fmod(x * 3.0, 0.7),
        "rem": torch.remainder(x * 3.0, -0.7),
    }
    for name, ref in refs.items():
        results[name] = compare(name, get[name], ref)
    # check_bounds and device_assert_async, in bounds (indices in [0, 12)).
    m, s = run(os.path.join(directory, "asserts", "graph.json"), int_range=12)
    ids, table = (s[t.storage] for t in m.inputs)
    outs = [s[t.storage] for t in m.outputs]
    results["check_bounds_gather"] = compare("gather", outs[0], table[ids])
    results["device_assert_value"] = compare("assert", outs[1], ids < 12)
    more = os.path.join(directory, "more")
    if os.path.isdir(more):
        results.update(check_more(more))
    results.update(extra)
    with open(out, "w") as f:
        json.dump(results, f, indent=1)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
