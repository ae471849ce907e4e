"""The tools of this build on corpus dumps, then runtime planning on the
manifests they write: every input bound, every output found, no temporary
freed before a later step uses it. Skipped without the tools
(SCHEDULER_OPT_BIN)."""
import os
import shutil

import pytest

from scheduler_opt import deps, fx_graph, manifest, plan, tools

CORPUS = os.environ.get("SCHEDULER_OPT_CORPUS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "corpus", "inductor")


def pipeline():
    try:
        p = tools.Pipeline.find()
    except tools.ToolNotFound as e:
        pytest.skip(str(e))
    return p


def compile_and_plan(graph, tmp_path):
    """The manifest of corpus graph `graph` (PTX only) and its run plan,
    with the dump's dependencies (in-place updates)."""
    p = pipeline()
    source = os.path.join(CORPUS, graph)
    if not os.path.isdir(source):
        pytest.skip("no corpus graph %s" % graph)
    dump_dir = tmp_path / "dump"
    dump_dir.mkdir()
    for name in ("ir_pre_fusion.txt", "fx_graph_readable.py"):
        shutil.copy(os.path.join(source, name), dump_dir)
    p.toolkit = {}  # PTX only: no ptxas needed
    p.compile(str(dump_dir), str(tmp_path))
    m = manifest.load(str(tmp_path / "graph.json"))
    params = fx_graph.read_signature(os.path.join(source,
                                                  "fx_graph_readable.py"))
    signature = {
        "inputs": [{"name": q.name, "dtype": q.dtype} for q in params],
        "outputs": [{"buffer": t.name, "size": list(t.shape),
                     "stride": list(t.strides), "offset": t.offset}
                    for t in m.outputs]}
    with open(dump_dir / "ir_pre_fusion.txt") as f:
        return m, plan.plan(m, signature, deps.parse(f.read()))


@pytest.mark.parametrize("graph", [
    "softmax/model__0_inference_0.0",
    "gpt2/model__0_forward_1.0",
    "resnet18/model__0_forward_1.0",
    "gpt2_train/model__0_backward_7.3",
])
def test_corpus_graph(graph, tmp_path):
    m, run = compile_and_plan(graph, tmp_path)
    assert len(run.outputs) == len(m.outputs)
    freed = set()
    taken = set()  # storages given a released temporary's memory
    for r in run.steps:
        used = set(r.step.args) | set(r.step.inputs) | \
            {o.storage for o in r.step.outputs}
        assert not used & freed, r.step
        freed |= set(r.free_after) | {src for _, src in r.handover}
        # ... and the storage taking it is first written later.
        assert not {dst for dst, _ in r.handover} & (used | taken)
        taken |= used
    releasable = {s.name for s in m.storages if s.role in ("temp", "input")}
    assert freed <= releasable
    if graph.startswith("gpt2/"):
        # The attention's four results come back from one extern step.
        sdpa = [s for s in m.externs() if "attention" in s.name]
        assert sdpa and [o.index for o in sdpa[0].outputs] == [0, 1, 2, 3]


def test_in_place_as_inductor(tmp_path):
    """mlp_train's backward: the GELU backward kernel writes buf12 into
    buf8 (the matmul result it reads for the last time), as Inductor's
    wrapper does (`buf12 = buf8; del buf8  # reuse` in its output code)."""
    source = os.path.join(CORPUS, "mlp_train/model__0_backward_3.1")
    if not os.path.isdir(source):
        pytest.skip("no corpus graph")
    with open(os.path.join(source, "output_code.py")) as f:
        assert "buf12 = buf8; del buf8  # reuse" in f.read()
    _, run = compile_and_plan("mlp_train/model__0_backward_3.1", tmp_path)
    assert [r.reuse for r in run.steps if r.reuse] == [(("buf12", "buf8"),)]


def test_ptx_options(tmp_path):
    """Pipeline.compile passes its --fusion-to-ptx options on (the backend's
    cache_hints option): softmax's PTX has both cache hints with
    cache-hints=all and neither by default."""
    p = pipeline()
    source = os.path.join(CORPUS, "softmax/model__0_inference_0.0")
    if not os.path.isdir(source):
        pytest.skip("no corpus graph")
    p.toolkit = {}  # PTX only: no ptxas needed
    ptx = {}
    for label, options in (("default", ""), ("all", "cache-hints=all")):
        dump_dir = tmp_path / label / "dump"
        dump_dir.mkdir(parents=True)
        shutil.copy(os.path.join(source, "ir_pre_fusion.txt"), dump_dir)
        p.compile(str(dump_dir), str(tmp_path / label), options)
        with open(tmp_path / label / "graph.ptx") as f:
            ptx[label] = f.read()
    for hint in ("ld.global.nc.L1::no_allocate", "st.global.cs"):
        assert hint in ptx["all"]
        assert hint not in ptx["default"]
