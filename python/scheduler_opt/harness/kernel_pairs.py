"""Pairs the kernels of one step under the scheduler_opt backend with
Inductor's (bench/backend_models.py's profiler sequences), to show which
generated kernels lose the most time to their counterparts.

A sequence is the step's device work in launch order, each entry
[name, µs]. Both sides run the same externs (cuBLAS, cuDNN, copies,
memsets) in the same order; they are the anchors. Between two anchors the
generated kernels (ours `kernel_*`, Inductor's `triton_*`) are paired by
position when both sides launch as many, else the stretch is one pair of
sums. Where the anchors differ (a different order), nothing is paired.
"""
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
