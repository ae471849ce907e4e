"""Runs a compiled graph: kernels from PTX, externs through PyTorch.

A `CompiledGraph` loads its module once (the cubin when ptxas made one,
else the PTX, which the driver compiles) and writes, from its `plan.Plan`,
one straight-line Python function that each call runs (as Inductor's
wrapper code, its `call(args)`): it binds the caller's tensors as input
storages, allocates output and temporary storages through PyTorch's caching
allocator when first written (so they are freed and reused as Inductor's
wrapper frees them), launches kernels on PyTorch's current stream, calls
externs as Inductor's wrapper does (`extern_kernels.mm(..., out=buf)`,
`torch.ops.aten.*`), and returns the outputs as views of their storages.
The function's source is the graph's `source` attribute
(`SCHEDULER_OPT_CALL_DIR` writes it to a file too; docs/Runtime.md).
"""
import hashlib
import linecache
import math
import os
import re
from typing import Any, Callable, Dict, List, Optional, Sequence

import torch

from . import cuda_driver, dtypes, sizes
from .manifest import Manifest, Step
from .plan import Plan

# The dtypes this torch has (uint16 to uint64 and the float8 types are
# recent).
TORCH_DTYPES = {name: getattr(torch, torch_name) for name, torch_name in
                dtypes.TORCH_NAME_BY_MANIFEST_NAME.items()
                if hasattr(torch, torch_name)}


class RuntimeError_(RuntimeError):
    pass


class Storage:
    """A storage as the checked binding binds it: element k is the element
    at offset `delta + k` from `tensor`'s first element in its untyped
    storage; `pointer` is the address of element 0 (a kernel argument).
    The call function keeps the same three as locals (`t_`, `d_`, `p_`)."""
    __slots__ = ("tensor", "delta", "pointer")

    def __init__(self, tensor: torch.Tensor, delta: int, pointer: int):
        self.tensor = tensor
        self.delta = delta
        self.pointer = pointer


def _placed(tensor: torch.Tensor, offset: int) -> Storage:
    """The storage whose element `offset` is `tensor`'s first element."""
    return Storage(tensor, -offset,
                   tensor.data_ptr() - offset * tensor.element_size())


def _as_strided(t, size, stride, increment):
    return t.as_strided(size, stride, t.storage_offset() + increment)


# Inductor's wrapper's reinterpret_tensor (a view relative to the tensor's
# storage offset, made in C++ without the dispatcher's Python overhead).
try:
    from torch._C._dynamo.guards import _reinterpret_tensor as _reinterpret
except ImportError:  # older PyTorch
    _reinterpret = _as_strided


def resolve_kernel(name: str) -> Callable:
    """The Python callable Inductor's wrapper calls for an extern."""
    if name.startswith("extern_kernels."):
        from torch._inductor.select_algorithm import extern_kernels
        return getattr(extern_kernels, name[len("extern_kernels."):])
    parts = name.split(".")
    if parts[0] == "aten":
        parts = ["torch", "ops"] + parts
    obj: Any = torch
    for part in parts[1:] if parts[0] == "torch" else parts:
        obj = getattr(obj, part)
    return obj


class _Hole:
    """A tensor argument of an extern call: a view of a storage."""
    __slots__ = ("storage", "size", "stride", "offset")

    def __init__(self, storage, size, stride, offset):
        self.storage = storage
        self.size = tuple(sizes.parse(v) for v in size)
        self.stride = tuple(sizes.parse(v) for v in stride)
        self.offset = sizes.parse(offset)


def _decode(value, buffers: Dict[str, str], where: str):
    """A JSON call argument as a constant or a template with _Holes."""
    if isinstance(value, list):
        return [_decode(v, buffers, where) for v in value]
    if not isinstance(value, dict):
        return value
    if "buffer" in value:
        storage = buffers.get(value["buffer"])
        if storage is None:
            raise RuntimeError_("%s passes buffer %r, which its manifest step "
                                "does not map to a storage"
                                % (where, value["buffer"]))
        return _Hole(storage, value["size"], value["stride"], value["offset"])
    if "dtype" in value:
        return getattr(torch, value["dtype"])
    if "device" in value:
        return torch.device(value["device"])
    if "layout" in value:
        return getattr(torch, value["layout"])
    if "memory_format" in value:
        return getattr(torch, value["memory_format"])
    if "float" in value:
        return float(value["float"])
    if "size" in value:
        return sizes.parse(value["size"])
    raise RuntimeError_("%s: cannot decode argument %r" % (where, value))


