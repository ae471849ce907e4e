"""Tracing Inductor's scan combine functions into loop-body text, without
PyTorch: the fakes below behave as Inductor's `ops` (OpsWrapper, whose
results are OpsValues with Python operators), `V.set_ops_handler`, and a
LoopBody whose `scan1` submodule is Inductor's shim; the combine
functions are PyTorch 2.11's (torch/_inductor/lowering.py: cumsum,
cumprod, logcumsumexp's log_add_exp_helper; ir.py's argmax combine that
cummax uses). The traced text is also what the lit tests' dumps carry
(test/Target/Inductor/Inputs/scan-combine/), checked here."""
import contextlib
import os
import re

import pytest

from scheduler_opt import combine_fns

_handler = [None]


@contextlib.contextmanager
def set_ops_handler(handler):
    saved, _handler[0] = _handler[0], handler
    try:
        yield
    finally:
        _handler[0] = saved


class OpsValue:
    def __init__(self, value):
        self.value = value

    def __sub__(self, other):
        return ops.sub(self, other)

    def __add__(self, other):
        return ops.add(self, other)

    def __ne__(self, other):
        return ops.ne(self, other)

    def __or__(self, other):
        return ops.bitwise_or(self, other)

    def __invert__(self):
        return ops.bitwise_not(self)


class _Ops:
    """OpsWrapper: unwraps OpsValues, calls the handler, wraps."""

    def __getattr__(self, name):
        def inner(*args):
            args = [a.value if isinstance(a, OpsValue) else a for a in args]
            return OpsValue(getattr(_handler[0], name)(*args))
        return inner


ops = _Ops()


def cumsum_combine(a_tuple, b_tuple):
    (a,), (b,) = a_tuple, b_tuple
    return (ops.add(a, b),)


def cumprod_combine(a_tuple, b_tuple):
    (a,), (b,) = a_tuple, b_tuple
    return (ops.mul(a, b),)


def log_add_exp_helper(a_tuple, b_tuple):
    (a,) = a_tuple
    (b,) = b_tuple
    min_v = ops.minimum(a, b)
    max_v = ops.maximum(a, b)
    mask = (min_v != max_v) | (~ops.isinf(min_v))
    return (ops.where(mask, ops.log1p(ops.exp(min_v - max_v)) + max_v, a),)


def argmax_combine(a, b, argmin=False):
    """ir.get_reduction_combine_fn("argmax", float, arg_break_ties_left=False)."""
    a_value, a_index = a
    b_value, b_index = b
    mask = ops.lt(a_value, b_value) if argmin else ops.gt(a_value, b_value)
    equal = ops.eq(a_value, b_value)
    a_isnan = ops.ne(a_value, a_value)
    b_isnan = ops.ne(b_value, b_value)
    mask = ops.logical_or(mask, ops.gt(a_isnan, b_isnan))
    equal = ops.logical_or(equal, ops.logical_and(a_isnan, b_isnan))
    tie = ops.gt(a_index, b_index)
    mask = ops.logical_or(mask, ops.logical_and(equal, tie))
    return (ops.where(mask, a_value, b_value), ops.where(mask, a_index, b_index))


class Dtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class Node:
    def __init__(self, op, target, args):
        self.op, self.target, self.args = op, target, args


class Graph:
    def __init__(self, nodes):
        self.nodes = nodes


class Block:
    def __init__(self, nodes):
        self.graph = Graph(nodes)


class LoopBody:
    """A LoopBody with one scan: `scan1 = self.scan1(dtypes, values)`."""

    def __init__(self, combine_fn, dtypes):
        def shim(dtypes, values):  # LoopBody.bind_scan_shim's
            return _handler[0].scan(dtypes, combine_fn, values)
        self.submodules = {"get_index": object(), "scan1": shim}
        self.root_block = Block([Node("call_module", "scan1",
                                      (tuple(dtypes), ("load",)))])
        self.subblocks = {}


F32, I64 = Dtype("float32"), Dtype("int64")
INPUTS = os.path.join(os.path.dirname(__file__), "..", "..", "test", "Target",
                      "Inductor", "Inputs", "scan-combine")


