"""Runtime planning: bindings, allocations, frees, aliases, outputs."""
import copy
import dataclasses
import itertools
import random

import pytest

from scheduler_opt import deps, manifest, plan, sizes

# x -> op0 -> buf0 (temp) -> op1 -> buf2 (output); an extern reads buf2
# and writes buf3 (temp) read by op2 into buf4 (output); the graph also
# returns x (copied into output2) and a view of buf2.
DATA = {
    "version": manifest.VERSION, "graph": "g", "module": "g_kernels", "binary": "g.ptx", "format": "ptx",
    "storages": [
        {"name": "x", "role": "input", "dtype": "f32", "elements": 32},
        {"name": "buf2", "role": "output", "dtype": "f32", "elements": 32},
        {"name": "buf4", "role": "output", "dtype": "f32", "elements": 32},
        {"name": "output2", "role": "output", "dtype": "f32", "elements": 32},
        {"name": "buf0", "role": "temp", "dtype": "f32", "elements": 4},
        {"name": "buf3", "role": "temp", "dtype": "f32", "elements": 32},
    ],
    "inputs": [{"name": "x", "storage": "x", "dtype": "f32", "shape": [4, 8],
                "strides": [8, 1], "offset": 0}],
    "outputs": [
        {"name": "buf2", "storage": "buf2", "dtype": "f32", "shape": [4, 8],
         "strides": [8, 1], "offset": 0},
        {"name": "buf4", "storage": "buf4", "dtype": "f32", "shape": [4, 8],
         "strides": [8, 1], "offset": 0},
        {"name": "x", "storage": "output2", "dtype": "f32", "shape": [4, 8],
         "strides": [8, 1], "offset": 0}],
    "steps": [
        {"kind": "kernel", "name": "k0", "grid": [4, 1, 1],
         "block": [32, 1, 1], "args": ["x", "buf0"]},
        {"kind": "kernel", "name": "k1", "grid": [1, 1, 1],
         "block": [256, 1, 1], "args": ["x", "buf0", "buf2"]},
        {"kind": "extern", "name": "extern_kernels.mm", "node": "op3",
         "args": ["buf2", "buf3"], "inputs": ["buf2"],
         "outputs": [{"buffer": "buf3", "storage": "buf3", "index": -1}],
         "buffers": {"buf2": "buf2", "buf3": "buf3"}, "call": {}},
        {"kind": "kernel", "name": "k2", "grid": [1, 1, 1],
         "block": [256, 1, 1], "args": ["buf3", "buf4"]},
        {"kind": "copy", "src": "x", "dst": "output2", "elements": 32},
    ],
}

SIGNATURE = {
    "inputs": [{"name": "unused", "dtype": "f32"},
               {"name": "x", "dtype": "f32"}],
    "outputs": [
        {"buffer": "buf4", "size": [4, 8], "stride": [8, 1], "offset": 0},
        {"buffer": "x", "size": [8, 4], "stride": [1, 8], "offset": 0},
        {"buffer": "buf2", "size": [8], "stride": [1], "offset": 8},
        {"buffer": "unused", "size": [2], "stride": [1], "offset": 0},
        None,
        {"size": "s0*2"},
    ],
}


def make():
    return plan.plan(manifest.parse(DATA), SIGNATURE)


def test_inputs_bind_by_name():
    p = make()
    assert [(b.position, b.storage) for b in p.inputs] == \
        [(0, "arg:unused"), (1, "x")]


def test_allocations_and_frees():
    p = make()
    # Copies into outputs become aliases: output2 is never allocated.
    assert sorted(a[0] for a in p.allocations) == ["buf0", "buf2", "buf3",
                                                   "buf4"]
    assert p.aliases == (("output2", "x"),)
    # Each temporary is freed after its last use, outputs never.
    assert [(r.step.name, r.free_after) for r in p.steps] == [
        ("k0", ()), ("k1", ("buf0",)), ("extern_kernels.mm", ()),
        ("k2", ("buf3",))]


