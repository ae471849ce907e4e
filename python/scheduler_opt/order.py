"""The order in which a call runs a graph's steps, chosen for the least
peak memory, as Inductor's `reorder_for_peak_memory`
(torch/_inductor/memory.py, run by its scheduler after fusion when
`config.reorder_for_peak_memory` is on, the default) chooses the order of
its fused nodes.

The manifest lists the steps in the order scheduler-opt emitted them (the
pre-fusion topological order). Inductor then tries three other
topological orders (LPMF, "least peak memory first"; BFS; DFS by memory)
and keeps the one whose estimated peak is lowest. Here the same is done
over the steps (kernels and externs), with a dependence between two steps
that touch one storage where one of them writes it:

- what a step writes: the storages of the buffers its scheduler nodes
  write (the dump's `writes`, `deps.py`) and an extern's outputs; a step
  whose nodes the dump does not describe writes everything it touches;
- fallback externs (ATen ops, `torch.ops.*`, which may draw random numbers
  or have other effects the dump does not show) keep their relative order;
  `extern_kernels.*` (matrix products, convolutions) are out-variant calls
  that only write their outputs;
- the memory model is the runtime's: a storage is allocated by the first
  step that touches it and released after the last (temporaries, and
  inputs that no output returns); outputs live to the end.

Pure Python: no GPU, no PyTorch.
"""
import heapq
from typing import Dict, List, Optional, Sequence, Set, Tuple

from .deps import NodeDeps
from .manifest import Manifest, Step, dtype_size


def step_nodes(step: Step) -> List[str]:
    """The scheduler nodes a step runs (`op4_op6_op3` for a fused kernel)."""
    return [n for n in step.node.split("_") if n] if step.node else []


def accesses(steps: Sequence[Step], touched: Sequence[Set[str]],
             graph_buffers: Dict[str, str],
             deps: Dict[str, NodeDeps],
             produced: Set[str] = frozenset()) -> List[Set[str]]:
    """The storages each step writes (a subset of what it touches). A
    buffer maps to its storage through the step's and the graph's buffer
    maps, else to the storage of its name. `produced`: storages the graph
    writes before reading (temporaries and outputs); when the first step
    touching one is not found to write it, what the dump says is
    incomplete, and every step touching it counts as writing it."""
    storage_names = set().union(*touched) if touched else set()
    writes = []
    for step, used in zip(steps, touched):
        nodes = step_nodes(step)
        if not nodes or any(n not in deps for n in nodes):
            writes.append(set(used))
            continue
        written = {o.storage for o in step.outputs}
        own = step.buffer_storages()
        for n in nodes:
            for w in deps[n].writes:
                storage = own.get(w.buffer, graph_buffers.get(w.buffer))
                if storage is None and w.buffer in storage_names:
                    storage = w.buffer
                if storage is not None:
                    written.add(storage)
        writes.append(written & set(used) | {o.storage for o in step.outputs})
    first: Dict[str, int] = {}
    for i, used in enumerate(touched):
        for name in used:
            first.setdefault(name, i)
    for name, i in first.items():
        if name in produced and name not in writes[i]:
            for j, used in enumerate(touched):
                if name in used:
                    writes[j].add(name)
    return writes


def dependences(steps: Sequence[Step], touched: Sequence[Set[str]],
                writes: Sequence[Set[str]]) -> List[Set[int]]:
    """Each step's predecessors: the steps before it in the manifest that
    write a storage it touches or touch a storage it writes (read after
    write, write after read or write), and the fallback extern before it."""
    preds: List[Set[int]] = [set() for _ in steps]
    last_writer: Dict[str, int] = {}
    readers: Dict[str, List[int]] = {}
    last_fallback = -1
    for i, step in enumerate(steps):
        for name in touched[i]:
            if name in last_writer:
                preds[i].add(last_writer[name])
            if name in writes[i]:
                preds[i].update(readers.get(name, ()))
        for name in touched[i]:
            if name in writes[i]:
                last_writer[name] = i
                readers[name] = []
            else:
                readers.setdefault(name, []).append(i)
        if step.kind == "extern" and not step.name.startswith(
                "extern_kernels."):
            if last_fallback >= 0:
                preds[i].add(last_fallback)
            last_fallback = i
        preds[i].discard(i)
    return preds


class _Memory:
    """The runtime's memory model over one graph's steps."""

    def __init__(self, touched: Sequence[Set[str]], sizes: Dict[str, int],
                 freeable: Set[str], inputs: Set[str]):
        self.touched = touched
        self.sizes = sizes
        self.freeable = freeable
        self.start = sum(sizes.get(n, 0) for n in inputs)
        self.inputs = inputs
        # The step that allocates each storage: its first toucher (in any
        # order: a temporary's first toucher writes it, and every other
        # step touching it depends on that one).
        self.allocates: List[List[str]] = [[] for _ in touched]
        seen: Set[str] = set(inputs)
        for i, used in enumerate(touched):
            for name in sorted(used):
                if name not in seen and name in sizes:
                    seen.add(name)
                    self.allocates[i].append(name)
        self.size = [sum(sizes[n] for n in names) for names in self.allocates]

    def peak(self, order: Sequence[int]) -> int:
        last: Dict[str, int] = {}
        for k, i in enumerate(order):
            for name in self.touched[i]:
                last[name] = k
        frees: Dict[int, int] = {}
        for name, k in last.items():
            if name in self.freeable:
                frees[k] = frees.get(k, 0) + self.sizes.get(name, 0)
        live = peak = self.start
        for k, i in enumerate(order):
            live += self.size[i]
            peak = max(peak, live)
            live -= frees.get(k, 0)
        return peak


