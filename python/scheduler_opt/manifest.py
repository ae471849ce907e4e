"""The launch manifest written by `--fusion-to-ptx="output-dir=DIR"`.

Its keys and their types are defined once, in manifest_schema.json, which
the writer (`lib/Conversion/FusionToGPU`) checks every manifest against
before writing it and this reader (the one reader of it in the project)
before reading it; docs/Runtime.md describes the fields. Sizes (storage
elements, tensor shapes, strides and offsets, kernel grids) are integers
or, for graphs with symbolic sizes, expressions in size symbols
(`sizes.py`).

Pure Python (no GPU, no PyTorch) so that it can be checked anywhere.
"""
import dataclasses
import json
import math
import os
from typing import Dict, List, Mapping, Optional, Tuple

from . import dtypes, sizes
from .sizes import Size

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "manifest_schema.json")) as _f:
    SCHEMA = json.load(_f)
VERSION = SCHEMA["version"]
# The portable thread block cluster size (sm_90): the most blocks a cluster
# has without the kernel opting in to more.
MAX_CLUSTER_BLOCKS = 8

DTYPES = tuple(name for _, _, name in dtypes.DTYPES)
ROLES = ("input", "output", "temp")
STEP_KINDS = tuple(name.split(":")[1] for name in SCHEMA["records"]
                   if name.startswith("step:"))


class ManifestError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class Storage:
    name: str
    role: str
    dtype: str
    elements: Size


@dataclasses.dataclass(frozen=True)
class Tensor:
    """A graph input or output: a strided view of a storage."""
    name: str
    storage: str
    dtype: str
    shape: Tuple[Size, ...]
    strides: Tuple[Size, ...]
    offset: Size

    def is_static(self) -> bool:
        return all(sizes.is_static(v) for v in
                   self.shape + self.strides + (self.offset,))

    def storage_span(self, symbols: Mapping[str, int] = {}) -> int:
        """Elements of storage the view reaches (offset + last index + 1)."""
        shape = [sizes.evaluate(n, symbols) for n in self.shape]
        strides = [sizes.evaluate(s, symbols) for s in self.strides]
        if any(n == 0 for n in shape):
            return 0
        return sizes.evaluate(self.offset, symbols) + sum(
            (n - 1) * s for n, s in zip(shape, strides)) + 1


@dataclasses.dataclass(frozen=True)
class ExternOutput:
    """A buffer an extern writes: its storage, and its position in the
    tuple the kernel returns (-1: the kernel returns one tensor)."""
    buffer: str
    storage: str
    index: int = -1


@dataclasses.dataclass(frozen=True)
class Step:
    kind: str
    name: str = ""
    node: str = ""
    args: Tuple[str, ...] = ()
    # Kernels of graphs with size symbols: the symbols whose values follow
    # the storages' pointers as 64-bit integer arguments, in order.
    symbols: Tuple[str, ...] = ()
    grid: Tuple[Size, Size, Size] = (1, 1, 1)
    block: Tuple[int, int, int] = (1, 1, 1)
    # Blocks of one thread block cluster (sm_90; the kernel's PTX requires
    # it, `.reqnctapercluster`); (1, 1, 1) for kernels without clusters.
    cluster: Tuple[int, int, int] = (1, 1, 1)
    shared_bytes: int = 0
    src: str = ""
    dst: str = ""
    elements: Size = 0
    # Externs: operand storages in operand order, written buffers, the
    # storage of every buffer the call names, and the recorded call
    # (extern_calls.json's entry for the node; None when not recorded).
    inputs: Tuple[str, ...] = ()
    outputs: Tuple[ExternOutput, ...] = ()
    buffers: Tuple[Tuple[str, str], ...] = ()
    call: Optional[dict] = dataclasses.field(default=None, compare=False)

    def buffer_storages(self) -> Dict[str, str]:
        return dict(self.buffers)


@dataclasses.dataclass(frozen=True)
class Manifest:
    graph: str
    module: str
    binary: str
    format: str
    storages: Tuple[Storage, ...]
    inputs: Tuple[Tensor, ...]
    outputs: Tuple[Tensor, ...]
    steps: Tuple[Step, ...]
    directory: str = ""
    # Every buffer that reaches memory -> its storage (views and aliases
    # share their base's).
    buffers: Tuple[Tuple[str, str], ...] = ()

    def buffer_storages(self) -> Dict[str, str]:
        return dict(self.buffers)

    def storage(self, name: str) -> Storage:
        for s in self.storages:
            if s.name == name:
                return s
        raise KeyError(name)

    def binary_path(self) -> str:
        return os.path.join(self.directory, self.binary)

    def kernels(self) -> List[Step]:
        return [s for s in self.steps if s.kind == "kernel"]

    def externs(self) -> List[Step]:
        return [s for s in self.steps if s.kind == "extern"]

    def input_aliases(self) -> Dict[str, str]:
        """Output storages filled by a copy of an input storage (the graph
        returns an input): output storage -> input storage. A runtime that
        can return aliases, as Inductor's wrapper does, skips the copy."""
        return {s.dst: s.src for s in self.steps
                if s.kind == "copy" and self.storage(s.src).role == "input"}

    def min_bytes(self, symbols: Mapping[str, int] = {}) -> int:
        """Bytes a perfect implementation moves: each input read once and
        each output that is not an input written once."""
        aliases = self.input_aliases()
        return sum(math.prod(sizes.evaluate(n, symbols) for n in t.shape) *
                   dtype_size(t.dtype)
                   for t in self.inputs + self.outputs
                   if t.storage not in aliases)


