"""A compiled graph's calls (`runtime.CompiledGraph`) on the CPU, through
fake_torch: the plan's in-place updates and handovers reach the kernels
as shared pointers, externs get their views and out= tensors, returned
tensors are adopted, temporaries are released, and every output holds the
values a Python reference computes. Skipped where PyTorch is installed
(the GPU machine runs the real thing: bench/backend_models.py)."""
import dataclasses
import importlib.util
import math

import pytest

from scheduler_opt import manifest, plan

from . import fake_torch
from .test_plan import _handover_graph, _softmax_kernel

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is not None,
                                reason="PyTorch is installed")


@pytest.fixture
def world():
    yield fake_torch.install(EXTERNS)
    fake_torch.uninstall()


def _at(arg):
    memory, offset = arg
    return memory.data, offset


def _twice(a, out):
    out.copy_(fake_torch.reinterpret_tensor(a, a.shape, a.stride(), 0))
    for p in out.positions():
        out.memory.data[p] *= 2


def _plus_one(a):
    t = fake_torch.empty_strided(a.shape, (a.shape[1], 1), a.dtype)
    for p, v in zip(t.positions(), a.tolist()):
        t.memory.data[p] = v + 1
    return t


def _copy_into(dst, src):
    """aten.copy_'s convention: dst updated in place and returned."""
    dst.copy_(src)
    return dst


def _scale(a, n, bias, out):
    """out = a * n + bias (n a size the call passes)."""
    for p, v, b in zip(out.positions(), a.tolist(), bias.tolist()):
        out.memory.data[p] = v * n + b


EXTERNS = {"twice": _twice, "plus_one": _plus_one, "copy_into": _copy_into,
           "scale": _scale}


def _compiled(m, p):
    from scheduler_opt import runtime
    return runtime.CompiledGraph(m, p, image=b"fake")


def test_in_place_softmax(world):
    """k0 doubles x into buf8; k1 (two reductions and a division, per row
    of 8) writes buf11 into buf8's memory: one allocation, one pointer."""
    def k0(x, buf8):
        (xd, xo), (bd, bo) = _at(x), _at(buf8)
        for i in range(32):
            bd[bo + i] = 2 * xd[xo + i]

    def k1(buf8, buf11):
        (src, so), (dst, do) = _at(buf8), _at(buf11)
        for row in range(4):
            values = src[so + 8 * row: so + 8 * row + 8]
            top = max(values)
            total = sum(math.exp(v - top) for v in values)
            for j, v in enumerate(values):
                dst[do + 8 * row + j] = math.exp(v - top) / total

    world.kernels.update(k0=k0, k1=k1)
    m, sig, d = _softmax_kernel()
    g = _compiled(m, plan.plan(m, sig, d))
    x = world.tensor([0.1 * i - 1 for i in range(32)])
    allocations = world.allocations
    (out,) = g([x])
    assert world.allocations - allocations == 1
    (_, (p8, p11)), = [l for l in world.launches if l[0] == "k1"]
    assert p8 == p11
    expected = []
    for row in range(4):
        values = [2 * (0.1 * (8 * row + j) - 1) for j in range(8)]
        total = sum(math.exp(v) for v in values)
        expected += [math.exp(v) / total for v in values]
    assert out.shape == (32,)
    assert out.tolist() == pytest.approx(expected)


def test_handover(world):
    """`out` takes t0's memory after k1 released it: two allocations for
    three storages, and out's pointer is t0's."""
    world.kernels.update(
        k0=lambda x, t0: [_set(t0, i, _get(x, i) + 1) for i in range(32)],
        k1=lambda t0, t1: [_set(t1, i, 3 * _get(t0, i)) for i in range(4)],
        k2=lambda t1, out: [_set(out, i, _get(t1, i % 4) + i)
                            for i in range(32)])
    m, sig = _handover_graph()
    p = plan.plan(m, sig)
    assert p.steps[1].handover == (("out", "t0"),)
    g = _compiled(m, p)
    x = world.tensor([float(i) for i in range(32)])
    allocations = world.allocations
    (out,) = g([x])
    assert world.allocations - allocations == 2
    pointers = {name: ptrs for name, ptrs in world.launches}
    assert pointers["k2"][1] == pointers["k0"][1]
    assert out.tolist() == [3 * ((i % 4) + 1) + i for i in range(32)]