def _last_users(p):
    """Independently of the plan: the index of the last step naming each
    storage (kernel arguments, extern operands and outputs)."""
    last = {}
    for i, r in enumerate(p.steps):
        s = r.step
        for name in list(s.args) + list(s.inputs) + \
                [o.storage for o in s.outputs]:
            last[name] = i
    return last


def test_inputs_released_after_last_reader():
    """An input storage no output returns is released after its last
    reader (Inductor's wrapper: `del primals_N`), never before."""
    data = copy.deepcopy(DATA)
    data["steps"].pop()  # output2 no longer aliases x
    data["storages"].pop(3)
    data["outputs"].pop()
    sig = copy.deepcopy(SIGNATURE)
    del sig["outputs"][1]  # nor does an output view x
    p = plan.plan(manifest.parse(data), sig)
    released = {n: i for i, r in enumerate(p.steps) for n in r.free_after}
    # x is read by k0 and k1 (step 1); buf0 by k1; buf3 by k2 (step 3).
    assert released == {"x": 1, "buf0": 1, "buf3": 3}
    last = _last_users(p)
    assert all(released[n] == last[n] for n in released)
    # The unused argument is returned (output 2): never released.
    assert p.free_at_start == ()
    sig["outputs"] = [o for o in sig["outputs"]
                      if not o or o.get("buffer") != "unused"]
    p = plan.plan(manifest.parse(data), sig)
    assert p.free_at_start == ("arg:unused",)


def test_extern_call_views_extend_lifetime():
    """A storage an extern's recorded call passes as a view (through the
    graph's buffer map) is in use until that extern ran."""
    data = copy.deepcopy(DATA)
    data["buffers"] = {"buf0": "buf0", "buf1": "buf0"}
    data["steps"][2]["call"] = {
        "kernel": "extern_kernels.mm",
        "args": [{"buffer": "buf2", "size": [4, 8], "stride": [8, 1],
                  "offset": 0},
                 {"buffer": "buf1", "size": [4, 1], "stride": [1, 1],
                  "offset": 0}]}
    p = plan.plan(manifest.parse(data), SIGNATURE)
    released = {n: i for i, r in enumerate(p.steps) for n in r.free_after}
    assert released["buf0"] == 2  # not after k1, which last names it


def test_outputs_and_aliases_never_released():
    p = make()
    released = {n for r in p.steps for n in r.free_after} | \
        set(p.free_at_start)
    returned = {o.view.storage for o in p.outputs if o.view is not None}
    assert returned == {"buf4", "x", "buf2", "arg:unused"}
    assert not released & returned
    assert not released & {dst for dst, _ in p.aliases}
    assert not released & {src for _, src in p.aliases}
    outputs = {s["name"] for s in DATA["storages"] if s["role"] == "output"}
    assert not released & outputs


def _deps(read_index="c0", iteration="(32, 1)"):
    """k2 (node op4) reads buf3 and writes buf4, 32 elements each."""
    return deps.parse(
        "op4.writes = [MemoryDep('buf4', c0, {c0: 32})]\n"
        "op4.unmet_dependencies = [MemoryDep('buf3', %s, {c0: 32})]\n"
        "op4.met_dependencies = []\n"
        "op4.group.iteration = %s\n" % (read_index, iteration))


def _with_node():
    data = copy.deepcopy(DATA)
    data["steps"][3]["node"] = "op4"
    return manifest.parse(data)


