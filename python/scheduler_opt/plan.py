"""What the runtime does on each call of a compiled graph, decided once.

From the launch manifest and the graph's signature (`signature.json`,
dump.py), `plan` decides:

- how each call argument binds: a tensor input's storage is the caller's
  tensor (so in-place updates land in the caller's storage), a size
  argument binds a size symbol;
- which storages each call allocates (outputs and temporaries) and after
  which step each temporary and each input storage is last used (released
  there, so that PyTorch's caching allocator reuses the memory, as
  Inductor's wrapper does with `del bufN` and `del primals_N`);
- the steps: kernels and externs; copies into output storages become
  aliases (the output is a view of the copied storage, as Inductor returns
  inputs and views without copying);
- where each output comes from: a view of a storage (by the buffer it names,
  in the manifest or among the inputs), a size, or None.

Pure Python: no GPU, no PyTorch.
"""
import dataclasses
import itertools
from typing import Dict, List, Optional, Tuple, Union

from . import order, sizes
from .deps import NodeDeps
from .manifest import Manifest, Step, dtype_size


class PlanError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class View:
    """A strided view of a storage (sizes may be size expressions)."""
    storage: str
    size: Tuple[sizes.Size, ...]
    stride: Tuple[sizes.Size, ...]
    offset: sizes.Size


@dataclasses.dataclass(frozen=True)
class InputBinding:
    """Call argument `position`: a tensor whose storage is `storage` (its
    element 0 lies `offset` elements before the tensor's first element),
    or a size whose value binds `symbol`."""
    position: int
    storage: str = ""
    offset: sizes.Size = 0
    shape: Tuple[sizes.Size, ...] = ()
    strides: Tuple[sizes.Size, ...] = ()
    symbol: str = ""
    # The graph writes the input (Inductor's `mutated_inputs`).
    mutated: bool = False
    # A zero-dimensional tensor on the host that the kernels read: the
    # runtime copies it to the device on each call (Inductor passes its
    # value to the kernels, `GraphLowering.is_unspec_arg`).
    host: bool = False


@dataclasses.dataclass(frozen=True)
class Output:
    """A graph output: a view, a size, or None (neither)."""
    view: Optional[View] = None
    size: Optional[sizes.Size] = None


@dataclasses.dataclass(frozen=True)
class RunStep:
    step: Step
    # Storages (temporaries, inputs) whose last use is this step.
    free_after: Tuple[str, ...] = ()
    # (storage, dying temporary): the kernel writes the storage in place
    # of the temporary it reads for the last time (Inductor's in-place
    # update), which it then gets instead of a new allocation.
    reuse: Tuple[Tuple[str, str], ...] = ()
    # (storage, released temporary): after this step, instead of releasing
    # the temporary, the storage (first written by a later step) takes its
    # memory (Inductor's buffer reuse: `buf26 = reinterpret_tensor(buf17,
    # ...); del buf17  # reuse`), saving an allocation per call.
    handover: Tuple[Tuple[str, str], ...] = ()


@dataclasses.dataclass(frozen=True)
class Plan:
    graph: str
    inputs: Tuple[InputBinding, ...]
    # Storage name -> (dtype, elements), allocated on each call.
    allocations: Tuple[Tuple[str, str, sizes.Size], ...]
    steps: Tuple[RunStep, ...]
    # Output storage -> the storage it aliases instead of being copied.
    aliases: Tuple[Tuple[str, str], ...]
    outputs: Tuple[Output, ...]
    dtypes: Tuple[Tuple[str, str], ...]
    # Input storages no step uses and no output returns: released right
    # after the call's arguments are bound.
    free_at_start: Tuple[str, ...] = ()

    def dtype(self, storage: str) -> str:
        return dict(self.dtypes)[storage]


def _resolve(aliases: Dict[str, str], storage: str) -> str:
    seen = set()
    while storage in aliases:
        if storage in seen:
            raise PlanError("copies form a cycle through %r" % storage)
        seen.add(storage)
        storage = aliases[storage]
    return storage


