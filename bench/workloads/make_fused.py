#!/usr/bin/env python3
"""Writes <workload>.fused.mlir: the graph of <workload>.mlir with its nodes
grouped into fusion.fused ops as Inductor's ir_post_fusion.txt groups them
(until the fusion pass lands, these stand for its output). Members keep
their bodies, take new SSA names and an explicit buffer_names attribute;
loads of a member's buffer inside its group use the member's name."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples")

# workload: (groups in schedule order, header comment)
SPECS = {
    "rmsnorm_silu": ([["op0", "op1"]],
                     "rmsnorm_silu.mlir after fusion, as Inductor's ir_post_fusion.txt groups it:\n"
                     "one kernel op0_op1; the row's sum of squares stays in registers."),
    "cross_entropy": ([["op0", "op1"], ["op2", "op3", "op4"]],
                      "cross_entropy.mlir after fusion, as Inductor's ir_post_fusion.txt groups\n"
                      "it: op0_op1 (row max and sum of exponentials, stored for the next kernel)\n"
                      "and op2_op3_op4 (the loss, one row of 4096 targets)."),
    "layernorm_gelu": ([["op0", "op1", "op3", "op4", "op5"]],
                       "layernorm_gelu.mlir after fusion, as Inductor's ir_post_fusion.txt groups\n"
                       "it: one kernel op0_op1_op3_op4_op5 that stores only what the graph\n"
                       "returns (mean, rstd, the output); m2 and the normalized rows stay in\n"
                       "registers."),
}


def fuse(src, groups, header):
    lines = src.splitlines()
    gi = next(i for i, l in enumerate(lines) if l.startswith("fusion.graph"))
    nodes, cur = [], None
    for l in lines[gi + 1:]:
        if l.startswith("  %") and "fusion.node" in l:
            cur = [l]
            nodes.append(cur)
        elif l.startswith("  fusion.output") or l == "}":
            cur = None
        elif cur is not None:
            cur.append(l)
    output = next(l for l in lines[gi + 1:] if l.startswith("  fusion.output"))
    byname = {}
    for n in nodes:
        m = re.match(r'  %(\w+) = fusion\.node "(\w+)"', n[0])
        byname[m.group(2)] = (m.group(1), n)
    out = ["// " + h for h in header.split("\n")] + [lines[gi]]
    for group in groups:
        if len(group) == 1:
            out += byname[group[0]][1]
            continue
        bufs = [byname[o][0] for o in group]
        types = [re.search(r"writes\(%out : (.*?)(?: mutates [^)]*)?\) \{$",
                           byname[o][1][0]).group(1) for o in group]
        out.append("  %s = fusion.fused -> %s {" % (
            ", ".join("%" + b for b in bufs), ", ".join(types)))
        rename = {b: "m_" + b for b in bufs}
        for o in group:
            b, n = byname[o]
            first = n[0].replace("%%%s = " % b, "%%%s = " % rename[b], 1)
            first = first[:-len(") {")] + ') attributes {buffer_names = ["%s"]} {' % b
            block = [first] + n[1:]
            for old, new in rename.items():
                block = [re.sub(r"%%%s\[" % old, "%%%s[" % new, l) for l in block]
            out += ["  " + l for l in block]
        out.append("    fusion.yield %s : %s" % (
            ", ".join("%" + rename[b] for b in bufs), ", ".join(types)))
        out.append("  }")
    out += [output, "}"]
    return "\n".join(out) + "\n"


def main():
    for name, (groups, header) in SPECS.items():
        path = os.path.join(HERE, name + ".mlir")
        if not os.path.exists(path):
            path = os.path.join(EXAMPLES, name + ".mlir")
        with open(os.path.join(HERE, name + ".fused.mlir"), "w") as f:
            f.write(fuse(open(path).read(), groups, header))


if __name__ == "__main__":
    main()
