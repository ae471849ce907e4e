"""GPU runs of graphs that make their own data, against the outputs the
CPU JIT printed for the same graphs (bundle/semantics/<case>/expected.json),
and Philox random numbers against Triton's tl.rand."""
import json
import os

import torch

from .. import manifest as manifest_lib
from .program import Program

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


MASK = (1 << 64) - 1


def jit_pattern(n, salt, dtype, int_range=4, seed=0):
    """The input pattern of test-fusion-jit-main (TestJitMain.cpp): a 31-bit
    hash of (element, salt) in wrapping 64-bit arithmetic, mapped to floats
    in [-2, 2) in steps of 0.001, integers in [0, int_range) or booleans."""
    import numpy
    u = numpy.arange(n, dtype=numpy.uint64) * numpy.uint64(2654435761)
    u = u + numpy.uint64((salt * 40503 + seed * 97 + 12345) & MASK)
    for shift in (13, 16):
        u ^= u >> numpy.uint64(shift)
        u = u * numpy.uint64(1274126177)
    u ^= u >> numpy.uint64(15)
    h = u & numpy.uint64(0x7FFFFFFF)
    if dtype.is_floating_point:
        values = (h % numpy.uint64(4001)).astype(numpy.float64) * 0.001 - 2.0
    elif dtype == torch.bool:
        values = (h & numpy.uint64(1)).astype(numpy.bool_)
    else:
        values = (h % numpy.uint64(int_range)).astype(numpy.int64)
    return torch.from_numpy(values).to(dtype)


def check_case(directory):
    """The GPU's outputs of one case against the JIT's, within rtol 1e-5 and
    atol 1e-6, or the case's own tolerance.json ({"rtol", "atol"}: scans,
    which the GPU combines in a tree and the JIT element by element, so
    that float sums and products round differently)."""
    names = [f for f in os.listdir(directory)
             if f.endswith(".json") and f not in ("expected.json",
                                                  "tolerance.json")]
    rtol, atol = 1e-5, 1e-6
    tolerance_file = os.path.join(directory, "tolerance.json")
    if os.path.exists(tolerance_file):
        tolerance = json.load(open(tolerance_file))
        rtol, atol = tolerance["rtol"], tolerance["atol"]
    # Outputs that are inputs are copied, as the CPU host function does.
    program = Program(manifest_lib.load(os.path.join(directory, names[0])),
                      alias_inputs=False)
    storages = program.allocate()
    m = program.manifest
    for k, t in enumerate(m.inputs):
        storage = storages[t.storage]
        storage.copy_(jit_pattern(storage.numel(), k, storage.dtype))
    program.launcher(storages)()
    torch.cuda.synchronize()
    expected = json.load(open(os.path.join(directory, "expected.json")))
    result = {"kernels": len(m.kernels()), "outputs": len(m.outputs),
              "rtol": rtol, "atol": atol, "mismatches": []}
    # The outputs, then (when the JIT printed them) the inputs after the
    # run, which in-place updates change.
    checked = list(m.outputs)
    if len(expected) == len(m.outputs) + len(m.inputs):
        checked += list(m.inputs)
    if len(expected) != len(checked):
        result["mismatches"].append("%d outputs, %d expected"
                                    % (len(m.outputs), len(expected)))
        return result
    worst = 0.0
    worst_abs = 0.0
    for k, (t, values) in enumerate(zip(checked, expected)):
        ours = storages[t.storage].double().cpu()
        ref = _expected_tensor(values)
        if ours.shape != ref.shape:
            result["mismatches"].append("output %d: %d values, %d expected"
                                        % (k, ours.numel(), ref.numel()))
            continue
        close = torch.isclose(ours, ref, rtol=rtol, atol=atol, equal_nan=True)
        finite = torch.isfinite(ref) & torch.isfinite(ours)
        if finite.any():
            err = ((ours - ref).abs()[finite] /
                   ref.abs()[finite].clamp(min=1e-6)).max().item()
            worst = max(worst, err)
            worst_abs = max(worst_abs,
                            (ours - ref).abs()[finite].max().item())
        if not close.all():
            i = int((~close).nonzero()[0])
            result["mismatches"].append(
                "output %d (%s): %d values differ, first at %d: %r vs %r"
                % (k, t.name, int((~close).sum()), i, ours[i].item(),
                   ref[i].item()))
    result["max_rel_err"] = worst
    result["max_abs_err"] = worst_abs
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
