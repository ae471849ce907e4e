"""The compile cache: keys follow the graph, entries appear whole."""
import os

import pytest

from scheduler_opt import cache


def test_key_depends_on_everything():
    files = {"ir_pre_fusion.txt": "op0: ...", "extern_calls.json": "{}"}
    base = cache.key(files, {"chip": "sm_90"}, {"scheduler-opt": [1]})
    assert base == cache.key(dict(reversed(list(files.items()))),
                             {"chip": "sm_90"}, {"scheduler-opt": [1]})
    assert base != cache.key({**files, "extern_calls.json": "{ }"},
                             {"chip": "sm_90"}, {"scheduler-opt": [1]})
    assert base != cache.key(files, {"chip": "sm_80"}, {"scheduler-opt": [1]})
    assert base != cache.key(files, {"chip": "sm_90"}, {"scheduler-opt": [2]})
    # File boundaries are part of the key.
    assert cache.key({"a": "bc"}, {}, {}) != cache.key({"ab": "c"}, {}, {})


def test_insert_and_lookup(tmp_path):
    store = cache.Cache(str(tmp_path))
    assert store.lookup("ab" * 32) is None

    def build(d):
        with open(os.path.join(d, "graph.json"), "w") as f:
            f.write("{}")

    entry = store.insert("ab" * 32, build)
    assert store.lookup("ab" * 32) == entry
    assert os.listdir(entry) == ["graph.json"]


def test_failed_build_leaves_nothing(tmp_path):
    store = cache.Cache(str(tmp_path))

    def build(d):
        with open(os.path.join(d, "graph.json"), "w") as f:
            f.write("{")  # half-written
        raise RuntimeError("scheduler-opt failed")

    with pytest.raises(RuntimeError, match="scheduler-opt failed"):
        store.insert("cd" * 32, build)
    assert store.lookup("cd" * 32) is None
    assert os.listdir(os.path.join(str(tmp_path), "cd")) == []


def test_tool_identity(tmp_path):
    tool = tmp_path / "scheduler-opt"
    tool.write_text("a")
    first = cache.tool_identity([str(tool)])
    os.utime(tool, ns=(0, 10 ** 9))
    assert cache.tool_identity([str(tool)]) != first
