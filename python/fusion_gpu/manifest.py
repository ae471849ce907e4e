"""The launch manifest written by fusion-write-gpu-artifacts.

Pure Python (no GPU, no PyTorch) so that it can be checked anywhere.
"""
import dataclasses
import json
import math
import os
from typing import Dict, List, Optional, Tuple

DTYPES = ("f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64")
ROLES = ("input", "output", "temp")
STEP_KINDS = ("kernel", "extern", "copy")


class ManifestError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class Storage:
    name: str
    role: str
    dtype: str
    elements: int


@dataclasses.dataclass(frozen=True)
class Tensor:
    """A graph input or output: a strided view of a storage."""
    name: str
    storage: str
    dtype: str
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]
    offset: int

    def storage_span(self) -> int:
        """Elements of storage the view reaches (offset + last index + 1)."""
        if any(s == 0 for s in self.shape):
            return 0
        return self.offset + sum((n - 1) * s for n, s in
                                 zip(self.shape, self.strides)) + 1


@dataclasses.dataclass(frozen=True)
class Step:
    kind: str
    name: str = ""
    args: Tuple[str, ...] = ()
    grid: Tuple[int, int, int] = (1, 1, 1)
    block: Tuple[int, int, int] = (1, 1, 1)
    shared_bytes: int = 0
    src: str = ""
    dst: str = ""
    elements: int = 0


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

    def storage(self, name: str) -> Storage:
        for s in self.storages:
            if s.name == name:
                return s
        raise KeyError(name)

    def binary_path(self) -> str:
        return os.path.join(self.directory, self.binary)

    def kernels(self) -> List[Step]:
        return [s for s in self.steps if s.kind == "kernel"]

    def input_aliases(self) -> Dict[str, str]:
        """Output storages filled by a copy of an input storage (the graph
        returns an input): output storage -> input storage. A runtime that
        can return aliases, as Inductor's wrapper does, skips the copy."""
        return {s.dst: s.src for s in self.steps
                if s.kind == "copy" and self.storage(s.src).role == "input"}

    def min_bytes(self) -> int:
        """Bytes a perfect implementation moves: each input read once and
        each output that is not an input written once."""
        aliases = self.input_aliases()
        return sum(math.prod(t.shape) * dtype_size(t.dtype)
                   for t in self.inputs + self.outputs
                   if t.storage not in aliases)


def dtype_size(dtype: str) -> int:
    if dtype == "i1":
        return 1
    return int(dtype[1:]) // 8 if dtype[0] == "i" else {
        "f16": 2, "bf16": 2, "f32": 4, "f64": 8}[dtype]


def _require(cond: bool, message: str):
    if not cond:
        raise ManifestError(message)


def _tensor(entry: dict, storages: Dict[str, Storage]) -> Tensor:
    t = Tensor(name=entry["name"], storage=entry["storage"],
               dtype=entry["dtype"], shape=tuple(entry["shape"]),
               strides=tuple(entry["strides"]), offset=int(entry["offset"]))
    _require(t.storage in storages, "tensor %r names unknown storage %r"
             % (t.name, t.storage))
    _require(len(t.shape) == len(t.strides),
             "tensor %r: %d sizes but %d strides"
             % (t.name, len(t.shape), len(t.strides)))
    _require(t.dtype == storages[t.storage].dtype,
             "tensor %r is %s but its storage is %s"
             % (t.name, t.dtype, storages[t.storage].dtype))
    _require(t.storage_span() <= storages[t.storage].elements,
             "tensor %r reaches element %d of storage %r of %d"
             % (t.name, t.storage_span() - 1, t.storage,
                storages[t.storage].elements))
    return t


def _step(entry: dict, storages: Dict[str, Storage]) -> Step:
    kind = entry.get("kind")
    _require(kind in STEP_KINDS, "unknown step kind %r" % kind)
    if kind == "copy":
        step = Step(kind=kind, src=entry["src"], dst=entry["dst"],
                    elements=int(entry["elements"]))
        for name in (step.src, step.dst):
            _require(name in storages, "copy names unknown storage %r" % name)
            _require(step.elements <= storages[name].elements,
                     "copy of %d elements overruns %r"
                     % (step.elements, name))
        return step
    step = Step(kind=kind, name=entry["name"], args=tuple(entry["args"]))
    for arg in step.args:
        _require(arg in storages, "step %r names unknown storage %r"
                 % (step.name, arg))
    if kind == "kernel":
        grid, block = tuple(entry["grid"]), tuple(entry["block"])
        _require(len(grid) == 3 and len(block) == 3 and
                 all(g >= 1 for g in grid + block),
                 "kernel %r: bad grid %r or block %r" % (step.name, grid, block))
        _require(block[0] * block[1] * block[2] <= 1024,
                 "kernel %r: %r threads per block" % (step.name, block))
        step = dataclasses.replace(step, grid=grid, block=block,
                                   shared_bytes=int(entry.get("shared_bytes", 0)))
    return step


def parse(data: dict, directory: str = "") -> Manifest:
    """Checks and returns a manifest from its JSON object."""
    storages = {}
    for entry in data["storages"]:
        s = Storage(name=entry["name"], role=entry["role"],
                    dtype=entry["dtype"], elements=int(entry["elements"]))
        _require(s.role in ROLES, "storage %r: unknown role %r"
                 % (s.name, s.role))
        _require(s.dtype in DTYPES, "storage %r: unknown dtype %r"
                 % (s.name, s.dtype))
        _require(s.elements >= 0, "storage %r: negative size" % s.name)
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
    return Manifest(graph=data["graph"], module=data["module"],
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