def test_handover_of_a_symbolic_size(world):
    """With size symbols: `out` (4*s0 elements) takes t0's memory (4*s0)
    after k1 released it, at every size: two allocations for three
    storages, out's pointer is t0's, and out holds the right values."""
    def k0(x, t0, s0):
        for i in range(4 * s0):
            _set(t0, i, _get(x, i) + 1)

    def k1(t0, t1, s0):
        for i in range(s0):
            _set(t1, i, 3 * _get(t0, i))

    def k2(t1, out, s0):
        for i in range(4 * s0):
            _set(out, i, _get(t1, i % s0) + i)

    world.kernels.update(k0=k0, k1=k1, k2=k2)
    world.symbol_args.update(k0=1, k1=1, k2=1)
    m, sig = _handover_graph(size="4*s0", middle="s0")
    p = plan.plan(m, sig, hints={"s0": 8})
    assert p.steps[1].handover == (("out", "t0"),)
    g = _compiled(m, p)
    for rows in (8, 3):
        base = world.tensor([float(i) for i in range(4 * rows)])
        x = fake_torch.reinterpret_tensor(base, (rows, 4), (4, 1), 0)
        world.launches.clear()
        allocations = world.allocations
        (out,) = g([x])
        assert world.allocations - allocations == 2
        pointers = {name: ptrs for name, ptrs in world.launches}
        assert pointers["k2"][1] == pointers["k0"][1]
        assert out.shape == (4 * rows,)
        assert out.tolist() == [3 * ((i % rows) + 1) + i
                                for i in range(4 * rows)]


def _get(arg, i):
    data, offset = _at(arg)
    return data[offset + i]


def _set(arg, i, value):
    data, offset = _at(arg)
    data[offset + i] = value


def _extern_graph():
    """k0: buf0 = x + 1 (x given at element offset 4 of its storage);
    `twice` (out=) writes buf1 = 2 * buf0 viewed as 4 x 8 through its
    recorded call; `plus_one` returns a new tensor, adopted as the output
    buf2; the graph also returns x."""
    view = {"size": [4, 8], "stride": [8, 1], "offset": 0}
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m", "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32", "elements": 36},
            {"name": "buf0", "role": "temp", "dtype": "f32", "elements": 32},
            {"name": "buf1", "role": "temp", "dtype": "f32", "elements": 32},
            {"name": "buf2", "role": "output", "dtype": "f32",
             "elements": 32},
            {"name": "out_x", "role": "output", "dtype": "f32",
             "elements": 36}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": [32], "strides": [1], "offset": 4}],
        "outputs": [
            {"name": "buf2", "storage": "buf2", "dtype": "f32",
             "shape": [4, 8], "strides": [8, 1], "offset": 0},
            {"name": "x", "storage": "out_x", "dtype": "f32",
             "shape": [32], "strides": [1], "offset": 4}],
        "steps": [
            {"kind": "kernel", "name": "k0", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["x", "buf0"]},
            {"kind": "extern", "name": "extern_kernels.twice",
             "node": "op1", "args": ["buf0", "buf1"], "inputs": ["buf0"],
             "outputs": [{"buffer": "buf1", "storage": "buf1"}],
             "buffers": {"buf0": "buf0", "buf1": "buf1"},
             "call": {"kernel": "extern_kernels.twice",
                      "args": [dict(view, buffer="buf0")],
                      "out": dict(view, buffer="buf1")}},
            {"kind": "extern", "name": "extern_kernels.plus_one",
             "node": "op2", "args": ["buf1", "buf2"], "inputs": ["buf1"],
             "outputs": [{"buffer": "buf2", "storage": "buf2"}],
             "buffers": {"buf1": "buf1", "buf2": "buf2"},
             "call": {"kernel": "extern_kernels.plus_one",
                      "args": [dict(view, buffer="buf1")],
                      "outputs": [dict(view, buffer="buf2")]}},
            {"kind": "copy", "src": "x", "dst": "out_x", "elements": 36}]}
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "buf2", "size": [4, 8], "stride": [8, 1],
                        "offset": 0},
                       {"buffer": "x", "size": [32], "stride": [1],
                        "offset": 4}]}
    return manifest.parse(data), sig


