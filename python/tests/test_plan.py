"""Runtime planning: bindings, allocations, frees, aliases, outputs."""
import copy

import pytest

from scheduler_opt import manifest, plan, sizes

# x -> op0 -> buf0 (temp) -> op1 -> buf2 (output); an extern reads buf2
# and writes buf3 (temp) read by op2 into buf4 (output); the graph also
# returns x (copied into output2) and a view of buf2.
DATA = {
    "graph": "g", "module": "g_kernels", "binary": "g.ptx", "format": "ptx",
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
