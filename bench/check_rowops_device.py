"""On the GPU machine: the sorts, scans and float8 of a bundle that
bench/build_rowops_bundle.sh built (semantics.check_all: the
GPU's outputs against the CPU JIT's on the same inputs), and what
the PyTorch there says of rand_eager (ops_handler, config, codegen).

    python3 bench/check_rowops_device.py BUNDLE_DIR [REPORT]   (from the
    repository root; writes $OUT/REPORT, lowerops3-device.json unless given)
"""
import inspect
import json
import os
import sys
import time

sys.path.insert(0, "python")
out = os.environ.get("OUT", "/tmp")
report = {}
t0 = time.time()
import torch
report["torch"] = torch.__version__
report["device"] = torch.cuda.get_device_name(0)
from scheduler_opt.harness import semantics
report["semantics"] = semantics.check_all(sys.argv[1])
# rand_eager: is it in this PyTorch's OpsHandler, and what do its backends
# and config say?
probe = {}
try:
    from torch._inductor import ops_handler, config
    probe["ops_handler_has_rand_eager"] = hasattr(ops_handler.OpsHandler,
                                                  "rand_eager")
    probe["config_align_random_eager"] = getattr(config, "align_random_eager",
                                                 "absent")
    if probe["ops_handler_has_rand_eager"]:
        probe["ops_handler_doc"] = inspect.getsource(
            ops_handler.OpsHandler.rand_eager)
    from torch._inductor.codegen import triton as triton_codegen
    for cls in ("TritonOverrides", "TritonKernelOverrides"):
        c = getattr(triton_codegen, cls, None)
        if c is not None and hasattr(c, "rand_eager"):
            probe[cls + ".rand_eager"] = inspect.getsource(c.rand_eager)
    from torch._inductor.runtime import triton_helpers
    for name in dir(triton_helpers):
        if "eager" in name or "philox" in name.lower():
            try:
                probe["triton_helpers." + name] = inspect.getsource(
                    getattr(triton_helpers, name))
            except Exception as e:
                probe["triton_helpers." + name] = repr(e)
    import torch._inductor.lowering as lowering
    src = inspect.getsource(lowering)
    i = src.find("rand_eager")
    probe["lowering_mentions"] = src[max(0, i - 1500):i + 2500] if i >= 0 else None
except Exception as e:
    probe["error"] = repr(e)
report["rand_eager"] = probe
report["seconds"] = time.time() - t0
name = sys.argv[2] if len(sys.argv) > 2 else "lowerops3-device.json"
json.dump(report, open(os.path.join(out, name), "w"), indent=1)
for k, v in report["semantics"].items():
    print(k, json.dumps(v))
print({k: (v if not isinstance(v, str) or len(v) < 200 else v[:200])
       for k, v in probe.items()})
print("seconds", report["seconds"])