def test_externs_views_adoption_and_release(world):
    def k0(x, buf0):
        for i in range(32):
            _set(buf0, i, _get(x, i + 4) + 1)  # x's storage element 0

    world.kernels.update(k0=k0)
    m, sig = _extern_graph()
    g = _compiled(m, plan.plan(m, sig))
    storage = world.tensor([float(i) for i in range(40)])
    x = fake_torch.reinterpret_tensor(storage, (32,), (1,), 8)
    live = world.live
    buf2, x_out = g([x])
    # k0 got the address of x's storage element 0 (4 elements before x).
    assert world.launches[-1][1][0] == x.data_ptr() - 4 * 4
    assert buf2.shape == (4, 8)
    # x[i] = 8 + i: buf0 = 9 + i, buf1 = 18 + 2i, buf2 = 19 + 2i.
    assert buf2.tolist() == [19 + 2 * i for i in range(32)]
    # The returned input is the caller's tensor's storage, viewed.
    assert x_out.memory is storage.memory and x_out.offset == 8
    # Temporaries are gone: only the adopted output stays allocated.
    assert world.live - live == 32 * 4


def test_externs_with_symbolic_views(world):
    """Externs of a graph with size symbols get their views (an argument,
    a keyword, out=) and sizes at the call's symbols, and a returned
    tensor is adopted at its symbolic layout: k0 writes buf0 = x + 1 (x:
    s0 rows of 4, one row into its storage); `scale` writes buf1 = buf0 *
    4*s0 + x through out= (buf1 column by column); `plus_one` returns
    buf2 = buf1 + 1 (row by row), the output."""
    rows = {"size": ["s0", 4], "stride": [4, 1], "offset": 0}
    columns = {"size": ["s0", 4], "stride": [1, "s0"], "offset": 0}
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m",
        "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32",
             "elements": "4*s0 + 4"},
            {"name": "buf0", "role": "temp", "dtype": "f32",
             "elements": "4*s0"},
            {"name": "buf1", "role": "temp", "dtype": "f32",
             "elements": "4*s0"},
            {"name": "buf2", "role": "output", "dtype": "f32",
             "elements": "4*s0"}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": ["s0", 4], "strides": [4, 1], "offset": 4}],
        "outputs": [{"name": "buf2", "storage": "buf2", "dtype": "f32",
                     "shape": ["s0", 4], "strides": [4, 1], "offset": 0}],
        "steps": [
            {"kind": "kernel", "name": "k0", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["x", "buf0"],
             "symbols": ["s0"]},
            {"kind": "extern", "name": "extern_kernels.scale",
             "node": "op1", "args": ["buf0", "x", "buf1"],
             "inputs": ["buf0", "x"],
             "outputs": [{"buffer": "buf1", "storage": "buf1"}],
             "buffers": {"buf0": "buf0", "buf1": "buf1", "x": "x"},
             "call": {"kernel": "extern_kernels.scale",
                      "args": [dict(rows, buffer="buf0"),
                               {"size": "4*s0"}],
                      "kwargs": {"bias": dict(rows, buffer="x",
                                              offset=4)},
                      "out": dict(columns, buffer="buf1")}},
            {"kind": "extern", "name": "extern_kernels.plus_one",
             "node": "op2", "args": ["buf1", "buf2"], "inputs": ["buf1"],
             "outputs": [{"buffer": "buf2", "storage": "buf2"}],
             "buffers": {"buf1": "buf1", "buf2": "buf2"},
             "call": {"kernel": "extern_kernels.plus_one",
                      "args": [dict(columns, buffer="buf1")],
                      "outputs": [dict(rows, buffer="buf2")]}}]}
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "buf2", "size": ["s0", 4],
                        "stride": [4, 1], "offset": 0}]}

    def k0(x, buf0, s0):
        for i in range(4 * s0):
            _set(buf0, i, _get(x, i + 4) + 1)

    world.kernels["k0"] = k0
    world.symbol_args["k0"] = 1
    m = manifest.parse(data)
    g = _compiled(m, plan.plan(m, sig))
    for n in (3, 5):
        base = world.tensor([float(i % 5) for i in range(4 * n + 4)])
        x = fake_torch.reinterpret_tensor(base, (n, 4), (4, 1), 4)
        (out,) = g([x])
        assert out.shape == (n, 4)
        xs = [float(i % 5) for i in range(4, 4 * n + 4)]
        assert out.tolist() == [(v + 1) * 4 * n + v + 1 for v in xs]


