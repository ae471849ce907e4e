"""Pairs the kernels of one step under the scheduler_opt backend with
Inductor's (bench/backend_models.py's profiler sequences), to show which
generated kernels lose the most time to their counterparts.

A sequence is the step's device work in launch order, each entry
[name, µs]. Both sides run the same externs (cuBLAS, cuDNN, copies,
memsets) in the same order; they are the anchors. Between two anchors the
generated kernels (ours `kernel_*`, Inductor's `triton_*`) are paired by
position when both sides launch as many, else the stretch is one pair of
sums. Where the anchors differ (a different order), nothing is paired.

Pairing by position is wrong where the two sides launch as many kernels
between two anchors in another order (gpt2_train's embeddings: our layer
norm against Inductor's `arange`). Given what each launch writes (one set
of buffers per generated launch, in sequence order), the kernels of a
stretch are paired by the buffers they share instead: each group of
kernels linked by a shared buffer is one pair of sums, and those that
share none with the other side are one more. Both sides lower the same
graphs, so a buffer has one name on both: ours are a kernel's nodes'
(`op12` creates `buf12`: `manifest_writes`), Inductor's those its output
code passes at a kernel's output parameters, those it only mutates left
out (`inductor_writes`): a scatter's accumulation into a zero fill names
the fill's buffer, not its own.

Both sides calling the same externs, the difference that is the
compiler's own is that of the generated kernels: `split_time` sums a
sequence's generated kernels apart from the rest, and `generated_table`
gives, per model, the two sides' generated time and its ratio, with the
geometric mean over the models. Run on a saved report:

    python3 -m scheduler_opt.harness.kernel_pairs backend_models.json
"""
import json
import math
import re
import sys
from typing import (Dict, FrozenSet, List, Optional, Sequence, Set,
                    Tuple)

GENERATED_PREFIXES = ("kernel_", "triton_")
# backend_models.py's profiles keep a kernel's name to this many characters.
NAME_CUT = 100


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


Writes = Sequence[FrozenSet[str]]


