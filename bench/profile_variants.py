"""Each generated kernel of backend models, lowered several ways, timed in
the model in turns.

    PYTHONPATH=python SCHEDULER_OPT_BIN=DIR python3 bench/profile_variants.py \
        --models gpt2,mlp_train --rounds 8 --steps 3 \
        --variant base= --variant r1=reduction-rows-per-block=1 \
        [--inductor] [--out FILE]

A variant LABEL=OPTIONS compiles the model with
`torch.compile(backend="scheduler_opt", options={"ptx_flags": OPTIONS})`
(further --fusion-to-ptx options; empty: the default lowering), or,
with OPTIONS `@inductor`, torch.compile's default; `--inductor` adds one
of those last. Variants are compiled in the order given, each on a model
and inputs of its own: the same OPTIONS under two labels measure how
much a kernel's time moves between two compiled instances of the same
code (where their buffers lie). An option `ptx-edit=plain`
among them is not passed on: it edits the lowered PTX instead, every
`ld.global.nc` becoming a plain `ld.global` (Triton's loads), and
assembles it again with ptxas. Every variant's outputs are
checked against eager (backend_models.compare: the first tolerance of its
ladder that passes). Then `--rounds` rounds, each profiling `--steps`
steps of every variant in turn (torch.profiler kernel durations, the
variants' order rotating by round), so that a drift of the clocks reaches
them alike; per round each kernel's median over the steps.

Prints per model the generated kernels (Inductor's beside ours by
position where both launch as many) with their median
over the rounds per variant, and the generated time a step; writes --out
as JSON with every round's figures.
"""
import argparse
import json
import os
import statistics
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "python"))
import backend_models as bm  # noqa: E402
from scheduler_opt import tools  # noqa: E402
from scheduler_opt.harness import kernel_pairs  # noqa: E402

_lower = tools.Pipeline.lower


def lower_with_edits(self, graph, out_dir, options=""):
    """Pipeline.lower, then the PTX edits `options` names (ptx-edit=...)."""
    words = options.split()
    edits = [w.split("=", 1)[1] for w in words if w.startswith("ptx-edit=")]
    _lower(self, graph, out_dir,
           " ".join(w for w in words if not w.startswith("ptx-edit=")))
    if not edits:
        return
    ptx = os.path.join(out_dir, "graph.ptx")
    with open(ptx) as f:
        text = f.read()
    for edit in edits:
        if edit != "plain":
            raise ValueError("unknown ptx-edit " + edit)
        text = text.replace("ld.global.nc.", "ld.global.")
    with open(ptx, "w") as f:
        f.write(text)
    cubin = os.path.join(out_dir, "graph.cubin")
    if os.path.exists(cubin):
        tools.run([self.toolkit["ptxas"], "-arch=" + self.chip, ptx, "-o",
                   cubin], "ptxas", self.env())


tools.Pipeline.lower = lower_with_edits


def compile_variants(name, variants, inductor):
    """{label: step function} for the model, and its check per label."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    case = bm.MODELS[name]()
    ref = bm.step_fn(case, case.fn)()
    torch.cuda.synchronize()
    runs, checks = {}, {}
    todo = [(label, "inductor", None) if flags == "@inductor" else
            (label, "scheduler_opt", {"fallback": False, "ptx_flags": flags})
            for label, flags in variants]
    if inductor:
        todo.append(("inductor", "inductor", None))
    for label, backend, options in todo:
        torch.manual_seed(0)
        c = bm.MODELS[name]()
        try:
            compiled = torch.compile(c.fn, backend=backend, options=options)
            out, _ = bm.first_call(c, compiled)
        except Exception as e:  # report it and go on without the variant
            checks[label] = {"error": bm.error_text(e)}
            print("%s %s: %s" % (name, label, checks[label]["error"]),
                  flush=True)
            continue
        ab, rel, tol = bm.compare(out, ref)
        checks[label] = {"max_abs": ab, "max_rel": rel, "tolerance": tol}
        runs[label] = (bm.step_fn(c, compiled), c)
    return runs, checks


def profile_round(run, steps):
    """One step's kernels in launch order, each the median over `steps`
    steps ([name, µs]), or None where the steps launched differently."""
    return bm.kernel_profile(run, steps=steps).get("sequence")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="gpt2")
    parser.add_argument("--variant", action="append", default=[],
                        help="LABEL=OPTIONS (repeatable)")
    parser.add_argument("--inductor", action="store_true")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    variants = [tuple(v.split("=", 1)) for v in args.variant] or [("base", "")]
    report = {"device": torch.cuda.get_device_name(),
              "torch": torch.__version__,
              "variants": dict(variants), "models": {}}
    for name in args.models.split(","):
        runs, checks = compile_variants(name, variants, args.inductor)
        labels = list(runs)
        if not labels:
            continue
        rounds = {label: [] for label in labels}
        for k in range(args.rounds):
            for label in labels[k % len(labels):] + labels[:k % len(labels)]:
                rounds[label].append(profile_round(runs[label][0],
                                                   args.steps))
        report["models"][name] = {"checks": checks, "rounds": rounds}
        print(table(name, labels, rounds, checks), flush=True)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(report, f, indent=1)


def is_inductor(label):
    return label.startswith("inductor")


def generated(sequence):
    return [(n, us) for n, us in sequence if kernel_pairs.is_generated(n)]


def table(name, labels, rounds, checks):
    """Markdown: per generated kernel of the first variant, the median
    over the rounds per variant (Inductor's kernel at the same position
    where both launch as many), then the generated µs a step."""
    ours = [l for l in labels if not is_inductor(l)]
    theirs = [l for l in labels if is_inductor(l)]
    first = [s for s in rounds[ours[0]] if s]
    if not first:
        return "%s: no stable sequence" % name
    names = [n for n, _ in generated(first[0])]

    def per_kernel(label):
        seqs = [generated(s) for s in rounds[label] if s]
        return [statistics.median(s[i][1] for s in seqs)
                if all(len(s) == len(names) for s in seqs) else float("nan")
                for i in range(len(names))]
    cols = {l: per_kernel(l) for l in ours}
    ind = {}
    for l in theirs:
        gen = [generated(s) for s in rounds[l] if s]
        if gen and all(len(s) == len(names) for s in gen):
            # As many generated kernels on both sides: paired by position
            # (kernel_pairs pairs so within each stretch between externs).
            ind[l] = [(gen[0][i][0], statistics.median(s[i][1] for s in gen))
                      for i in range(len(names))]
    lines = ["## %s" % name, "",
             "checks: " + ", ".join(
                 "%s %s" % (l, checks[l].get("tolerance", checks[l].get(
                     "error"))) for l in checks), "",
             "| kernel | " + " | ".join(ours + list(ind)) +
             (" | Inductor's kernel |" if ind else " |"),
             "| --- " * (len(ours) + len(ind) + 1 + bool(ind)) + "|"]
    for i, n in enumerate(names):
        row = "| %s | " % n[:48] + " | ".join(
            ["%.2f" % cols[l][i] for l in ours] +
            ["%.2f" % ind[l][i][1] for l in ind])
        if ind:
            row += " | %s" % next(iter(ind.values()))[i][0][:40]
        lines.append(row + " |")
    totals = []
    for l in labels:
        per_round = [sum(us for _, us in generated(s)) for s in rounds[l] if s]
        totals.append("%s %s" % (l, ", ".join("%.1f" % t for t in per_round)))
    lines += ["", "generated µs a step, by round: " + "; ".join(totals), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