def test_in_place_update_of_a_dying_temporary():
    """Inductor's decide_inplace_update: a pointwise kernel reading a
    temporary for the last time at the index where it writes its result
    writes into the temporary (`buf12 = buf8; del buf8  # reuse` in
    Inductor's mlp_train backward)."""
    p = plan.plan(_with_node(), SIGNATURE, _deps())
    assert [(r.step.name, r.reuse) for r in p.steps if r.reuse] == \
        [("k2", (("buf4", "buf3"),))]
    # Not without dependencies, at another index, for a reduction, nor
    # when the temporary is read later.
    assert not any(r.reuse for r in plan.plan(_with_node(), SIGNATURE).steps)
    for d in (_deps(read_index="31 - c0"), _deps(iteration="(1, 32)")):
        assert not any(r.reuse for r in
                       plan.plan(_with_node(), SIGNATURE, d).steps)
    sig = copy.deepcopy(SIGNATURE)
    sig["outputs"].append({"buffer": "buf3", "size": [32], "stride": [1],
                           "offset": 0})
    assert not any(r.reuse for r in plan.plan(_with_node(), sig,
                                              _deps()).steps)


def test_outputs():
    p = make()
    views = [o.view for o in p.outputs]
    assert views[0] == plan.View("buf4", (4, 8), (8, 1), 0)
    assert views[1].storage == "x"  # the returned input, by its name
    assert views[2] == plan.View("buf2", (8,), (1,), 8)
    assert views[3].storage == "arg:unused"
    assert p.outputs[4] == plan.Output()
    assert p.outputs[5].size == sizes.Expr("s0*2")


def test_temp_aliased_by_output_lives():
    data = copy.deepcopy(DATA)
    data["steps"][-1].update(src="buf0", elements=4)
    data["storages"][3]["elements"] = 4
    data["outputs"][2].update(shape=[4], strides=[1])
    p = plan.plan(manifest.parse(data), SIGNATURE)
    assert all("buf0" not in r.free_after for r in p.steps)


def test_output_viewing_a_temporary():
    """A graph output may be a view of a buffer the graph keeps in a
    temporary storage (named after the buffer): found by its name, and not
    freed."""
    sig = copy.deepcopy(SIGNATURE)
    sig["outputs"].append({"buffer": "buf3", "size": [32], "stride": [1],
                           "offset": 0})
    p = plan.plan(manifest.parse(DATA), sig)
    assert p.outputs[-1].view.storage == "buf3"
    assert all("buf3" not in r.free_after for r in p.steps)


def test_errors():
    with pytest.raises(plan.PlanError, match="reads inputs x that the call "
                       "does not pass"):
        plan.plan(manifest.parse(DATA), {"inputs": [], "outputs": []})
    sig = copy.deepcopy(SIGNATURE)
    sig["outputs"][0]["buffer"] = "buf9"
    with pytest.raises(plan.PlanError, match="names buffer 'buf9'"):
        plan.plan(manifest.parse(DATA), sig)


def test_size_inputs_bind_symbols():
    sig = {"inputs": [{"name": "n", "symbol": "s0"},
                      {"name": "x", "dtype": "f32"}], "outputs": []}
    p = plan.plan(manifest.parse(DATA), sig)
    assert p.inputs[0].symbol == "s0"


def _dynamic(shape):
    """DATA with x of `shape` (size expressions) and a kernel taking s0."""
    data = copy.deepcopy(DATA)
    data["inputs"][0]["shape"] = shape
    data["inputs"][0]["strides"] = [8, 1]
    data["storages"][0]["elements"] = "s0*8"
    data["steps"][0]["grid"] = ["s0", 1, 1]
    data["steps"][0]["symbols"] = ["s0"]
    return manifest.parse(data)


def test_symbols_must_be_bound():
    sig = {"inputs": [{"name": "x", "dtype": "f32"}], "outputs": []}
    # A dimension that is the symbol alone binds it.
    p = plan.plan(_dynamic(["s0", 8]), sig)
    assert p.inputs[0].shape[0] == sizes.Expr("s0")
    # So does a size argument.
    sig_n = {"inputs": [{"name": "n", "symbol": "s0"},
                        {"name": "x", "dtype": "f32"}], "outputs": []}
    plan.plan(_dynamic(["2*s0", 8]), sig_n)
    # A symbol only inside an expression is bound by nothing: the plan
    # fails naming it, not the first launch.
    with pytest.raises(plan.PlanError, match="size symbols s0 that no call "
                       "argument binds"):
        plan.plan(_dynamic(["2*s0", 8]), sig)


