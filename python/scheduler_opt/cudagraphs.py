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
treats these as static inputs), else a placeholder of the same layout,
filled by a copy. On replay an argument at its static tensor's address is
used as is; any other is copied into the static tensor first, and when the
graph mutates that input (Inductor's `mutated_inputs`, from
signature.json), copied back after the replay, so in-place updates
(optimizer steps) land in the caller's tensor either way.

Outputs are copied out (cloned) after each replay: a returned tensor
belongs to the caller and a later replay does not overwrite it (Inductor's
cudagraph trees instead return the pool's tensors and invalidate them on
the next replay of the same tree). Outputs that view an input are views of
the caller's tensor; sizes and None come back as recorded.

Graphs with size symbols (dynamic shapes), or with inputs that are not
CUDA tensors, are not captured: they run as usual.
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
        mutated = set()
        offsets = {}
        for b in compiled.plan.inputs:
            if b.storage:
                offsets[b.position] = b.offset
                if b.mutated:
                    mutated.add(b.position)
        self._offsets = offsets
        self._mutated = mutated
        # After capture: (position, static tensor, mutated) per tensor
        # argument; per output, ("clone", tensor), ("view", position, size,
        # stride, offset from the argument's) or ("value", value).
        self._inputs: List[Any] = []
        self._outputs: List[Any] = []
        self._viewed: List[int] = []

    def __call__(self, args: List[Any]):
        if self.graph is not None:
            return self._replay(args)
        if self.disabled:
            return self.compiled(args)
        if self._warm_pointers is None:
            if not all(a.is_cuda for a in args
                       if isinstance(a, torch.Tensor)):
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

    def _static_input(self, position: int, arg: torch.Tensor):
        if arg.data_ptr() == self._warm_pointers[position]:
            return arg  # at a stable address: the graph uses it in place
        # A placeholder with the same layout and as many elements before
        # it as the plan addresses (the input's offset in its storage).
        before = self._offsets.get(position, 0)
        if not isinstance(before, int):
            raise ValueError("input %d has a symbolic offset" % position)
        flat = torch.empty(before + _span(arg), dtype=arg.dtype,
                           device=arg.device)
        static = flat.as_strided(arg.shape, arg.stride(), before)
        static.copy_(arg)
        return static

    def _capture(self, args: List[Any]):
        statics = []
        self._inputs = []
        for p, a in enumerate(args):
            if isinstance(a, torch.Tensor):
                s = self._static_input(p, a)
                statics.append(s)
                self._inputs.append((p, s, p in self._mutated))
            else:
                statics.append(a)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        pool = torch.cuda.graph_pool_handle()
        with torch.cuda.graph(graph, pool=pool):
            outs = self.compiled(list(statics))
        by_storage = {}
        for p, s, _ in self._inputs:
            by_storage.setdefault(s.untyped_storage().data_ptr(), (p, s))
        self._outputs = []
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
                self._outputs.append(("clone", o))
        self._viewed = sorted({o[1] for o in self._outputs
                               if o[0] == "view"})
        self.graph = graph

    def _replay(self, args: List[Any]):
        back = []
        for p, static, mutated in self._inputs:
            a = args[p]
            if a.data_ptr() != static.data_ptr():
                static.copy_(a)
                if mutated:
                    back.append((a, static))
        kept = {p: args[p] for p in self._viewed}
        args.clear()
        self.graph.replay()
        for a, static in back:
            a.copy_(static)
        result = []
        for o in self._outputs:
            kind = o[0]
            if kind == "clone":
                result.append(o[1].clone())
            elif kind == "view":
                _, p, size, stride, offset = o
                a = kept[p]
                result.append(a.as_strided(size, stride,
                                           a.storage_offset() + offset))
            else:
                result.append(o[1])
        return result