def _has_holes(template) -> bool:
    if isinstance(template, _Hole):
        return True
    if isinstance(template, list):
        return any(_has_holes(v) for v in template)
    return isinstance(template, sizes.Expr)


def _hole_storages(template, out: list) -> list:
    """The storages `template`'s holes view, in order (repeats kept)."""
    if isinstance(template, _Hole):
        out.append(template.storage)
    elif isinstance(template, list):
        for v in template:
            _hole_storages(v, out)
    return out


class _Extern:
    """One extern step's call, decoded once: the function, its arguments
    and keywords as templates (constants, _Holes, size expressions), the
    out= view, and where each storage it writes comes from."""

    def __init__(self, step: Step, graph_buffers: Dict[str, str]):
        call = step.call
        where = "extern %s (%s)" % (step.node, step.name)
        if call is None:
            raise RuntimeError_("%s has no recorded call in its manifest; "
                                "graphs with externs run only when compiled "
                                "from a dump with extern_calls.json" % where)
        self.where = where
        self.kernel = call["kernel"]
        self.fn = resolve_kernel(call["kernel"])
        # The step's own buffers first; views the call passes may name other
        # buffers of the same storage (the graph's map).
        buffers = {**graph_buffers, **step.buffer_storages()}
        self.args = _decode(call.get("args", []), buffers, where)
        self.kwargs = {k: _decode(v, buffers, where)
                       for k, v in call.get("kwargs", {}).items()}
        # The storages the call's arguments view.
        self.reads = tuple(dict.fromkeys(_hole_storages(
            [self.args, list(self.kwargs.values())], [])))
        self.out = (_decode(call["out"], buffers, where)
                    if "out" in call else None)
        layouts = {o["buffer"]: o for o in call.get("outputs", [])}
        if self.out is None and _takes_out(self.fn) and \
                "out" not in self.kwargs and len(layouts) == 1:
            # An out= overload Inductor falls back to (aten.randint.low_out
            # for random seeds): its output is passed as out=.
            (layout,) = layouts.values()
            self.out = _decode(layout, buffers, where)
        elements = call.get("elements", {})
        # (storage, path in the result, its layout as a _Hole or None)
        self.outputs = []
        for out in step.outputs:
            element = elements.get(out.buffer)
            if element is not None:
                path = element["indices"]
                layout = element.get("layout")
            else:
                path = [] if out.index < 0 else [out.index]
                layout = layouts.get(out.buffer)
            self.outputs.append((out.storage, tuple(path), _Hole(
                out.storage, layout["size"], layout["stride"],
                layout["offset"]) if layout else None))


def _raw_stream(device_index: int) -> int:
    """PyTorch's current stream on the device, as Inductor's wrapper gets
    it."""
    return torch.cuda.current_stream(device_index).cuda_stream


# Inductor's wrapper's empty_strided_cuda (an allocation on the current
# device through the caching allocator, made in C++ without the
# dispatcher's Python overhead), and the current device's index.
try:
    from torch._C._dynamo.guards import _empty_strided_cuda as _empty
except ImportError:  # older PyTorch
    def _empty(size, stride, dtype):
        return torch.empty_strided(size, stride, dtype=dtype, device="cuda")
_current_device = getattr(torch._C, "_cuda_getDevice", None) or \
    torch.cuda.current_device
_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) or _raw_stream


def _takes_out(fn) -> bool:
    schema = getattr(fn, "_schema", None)
    return schema is not None and any(
        a.name == "out" and a.kwarg_only for a in schema.arguments)


def _adoptable(value, size, stride) -> bool:
    """Whether an extern's returned tensor has the planned layout (its
    memory then becomes the storage, as Inductor's wrapper takes it)."""
    return tuple(value.shape) == size and (
        math.prod(size) <= 1 or all(n == 1 or a == b for n, a, b in
                                    zip(size, value.stride(), stride)))


