"""CUDA graphs for compiled graphs (`options={"cuda_graphs": True}`, or
`mode="reduce-overhead"`).

A `CudaGraphed` wraps a `runtime.CompiledGraph`. The first call runs it
as usual (warm-up: cuBLAS handles, lazy initialization, as Inductor's
cudagraph trees warm up once). The second call captures one call of the
graph into a CUDA graph with its own memory pool and replays it; later
calls only replay.

Outputs are the pool's own tensors, handed out without a copy, as
Inductor's cudagraph trees hand them out. Unlike the trees, a replay never
overwrites an output that is still in use: before it replays, the graph
counts the references to each pool storage that outputs view
(`torch._C._storage_Use_Count`, less its own). Outputs of the last replay
that are still alive (a loss the caller kept, a gradient the optimizer
did not drop) move to a copy of their storage through `.data`, so the
caller's tensor objects keep their values; a reference that is not such
an output (a view the caller made of one) cannot be moved, so the graph
is captured again into a new pool, leaving that storage to the tensors
that hold it, and the outputs that viewed it are copied out after each
replay of the new capture (at most _MAX_CAPTURES captures; after that
the graph's calls run without it). Outputs that view an input
are views of the caller's tensor; sizes and None come back as recorded.

Inputs. Each tensor argument has a static tensor the graph reads and
writes. An output of another graph's pool (a backward graph's saved
activations, the forward's outputs) is read in place, so a training
step hands the forward's outputs to the backward without copies; if such
an argument is elsewhere on a later call (in a new capture's pool, or
moved off it, as a first micro-batch's activations under gradient
accumulation are), the graph is captured again, reading it in place or
through a placeholder as below. Otherwise the caller's own tensor when it is
at the same address as in the warm-up call (parameters, optimizer state,
batch-norm statistics: Inductor treats these as static inputs), else a
placeholder of the same layout in a copy of the storage region the graph
addresses (the input's storage in the manifest: extern calls may view it
beyond the tensor). On replay an argument at its static tensor's address
is used as is. Any other is copied in first: its region into the
placeholder's, or the tensor to the caller's earlier tensor if nobody
else holds that one any more (an earlier input the caller kept is never
overwritten: the graph is captured again, with a placeholder for it);
and when the graph mutates that input (Inductor's `mutated_inputs`, from
signature.json), copied back after the replay, so in-place updates
(optimizer steps) land in the caller's tensor either way.

Host scalars. A zero-dimensional tensor on the host (a Python float
Dynamo passes as a tensor, an optimizer's step count, the philox seed
and offset that memory-efficient attention's backward takes) cannot be
copied to the device inside a capture, and an extern that read its
value on the host would leave that value in the graph. So the capture
passes a device tensor of its own in its place (which the call
function's copy to the device leaves as it is, and which externs read
on the device, as they do under a capture in eager mode), and each
replay first copies the caller's value into it, queued on the stream.
An extern that needs the value on the host then fails the capture (a
synchronization), and the graph runs as usual.

Graphs with size symbols (dynamic shapes), or with inputs on the host
that are not zero-dimensional or that the graph writes, are not
captured: they run as usual.
"""
import warnings
import weakref
from typing import Any, Dict, List, Optional

import torch

from .runtime import CompiledGraph, _reinterpret


def _span(t: torch.Tensor) -> int:
    if t.numel() == 0:
        return 0
    return 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))


# The storages of every captured graph's pool that its outputs view, by
# address, to the graph: another graph's capture reads such an argument in
# place (a backward graph reading the forward's saved activations).
_POOL_OUTPUTS: "weakref.WeakValueDictionary[int, CudaGraphed]" = \
    weakref.WeakValueDictionary()


# Captures of one graph at most (each new pool leaves the pinned storages
# of the old one to the tensors that hold them).
_MAX_CAPTURES = 8


_LONE_COUNT: Optional[int] = None


def _held_elsewhere(cdata: int) -> bool:
    """Whether a tensor other than one of the graph's own holds the
    storage `cdata` (the graph's one tensor viewing it counts as a lone
    tensor does: measured once, as the pools' baselines are)."""
    global _LONE_COUNT
    if _LONE_COUNT is None:
        t = torch.empty((1,), dtype=torch.uint8, device="cuda")
        _LONE_COUNT = torch._C._storage_Use_Count(t.untyped_storage()._cdata)
    return torch._C._storage_Use_Count(cdata) > _LONE_COUNT


