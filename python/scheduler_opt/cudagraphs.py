"""CUDA graphs for compiled graphs (`options={"cuda_graphs": True}`, or
`mode="reduce-overhead"`).

A `CudaGraphed` wraps a `runtime.CompiledGraph`. The first call runs it
as usual (warm-up: cuBLAS handles, lazy initialization, as Inductor's
cudagraph trees warm up once). The second call captures one call of the
graph into a CUDA graph with its own memory pool and replays it; later
calls only replay.

Inputs. Each tensor argument has a static tensor the graph reads and
writes: the caller's own tensor when it is at the same address as in the
warm-up call (parameters, optimizer state, batch-norm statistics: Inductor
treats these as static inputs), else a placeholder of the same layout in
a copy of the storage region the graph addresses (the input's storage in
the manifest: extern calls may view it beyond the tensor). On replay an
argument at its static tensor's address is used as is; for any other the
region is copied into the placeholder's first, and when the graph mutates
that input (Inductor's `mutated_inputs`, from signature.json), copied back
after the replay, so in-place updates
(optimizer steps) land in the caller's tensor either way.

Outputs are copied out after each replay: each storage of the pool that
outputs view is cloned whole and the outputs are the same views of the
copy (so outputs sharing a storage still share it, and a view the next
graph reads beyond its elements, as a backward graph reads a saved
activation, keeps its storage), and a later replay does not overwrite
them (Inductor's cudagraph trees instead return the pool's tensors and
invalidate them on the next replay of the same tree). Outputs that view an input are views of
the caller's tensor; sizes and None come back as recorded.

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
from typing import Any, List, Optional

import torch

from .runtime import CompiledGraph


def _span(t: torch.Tensor) -> int:
    if t.numel() == 0:
        return 0
    return 1 + sum((n - 1) * s for n, s in zip(t.shape, t.stride()))


class CudaGraphed:
    """A compiled graph replayed from a CUDA graph (boxed calls)."""

    def __init__(self, compiled: CompiledGraph):
        self._boxed_call = True
        self.compiled = compiled
        self.graph: Optional[torch.cuda.CUDAGraph] = None
        self.disabled = compiled.dynamic
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
        # After capture: (position, static tensor, its flat region or None,
        # mutated) per tensor argument; the output storages of the pool,
        # each as one flat tensor; per output, ("copy", storage index,
        # size, stride, offset), ("view", position, size, stride, offset
        # from the argument's) or ("value", value).
        self._inputs: List[Any] = []
        self._outputs: List[Any] = []
        self._storages: List[torch.Tensor] = []
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
        try:
            self._capture(args)
        except Exception as e:  # capture failed: run as usual from now on
            warnings.warn("scheduler_opt: CUDA graph capture of graph %s "
                          "failed (%s); running it without CUDA graphs"
                          % (self.compiled.plan.graph, e))
            self.graph = None
            self._inputs = []
            self.disabled = True
            return self.compiled(args)
        return self._replay(args)

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

    def _static_input(self, position: int, arg: torch.Tensor):
        """(static tensor, its flat region or None): the caller's tensor
        when at a stable address, else a placeholder with the same layout
        in a copy of the storage region the graph addresses."""
        if arg.data_ptr() == self._warm_pointers[position]:
            return arg, None
        region, before = self._region(position, arg)
        flat = region.clone()
        return flat.as_strided(arg.shape, arg.stride(), before), flat

    def _capture(self, args: List[Any]):
        statics = []
        self._inputs = []
        for p, a in enumerate(args):
            if p in self._host_scalars:
                s = torch.empty((), dtype=a.dtype,
                                device=self.compiled.device)
                s.copy_(a)
                statics.append(s)
                self._inputs.append((p, s, None, False))
            elif isinstance(a, torch.Tensor):
                s, flat = self._static_input(p, a)
                statics.append(s)
                self._inputs.append((p, s, flat, p in self._mutated))
            else:
                statics.append(a)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        pool = torch.cuda.graph_pool_handle()
        with torch.cuda.graph(graph, pool=pool):
            outs = self.compiled(list(statics))
        by_storage = {}
        for p, s, _, _ in self._inputs:
            by_storage.setdefault(s.untyped_storage().data_ptr(), (p, s))
        self._outputs = []
        self._storages = []
        pool_storages = {}
        for o in outs:
            if not isinstance(o, torch.Tensor):
                self._outputs.append(("value", o))
                continue
            hit = by_storage.get(o.untyped_storage().data_ptr())
            if hit is not None:
                p, s = hit
                self._outputs.append(("view", p, tuple(o.shape), o.stride(),
                                      o.storage_offset() -
                                      s.storage_offset()))
            else:
                key = (o.untyped_storage().data_ptr(), o.dtype)
                k = pool_storages.get(key)
                if k is None:
                    k = pool_storages[key] = len(self._storages)
                    n = o.untyped_storage().nbytes() // o.element_size()
                    self._storages.append(o.as_strided((n,), (1,), 0))
                self._outputs.append(("copy", k, tuple(o.shape), o.stride(),
                                      o.storage_offset()))
        self._viewed = sorted({o[1] for o in self._outputs
                               if o[0] == "view"})
        self.graph = graph

    def _replay(self, args: List[Any]):
        back = []
        for p, static, flat, mutated in self._inputs:
            a = args[p]
            if a.data_ptr() != static.data_ptr():
                if p in self._host_scalars:
                    static.copy_(a, non_blocking=True)
                    continue
                if flat is None:  # a stable input moved: use its copy
                    static.copy_(a)
                    if mutated:
                        back.append((a, static))
                    continue
                region, _ = self._region(p, a)
                flat.copy_(region)
                if mutated:
                    back.append((region, flat))
        kept = {p: args[p] for p in self._viewed}
        args.clear()
        self.graph.replay()
        for a, static in back:
            a.copy_(static)
        copies = [s.clone() for s in self._storages]
        result = []
        for o in self._outputs:
            kind = o[0]
            if kind == "copy":
                _, k, size, stride, offset = o
                result.append(copies[k].as_strided(size, stride, offset))
            elif kind == "view":
                _, p, size, stride, offset = o
                a = kept[p]
                result.append(a.as_strided(size, stride,
                                           a.storage_offset() + offset))
            else:
                result.append(o[1])
        return result
