#!/usr/bin/env python3
"""Compares scheduler-opt's fusion with Inductor's on the corpus.

Runs scheduler-corpus-bench over every graph of corpus/inductor (each folder
holding ir_pre_fusion.txt and ir_post_fusion.txt), adds reference timings of
the command-line tools, and writes

  * docs/Fidelity.md: per graph, Inductor's kernels against ours, the share
    of Inductor's fused groups (and of all its kernels) we reproduce exactly,
    the bytes each grouping moves, every group that differs with the reason,
    and the compile time of import + --fusion-schedule against Inductor's
    Scheduler.__init__ (result.json);
  * the summary between the compare_inductor markers of bench/README.md.

    python3 bench/compare_inductor.py                    # run and write both
    python3 bench/compare_inductor.py --json run.json    # also keep the data
    python3 bench/compare_inductor.py --from-json run.json --output -  # render only

Reasons for differences come from the fusion pass's remarks when its
`explain` option is on (scheduler-corpus-bench --explain-options), which
scheduler-corpus-bench hands over as data: per refused pair the two groups'
names (`first`, `second`), the reason's key and message
(FusionRemarks.h), and the pass's summary. A group's name is a leaf (`op3`)
or its members joined with "_" (`op0_op1_op3`), as Inductor names fused
nodes. Refusals that name unknown nodes are counted in the report; the
summary and other remarks are shown as they are.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import mlir_timing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README_BEGIN = "<!-- BEGIN compare_inductor summary (generated) -->"
README_END = "<!-- END compare_inductor summary -->"
SMALL_GRAPH_NODES = 20
TARGET_SPEEDUP = 100.0
TARGET_FUSED_SHARE = 0.90
# Mean number of other runnable processes, sampled just before and after
# the timed runs, above which the run is flagged as sharing the machine.
BUSY_RUNNABLE = 0.5



# ---------------------------------------------------------------------------
# Running the tools
# ---------------------------------------------------------------------------

def find_graphs(corpus):
    """Graph folders of the corpus, sorted."""
    dumps = glob.glob(os.path.join(corpus, "*", "*", "ir_pre_fusion.txt"))
    return sorted(os.path.dirname(d) for d in dumps)


def run_bench(tool, corpus, graphs, repetitions, explain_options,
              explain_pipeline):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bench.json")
        explain = (["--explain-pipeline=" + explain_pipeline]
                   if explain_pipeline else
                   ["--explain-options=" + explain_options])
        cmd = [tool, "--corpus-root=" + corpus,
               "--repetitions=%d" % repetitions] + explain + ["-o", out] + \
            graphs
        result = subprocess.run(cmd, capture_output=True, text=True)
        if not os.path.exists(out):
            sys.exit("scheduler-corpus-bench failed:\n" + result.stderr)
        with open(out) as f:
            data = json.load(f)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
    return data


def cli_timings(bindir, pre_fusion, runs):
    """Reference timings of the command-line tools on one dump: the
    end-to-end wall time of `scheduler-translate --import-inductor` plus
    `scheduler-opt --fusion-schedule` (process start-up, parsing and
    printing included), and the parse-free pipeline time that
    `scheduler-opt -mlir-timing` reports (total less parser and output),
    without the verifier between passes. Fastest of `runs`."""
    translate = os.path.join(bindir, "scheduler-translate")
    opt = os.path.join(bindir, "scheduler-opt")
    best_e2e = best_pipeline = None
    with tempfile.TemporaryDirectory() as tmp:
        mlir = os.path.join(tmp, "graph.mlir")
        for _ in range(runs):
            start = time.perf_counter()
            imported = subprocess.run(
                [translate, "--import-inductor", pre_fusion, "-o", mlir],
                capture_output=True, text=True)
            if imported.returncode != 0:
                return None
            scheduled = subprocess.run(
                [opt, mlir, "--fusion-schedule", "-o", os.devnull],
                capture_output=True, text=True)
            e2e = time.perf_counter() - start
            if scheduled.returncode != 0:
                return None
            timed = subprocess.run(
                [opt, mlir, "--fusion-schedule", "-verify-each=0",
                 *mlir_timing.TIMING_FLAGS, "-o", os.devnull],
                capture_output=True, text=True)
            times = mlir_timing.parse_timing(timed.stderr)
            if not times or "Total" not in times:
                return None
            pipeline = (times["Total"] - times.get("Parser", 0.0) -
                        times.get("Output", 0.0))
            best_e2e = e2e if best_e2e is None else min(best_e2e, e2e)
            best_pipeline = (pipeline if best_pipeline is None
                             else min(best_pipeline, pipeline))
    return {"e2e_s": best_e2e, "pipeline_s": best_pipeline}


def other_runnable(seconds=1.0, samples=20):
    """Mean number of runnable processes besides this one (/proc/stat
    procs_running), or None where that is not available."""
    counts = []
    for _ in range(samples):
        try:
            with open("/proc/stat") as f:
                for line in f:
                    if line.startswith("procs_running"):
                        counts.append(max(0, int(line.split()[1]) - 1))
        except OSError:
            return None
        time.sleep(seconds / samples)
    return sum(counts) / len(counts) if counts else None


def host_description():
    model = None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d cores" % (model or "unknown CPU", os.cpu_count() or 0)


def git_revision():
    try:
        rev = subprocess.run(["git", "-C", ROOT, "describe", "--always",
                              "--dirty"], capture_output=True, text=True)
        return rev.stdout.strip() or None
    except OSError:
        return None


# ---------------------------------------------------------------------------
# Inductor's compile times
# ---------------------------------------------------------------------------

def compile_order_key(folder):
    """Inductor names debug folders model__<m>_<kind>_<a>.<b>, where <b>
    counts the graphs of a workload in compile order."""
    match = re.search(r"_(\d+)\.(\d+)$", folder)
    if not match:
        return (1 << 30, 0, folder)
    return (int(match.group(2)), int(match.group(1)), folder)


def scheduler_init_times(corpus, graph_ids):
    """graph id -> Inductor's Scheduler.__init__ seconds, from result.json
    (one entry per graph of the workload, in compile order)."""
    by_workload = {}
    for gid in graph_ids:
        workload, _, folder = gid.partition("/")
        by_workload.setdefault(workload, []).append(folder)
    times = {}
    for workload, folders in by_workload.items():
        path = os.path.join(corpus, workload, "result.json")
        try:
            with open(path) as f:
                init = json.load(f).get("scheduler_init_s") or []
        except (OSError, ValueError):
            continue
        # The dumps on disk are every graph the workload compiled; with a
        # different count the mapping is unknown.
        all_folders = sorted(
            (d for d in os.listdir(os.path.join(corpus, workload))
             if os.path.isdir(os.path.join(corpus, workload, d))),
            key=compile_order_key)
        if len(all_folders) != len(init):
            continue
        for folder, seconds in zip(all_folders, init):
            if folder in folders:
                times[workload + "/" + folder] = seconds
    return times


# ---------------------------------------------------------------------------
# Comparing groupings
# ---------------------------------------------------------------------------

def refusal_reason(refusal):
    """A refusal's reason as the report gives it: the message, then the
    reason's key in brackets."""
    reason = refusal.get("message") or "no reason given"
    if refusal.get("reason"):
        reason += " [%s]" % refusal["reason"]
    return reason


