"""Runs a compiled graph: kernels from PTX, externs through PyTorch.

A `CompiledGraph` loads its module once (the cubin when ptxas made one,
else the PTX, which the driver compiles) and, on each call, follows its
`plan.Plan`: binds the caller's tensors as input storages, allocates output
and temporary storages through PyTorch's caching allocator when first
written (so they are freed and reused as Inductor's wrapper frees them),
launches kernels on PyTorch's current stream, calls externs as Inductor's
wrapper does (`extern_kernels.mm(..., out=buf)`, `torch.ops.aten.*`), and
returns the outputs as views of their storages.
"""
import math
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
    """A storage at run time: element k is the element at offset `delta +
    k` from `tensor`'s first element in its untyped storage; `pointer`
    is the address of element 0 (a kernel argument), computed once."""
    __slots__ = ("tensor", "delta", "pointer")

    def __init__(self, tensor: torch.Tensor, delta: int, pointer: int):
        self.tensor = tensor
        self.delta = delta
        self.pointer = pointer

    def view(self, size, stride, offset) -> torch.Tensor:
        return _reinterpret(self.tensor, size, stride, self.delta + offset)


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


def _eval(size, symbols):
    return size if isinstance(size, int) else size.evaluate(symbols)


class _Hole:
    """A tensor argument: a view of a storage, built on each call."""
    __slots__ = ("storage", "size", "stride", "offset", "static", "_layout")

    def __init__(self, storage, size, stride, offset):
        self.storage = storage
        self.size = tuple(sizes.parse(v) for v in size)
        self.stride = tuple(sizes.parse(v) for v in stride)
        self.offset = sizes.parse(offset)
        self.static = all(isinstance(v, int) for v in
                          self.size + self.stride + (self.offset,))
        self._layout = None if self.static else sizes.function(
            (self.size, self.stride, self.offset))

    def get(self, storages, symbols):
        s = storages[self.storage]
        if self.static:
            return _reinterpret(s.tensor, self.size, self.stride,
                                s.delta + self.offset)
        size, stride, offset = self._layout(symbols)
        return _reinterpret(s.tensor, size, stride, s.delta + offset)


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


def _top_holes(template):
    """Positions of `template`'s holes, or None when a nested list holds
    one."""
    positions = []
    for i, v in enumerate(template):
        if isinstance(v, list):
            if _has_holes(v):
                return None
        elif _has_holes(v):
            positions.append(i)
    return positions


def _hole_storages(template, out: list) -> list:
    """The storages `template`'s holes view, in order (repeats kept)."""
    if isinstance(template, _Hole):
        out.append(template.storage)
    elif isinstance(template, list):
        for v in template:
            _hole_storages(v, out)
    return out


def _fill(template, storages, symbols):
    if isinstance(template, _Hole):
        return template.get(storages, symbols)
    if isinstance(template, list):
        return [_fill(v, storages, symbols) for v in template]
    if isinstance(template, sizes.Expr):
        return template.evaluate(symbols)
    return template


def _put(target, views, symbolic, storages, values):
    """Writes an extern call's top-level holes into `target` (its
    arguments' list or keywords' dict): `views` static, `symbolic` from
    `values`, the layouts and sizes computed for this call."""
    for key, name, size, stride, offset in views:
        t = storages[name]
        target[key] = _reinterpret(t.tensor, size, stride, t.delta + offset)
    for key, name, k in symbolic:
        if name is None:
            target[key] = values[k]
        else:
            size, stride, offset = values[k]
            t = storages[name]
            target[key] = _reinterpret(t.tensor, size, stride,
                                       t.delta + offset)


