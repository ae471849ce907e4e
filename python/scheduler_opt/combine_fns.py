"""The combine functions of Inductor's scans, as loop-body text.

Inductor's pre-fusion dump prints a scan as the call of a loop-body
submodule, `scan1 = self.scan1((torch.float32,), (load,))`, and not the
function it folds with (`ir.Scan.combine_fn`: `ops.add` for cumsum,
`ops.mul` for cumprod, `log_add_exp_helper` for logcumsumexp, the argmax
combine for cummax, ...). The backend holds the live loop body: its
`scan1` submodule is Inductor's shim `shim(dtypes, values)`, which calls
`ops.scan(dtypes, combine_fn, values)`. Calling it under an ops handler
hands us `combine_fn`; calling `combine_fn` on two tuples of named
arguments under a handler that records each call, the way Inductor's
Triton codegen lifts it into a helper (`_lift_helper`: arguments
`arg0_i` for the partial tuple, `arg1_i` for the current one), gives its
body as loop-body statements:

    def scan1_combine_fn(self, ops, arg0_0, arg1_0):
        add = ops.add(arg0_0, arg1_0)
        return (add,)

which `with_combine_fns` appends to the node's loop body class in the
dump text (docs/Importer.md). The functions here take the handler
installer (`V.set_ops_handler`) as an argument, so that they import
without PyTorch.
"""
import math
from typing import Any, Callable, ContextManager, Dict, List, Optional, Tuple


class UntraceableCombineFn(ValueError):
    """A combine function the recorder cannot write as loop-body text."""


class _Var:
    """A value of the combine function: a name in the recorded text."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return self.name


def _unwrap(value):
    # Inductor's OpsWrapper hands back OpsValue objects around our _Vars.
    while hasattr(value, "value") and not isinstance(value, _Var):
        value = value.value
    return value


def format_value(value) -> str:
    """A value as Inductor's FX code prints it in a loop body."""
    value = _unwrap(value)
    if isinstance(value, _Var):
        return value.name
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return repr(value)  # 'inf', '-inf', '0.5', '1e-05'
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (tuple, list)):
        items = [format_value(v) for v in value]
        if isinstance(value, tuple):
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return "[" + ", ".join(items) + "]"
    text = str(value)
    if text.startswith("torch.") and text.replace(".", "").replace("_", "").isalnum():
        return text  # a dtype: torch.float32
    raise UntraceableCombineFn("cannot write %r (%s) as loop-body text"
                               % (value, type(value).__name__))


class _Recorder:
    """An ops handler that writes each call as `name = ops.<op>(args)`."""

    def __init__(self, taken):
        self.lines: List[str] = []
        self.counts: Dict[str, int] = {}
        self.taken = set(taken)

    def _fresh(self, op: str) -> str:
        while True:
            k = self.counts.get(op, 0)
            self.counts[op] = k + 1
            name = op if k == 0 else "%s_%d" % (op, k)
            if name not in self.taken:
                self.taken.add(name)
                return name

    def __getattr__(self, op: str):
        if op.startswith("_"):
            raise AttributeError(op)

        def record(*args, **kwargs):
            parts = [format_value(a) for a in args]
            parts += ["%s = %s" % (k, format_value(v))
                      for k, v in kwargs.items()]
            name = self._fresh(op)
            self.lines.append("%s = ops.%s(%s)" % (name, op, ", ".join(parts)))
            return _Var(name)
        return record


class _ScanCatcher:
    """An ops handler whose scan() keeps the combine function."""

    def __init__(self):
        self.combine_fn = None

    def scan(self, dtypes, combine_fn, values):
        self.combine_fn = combine_fn
        return tuple(None for _ in values)


def trace_combine_fn(combine_fn: Callable, num_values: int, scan_name: str,
                     set_ops_handler: Callable[[Any], ContextManager]
                     ) -> List[str]:
    """The lines (without indentation) of `def <scan>_combine_fn(...)`."""
    lhs = tuple(_Var("arg0_%d" % i) for i in range(num_values))
    rhs = tuple(_Var("arg1_%d" % i) for i in range(num_values))
    recorder = _Recorder([v.name for v in lhs + rhs])
    with set_ops_handler(recorder):
        outputs = combine_fn(lhs, rhs)
    if not isinstance(outputs, (tuple, list)) or len(outputs) != num_values:
        raise UntraceableCombineFn("the combine function of %s returned %r"
                                   % (scan_name, outputs))
    params = ", ".join(v.name for v in lhs + rhs)
    names = [format_value(v) for v in outputs]
    if not all(isinstance(_unwrap(v), _Var) for v in outputs):
        raise UntraceableCombineFn("the combine function of %s returns a "
                                   "constant" % scan_name)
    return (["def %s_combine_fn(self, ops, %s):" % (scan_name, params)] +
            ["    " + line for line in recorder.lines] +
            ["    return (%s%s)" % (", ".join(names),
                                    "," if len(names) == 1 else "")])


def _scan_dtypes(loop_body, name: str) -> Optional[Tuple]:
    """The dtypes of the `self.<name>(dtypes, values)` call in the body's
    FX graphs."""
    blocks = [loop_body.root_block] + list(
        getattr(loop_body, "subblocks", {}).values())
    for block in blocks:
        for node in block.graph.nodes:
            if node.op == "call_module" and node.target == name:
                return tuple(node.args[0])
    return None


def combine_fn_blocks(loop_body, set_ops_handler) -> List[str]:
    """The `def scanN_combine_fn` blocks of a LoopBody, indented by 4 as
    the loop body class's blocks are; scans whose function cannot be
    written are left out (the lowering then reports them)."""
    lines: List[str] = []
    for name, shim in sorted(loop_body.submodules.items()):
        if not name.startswith("scan") or not callable(shim):
            continue
        dtypes = _scan_dtypes(loop_body, name)
        if dtypes is None:
            continue
        catcher = _ScanCatcher()
        try:
            with set_ops_handler(catcher):
                shim(dtypes, tuple(None for _ in dtypes))
            if catcher.combine_fn is None:
                continue
            block = trace_combine_fn(catcher.combine_fn, len(dtypes), name,
                                     set_ops_handler)
        except UntraceableCombineFn:
            continue
        lines += ["    " + line for line in block]
    return lines


def with_combine_fns(text: str, node_name: str, loop_body,
                     set_ops_handler) -> str:
    """`text` (a node's debug_str) with the combine functions of its scans
    appended to the end of its `class <node>_loop_body:`."""
    if loop_body is None or not any(
            k.startswith("scan") for k in getattr(loop_body, "submodules", {})):
        return text
    blocks = combine_fn_blocks(loop_body, set_ops_handler)
    if not blocks:
        return text
    lines = text.split("\n")
    header = "class %s_loop_body:" % node_name
    if header not in lines:
        return text
    end = lines.index(header) + 1
    while end < len(lines) and lines[end].startswith(" "):
        end += 1
    return "\n".join(lines[:end] + blocks + lines[end:])