def remark_message(text):
    """The first line of a remark without its location and severity."""
    first_line = text.splitlines()[0] if text else ""
    _, sep, message = first_line.partition("remark: ")
    return (message if sep else first_line).strip()


def resolve_node(name, leaves):
    """The leaves a remark's node name stands for: a leaf name, or leaf
    names joined by '_'. None when it names no known nodes."""
    if name in leaves:
        return {name}
    parts = name.split("_")
    found = set()
    i = 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            candidate = "_".join(parts[i:j])
            if candidate in leaves:
                found.add(candidate)
                i = j
                break
        else:
            return None
    return found


def kernel_label(kernel):
    return "`%s`" % "+".join(kernel["members"])


def describe_kernels(kernels):
    if not kernels:
        return "(none)"
    if len(kernels) > 6 and all(len(k["members"]) == 1 for k in kernels):
        return "%d single-node kernels" % len(kernels)
    text = ", ".join(kernel_label(k) for k in kernels)
    return text


class Comparison:
    """Inductor's grouping against ours for one graph."""

    def __init__(self, graph):
        self.graph = graph
        self.ind = graph["inductor"]["kernels"]
        self.ours = graph["ours"]["kernels"]
        ours_sets = {frozenset(k["members"]) for k in self.ours}
        self.fused = [k for k in self.ind if len(k["members"]) >= 2]
        self.fused_exact = [k for k in self.fused
                            if frozenset(k["members"]) in ours_sets]
        self.kernels_exact = [k for k in self.ind
                              if frozenset(k["members"]) in ours_sets]
        explain = graph.get("explain") or {}
        self.explain_available = bool(explain.get("available"))
        self.explain_error = explain.get("error")
        leaves = {m for k in self.ind + self.ours for m in k["members"]}
        self.refusals = []
        # Remarks other than refusals (other passes', then the fusion
        # pass's summary), as they are.
        self.summaries = [m for m in map(remark_message,
                                         explain.get("remarks") or []) if m]
        if explain.get("summary"):
            self.summaries.append(explain["summary"]["text"])
        self.unresolved_remarks = 0
        for refusal in explain.get("refusals") or []:
            la = resolve_node(refusal["first"], leaves)
            lb = resolve_node(refusal["second"], leaves)
            if not la or not lb:
                self.unresolved_remarks += 1
                continue
            self.refusals.append((la, lb, refusal_reason(refusal)))
        self.differences = self._differences()

    def _refusal_reasons(self, side_a, side_b):
        """Reasons of the remarks refusing a pair between the two sets of
        nodes: those whose two groups lie within the sets, or else those
        whose groups overlap them (groups of earlier rounds)."""
        within, overlapping = [], []
        for la, lb, reason in self.refusals:
            if ((la <= side_a and lb <= side_b) or
                    (la <= side_b and lb <= side_a)):
                if reason not in within:
                    within.append(reason)
            elif ((la & side_a and lb & side_b) or
                    (la & side_b and lb & side_a)):
                if reason not in overlapping:
                    overlapping.append(reason)
        return within or overlapping

    def _no_remark_reason(self):
        if self.explain_available:
            return "unexplained (no remark refused these pairs)"
        if self.explain_error and "no such option" in self.explain_error:
            return "unexplained (the pipeline has no `explain` option)"
        return "unexplained (no remarks: the explaining run failed)"

    def _differences(self):
        """Connected groups of kernels (sharing members across the two
        groupings) whose partitions differ, in Inductor's order."""
        parent = {}

        def find(x):
            parent.setdefault(x, x)
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def union(x, y):
            rx, ry = find(x), find(y)
            if rx != ry:
                parent[max(rx, ry)] = min(rx, ry)

        ind_of = {m: i for i, k in enumerate(self.ind) for m in k["members"]}
        our_of = {m: i for i, k in enumerate(self.ours) for m in k["members"]}
        for i in range(len(self.ind)):
            find(("I", i))
        for i in range(len(self.ours)):
            find(("O", i))
        for leaf, i in ind_of.items():
            if leaf in our_of:
                union(("I", i), ("O", our_of[leaf]))
        components = {}
        for key in list(parent):
            components.setdefault(find(key), []).append(key)

        diffs = []
        for keys in components.values():
            ind = sorted(i for side, i in keys if side == "I")
            ours = sorted(i for side, i in keys if side == "O")
            if (len(ind) == 1 and len(ours) == 1 and
                    set(self.ind[ind[0]]["members"]) ==
                    set(self.ours[ours[0]]["members"])):
                continue
            diffs.append(self._explain(ind, ours, ind_of, our_of))
        diffs.sort(key=lambda d: d["order"])
        return diffs

    def _explain(self, ind, ours, ind_of, our_of):
        ind_kernels = [self.ind[i] for i in ind]
        our_kernels = [self.ours[i] for i in ours]
        reasons = []
        for i in ind:
            kernel = self.ind[i]
            touched = sorted({our_of[m] for m in kernel["members"]
                              if m in our_of})
            missing = [m for m in kernel["members"] if m not in our_of]
            if missing:
                reasons.append(
                    "%s: not in any of our kernels (removed as dead, or an "
                    "extern or view in our graph)" % ", ".join(
                        "`%s`" % m for m in missing))
            if len(touched) < 2:
                continue
            pieces = [set(self.ours[o]["members"]) & set(kernel["members"])
                      for o in touched]
            if len(pieces) <= 3:
                label = "Inductor fused %s, we did not" % " with ".join(
                    "`%s`" % "+".join(m for m in kernel["members"] if m in p)
                    for p in pieces)
            else:
                label = ("Inductor fused %d nodes that we leave in %d "
                         "kernels" % (len(kernel["members"]), len(pieces)))
            if (kernel["kind"] == "ForeachKernelSchedulerNode" and
                    "parts" in kernel and
                    sorted(map(sorted, kernel["parts"])) ==
                    sorted(sorted(self.ours[o]["members"]) for o in touched)):
                reasons.append(
                    "combo kernel (ForeachKernelSchedulerNode) of %d parts "
                    "that we reproduce exactly; we did not combine them" %
                    len(kernel["parts"]))
                continue
            found = []
            for x in range(len(pieces)):
                for y in range(x + 1, len(pieces)):
                    for r in self._refusal_reasons(pieces[x], pieces[y]):
                        if r not in found:
                            found.append(r)
            if found:
                reasons.append("%s: refused: %s" % (label, "; ".join(found)))
            elif kernel["kind"] == "ForeachKernelSchedulerNode":
                reasons.append(
                    "%s: combo kernel (ForeachKernelSchedulerNode); %s" %
                    (label, self._no_remark_reason()))
            else:
                reasons.append("%s: %s" % (label, self._no_remark_reason()))
        refused = any(": refused: " in r for r in reasons)
        for o in ours:
            kernel = self.ours[o]
            touched = sorted({ind_of[m] for m in kernel["members"]
                              if m in ind_of})
            missing = [m for m in kernel["members"] if m not in ind_of]
            if missing:
                reasons.append(
                    "%s: in our kernels but in none of Inductor's" %
                    ", ".join("`%s`" % m for m in missing))
            if len(touched) < 2:
                continue
            pieces = " with ".join(
                "`%s`" % "+".join(m for m in kernel["members"]
                                  if ind_of.get(m) == i)
                for i in touched)
            # A node that one refusal kept out of Inductor's group is free
            # to join another: the refusal explains both differences.
            why = ("follows from the refusal above" if refused else
                   "unexplained (Inductor's dump records no reason)")
            reasons.append("we fused %s, which Inductor kept in separate "
                           "kernels: %s" % (pieces, why))
        order = min(ind) if ind else len(self.ind) + min(ours)
        return {"order": order, "inductor": ind_kernels, "ours": our_kernels,
                "reasons": reasons}


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