class _Extern:
    """One extern step, decoded once."""

    def __init__(self, step: Step, graph_buffers: Dict[str, str]):
        call = step.call
        where = "extern %s (%s)" % (step.node, step.name)
        if call is None:
            raise RuntimeError_("%s has no recorded call in its manifest; "
                                "graphs with externs run only when compiled "
                                "from a dump with extern_calls.json" % where)
        self.where = where
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
        # Arguments filled on each call: the top-level holes (views,
        # sizes) by position or keyword when no nested list holds one,
        # else all of them recursively (`fill_args`, `fill_kwargs`).
        arg_holes = _top_holes(self.args)
        kwarg_holes = [k for k, v in self.kwargs.items() if _has_holes(v)]
        if any(isinstance(self.kwargs[k], list) for k in kwarg_holes):
            kwarg_holes = None
        self.fill_args = arg_holes is None
        self.fill_kwargs = kwarg_holes is None
        # The layouts of symbolic views and the values of sizes (arguments,
        # out=, returned outputs), computed on each call by one function of
        # the symbols compiled here (`self.layouts`, sizes.function).
        templates = []

        def slot(template):
            templates.append(template)
            return len(templates) - 1

        def split(holes, source):
            """(static views: (key, storage, size, stride, offset), the
            others: (key, storage or None for a size, slot))."""
            views, symbolic = [], []
            for key in holes or ():
                h = source[key]
                if not isinstance(h, _Hole):
                    symbolic.append((key, None, slot(h)))
                elif h.static:
                    views.append((key, h.storage, h.size, h.stride,
                                  h.offset))
                else:
                    symbolic.append((key, h.storage,
                                     slot((h.size, h.stride, h.offset))))
            return views, symbolic
        self.arg_views, self.arg_symbolic = split(arg_holes, self.args)
        self.kwarg_views, self.kwarg_symbolic = split(kwarg_holes,
                                                      self.kwargs)
        self.out = (_decode(call["out"], buffers, where)
                    if "out" in call else None)
        layouts = {o["buffer"]: o for o in call.get("outputs", [])}
        if self.out is None and _takes_out(self.fn) and \
                "out" not in self.kwargs and len(layouts) == 1:
            # An out= overload Inductor falls back to (aten.randint.low_out
            # for random seeds): its output is passed as out=.
            (layout,) = layouts.values()
            self.out = _decode(layout, buffers, where)
        self.out_slot = None
        if self.out is not None and not self.out.static:
            o = self.out
            self.out_slot = slot((o.size, o.stride, o.offset))
        elements = call.get("elements", {})
        # (storage, path in the result, its layout: (size, stride, offset)
        # when static, the slot of `layouts` when symbolic, or None)
        self.outputs = []
        for out in step.outputs:
            element = elements.get(out.buffer)
            if element is not None:
                path = element["indices"]
                layout = element.get("layout")
            else:
                path = [] if out.index < 0 else [out.index]
                layout = layouts.get(out.buffer)
            if not layout:
                self.outputs.append((out.storage, path, None))
                continue
            hole = _Hole(out.storage, layout["size"], layout["stride"],
                         layout["offset"])
            view = (hole.size, hole.stride, hole.offset)
            self.outputs.append((out.storage, path,
                                 view if hole.static else slot(view)))
        self.layouts = sizes.function(tuple(templates)) if templates \
            else None

    def run(self, storages, symbols, allocate):
        values = self.layouts(symbols) if self.layouts is not None else ()
        if self.fill_args:
            args = _fill(self.args, storages, symbols)
        elif self.arg_views or self.arg_symbolic:
            args = list(self.args)
            _put(args, self.arg_views, self.arg_symbolic, storages, values)
        else:
            args = self.args
        if self.fill_kwargs:
            kwargs = {k: _fill(v, storages, symbols)
                      for k, v in self.kwargs.items()}
        elif self.kwarg_views or self.kwarg_symbolic:
            kwargs = dict(self.kwargs)
            _put(kwargs, self.kwarg_views, self.kwarg_symbolic, storages,
                 values)
        else:
            kwargs = self.kwargs
        if self.out is not None:
            for storage, _, _ in self.outputs:
                if storage not in storages:
                    allocate(storage)
            o = self.out
            t = storages[o.storage]
            size, stride, offset = (o.size, o.stride, o.offset) \
                if self.out_slot is None else values[self.out_slot]
            self.fn(*args, **kwargs, out=_reinterpret(
                t.tensor, size, stride, t.delta + offset))
            return
        result = self.fn(*args, **kwargs)
        for storage, path, layout in self.outputs:
            value = result
            for i in path:
                value = value[i]
            if type(layout) is int:
                layout = values[layout]
            self._place(value, storage, layout, storages, allocate)

    def _place(self, value, storage, layout, storages, allocate):
        if not isinstance(value, torch.Tensor):
            raise RuntimeError_("%s returned %r where a tensor was expected"
                                % (self.where, type(value).__name__))
        if layout is None:
            if storage in storages:
                return  # an in-place update of the storage it writes
            storages[storage] = Storage(value, 0, value.data_ptr())
            return
        size, stride, offset = layout
        if storage not in storages and tuple(value.shape) == size and \
                (math.prod(size) <= 1 or _same_strides(value, size, stride)):
            # Adopt the result's memory, as Inductor's wrapper does.
            storages[storage] = _placed(value, offset)
            return
        if storage not in storages:
            allocate(storage)
        target = storages[storage].view(size, stride, offset)
        if target.data_ptr() != value.data_ptr():
            target.copy_(value)


