"""Step order for the least peak memory (order.py, Inductor's
reorder_for_peak_memory)."""
import os

from scheduler_opt import deps, manifest, order, plan

from .test_pipeline import CORPUS, compile_and_plan


def _graph(extern_name="extern_kernels.mm"):
    """mlp_train's backward in small: a kernel writes buf3 (temp), read by
    two matrix products; `big` (extern op8) writes a 64-element temporary
    that op12 reads, `small` (extern op9) reads the saved input `act`
    (released after its last use) and writes a 16-element output. Run
    as listed (op8 first), buf8 and act are live together."""
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m", "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32", "elements": 16},
            {"name": "act", "role": "input", "dtype": "f32", "elements": 64},
            {"name": "buf3", "role": "temp", "dtype": "f32", "elements": 16},
            {"name": "buf8", "role": "temp", "dtype": "f32", "elements": 64},
            {"name": "buf9", "role": "output", "dtype": "f32",
             "elements": 16},
            {"name": "buf12", "role": "output", "dtype": "f32",
             "elements": 16}],
        "inputs": [{"name": n, "storage": n, "dtype": "f32", "shape": [e],
                    "strides": [1], "offset": 0}
                   for n, e in (("x", 16), ("act", 64))],
        "outputs": [{"name": n, "storage": n, "dtype": "f32", "shape": [16],
                     "strides": [1], "offset": 0}
                    for n in ("buf9", "buf12")],
        "steps": [
            {"kind": "kernel", "name": "k0", "node": "op3", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["x", "buf3"]},
            {"kind": "extern", "name": extern_name, "node": "op8",
             "args": ["buf3", "buf8"], "inputs": ["buf3"],
             "outputs": [{"buffer": "buf8", "storage": "buf8"}],
             "buffers": {"buf3": "buf3", "buf8": "buf8"}},
            {"kind": "extern", "name": extern_name, "node": "op9",
             "args": ["buf3", "act", "buf9"], "inputs": ["buf3", "act"],
             "outputs": [{"buffer": "buf9", "storage": "buf9"}],
             "buffers": {"buf3": "buf3", "act": "act", "buf9": "buf9"}},
            {"kind": "kernel", "name": "k1", "node": "op12",
             "grid": [1, 1, 1], "block": [32, 1, 1],
             "args": ["buf8", "buf12"]}]}
    text = (
        "op3.writes = [MemoryDep('buf3', c0, {c0: 16})]\n"
        "op3.met_dependencies = [MemoryDep('x', c0, {c0: 16})]\n"
        "op8.writes = [StarDep(name='buf8', mode=None)]\n"
        "op8.unmet_dependencies = [StarDep(name='buf3', mode=None)]\n"
        "op9.writes = [StarDep(name='buf9', mode=None)]\n"
        "op9.unmet_dependencies = [StarDep(name='buf3', mode=None)]\n"
        "op9.met_dependencies = [StarDep(name='act', mode=None)]\n"
        "op12.writes = [MemoryDep('buf12', c0, {c0: 16})]\n"
        "op12.unmet_dependencies = [MemoryDep('buf8', c0, {c0: 64})]\n")
    sig = {"inputs": [{"name": "x", "dtype": "f32"},
                      {"name": "act", "dtype": "f32"}],
           "outputs": [{"buffer": n, "size": [16], "stride": [1],
                        "offset": 0} for n in ("buf9", "buf12")]}
    return manifest.parse(data), sig, deps.parse(text)


def _names(p):
    return [r.step.node for r in p.steps]


def test_reorder_lowers_the_peak():
    """Running op9 first releases `act` before op8 allocates buf8, as
    Inductor's wrapper orders mlp_train's backward."""
    m, sig, d = _graph()
    assert _names(plan.plan(m, sig, d, reorder=False)) == \
        ["op3", "op8", "op9", "op12"]
    p = plan.plan(m, sig, d)
    assert _names(p) == ["op3", "op9", "op8", "op12"]
    # act is released after op9, now step 1.
    assert [r.free_after for r in p.steps][1] == ("act",)
    touched = [set(order_storages(s)) for s in m.steps]
    free = {"x", "act", "buf3", "buf8"}
    inputs = {"x": 64, "act": 256}
    _, peaks = order.reorder(m, list(m.steps), touched, d, free, inputs)
    # By hand, in bytes (4 per element). Manifest order: inputs 320, op3
    # +64 (x released: 320), op8 +256 = 576 peak (buf3 still needed), op9
    # +64 = 640 -> released act, buf3: 320; op12 +64. Peak 640. op9
    # first: 320, +64 = 384 (x freed: 320), op9 +64 = 384 (act freed:
    # 128), op8 +256 = 384 (buf3 freed: 320), op12 +64 = 384. Peak 384.
    assert peaks["manifest"] == 640
    assert min(peaks.values()) == 384


def order_storages(step):
    return list(step.args) + list(step.inputs) + \
        [o.storage for o in step.outputs]