def _view(entry: dict, storage: str) -> View:
    return View(storage=storage,
                size=tuple(sizes.parse(v) for v in entry["size"]),
                stride=tuple(sizes.parse(v) for v in entry["stride"]),
                offset=sizes.parse(entry["offset"]))


def run_steps(manifest: Manifest) -> List[Step]:
    """The steps a call runs (copies into outputs become aliases)."""
    return [s for s in manifest.steps if s.kind != "copy"]


def _call_buffers(value, out: set):
    """The buffers a recorded extern call names (its tensor arguments)."""
    if isinstance(value, list):
        for v in value:
            _call_buffers(v, out)
    elif isinstance(value, dict):
        if "buffer" in value:
            out.add(value["buffer"])
        else:
            for v in value.values():
                _call_buffers(v, out)


def step_storages(step: Step, graph_buffers: Dict[str, str]) -> List[str]:
    """Every storage `step` reads or writes: a kernel's arguments; an
    extern's operands, outputs and the storages of the views its recorded
    call passes (the step's own buffer map first, then the graph's, as the
    runtime decodes the call)."""
    used = list(step.args) + list(step.inputs) + \
        [o.storage for o in step.outputs]
    if step.kind == "extern" and step.call:
        named: set = set()
        _call_buffers(step.call, named)
        own = step.buffer_storages()
        for buffer in sorted(named):
            storage = own.get(buffer, graph_buffers.get(buffer))
            if storage is not None:
                used.append(storage)
    return used