def _softmax_kernel(write_index="c0", extra_reader=False):
    """One kernel (op9_op10_op11) computing a softmax over rows of buf8,
    a temporary read for the last time: op9 (max) and op10 (sum) reduce
    each row, op11 (pointwise, per element) writes buf11 at the index at
    which all three read buf8, as in Inductor's attention forward (where
    its wrapper writes `buf11 = reinterpret_tensor(buf8, ...); del buf8
    # reuse`)."""
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m", "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32", "elements": 32},
            {"name": "buf8", "role": "temp", "dtype": "f32", "elements": 32},
            {"name": "buf11", "role": "output", "dtype": "f32",
             "elements": 32}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": [32], "strides": [1], "offset": 0}],
        "outputs": [{"name": "buf11", "storage": "buf11", "dtype": "f32",
                     "shape": [32], "strides": [1], "offset": 0}],
        "steps": [
            {"kind": "kernel", "name": "k0", "node": "op8",
             "grid": [1, 1, 1], "block": [32, 1, 1], "args": ["x", "buf8"]},
            {"kind": "kernel", "name": "k1", "node": "op9_op10_op11",
             "grid": [1, 1, 1], "block": [32, 1, 1],
             "args": ["buf8", "buf11"]}]}
    read = "MemoryDep('buf8', c0, {c0: 32})"
    text = (
        "op8.writes = [MemoryDep('buf8', c0, {c0: 32})]\n"
        "op8.unmet_dependencies = []\n"
        "op8.met_dependencies = [MemoryDep('x', c0, {c0: 32})]\n"
        "op8.group.iteration = (32, 1)\n"
        "op9.writes = [MemoryDep('buf9', c0, {c0: 4})]\n"
        "op9.unmet_dependencies = [%s]\n"
        "op9.met_dependencies = []\n"
        "op9.group.iteration = (4, 8)\n"
        "op10.writes = [MemoryDep('buf10', c0, {c0: 4})]\n"
        "op10.unmet_dependencies = [%s, MemoryDep('buf9', c0, {c0: 4})]\n"
        "op10.met_dependencies = []\n"
        "op10.group.iteration = (4, 8)\n"
        "op11.writes = [MemoryDep('buf11', %s, {c0: 32})]\n"
        "op11.unmet_dependencies = [MemoryDep('buf10', c0, {c0: 4}), %s, "
        "MemoryDep('buf9', c0, {c0: 4})]\n"
        "op11.met_dependencies = []\n"
        "op11.group.iteration = (32, 1)\n" % (read, read, write_index, read))
    if extra_reader:
        # op12, not an ancestor of op11, also reads buf8 in the kernel.
        data["steps"][1]["node"] += "_op12"
        text += ("op12.writes = [MemoryDep('buf12', c0, {c0: 4})]\n"
                 "op12.unmet_dependencies = [%s]\n"
                 "op12.met_dependencies = []\n"
                 "op12.group.iteration = (4, 8)\n" % read)
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "buf11", "size": [32], "stride": [1],
                        "offset": 0}]}
    return manifest.parse(data), sig, deps.parse(text)


def test_in_place_update_by_a_reduction_kernel():
    m, sig, d = _softmax_kernel()
    p = plan.plan(m, sig, d)
    assert [r.reuse for r in p.steps] == [(), (("buf11", "buf8"),)]
    # Not at another index, nor with a reader op11 does not wait for.
    for m, sig, d in (_softmax_kernel(write_index="31 - c0"),
                      _softmax_kernel(extra_reader=True)):
        assert not any(r.reuse for r in plan.plan(m, sig, d).steps)