def dtype_size(dtype: str) -> int:
    if dtype == "i1" or dtype.startswith("f8"):
        return 1
    return int(dtype[1:]) // 8 if dtype[0] in "iu" else {
        "f16": 2, "bf16": 2, "f32": 4, "f64": 8,
        "c32": 4, "c64": 8, "c128": 16, "f4e2m1fnx2": 1, "bits1x8": 1,
        "bits2x4": 1, "bits4x2": 1, "bits8": 1, "bits16": 2}[dtype]


def _require(cond: bool, message: str):
    if not cond:
        raise ManifestError(message)


def _check(value, type_: str, path: str):
    """Checks `value` against a type of the schema (see its comment)."""
    def fail(expected):
        raise ManifestError("%s: expected %s, found %s" %
                            (path, expected, json.dumps(value)[:60]))
    if type_ == "string":
        if not isinstance(value, str):
            fail("a string")
    elif type_ == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            fail("an integer")
    elif type_ == "size":
        if not isinstance(value, (int, str)) or isinstance(value, bool):
            fail("a size (an integer or an expression)")
    elif type_ == "object":
        if not isinstance(value, dict):
            fail("an object")
    elif type_.startswith("["):
        if not isinstance(value, list):
            fail("an array")
        for i, element in enumerate(value):
            _check(element, type_[1:-1], "%s[%d]" % (path, i))
    elif type_.startswith("{"):
        if not isinstance(value, dict):
            fail("an object")
        for key, element in value.items():
            _check(element, type_[1:-1], "%s.%s" % (path, key))
    else:
        if not isinstance(value, dict):
            fail("an object")
        record = SCHEMA["records"].get(type_)
        if record is None:
            record = SCHEMA["records"].get("%s:%s" % (type_, value.get("kind")))
            if record is None:
                raise ManifestError("%s: unknown %s kind %r"
                                    % (path, type_, value.get("kind")))
        for key in value:
            if key not in record:
                raise ManifestError("%s: unknown key %r" % (path, key))
        for key, field_type in record.items():
            optional = field_type.endswith("?")
            if key in value:
                _check(value[key], field_type.rstrip("?"),
                       "%s.%s" % (path, key))
            elif not optional:
                raise ManifestError("%s: missing key %r" % (path, key))


def _size(value, what: str) -> Size:
    try:
        return sizes.parse(value)
    except sizes.SizeError as e:
        raise ManifestError("%s: %s" % (what, e))


def _tensor(entry: dict, storages: Dict[str, Storage]) -> Tensor:
    name = entry["name"]
    t = Tensor(name=name, storage=entry["storage"], dtype=entry["dtype"],
               shape=tuple(_size(v, name) for v in entry["shape"]),
               strides=tuple(_size(v, name) for v in entry["strides"]),
               offset=_size(entry["offset"], name))
    _require(t.storage in storages, "tensor %r names unknown storage %r"
             % (t.name, t.storage))
    _require(len(t.shape) == len(t.strides),
             "tensor %r: %d sizes but %d strides"
             % (t.name, len(t.shape), len(t.strides)))
    _require(t.dtype == storages[t.storage].dtype,
             "tensor %r is %s but its storage is %s"
             % (t.name, t.dtype, storages[t.storage].dtype))
    elements = storages[t.storage].elements
    if t.is_static() and sizes.is_static(elements):
        _require(t.storage_span() <= elements,
                 "tensor %r reaches element %d of storage %r of %d"
                 % (t.name, t.storage_span() - 1, t.storage, elements))
    return t


def _extern(entry: dict, step: Step, storages: Dict[str, Storage]) -> Step:
    outputs = []
    for out in entry.get("outputs", ()):
        o = ExternOutput(buffer=out["buffer"], storage=out["storage"],
                         index=int(out.get("index", -1)))
        _require(o.storage in storages, "extern %r writes unknown storage %r"
                 % (step.node, o.storage))
        outputs.append(o)
    buffers = tuple(sorted(entry.get("buffers", {}).items()))
    for buffer, storage in buffers:
        _require(storage in storages, "extern %r maps %r to unknown "
                 "storage %r" % (step.node, buffer, storage))
    inputs = tuple(entry.get("inputs", ()))
    for name in inputs:
        _require(name in storages, "extern %r reads unknown storage %r"
                 % (step.node, name))
    call = entry.get("call")
    _require(call is None or isinstance(call, dict),
             "extern %r: call is not an object" % step.node)
    return dataclasses.replace(step, inputs=inputs, outputs=tuple(outputs),
                               buffers=buffers, call=call)


