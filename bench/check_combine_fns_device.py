"""On the GPU machine: the combine functions that python/scheduler_opt/
combine_fns.py traces from PyTorch's own scans (torch.compile with
Inductor, nodes taken where the backend takes them,
torch._inductor.debug.log_ir_pre_fusion), compared with the blocks that
test/Target/Inductor/Inputs/scan-combine/ carries (and that
python/tests/test_combine_fns.py traces from copies of PyTorch's combine
functions without PyTorch).

    python3 bench/check_combine_fns_device.py   (from the repository root;
    writes $OUT/combine-fns-h100.json)
"""
import json
import os
import re
import sys

sys.path.insert(0, "python")
import torch
import torch._dynamo
from torch._inductor import debug as inductor_debug
from torch._inductor.virtualized import V
from scheduler_opt import combine_fns

traced = {}
original = inductor_debug.log_ir_pre_fusion
current = [None]  # the graph being compiled


def hook(nodes):
    for node in nodes:
        body = getattr(node, "_body", None)
        text = combine_fns.with_combine_fns(node.debug_str(), node.get_name(),
                                            body, V.set_ops_handler)
        lines = text.split("\n")
        start = [i for i, l in enumerate(lines) if "_combine_fn(self, ops" in l]
        for i in start:
            j = i + 1
            while j < len(lines) and lines[j].startswith("        "):
                j += 1
            traced.setdefault(current[0], []).append(lines[i:j])
    return original(nodes)


inductor_debug.log_ir_pre_fusion = hook
x = torch.randn(8, 64, device="cuda")
xi = torch.randint(-5, 5, (8, 64), device="cuda", dtype=torch.int32)
graphs = {
    "scans": (lambda x: (torch.cumsum(x, 1), torch.cumprod(x, 1),
                         torch.logcumsumexp(x, 1)), x),
    "cumext": (lambda x: (torch.cummax(x, 1), torch.cummin(x, 1)), x),
    "intscan": (lambda x: (torch.cumsum(x, 1), torch.cumsum(x > 0, 1)), xi),
}
report = {"torch": torch.__version__}
for name, (fn, arg) in graphs.items():
    torch._dynamo.reset()
    current[0] = name
    try:
        torch.compile(fn)(arg)
    except Exception as e:
        report[name + "_error"] = repr(e)[:500]


def blocks_of(path):
    blocks, cur = [], None
    for line in open(path).read().split("\n"):
        if "_combine_fn(self, ops" in line:
            cur = [line]
            blocks.append(cur)
        elif cur is not None and line.startswith("        "):
            cur.append(line)
        else:
            cur = None
    return blocks


inputs = "test/Target/Inductor/Inputs/scan-combine"
for name in graphs:
    ours = traced.get(name, [])
    theirs = blocks_of(os.path.join(inputs, name + ".txt"))
    report[name] = {"traced": ["\n".join(b) for b in ours],
                    "same_as_test_input": sorted(map(tuple, ours)) ==
                    sorted(map(tuple, theirs)),
                    "count": len(ours), "expected_count": len(theirs)}
out = os.environ.get("OUT", "/tmp")
json.dump(report, open(os.path.join(out, "combine-fns-h100.json"), "w"),
          indent=1)
for name in graphs:
    r = report[name]
    print(name, r["count"], r["expected_count"], r["same_as_test_input"])
    if r["traced"]:
        print(r["traced"][-1])
print({k: v for k, v in report.items() if k.endswith("_error")})