class _PoolStorage:
    """A storage of the graph's pool that outputs view."""

    __slots__ = ("pointer", "cdata", "baseline", "flats", "outputs",
                 "handed", "copied")

    def __init__(self, storage):
        self.pointer = storage.data_ptr()
        self.cdata = storage._cdata
        # The storage's references while nobody else holds it (measured
        # after the capture: the flats' own).
        self.baseline = 0
        # The storage as one flat tensor per dtype that outputs view it in.
        self.flats: Dict[Any, torch.Tensor] = {}
        # The indices of the outputs that view it.
        self.outputs: List[int] = []
        # The outputs the last replay handed out that view it.
        self.handed: List[weakref.ref] = []
        # Copied out after each replay instead of handed out (once a
        # tensor nobody can move held it past a call).
        self.copied = False

    def references(self) -> int:
        """Tensors other than the flats that hold the storage."""
        return torch._C._storage_Use_Count(self.cdata) - self.baseline

    def release(self) -> bool:
        """Makes the storage free for a replay to overwrite: each output
        the last replay handed out that still views it moves to a copy of
        it (`.data`, so the tensor object stays the caller's). False when
        some other tensor (one not handed out, as a view the caller made)
        still holds it: it cannot be moved, so the graph must not replay."""
        held = self.references()
        if held == 0:
            self.handed.clear()
            return True
        live = [t for t in (r() for r in self.handed) if t is not None and
                t.untyped_storage().data_ptr() == self.pointer]
        if len(live) != held:
            return False
        copies = {}
        for t in live:
            if t.dtype not in copies:
                copies[t.dtype] = self.flats[t.dtype].clone()
            t.data = _reinterpret(copies[t.dtype], t.shape, t.stride(),
                                  t.storage_offset())
        self.handed.clear()
        return True


class _Input:
    """How a replay passes one tensor argument to the graph.

    kind "host": a host scalar, copied into `static` (a device tensor);
    "pooled": read in place at `pointer` (an output of another graph's
    pool); "stable": read in place at `pointer`, copied into `static` (a
    tensor of the graph's own viewing the caller's tensor at capture) when
    elsewhere, if nobody else holds that storage (`storage`, its
    `_cdata`); "placeholder": its storage region copied into `flat`, of
    which `static` is a view."""

    __slots__ = ("position", "kind", "pointer", "static", "flat", "mutated",
                 "storage")

    def __init__(self, position, kind, static, flat, mutated, pointer=None):
        self.position, self.kind = position, kind
        self.static, self.flat, self.mutated = static, flat, mutated
        self.pointer = pointer if pointer is not None else static.data_ptr()
        self.storage = (static.untyped_storage()._cdata if kind == "stable"
                        else None)


