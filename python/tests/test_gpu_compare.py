"""bench/gpu_machine_compare.py's files beside Inductor's fresh dumps, which
run on the GPU machine only: here, without PyTorch, on a stand-in for
V.graph and the corpus's own foreach_lists.json."""
import importlib.util
import json
import os
import sys
import types

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
CORPUS = os.environ.get("SCHEDULER_OPT_CORPUS") or os.path.join(
    ROOT, "corpus", "inductor")


def load_bench():
    spec = importlib.util.spec_from_file_location(
        "gpu_machine_compare",
        os.path.join(ROOT, "bench", "gpu_machine_compare.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_foreach_lists_written_as_the_corpus_holds_them(tmp_path,
                                                        monkeypatch):
    """V.graph.lists, read as Scheduler.__init__ starts, is written byte for
    byte as the corpus's adam_step foreach_lists.json (which the importer
    turns into the foreach nodes Inductor makes)."""
    bench = load_bench()
    path = os.path.join(CORPUS, "adam_step", "model__0_inference_0.0",
                        "foreach_lists.json")
    with open(path) as f:
        expected = f.read()
    lists = json.loads(expected)
    graph = types.SimpleNamespace(lists={
        name: list(nodes) for name, nodes in lists.items()})
    virtualized = types.ModuleType("torch._inductor.virtualized")
    virtualized.V = types.SimpleNamespace(graph=graph)
    torch = types.ModuleType("torch")
    inductor = types.ModuleType("torch._inductor")
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "torch._inductor", inductor)
    monkeypatch.setitem(sys.modules, "torch._inductor.virtualized",
                        virtualized)
    recorded = bench.current_foreach_lists()
    assert len(recorded) == 4
    bench.write_foreach_lists(str(tmp_path), recorded)
    with open(tmp_path / "foreach_lists.json") as f:
        assert f.read() == expected


def test_trace_folders_in_compile_order():
    bench = load_bench()
    folders = ["t/model__0_inference_10.9", "t/model__0_inference_2.1",
               "t/model__1_forward_3.2"]
    assert sorted(folders, key=bench.trace_order) == [
        "t/model__0_inference_2.1", "t/model__0_inference_10.9",
        "t/model__1_forward_3.2"]