def _step(entry: dict, storages: Dict[str, Storage]) -> Step:
    kind = entry["kind"]
    _require(kind in STEP_KINDS, "unknown step kind %r" % kind)
    if kind == "copy":
        step = Step(kind=kind, src=entry["src"], dst=entry["dst"],
                    elements=_size(entry["elements"], "copy"))
        for name in (step.src, step.dst):
            _require(name in storages, "copy names unknown storage %r" % name)
            limit = storages[name].elements
            if sizes.is_static(step.elements) and sizes.is_static(limit):
                _require(step.elements <= limit,
                         "copy of %d elements overruns %r"
                         % (step.elements, name))
        return step
    step = Step(kind=kind, name=entry["name"], node=entry.get("node", ""),
                args=tuple(entry["args"]))
    for arg in step.args:
        _require(arg in storages, "step %r names unknown storage %r"
                 % (step.name, arg))
    if kind == "extern":
        return _extern(entry, step, storages)
    grid = tuple(_size(g, step.name) for g in entry["grid"])
    block = tuple(entry["block"])
    _require(len(grid) == 3 and len(block) == 3 and
             all(not sizes.is_static(g) or g >= 1 for g in grid) and
             all(isinstance(b, int) and b >= 1 for b in block),
             "kernel %r: bad grid %r or block %r" % (step.name, grid, block))
    _require(block[0] * block[1] * block[2] <= 1024,
             "kernel %r: %r threads per block" % (step.name, block))
    symbols = tuple(entry.get("symbols", ()))
    _require(all(isinstance(n, str) and n.isidentifier() for n in symbols),
             "kernel %r: bad size symbols %r" % (step.name, symbols))
    used = set().union(*(g.symbols for g in grid
                         if not sizes.is_static(g)))
    _require(used <= set(symbols),
             "kernel %r: its grid uses size symbols %s that it does not take"
             % (step.name, ", ".join(sorted(used - set(symbols)))))
    cluster = tuple(entry.get("cluster", (1, 1, 1)))
    _require(len(cluster) == 3 and
             all(isinstance(c, int) and c >= 1 for c in cluster) and
             cluster[0] * cluster[1] * cluster[2] <= MAX_CLUSTER_BLOCKS,
             "kernel %r: bad cluster %r (at most %d blocks)"
             % (step.name, cluster, MAX_CLUSTER_BLOCKS))
    _require(all(not sizes.is_static(g) or g % c == 0
                 for g, c in zip(grid, cluster)),
             "kernel %r: grid %r is no multiple of its cluster %r"
             % (step.name, grid, cluster))
    return dataclasses.replace(step, grid=grid, block=block, symbols=symbols,
                               cluster=cluster,
                               shared_bytes=int(entry.get("shared_bytes", 0)))


def parse(data: dict, directory: str = "") -> Manifest:
    """Checks and returns a manifest from its JSON object."""
    _check(data, "manifest", "manifest")
    _require(data["version"] == VERSION,
             "manifest of version %d; this reader reads version %d"
             % (data["version"], VERSION))
    storages = {}
    for entry in data["storages"]:
        s = Storage(name=entry["name"], role=entry["role"],
                    dtype=entry["dtype"],
                    elements=_size(entry["elements"], entry["name"]))
        _require(s.role in ROLES, "storage %r: unknown role %r"
                 % (s.name, s.role))
        _require(s.dtype in DTYPES, "storage %r: unknown dtype %r"
                 % (s.name, s.dtype))
        _require(not sizes.is_static(s.elements) or s.elements >= 0,
                 "storage %r: negative size" % s.name)
        _require(s.name not in storages, "storage %r twice" % s.name)
        storages[s.name] = s
    inputs = tuple(_tensor(e, storages) for e in data["inputs"])
    outputs = tuple(_tensor(e, storages) for e in data["outputs"])
    for t in inputs:
        _require(storages[t.storage].role == "input",
                 "input %r lives in a %s storage"
                 % (t.name, storages[t.storage].role))
    for t in outputs:
        _require(storages[t.storage].role == "output",
                 "output %r lives in a %s storage"
                 % (t.name, storages[t.storage].role))
    steps = tuple(_step(e, storages) for e in data["steps"])
    buffers = tuple(sorted(data.get("buffers", {}).items()))
    for buffer, storage in buffers:
        _require(storage in storages, "buffer %r lives in unknown storage %r"
                 % (buffer, storage))
    return Manifest(graph=data["graph"], module=data["module"],
                    buffers=buffers,
                    binary=data.get("binary", data["graph"] + ".ptx"),
                    format=data.get("format", "ptx"),
                    storages=tuple(storages.values()), inputs=inputs,
                    outputs=outputs, steps=steps, directory=directory)


def load(path: str) -> Manifest:
    with open(path) as f:
        return parse(json.load(f), os.path.dirname(os.path.abspath(path)))


def load_directory(directory: str) -> Dict[str, Manifest]:
    """Every <graph>.json of a directory, by graph name."""
    result = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".json"):
            m = load(os.path.join(directory, name))
            result[m.graph] = m
    return result
