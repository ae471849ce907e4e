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
    assert first.tolist() == [3.0, 6.0, 9.0, 12.0]  # moved off the pool


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


def _device_scalar(world, value):
    s = fake_torch.empty_strided((), (), fake_torch.DTYPES["float32"], world)
    s.memory.data[0] = value
    return s


def test_outputs_are_handed_out_from_the_pool(world):
    """A replay hands out the pool's own storage (nothing is allocated or
    copied); an output the caller still holds at the next call moves to a
    copy first, keeping its values and its tensor object."""
    _scale_kernel(world)
    g = _graphed(*_host_scalar_graph())
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    for v in (1.0, 2.0):  # warm-up, capture
        g([x, world.host_scalar(v)])
    allocations = world.allocations
    (a,) = g([x, world.host_scalar(3.0)])
    pool = a.data_ptr()
    assert world.allocations == allocations
    (b,) = g([x, world.host_scalar(4.0)])
    assert b.data_ptr() == pool and a.data_ptr() != pool
    assert a.tolist() == [3.0, 6.0, 9.0, 12.0]
    assert b.tolist() == [4.0, 8.0, 12.0, 16.0]
    assert world.allocations == allocations + 1  # a's copy
    del a, b
    allocations = world.allocations
    for v in (5.0, 6.0):
        (c,) = g([x, world.host_scalar(v)])
        assert c.data_ptr() == pool and c.tolist() == [v, 2 * v, 3 * v,
                                                       4 * v]
        del c
    assert world.allocations == allocations and g.uncaptured_calls == 0


def test_output_held_by_a_view_the_caller_made(world):
    """A view the caller made of an output holds the pool storage where
    no replay can move it: the graph is captured again into a new pool,
    leaving that storage to the view, and copies that output out after
    each replay from then on (so the caller's views of later outputs are
    safe, and no further capture is needed)."""
    _scale_kernel(world)
    g = _graphed(*_host_scalar_graph())
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    for v in (1.0, 2.0):
        g([x, world.host_scalar(v)])
    (a,) = g([x, world.host_scalar(3.0)])
    view = a.as_strided((2,), (1,), 2)
    del a
    replays = world.replays
    (b,) = g([x, world.host_scalar(4.0)])
    assert g.captures == 2 and world.replays == replays + 1
    assert view.tolist() == [9.0, 12.0] and b.tolist() == [4.0, 8.0, 12.0,
                                                           16.0]
    kept = [b.as_strided((2,), (1,), 0)]
    for v in (5.0, 6.0):
        (c,) = g([x, world.host_scalar(v)])
        kept.append(c.as_strided((2,), (1,), 0))
    assert g.captures == 2 and world.replays == replays + 3
    assert g.uncaptured_calls == 0
    assert [k.tolist() for k in kept] == [[4.0, 8.0], [5.0, 10.0],
                                          [6.0, 12.0]]
    assert view.tolist() == [9.0, 12.0]


def test_outputs_of_one_graph_are_read_in_place_by_the_next(world):
    """A graph whose input is an output of another graph's pool (a
    backward reading the forward's saved activations) reads it in place:
    after both captures a step allocates and copies nothing. When the
    first graph replays again before the second runs, the held output
    moves off the pool, and the second graph is captured again, copying
    its argument in from then on."""
    _scale_kernel(world)
    f = _graphed(*_host_scalar_graph())
    b = _graphed(*_scalar_graph([
        {"kind": "kernel", "name": "k0", "node": "op0", "grid": [1, 1, 1],
         "block": [4, 1, 1], "args": ["x", "s", "out"]}], "f32", False))
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    two = _device_scalar(world, 2.0)
    for step, v in enumerate((1.0, 2.0, 3.0, 4.0)):
        if step == 2:
            allocations, replays = world.allocations, world.replays
        (y,) = f([x, world.host_scalar(v)])
        (z,) = b([y, two])
        assert z.tolist() == [2 * v, 4 * v, 6 * v, 8 * v]
        # b's kernel read y where f's replay wrote it
        assert world.launches[-1][1][0] == y.data_ptr()
        del y, z
    assert world.allocations == allocations
    assert world.replays == replays + 4
    assert f.uncaptured_calls == b.uncaptured_calls == 0
    assert f.captures == b.captures == 1
    assert [i.kind for i in b._inputs] == ["pooled", "stable"]
    (y5,) = f([x, world.host_scalar(5.0)])
    (y6,) = f([x, world.host_scalar(6.0)])  # y5 moves off f's pool
    (z5,) = b([y5, two])  # b captured again, reading it from a placeholder
    assert b.captures == 2 and [i.kind for i in b._inputs] == [
        "placeholder", "stable"]
    assert z5.tolist() == [10.0, 20.0, 30.0, 40.0]
    (z6,) = b([y6, two])
    assert z6.tolist() == [12.0, 24.0, 36.0, 48.0]
    assert f.captures == 1 and b.captures == 2
    assert f.uncaptured_calls == b.uncaptured_calls == 0


def test_moved_input_the_caller_kept_is_not_overwritten(world):
    """An input at the same address in the warm-up and the capture is read
    in place there. When a later call passes another tensor, a replay
    copies it to that address only if nobody else holds the earlier
    tensor; an earlier input the caller kept is left as it is, and the
    graph is captured again, reading that argument through a placeholder
    from then on (no further capture)."""
    _scale_kernel(world)
    g = _graphed(*_host_scalar_graph())
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    for v in (1.0, 2.0):  # warm-up, capture: x read in place
        g([x, world.host_scalar(v)])
    y = world.tensor([5.0, 6.0, 7.0, 8.0])
    (a,) = g([y, world.host_scalar(2.0)])
    assert x.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert a.tolist() == [10.0, 12.0, 14.0, 16.0] and g.captures == 2
    for v, z in ((3.0, x), (1.0, world.tensor([0.0, 1.0, 0.0, 1.0]))):
        (b,) = g([z, world.host_scalar(v)])
        assert b.tolist() == [v * e for e in z.tolist()]
    assert g.captures == 2 and g.uncaptured_calls == 0
    assert x.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert y.tolist() == [5.0, 6.0, 7.0, 8.0]


def test_moved_input_nobody_holds_is_copied_in_place(world):
    """The same, when the caller dropped the earlier input: the new one is
    copied where the graph reads, with no new capture."""
    _scale_kernel(world)
    g = _graphed(*_host_scalar_graph())
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    for v in (1.0, 2.0):
        g([x, world.host_scalar(v)])
    del x
    replays = world.replays
    (a,) = g([world.tensor([5.0, 6.0, 7.0, 8.0]), world.host_scalar(2.0)])
    assert a.tolist() == [10.0, 12.0, 14.0, 16.0]
    assert g.captures == 1 and world.replays == replays + 1
