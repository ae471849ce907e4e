"""The FX signature reader and the dtype table everything derives from."""
import os

import pytest

from scheduler_opt import dtypes, dump, fx_graph

CORPUS = os.environ.get("SCHEDULER_OPT_CORPUS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "corpus", "inductor")

# The head of a dump as Inductor writes it, with the annotations it uses:
# a tensor, a tensor with its strides, a size symbol.
SOURCE = '''class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 4096]", arg1_1: "bf16[8, 4][1, 8]", s0: "Sym(s0)", arg2_1: "b8[s0, 16]"):
        return (arg0_1,)
'''


def test_parse_signature():
    params = fx_graph.parse_signature(SOURCE)
    assert params == [
        fx_graph.Param("arg0_1", dtype="f32", shape=(64, 4096)),
        fx_graph.Param("arg1_1", dtype="bf16", shape=(8, 4), stride=(1, 8)),
        fx_graph.Param("s0", symbol="s0"),
        fx_graph.Param("arg2_1", dtype="b8", shape=("s0", 16)),
    ]


def test_read_signature_of_the_corpus():
    path = os.path.join(CORPUS, "add_sum", "model__0_inference_0.0",
                        "fx_graph_readable.py")
    if not os.path.exists(path):
        pytest.skip("no corpus")
    assert fx_graph.read_signature(path) == [
        fx_graph.Param("arg0_1", dtype="f32", shape=(64, 4096)),
        fx_graph.Param("arg1_1", dtype="f32", shape=(64, 4096)),
    ]


def test_dtype_tables_derive_from_one():
    # Each code and name appears once, so that every derived map inverts.
    for column in range(3):
        names = [row[column] for row in dtypes.DTYPES]
        assert len(names) == len(set(names))
    assert dump.DTYPE_NAMES["bool"] == "i1"
    assert dtypes.TORCH_NAME_BY_FX_CODE["b8"] == "bool"
    assert dtypes.TORCH_NAME_BY_MANIFEST_NAME["bf16"] == "bfloat16"


class _Dtype:
    def __init__(self, name):
        self.name = name


def test_dtype_codes_fill_only_what_the_printer_lacks():
    # PyTorch 2.11's printer table (torch/utils/_dtype_abbrs.py) has b16
    # and b1x8 but no bits2x4, bits4x2 or bits8; a name this torch lacks
    # gets nothing.
    torch_dtypes = {name: _Dtype(name) for _, name, _ in dtypes.DTYPES
                    if name != "float8_e8m0fnu"}
    t = torch_dtypes
    abbrs = {t["float32"]: "f32", t["bits16"]: "b16", t["bits1x8"]: "b1x8",
             t["bool"]: "b8"}
    before = dict(abbrs)
    with fx_graph.dtype_codes(abbrs, torch_dtypes.get):
        assert abbrs[t["bits8"]] == "bits8"
        assert abbrs[t["bits2x4"]] == "bits2x4"
        assert abbrs[t["bits4x2"]] == "bits4x2"
        assert abbrs[t["float32"]] == "f32"
        assert len(abbrs) == len(torch_dtypes)
        # The code an annotation gets is the one the signature reads back.
        source = SOURCE.replace('"b8[s0, 16]"',
                                '"%s[s0, 16]"' % abbrs[t["bits8"]])
        assert fx_graph.parse_signature(source)[-1].dtype == "bits8"
        assert dtypes.TORCH_NAME_BY_FX_CODE["bits8"] == "bits8"
    assert abbrs == before
    with pytest.raises(KeyError):
        with fx_graph.dtype_codes(abbrs, torch_dtypes.get):
            raise KeyError("inside")
    assert abbrs == before
