"""The memory dependencies of Inductor's scheduler nodes, read from the
pre-fusion dump (`ir_pre_fusion.txt`, as `BaseSchedulerNode.debug_str`
writes it: `op1.writes = [MemoryDep('buf1', 4096*d0 + d1, {d0: 2048, d1:
4096})]`, lists pretty-printed over several lines when long).

Used by plan.py to decide in-place reuse (Inductor's
`decide_inplace_update`). Pure Python.
"""
import dataclasses
import re
from typing import Dict, Optional, Tuple

_KEY = re.compile(r"^(\w+)\.(writes|unmet_dependencies|met_dependencies|"
                  r"group\.iteration) = ?(.*)$")
_OTHER_KEY = re.compile(r"^\w+\.[\w.]+ = ")
_MEMORY_DEP = re.compile(r"MemoryDep\('([^']+)', (.*?), \{(.*?)\}\)")
# Any other dependency naming a buffer (StarDep, WeakDep, ...).
_NAMED_DEP = re.compile(r"(\w+Dep)\((?:name=)?'([^']+)'")
_ALIASES = re.compile(r"^\s+(\w+)\.aliases = \[(.*)\]\s*$")


@dataclasses.dataclass(frozen=True)
class Dep:
    """A dependency on `buffer`: a MemoryDep with its index and ranges
    (text, as printed), or another kind (`kind`, index and ranges empty)."""
    buffer: str
    kind: str = "MemoryDep"
    index: str = ""
    ranges: str = ""


@dataclasses.dataclass(frozen=True)
class NodeDeps:
    writes: Tuple[Dep, ...]
    reads: Tuple[Dep, ...]
    # (pointwise elements, reduction elements), as printed.
    iteration: Tuple[str, ...]

    def pointwise(self) -> bool:
        return len(self.iteration) == 2 and self.iteration[1] == "1"


def _deps(text: str) -> Tuple[Dep, ...]:
    out = []
    for m in _MEMORY_DEP.finditer(text):
        out.append(Dep(m.group(1), "MemoryDep", m.group(2).strip(),
                       m.group(3).strip()))
    for m in _NAMED_DEP.finditer(text):
        if m.group(1) != "MemoryDep":
            out.append(Dep(m.group(2), m.group(1)))
    return tuple(out)


def parse(text: str) -> Dict[str, NodeDeps]:
    """Node name -> its dependencies, for every node the dump describes."""
    fields: Dict[str, Dict[str, str]] = {}
    current: Optional[Tuple[str, str]] = None
    for line in text.splitlines():
        m = _KEY.match(line)
        if m:
            current = (m.group(1), m.group(2))
            fields.setdefault(m.group(1), {})[m.group(2)] = m.group(3)
        elif current and line.startswith(" ") and not _OTHER_KEY.match(
                line.strip()):
            node, key = current
            fields[node][key] += " " + line.strip()
        else:
            current = None
    nodes = {}
    for node, f in fields.items():
        iteration = tuple(v.strip() for v in
                          f.get("group.iteration", "").strip("() ").split(",")
                          if v.strip())
        nodes[node] = NodeDeps(
            writes=_deps(f.get("writes", "")),
            reads=_deps(f.get("unmet_dependencies", "")) +
            _deps(f.get("met_dependencies", "")),
            iteration=iteration)
    return nodes


def aliases(text: str) -> Dict[str, Tuple[str, ...]]:
    """Buffer -> the buffers it aliases (`buf1.aliases = ['buf0']`,
    Inductor's `get_aliases`: the view an extern such as view_as_complex
    returns of its input shares the input's memory)."""
    result = {}
    for line in text.splitlines():
        m = _ALIASES.match(line)
        if m:
            result[m.group(1)] = tuple(re.findall(r"'([^']+)'", m.group(2)))
    return result