def test_extern_reads_a_storage_no_step_wrote(world):
    """Inductor's `buf0 = empty_strided_cuda(...); buf0.copy_(x)` (a
    torch.empty buffer, then an InplaceCopyFallback): the extern's first
    argument views a temporary nothing wrote before, which the runtime
    allocates before the call (bench/unseen_models_third.py's fnet failed
    with KeyError: 'buf0'); k1 then reads what the copy put there."""
    def k1(buf0, out):
        for i in range(8):
            _set(out, i, 3 * _get(buf0, i))

    world.kernels.update(k1=k1)
    view = {"size": [8], "stride": [1], "offset": 0}
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m",
        "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32", "elements": 8},
            {"name": "buf0", "role": "temp", "dtype": "f32", "elements": 8},
            {"name": "out", "role": "output", "dtype": "f32",
             "elements": 8}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": [8], "strides": [1], "offset": 0}],
        "outputs": [{"name": "out", "storage": "out", "dtype": "f32",
                     "shape": [8], "strides": [1], "offset": 0}],
        "steps": [
            {"kind": "extern", "name": "extern_kernels.copy_into",
             "node": "op1", "args": ["x", "buf0"], "inputs": ["x"],
             "outputs": [{"buffer": "buf1", "storage": "buf0"}],
             "buffers": {"x": "x", "buf0": "buf0", "buf1": "buf0"},
             "call": {"kernel": "extern_kernels.copy_into",
                      "args": [dict(view, buffer="buf0"),
                               dict(view, buffer="x")]}},
            {"kind": "kernel", "name": "k1", "grid": [1, 1, 1],
             "block": [8, 1, 1], "args": ["buf0", "out"]}]}
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "out", "size": [8], "stride": [1],
                        "offset": 0}]}
    m = manifest.parse(data)
    g = _compiled(m, plan.plan(m, sig))
    (out,) = g([world.tensor([float(i) for i in range(8)])])
    assert out.tolist() == [3.0 * i for i in range(8)]


def _scalar_graph(steps, scalar_dtype, host_scalar):
    """out (4 x f32) from x (4 x f32) and s, a zero-dimensional tensor on
    the host (`host_scalar` in the signature when kernels read it, as
    backend._graph_signature marks it), by `steps`."""
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m",
        "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32", "elements": 4},
            {"name": "s", "role": "input", "dtype": scalar_dtype,
             "elements": 1},
            {"name": "out", "role": "output", "dtype": "f32",
             "elements": 4}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": [4], "strides": [1], "offset": 0},
                   {"name": "s", "storage": "s", "dtype": scalar_dtype,
                    "shape": [], "strides": [], "offset": 0}],
        "outputs": [{"name": "out", "storage": "out", "dtype": "f32",
                     "shape": [4], "strides": [1], "offset": 0}],
        "steps": steps}
    scalar = {"name": "s", "dtype": scalar_dtype}
    if host_scalar:
        scalar["host_scalar"] = True
    sig = {"inputs": [{"name": "x", "dtype": "f32"}, scalar],
           "outputs": [{"buffer": "out", "size": [4], "stride": [1],
                        "offset": 0}]}
    return manifest.parse(data), sig


def _host_scalar_graph():
    """k0: out = x * s, where s is a zero-dimensional f64 tensor on the
    host (a Python float under dynamic=True) that the kernel reads."""
    return _scalar_graph([{"kind": "kernel", "name": "k0", "node": "op0",
                           "grid": [1, 1, 1], "block": [4, 1, 1],
                           "args": ["x", "s", "out"]}], "f64", True)


def test_host_scalar_input_reaches_kernels_on_the_device(world):
    """A kernel never gets a host pointer (fake_torch's kernels can only
    address device memory): the runtime copies the host scalar first, on
    every call, so a new value is seen at the next call."""
    def k0(x, eps, out):
        (xd, xo), (ed, eo), (od, oo) = _at(x), _at(eps), _at(out)
        for i in range(4):
            od[oo + i] = xd[xo + i] * ed[eo]

    world.kernels["k0"] = k0
    m, sig = _host_scalar_graph()
    g = _compiled(m, plan.plan(m, sig))
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    (out,) = g([x, world.host_scalar(0.5)])
    assert out.tolist() == [0.5, 1.0, 1.5, 2.0]
    (out,) = g([x, world.host_scalar(3.0)])
    assert out.tolist() == [3.0, 6.0, 9.0, 12.0]


def test_host_scalar_must_be_zero_dimensional():
    m, sig = _host_scalar_graph()
    sig["inputs"][0]["host_scalar"] = True
    with pytest.raises(plan.PlanError, match="zero-dimensional"):
        plan.plan(m, sig)