def test_in_place_memory_is_not_handed_over():
    """The temporary a kernel updates in place (buf8, buf11's memory from
    then on) is released there but not free: a later output of its dtype
    and size (buf12) gets memory of its own. Handing buf8 over as well
    made two outputs share one storage (bench/unseen_models_third.py's
    bn_channels_last_train: its batch norm backward's mul_17 updated a
    reduction's temporary in place, and sum_3 was handed the same memory
    and overwrote it)."""
    m, sig, d = _softmax_kernel()
    storages = m.storages + (dataclasses.replace(m.storages[2],
                                                 name="buf12"),)
    outputs = m.outputs + (dataclasses.replace(m.outputs[0], name="buf12",
                                               storage="buf12"),)
    steps = m.steps + (dataclasses.replace(m.steps[0], name="k2",
                                           node="op12",
                                           args=("x", "buf12")),)
    m = dataclasses.replace(m, storages=storages, outputs=outputs,
                            steps=steps)
    sig = dict(sig, outputs=sig["outputs"] + [
        {"buffer": "buf12", "size": [32], "stride": [1], "offset": 0}])
    p = plan.plan(m, sig, d, reorder=False)
    assert [r.reuse for r in p.steps] == [(), (("buf11", "buf8"),), ()]
    assert not any(r.handover for r in p.steps)
    assert ("buf12", "f32", 32) in p.allocations


def test_shared_memory_is_checked():
    """The plan replays its in-place updates and handovers and refuses one
    that leaves two live storages in one memory: here the step updating
    buf8 in place (buf11 takes its memory) also hands buf8 to buf12, the
    plan 944bcfc stopped making."""
    m, sig, d = _softmax_kernel()
    p = plan.plan(m, sig, d, reorder=False)
    runs = list(p.steps)
    graph_buffers = m.buffer_storages()
    plan._check_exclusive_memory(tuple(runs), list(p.inputs), graph_buffers)
    runs[1] = dataclasses.replace(runs[1], free_after=(),
                                  handover=(("buf12", "buf8"),))
    with pytest.raises(plan.PlanError, match="after step k1, storages "
                       "buf11, buf12 would share one memory"):
        plan._check_exclusive_memory(tuple(runs), list(p.inputs),
                                     graph_buffers)


def test_in_place_waits_for_the_last_reduction_level():
    """A member storing before the kernel's last pass over the row (the
    lowering may re-read the temporary there, recomputing values a later
    member needs): no in-place update. op13 reduces op11's result (level
    2) and op14 uses that reduction (level 3), after op11's level."""
    m, sig, d = _softmax_kernel()
    d = dict(d)
    d.update(deps.parse(
        "op13.writes = [MemoryDep('buf13', c0, {c0: 4})]\n"
        "op13.unmet_dependencies = [MemoryDep('buf11', c0, {c0: 32})]\n"
        "op13.met_dependencies = []\n"
        "op13.group.iteration = (4, 8)\n"
        "op14.writes = [MemoryDep('buf14', c0, {c0: 32})]\n"
        "op14.unmet_dependencies = [MemoryDep('buf13', c0, {c0: 4})]\n"
        "op14.met_dependencies = []\n"
        "op14.group.iteration = (32, 1)\n"))
    steps = tuple(dataclasses.replace(s, node=s.node + "_op13_op14")
                  if s.name == "k1" else s for s in m.steps)
    m2 = dataclasses.replace(m, steps=steps)
    assert not any(r.reuse for r in plan.plan(m2, sig, d).steps)