def fmt_ms(seconds):
    if seconds is None:
        return "n/a"
    ms = seconds * 1e3
    if ms >= 100:
        return "%.0f ms" % ms
    if ms >= 10:
        return "%.1f ms" % ms
    return "%.2f ms" % ms


def fmt_mb(count):
    return "%.1f" % (count / 1e6)


def plural(count, word):
    return "%d %s%s" % (count, word, "" if count == 1 else "s")


def fmt_share(part, whole):
    if whole == 0:
        return "n/a"
    return "%d/%d (%.0f%%)" % (part, whole, 100.0 * part / whole)


def fmt_ratio(x):
    if x is None:
        return "n/a"
    if x >= 1000:
        return "%.0f\u00d7" % x
    if x >= 10:
        return "%.1f\u00d7" % x
    return "%.2f\u00d7" % x


def analyse(data, init_times):
    rows = []
    for graph in data["graphs"]:
        gid = graph["graph"]
        row = {"graph": gid, "nodes": graph.get("nodes"),
               "errors": graph.get("errors") or [],
               "time": graph.get("time") or {}, "cli": graph.get("cli"),
               "init_s": init_times.get(gid), "cmp": None}
        if graph.get("ours") and graph.get("inductor"):
            row["cmp"] = Comparison(graph)
        ours_s = row["time"].get("total_s") if row["time"].get(
            "repetitions") else None
        row["ours_s"] = ours_s
        row["speedup"] = (row["init_s"] / ours_s
                          if row["init_s"] is not None and ours_s else None)
        rows.append(row)
    return rows