def _not_a_tensor(where, value):
    raise RuntimeError_("%s returned %r where a tensor was expected"
                        % (where, type(value).__name__))


class _Mismatch(Exception):
    """An argument the generated binding does not accept: the checked
    binding (`CompiledGraph._bind_checked`) says why."""


_SYMBOL = re.compile(r"[a-z]+[0-9]+\Z")


class _Writer:
    """Writes a graph's call function: its lines, the objects it names
    (`env`, its globals) and, while writing, where each storage is (which
    variable holds its tensor, its delta and pointer)."""

    def __init__(self, graph: "CompiledGraph"):
        self.graph = graph
        self.plan = graph.plan
        self.env: Dict[str, Any] = {}
        self._named: Dict[int, str] = {}
        self.body: List[str] = []
        self.uses_s = False
        self.symbols: Dict[str, str] = {}   # symbol -> its local variable
        self.var: Dict[str, str] = {}       # live storage -> variable base
        self.delta: Dict[str, str] = {}     # base -> delta, as source
        self.exact: Dict[str, Any] = {}     # base -> (size, stride) of t_
        self.pointer: set = set()           # bases whose p_ is computed
        self.refs: Dict[str, int] = {}
        self.used: set = set()
        self.allocated: set = set()         # storages ever allocated here

    # Names.
    def name(self, obj, hint: str) -> str:
        """The global naming `obj` (one per object)."""
        name = self._named.get(id(obj))
        if name is None:
            name = self.fresh(hint)
            self._named[id(obj)] = name
            self.env[name] = obj
        return name

    def fresh(self, hint: str) -> str:
        hint = re.sub(r"\W", "_", hint)
        name, k = hint, 1
        while name in self.used or name in self.env:
            k += 1
            name = "%s_%d" % (hint, k)
        self.used.add(name)
        return name

    # Sizes.
    def size(self, value) -> str:
        """Source computing a size: inline from the symbols' variables, or
        through its compiled function (a symbol that no argument binds:
        `sizes` names it; or too deep a text)."""
        text = sizes.source(value, self.symbols)
        if text is not None:
            return text
        self.uses_s = True
        return "%s(s)" % self.name(sizes.function(value), "size")

    def sizes(self, values) -> str:
        """Source of a tuple of sizes."""
        items = [self.size(v) for v in values]
        return "(%s,)" % items[0] if len(items) == 1 else \
            "(%s)" % ", ".join(items)

    @staticmethod
    def plus(a: str, b: str) -> str:
        """Source of a + b (folded where one is 0 or both are integers)."""
        if a == "0" or b == "0":
            return b if a == "0" else a
        try:
            return repr(int(a) + int(b))
        except ValueError:
            return "%s + %s" % (a, b)

    def symbol_dict(self) -> str:
        return "{%s}" % ", ".join("%r: %s" % kv
                                  for kv in self.symbols.items())

    # Storages.
    def emit(self, line: str):
        self.body.append("    " + line)

    def live(self, storage: str) -> bool:
        return storage in self.var

    def hold(self, storage: str, delta: str, exact=None) -> str:
        """Starts a variable holding `storage` (its tensor is t_<base>)."""
        if storage in self.var:
            self.release(storage)
        base = self.fresh(storage)
        self.var[storage] = base
        self.refs[base] = 1
        self.delta[base] = delta
        self.exact[base] = exact
        return base

    def allocate(self, storage: str) -> str:
        if storage not in self.graph._allocations:
            raise RuntimeError_("graph %s: storage %s is used before any "
                                "step writes it, and the runtime does not "
                                "allocate it" % (self.plan.graph, storage))
        size, stride, dtype, elements = self.graph._allocations[storage]
        exact = None
        if size is None:  # a symbolic number of elements
            size_text = self.sizes((elements,))
        else:
            size_text = repr(tuple(size))
            exact = (tuple(size), tuple(stride))
        base = self.hold(storage, "0", exact)
        self.emit("t_%s = empty(%s, %r, %s)" % (
            base, size_text, tuple(stride), self.name(dtype, str(dtype).split(
                ".")[-1])))
        self.allocated.add(storage)
        return base

    def tensor(self, storage: str, what: str) -> str:
        base = self.var.get(storage)
        if base is None:
            raise RuntimeError_("graph %s: %s uses storage %s, which no "
                                "step wrote or which was released"
                                % (self.plan.graph, what, storage))
        return base

    def pointer_of(self, storage: str, what: str) -> str:
        base = self.tensor(storage, what)
        if base not in self.pointer:
            delta = self.delta[base]
            if delta == "0":
                self.emit("p_%s = t_%s.data_ptr()" % (base, base))
            else:
                self.emit("p_%s = t_%s.data_ptr() + (%s) * "
                          "t_%s.element_size()" % (base, base, delta, base))
            self.pointer.add(base)
        return "p_" + base

    def share(self, dst: str, src: str, why: str):
        """`dst` takes `src`'s memory (an in-place update, a handover, an
        output's alias)."""
        base = self.tensor(src, why)
        if dst in self.var:
            self.release(dst)
        self.var[dst] = base
        self.refs[base] += 1
        self.emit("# %s: %s takes %s's memory (t_%s)" % (why, dst, src,
                                                          base))

    def release(self, storage: str):
        base = self.var.pop(storage)
        self.refs[base] -= 1
        if not self.refs[base]:
            self.emit("del t_%s" % base)
            self.pointer.discard(base)

    def view(self, hole: _Hole, what: str) -> str:
        base = self.tensor(hole.storage, what)
        return "reinterpret(t_%s, %s, %s, %s)" % (
            base, self.sizes(hole.size), self.sizes(hole.stride),
            self.plus(self.delta[base], self.size(hole.offset)))

    # Extern arguments.
    def argument(self, template, what: str) -> str:
        if isinstance(template, _Hole):
            return self.view(template, what)
        if isinstance(template, sizes.Expr):
            return self.size(template)
        if isinstance(template, list):
            if not _has_holes(template):
                # The same list on each call, as decoded.
                return self.name(template, "const")
            return "[%s]" % ", ".join(self.argument(v, what)
                                      for v in template)
        if template is None or type(template) in (bool, int, str) or (
                type(template) is float and math.isfinite(template)):
            return repr(template)
        return self.name(template, "const")