def _handover_graph(second="kernel", middle=4, size=32, out_size=None):
    """k0 writes t0 (temp, `size` elements) from x; k1 reads t0 into t1
    (temp, `middle` elements), releasing t0; then `second` (a kernel, or
    an extern with or without out=) writes out (`out_size` elements,
    `size` by default) from t1. Sizes may be expressions in s0: x is
    then s0 rows of 4 (`size` is 4*s0), and the kernels take s0 after
    their pointers."""
    out_size = size if out_size is None else out_size
    symbols = [] if isinstance(size, int) else ["s0"]
    shape, strides = ([size], [1]) if isinstance(size, int) else \
        (["s0", 4], [4, 1])
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m", "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32", "elements": size},
            {"name": "t0", "role": "temp", "dtype": "f32", "elements": size},
            {"name": "t1", "role": "temp", "dtype": "f32",
             "elements": middle},
            {"name": "out", "role": "output", "dtype": "f32",
             "elements": out_size}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": shape, "strides": strides, "offset": 0}],
        "outputs": [{"name": "out", "storage": "out", "dtype": "f32",
                     "shape": [out_size], "strides": [1], "offset": 0}],
        "steps": [
            {"kind": "kernel", "name": "k0", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["x", "t0"], "symbols": symbols},
            {"kind": "kernel", "name": "k1", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["t0", "t1"],
             "symbols": symbols}]}
    if second == "kernel":
        data["steps"].append({"kind": "kernel", "name": "k2",
                              "grid": [1, 1, 1], "block": [32, 1, 1],
                              "args": ["t1", "out"], "symbols": symbols})
    else:
        call = {"kernel": "extern_kernels.mm", "args": []}
        if second == "out":
            call["out"] = {"buffer": "out", "size": [out_size],
                           "stride": [1], "offset": 0}
        data["steps"].append({
            "kind": "extern", "name": "extern_kernels.mm", "node": "op3",
            "args": ["t1", "out"], "inputs": ["t1"],
            "outputs": [{"buffer": "out", "storage": "out", "index": -1}],
            "buffers": {"t1": "t1", "out": "out"}, "call": call})
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "out", "size": [out_size], "stride": [1],
                        "offset": 0}]}
    return manifest.parse(data), sig


def test_handover_of_a_released_temporary():
    """Inductor's buffer reuse: `out` (first written by the third step)
    takes the memory of t0, released after the second, of the same dtype
    and size, instead of a new allocation; t0 is then not released."""
    m, sig = _handover_graph()
    p = plan.plan(m, sig)
    assert [r.handover for r in p.steps] == [(), (("out", "t0"),), ()]
    assert "t0" not in {n for r in p.steps for n in r.free_after}
    # An extern writing through out= takes it too; one returning a new
    # tensor (which the runtime adopts) does not.
    m, sig = _handover_graph("out")
    assert plan.plan(m, sig).steps[1].handover == (("out", "t0"),)
    m, sig = _handover_graph("returns")
    p = plan.plan(m, sig)
    assert not any(r.handover for r in p.steps)
    assert "t0" in p.steps[1].free_after


def _random_chain(seed, steps):
    """A graph of `steps` kernels, each writing a new temporary (32, 64 or
    128 floats) from one or two earlier ones still to be read, the last
    writing the output: temporaries die and are born all along, of
    repeating sizes."""
    rng = random.Random(seed)
    sizes_ = [rng.choice((32, 64, 128)) for _ in range(steps - 1)]
    storages = [{"name": "x", "role": "input", "dtype": "f32",
                 "elements": 32},
                {"name": "out", "role": "output", "dtype": "f32",
                 "elements": 32}]
    storages += [{"name": "t%d" % k, "role": "temp", "dtype": "f32",
                  "elements": n} for k, n in enumerate(sizes_)]
    kernels = []
    for k in range(steps):
        reads = ["x"] if k == 0 else sorted(
            {"t%d" % (k - 1), "t%d" % rng.randrange(max(0, k - 6), k)})
        written = "t%d" % k if k < steps - 1 else "out"
        kernels.append({"kind": "kernel", "name": "k%d" % k,
                        "grid": [1, 1, 1], "block": [32, 1, 1],
                        "args": reads + [written]})
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m",
        "binary": "g.ptx", "format": "ptx", "storages": storages,
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": [32], "strides": [1], "offset": 0}],
        "outputs": [{"name": "out", "storage": "out", "dtype": "f32",
                     "shape": [32], "strides": [1], "offset": 0}],
        "steps": kernels}
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "out", "size": [32], "stride": [1],
                        "offset": 0}]}
    return manifest.parse(data), sig