def status_line(rows):
    fused_any = any(len(k["members"]) >= 2
                    for r in rows if r["cmp"] for k in r["cmp"].ours)
    if fused_any:
        return None
    return ("**Status: before fusion.** On this run `--fusion-schedule` "
            "fused no nodes on any graph (the pipeline has no fusion pass "
            "yet), so every fused group of Inductor's is a difference and "
            "each of our kernels is a single node. Rerun `python3 "
            "bench/compare_inductor.py` once the fusion pass is in the "
            "pipeline.")


def summary(rows):
    cmps = [r["cmp"] for r in rows if r["cmp"]]
    s = {}
    s["graphs"] = len(rows)
    s["compared"] = len(cmps)
    s["count_ok"] = sum(len(c.ours) <= len(c.ind) for c in cmps)
    s["ind_kernels"] = sum(len(c.ind) for c in cmps)
    s["our_kernels"] = sum(len(c.ours) for c in cmps)
    s["fused"] = sum(len(c.fused) for c in cmps)
    s["fused_exact"] = sum(len(c.fused_exact) for c in cmps)
    s["kernels_exact"] = sum(len(c.kernels_exact) for c in cmps)
    s["ind_bytes"] = sum(c.graph["inductor"]["kernel_bytes"] for c in cmps)
    s["our_bytes"] = sum(c.graph["ours"]["kernel_bytes"] for c in cmps)
    s["differences"] = sum(len(c.differences) for c in cmps)
    s["unexplained"] = sum(1 for c in cmps for d in c.differences
                           if any("unexplained" in r for r in d["reasons"]))
    big = [r for r in rows if (r["nodes"] or 0) > SMALL_GRAPH_NODES]
    s["big"] = len(big)
    ratios = [r["speedup"] for r in big if r["speedup"] is not None]
    s["big_timed"] = len(ratios)
    s["big_fast"] = sum(x >= TARGET_SPEEDUP for x in ratios)
    s["min_speedup"] = min(ratios) if ratios else None
    s["min_speedup_graph"] = (min(big, key=lambda r: r["speedup"] or 1e30)
                              ["graph"] if ratios else None)
    s["errors"] = sum(len(r["errors"]) for r in rows)
    return s