def test_dependences_hold():
    """A step never moves before one that writes what it reads, nor past
    one that reads what it writes; fallback externs (ATen ops, which may
    draw random numbers) keep their relative order."""
    m, sig, d = _graph()
    steps = list(m.steps)
    touched = [set(order_storages(s)) for s in steps]
    writes = order.accesses(steps, touched, m.buffer_storages(), d)
    assert writes == [{"buf3"}, {"buf8"}, {"buf9"}, {"buf12"}]
    preds = order.dependences(steps, touched, writes)
    assert preds == [set(), {0}, {0}, {1}]
    # A dump that does not say who writes buf3 (op3 writes another
    # buffer): every step touching it counts as writing it.
    d2 = dict(d)
    d2.update(deps.parse("op3.writes = [MemoryDep('buf77', c0, {c0: 16})]\n"))
    writes = order.accesses(steps, touched, m.buffer_storages(), d2,
                            {"buf3", "buf8", "buf9", "buf12"})
    assert [sorted(w) for w in writes] == [
        ["buf3"], ["buf3", "buf8"], ["buf3", "buf9"], ["buf12"]]
    # Without the dump's dependencies, every touched storage is written:
    # op8 and op9 share buf3 and stay in order (op9 after op8, after op3).
    writes = order.accesses(steps, touched, m.buffer_storages(), {})
    assert order.dependences(steps, touched, writes)[2] == {1}
    assert _names(plan.plan(m, sig, None)) == ["op3", "op8", "op9", "op12"]
    # Two ATen fallbacks stay in order.
    m2, sig2, d2 = _graph("torch.ops.aten.mm.default")
    assert _names(plan.plan(m2, sig2, d2)) == ["op3", "op8", "op9", "op12"]


def test_corpus_orders_as_inductor(tmp_path):
    """On Inductor's own graphs, the order Inductor's wrapper runs (its
    output_code.py, after reorder_for_peak_memory): attention's forward
    runs the third head-split kernel (op12) before the first batched
    product (op8), releasing the projection (buf5) first; mlp_train's
    backward runs the weight gradient's product (op9, reading the saved
    activation mul_2) before the input gradient's (op8)."""
    for graph, first, then, text in (
            ("attention/model__0_forward_1.0", "op12", "op8",
             ("buf12 = empty_strided_cuda", "extern_kernels.bmm")),
            ("mlp_train/model__0_backward_3.1", "op9", "op8",
             ("buf9 = empty_strided_cuda", "buf8 = empty_strided_cuda"))):
        source = os.path.join(CORPUS, graph, "output_code.py")
        with open(source) as f:
            code = f.read()
        assert code.index(text[0]) < code.index(text[1])
        directory = tmp_path / graph.replace("/", "_")
        directory.mkdir()
        m, p = compile_and_plan(graph, directory)
        names = _names(p)
        assert names.index(first) < names.index(then)
        # Every pair of steps the plan swapped shares no storage that
        # either writes (the dump's writes, read here independently).
        with open(os.path.join(CORPUS, graph, "ir_pre_fusion.txt")) as f:
            d = deps.parse(f.read())
        buffers = m.buffer_storages()

        def writes(step):
            out = {o.storage for o in step.outputs}
            for n in step.node.split("_"):
                out |= {buffers[w.buffer] for w in d[n].writes
                        if w.buffer in buffers}
            return out
        run = plan.run_steps(m)
        position = {id(r.step): k for k, r in enumerate(p.steps)}
        graph_buffers = m.buffer_storages()
        for i, a in enumerate(run):
            for b in run[i + 1:]:
                if position[id(a)] > position[id(b)]:
                    shared = set(plan.step_storages(a, graph_buffers)) & \
                        set(plan.step_storages(b, graph_buffers))
                    assert not shared & (writes(a) | writes(b)), (a, b)
    # Attention's softmax (a kernel of two reductions and a pointwise
    # member) writes its result into the scores, as Inductor's
    # `buf11 = reinterpret_tensor(buf8, ...); del buf8  # reuse`.
    (tmp_path / "again").mkdir()
    m, p = compile_and_plan("attention/model__0_forward_1.0",
                            tmp_path / "again")
    assert ("buf11", "buf8") in [x for r in p.steps for x in r.reuse]


def _simulated_peak(p):
    """Bytes the runtime holds at its peak over one call of plan `p`
    (allocations when first written, unless in place; released after their
    last use; handed over), inputs not counted."""
    size = {name: elements * manifest.dtype_size(dtype)
            for name, dtype, elements in p.allocations}
    live, peak = {}, 0
    for r in p.steps:
        s = r.step
        in_place = {dst for dst, _ in r.reuse}
        for name in list(s.args) + [o.storage for o in s.outputs]:
            if name in size and name not in live:
                live[name] = 0 if name in in_place else size[name]
        peak = max(peak, sum(live.values()))
        for name in r.free_after:
            live.pop(name, None)
        for dst, src in r.handover:
            live[dst] = live.pop(src, 0)
    return peak


def test_caller_held_inputs_free_nothing(tmp_path):
    """resnet18's forward as an inference graph (the corpus graph with
    only the logits returned, the saved activations temporaries): its
    first steps convert every convolution's weight to channels-last.
    Counting the parameters (`primals_N`) as freed after their conversion
    would make converting every weight up front look free; as in
    Inductor's estimate they count neither as held nor as freed, so the
    conversions move next to their convolutions and the peak falls from
    71 MiB (the manifest's order) to about 32."""
    import dataclasses
    from scheduler_opt import fx_graph
    m, _ = compile_and_plan("resnet18/model__0_forward_1.0", tmp_path)
    first = m.outputs[0]
    m = dataclasses.replace(
        m, outputs=(first,),
        storages=tuple(dataclasses.replace(s, role="temp")
                       if s.role == "output" and s.name != first.storage
                       else s for s in m.storages))
    source = os.path.join(CORPUS, "resnet18/model__0_forward_1.0")
    params = fx_graph.read_signature(os.path.join(source,
                                                  "fx_graph_readable.py"))
    sig = {"inputs": [{"name": q.name, "dtype": q.dtype} for q in params],
           "outputs": [{"buffer": first.name, "size": list(first.shape),
                        "stride": list(first.strides),
                        "offset": first.offset}]}
    with open(os.path.join(source, "ir_pre_fusion.txt")) as f:
        d = deps.parse(f.read())
    before = _simulated_peak(plan.plan(m, sig, d, reorder=False))
    after = _simulated_peak(plan.plan(m, sig, d))
    assert before > 70 * 2 ** 20
    assert after < 0.5 * before
