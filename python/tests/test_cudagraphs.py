"""CUDA graphs over compiled graphs (`cudagraphs.CudaGraphed`) on the CPU,
through fake_torch, whose capture records the device's work and whose
replay runs it again: what is captured, what a replay reads, and what
runs without a graph. Skipped where PyTorch is installed (the GPU machine
runs the real thing: bench/backend_models.py, the `ours_cg` variant)."""
import importlib.util

import pytest

from scheduler_opt import plan

from . import fake_torch
from .test_runtime import _at, _compiled, _host_scalar_graph, _scalar_graph

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is not None,
                                reason="PyTorch is installed")


def _add_seed(x, seed, out):
    """out = x + seed, all read on the device when the work runs (as
    memory-efficient attention's backward reads a philox seed that is on
    the device)."""
    def work():
        value = seed.memory.data[seed.offset]
        for p, v in zip(out.positions(), x.tolist()):
            out.memory.data[p] = v + value
    fake_torch.WORLD.device_work(work)


@pytest.fixture
def world():
    yield fake_torch.install({"add_seed": _add_seed})
    fake_torch.uninstall()


def _graphed(m, sig):
    from scheduler_opt.cudagraphs import CudaGraphed
    return CudaGraphed(_compiled(m, plan.plan(m, sig)))


def _scale_kernel(world):
    def k0(x, eps, out):
        (xd, xo), (ed, eo), (od, oo) = _at(x), _at(eps), _at(out)
        for i in range(4):
            od[oo + i] = xd[xo + i] * ed[eo]
    world.kernels["k0"] = k0


def test_host_scalar_read_by_kernels_is_captured(world):
    """A host scalar the kernels read does not keep the graph from being
    captured (the capture could not copy it from host memory: fake_torch
    fails such a copy, as CUDA does from pageable memory); each replay
    reads the value of its own call."""
    _scale_kernel(world)
    g = _graphed(*_host_scalar_graph())
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    (warm,) = g([x, world.host_scalar(0.5)])
    assert warm.tolist() == [0.5, 1.0, 1.5, 2.0] and world.replays == 0
    (first,) = g([x, world.host_scalar(3.0)])  # captured, then replayed
    assert not g.disabled and g.graph is not None and world.replays == 1
    assert first.tolist() == [3.0, 6.0, 9.0, 12.0]
    launches = len(world.launches)
    (second,) = g([x, world.host_scalar(-1.0)])
    assert world.replays == 2 and len(world.launches) == launches + 1
    assert second.tolist() == [-1.0, -2.0, -3.0, -4.0]
    assert first.tolist() == [3.0, 6.0, 9.0, 12.0]  # outputs are copies


def _seeded_graph():
    """op0 (extern `add_seed`, out=): out = x + s, where s is a
    zero-dimensional i64 tensor on the host that only the extern reads
    (no host binding: the call function passes it as it is, as it does
    gpt2_train's philox seeds to the attention backward)."""
    view = {"size": [4], "stride": [1], "offset": 0}
    return _scalar_graph([
        {"kind": "extern", "name": "extern_kernels.add_seed",
         "node": "op0", "args": ["x", "s", "out"], "inputs": ["x", "s"],
         "outputs": [{"buffer": "out", "storage": "out"}],
         "buffers": {"x": "x", "s": "s", "out": "out"},
         "call": {"kernel": "extern_kernels.add_seed",
                  "args": [dict(view, buffer="x"),
                           {"size": [], "stride": [], "offset": 0,
                            "buffer": "s"}],
                  "out": dict(view, buffer="out")}}], "i64", False)


def test_host_scalar_read_by_an_extern_is_captured(world):
    """A host scalar that only an extern reads reaches it on the host in
    an uncaptured call and on the device in the capture, so that a replay
    sees each call's value."""
    g = _graphed(*_seeded_graph())
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    outs = [g([x, world.host_scalar(seed, "int64")])[0].tolist()
            for seed in (5, 5, 7, 7)]
    assert outs == [[6.0, 7.0, 8.0, 9.0]] * 2 + [[8.0, 9.0, 10.0, 11.0]] * 2
    assert g.graph is not None and world.replays == 3


def test_host_tensor_that_is_not_a_scalar_is_not_captured(world):
    """An input in host memory that the runtime does not copy to the
    device (here a vector an extern reads) keeps the graph uncaptured:
    every call runs as usual."""
    g = _graphed(*_seeded_graph())
    host = fake_torch.Tensor(fake_torch.Memory(world, 4, 4, host=True), 0,
                             (4,), (1,), fake_torch.DTYPES["float32"])
    host.memory.data[:] = [1.0, 2.0, 3.0, 4.0]
    for seed in (1, 2, 3):
        (out,) = g([host, world.host_scalar(seed, "int64")])
        assert out.tolist() == [1.0 + seed, 2.0 + seed, 3.0 + seed,
                                4.0 + seed]
    assert g.disabled and g.graph is None and world.replays == 0


def test_host_scalar_the_graph_writes_is_not_captured(world):
    """A host scalar among Inductor's `mutated_inputs` keeps the graph
    uncaptured: its device copy would take the write, not the caller's
    tensor."""
    m, sig = _seeded_graph()
    sig["inputs"][1]["mutated"] = True
    g = _graphed(m, sig)
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    for seed in (1, 2, 3):
        (out,) = g([x, world.host_scalar(seed, "int64")])
        assert out.tolist() == [1.0 + seed, 2.0 + seed, 3.0 + seed,
                                4.0 + seed]
    assert g.disabled and g.graph is None and world.replays == 0