def _by_buffers(mine: List[Tuple], theirs: List[Tuple]) -> List[Tuple]:
    """Groups (ours, theirs) of a stretch's kernels, each (name, µs,
    writes): the kernels linked through shared buffers, in our launch
    order, then those that share none with the other side."""
    parent = list(range(len(mine) + len(theirs)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for i, m in enumerate(mine):
        for j, t in enumerate(theirs):
            if m[2] & t[2]:
                parent[root(len(mine) + j)] = root(i)
    groups: Dict[int, Tuple[List, List]] = {}
    for i, m in enumerate(mine):
        groups.setdefault(root(i), ([], []))[0].append(m)
    for j, t in enumerate(theirs):
        groups.setdefault(root(len(mine) + j), ([], []))[1].append(t)
    paired = [g for g in groups.values() if g[0] and g[1]]
    rest_m = [m for g in groups.values() if not g[1] for m in g[0]]
    rest_t = [t for g in groups.values() if not g[0] for t in g[1]]
    if rest_m or rest_t:
        paired.append((rest_m, rest_t))
    return paired


def pair_kernels(ours: Sequence[Sequence], inductor: Sequence[Sequence],
                 ours_writes: Optional[Writes] = None,
                 inductor_writes: Optional[Writes] = None
                 ) -> Optional[List[dict]]:
    """Rows {ours, inductor, ours_us, inductor_us} for the generated kernels
    of the two sequences, or None when their anchors differ. With both
    sides' writes (one set per generated launch, in launch order), by the
    buffers the kernels share; else by position."""
    ours_anchors, ours_stretches = _stretches(ours)
    ind_anchors, ind_stretches = _stretches(inductor)
    if ours_anchors != ind_anchors:
        return None
    by_buffers = ours_writes is not None and inductor_writes is not None \
        and len(ours_writes) == sum(map(len, ours_stretches)) \
        and len(inductor_writes) == sum(map(len, ind_stretches))
    ours_left = iter(ours_writes or [])
    ind_left = iter(inductor_writes or [])
    rows = []
    for mine, theirs in zip(ours_stretches, ind_stretches):
        if by_buffers:
            mine = [(n, us, next(ours_left)) for n, us in mine]
            theirs = [(n, us, next(ind_left)) for n, us in theirs]
        if not mine and not theirs:
            continue
        if by_buffers:
            groups = _by_buffers(mine, theirs)
        elif len(mine) == len(theirs):
            groups = [([m], [t]) for m, t in zip(mine, theirs)]
        else:
            groups = [(mine, theirs)]
        for m, t in groups:
            rows.append({"ours": " + ".join(k[0] for k in m),
                         "inductor": " + ".join(k[0] for k in t),
                         "ours_us": round(sum(k[1] for k in m), 2),
                         "inductor_us": round(sum(k[1] for k in t), 2)})
    return rows


def manifest_writes(manifest: dict, graph: int = 0
                    ) -> List[Tuple[str, FrozenSet[str]]]:
    """Our kernels of one graph (its graph.json, loaded) in launch order,
    each with the buffers its nodes create (`op12` creates `buf12`), those
    whose storage is another's (a mutation's result) left out; the names
    carry the graph's index (`0:buf12`)."""
    storage = manifest.get("buffers", {})
    launches = []
    for step in manifest.get("steps", []):
        if step.get("kind") != "kernel":
            continue
        created = ["buf" + n for n in re.findall(r"op(\d+)",
                                                 step.get("node", ""))]
        launches.append((step["name"], frozenset(
            "%d:%s" % (graph, b) for b in created
            if storage.get(b, b) == b)))
    return launches


def _call_args(text: str, start: int) -> List[str]:
    """The top-level arguments of the call whose "(" is text[start]."""
    args, depth, begin = [], 0, start + 1
    for i in range(start, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[begin:i].strip())
                break
        elif c == "," and depth == 1:
            args.append(text[begin:i].strip())
            begin = i + 1
    return [a for a in args if a]


_TRITON_KERNEL = re.compile(
    r"^(\w+) = async_compile\.triton\('\w+', '''(.*?)'''", re.M | re.S)


def inductor_writes(code: str, graph: int = 0
                    ) -> List[Tuple[str, FrozenSet[str]]]:
    """Inductor's Triton launches in one graph's output code, in launch
    order, each with the buffers passed at its output parameters
    (`in_out_ptr*`, and `out_ptr*` but those in `mutated_arg_names`, which
    only add into a buffer made before); the names carry the graph's
    index."""
    params: Dict[str, List[str]] = {}
    mutated: Dict[str, Set[str]] = {}
    for m in _TRITON_KERNEL.finditer(code):
        source = m.group(2)
        d = re.search(r"^def \w+\(([^)]*)\)", source, re.M)
        if not d:
            continue
        params[m.group(1)] = [p.split(":")[0].strip()
                              for p in d.group(1).split(",")]
        names = re.search(r"'mutated_arg_names': \[([^\]]*)\]", source)
        mutated[m.group(1)] = set(re.findall(r"'(\w+)'", names.group(1))) \
            if names else set()
    call = code.find("def call(")
    launches: List[Tuple[str, FrozenSet[str]]] = []
    if call < 0:
        return launches
    for m in re.finditer(r"\b(\w+)\.run\(", code[call:]):
        name = m.group(1)
        if name not in params:
            continue
        args = _call_args(code, call + m.end() - 1)
        launches.append((name, frozenset(
            "%d:%s" % (graph, a) for p, a in zip(params[name], args)
            if p.startswith("in_out_ptr") or (
                p.startswith("out_ptr") and p not in mutated[name]))))
    return launches


def launch_writes(sequence: Sequence[Sequence],
                  launches: Sequence[Tuple[str, FrozenSet[str]]]
                  ) -> Optional[List[FrozenSet[str]]]:
    """The writes of a profiled sequence's generated launches, from its
    graphs' launches (graphs in execution order): each launch takes the
    first one not yet taken of its name (or, for a name cut to NAME_CUT
    characters, that begins so), since our runtime runs a graph's steps in its own order
    (least peak memory) and a name may come back in a later graph or, on
    Inductor's side, within one. None where a launch finds none, or some
    of the graphs' are left."""
    taken = [False] * len(launches)
    writes = []
    for name, _ in sequence:
        if not is_generated(name):
            continue
        for i, (kernel, w) in enumerate(launches):
            if not taken[i] and (kernel == name or len(name) >= NAME_CUT
                                 and kernel.startswith(name)):
                taken[i] = True
                writes.append(w)
                break
        else:
            return None
    return writes if all(taken) else None


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