def _successors(preds: List[Set[int]]) -> List[List[int]]:
    succs: List[List[int]] = [[] for _ in preds]
    for i, ps in enumerate(preds):
        for p in ps:
            succs[p].append(i)
    return succs


def _lpmf(preds: List[Set[int]], memory: _Memory) -> List[int]:
    """Inductor's topological_sort_lpmf: among the steps whose
    predecessors ran, while some keep the memory during the step under the
    peak so far, the one leaving the least memory after it; else the one
    needing the least during it."""
    n = len(preds)
    succs = _successors(preds)
    indegree = [len(ps) for ps in preds]
    users: Dict[str, List[int]] = {}
    for i, used in enumerate(memory.touched):
        for name in used:
            users.setdefault(name, []).append(i)
    remaining = {name: len(u) for name, u in users.items()}
    to_free = [0] * n
    for name, u in users.items():
        if name in memory.freeable and len(u) == 1:
            to_free[u[0]] += memory.sizes.get(name, 0)
    ready = {i for i in range(n) if indegree[i] == 0}
    live = peak = memory.start
    order: List[int] = []
    done: Set[int] = set()
    while ready:
        i = min(ready, key=lambda j: (max(live + memory.size[j], peak),
                                      memory.size[j] - to_free[j], j))
        ready.remove(i)
        order.append(i)
        done.add(i)
        live += memory.size[i]
        peak = max(peak, live)
        live -= to_free[i]
        for s in succs[i]:
            indegree[s] -= 1
            if indegree[s] == 0:
                ready.add(s)
        for name in memory.touched[i]:
            remaining[name] -= 1
            if remaining[name] == 1 and name in memory.freeable:
                for j in users[name]:
                    if j not in done:
                        to_free[j] += memory.sizes.get(name, 0)
    return order


def _bfs(preds: List[Set[int]]) -> List[int]:
    """Inductor's topological_sort_bfs: the step whose predecessors ran
    earliest first (first in, first out)."""
    n = len(preds)
    succs = _successors(preds)
    indegree = [len(ps) for ps in preds]
    position = [-1] * n
    heap: List[Tuple[List[int], int]] = []
    for i in range(n):
        if indegree[i] == 0:
            heapq.heappush(heap, ([], i))
    order = []
    while heap:
        _, i = heapq.heappop(heap)
        position[i] = len(order)
        order.append(i)
        for s in succs[i]:
            indegree[s] -= 1
            if indegree[s] == 0:
                heapq.heappush(heap, (sorted({position[p]
                                              for p in preds[s]}), s))
    return order


def _dfs(preds: List[Set[int]], memory: _Memory) -> List[int]:
    """Inductor's topological_sort_dfs: steps visited by the memory they
    allocate and read, each after its predecessors (visited likewise)."""
    weight = [memory.size[i] + sum(memory.sizes.get(name, 0)
                                   for name in memory.touched[i]
                                   if name not in memory.allocates[i])
              for i in range(len(preds))]
    seen: Set[int] = set()
    order: List[int] = []

    def visit(root):
        stack = [(root, iter(sorted(preds[root],
                                    key=lambda p: (weight[p], p))))]
        seen.add(root)
        while stack:
            node, it = stack[-1]
            for p in it:
                if p not in seen:
                    seen.add(p)
                    stack.append((p, iter(sorted(preds[p], key=lambda q:
                                                 (weight[q], q)))))
                    break
            else:
                stack.pop()
                order.append(node)

    for i in sorted(range(len(preds)), key=lambda j: (weight[j], j)):
        if i not in seen:
            visit(i)
    return order


def reorder(manifest: Manifest, steps: Sequence[Step],
            touched: Sequence[Set[str]], deps: Dict[str, NodeDeps],
            freeable: Set[str], inputs: Dict[str, int]
            ) -> Tuple[List[int], Dict[str, int]]:
    """The order of `steps` (indices) with the least estimated peak
    memory among the manifest's own and Inductor's three heuristics (the
    manifest's on ties), and each order's estimated peak in bytes (empty
    when not estimated). `freeable`: the storages released after their last
    use; `inputs`: the input storages held at the start, with their bytes.
    Graphs with symbolic storage sizes keep the manifest's order."""
    identity = list(range(len(steps)))
    sizes: Dict[str, int] = dict(inputs)
    for s in manifest.storages:
        if s.role == "input":
            continue
        if not isinstance(s.elements, int):
            return identity, {}
        sizes[s.name] = s.elements * dtype_size(s.dtype)
    if len(steps) < 3:
        return identity, {}
    produced = {s.name for s in manifest.storages
                if s.role in ("temp", "output")}
    writes = accesses(steps, touched, manifest.buffer_storages(), deps,
                      produced)
    preds = dependences(steps, touched, writes)
    memory = _Memory(touched, sizes, freeable, set(inputs))
    candidates = [("manifest", identity), ("lpmf", _lpmf(preds, memory)),
                  ("bfs", _bfs(preds)), ("dfs", _dfs(preds, memory))]
    peaks = {}
    best: Optional[Tuple[int, List[int]]] = None
    for name, order in candidates:
        if sorted(order) != identity or not _respects(order, preds):
            continue  # never expected: a heuristic that lost a step
        peaks[name] = memory.peak(order)
        if best is None or peaks[name] < best[0]:
            best = (peaks[name], order)
    return (best[1] if best else identity), peaks


def _respects(order: Sequence[int], preds: List[Set[int]]) -> bool:
    position = {i: k for k, i in enumerate(order)}
    return all(position[p] < position[i]
               for i, ps in enumerate(preds) for p in ps)
