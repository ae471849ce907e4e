#!/usr/bin/env python3
"""Checks the GPU lowerings of Inductor's operations that the lowerings
emit themselves against PyTorch on the GPU machine: runs the PTX of
bench/ops/inductor_ops_gpu.mlir and of test/Target/Inductor/Inputs/asserts.txt
(built on the CPU machine, see bench/README.md) on the inputs of
test-fusion-jit-main, and compares every output with torch.special,
torch.frexp, torch.pow, torch.fmod, torch.remainder, indexing, Triton's
tl.randn and Inductor's triton_helpers.randint64.

    PYTHONPATH=python python3 bench/check_inductor_ops.py DIR OUT.json

DIR holds inductor_ops_gpu.{ptx,json} and asserts/graph.{ptx,json}.
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


def main():
    directory, out = sys.argv[1:3]
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
    with open(out, "w") as f:
        json.dump(results, f, indent=1)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
