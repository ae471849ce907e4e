"""Checks the import table of docs/Importer.md against PyTorch's lists and
against what the importer takes.

usage: check_import_table.py IMPORTER_TABLE DOC LIST_DIR

IMPORTER_TABLE is the output of `scheduler-translate
--print-inductor-import-table`; LIST_DIR holds the names extracted from
PyTorch's sources (see its README.md). For each kind, the doc's table has
one row per name of PyTorch's list; a row says `imported` exactly when the
importer takes the name. Prints a summary; exits 1 on any disagreement.
"""

import collections
import re
import sys

# Doc table kind -> (list file, importer kind or None when the importer
# takes any name of that kind).
KINDS = {
    "op": ("ops_handler.txt", "op"),
    "reduction": ("reduction_types.txt", "reduction"),
    "function": ("sympy_functions.txt", "function"),
    "layout": ("layouts.txt", "layout"),
    "node": ("scheduler_nodes.txt", "node"),
    "buffer": ("buffers.txt", None),
}


def read_list(path):
    with open(path) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def read_doc(path):
    """The doc's tables: {kind: {name: status}}, and for the tables with
    lowering columns {kind: [(cpu, gpu)]}."""
    tables = collections.defaultdict(dict)
    lowering = collections.defaultdict(list)
    kind = None
    with open(path) as f:
        for line in f:
            start = re.match(r"<!-- import-table: (\w+) -->", line)
            if start:
                kind = start.group(1)
                continue
            if line.startswith("<!-- /import-table -->"):
                kind = None
                continue
            row = re.match(r"\| `([^`]+)` \| (imported|not imported) \|", line)
            if kind and row:
                if row.group(1) in tables[kind]:
                    raise SystemExit(f"{kind} {row.group(1)}: two rows")
                tables[kind][row.group(1)] = row.group(2)
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if len(cells) == 5:
                    lowering[kind].append((cells[3], cells[4]))
    return tables, lowering


def main():
    importer_path, doc_path, list_dir = sys.argv[1:4]
    importer = collections.defaultdict(set)
    with open(importer_path) as f:
        for line in f:
            if line.strip():
                k, name = line.split(None, 1)
                importer[k].add(name.strip())
    doc, lowering = read_doc(doc_path)
    errors = []
    for kind, (list_file, importer_kind) in KINDS.items():
        source = read_list(f"{list_dir}/{list_file}")
        rows = doc.get(kind, {})
        for name in source:
            if name not in rows:
                errors.append(f"{kind} {name}: in PyTorch's list, no row in the doc")
        for name in rows:
            if name not in source:
                errors.append(f"{kind} {name}: a row in the doc, not in PyTorch's list")
        if importer_kind:
            taken = importer[importer_kind]
            for name, status in rows.items():
                if (status == "imported") != (name in taken):
                    errors.append(f"{kind} {name}: the doc says '{status}', "
                                  f"the importer {'takes' if name in taken else 'does not take'} it")
            for name in taken - set(rows):
                errors.append(f"{kind} {name}: the importer takes it, the doc has no row")
        counts = collections.Counter(rows.values())
        print(f"{kind}: {len(source)} in PyTorch's list, "
              f"{counts['imported']} imported, {counts['not imported']} not imported")
    # How many operations each lowering status has (docs/Importer.md's
    # legend), so that a change of status changes the test's counts.
    for target, column in (("CPU", 0), ("GPU", 1)):
        counts = collections.Counter(row[column] for row in lowering["op"])
        print(f"op {target}: " + ", ".join(
            f"{status} {n}" for status, n in sorted(counts.items())))
    for e in errors:
        print("error:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