def blocks_of(path):
    """The `def scan1_combine_fn` blocks of a dump, by node."""
    blocks, node, current = {}, None, None
    with open(path) as f:
        for line in f.read().split("\n"):
            m = re.match(r"class (\w+)_loop_body:", line)
            if m:
                node = m.group(1)
            if line.startswith("    def scan1_combine_fn"):
                current = blocks.setdefault(node, [])
            elif not line.startswith("        "):
                current = None
            if current is not None:
                current.append(line)
    return blocks


def test_cumsum_block():
    body = LoopBody(cumsum_combine, [F32])
    assert combine_fns.combine_fn_blocks(body, set_ops_handler) == [
        "    def scan1_combine_fn(self, ops, arg0_0, arg1_0):",
        "        add = ops.add(arg0_0, arg1_0)",
        "        return (add,)"]


def test_dumps_carry_the_traced_functions():
    scans = blocks_of(os.path.join(INPUTS, "scans.txt"))
    for node, fn in (("op0", cumsum_combine), ("op1", cumprod_combine),
                     ("op2", log_add_exp_helper)):
        assert combine_fns.combine_fn_blocks(
            LoopBody(fn, [F32]), set_ops_handler) == scans[node]
    cumext = blocks_of(os.path.join(INPUTS, "cumext.txt"))
    for node, argmin in (("op0", False), ("op1", False), ("op2", True),
                         ("op3", True)):
        def fn(a, b):
            return argmax_combine(a, b, argmin)
        assert combine_fns.combine_fn_blocks(
            LoopBody(fn, [F32, I64]), set_ops_handler) == cumext[node]
    intscan = blocks_of(os.path.join(INPUTS, "intscan.txt"))
    for node in ("op0", "op1"):
        assert combine_fns.combine_fn_blocks(
            LoopBody(cumsum_combine, [I64]), set_ops_handler) == intscan[node]


def test_logcumsumexp_records_operators():
    lines = combine_fns.combine_fn_blocks(LoopBody(log_add_exp_helper, [F32]),
                                          set_ops_handler)
    ops_called = [re.search(r"ops\.(\w+)", l).group(1) for l in lines[1:-1]]
    # Inductor's own helper name lists the same calls:
    # _triton_helper_fn_minimum_maximum_ne_isinf_bitwise_not_bitwise_or_sub_exp_log1p_add_where2
    assert ops_called == ["minimum", "maximum", "ne", "isinf", "bitwise_not",
                          "bitwise_or", "sub", "exp", "log1p", "add", "where"]
    assert lines[-1] == "        return (where,)"


def test_inserted_at_the_end_of_the_loop_body_class():
    text = "\n".join([
        "op3: SchedulerNode(ComputedBuffer)",
        "class op3_loop_body:",
        "    var_ranges = {p0: 8, p1: 64}",
        "    def body(self, ops):",
        "        return store",
        "    def masked_subblock1(self, ops):",
        "        return load"])
    out = combine_fns.with_combine_fns(text, "op3",
                                       LoopBody(cumsum_combine, [F32]),
                                       set_ops_handler)
    assert out.split("\n")[-3:] == [
        "    def scan1_combine_fn(self, ops, arg0_0, arg1_0):",
        "        add = ops.add(arg0_0, arg1_0)",
        "        return (add,)"]
    assert out.startswith(text)


def test_constants_and_dtypes_as_the_dump_prints_them():
    def combine(a, b):
        c = ops.constant(float("-inf"), F32)
        return (ops.where(ops.constant(True, Dtype("bool")), c, b[0]),)
    lines = combine_fns.combine_fn_blocks(LoopBody(combine, [F32]),
                                          set_ops_handler)
    assert lines[1:3] == [
        "        constant = ops.constant(-inf, torch.float32)",
        "        constant_1 = ops.constant(True, torch.bool)"]


def test_untraceable_function_is_left_out():
    def combine(a, b):
        return (ops.add(a[0], object()),)
    assert combine_fns.combine_fn_blocks(LoopBody(combine, [F32]),
                                         set_ops_handler) == []
    with pytest.raises(combine_fns.UntraceableCombineFn):
        combine_fns.trace_combine_fn(combine, 1, "scan1", set_ops_handler)
