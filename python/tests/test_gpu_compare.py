"""bench/gpu_machine_compare.py's files beside Inductor's fresh dumps, which
run on the GPU machine only: here, without PyTorch, on a stand-in for
V.graph and the corpus's own foreach_lists.json."""
import json
import os
import sys
import types

from .bench_scripts import load_bench_script

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
CORPUS = os.environ.get("SCHEDULER_OPT_CORPUS") or os.path.join(
    ROOT, "corpus", "inductor")


def test_foreach_lists_written_as_the_corpus_holds_them(tmp_path,
                                                        monkeypatch):
    """V.graph.lists, read as Scheduler.__init__ starts, is written byte for
    byte as the corpus's adam_step foreach_lists.json (which the importer
    turns into the foreach nodes Inductor makes)."""
    bench = load_bench_script("gpu_machine_compare")
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
    bench = load_bench_script("gpu_machine_compare")
    folders = ["t/model__0_inference_10.9", "t/model__0_inference_2.1",
               "t/model__1_forward_3.2"]
    assert sorted(folders, key=bench.trace_order) == [
        "t/model__0_inference_2.1", "t/model__0_inference_10.9",
        "t/model__1_forward_3.2"]


def test_turn_ratios_pair_each_turns_times():
    """Each turn's ratio is that turn's Inductor time over ours in the same
    turn (the fresh dump's, else the corpus dump's); turns missing a side
    are left out, and the median is of the turns' ratios, not a ratio of
    medians."""
    bench = load_bench_script("gpu_machine_compare")
    turns = [{"scheduler_init_s": 0.4, "ours_corpus_s": 0.004,
              "ours_fresh_s": 0.005},
             {"scheduler_init_s": 0.3, "ours_corpus_s": 0.002,
              "ours_fresh_s": None},
             {"scheduler_init_s": 0.5, "ours_corpus_s": 0.005,
              "ours_fresh_s": 0.0025},
             {"scheduler_init_s": None, "ours_corpus_s": 0.001,
              "ours_fresh_s": 0.001}]
    summary = bench.turn_ratios(turns)
    assert summary["ratios"] == [80.0, 150.0, 200.0]
    assert summary["median"] == 150.0
    assert (summary["min"], summary["max"]) == (80.0, 200.0)
    assert bench.turn_ratios(turns[3:]) is None


def test_report_shows_the_turns(tmp_path):
    """gpu_compare.md gives the median turn's ratio with its range beside
    the ratio of medians; a graph without turns shows n/a."""
    bench = load_bench_script("gpu_machine_compare")
    with_turns = {"graph": "g/model__0_forward_1.0",
                  "torch": {"scheduler_init_s": 0.3},
                  "ours_corpus": {"nodes": 30, "total_s": 0.003},
                  "ours_fresh": [{"nodes": 30, "total_s": 0.002}],
                  "turn_ratios": bench.turn_ratios([
                      {"scheduler_init_s": 0.3, "ours_fresh_s": 0.002},
                      {"scheduler_init_s": 0.2, "ours_fresh_s": 0.004},
                      {"scheduler_init_s": 0.4, "ours_fresh_s": 0.004}])}
    without = {"graph": "h/model__0_forward_1.0",
               "torch": {"scheduler_init_s": 0.3},
               "ours_corpus": {"nodes": 25, "total_s": 0.003}}
    bench.write_report(str(tmp_path), {
        "host": "test", "context_threads": [0],
        "graphs": [with_turns, without]})
    rows = [line for line in (tmp_path / "gpu_compare.md").read_text()
            .splitlines() if line.startswith("| `")]
    assert "| 150\u00d7 | 100\u00d7 (50\u2013150, 3 turns) |" in rows[0]
    assert "| 100\u00d7 | n/a |" in rows[1]
    with open(tmp_path / "gpu_compare.json") as f:
        assert json.load(f)["graphs"][0]["turn_ratios"]["median"] == 100.0