def _view_groups(manifest: Manifest,
                 views: Dict[str, Tuple[str, ...]]) -> List[set]:
    """The storages that share memory through views externs return
    (`views`: buffer -> the buffers it aliases, `deps.aliases`): the
    runtime adopts the view an extern such as view_as_complex returns, so
    its storage is the memory of the storage it views. Each group lives
    and is released as one (Inductor gives aliasing buffers one list of
    users), so that no storage of it is released, reused in place or
    handed over while another still reads the memory."""
    storage_of = {s.name: s.name for s in manifest.storages}
    storage_of.update({t.name: t.storage for t in manifest.inputs})
    storage_of.update(manifest.buffer_storages())
    parent: Dict[str, str] = {}

    def find(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for buffer, targets in sorted(views.items()):
        for target in targets:
            a, b = find(buffer), find(target)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: Dict[str, set] = {}
    for buffer in set(parent) | set(parent.values()):
        if buffer in storage_of:
            groups.setdefault(find(buffer), set()).add(storage_of[buffer])
    return [g for _, g in sorted(groups.items()) if len(g) > 1]


def _freeable(manifest: Manifest, aliases: Dict[str, str],
              outputs: List[Output], inputs: List[InputBinding],
              groups: List[set] = ()) -> set:
    """The storages a call releases after their last use: temporaries and
    input storages, but not those that outputs return (directly, through a
    copy that became an alias, or as a view), which live until the call
    returns, nor the storages sharing memory with one of those
    (`_view_groups`)."""
    roles = {s.name: s.role for s in manifest.storages}
    releasable = {name for name, role in roles.items()
                  if role in ("temp", "input")}
    releasable |= {b.storage for b in inputs if b.storage}
    kept = {_resolve(aliases, src) for src in aliases.values()}
    kept |= {out.view.storage for out in outputs if out.view is not None}
    freeable = releasable - kept
    for group in groups:
        if not group <= freeable:
            freeable -= group
    return freeable


def _release_points(manifest: Manifest, run: List[Step], freeable: set,
                    groups: List[set] = ()):
    """After which step each freeable storage (`_freeable`) is used for the
    last time (Inductor's `compute_last_usage`; its wrapper's `del bufN`
    and `del primals_N`), so that the runtime drops its reference there
    and PyTorch's caching allocator reuses the memory for later
    allocations; an input's memory stays with the caller when the caller
    still holds it (parameters), so releasing it only drops the graph's
    reference. Returns ({step index: [storage]}, storages released before
    step 0)."""
    graph_buffers = manifest.buffer_storages()
    last_use: Dict[str, int] = {name: -1 for name in freeable}
    for i, step in enumerate(run):
        for name in step_storages(step, graph_buffers):
            if name in freeable:
                last_use[name] = i
    for group in groups:
        if group <= freeable:
            last = max(last_use[name] for name in group)
            for name in group:
                last_use[name] = last
    releases: Dict[int, List[str]] = {}
    for name, i in last_use.items():
        releases.setdefault(i, []).append(name)
    return releases, tuple(sorted(releases.pop(-1, ())))


def _ancestors(nodes: Dict[str, NodeDeps]) -> Dict[str, set]:
    """Within one kernel: the member nodes each member depends on
    (through the buffers members write and read)."""
    writer = {w.buffer: name for name, n in nodes.items() for w in n.writes}
    direct = {name: {writer[r.buffer] for r in n.reads
                     if writer.get(r.buffer, name) != name}
              for name, n in nodes.items()}
    result: Dict[str, set] = {}

    def visit(name, stack=()):
        if name not in result:
            found = set()
            for p in direct[name]:
                if p not in stack:
                    found |= {p} | visit(p, stack + (name,))
            result[name] = found
        return result[name]

    for name in nodes:
        visit(name)
    return result


def _depths(nodes: Dict[str, NodeDeps], ancestors: Dict[str, set]):
    """The reduction level at which each member runs: how many reductions
    of the kernel it waits for (docs/Lowering.md, "Reduction levels")."""
    depth: Dict[str, int] = {}

    def visit(name):
        if name not in depth:
            depth[name] = 0  # (cycles are not expected; stop them here)
            depth[name] = max([visit(p) + (0 if nodes[p].pointwise() else 1)
                               for p in ancestors[name]] or [0])
        return depth[name]

    for name in nodes:
        visit(name)
    return depth


def _per_element(node: NodeDeps, nodes: Dict[str, NodeDeps]) -> bool:
    """Whether a pointwise member runs once per element of the kernel's
    rows (numel * rnumel iterations), not once per row."""
    reductions = [n for n in nodes.values() if not n.pointwise()]
    if not reductions:
        return True
    try:
        numel, rnumel = reductions[0].iteration
        return sizes.equal(sizes.parse("(%s)*(%s)" % (numel, rnumel)),
                           sizes.parse(node.iteration[0]))
    except (ValueError, sizes.SizeError):
        return False


def _in_place(manifest: Manifest, run: List[Step],
              releases: Dict[int, List[str]],
              deps: Dict[str, NodeDeps]) -> Dict[int, List[Tuple[str, str]]]:
    """Kernels that write an output buffer into the memory of a temporary
    they read for the last time, as Inductor's `decide_inplace_update`
    (its kernels' `in_out_ptr`: `buf11 = buf8; del buf8  # reuse`). A
    member node W of the kernel qualifies (Inductor's `can_inplace` and
    `single_index_in_fused_node`) when it writes one buffer, reads the
    temporary at the index and over the ranges at which it writes it,
    every member reading the temporary reads it at that same index and
    ranges, the other readers are members W depends on (its only remaining
    user is W), and no member writes the temporary. The lowering (which
    does not know the two storages are one) must then read each element of
    the temporary only where W's thread reads it before writing it: W is
    pointwise and runs once per element of the kernel's rows (not once per
    row, whose value every thread of the row may read), at the last
    reduction level of the kernel (docs/Lowering.md: a later pass over the
    row would re-read the temporary after W wrote it). The two storages
    hold only those buffers, have one dtype and the same number of
    elements (symbolic ones equal whatever the symbols, `sizes.equal`, as
    Inductor's `can_match_buffer_size` compares them), and the result's
    storage is first written by this kernel.
    Graph inputs and outputs are never given away (Inductor's
    `can_reuse`)."""
    storages = {s.name: s for s in manifest.storages}
    shared = {}
    for buffer, storage in manifest.buffers:
        shared.setdefault(storage, set()).add(buffer)
    touched = set()
    reuse: Dict[int, List[Tuple[str, str]]] = {}
    for i, step in enumerate(run):
        args = set(step.args) | set(step.inputs) | \
            {o.storage for o in step.outputs}
        names = order.step_nodes(step)
        if step.kind != "kernel" or not names or \
                any(n not in deps for n in names):
            touched |= args
            continue
        nodes = {n: deps[n] for n in names}
        ancestors = _ancestors(nodes)
        depth = _depths(nodes, ancestors)
        last_level = max(depth.values())
        taken = set()
        for dying in sorted(releases.get(i, ())):
            d = storages.get(dying)
            if d is None or d.role != "temp" or \
                    shared.get(dying, {dying}) != {dying}:
                continue
            if any(w.buffer == dying for n in nodes.values()
                   for w in n.writes):
                continue
            readers = [n for n in nodes if any(r.buffer == dying
                                               for r in nodes[n].reads)]
            accesses = {(r.kind, r.index, r.ranges) for n in readers
                        for r in nodes[n].reads if r.buffer == dying}
            if len(accesses) != 1:
                continue
            ((kind, index, ranges),) = accesses
            if kind != "MemoryDep":
                continue
            for name in readers:
                node = nodes[name]
                if len(node.writes) != 1 or not node.pointwise() or \
                        depth[name] != last_level or \
                        not _per_element(node, nodes) or \
                        any(r != name and r not in ancestors[name]
                            for r in readers):
                    continue
                (w,) = node.writes
                out = storages.get(w.buffer)
                if out is None or w.buffer in touched or \
                        w.buffer in taken or w.kind != "MemoryDep" or \
                        out.role not in ("temp", "output") or \
                        w.buffer not in step.args or \
                        shared.get(w.buffer, {w.buffer}) != {w.buffer} or \
                        out.dtype != d.dtype or \
                        not sizes.equal(out.elements, d.elements):
                    continue
                if (w.index, w.ranges) == (index, ranges):
                    reuse.setdefault(i, []).append((w.buffer, dying))
                    taken.add(w.buffer)
                    break
        touched |= args
    return reuse


def _first_writes(run: List[Step], allocatable: set) -> Dict[int, List[str]]:
    """The allocated storages each step touches first."""
    seen: set = set()
    first: Dict[int, List[str]] = {}
    for i, step in enumerate(run):
        for name in list(step.args) + [o.storage for o in step.outputs]:
            if name in allocatable and name not in seen:
                seen.add(name)
                first.setdefault(i, []).append(name)
    return first


def _handovers(manifest: Manifest, run: List[Step],
               releases: Dict[int, List[str]],
               reuse: Dict[int, List[Tuple[str, str]]],
               allocations, inputs,
               hints: Optional[Dict[str, int]] = None
               ) -> Dict[int, List[Tuple[str, str]]]:
    """Inductor's buffer reuse (its wrapper's MemoryPlanningState): a
    storage first written by a kernel, or by an extern writing through
    `out=`, takes the memory of a temporary released earlier with the
    same dtype and number of elements (the most recently released first),
    instead of a new allocation. A symbolic number of elements matches as
    Inductor's `buffer_reuse_key` matches it: the same expression (its
    text, as Inductor compares the printed simplified expression), never
    two expressions that merely agree at the size hints. The caching
    allocator would hand the same block back; taking it directly saves the
    allocation's host work. The temporary's memory is then held from its
    release to that step, which may keep another allocation in between
    from reusing it: each handover is made only when the estimated peak
    memory (with the handovers made before it) does not rise, the next
    most recent of equal size tried otherwise; symbolic sizes are counted
    at the graph's size `hints` (storages whose symbols have no hint take
    no part).
    Returns {step of the release: [(storage, temporary)]}."""
    bytes_of = {}
    sizes_of = {}
    for name, dtype, elements in allocations:
        if isinstance(elements, int):
            count = elements
        elif hints is not None and elements.symbols <= hints.keys():
            count = elements.evaluate(hints)
        else:
            continue
        sizes_of[name] = (dtype, elements)
        bytes_of[name] = count * dtype_size(dtype)
    temps = {s.name for s in manifest.storages if s.role == "temp"}
    first = _first_writes(run, set(sizes_of))
    in_place = {dst for pairs in reuse.values() for dst, _ in pairs}

    # The estimated bytes live at each step (after its first writes, before
    # its releases) with the handovers made so far. A handover of a
    # temporary released after step j to a storage first written at step i
    # holds the temporary's bytes over steps j+1 .. i-1 besides and changes
    # nothing before or after (the storage's own bytes are the
    # temporary's), so each one is checked and recorded on that span alone.
    live_at = []
    live = 0
    for i in range(len(run)):
        for name in first.get(i, ()):
            if name not in in_place:
                live += bytes_of.get(name, 0)
        live_at.append(live)
        for name in releases.get(i, ()):
            live -= bytes_of.get(name, 0)
    limit = max(live_at, default=0)
    pool: Dict[Tuple[str, sizes.Size], List[Tuple[str, int]]] = {}
    handover: Dict[int, List[Tuple[str, str]]] = {}
    # Storages the runtime allocates itself (or takes over from one it
    # allocated): only their memory is known to span all their elements
    # (an extern's returned tensor it adopts may span less).
    own: set = set()
    for i, step in enumerate(run):
        eligible = step.kind == "kernel" or (
            step.kind == "extern" and step.call is not None and
            "out" in step.call)
        for name in first.get(i, ()) if eligible else ():
            if name in in_place:
                continue
            own.add(name)
            free = pool.get(sizes_of[name], [])
            # The most recently released temporary whose holding keeps
            # the peak (each handover is checked with those made before).
            for k in range(len(free) - 1, -1, -1):
                src, j = free[k]
                held = bytes_of[src]
                if j + 1 == i or max(live_at[j + 1:i]) + held <= limit:
                    for t in range(j + 1, i):
                        live_at[t] += held
                    handover.setdefault(j, []).append((name, src))
                    del free[k]
                    break
        # A temporary a kernel of this step updated in place is the memory
        # of that kernel's result from now on: it is not free.
        in_place_here = {src for _, src in reuse.get(i, ())}
        for name in sorted(releases.get(i, ())):
            if name in temps and name in own and name not in in_place_here:
                pool.setdefault(sizes_of[name], []).append((name, i))
    return handover


def _check_exclusive_memory(steps: Tuple[RunStep, ...],
                            inputs: List[InputBinding],
                            graph_buffers: Dict[str, str]) -> None:
    """Replays the plan's own sharing of memory as the runtime does it (a
    kernel's in-place update gives its result the dying temporary's
    memory; a handover gives a released temporary's memory to a storage
    first written later) and checks that no two storages live after a step
    hold the same memory: two outputs or temporaries in one storage would
    overwrite each other without an error (944bcfc fixed one such plan).
    A failure is a bug of this module, reported instead of run."""
    holder: Dict[str, int] = {}     # live storage -> memory
    holders: Dict[int, set] = {}    # memory -> live storages
    fresh = itertools.count()

    def take(name, memory):
        holder[name] = memory
        holders.setdefault(memory, set()).add(name)

    def drop(name):
        memory = holder.pop(name, None)
        if memory is not None:
            holders[memory].discard(name)
        return memory

    for b in inputs:
        if b.storage not in holder:
            take(b.storage, next(fresh))
    for run in steps:
        shared = []
        for dst, src in run.reuse:
            if src not in holder:
                raise PlanError("step %s updates %r in place of %r, which "
                                "holds no memory" % (run.step.name, dst, src))
            drop(dst)
            take(dst, holder[src])
            shared.append(dst)
        for name in step_storages(run.step, graph_buffers):
            if name not in holder:
                take(name, next(fresh))
        for name in run.free_after:
            drop(name)
        for dst, src in run.handover:
            memory = drop(src)
            if memory is None:
                raise PlanError("step %s hands %r the memory of %r, which "
                                "holds none" % (run.step.name, dst, src))
            drop(dst)
            take(dst, memory)
            shared.append(dst)
        for name in shared:
            if name in holder and len(holders[holder[name]]) > 1:
                raise PlanError(
                    "after step %s, storages %s would share one memory"
                    % (run.step.name,
                       ", ".join(sorted(holders[holder[name]]))))


def _reordered(manifest: Manifest, run: List[Step], freeable: set,
               inputs: List[InputBinding],
               deps: Dict[str, NodeDeps]) -> List[Step]:
    """The steps in the order of least estimated peak memory. As in
    Inductor's estimate (`get_freeable_input_buf`), the inputs whose
    release frees memory are the backward graph's saved activations and
    tangents: parameters and the caller's inputs (`primals_N`, `argN_M`)
    stay with the caller, so releasing them frees nothing, and they count
    neither as held nor as freed (counting them freed would move their
    copies, such as weights converted to another layout, to the front)."""
    graph_buffers = manifest.buffer_storages()
    touched = [set(step_storages(step, graph_buffers)) for step in run]
    held = {}
    for s in manifest.storages:
        if s.role == "input" and isinstance(s.elements, int) and \
                not s.name.startswith(_CALLER_HELD):
            held[s.name] = s.elements * dtype_size(s.dtype)
    frees = {name for name in freeable
             if not name.startswith(_CALLER_HELD + ("arg:",))}
    indices, _ = order.reorder(manifest, run, touched, deps, frees, held)
    return [run[i] for i in indices]


def _symbols_of(values) -> set:
    return {n for v in values if isinstance(v, sizes.Expr)
            for n in v.symbols}


def _check_symbols_bound(manifest: Manifest, inputs: List[InputBinding]):
    """Every size symbol the manifest uses (kernels' arguments and grids,
    storages' sizes, layouts, copies) must be bound by a call argument, as
    `sizes.bind` binds them: a size argument, or a dimension of an input
    tensor that is the symbol alone. Else the first call would fail at a
    launch; this fails at compile time, naming the symbols."""
    bound = {b.symbol for b in inputs if b.symbol.isidentifier()}
    for b in inputs:
        bound |= {d.text for d in b.shape
                  if isinstance(d, sizes.Expr) and d.symbols == {d.text}}
    used = set()
    for s in manifest.storages:
        used |= _symbols_of([s.elements])
    for t in manifest.inputs + manifest.outputs:
        used |= _symbols_of(t.shape + t.strides + (t.offset,))
    for step in manifest.steps:
        used |= set(step.symbols) | _symbols_of(step.grid + (step.elements,))
    unbound = sorted(used - bound)
    if unbound:
        raise PlanError("graph %s uses size symbols %s that no call argument "
                        "binds (neither a size argument nor a dimension of "
                        "an input tensor)" % (manifest.graph,
                                              ", ".join(unbound)))


# Graph inputs the caller keeps (Inductor's names for parameters, buffers
# and user inputs).
_CALLER_HELD = ("primals_", "arg")


def plan(manifest: Manifest, signature: dict,
         deps: Optional[Dict[str, NodeDeps]] = None,
         reorder: bool = True,
         views: Optional[Dict[str, Tuple[str, ...]]] = None,
         hints: Optional[Dict[str, int]] = None) -> Plan:
    """The run plan of `manifest` for calls with `signature`'s arguments;
    with the dump's dependencies (`deps.parse`), kernels update dying
    temporaries in place; with its aliases (`deps.aliases`), storages that
    externs return views of live as long as the views. With `reorder`, the steps run in the order of
    least estimated peak memory (`order.py`, Inductor's
    reorder_for_peak_memory). With the graph's size hints (symbol ->
    value, `size_hints.json`), storages of a symbolic number of elements
    take part in handovers (`_handovers`)."""
    by_name = {t.name: t for t in manifest.inputs}
    inputs: List[InputBinding] = []
    arg_storage: Dict[str, str] = {}
    bound_storages = set()
    for position, entry in enumerate(signature.get("inputs", ())):
        name = entry["name"]
        if entry.get("ignored"):
            continue  # neither a tensor nor a size symbol: unused
        if entry.get("symbol"):
            inputs.append(InputBinding(position, symbol=entry["symbol"]))
            continue
        t = by_name.get(name)
        if t is None:
            # Read by no kernel (returned, or unused): no storage of its own.
            storage = "arg:" + name
            inputs.append(InputBinding(position, storage=storage,
                                       mutated=bool(entry.get("mutated"))))
        else:
            storage = t.storage
            if storage in bound_storages:
                raise PlanError("inputs share storage %r" % storage)
            host = bool(entry.get("host_scalar"))
            if host and (t.shape or entry.get("mutated")):
                raise PlanError("input %s: a host tensor that kernels read "
                                "must be zero-dimensional and not written"
                                % name)
            inputs.append(InputBinding(position, storage=storage,
                                       offset=t.offset, shape=t.shape,
                                       strides=t.strides,
                                       mutated=bool(entry.get("mutated")),
                                       host=host))
        bound_storages.add(storage)
        arg_storage[name] = storage
    missing = [t.name for t in manifest.inputs if t.name not in arg_storage]
    if missing:
        raise PlanError("graph %s reads inputs %s that the call does not "
                        "pass" % (manifest.graph, ", ".join(missing)))

    aliases = {s.dst: s.src for s in manifest.steps if s.kind == "copy"}
    # Outputs name buffers: graph outputs and inputs of the manifest, then
    # the manifest's buffer map, buffers externs name, storages (named after
    # the buffer they hold), then inputs no kernel reads.
    buffer_storage = {t.name: _resolve(aliases, t.storage)
                      for t in manifest.outputs}
    buffer_storage.update({t.name: t.storage for t in manifest.inputs})
    for buffer, storage in manifest.buffers:
        buffer_storage.setdefault(buffer, _resolve(aliases, storage))
    for step in manifest.externs():
        for buffer, storage in step.buffers:
            buffer_storage.setdefault(buffer, storage)
    for s in manifest.storages:
        buffer_storage.setdefault(s.name, s.name)
    for name, storage in arg_storage.items():
        buffer_storage.setdefault(name, storage)
    outputs = []
    for k, entry in enumerate(signature.get("outputs", ())):
        if entry is None:
            outputs.append(Output())
        elif "buffer" in entry:
            storage = buffer_storage.get(entry["buffer"])
            if storage is None:
                raise PlanError("output %d names buffer %r, which graph %s "
                                "neither reads nor writes"
                                % (k, entry["buffer"], manifest.graph))
            outputs.append(Output(view=_view(entry, storage)))
        elif "size" in entry:
            outputs.append(Output(size=sizes.parse(entry["size"])))
        else:
            raise PlanError("output %d: unknown kind %r" % (k, entry))

    _check_symbols_bound(manifest, inputs)
    groups = _view_groups(manifest, views or {})
    freeable = _freeable(manifest, aliases, outputs, inputs, groups)
    run = run_steps(manifest)
    if reorder:
        run = _reordered(manifest, run, freeable, inputs, deps or {})
    releases, free_at_start = _release_points(manifest, run, freeable,
                                              groups)
    reuse = _in_place(manifest, run, releases, deps or {})
    allocations = tuple((s.name, s.dtype, s.elements)
                        for s in manifest.storages
                        if s.role == "temp" or
                        (s.role == "output" and s.name not in aliases))
    handover = _handovers(manifest, run, releases, reuse, allocations,
                          inputs, hints)
    steps = tuple(RunStep(step,
                          tuple(sorted(set(releases.get(i, ())) -
                                       {src for _, src in
                                        handover.get(i, ())})),
                          tuple(reuse.get(i, ())),
                          tuple(handover.get(i, ())))
                  for i, step in enumerate(run))

    _check_exclusive_memory(steps, inputs, manifest.buffer_storages())

    dtypes = {s.name: s.dtype for s in manifest.storages}
    for t in signature.get("inputs", ()):
        if t.get("dtype") and arg_storage.get(t["name"], "").startswith("arg:"):
            dtypes[arg_storage[t["name"]]] = t["dtype"]
    return Plan(graph=manifest.graph, inputs=tuple(inputs),
                allocations=allocations, steps=steps,
                aliases=tuple(sorted((dst, _resolve(aliases, src))
                                     for dst, src in aliases.items())),
                outputs=tuple(outputs), dtypes=tuple(sorted(dtypes.items())),
                free_at_start=free_at_start)


def empty_manifest(graph: str) -> Manifest:
    """The manifest of a graph without scheduler nodes (its outputs are
    inputs, views of them, or sizes)."""
    return Manifest(graph=graph, module="", binary="", format="ptx",
                    storages=(), inputs=(), outputs=(), steps=())