def _write(graph: "CompiledGraph", kernels, externs) -> "tuple":
    """(source, globals) of the call function of `graph`."""
    plan = graph.plan
    w = _Writer(graph)
    env = w.env
    env.update(Tensor=torch.Tensor, empty=_empty, reinterpret=_reinterpret,
               current_device=_current_device, stream_of=_stream,
               device_guard=torch.cuda.device, DEVICE=graph.device,
               MISMATCH=_Mismatch, checked=graph._checked,
               adoptable=_adoptable, not_a_tensor=_not_a_tensor)
    for name in list(env):
        w.used.add(name)
    w.used.update(("call", "args", "n", "s", "st", "sh", "r", "v", "vs",
                   "tv", "e", "stream", "gx", "gy", "gz", "constants",
                   "isinstance", "int", "len", "min", "max"))
    constants = bool(graph.constants)
    if constants:
        env["constants"] = graph.constants

    # Binding: as `_bind_checked` binds, written out for these bindings
    # (the symbols each shape binds and the dimensions it checks are known
    # here); where an argument does not match, the checked binding runs
    # and says why.
    fast, slow = [], []
    bound: Dict[str, str] = {}
    dtypes_of = dict(plan.dtypes)
    for b in plan.inputs:
        p = b.position
        arg = "args[%d]" % p if not constants else \
            "(args[%d] if %d < n else constants[%d - n])" % (p, p, p)
        if b.symbol:
            if b.symbol.isidentifier():
                local = b.symbol if _SYMBOL.match(b.symbol) and \
                    b.symbol not in w.used else w.fresh("sym_" + b.symbol)
                w.used.add(local)
                bound.setdefault(b.symbol, local)
                fast.append("%s = int(%s)" % (bound[b.symbol], arg))
                slow.append("%s = s[%r]" % (bound[b.symbol], b.symbol))
            else:
                fast.append("int(%s)" % arg)
            continue
        base = w.hold(b.storage, "0")
        t = "t_" + base
        fast.append("%s = %s" % (t, arg))
        slow.append("%s = st[%r].tensor" % (t, b.storage))
        if graph.dynamic:
            fast.append("if not isinstance(%s, Tensor): raise MISMATCH" % t)
        if graph.dynamic and b.shape:
            fast += ["sh = %s.shape" % t,
                     "if len(sh) != %d: raise MISMATCH" % len(b.shape)]
            pending = []
            for k, d in enumerate(b.shape):
                if isinstance(d, sizes.Expr) and len(d.symbols) == 1 and \
                        d.text == next(iter(d.symbols)):
                    if d.text in bound:
                        fast.append("if %s != sh[%d]: raise MISMATCH"
                                    % (bound[d.text], k))
                    else:
                        local = d.text if _SYMBOL.match(d.text) and \
                            d.text not in w.used else \
                            w.fresh("sym_" + d.text)
                        w.used.add(local)
                        bound[d.text] = local
                        slow.append("%s = s[%r]" % (local, d.text))
                    fast.append("%s = int(sh[%d])" % (bound[d.text], k))
                else:
                    pending.append((k, d))
            for k, d in pending:
                if isinstance(d, sizes.Expr) and not d.symbols <= bound.keys():
                    continue  # checked where another argument binds them
                text = sizes.source(d, bound)
                if text is None:  # too deep a text: its function
                    text = "%s(%s)" % (w.name(sizes.function(d), "size"),
                                       "{%s}" % ", ".join(
                                           "%r: %s" % kv
                                           for kv in bound.items()))
                fast.append("if %s != sh[%d]: raise MISMATCH" % (text, k))
        if b.host:
            fast.append("%s = %s.to(DEVICE, non_blocking=True)" % (t, t))
        w.symbols = bound
        offset = w.size(b.offset)
        w.delta[base] = "0" if offset == "0" else "-" + offset
        if offset == "0":
            fast.append("p_%s = %s.data_ptr()" % (base, t))
        elif isinstance(b.offset, int) and dtypes_of.get(b.storage) in \
                TORCH_DTYPES:
            fast.append("p_%s = %s.data_ptr() - %d" % (
                base, t, b.offset * TORCH_DTYPES[
                    dtypes_of[b.storage]].itemsize))
        else:
            fast.append("p_%s = %s.data_ptr() - %s * %s.element_size()"
                        % (base, t, offset, t))
        slow.append("p_%s = st[%r].pointer" % (base, b.storage))
        w.pointer.add(base)
    w.symbols = bound

    for name in plan.free_at_start:
        if w.live(name):
            w.release(name)
    if kernels:
        w.emit("stream = stream_of(%d)" % graph._device_index)

    for run in plan.steps:
        step = run.step
        what = "step %s (%s)" % (step.node or step.name, step.name)
        w.emit("# %s" % " ".join(filter(None, (step.kind, step.node,
                                                step.name))))
        if step.kind == "kernel":
            kernel = kernels[step.name]
            for dst, src in run.reuse:
                w.share(dst, src, "in place")
            reused = {dst for dst, _ in run.reuse}
            for name in dict.fromkeys(step.args):
                if not w.live(name) and name in graph._allocations and \
                        name not in w.allocated and name not in reused:
                    w.allocate(name)
            values = [w.pointer_of(name, what) for name in step.args]
            for name in step.symbols:
                if name not in w.symbols:
                    raise RuntimeError_("graph %s: kernel %s takes size "
                                        "symbol %s, which no argument binds"
                                        % (plan.graph, step.name, name))
                values.append(w.symbols[name])
            grid = []
            checks = []
            for axis, (g, limit) in enumerate(zip(step.grid,
                                                  sizes.MAX_GRID)):
                if isinstance(g, int):
                    grid.append(repr(g))
                    continue
                var = ("gx", "gy", "gz")[axis]
                w.emit("%s = %s" % (var, w.size(g)))
                grid.append(var)
                checks.append("0 <= %s <= %d" % (var, limit))
            if checks:
                fail = w.name(_grid_error(plan.graph, step.grid),
                              "grid_error")
                w.emit("if not (%s): %s(%s)" % (" and ".join(checks), fail,
                                                 w.symbol_dict()))
            k = w.name(kernel, "k_" + step.name)
            grid_text = "(%s)" % ", ".join(grid)
            if kernel.cluster != (1, 1, 1):
                w.emit("%s.launch(%s, (%s,), stream)"
                       % (k, grid_text, ", ".join(values)))
            else:
                if values:
                    w.emit("%s[:] = (%s,)" % (w.name(kernel.values,
                                                     "values_" + step.name),
                                              ", ".join(values)))
                w.emit("e = %s(%s, %s, %s, 0, stream, %s, None)" % (
                    w.name(kernel.driver, "launch"),
                    w.name(kernel.function, "function_" + step.name),
                    ", ".join(grid), ", ".join(map(str, kernel.block)),
                    w.name(kernel.params, "params_" + step.name)))
                w.emit("if e: %s.relaunch(e, %s, stream)" % (k, grid_text))
        else:
            extern = externs[id(step)]
            # A storage an extern reads that no step wrote yet (a
            # torch.empty buffer that aten.copy_ fills, Inductor's
            # `buf0 = empty_strided_cuda(...)` before `buf0.copy_(arg0_1)`)
            # is allocated before the call.
            for name in extern.reads:
                if not w.live(name) and name in graph._allocations and \
                        name not in w.allocated:
                    w.allocate(name)
            where = extern.where
            texts = [w.argument(a, where) for a in extern.args]
            for key, value in extern.kwargs.items():
                text = w.argument(value, where)
                texts.append("%s=%s" % (key, text) if key.isidentifier()
                             else "**{%r: %s}" % (key, text))
            # extern_kernels.mm as mm, torch.ops.aten.x.default as aten_x.
            label = re.sub(r"^(extern_kernels|torch\.ops)\.", "",
                           extern.kernel)
            fn = w.name(extern.fn, re.sub(r"\.default$", "", label))
            if extern.out is not None:
                for name, _, _ in extern.outputs:
                    if not w.live(name):
                        w.allocate(name)
                texts.append("out=" + w.view(extern.out, where))
                w.emit("%s(%s)" % (fn, ", ".join(texts)))
            else:
                w.emit("r = %s(%s)" % (fn, ", ".join(texts)))
                where_text = w.name(where, "where")
                for name, path, layout in extern.outputs:
                    w.emit("v = r%s" % "".join("[%d]" % i for i in path))
                    w.emit("if not isinstance(v, Tensor): not_a_tensor(%s, v)"
                           % where_text)
                    _place(w, name, layout)
                    w.emit("del v")
                w.emit("del r")
        for name in run.free_after:
            w.release(name)
        for dst, src in run.handover:
            w.share(dst, src, "handover")
            w.release(src)

    for dst, src in plan.aliases:
        w.share(dst, src, "alias")
    outputs = []
    for k, out in enumerate(plan.outputs):
        if out.view is None:
            outputs.append("None" if out.size is None else w.size(out.size))
            continue
        v = out.view
        if not w.live(v.storage):  # written by no step: it has no elements
            w.allocate(v.storage)
        base = w.var[v.storage]
        t = "t_" + base
        offset = w.plus(w.delta[base], w.size(v.offset))
        view = "reinterpret(%s, %s, %s, %s)" % (t, w.sizes(v.size),
                                                  w.sizes(v.stride), offset)
        static = all(isinstance(x, int) for x in v.size + v.stride)
        if static and offset == "0" and \
                w.exact[base] == (tuple(v.size), tuple(v.stride)):
            outputs.append(t)  # the view is the tensor itself
        elif static and (offset == "0" or not offset.lstrip("-").isdigit()):
            w.emit("out_%d = %s if %s%s.shape == %r and %s.stride() == %r "
                   "else %s" % (k, t, "" if offset == "0" else
                                "%s == 0 and " % offset, t, tuple(v.size),
                                t, tuple(v.stride), view))
            outputs.append("out_%d" % k)
        else:
            outputs.append(view)
    w.emit("return [%s]" % ", ".join(outputs))

    lines = ["def call(args):"]
    lines += ["    if current_device() != %d:" % graph._device_index,
              "        with device_guard(DEVICE):",
              "            return call(args)"]
    if constants:
        lines.append("    n = len(args)")
    if fast:
        lines.append("    try:")
        lines += ["        " + line for line in fast]
        lines.append("    except Exception:")
        lines.append("        st, s = checked(args)  # raises what is wrong")
        lines += ["        " + line for line in slow]
    lines.append("    args.clear()  # the boxed convention: inputs die early")
    if w.uses_s:
        lines.append("    s = %s" % w.symbol_dict())
    return "\n".join(lines + w.body) + "\n", env