def summary_lines(s):
    lines = []
    lines.append("- Kernel count at most Inductor's on %d of %d graphs "
                 "(target: all); %d kernels in all against Inductor's %d." %
                 (s["count_ok"], s["compared"], s["our_kernels"],
                  s["ind_kernels"]))
    lines.append("- Inductor's fused groups reproduced exactly: %s "
                 "(target: at least %d%%); all of Inductor's kernels: %s." %
                 (fmt_share(s["fused_exact"], s["fused"]),
                  int(TARGET_FUSED_SHARE * 100),
                  fmt_share(s["kernels_exact"], s["ind_kernels"])))
    lines.append("- Estimated bytes moved by kernels: %s MB ours, %s MB "
                 "Inductor's (%s)." %
                 (fmt_mb(s["our_bytes"]), fmt_mb(s["ind_bytes"]),
                  fmt_ratio(s["our_bytes"] / s["ind_bytes"])
                  if s["ind_bytes"] else "n/a"))
    lines.append("- Differing groups: %d, of which %d unexplained." %
                 (s["differences"], s["unexplained"]))
    if s["min_speedup"] is not None:
        lines.append("- Import + schedule at least %d\u00d7 faster than "
                     "Inductor's `Scheduler.__init__` on %d of %d graphs with "
                     "more than %d nodes (target: all); the smallest ratio is "
                     "%s (`%s`)." %
                     (TARGET_SPEEDUP, s["big_fast"], s["big"],
                      SMALL_GRAPH_NODES, fmt_ratio(s["min_speedup"]),
                      s["min_speedup_graph"]))
    if s["errors"]:
        lines.append("- %s (see the differences)." %
                     plural(s["errors"], "error"))
    return lines


