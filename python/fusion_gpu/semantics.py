"""GPU runs of graphs that make their own data, against the outputs the
CPU JIT printed for the same graphs (bundle/semantics/<case>/expected.json),
and Philox random numbers against Triton's tl.rand."""
import json
import os

import torch

from . import manifest as manifest_lib
from .runner import Program

RAND_SEED = 78187493520  # bench/semantics/rand.mlir
RAND_STRIDE = 3


def _expected_tensor(values):
    return torch.tensor([float(v) for v in values], dtype=torch.float64)


def triton_rand(n):
    import triton
    import triton.language as tl

    @triton.jit
    def kernel(out, seed, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, tl.rand(seed, offs * 3), mask=offs < n)

    out = torch.empty(n, device="cuda", dtype=torch.float32)
    kernel[(triton.cdiv(n, 256),)](out, RAND_SEED, n, BLOCK=256)
    return out


def check_case(directory):
    names = [f for f in os.listdir(directory)
             if f.endswith(".json") and f != "expected.json"]
    program = Program(manifest_lib.load(os.path.join(directory, names[0])))
    storages = program.allocate()
    program.launcher(storages)()
    torch.cuda.synchronize()
    expected = json.load(open(os.path.join(directory, "expected.json")))
    m = program.manifest
    result = {"kernels": len(m.kernels()), "outputs": len(m.outputs),
              "mismatches": []}
    if len(expected) != len(m.outputs):
        result["mismatches"].append("%d outputs, %d expected"
                                    % (len(m.outputs), len(expected)))
        return result
    worst = 0.0
    for k, (t, values) in enumerate(zip(m.outputs, expected)):
        ours = storages[t.storage].double().cpu()
        ref = _expected_tensor(values)
        if ours.shape != ref.shape:
            result["mismatches"].append("output %d: %d values, %d expected"
                                        % (k, ours.numel(), ref.numel()))
            continue
        close = torch.isclose(ours, ref, rtol=1e-5, atol=1e-6, equal_nan=True)
        finite = torch.isfinite(ref) & torch.isfinite(ours)
        if finite.any():
            err = ((ours - ref).abs()[finite] /
                   ref.abs()[finite].clamp(min=1e-6)).max().item()
            worst = max(worst, err)
        if not close.all():
            i = int((~close).nonzero()[0])
            result["mismatches"].append(
                "output %d (%s): %d values differ, first at %d: %r vs %r"
                % (k, t.name, int((~close).sum()), i, ours[i].item(),
                   ref[i].item()))
    result["max_rel_err"] = worst
    if os.path.basename(directory) == "rand":
        # Compare the GPU's own values (expected.json holds six digits).
        ours = storages[m.outputs[0].storage].double().cpu()
        theirs = triton_rand(ours.numel()).double().cpu()
        result["max_abs_diff_vs_triton"] = (ours - theirs).abs().max().item()
    return result


def check_all(bundle):
    root = os.path.join(bundle, "semantics")
    results = {}
    if not os.path.isdir(root):
        return results
    for case in sorted(os.listdir(root)):
        try:
            results[case] = check_case(os.path.join(root, case))
        except Exception as e:
            results[case] = {"error": "%s: %s" % (type(e).__name__, e)}
    return results
