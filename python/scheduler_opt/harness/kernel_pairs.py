"""Pairs the kernels of one step under the scheduler_opt backend with
Inductor's (bench/backend_models.py's profiler sequences), to show which
generated kernels lose the most time to their counterparts.

A sequence is the step's device work in launch order, each entry
[name, µs]. Both sides run the same externs (cuBLAS, cuDNN, copies,
memsets) in the same order; they are the anchors. Between two anchors the
generated kernels (ours `kernel_*`, Inductor's `triton_*`) are paired by
position when both sides launch as many, else the stretch is one pair of
sums. Where the anchors differ (a different order), nothing is paired.

Both sides calling the same externs, the difference that is the
compiler's own is that of the generated kernels: `split_time` sums a
sequence's generated kernels apart from the rest, and `generated_table`
gives, per model, the two sides' generated time and its ratio, with the
geometric mean over the models. Run on a saved report:

    python3 -m scheduler_opt.harness.kernel_pairs backend_models.json
"""
import json
import math
import sys
from typing import List, Optional, Sequence, Tuple

GENERATED_PREFIXES = ("kernel_", "triton_")


def is_generated(name: str) -> bool:
    return name.startswith(GENERATED_PREFIXES)


def _stretches(sequence: Sequence[Sequence]) -> Tuple[List[str],
                                                      List[List]]:
    """The anchors' names in order, and the generated kernels before each
    anchor and after the last one (one list more than anchors)."""
    anchors, stretches = [], [[]]
    for name, us in sequence:
        if is_generated(name):
            stretches[-1].append((name, us))
        else:
            anchors.append(name)
            stretches.append([])
    return anchors, stretches


def pair_kernels(ours: Sequence[Sequence], inductor: Sequence[Sequence]
                 ) -> Optional[List[dict]]:
    """Rows {ours, inductor, ours_us, inductor_us} for the generated kernels
    of the two sequences, or None when their anchors differ."""
    ours_anchors, ours_stretches = _stretches(ours)
    ind_anchors, ind_stretches = _stretches(inductor)
    if ours_anchors != ind_anchors:
        return None
    rows = []
    for mine, theirs in zip(ours_stretches, ind_stretches):
        if not mine and not theirs:
            continue
        if len(mine) == len(theirs):
            groups = [([m], [t]) for m, t in zip(mine, theirs)]
        else:
            groups = [(mine, theirs)]
        for m, t in groups:
            rows.append({"ours": " + ".join(n for n, _ in m),
                         "inductor": " + ".join(n for n, _ in t),
                         "ours_us": round(sum(us for _, us in m), 2),
                         "inductor_us": round(sum(us for _, us in t), 2)})
    return rows


def largest_losses(rows: Sequence[dict], top: int = 10) -> List[dict]:
    """The rows where ours takes the most time over Inductor's."""
    return sorted(rows, key=lambda r: r["inductor_us"] - r["ours_us"])[:top]


def split_time(sequence: Sequence[Sequence]) -> Tuple[float, float]:
    """(µs of generated kernels, µs of everything else) in one step."""
    generated = sum(us for name, us in sequence if is_generated(name))
    return generated, sum(us for _, us in sequence) - generated


def generated_rows(models: Sequence[dict]) -> List[dict]:
    """Per model of a backend_models.py report with both profiles: the
    generated and the other µs of a step on each side, and the ratio of the
    generated time (ours / Inductor's)."""
    rows = []
    for model in models:
        ours = (model.get("ours_profile") or {}).get("sequence")
        theirs = (model.get("inductor_profile") or {}).get("sequence")
        if not ours or not theirs:
            continue
        ours_gen, ours_rest = split_time(ours)
        ind_gen, ind_rest = split_time(theirs)
        if ours_gen <= 0 or ind_gen <= 0:
            continue
        rows.append({"model": model["model"], "ours_us": ours_gen,
                     "inductor_us": ind_gen, "ours_other_us": ours_rest,
                     "inductor_other_us": ind_rest,
                     "ratio": ours_gen / ind_gen})
    return rows


def geomean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def generated_table(models: Sequence[dict]) -> str:
    """Markdown: per model the generated kernels' µs a step, ours and
    Inductor's, their ratio, and the rest (externs, copies) on each side;
    the geometric mean of the ratios last."""
    rows = generated_rows(models)
    lines = ["| model | generated µs ours / Inductor | ours / Inductor "
             "| other µs ours / Inductor |",
             "| --- | --- | --- | --- |"]
    for r in rows:
        lines.append("| %s | %.1f / %.1f | %.3f | %.1f / %.1f |" % (
            r["model"], r["ours_us"], r["inductor_us"], r["ratio"],
            r["ours_other_us"], r["inductor_other_us"]))
    if rows:
        lines.append("| geomean (%d models) | | **%.3f** | |" % (
            len(rows), geomean([r["ratio"] for r in rows])))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -m scheduler_opt.harness.kernel_pairs "
              "backend_models.json", file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        report = json.load(f)
    sys.stdout.write(generated_table(report.get("models", [])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