def _replayed_peak(p, m, handovers=True):
    """The most bytes the plan's allocations hold at once, replayed from
    its steps (after a step's first writes, before its releases); without
    `handovers`, each handed-over temporary is released and its taker
    allocated anew instead."""
    nbytes = {s.name: 4 * s.elements for s in m.storages}
    allocated = {name for name, _, _ in p.allocations}
    graph_buffers = m.buffer_storages()
    holder, held, fresh = {}, {}, itertools.count()
    live = top = 0
    for run in p.steps:
        for dst, src in run.reuse:
            holder[dst] = holder[src]
        for name in plan.step_storages(run.step, graph_buffers):
            if name in allocated and name not in holder:
                holder[name] = next(fresh)
                held[holder[name]] = nbytes[name]
                live += nbytes[name]
        top = max(top, live)
        handed = dict(run.handover) if handovers else {}
        kept = set(handed.values())
        for name in run.free_after + tuple(
                src for _, src in run.handover if not handovers):
            memory = holder.pop(name, None)
            if name not in kept and memory in held and \
                    memory not in holder.values():
                live -= held.pop(memory)
        for dst, src in handed.items():
            holder[dst] = holder.pop(src)
    return top


def test_handovers_on_long_graphs_never_raise_the_peak():
    """On graphs of a few hundred steps whose temporaries of three sizes
    die and are born all along, the handovers the plan makes (checked one
    at a time against the estimated peak) never hold more memory at once
    than the same plan releasing every temporary and allocating anew, and
    there are many of them."""
    made = 0
    for seed in range(8):
        m, sig = _random_chain(seed, 300)
        p = plan.plan(m, sig)
        made += sum(len(r.handover) for r in p.steps)
        assert _replayed_peak(p, m) <= _replayed_peak(p, m, handovers=False)
    assert made > 8 * 100


def test_handover_of_a_symbolic_size():
    """Inductor's buffer reuse for symbolic sizes (its `buffer_reuse_key`
    compares the expressions, not their values at the hints): `out` of
    4*s0 elements takes t0's memory (4*s0 too) when the plan has the
    graph's size hints to estimate the peak at; without hints, or when
    out's size only agrees with t0's at the hints (s0*s0 at s0 = 4), it
    does not."""
    hints = {"s0": 4}
    m, sig = _handover_graph(size="4*s0", middle="s0")
    p = plan.plan(m, sig, hints=hints)
    assert [r.handover for r in p.steps] == [(), (("out", "t0"),), ()]
    assert "t0" not in {n for r in p.steps for n in r.free_after}
    m, sig = _handover_graph("out", size="4*s0", middle="s0")
    assert plan.plan(m, sig, hints=hints).steps[1].handover == \
        (("out", "t0"),)
    m, sig = _handover_graph(size="4*s0", middle="s0")
    p = plan.plan(m, sig)
    assert not any(r.handover for r in p.steps)
    assert "t0" in p.steps[1].free_after
    m, sig = _handover_graph(size="4*s0", middle="s0", out_size="s0*s0")
    assert not any(r.handover for r in plan.plan(m, sig, hints=hints).steps)


def test_handover_keeps_the_peak_one_by_one():
    """Each handover is checked against the peak with those made before
    it: t1 (64 elements, released after k2) can go to u2 (64, first
    written by k3) and t0 (4, released after k1) to u0 (4, first written
    by k4); holding t0 across k2 and k3, which hold 128 elements at the
    peak, would raise it to 132, so only u2 takes t1's memory (the plan
    refused both when it checked them all at once)."""
    def storage(name, role, elements):
        return {"name": name, "role": role, "dtype": "f32",
                "elements": elements}

    def kernel(name, *args):
        return {"kind": "kernel", "name": name, "grid": [1, 1, 1],
                "block": [32, 1, 1], "args": list(args)}
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m",
        "binary": "g.ptx", "format": "ptx",
        "storages": [storage("x", "input", 64), storage("t0", "temp", 4),
                     storage("t1", "temp", 64), storage("t2", "temp", 64),
                     storage("u0", "temp", 4), storage("u2", "temp", 64),
                     storage("out", "output", 4)],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": [64], "strides": [1], "offset": 0}],
        "outputs": [{"name": "out", "storage": "out", "dtype": "f32",
                     "shape": [4], "strides": [1], "offset": 0}],
        "steps": [kernel("k0", "x", "t0"), kernel("k1", "t0", "t1"),
                  kernel("k2", "t1", "t2"), kernel("k3", "t2", "u2"),
                  kernel("k4", "u2", "u0"), kernel("k5", "u0", "out")]}
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "out", "size": [4], "stride": [1],
                        "offset": 0}]}
    p = plan.plan(manifest.parse(data), sig, reorder=False)
    assert [h for r in p.steps for h in r.handover] == [("u2", "t1")]


