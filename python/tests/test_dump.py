"""The dump writer, on calls recorded from Inductor's own output
(corpus/inductor/gpt2's output_code.py) and the corpus sidecars."""
import json
import math
import os

import pytest

from scheduler_opt import dump

CORPUS = os.environ.get("SCHEDULER_OPT_CORPUS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "corpus", "inductor")


class Layout:
    def __init__(self, size, stride, offset=0, dtype="torch.float32"):
        self.size, self.stride, self.offset, self.dtype = \
            size, stride, offset, dtype


class MultiOutputLayout:
    dtype = "torch.float32"


class Buffer:
    def __init__(self, name, layout):
        self.name, self.layout = name, layout

    def get_name(self):
        return self.name

    def get_layout(self):
        return self.layout


class ExternKernelOut(Buffer):
    def __init__(self, name, layout, kernel, inputs, kwargs):
        super().__init__(name, layout)
        self.python_kernel_name = kernel
        self.inputs, self.constant_args, self.kwargs = inputs, (), kwargs
        self.output_view = None


class FallbackKernel(Buffer):
    """Inductor's FallbackKernel rebuilds the op's arguments from its
    tensor inputs and constants in schema order."""

    def __init__(self, name, kernel, inputs, constants, kwargs):
        super().__init__(name, MultiOutputLayout())
        self.python_kernel_name = kernel
        self.inputs, self.constant_args = inputs, constants
        self._kwargs = kwargs

    def unflatten_args(self, inputs, constants):
        return [*inputs, *constants], dict(self._kwargs)


class MultiOutput(Buffer):
    def __init__(self, name, layout, source, index):
        super().__init__(name, layout)
        self.inputs = [source]
        self.indices = [(tuple, index)]


def view(name, size, stride, offset=0):
    return Buffer(name, Layout(size, stride, offset))


# gpt2's forward, output_code.py:
#   extern_kernels.addmm(primals_6, reinterpret_tensor(buf7, (512, 256),
#       (256, 1), 0), primals_7, alpha=1, beta=1, out=buf8)
#   buf12 = torch.ops.aten._scaled_dot_product_efficient_attention.default(
#       reinterpret_tensor(buf8, (4, 4, 128, 64), (98304, 64, 768, 1), 0),
#       buf9, buf10, reinterpret_tensor(buf11, (4, 4, 128, 128),
#       (16384, 0, 128, 1), 0), True, scale=0.125)
#   buf13 = buf12[0]; buf14 = buf12[1]
def test_out_variant_call():
    buf8 = ExternKernelOut(
        "buf8", Layout([512, 768], [768, 1]), "extern_kernels.addmm",
        [view("primals_6", [768], [1]), view("buf7", [512, 256], [256, 1]),
         view("primals_7", [256, 768], [768, 1])], {"alpha": 1, "beta": 1})
    call = dump.describe_extern("op8", buf8, [buf8])
    assert call["kernel"] == "extern_kernels.addmm"
    assert call["class"] == "ExternKernelOut"
    assert [a["buffer"] for a in call["args"]] == ["primals_6", "buf7",
                                                  "primals_7"]
    assert call["args"][1] == {"buffer": "buf7", "size": [512, 256],
                               "stride": [256, 1], "offset": 0,
                               "dtype": "f32"}
    assert call["kwargs"] == {"alpha": 1, "beta": 1}
    assert call["out"]["buffer"] == "buf8"
    assert call["outputs"] == [call["out"]]


def test_tuple_call_and_elements():
    sdpa = FallbackKernel(
        "buf12", "torch.ops.aten._scaled_dot_product_efficient_attention."
        "default",
        [view("buf8", [4, 4, 128, 64], [98304, 64, 768, 1]),
         view("buf9", [4, 4, 128, 64], [32768, 64, 256, 1]),
         view("buf10", [4, 4, 128, 64], [32768, 64, 256, 1]),
         view("buf11", [4, 4, 128, 128], [16384, 0, 128, 1])],
        (True,), {"scale": 0.125})
    out0 = MultiOutput("buf13", Layout([4, 4, 128, 64], [32768, 64, 256, 1]),
                       sdpa, 0)
    out1 = MultiOutput("buf14", Layout([4, 4, 128], [512, 128, 1]), sdpa, 1)
    calls = {"op12": dump.describe_extern("op12", sdpa, [sdpa]),
             "op13": dump.describe_extern("op13", out0, [out0]),
             "op14": dump.describe_extern("op14", out1, [out1])}
    assert calls["op12"]["args"][3]["stride"] == [16384, 0, 128, 1]
    assert calls["op12"]["args"][4] is True
    assert calls["op12"]["kwargs"] == {"scale": 0.125}
    assert calls["op12"]["outputs"] == []  # a tuple has no layout
    dump.link_elements(calls, {"buf12": "op12", "buf13": "op13",
                               "buf14": "op14"})
    elements = calls["op12"]["elements"]
    assert elements["buf13"]["indices"] == [0]
    assert elements["buf14"]["indices"] == [1]
    assert elements["buf14"]["layout"]["size"] == [4, 4, 128]
    with pytest.raises(dump.UnsupportedCall, match="op13 extracts"):
        dump.link_elements({"op13": calls["op13"]}, {"buf12": "op12"})


class RandomSeeds(ExternKernelOut):
    """Inductor's random seeds: an ExternKernelOut subclass keeping its codegen
    (aten.randint.low_out(min, max, [count], out=buf))."""

    def __init__(self):
        super().__init__("buf0", Layout([1], [1], dtype="torch.int64"),
                         "aten.randint.low_out", [], {})
        self.constant_args = (-2 ** 31, 2 ** 31 - 1, [1])


class ScatterFallback(Buffer):
    """Inductor's ir.ScatterFallback: its own codegen, NoneLayout, the
    updated tensor first among its inputs."""

    def __init__(self, name, kernel, inputs, constant_args, reduce,
                 include_self=True):
        super().__init__(name, Layout([0], [0]))
        self.python_kernel_name = kernel
        self.inputs, self.constant_args = inputs, constant_args
        self.src_is_tensor = len(inputs) == 3
        self.kwargs = {"reduce": reduce, "include_self": include_self}

    def codegen(self, wrapper):
        pass


class IndexPutFallback(Buffer):
    """Inductor's ir.IndexPutFallback: inputs (x, values, *valid indices),
    kernel.indices with None for the dimensions not indexed."""

    def __init__(self, name, inputs, indices, accumulate):
        super().__init__(name, Layout([0], [0]))
        self.python_kernel_name = "aten.index_put_"
        self.inputs, self.indices = inputs, indices
        self.constant_args = (accumulate,)

    def codegen(self, wrapper):
        pass


def test_call_conventions():
    call = dump.describe_extern("op0", RandomSeeds(), [RandomSeeds()])
    assert call["args"] == [-2 ** 31, 2 ** 31 - 1, [1]]
    assert call["out"]["buffer"] == "buf0"

    class OwnCodegen(ExternKernelOut):
        def codegen(self, wrapper):
            pass
    own = OwnCodegen("buf1", Layout([1], [1]), "aten.foo", [], {})
    with pytest.raises(dump.UnsupportedCall, match="op1 \\(aten.foo\\): "
                       "Inductor's OwnCodegen calls its kernel"):
        dump.describe_extern("op1", own, [own])


# The calls Inductor's Python wrapper writes for them
# (generate_scatter_fallback, generate_index_put_fallback), for example
#   aten.scatter_reduce_.two(buf1, 0, arg2_1, arg1_1, reduce='amax',
#                            include_self=False)
#   aten.scatter_.value_reduce(buf0, 1, arg1_1, 2.5, reduce='add')
#   aten.index_put_(buf2, [None, arg3_1], arg4_1, True)
def test_scatter_and_index_put_fallbacks():
    x, index, src = (view("buf1", [200, 16], [16, 1]),
                     view("arg2_1", [300, 16], [1, 0]),
                     view("arg1_1", [300, 16], [16, 1]))
    amax = ScatterFallback("buf3", "aten.scatter_reduce_.two",
                           [x, index, src], (0,), "amax", False)
    call = dump.describe_extern("op3", amax, [])
    assert call["kernel"] == "aten.scatter_reduce_.two"
    assert [a["buffer"] for a in (call["args"][0], call["args"][2],
                                  call["args"][3])] == ["buf1", "arg2_1",
                                                        "arg1_1"]
    assert call["args"][1] == 0
    assert call["args"][2]["stride"] == [1, 0]
    assert call["kwargs"] == {"include_self": False, "reduce": "amax"}
    assert call["outputs"] == []  # NoneLayout: it updates buf1

    value = ScatterFallback("buf4", "aten.scatter_.value_reduce",
                            [x, index], (1, 2.5), "add")
    call = dump.describe_extern("op4", value, [])
    assert call["args"][1] == 1 and call["args"][3] == 2.5
    assert call["kwargs"] == {"reduce": "add"}
    plain = ScatterFallback("buf5", "aten.scatter_.src", [x, index, src],
                            (1,), None)
    assert dump.describe_extern("op5", plain, [])["kwargs"] == {}

    put = IndexPutFallback("buf6", [view("buf2", [8, 16], [16, 1]),
                                    view("arg4_1", [8, 3], [3, 1]),
                                    view("arg3_1", [3], [1])],
                           [None, "tensor"], True)
    call = dump.describe_extern("op6", put, [])
    assert call["kernel"] == "aten.index_put_"
    assert call["args"][0]["buffer"] == "buf2"
    assert call["args"][1][0] is None
    assert call["args"][1][1]["buffer"] == "arg3_1"
    assert call["args"][2]["buffer"] == "arg4_1"
    assert call["args"][3] is True


class InplaceCopyFallback(Buffer):
    """Inductor's ir.InplaceCopyFallback: inputs (dst, src), constant
    argument non_blocking, NoneLayout, its own codegen (the wrapper's
    `dst.copy_(src, non_blocking)`)."""

    def __init__(self, name, dst, src):
        super().__init__(name, Layout([0], [0]))
        self.python_kernel_name = "aten.copy_"
        self.inputs, self.constant_args = [dst, src], (False,)

    def codegen(self, wrapper):
        pass


def test_inplace_copy_fallback():
    """x.copy_(y) that Inductor keeps as an extern (bench/
    unseen_models_third.py's fnet copies a complex FFT's result so): the
    call is aten.copy_(dst, src, non_blocking), dst updated in place."""
    dst, src = view("buf2", [4, 32, 64], [2048, 64, 1]), \
        view("buf1", [4, 32, 64], [4096, 128, 2])
    call = dump.describe_extern(
        "op3", InplaceCopyFallback("buf3", dst, src), [])
    assert call["kernel"] == "aten.copy_"
    assert [a["buffer"] for a in call["args"][:2]] == ["buf2", "buf1"]
    assert call["args"][1]["stride"] == [4096, 128, 2]
    assert call["args"][2] is False
    assert call["kwargs"] == {} and call["outputs"] == []


def test_values():
    assert dump.value([1, 2.5, None, "tanh"], "x") == [1, 2.5, None, "tanh"]
    assert dump.value(math.inf, "x") == {"float": "inf"}
    assert dump.value(-math.inf, "x") == {"float": "-inf"}
    assert dump.value(1.0, "x") == {"float": "1.0"}
    with pytest.raises(dump.UnsupportedCall, match="op3: argument"):
        dump.value(object(), "op3")


def test_symint_value():
    """A torch.SymInt argument (aten.slice.Tensor's end under
    dynamic=True, as Inductor 2.11 passed s27 to a FallbackKernel) is its
    size expression."""
    class Expr:
        free_symbols = {"s27"}

        def __str__(self):
            return "s27"

    class Node:
        expr = Expr()

    class SymInt:  # duck-types torch.SymInt: its name and .node.expr
        node = Node()
    assert dump.value([0, SymInt()], "op2") == [0, {"size": "s27"}]


def test_symbolic_layout():
    class Sym:
        free_symbols = {"s0"}

        def __str__(self):
            return "64*s0"
    ref = dump.tensor_ref(Buffer("buf0", Layout([Sym(), 64], [64, 1])))
    assert ref["size"] == ["64*s0", 64]


def test_write_matches_corpus_sidecars(tmp_path):
    """foreach_lists.json and size_hints.json in the corpus's format, byte
    for byte."""
    adam = os.path.join(CORPUS, "adam_step", "model__0_inference_0.0")
    softmax = os.path.join(CORPUS, "softmax_dynamic",
                           "model__0_inference_0.0")
    lists = json.load(open(os.path.join(adam, "foreach_lists.json")))
    hints = json.load(open(os.path.join(softmax, "size_hints.json")))
    dump.write(str(tmp_path), dump_text="op0: ...\n", extern_calls={},
               foreach_lists=lists, size_hints=dict(reversed(hints.items())),
               signature={"inputs": [], "outputs": []})
    for name, source in (("foreach_lists.json", adam),
                         ("size_hints.json", softmax)):
        assert (tmp_path / name).read_text() == \
            open(os.path.join(source, name)).read()
    sidecars = dump.read_sidecars(str(tmp_path))
    assert sidecars["extern_calls.json"] == {}
    assert sidecars["signature.json"] == {"inputs": [], "outputs": []}


class NonOwningLayout(Layout):
    """ir.NonOwningLayout: the layout of `view` with offset 0."""

    def __init__(self, view):
        layout = view.get_layout()
        super().__init__(layout.size, layout.stride, 0, layout.dtype)
        self.view = view


class ReinterpretView(Buffer):
    def __init__(self, data, layout):
        super().__init__(data.get_name(), layout)
        self.data = data


def _cat_parts():
    """torch.cat([a, b], 1) of 4x2 and 4x3 into a 4x5 buffer buf5, b
    computed straight into columns 2..4 (ConcatKernel.realize_into)."""
    concat = Buffer("buf5", Layout([4, 5], [5, 1]))
    a = Buffer("buf0", NonOwningLayout(
        ReinterpretView(concat, Layout([4, 2], [5, 1], 0))))
    b = Buffer("buf1", NonOwningLayout(
        ReinterpretView(concat, Layout([4, 3], [5, 1], 2))))
    return concat, a, b


def test_buffer_views_of_concatenation_inputs():
    concat, a, b = _cat_parts()
    assert dump.buffer_views([concat, a, b]) == {
        "buf0": {"base": "buf5", "offset": 0},
        "buf1": {"base": "buf5", "offset": 2}}
    written = dump.files(dump_text="", extern_calls={}, foreach_lists={},
                         size_hints={}, signature={},
                         buffer_views=dump.buffer_views([a, b]))
    assert json.loads(written[dump.BUFFER_VIEWS])["buf1"]["offset"] == 2
    # None when there are no such buffers.
    assert dump.BUFFER_VIEWS not in dump.files(
        dump_text="", extern_calls={}, foreach_lists={}, size_hints={},
        signature={}, buffer_views=dump.buffer_views([concat]))


def test_tensor_ref_of_concatenation_input_names_its_storage():
    # An extern argument or a graph output that is a concatenation input,
    # or a view of one, is a view of the concatenation's storage: the input
    # has no storage of its own.
    _, _, b = _cat_parts()
    assert dump.tensor_ref(b) == {"buffer": "buf5", "size": [4, 3],
                                  "stride": [5, 1], "offset": 2,
                                  "dtype": "f32"}
    row = ReinterpretView(b, Layout([3], [1], 5))
    assert dump.tensor_ref(row)["buffer"] == "buf5"
    assert dump.tensor_ref(row)["offset"] == 7
