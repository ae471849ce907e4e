"""bench/profile_variants.py, which times the backend models' kernels under
several lowerings in turns on the GPU machine: here its PTX edit (with a
stand-in for scheduler-opt and ptxas) and its table (on fixed profiles)."""
import importlib.util
import os
import stat
import sys
import types

import pytest

from scheduler_opt import tools  # noqa: F401  (imported before any stub)
from scheduler_opt.harness import kernel_pairs  # noqa: F401

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


@pytest.fixture
def bench(monkeypatch):
    """The script, with stand-ins for PyTorch and backend_models where
    PyTorch is not installed (neither is used by what is tested here)."""
    if importlib.util.find_spec("torch") is None:
        monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))
        monkeypatch.setitem(sys.modules, "backend_models",
                            types.ModuleType("backend_models"))
    spec = importlib.util.spec_from_file_location(
        "profile_variants", os.path.join(ROOT, "bench", "profile_variants.py"))
    module = importlib.util.module_from_spec(spec)
    saved = tools.Pipeline.lower
    spec.loader.exec_module(module)
    yield module
    tools.Pipeline.lower = saved  # the script patches it on import


PTX = """.visible .entry k(
\tld.global.nc.v4.b32 \t{%r1, %r2, %r3, %r4}, [%rd1];
\tld.global.nc.b64 \t%rd2, [%rd3];
\tld.global.b32 \t%r5, [%rd4];
}
"""

FAKE_PTXAS = """#!{python}
import sys
args = sys.argv[1:]
with open(args[args.index("-o") + 1], "w") as f:
    f.write("assembled " + " ".join(args))
"""


def test_ptx_edit_plain(bench, tmp_path, monkeypatch):
    """`ptx-edit=plain` is not passed to scheduler-opt: the PTX it wrote
    loses every `.nc` and is assembled again with the chip's -arch."""
    seen = []

    def fake_lower(self, graph, out_dir, options=""):
        seen.append(options)
        (tmp_path / "graph.ptx").write_text(PTX)
        (tmp_path / "graph.cubin").write_text("old")
    monkeypatch.setattr(bench, "_lower", fake_lower)
    ptxas = tmp_path / "ptxas"
    ptxas.write_text(FAKE_PTXAS.format(python=sys.executable))
    ptxas.chmod(ptxas.stat().st_mode | stat.S_IXUSR)
    pipeline = tools.Pipeline(translate="t", opt="o", chip="sm_90",
                              toolkit={"ptxas": str(ptxas)})
    pipeline.lower("graph.mlir", str(tmp_path),
                   "reduction-lanes=64 ptx-edit=plain")
    assert seen == ["reduction-lanes=64"]
    ptx = (tmp_path / "graph.ptx").read_text()
    assert "ld.global.nc" not in ptx
    assert ptx.count("ld.global.") == 3
    cubin = (tmp_path / "graph.cubin").read_text()
    assert cubin.startswith("assembled -arch=sm_90 ")
    # Without an edit the output stays as lowered.
    pipeline.lower("graph.mlir", str(tmp_path), "reduction-lanes=64")
    assert (tmp_path / "graph.ptx").read_text() == PTX
    with pytest.raises(ValueError):
        pipeline.lower("graph.mlir", str(tmp_path), "ptx-edit=other")


def _round(us):
    return [["kernel_op0", us[0]], ["sm80_gemm", 10.0], ["kernel_op1", us[1]]]


def _inductor_round(us):
    return [["triton_a", us[0]], ["sm80_gemm", 10.0], ["triton_b", us[1]]]


def test_table_medians_and_pairs(bench):
    """Each variant's column is the median of its rounds; every Inductor
    copy gets a column, paired with ours by position; the totals are the
    generated kernels' sums a round (the gemm left out)."""
    rounds = {
        "ours_a": [_round([1.0, 2.0]), _round([3.0, 2.2]), _round([2.0, 9.0])],
        "plain": [_round([0.5, 1.0]), None, _round([0.7, 1.2])],
        "inductor_a": [_inductor_round([4.0, 5.0])] * 3,
        "inductor_b": [_inductor_round([4.5, 5.5])] * 3,
    }
    checks = {l: {"tolerance": "default"} for l in rounds}
    checks["broken"] = {"error": "CompileError: no"}
    text = bench.table("m", list(rounds), rounds, checks)
    lines = text.splitlines()
    assert "| kernel | ours_a | plain | inductor_a | inductor_b |" in lines[4]
    assert "| kernel_op0 | 2.00 | 0.60 | 4.00 | 4.50 | triton_a |" in lines
    assert "| kernel_op1 | 2.20 | 1.10 | 5.00 | 5.50 | triton_b |" in lines
    assert "broken CompileError: no" in lines[2]
    assert "ours_a 3.0, 5.2, 11.0" in lines[-1]
    assert "plain 1.5, 1.9" in lines[-1]