def test_kernels_get_their_cluster(world):
    """Each kernel is created with its manifest step's thread block cluster
    (the driver then launches it with cuLaunchKernelEx); kernels without
    one keep (1, 1, 1)."""
    world.kernels.update(k0=lambda x, buf8: None,
                         k1=lambda buf8, buf11: None)
    m, sig, d = _softmax_kernel()
    steps = [dataclasses.replace(s, grid=(2, 1, 1), cluster=(2, 1, 1))
             if s.name == "k1" else s for s in m.steps]
    m = dataclasses.replace(m, steps=type(m.steps)(steps))
    g = _compiled(m, plan.plan(m, sig, d))
    g([world.tensor([0.0] * 32)])
    assert world.clusters == {"k0": (1, 1, 1), "k1": (2, 1, 1)}
    assert [name for name, _ in world.launches] == ["k0", "k1"]


def _centered_rows():
    """A graph with size symbols: x (s0 rows of s1, one row into its
    storage) and the size argument n (s1); k0 sums each row into a
    temporary, k1 subtracts the row's mean into the output. Both kernels
    take s0 and s1 after their pointers; k1's grid is a quotient."""
    elements = "(s0 + 1)*s1"
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m",
        "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32",
             "elements": elements},
            {"name": "buf0", "role": "temp", "dtype": "f32",
             "elements": "s0"},
            {"name": "buf1", "role": "output", "dtype": "f32",
             "elements": "s0*s1"}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": ["s0", "s1"], "strides": ["s1", 1],
                    "offset": "s1"}],
        "outputs": [{"name": "buf1", "storage": "buf1", "dtype": "f32",
                     "shape": ["s0", "s1"], "strides": ["s1", 1],
                     "offset": 0}],
        "steps": [
            {"kind": "kernel", "name": "k0", "grid": ["s0", 1, 1],
             "block": [32, 1, 1], "args": ["x", "buf0"],
             "symbols": ["s0", "s1"]},
            {"kind": "kernel", "name": "k1",
             "grid": ["(s0*s1 + 15)//16", 1, 1], "block": [16, 1, 1],
             "args": ["x", "buf0", "buf1"], "symbols": ["s0", "s1"]}]}
    sig = {"inputs": [{"name": "n", "symbol": "s1"},
                      {"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "buf1", "size": ["s0", "s1"],
                        "stride": ["s1", 1], "offset": 0},
                       {"size": "s0*s1"}]}
    m = manifest.parse(data)
    return m, plan.plan(m, sig)


def _rows_kernels(world):
    def k0(x, buf0, s0, s1):
        (xd, xo), (bd, bo) = _at(x), _at(buf0)
        for r in range(s0):
            bd[bo + r] = sum(xd[xo + s1 * (r + 1) + j] for j in range(s1))

    def k1(x, buf0, buf1, s0, s1):
        (xd, xo), (bd, bo), (od, oo) = _at(x), _at(buf0), _at(buf1)
        for r in range(s0):
            for j in range(s1):
                od[oo + s1 * r + j] = xd[xo + s1 * (r + 1) + j] - \
                    bd[bo + r] / s1
    world.kernels.update(k0=k0, k1=k1)
    world.symbol_args.update(k0=2, k1=2)


def _rows_input(world, rows, cols):
    """x: `rows` rows of `cols`, one row into its memory."""
    base = world.tensor([float(i % 7) for i in range((rows + 1) * cols)])
    return fake_torch.reinterpret_tensor(base, (rows, cols), (cols, 1), cols)


