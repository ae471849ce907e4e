"""bench/compile_ab.py, which times builds of scheduler-corpus-bench in
turns on the GPU machine's host: here with stand-in tools that answer fixed
times and log the order they ran in."""
import json
import os
import stat
import sys

from .bench_scripts import load_bench_script

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
CORPUS = os.environ.get("SCHEDULER_OPT_CORPUS") or os.path.join(
    ROOT, "corpus", "inductor")

FAKE = """#!{python}
import json, sys
args = sys.argv[1:]
out = args[args.index("-o") + 1]
graphs = [a for i, a in enumerate(args)
          if not a.startswith("-") and args[i - 1] != "-o"]
with open({log!r}, "a") as log:
    log.write({name!r} + "\\n")
turn = sum(1 for line in open({log!r}) if line.strip() == {name!r})
times = {times!r}
with open(out, "w") as f:
    json.dump({{"graphs": [{{"graph": g, "time": {{"total_s": times[turn - 1]}}}}
                          for g in graphs]}}, f)
"""


def fake_tool(tmp_path, name, times, log):
    path = tmp_path / name
    path.write_text(FAKE.format(python=sys.executable, log=str(log), name=name,
                                times=times))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_builds_run_in_turns_and_compare_by_median(tmp_path, monkeypatch):
    """Every turn runs the builds in the order given; a build's figure is
    the median of its turns, its share that of the first build's median."""
    log = tmp_path / "order.log"
    old = fake_tool(tmp_path, "old", [2.0, 9.0, 4.0], log)  # median 4
    new = fake_tool(tmp_path, "new", [3.0, 1.0, 2.0], log)  # median 2
    out = tmp_path / "ab.json"
    monkeypatch.setattr(sys, "argv", [
        "compile_ab.py", "--bench", f"old={old}", "--bench", f"new={new}",
        "--turns", "3", "--graphs", "adam_step", "--corpus", CORPUS,
        "--out", str(out)])
    load_bench_script("compile_ab").main()
    assert log.read_text().split() == ["old", "new"] * 3
    summary = json.loads(out.read_text())["summary"]
    (graph, figures), = summary.items()
    assert graph.endswith(os.path.join("adam_step", "model__0_inference_0.0"))
    assert figures["total_s"] == {"old": 4.0, "new": 2.0}
    assert figures["share_of_old"] == {"old": 1.0, "new": 0.5}