class CudaGraphed:
    """A compiled graph replayed from a CUDA graph (boxed calls)."""

    def __init__(self, compiled: CompiledGraph):
        self._boxed_call = True
        self.compiled = compiled
        self.graph: Optional[torch.cuda.CUDAGraph] = None
        self.disabled = compiled.dynamic
        # Captures (the first, and each after a pool storage was pinned),
        # and calls that ran without the graph after the first capture.
        self.captures = 0
        self.uncaptured_calls = 0
        # Indices of the outputs copied out after each replay.
        self._copy_out = set()
        self._warm_pointers: Optional[List[Optional[int]]] = None
        # Per argument position: the elements of its storage before the
        # tensor and the storage's elements (what the graph may address).
        storages = {s.name: s for s in compiled.manifest.storages}
        self._extent = {}
        self._mutated = set()
        # Argument positions of the host scalars (in the warm-up call).
        self._host_scalars = set()
        for b in compiled.plan.inputs:
            if b.storage:
                s = storages.get(b.storage)
                self._extent[b.position] = (
                    b.offset, s.elements if s is not None else None)
                if b.mutated:
                    self._mutated.add(b.position)
        # After capture: the tensor arguments; the pool's storages that
        # outputs view; per output, ("pool", storage index, dtype, size,
        # stride, offset), ("view", position, size, stride, offset from the
        # argument's) or ("value", value).
        self._inputs: List[_Input] = []
        self._pooled: List[_Input] = []
        self._pool: List[_PoolStorage] = []
        self._outputs: List[Any] = []
        self._viewed: List[int] = []

    def __call__(self, args: List[Any]):
        if self.graph is not None:
            return self._replay(args)
        if self.disabled:
            return self.compiled(args)
        if self._warm_pointers is None:
            tensors = [(p, a) for p, a in enumerate(args)
                       if isinstance(a, torch.Tensor)]
            # (one the graph writes would be written on the device only)
            self._host_scalars = {p for p, a in tensors
                                  if a.device.type == "cpu" and
                                  a.dim() == 0 and p not in self._mutated}
            if not all(a.is_cuda or p in self._host_scalars
                       for p, a in tensors):
                self.disabled = True
            self._warm_pointers = [
                a.data_ptr() if isinstance(a, torch.Tensor) else None
                for a in args]
            return self.compiled(args)
        return self._capture_and_replay(args)

    def _capture_and_replay(self, args: List[Any]):
        for ps in self._pool:  # an earlier capture's, pinned by the caller
            _POOL_OUTPUTS.pop(ps.pointer, None)
        self.graph = None
        self._inputs, self._pooled, self._pool = [], [], []
        try:
            self._capture(args)
        except Exception as e:  # capture failed: run as usual from now on
            warnings.warn("scheduler_opt: CUDA graph capture of graph %s "
                          "failed (%s); running it without CUDA graphs"
                          % (self.compiled.plan.graph, e))
            self.graph = None
            self._inputs, self._pooled, self._pool = [], [], []
            self.disabled = True
            return self.compiled(args)
        return self._replay(args)

    def _capture_again(self, args: List[Any]):
        """Captures the graph again, into a new pool, when the old one
        cannot be replayed (a storage pinned by a tensor nobody can move,
        or an argument read in place from another graph's pool now
        elsewhere), at most _MAX_CAPTURES times; after that, runs
        without it."""
        if self.captures >= _MAX_CAPTURES:
            self.uncaptured_calls += 1
            return self.compiled(args)
        return self._capture_and_replay(args)

    def _region(self, position: int, arg: torch.Tensor):
        """The elements of `arg`'s storage the graph may address, as one
        flat tensor, and where the argument starts in it."""
        before, elements = self._extent.get(position, (0, None))
        if not isinstance(before, int) or not isinstance(elements, int):
            before, elements = 0, None
        start = arg.storage_offset() - before
        have = arg.untyped_storage().nbytes() // arg.element_size()
        if elements is None or start < 0 or start + elements > have:
            before, start = 0, arg.storage_offset()
            elements = _span(arg)
        return arg.as_strided((elements,), (1,), start), before

    def _static_input(self, position: int, arg: torch.Tensor) -> _Input:
        """How replays pass `arg`: in place when it is an output of a
        graph's pool (no reference kept: that would hold the storage) or
        at its warm-up address, else as a placeholder with the same layout
        in a copy of the storage region the graph addresses."""
        mutated = position in self._mutated
        if arg.untyped_storage().data_ptr() in _POOL_OUTPUTS:
            return _Input(position, "pooled", None, None, mutated,
                          arg.data_ptr())
        if arg.data_ptr() == self._warm_pointers[position]:
            # (a tensor of its own: the caller's may be dropped or kept)
            return _Input(position, "stable",
                          _reinterpret(arg, arg.shape, arg.stride(), 0),
                          None, mutated)
        region, before = self._region(position, arg)
        flat = region.clone()
        return _Input(position, "placeholder",
                      flat.as_strided(arg.shape, arg.stride(), before), flat,
                      mutated)

    def _capture(self, args: List[Any]):
        self.captures += 1
        statics = []
        self._inputs = []
        for p, a in enumerate(args):
            if p in self._host_scalars:
                s = torch.empty((), dtype=a.dtype,
                                device=self.compiled.device)
                s.copy_(a)
                statics.append(s)
                self._inputs.append(_Input(p, "host", s, None, False))
            elif isinstance(a, torch.Tensor):
                i = self._static_input(p, a)
                statics.append(a if i.kind == "pooled" else i.static)
                self._inputs.append(i)
            else:
                statics.append(a)
        self._pooled = [i for i in self._inputs if i.kind == "pooled"]
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        pool = torch.cuda.graph_pool_handle()
        with torch.cuda.graph(graph, pool=pool):
            outs = self.compiled(list(statics))
        by_storage = {}
        for i in self._inputs:
            s = statics[i.position]
            by_storage.setdefault(s.untyped_storage().data_ptr(),
                                  (i.position, s))
        statics = s = None
        self._outputs, self._pool = [], []
        pool_index = {}
        for index, o in enumerate(outs):
            if not isinstance(o, torch.Tensor):
                self._outputs.append(("value", o))
                continue
            storage = o.untyped_storage()
            hit = by_storage.get(storage.data_ptr())
            if hit is not None:
                p, s = hit
                self._outputs.append(("view", p, tuple(o.shape), o.stride(),
                                      o.storage_offset() -
                                      s.storage_offset()))
                continue
            k = pool_index.get(storage.data_ptr())
            if k is None:
                k = pool_index[storage.data_ptr()] = len(self._pool)
                self._pool.append(_PoolStorage(storage))
            self._pool[k].outputs.append(index)
            flats = self._pool[k].flats
            if o.dtype not in flats:
                n = storage.nbytes() // o.element_size()
                flats[o.dtype] = o.as_strided((n,), (1,), 0)
            self._outputs.append(("pool", k, o.dtype, tuple(o.shape),
                                  o.stride(), o.storage_offset()))
        # (the capture's own outputs: nobody else holds the pool now)
        outs = o = storage = by_storage = hit = s = None
        for ps in self._pool:
            ps.baseline = torch._C._storage_Use_Count(ps.cdata)
            ps.copied = not self._copy_out.isdisjoint(ps.outputs)
            _POOL_OUTPUTS[ps.pointer] = self
        self._viewed = sorted({o[1] for o in self._outputs
                               if o[0] == "view"})
        self.graph = graph

    def _replay(self, args: List[Any]):
        # An argument read in place from another graph's pool that is
        # elsewhere now cannot be copied to where the graph reads: that
        # memory is the other graph's. The graph is captured again, which
        # reads the argument in place if it is in a pool (a new capture of
        # the other graph) and through a placeholder if not (a copy).
        for i in self._pooled:
            if args[i.position].data_ptr() != i.pointer:
                return self._capture_again(args)
        # Nor can a replay overwrite a pool storage that a tensor it did
        # not hand out still holds: that storage is left to it, and
        # copied out after each replay of a new capture.
        for ps in self._pool:
            if not ps.release():
                self._copy_out.update(ps.outputs)
                return self._capture_again(args)
        back = []
        for i in self._inputs:
            a = args[i.position]
            if i.kind == "pooled" or a.data_ptr() == i.pointer:
                continue
            if i.kind == "host":
                i.static.copy_(a, non_blocking=True)
            elif i.kind == "stable":
                # Moved: copied to the caller's earlier tensor, unless
                # that is still in use (an input the caller kept); then
                # the graph is captured again, reading this argument
                # through a placeholder from now on (what this loop
                # copied so far is copied again by that capture's replay).
                if _held_elsewhere(i.storage):
                    self._warm_pointers[i.position] = None
                    return self._capture_again(args)
                i.static.copy_(a)
                if i.mutated:
                    back.append((a, i.static))
            else:
                region, _ = self._region(i.position, a)
                i.flat.copy_(region)
                if i.mutated:
                    back.append((region, i.flat))
        kept = {p: args[p] for p in self._viewed}
        args.clear()
        self.graph.replay()
        for a, static in back:
            a.copy_(static)
        copies = {}
        result = []
        for o in self._outputs:
            kind = o[0]
            if kind == "pool":
                _, k, dtype, size, stride, offset = o
                ps = self._pool[k]
                if ps.copied:
                    flat = copies.get((k, dtype))
                    if flat is None:
                        flat = copies[k, dtype] = ps.flats[dtype].clone()
                    result.append(_reinterpret(flat, size, stride, offset))
                else:
                    t = _reinterpret(ps.flats[dtype], size, stride, offset)
                    ps.handed.append(weakref.ref(t))
                    result.append(t)
            elif kind == "view":
                _, p, size, stride, offset = o
                a = kept[p]
                result.append(a.as_strided(size, stride,
                                           a.storage_offset() + offset))
            else:
                result.append(o[1])
        return result
