"""Finding the tools and reading their diagnostics."""
import os

import pytest

from scheduler_opt import tools

# scheduler-opt's error on a corpus graph before multi-output externs had
# a lowering (an MLIR diagnostic with the offending line under it).
STDERR = """\
/tmp/gpt2.mlir:74:14: error: 'fusion.extern' op returns or takes a !fusion.multi_output; multi-output externs have no lowering
    %buf12 = fusion.extern "op12" "torch.ops.aten._scaled_dot_product_efficient_attention.default"(%buf8) : (!fusion.buffer<512x768xf32>) -> !fusion.multi_output
             ^
/tmp/gpt2.mlir:74:14: note: see current operation: ...
"""


def test_parse_diagnostic():
    op, reason = tools.parse_diagnostic(STDERR)
    assert op == "fusion.extern op12"
    assert reason == ("returns or takes a !fusion.multi_output; "
                      "multi-output externs have no lowering")


def test_parse_diagnostic_without_location():
    assert tools.parse_diagnostic("boom\n") == ("", "boom")
    assert tools.parse_diagnostic("") == ("", "failed without a diagnostic")


def test_find_tool(tmp_path, monkeypatch):
    tool = tmp_path / "scheduler-opt"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    monkeypatch.setenv("SCHEDULER_OPT_BIN", str(tmp_path))
    assert tools.find_tool("scheduler-opt") == str(tool)
    monkeypatch.setenv("PATH", "")
    with pytest.raises(tools.ToolNotFound, match="SCHEDULER_OPT_BIN"):
        tools.find_tool("scheduler-translate")


def test_run_failure_names_op(tmp_path):
    script = tmp_path / "fail.sh"
    script.write_text("#!/bin/sh\ncat >&2 <<'E'\n%sE\nexit 1\n" % STDERR)
    script.chmod(0o755)
    with pytest.raises(tools.PipelineError) as info:
        tools.run([str(script)], "scheduler-opt --fusion-to-ptx")
    assert info.value.op == "fusion.extern op12"
    assert "on fusion.extern op12: returns or takes" in str(info.value)
