"""Loads the PyTorch function of a corpus workload from Inductor's
fx_graph_readable.py dump (a `class <lambda>(torch.nn.Module)` whose
forward takes the graph inputs by their Inductor names)."""
import inspect
import math
import os
import re


def find_fx_graph(corpus: str, workload: str) -> str:
    root = os.path.join(corpus, workload)
    for sub in sorted(os.listdir(root)):
        path = os.path.join(root, sub, "fx_graph_readable.py")
        if os.path.exists(path):
            return path
    raise FileNotFoundError("no fx_graph_readable.py under %s" % root)


def load_forward(path: str):
    """Returns (forward, input names) of the dumped module."""
    import torch
    source = open(path).read()
    source = re.sub(r"^class [^(]+\(", "class Graph(", source, count=1,
                    flags=re.M)
    scope = {"torch": torch, "device": torch.device, "inf": math.inf,
             "nan": math.nan}
    exec(compile(source, path, "exec"), scope)
    module = scope["Graph"]()
    names = [p for p in inspect.signature(module.forward).parameters]
    return module.forward, names