def test_dynamic_graph_at_two_sizes(world):
    """One compiled graph with size symbols runs at two sizes: the symbols
    bind from the size argument and x's shape, the storage's pointer lies
    s1 elements before x, the kernels get the symbols after the pointers
    and their grids at the symbols, temporaries and outputs are allocated
    at the symbols' sizes, and the outputs are the view and the size."""
    _rows_kernels(world)
    m, p = _centered_rows()
    g = _compiled(m, p)

    def checked(*args):
        raise AssertionError("the arguments took the checked binding")
    g._bind_checked = checked  # the call function's binding accepts them
    for rows, cols in ((4, 8), (3, 37)):
        x = _rows_input(world, rows, cols)
        world.launches.clear()
        world.grids.clear()
        out, n = g([cols, x])
        assert n == rows * cols
        assert out.shape == (rows, cols) and out.stride() == (cols, 1)
        expected = []
        for r in range(rows):
            row = [float((cols * (r + 1) + j) % 7) for j in range(cols)]
            expected += [v - sum(row) / cols for v in row]
        assert out.tolist() == pytest.approx(expected)
        assert world.grids == [("k0", (rows, 1, 1)),
                               ("k1", ((rows * cols + 15) // 16, 1, 1))]
        (_, a0), (_, a1) = world.launches
        assert a0[0] == x.data_ptr() - 4 * cols
        assert a0[2:] == [rows, cols] and a1[3:] == [rows, cols]


def test_dynamic_graph_argument_errors(world):
    """Arguments that do not match the graph: the errors of binding each
    argument in turn (sizes.bind's, the runtime's)."""
    from scheduler_opt import runtime, sizes
    _rows_kernels(world)
    m, p = _centered_rows()
    g = _compiled(m, p)
    x = _rows_input(world, 4, 8)
    with pytest.raises(sizes.SizeError,
                       match="argument 1: dimension 1 is 8 but s1 = 7"):
        g([7, x])
    flat = fake_torch.reinterpret_tensor(x, (32,), (1,), 0)
    with pytest.raises(sizes.SizeError, match="has 1 dimensions, expected 2"):
        g([8, flat])
    with pytest.raises(runtime.RuntimeError_,
                       match="argument 1 is float, expected a tensor"):
        g([8, 1.5])
    assert world.launches == []


def _extern_kernels():
    """The installed fake's `extern_kernels` (a test may replace one)."""
    import sys
    return sys.modules["torch._inductor.select_algorithm"].extern_kernels


def _pick(a, lst, out):
    """out = a * lst[2] + lst[1] (lst[0] is None): a call whose second
    argument is a list holding a view and a size, as index_put_'s
    indices are."""
    assert lst[0] is None
    for p, v, w in zip(out.positions(), a.tolist(), lst[1].tolist()):
        out.memory.data[p] = v * lst[2] + w


def _nested_graph(n, scale):
    """k0: buf0 = x + 1; `pick` (out=) writes buf1 = x * scale + buf0,
    its buf0 view and scale inside a list argument. `n` is x's size (an
    int, or a symbol), `scale` a size (an int or an expression)."""
    view = {"size": [n], "stride": [1], "offset": 0}
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m",
        "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32", "elements": n},
            {"name": "buf0", "role": "temp", "dtype": "f32", "elements": n},
            {"name": "buf1", "role": "output", "dtype": "f32",
             "elements": n}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": [n], "strides": [1], "offset": 0}],
        "outputs": [{"name": "buf1", "storage": "buf1", "dtype": "f32",
                     "shape": [n], "strides": [1], "offset": 0}],
        "steps": [
            {"kind": "kernel", "name": "k0", "grid": [1, 1, 1],
             "block": [32, 1, 1], "args": ["x", "buf0"],
             "symbols": [] if isinstance(n, int) else [n]},
            {"kind": "extern", "name": "extern_kernels.pick",
             "node": "op1", "args": ["x", "buf0", "buf1"],
             "inputs": ["x", "buf0"],
             "outputs": [{"buffer": "buf1", "storage": "buf1"}],
             "buffers": {"x": "x", "buf0": "buf0", "buf1": "buf1"},
             "call": {"kernel": "extern_kernels.pick",
                      "args": [dict(view, buffer="x"),
                               [None, dict(view, buffer="buf0"),
                                {"size": scale}]],
                      "out": dict(view, buffer="buf1")}}]}
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "buf1", "size": [n], "stride": [1],
                        "offset": 0}]}
    m = manifest.parse(data)
    return m, plan.plan(m, sig)


@pytest.mark.parametrize("n,scale,sizes", [(6, 3, (6,)),
                                           ("s0", "2*s0", (5, 2))])
def test_extern_list_argument_with_views_and_sizes(world, n, scale, sizes):
    """A view and a size nested in a list argument reach the extern at
    each call's sizes (static, and with size symbols at two sizes)."""
    def k0(x, buf0, *symbols):
        count = symbols[0] if symbols else n
        for i in range(count):
            _set(buf0, i, _get(x, i) + 1)

    world.kernels["k0"] = k0
    world.symbol_args["k0"] = 0 if isinstance(n, int) else 1
    g = _compiled(*_nested_graph(n, scale))
    for count in sizes:
        x = world.tensor([float(i) for i in range(count)])
        (out,) = g([x])
        factor = scale if isinstance(scale, int) else 2 * count
        assert out.shape == (count,)
        assert out.tolist() == [i * factor + i + 1.0 for i in range(count)]