def _place(w: _Writer, storage: str, layout: Optional[_Hole]):
    """Code making the extern's returned tensor `v` the storage it writes:
    adopted as Inductor's wrapper takes it, copied into the storage where
    the storage is already written (an in-place update) or where the
    tensor has another layout than the planned one."""
    if layout is None:
        if not w.live(storage):
            base = w.hold(storage, "0")
            w.emit("t_%s = v" % base)
        return  # else an in-place update of the storage it writes
    size_text, stride_text = w.sizes(layout.size), w.sizes(layout.stride)
    offset = w.size(layout.offset)
    if w.live(storage):
        base = w.var[storage]
        w.emit("tv = reinterpret(t_%s, %s, %s, %s)" % (
            base, size_text, stride_text, w.plus(w.delta[base], offset)))
        w.emit("if tv.data_ptr() != v.data_ptr(): tv.copy_(v)")
        w.emit("del tv")
        return
    if all(isinstance(x, int) for x in layout.size + layout.stride):
        # _adoptable, written out: the strides of dimensions over 1.
        size, stride = tuple(layout.size), tuple(layout.stride)
        test = "v.shape == %r" % (size,)
        checked = [k for k, n in enumerate(size) if n != 1]
        if math.prod(size) > 1 and len(checked) == len(size):
            test += " and v.stride() == %r" % (stride,)
        elif math.prod(size) > 1:
            test += " and (vs := v.stride())[%d] == %d" % (
                checked[0], stride[checked[0]])
            test += "".join(" and vs[%d] == %d" % (k, stride[k])
                            for k in checked[1:])
    else:
        test = "adoptable(v, %s, %s)" % (size_text, stride_text)
    base = w.hold(storage, "0")
    base_delta = "0" if offset == "0" else "d_" + base
    w.delta[base] = base_delta
    w.emit("if %s:" % test)
    w.emit("    t_%s = v  # adopted, as Inductor's wrapper takes it" % base)
    if base_delta != "0":
        w.emit("    %s = -%s" % (base_delta, offset))
    w.emit("else:")
    if storage not in w.graph._allocations:
        w.emit("    raise RuntimeError_(%r)" % (
            "graph %s: %s returned storage %s in another layout, and the "
            "runtime does not allocate it" % (w.plan.graph, "an extern",
                                              storage)))
        w.env["RuntimeError_"] = RuntimeError_
    else:
        size, stride, dtype, elements = w.graph._allocations[storage]
        alloc = w.sizes((elements,)) if size is None else repr(tuple(size))
        w.emit("    t_%s = empty(%s, %r, %s)" % (
            base, alloc, tuple(stride), w.name(dtype, str(dtype).split(
                ".")[-1])))
        if base_delta != "0":
            w.emit("    %s = 0" % base_delta)
        w.emit("    reinterpret(t_%s, %s, %s, %s).copy_(v)" % (
            base, size_text, stride_text, offset))
        w.allocated.add(storage)


