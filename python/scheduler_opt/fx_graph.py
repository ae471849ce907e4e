"""The FX graphs Inductor dumps (`fx_graph_readable.py`): a
`class <lambda>(torch.nn.Module)` whose `forward` takes the graph inputs by
their Inductor names, annotated with dtype and shape (`"f32[s77, s27]"`,
`"Sym(s77)"`).

`read_signature` is the one reader of that signature (pure Python);
`load_forward` runs the module with PyTorch; `readable` writes the text
for a graph the torch.compile backend compiles.
"""
import ast
import contextlib
import dataclasses
import math
import os
import re
from typing import Callable, List, Optional, Tuple

from . import dtypes


@dataclasses.dataclass(frozen=True)
class Param:
    """A graph input: a tensor (dtype such as "f32", shape entries as ints
    or size-symbol strings, strides when annotated: `"f32[4, 8][1, 4]"`) or
    a size (`symbol`)."""
    name: str
    dtype: str = ""
    shape: Tuple = ()
    symbol: str = ""
    stride: Optional[Tuple] = None


_TENSOR = re.compile(
    r"^(?P<dtype>[a-z]+\d*)\[(?P<shape>[^\]]*)\](?:\[(?P<stride>[^\]]*)\])?$")
_SYM = re.compile(r"^Sym\((?P<expr>.*)\)$")


def _param(name: str, annotation: Optional[str]) -> Param:
    if annotation is None:
        return Param(name)
    m = _SYM.match(annotation)
    if m:
        return Param(name, symbol=m.group("expr"))
    m = _TENSOR.match(annotation)
    if not m:
        return Param(name)
    def entries(text):
        return tuple(int(d) if d.strip().lstrip("-").isdigit() else d.strip()
                     for d in text.split(",") if d.strip())
    stride = m.group("stride")
    return Param(name, dtype=m.group("dtype"), shape=entries(m.group("shape")),
                 stride=entries(stride) if stride is not None else None)


def _named(source: str) -> str:
    """The dump's source with its class named (`<lambda>` is no name)."""
    return re.sub(r"^class [^(]+\(", "class Graph(", source, count=1,
                  flags=re.M)


def _source(path: str) -> str:
    return _named(open(path).read())


def read_signature(path: str) -> List[Param]:
    """The inputs of the dumped module's forward, in order."""
    return parse_signature(open(path).read(), path)


def parse_signature(source: str, path: str = "<fx graph>") -> List[Param]:
    """The inputs of forward in the text of an fx_graph_readable.py."""
    tree = ast.parse(_named(source), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "forward":
            params = []
            for arg in node.args.args[1:]:
                ann = arg.annotation
                text = ann.value if isinstance(ann, ast.Constant) else None
                params.append(_param(arg.arg, text))
            return params
    raise ValueError("%s has no forward" % path)


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
    source = _source(path)
    scope = {"torch": torch, "device": torch.device, "inf": math.inf,
             "nan": math.nan}
    exec(compile(source, path, "exec"), scope)
    module = scope["Graph"]()
    return module.forward, [p.name for p in read_signature(path)]


@contextlib.contextmanager
def dtype_codes(abbrs: dict, dtype_named: Callable[[str], object]):
    """Gives torch's FX printer's table of dtype annotation codes
    (`abbrs`: torch dtype -> code) the code `dtypes.DTYPES` has for every
    dtype it lacks (`dtype_named`: torch dtype name -> dtype, None where
    this torch has none), for as long as the block runs; the entries it
    had stay as they are."""
    added = []
    for code, name, _ in dtypes.DTYPES:
        dtype = dtype_named(name)
        if dtype is not None and dtype not in abbrs:
            abbrs[dtype] = code
            added.append(dtype)
    try:
        yield
    finally:
        for dtype in added:
            abbrs.pop(dtype, None)


@contextlib.contextmanager
def printer_codes():
    """torch's FX printer, for as long as the block runs, with our code
    for every dtype its table lacks (`dtype_codes` on the table
    torch/fx/graph.py looks codes up in, torch/utils/_dtype_abbrs.py's
    `dtype_abbrs`). In PyTorch 2.11 the table has no bits2x4, bits4x2 and
    bits8, and the printer annotates every node with its dtype's code:
    `gm.print_readable` raised KeyError on a graph holding one, in our
    backend (`readable`) and in Inductor's compile_fx_inner, which prints
    the post-grad graph for its cache key and trace
    (`inductor_post_grad_graph_str`) whether or not anything reads it."""
    import torch
    import torch.fx.graph as graph_module
    with dtype_codes(graph_module.dtype_abbrs,
                     lambda name: getattr(torch, name, None)):
        yield


def readable(gm) -> str:
    """The text of `fx_graph_readable.py` for the FX graph module `gm`,
    as Inductor's debug dump writes it (`gm.print_readable`): the
    importer reads the annotations of forward's parameters, which give
    the graph inputs that only extern kernels read their dtype and shape.
    A bits8, bits2x4 or bits4x2 tensor is annotated with our code
    (`bits8[64, 32]`, as the importer's Dtypes.def reads it;
    `printer_codes`)."""
    with printer_codes():
        return gm.print_readable(print_output=False)