def test_extern_size_of_an_unbound_symbol(world):
    """A size in an extern's call that uses a symbol no argument binds:
    the call raises sizes' error naming it (nothing checks the recorded
    calls' symbols at compile time)."""
    from scheduler_opt import sizes
    world.kernels["k0"] = lambda x, buf0, s0: None
    world.symbol_args["k0"] = 1
    g = _compiled(*_nested_graph("s0", "s0 + s9"))
    with pytest.raises(sizes.SizeError, match="'s9' of 's0 \\+ s9' is not"):
        g([world.tensor([1.0, 2.0])])


def _split2(a):
    """((a + 1,), (a * 2 in every second element of new memory,)) as
    lists of fresh tensors: a tuple of tuples."""
    n = a.shape[0]
    first = fake_torch.empty_strided((n,), (1,), a.dtype)
    wide = fake_torch.empty_strided((2 * n,), (1,), a.dtype)
    second = fake_torch.reinterpret_tensor(wide, (n,), (2,), 0)
    for p, v in zip(first.positions(), a.tolist()):
        first.memory.data[p] = v + 1
    for p, v in zip(second.positions(), a.tolist()):
        second.memory.data[p] = v * 2
    return (first,), (second,)


def _scale_in_place(a):
    """a *= 3, returned (an in-place update of the storage it writes)."""
    for p in a.positions():
        a.memory.data[p] *= 3
    return a


def _multi_output_graph(kernel="extern_kernels.split2"):
    """`split2` returns nested tuples: buf1 (its element [0][0], the planned
    layout: adopted), buf2 ([1][0], every second element of a larger
    memory: copied into a storage of its own); `scale_in_place` then
    updates buf1 in place and returns it."""
    view = {"size": [4], "stride": [1], "offset": 0}
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m",
        "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32", "elements": 4},
            {"name": "buf1", "role": "output", "dtype": "f32",
             "elements": 4},
            {"name": "buf2", "role": "output", "dtype": "f32",
             "elements": 4}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": [4], "strides": [1], "offset": 0}],
        "outputs": [
            {"name": "buf1", "storage": "buf1", "dtype": "f32",
             "shape": [4], "strides": [1], "offset": 0},
            {"name": "buf2", "storage": "buf2", "dtype": "f32",
             "shape": [4], "strides": [1], "offset": 0}],
        "steps": [
            {"kind": "extern", "name": kernel, "node": "op0",
             "args": ["x", "buf1", "buf2"], "inputs": ["x"],
             "outputs": [{"buffer": "buf1", "storage": "buf1"},
                         {"buffer": "buf2", "storage": "buf2"}],
             "buffers": {"x": "x", "buf1": "buf1", "buf2": "buf2"},
             "call": {"kernel": kernel,
                      "args": [dict(view, buffer="x")],
                      "elements": {
                          "buf1": {"indices": [0, 0],
                                   "layout": dict(view, buffer="buf1")},
                          "buf2": {"indices": [1, 0],
                                   "layout": dict(view, buffer="buf2")}}}},
            {"kind": "extern", "name": "extern_kernels.scale_in_place",
             "node": "op1", "args": ["buf1"], "inputs": ["buf1"],
             "outputs": [{"buffer": "buf3", "storage": "buf1"}],
             "buffers": {"buf1": "buf1", "buf3": "buf1"},
             "call": {"kernel": "extern_kernels.scale_in_place",
                      "args": [dict(view, buffer="buf1")]}}]}
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "buf1", "size": [4], "stride": [1],
                        "offset": 0},
                       {"buffer": "buf2", "size": [4], "stride": [1],
                        "offset": 0}]}
    m = manifest.parse(data)
    return m, plan.plan(m, sig)


EXTERNS.update(pick=_pick, split2=_split2, scale_in_place=_scale_in_place)