def test_views_live_with_the_storage_they_view():
    """A view an extern returns (view_as_complex: the dump's `t1.aliases
    = ['t0']`) is the memory of the storage it views: t0 is released with
    t1 after t1's last reader (k2, step 2), not after k1, so it is neither
    handed over to `out` nor released while t1 is read; a storage that an
    output views is never released."""
    m, sig = _handover_graph()
    p = plan.plan(m, sig, views={"t1": ("t0",)})
    released = {n: i for i, r in enumerate(p.steps) for n in r.free_after}
    assert released == {"t0": 2, "t1": 2, "x": 0}
    assert not any(r.handover for r in p.steps)
    # Through a tuple buffer that has no storage (the FallbackKernel's
    # MultiOutputLayout), as the dump prints it: out -> buf -> t0.
    p = plan.plan(m, sig, views={"out": ("buf",), "buf": ("t0",)})
    released = {n for r in p.steps for n in r.free_after}
    assert "t0" not in released and "out" not in released
    assert not any(r.handover for r in p.steps)


def test_handover_never_raises_the_peak():
    """With a step k1b between the release of t0 and the write of `out`
    that allocates a 64-element t2 (from t1, which it releases), holding
    t0 there would raise the estimated peak from 96 elements (t2 and out,
    at the last step) to 100 (t0, t1 and t2 at k1b): no handover, t0 is
    released after k1 as before."""
    m, sig = _handover_graph()
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m", "binary": "g.ptx", "format": "ptx",
        "storages": [dataclasses.asdict(x) for x in m.storages] + [
            {"name": "t2", "role": "temp", "dtype": "f32", "elements": 64}],
        "inputs": [dict(dataclasses.asdict(t), shape=list(t.shape),
                        strides=list(t.strides)) for t in m.inputs],
        "outputs": [dict(dataclasses.asdict(t), shape=list(t.shape),
                         strides=list(t.strides)) for t in m.outputs],
        "steps": [
            {"kind": "kernel", "name": "k0", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["x", "t0"]},
            {"kind": "kernel", "name": "k1", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["t0", "t1"]},
            {"kind": "kernel", "name": "k1b", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["t1", "t2"]},
            {"kind": "kernel", "name": "k2", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["t2", "out"]}]}
    p = plan.plan(manifest.parse(data), sig)
    assert not any(r.handover for r in p.steps)
    assert p.steps[1].free_after == ("t0",)


def test_in_place_mlp_train_as_inductor(tmp_path):
    """mlp_train's backward, as Inductor's wrapper writes it: `buf4 =
    reinterpret_tensor(buf10, ...); del buf10  # reuse`."""
    import os
    from .test_pipeline import CORPUS, compile_and_plan
    source = os.path.join(CORPUS, "mlp_train/model__0_backward_3.1",
                          "output_code.py")
    if not os.path.exists(source):
        pytest.skip("no corpus graph")
    with open(source) as f:
        assert "buf4 = reinterpret_tensor(buf10, (512, 8), (1, 512), 0); " \
            "del buf10  # reuse" in f.read()
    _, p = compile_and_plan("mlp_train/model__0_backward_3.1", tmp_path)
    assert [h for r in p.steps for h in r.handover] == [("buf4", "buf10")]
