"""Graphs compiled for dynamic shapes (`torch.compile(dynamic=True)`)
through the tools of this build: one manifest (one PTX) serves every size.
The run plan binds the size symbols from the call's input shapes and size
arguments (`sizes.bind`, as `CompiledGraph._bind` does), and the grids,
the storages' sizes and the kernels' symbol arguments follow at any size.
Skipped without the tools (SCHEDULER_OPT_BIN)."""
import os
import shutil

import pytest

from scheduler_opt import fx_graph, manifest, plan, sizes, tools

CORPUS = os.environ.get("SCHEDULER_OPT_CORPUS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "corpus", "inductor")


def signature_of(m, params):
    """signature.json as the backend writes it for a graph whose FX
    parameters are `params` and whose manifest is `m`."""
    return {
        "inputs": [{"name": q.name, "symbol": q.symbol} if q.symbol else
                   {"name": q.name, "dtype": q.dtype} for q in params],
        "outputs": [{"buffer": t.name, "size": list(t.shape),
                     "stride": list(t.strides), "offset": t.offset}
                    for t in m.outputs]}


def compile_dynamic(graph, tmp_path):
    """The manifest and run plan of the dynamic corpus graph `graph`."""
    try:
        p = tools.Pipeline.find()
    except tools.ToolNotFound as e:
        pytest.skip(str(e))
    source = os.path.join(CORPUS, graph)
    if not os.path.isdir(source):
        pytest.skip("no corpus graph %s" % graph)
    dump_dir = tmp_path / "dump"
    dump_dir.mkdir()
    for name in ("ir_pre_fusion.txt", "fx_graph_readable.py",
                 "size_hints.json"):
        shutil.copy(os.path.join(source, name), dump_dir)
    p.toolkit = {}  # PTX only: no ptxas needed
    p.compile(str(dump_dir), str(tmp_path))
    m = manifest.load(str(tmp_path / "graph.json"))
    params = fx_graph.read_signature(str(dump_dir / "fx_graph_readable.py"))
    return m, plan.plan(m, signature_of(m, params)), params


def bind(run, params, values):
    """The symbols of a call whose tensor inputs have the shapes of
    `params` with the Inductor symbols set to `values`, and whose size
    arguments are those values: the runtime's binding, without tensors."""
    symbols = {}
    for b in run.inputs:
        param = params[b.position]
        if b.symbol:  # the call passes the size (`Sym(s27*s77)`)
            symbols[b.symbol] = sizes.evaluate(sizes.parse(b.symbol), values)
        elif b.shape:
            shape = tuple(sizes.evaluate(sizes.parse(d), values)
                          for d in param.shape)
            sizes.bind(b.shape, shape, symbols, "argument %d" % b.position)
    return symbols


def test_softmax_any_size(tmp_path):
    m, run, params = compile_dynamic("softmax_dynamic/model__0_inference_0.0",
                                     tmp_path)
    (kernel,) = m.kernels()
    # The kernel takes both symbols after its two storages.
    assert kernel.args == ("arg2_1", "buf2")
    assert kernel.symbols == ("s77", "s27")
    for rows, cols in [(4096, 1024), (3, 5000)]:
        symbols = bind(run, params, {"s77": rows, "s27": cols})
        assert symbols == {"s77": rows, "s27": cols}
        # One row per block (chosen at the hint of 1024 elements a row).
        assert [sizes.evaluate(g, symbols) for g in kernel.grid] == \
            [rows, 1, 1]
        for s in m.storages:
            assert sizes.evaluate(s.elements, symbols) == rows * cols
        launch = [symbols[n] for n in kernel.symbols]
        assert launch == [rows, cols]


def test_layernorm_gelu_sizes_and_errors(tmp_path):
    m, run, params = compile_dynamic(
        "layernorm_gelu_dynamic/model__1_forward_1.0", tmp_path)
    (kernel,) = m.kernels()
    assert kernel.symbols == ("s77",)
    for rows in (4096, 7):
        symbols = bind(run, params, {"s77": rows})
        assert symbols == {"s77": rows}
        assert sizes.evaluate(kernel.grid[0], symbols) == rows
        elements = {s.name: sizes.evaluate(s.elements, symbols)
                    for s in m.storages}
        assert elements == {"primals_1": 1024, "primals_2": 1024,
                            "primals_4": rows * 1024, "buf0": rows,
                            "buf3": rows, "buf5": rows * 1024}
    # A size argument that contradicts a tensor's shape is an error.
    symbols = {"s77": 7}
    x = [b for b in run.inputs if b.shape][-1]
    with pytest.raises(sizes.SizeError, match="dimension 0 is 8"):
        sizes.bind(x.shape, (8, 1024), symbols, "argument %d" % x.position)
    # So is a static dimension that differs.
    with pytest.raises(sizes.SizeError, match="dimension 1 is 1000"):
        sizes.bind(x.shape, (7, 1000), {}, "argument %d" % x.position)


@pytest.mark.parametrize("graph", [
    "attention_dynamic/model__1_forward_1.0",
    "attention_dynamic/model__1_backward_2.1",
    "mlp_train_dynamic/model__1_forward_1.0",
    "mlp_train_dynamic/model__1_backward_2.1",
    "layernorm_gelu_dynamic/model__1_backward_2.1",
])
def test_every_kernel_takes_the_symbols(graph, tmp_path):
    m, run, params = compile_dynamic(graph, tmp_path)
    names = {n for s in m.storages if not sizes.is_static(s.elements)
             for n in s.elements.symbols}
    assert names
    for k in m.kernels():
        assert set(k.symbols) >= names, k
    # Two sizes: every storage and grid is positive, and storages grow
    # with the symbols.
    hints = [{n: 8 for n in names}, {n: 13 for n in names}]
    small, large = [bind(run, params, v) for v in hints]
    for s in m.storages:
        a, b = (sizes.evaluate(s.elements, x) for x in (small, large))
        assert 0 < a <= b, s
    for k in m.kernels():
        assert all(sizes.evaluate(g, large) >= 1 for g in k.grid)



@pytest.mark.parametrize("graph,handovers,in_place", [
    ("attention_dynamic/model__1_forward_1.0", [("buf15", "buf13")],
     [("buf11", "buf8"), ("buf16", "buf15")]),
    ("attention_dynamic/model__1_backward_2.1",
     [("buf5", "buf0"), ("buf9", "buf4"), ("buf12", "buf9")],
     [("buf8", "buf6")]),
])
def test_attention_reuse_as_inductor(graph, handovers, in_place, tmp_path):
    """attention_dynamic's storages of symbolic size are updated in place
    and handed over as Inductor's wrapper reuses them (its
    output_code.py: `buf11 = reinterpret_tensor(buf8, ...); del buf8  #
    reuse`), at the graph's size hints; the softmax's in-place update
    needs its iterations compared as polynomials (`(8*s27*s77)*(s27)`, a
    row's elements, against `8*s27**2*s77`). One difference: the
    backward's softmax gradient writes into its temporary buf6 where
    Inductor's writes into the saved activation div_1 (the plan never
    gives an input away), so buf4's memory, no longer held across a new
    allocation, also goes to buf9. The corpus has no extern calls: each
    extern is given a call writing its output through out=, as
    Inductor's mm and bmm do."""
    import dataclasses
    import json
    from scheduler_opt import deps
    m, _, params = compile_dynamic(graph, tmp_path)
    with open(os.path.join(CORPUS, graph, "output_code.py")) as f:
        code = f.read()
    ours_only = {("buf9", "buf4"), ("buf8", "buf6")}  # (the docstring)
    for dst, src in handovers + in_place:
        if (dst, src) not in ours_only:
            assert "%s = reinterpret_tensor(%s, " % (dst, src) in code
    steps = [dataclasses.replace(s, call={
        "kernel": s.name, "args": [],
        "out": {"buffer": s.outputs[0].buffer}}) if s.kind == "extern"
        else s for s in m.steps]
    m = dataclasses.replace(m, steps=type(m.steps)(steps))
    signature = signature_of(m, params)
    with open(tmp_path / "dump" / "ir_pre_fusion.txt") as f:
        dependences = deps.parse(f.read())
    with open(tmp_path / "dump" / "size_hints.json") as f:
        hints = json.load(f)
    p = plan.plan(m, signature, dependences, hints=hints)
    assert [h for r in p.steps for h in r.handover] == handovers
    assert [u for r in p.steps for u in r.reuse] == in_place