def test_extern_returning_nested_tuples(world):
    """Each storage an extern writes comes from its element of the result:
    adopted when it has the planned layout, else copied into a new
    allocation; an extern returning the storage it updated in place
    leaves it there."""
    returned = []

    def split2(a):
        result = _split2(a)
        returned.extend([result[0][0], result[1][0]])
        return result

    _extern_kernels().split2 = split2
    g = _compiled(*_multi_output_graph())
    x = world.tensor([1.0, 2.0, 3.0, 4.0])
    buf1, buf2 = g([x])
    assert buf1.memory is returned[0].memory  # adopted
    assert buf2.memory is not returned[1].memory  # copied
    assert buf2.stride() == (1,)
    assert buf1.tolist() == [3.0 * (v + 1) for v in (1, 2, 3, 4)]
    assert buf2.tolist() == [2.0 * v for v in (1, 2, 3, 4)]


def test_extern_returning_a_non_tensor(world):
    from scheduler_opt import runtime
    _extern_kernels().split2 = lambda a: ((a,), (7,))
    g = _compiled(*_multi_output_graph())
    with pytest.raises(runtime.RuntimeError_,
                       match=r"extern op0 \(extern_kernels.split2\) returned "
                       "'int' where a tensor was expected"):
        g([world.tensor([1.0, 2.0, 3.0, 4.0])])


def test_static_graph_argument_errors(world):
    from scheduler_opt import runtime
    world.kernels["k0"] = lambda x, buf0: None
    m, sig = _extern_graph()
    g = _compiled(m, plan.plan(m, sig))
    with pytest.raises(runtime.RuntimeError_,
                       match="graph g: argument 0 is int, expected a tensor"):
        g([5])
    assert world.launches == []


def test_grid_over_cuda_limits(world):
    """A grid computed from the symbols beyond CUDA's (65535 blocks in y)
    is refused before the launch, naming the graph and the grid."""
    from scheduler_opt import runtime
    data = {
        "version": manifest.VERSION, "graph": "g", "module": "m",
        "binary": "g.ptx", "format": "ptx",
        "storages": [
            {"name": "x", "role": "input", "dtype": "f32",
             "elements": "s0"},
            {"name": "out", "role": "output", "dtype": "f32",
             "elements": "s0"}],
        "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
                    "shape": ["s0"], "strides": [1], "offset": 0}],
        "outputs": [{"name": "out", "storage": "out", "dtype": "f32",
                     "shape": ["s0"], "strides": [1], "offset": 0}],
        "steps": [{"kind": "kernel", "name": "k0", "grid": [1, "s0", 1],
                   "block": [32, 1, 1], "args": ["x", "out"],
                   "symbols": ["s0"]}]}
    sig = {"inputs": [{"name": "x", "dtype": "f32"}],
           "outputs": [{"buffer": "out", "size": ["s0"], "stride": [1],
                        "offset": 0}]}
    m = manifest.parse(data)
    world.kernels["k0"] = lambda x, out, s0: None
    world.symbol_args["k0"] = 1
    g = _compiled(m, plan.plan(m, sig))
    g([world.tensor([0.0] * 65535)])
    assert world.grids == [("k0", (1, 65535, 1))]
    with pytest.raises(runtime.RuntimeError_,
                       match="graph g: a grid of 65536 thread blocks in y "
                       r"\(s0 at s0 = 65536\)"):
        g([world.tensor([0.0] * 65536)])
    assert len(world.launches) == 1


def test_call_function_in_tracebacks_and_files(world, tmp_path,
                                                monkeypatch):
    """An error inside a call shows the call function's line (its source is
    the graph's `source`); with SCHEDULER_OPT_CALL_DIR the source is a
    file there, which tracebacks name."""
    import traceback

    def boom(a, out):
        raise ValueError("boom")

    _extern_kernels().twice = boom
    world.kernels["k0"] = lambda x, buf0: None
    m, sig = _extern_graph()
    for directory in (None, tmp_path):
        if directory is not None:
            monkeypatch.setenv("SCHEDULER_OPT_CALL_DIR", str(directory))
        g = _compiled(m, plan.plan(m, sig))
        storage = world.tensor([0.0] * 40)
        x = fake_torch.reinterpret_tensor(storage, (32,), (1,), 4)
        with pytest.raises(ValueError) as info:
            g([x])
        frames = [f for f in traceback.extract_tb(info.value.__traceback__)
                  if f.name == "call"]
        assert len(frames) == 1 and frames[0].line.startswith("twice(")
        if directory is not None:
            (path,) = tmp_path.iterdir()
            assert frames[0].filename == str(path)
            assert path.read_text() == g.source
    # The same plan writes the same function.
    assert _compiled(m, plan.plan(m, sig)).source == g.source