def render(data, rows):
    out = []
    w = out.append
    s = summary(rows)
    meta = data.get("meta", {})
    w("# Fidelity: scheduler-opt's kernels against Inductor's")
    w("")
    w("<!-- Generated by bench/compare_inductor.py; do not edit. -->")
    w("")
    status = status_line(rows)
    if status:
        w(status)
        w("")
    w("Every graph of `%s/` is imported from its `ir_pre_fusion.txt` and "
      "scheduled with `--fusion-schedule`%s; the kernels are compared with "
      "those of Inductor's `ir_post_fusion.txt` for the same graph. "
      "Regenerate with `python3 bench/compare_inductor.py` (needs "
      "`build/`)." %
      (meta.get("corpus", "corpus/inductor"),
       " (options `%s`)" % data["pipeline_options"]
       if data.get("pipeline_options") else ""))
    w("")
    if meta:
        w("Run: %s; %s; commit `%s`; %s per graph." %
          (meta.get("date", "?"), meta.get("host", "?"),
           meta.get("revision", "?"),
           plural(data.get("repetitions", 0), "timed repetition")))
        w("")
        busy = [b for b in meta.get("other_runnable") or [] if b is not None]
        if busy and max(busy) > BUSY_RUNNABLE:
            w("**The machine was busy**: %.1f other processes were runnable "
              "on average around the timed runs, so the times below are "
              "pessimistic." % max(busy))
            w("")
    w("## Summary")
    w("")
    out.extend(summary_lines(s))
    w("")
    w("## Definitions")
    w("")
    w("- A **kernel** is a top-level scheduler node that computes: a "
      "`fusion.node`, a `fusion.fused` group, a `fusion.foreach` (one combo "
      "kernel) or a `fusion.group` with computed members. Externs "
      "(library calls) and nops (views) are not kernels; their counts are "
      "the same in both schedules.")
    w("- A **fused group** is one of Inductor's kernels with at least two "
      "members. It is **reproduced exactly** when one of our kernels has "
      "the same set of member nodes (order and container kind aside).")
    w("- **Bytes moved** (`computeKernelGrouping`, "
      "`include/scheduler-opt/Analysis/KernelGrouping.h`): each kernel reads every "
      "distinct buffer it does not produce once, and writes once every "
      "buffer it produces that another node reads, that is a graph output, "
      "or that overwrites a graph input in place; sizes are full storage "
      "sizes of the `!fusion.buffer` types. Views move nothing. Externs are "
      "counted by the same rule but reported apart (*extern MB*): the "
      "kernel columns are the bytes that fusion decides. MB = 10^6 bytes.")
    w("- **Differences** are sets of kernels that share nodes across the "
      "two schedules but are not the same sets. Reasons are mechanical: a "
      "remark of the fusion pass (`explain`) refusing a pair that Inductor "
      "fused; a combo kernel whose parts we reproduce but do not combine; "
      "otherwise *unexplained*.")
    w("")
    errors = sorted({r["cmp"].explain_error for r in rows
                     if r["cmp"] and not r["cmp"].explain_available and
                     r["cmp"].explain_error})
    if errors:
        w("Explanations were not available on this run: %s." %
          "; ".join("`%s`" % e.replace("`", "'") for e in errors))
        w("")
    w("## Kernels per graph")
    w("")
    w("| graph | nodes | externs | Inductor kernels | our kernels | ours "
      "\u2264 Inductor | fused groups exact | kernels exact | kernel MB "
      "Inductor | kernel MB ours | ours / Inductor | extern MB |")
    w("|---|---:|---:|---:|---:|:-:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        c = r["cmp"]
        if not c:
            w("| `%s` | %s | | | | | | | | | | |" %
              (r["graph"], r["nodes"] if r["nodes"] is not None else "n/a"))
            continue
        ours, ind = c.graph["ours"], c.graph["inductor"]
        extern = (fmt_mb(ind["extern_bytes"])
                  if ours["extern_bytes"] == ind["extern_bytes"] else
                  "%s / %s" % (fmt_mb(ind["extern_bytes"]),
                               fmt_mb(ours["extern_bytes"])))
        w("| `%s` | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s |" %
          (r["graph"], r["nodes"], ind["num_externs"], len(c.ind),
           len(c.ours), "yes" if len(c.ours) <= len(c.ind) else "**no**",
           fmt_share(len(c.fused_exact), len(c.fused)),
           fmt_share(len(c.kernels_exact), len(c.ind)),
           fmt_mb(ind["kernel_bytes"]), fmt_mb(ours["kernel_bytes"]),
           fmt_ratio(ours["kernel_bytes"] / ind["kernel_bytes"])
           if ind["kernel_bytes"] else "n/a", extern))
    w("")
    w("*extern MB*: bytes moved by extern calls, the same in both schedules "
      "(Inductor's / ours where they differ).")
    w("")
    w("## Compile time")
    w("")
    w("*Ours* is import of `ir_pre_fusion.txt` + `--fusion-schedule`, "
      "timed in-process by `scheduler-corpus-bench` (median of the "
      "repetitions; each in a fresh `MLIRContext`, whose creation, "
      "dialect loading and pass pipeline are timed with it; file reading, "
      "start-up and printing excluded, no verifier between "
      "passes; the result is verified once after timing). *Inductor* is "
      "`Scheduler.__init__` from the workload's `result.json`, measured on "
      "a 16-core Xeon host by the corpus run, on the same graph. The two "
      "were measured on different machines: this is not a same-machine "
      "comparison. The corpus run had `TORCH_COMPILE_DEBUG=1`, so "
      "Inductor's times include writing its debug dumps; same-machine "
      "figures, untraced and traced, are in `bench/README.md` "
      "(`gpu_machine_compare.sh`). For reference, *CLI pipeline* is the "
      "parse-free time "
      "`scheduler-opt --fusion-schedule -mlir-timing -verify-each=0` "
      "reports on the imported graph (total less parser and output, "
      "0.1 ms resolution) and *CLI end to end* the wall time of the two "
      "processes `scheduler-translate --import-inductor` and "
      "`scheduler-opt --fusion-schedule` (start-up, parsing, printing "
      "included); fastest of three. The target applies to graphs with "
      "more than %d nodes." % SMALL_GRAPH_NODES)
    w("")
    w("| graph | nodes | Inductor `Scheduler.__init__` | ours: import + "
      "schedule | import | schedule | ratio | target | CLI pipeline | CLI "
      "end to end |")
    w("|---|---:|---:|---:|---:|---:|---:|:-:|---:|---:|")
    for r in rows:
        t = r["time"]
        timed = bool(t.get("repetitions"))
        if r["nodes"] is None:
            target = "n/a"
        elif r["nodes"] <= SMALL_GRAPH_NODES:
            target = "(\u2264 %d nodes)" % SMALL_GRAPH_NODES
        elif r["speedup"] is None:
            target = "n/a"
        else:
            target = ("yes" if r["speedup"] >= TARGET_SPEEDUP else "**no**")
        cli = r["cli"] or {}
        w("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |" %
          (r["graph"], r["nodes"] if r["nodes"] is not None else "n/a",
           fmt_ms(r["init_s"]),
           fmt_ms(t.get("total_s")) if timed else "n/a",
           fmt_ms(t.get("import_s")) if timed else "n/a",
           fmt_ms(t.get("schedule_s")) if timed else "n/a",
           fmt_ratio(r["speedup"]), target,
           fmt_ms(cli.get("pipeline_s")), fmt_ms(cli.get("e2e_s"))))
    w("")
    w("## Differences")
    w("")
    w("Each entry: Inductor's kernels, then ours, over the same nodes "
      "(`a+b` is one kernel of nodes `a` and `b`), then the reasons.")
    w("")
    for r in rows:
        c = r["cmp"]
        if r["errors"]:
            w("### `%s`" % r["graph"])
            w("")
            for e in r["errors"]:
                w("- error: `%s`" % e.replace("`", "'"))
            w("")
        if not c or not c.differences:
            continue
        if not r["errors"]:
            w("### `%s`" % r["graph"])
            w("")
        notes = []
        if c.unresolved_remarks:
            notes.append("%s naming unknown nodes" %
                         plural(c.unresolved_remarks, "remark"))
        w("%s%s." % (plural(len(c.differences), "difference"),
                     ("; " + "; ".join(notes)) if notes else ""))
        w("")
        for summary_remark in c.summaries:
            w("Fusion pass: %s" % summary_remark)
            w("")
        long_list = len(c.differences) > 10
        if long_list:
            w("<details><summary>show all</summary>")
            w("")
        for d in c.differences:
            w("- Inductor %s; ours %s" % (describe_kernels(d["inductor"]),
                                         describe_kernels(d["ours"])))
            for reason in d["reasons"]:
                w("  - %s" % reason)
        if long_list:
            w("")
            w("</details>")
        w("")
    return "\n".join(out).rstrip() + "\n"


def readme_summary(rows):
    s = summary(rows)
    lines = [README_BEGIN, ""]
    status = status_line(rows)
    if status:
        lines += [status, ""]
    lines += summary_lines(s)
    lines += ["", "Per graph figures, every differing group and the "
              "compile-time table: [docs/Fidelity.md](../docs/Fidelity.md).",
              "", README_END]
    return "\n".join(lines)


def update_readme(path, block):
    with open(path) as f:
        text = f.read()
    if README_BEGIN in text and README_END in text:
        head, rest = text.split(README_BEGIN, 1)
        _, tail = rest.split(README_END, 1)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"),
                        help="folder holding scheduler-corpus-bench, "
                             "scheduler-translate and scheduler-opt")
    parser.add_argument("--corpus",
                        default=os.path.join(ROOT, "corpus", "inductor"))
    parser.add_argument("--repetitions", type=int, default=21,
                        help="timed runs per graph (median reported)")
    parser.add_argument("--explain-options", default="explain=true",
                        help="fusion-schedule options that make the fusion "
                             "pass explain refused pairs")
    parser.add_argument("--explain-pipeline", default="",
                        help="a textual pipeline (builtin.module(...)) for "
                             "the explaining run instead, when the fusion "
                             "pass's explain option is not a pipeline option")
    parser.add_argument("--no-cli", action="store_true",
                        help="skip the command-line reference timings")
    parser.add_argument("--json", help="also write the collected data here")
    parser.add_argument("--from-json",
                        help="render from data written by --json instead of "
                             "running the tools")
    parser.add_argument("--output",
                        default=os.path.join(ROOT, "docs", "Fidelity.md"),
                        help="Markdown report ('-': stdout)")
    parser.add_argument("--readme",
                        default=os.path.join(ROOT, "bench", "README.md"),
                        help="README whose summary section to update "
                             "('': none)")
    args = parser.parse_args()

    if args.from_json:
        with open(args.from_json) as f:
            data = json.load(f)
    else:
        tool = os.path.join(args.bin, "scheduler-corpus-bench")
        if not os.path.exists(tool):
            sys.exit("%s not found: build it first (ninja -C build "
                     "scheduler-corpus-bench)" % tool)
        corpus = os.path.abspath(args.corpus)
        graphs = find_graphs(corpus)
        if not graphs:
            sys.exit("no ir_pre_fusion.txt under %s" % corpus)
        busy_before = other_runnable()
        data = run_bench(tool, corpus, graphs, args.repetitions,
                         args.explain_options, args.explain_pipeline)
        busy_after = other_runnable()
        if not args.no_cli:
            for graph in data["graphs"]:
                if graph.get("ours"):
                    graph["cli"] = cli_timings(args.bin, graph["pre_fusion"],
                                               3)
        for graph in data["graphs"]:
            for key in ("pre_fusion", "post_fusion"):
                graph[key] = os.path.relpath(graph[key], ROOT)
        data["meta"] = {"corpus": os.path.relpath(corpus, ROOT),
                        "other_runnable": [busy_before, busy_after],
                        "host": host_description(),
                        "revision": git_revision(),
                        "date": time.strftime("%Y-%m-%d")}
        data["scheduler_init_s"] = scheduler_init_times(
            corpus, [g["graph"] for g in data["graphs"]])
        if args.json:
            with open(args.json, "w") as f:
                json.dump(data, f, indent=1, sort_keys=True)
                f.write("\n")

    rows = analyse(data, data.get("scheduler_init_s") or {})
    report = render(data, rows)
    if args.output == "-":
        sys.stdout.write(report)
    else:
        with open(args.output, "w") as f:
            f.write(report)
    if args.readme:
        update_readme(args.readme, readme_summary(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