def _raw_stream(device) -> int:
    """PyTorch's current stream on `device`, as Inductor's wrapper gets it."""
    get = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if get is not None:
        return get(device.index)
    return torch.cuda.current_stream(device).cuda_stream


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


def _takes_out(fn) -> bool:
    schema = getattr(fn, "_schema", None)
    return schema is not None and any(
        a.name == "out" and a.kwarg_only for a in schema.arguments)


def _same_strides(value, size, stride) -> bool:
    return all(n == 1 or a == b
               for n, a, b in zip(size, value.stride(), stride))


def _binder(inputs, constants: bool, dynamic: bool, device):
    """A function `(args, constants) -> (storages, symbols)` that binds the
    call's arguments as `CompiledGraph._bind_checked` does, written out for
    these `inputs` (the plan's bindings): the symbols each tensor's shape
    binds and the dimensions it checks are known here, since which symbols
    are bound before each binding does not depend on the values. It returns
    None wherever `_bind_checked` would raise (a shape or argument that does
    not match), for `_bind_checked` to say why."""
    lines = ["def bind(args, constants):", "    n = len(args)",
             "    s = {}", "    st = {}"]
    env = {"Tensor": torch.Tensor, "Storage": Storage, "int": int,
           "isinstance": isinstance, "len": len, "device": device}
    bound = set()

    def value(size):
        """An expression of `size` in the generated code."""
        if isinstance(size, int):
            return repr(size)
        name = "f%d" % len(env)
        env[name] = size.evaluate
        return "%s(s)" % name

    for b in inputs:
        p = b.position
        lines.append("    a = args[%d]" % p if not constants else
                     "    a = args[%d] if %d < n else constants[%d - n]"
                     % (p, p, p))
        if b.symbol:
            lines.append("    s[%r] = int(a)" % b.symbol)
            bound.add(b.symbol)
            continue
        lines.append("    if not isinstance(a, Tensor): return None")
        if dynamic and b.shape:
            # sizes.bind: dimensions that are a symbol alone bind it (or
            # are checked against it), then the others are checked where
            # their symbols are bound.
            lines += ["    sh = a.shape",
                      "    if len(sh) != %d: return None" % len(b.shape)]
            pending = []
            for k, d in enumerate(b.shape):
                if isinstance(d, sizes.Expr) and len(d.symbols) == 1 and \
                        d.text == next(iter(d.symbols)):
                    if d.text in bound:
                        lines.append("    if s[%r] != sh[%d]: return None"
                                     % (d.text, k))
                    lines.append("    s[%r] = int(sh[%d])" % (d.text, k))
                    bound.add(d.text)
                else:
                    pending.append((k, d))
            for k, d in pending:
                if isinstance(d, int) or d.symbols <= bound:
                    lines.append("    if %s != sh[%d]: return None"
                                 % (value(d), k))
        if b.host:
            lines.append("    a = a.to(device, non_blocking=True)")
        offset = value(b.offset)
        if offset == "0":
            lines.append("    st[%r] = Storage(a, 0, a.data_ptr())"
                         % b.storage)
        else:
            lines += ["    o = %s" % offset,
                      "    st[%r] = Storage(a, -o, a.data_ptr() - "
                      "o * a.element_size())" % b.storage]
    lines.append("    return st, s")
    exec(compile("\n".join(lines), "<bind>", "exec"), env)
    return env["bind"]


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
        # symbolic number of elements, and elements then the function of
        # the symbols giving the shape.
        self._allocations = {}
        for name, dtype, elements in plan.allocations:
            layout = layouts.get(name)
            if layout is not None and layout[0] == elements:
                size, stride = tuple(layout[1]), tuple(layout[2])
            elif isinstance(elements, int):
                size, stride = (elements,), (1,)
            else:
                # A symbolic number of elements: its shape, evaluated per
                # call.
                size, stride = None, (1,)
                elements = sizes.function((elements,))
            self._allocations[name] = (size, stride, TORCH_DTYPES[dtype],
                                       elements)
        self._device_index = self.device.index
        # Static graphs bind each tensor argument with one look-up:
        # (position, storage, offset in elements, offset in bytes).
        self._binds = None
        if not self.dynamic and not any(b.host for b in plan.inputs):
            self._binds = []
            for b in plan.inputs:
                esize = TORCH_DTYPES[plan.dtype(b.storage)].itemsize \
                    if b.offset else 0
                self._binds.append((b.position, b.storage, b.offset,
                                    b.offset * esize))
        # Other graphs with a function written for their bindings.
        self._bind_fast = None if self._binds is not None else _binder(
            plan.inputs, bool(self.constants), self.dynamic, self.device)
        # (output, its view's layout: a tuple when static, else the
        # function of the symbols giving it)
        self._outputs = []
        for out in plan.outputs:
            layout = None
            if out.view is not None:
                v = out.view
                layout = (v.size, v.stride, v.offset)
                if not all(isinstance(x, int)
                           for x in v.size + v.stride + (v.offset,)):
                    layout = sizes.function(layout)
            self._outputs.append((out, layout))
        # The call sequence, decided here so that a call only looks things
        # up: (kernel launch, static grid or None, the grid as a function
        # of the symbols (sizes.grid_function),
        # argument storages, size symbols passed after the storages'
        # pointers, storages first written here (allocated before the
        # launch unless present), (storage, dying temporary it takes over),
        # storages released after it, (storage, released temporary whose
        # memory it takes)) or (None, _Extern, released storages,
        # handovers). Externs allocate what they write themselves (or adopt
        # the tensors they return).
        self._program = []
        allocated = set()
        for run in plan.steps:
            step = run.step
            if step.kind == "kernel":
                static = all(isinstance(g, int) for g in step.grid)
                reused = {dst for dst, _ in run.reuse}
                first = tuple(dict.fromkeys(
                    n for n in step.args if n in self._allocations and
                    n not in allocated and n not in reused))
                self._program.append((kernels[step.name].launch,
                                      tuple(step.grid) if static else None,
                                      None if static else
                                      sizes.grid_function(step.grid),
                                      tuple(step.args),
                                      step.symbols, first, run.reuse,
                                      run.free_after, run.handover))
                allocated.update(step.args)
            else:
                # A storage an extern reads that no step wrote yet (a
                # torch.empty buffer that aten.copy_ fills, Inductor's
                # `buf0 = empty_strided_cuda(...)` before
                # `buf0.copy_(arg0_1)`) is allocated before the call.
                extern = externs[id(step)]
                first = tuple(n for n in extern.reads
                              if n in self._allocations and
                              n not in allocated)
                self._program.append((None, extern, first, run.free_after,
                                      run.handover))
                allocated.update(first)
                allocated.update(o.storage for o in step.outputs)
        self._aliases = plan.aliases

    def _bind(self, args: Sequence[Any]):
        """The call's input storages and size symbols."""
        if self._binds is not None:
            storages = {}
            n = len(args)
            constants = self.constants
            try:
                for p, name, offset, offset_bytes in self._binds:
                    arg = args[p] if p < n else constants[p - n]
                    storages[name] = Storage(arg, -offset,
                                             arg.data_ptr() - offset_bytes)
            except AttributeError:
                pass  # not a tensor: the general path says which
            else:
                return storages, {}
        else:
            try:
                bound = self._bind_fast(args, self.constants)
            except Exception:
                bound = None  # the general path says what is wrong
            if bound is not None:
                return bound
        symbols: Dict[str, int] = {}
        return self._bind_checked(args, symbols), symbols

    def _bind_checked(self, args: Sequence[Any], symbols: Dict[str, int]):
        """`_bind` binding by binding, raising where an argument does not
        match."""
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
                arg, _eval(binding.offset, symbols))
        return storages

    def _grid(self, grid, symbols):
        """A grid computed from size symbols (`grid`, a
        sizes.grid_function), checked against CUDA's."""
        try:
            return grid(symbols)
        except sizes.SizeError as e:
            raise RuntimeError_("graph %s: %s" % (self.plan.graph, e))

    def __call__(self, args: List[Any]):
        if _current_device() != self._device_index:
            with torch.cuda.device(self.device):
                return self._run(args)
        return self._run(args)

    def _run(self, args: List[Any]):
        storages, symbols = self._bind(args)
        args.clear()  # the boxed convention: let inputs die early
        allocations = self._allocations

        def allocate(name):
            size, stride, dtype, elements = allocations[name]
            if size is None:  # a symbolic number of elements
                size = elements(symbols)
            t = _empty(size, stride, dtype)
            storages[name] = Storage(t, 0, t.data_ptr())

        for name in self.plan.free_at_start:
            storages.pop(name, None)
        stream = _raw_stream(self.device)
        for entry in self._program:
            launch = entry[0]
            if launch is not None:
                (_, grid, sym_grid, names, syms, first, reuse, frees,
                 handover) = entry
                for dst, src in reuse:
                    storages[dst] = storages[src]
                for name in first:
                    if name not in storages:
                        allocate(name)
                args = [storages[name].pointer for name in names]
                if syms:
                    args += [symbols[name] for name in syms]
                if grid is None:
                    grid = self._grid(sym_grid, symbols)
                launch(grid, args, stream)
            else:
                _, extern, first, frees, handover = entry
                for name in first:
                    if name not in storages:
                        allocate(name)
                extern.run(storages, symbols, allocate)
            for name in frees:
                del storages[name]
            for dst, src in handover:
                storages[dst] = storages.pop(src)
        for dst, src in self._aliases:
            storages[dst] = storages[src]
        outputs = []
        for out, layout in self._outputs:
            if out.view is not None:
                v = out.view
                s = storages.get(v.storage)
                if s is None:  # written by no step: it has no elements
                    allocate(v.storage)
                    s = storages[v.storage]
                if type(layout) is tuple:
                    t = s.tensor
                    if s.delta + v.offset == 0 and t.shape == v.size and \
                            t.stride() == v.stride:
                        outputs.append(t)  # the view is the tensor itself
                    else:
                        outputs.append(_reinterpret(t, v.size, v.stride,
                                                    s.delta + v.offset))
                    continue
                size, stride, offset = layout(symbols)
                outputs.append(_reinterpret(s.tensor, size, stride,
                                            s.delta + offset))
            elif out.size is not None:
                outputs.append(_eval(out.size, symbols))
            else:
                outputs.append(None)
        return outputs