def _grid_error(graph: str, values):
    """Raises what `sizes.grid` says of a grid over CUDA's limits."""
    def fail(symbols):
        try:
            sizes.grid(values, symbols)
        except sizes.SizeError as e:
            raise RuntimeError_("graph %s: %s" % (graph, e))
    return fail


class CompiledGraph:
    """A graph compiled by scheduler-opt, called with Inductor's boxed
    calling convention (one list of arguments, cleared by the call)."""

    def __init__(self, manifest: Manifest, plan: Plan,
                 image: Optional[bytes] = None,
                 constants: Sequence[torch.Tensor] = (),
                 device: Optional[torch.device] = None):
        # In the instance's __dict__: AOT autograd's wrappers copy it with
        # functools.wraps, which ignores class attributes.
        self._boxed_call = True
        self.manifest = manifest
        self.plan = plan
        self.device = device or torch.device("cuda",
                                             torch.cuda.current_device())
        self._device_index = self.device.index
        # Appended to each call's arguments (signature.json lists them
        # last, as constants).
        self.constants = list(constants)
        self.dynamic = any(not sizes.is_static(d) for b in plan.inputs
                           for d in b.shape + b.strides + (b.offset,)) or \
            any(b.symbol for b in plan.inputs)
        kernels = {}
        if manifest.kernels():
            if image is None:
                raise RuntimeError_("graph %s has kernels but no binary"
                                    % manifest.graph)
            with torch.cuda.device(self.device):
                torch.zeros(1, device=self.device)  # the context is current
                self.module = cuda_driver.Module(image)
                for step in manifest.kernels():
                    if step.name not in kernels:
                        kernels[step.name] = cuda_driver.Kernel(
                            self.module, step.name, step.block,
                            len(step.args) + len(step.symbols),
                            cluster=step.cluster)
        externs = {id(s): _Extern(s, manifest.buffer_storages())
                   for s in manifest.externs()}
        # An output storage whose whole extent one output views from its
        # start is allocated with that output's strides, so that the output
        # is the allocated tensor itself (as Inductor's empty_strided).
        layouts = {}
        for out in plan.outputs:
            v = out.view
            if v is not None and v.offset == 0 and all(
                    isinstance(x, int) for x in v.size + v.stride):
                span = 0 if 0 in v.size else 1 + sum(
                    (n - 1) * st for n, st in zip(v.size, v.stride))
                layouts.setdefault(v.storage, (span, v.size, v.stride))
        # name -> (size, stride, dtype, elements): size None for a
        # symbolic number of elements (the shape is then (elements,)).
        self._allocations = {}
        for name, dtype, elements in plan.allocations:
            layout = layouts.get(name)
            if layout is not None and layout[0] == elements:
                size, stride = tuple(layout[1]), tuple(layout[2])
            elif isinstance(elements, int):
                size, stride = (elements,), (1,)
            else:
                size, stride = None, (1,)
            self._allocations[name] = (size, stride, TORCH_DTYPES[dtype],
                                       elements)
        # The call function, written for this plan (_write).
        self.source, env = _write(self, kernels, externs)
        digest = hashlib.sha256(self.source.encode()).hexdigest()[:16]
        directory = os.environ.get("SCHEDULER_OPT_CALL_DIR")
        if directory:
            os.makedirs(directory, exist_ok=True)
            filename = os.path.join(directory, "%s-%s.py"
                                    % (re.sub(r"\W", "_", plan.graph),
                                       digest))
            with open(filename, "w") as f:
                f.write(self.source)
        else:
            # Tracebacks show the generated lines.
            filename = "<scheduler_opt call %s %s>" % (plan.graph, digest)
            linecache.cache[filename] = (len(self.source), None,
                                         self.source.splitlines(True),
                                         filename)
        exec(compile(self.source, filename, "exec"), env)
        self._call = env["call"]

    def __call__(self, args: List[Any]):
        return self._call(args)

    def _checked(self, args: Sequence[Any]):
        """The call's input storages and size symbols, bound binding by
        binding (`_bind_checked`): the call function's error path."""
        symbols: Dict[str, int] = {}
        return self._bind_checked(args, symbols), symbols

    def _bind_checked(self, args: Sequence[Any], symbols: Dict[str, int]):
        """The call's bindings one by one, raising where an argument does
        not match."""
        storages = {}
        n = len(args)
        for binding in self.plan.inputs:
            p = binding.position
            arg = args[p] if p < n else self.constants[p - n]
            if binding.symbol:
                symbols[binding.symbol] = int(arg)
                continue
            if not isinstance(arg, torch.Tensor):
                raise RuntimeError_("graph %s: argument %d is %s, expected a "
                                    "tensor" % (self.plan.graph,
                                                binding.position,
                                                type(arg).__name__))
            if self.dynamic and binding.shape:
                sizes.bind(binding.shape, tuple(arg.shape), symbols,
                           "argument %d" % binding.position)
            if binding.host:
                # Queued on the current stream from the host's memory, no
                # synchronization (Inductor passes the value itself).
                arg = arg.to(self.device, non_blocking=True)
            storages[binding.storage] = _placed(
                arg, sizes.evaluate(binding.offset, symbols))
        return storages
