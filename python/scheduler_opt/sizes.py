"""Sizes in manifests: integers, or expressions in size symbols.

A graph compiled for dynamic shapes (`torch.compile(dynamic=True)`) has
sizes that are expressions in Inductor's size symbols (`s27`, `s27*s77`,
`((s0 + 3)//4)`). A manifest field that holds a size (elements, shape,
strides, offset, grid) holds either an integer or such an expression as a
string; `evaluate` computes it once the symbols are bound from the actual
input shapes. Expressions use integers, symbols, `+ - * // %`, powers by
small integer constants (`s27**2`, as sympy prints them), parentheses and
`min`/`max`, with Python's (floor) semantics, which are sympy's and
Inductor's for non-negative sizes.

Each expression is compiled once into a Python function (`Expr.evaluate`
calls it), and `function` compiles a whole template of sizes (a grid, a
view's shape, strides and offset) into one, since the runtime evaluates
them on every call of a dynamic graph.

Pure Python: no PyTorch needed.
"""
import ast
import functools
from typing import Dict, Mapping, Tuple, Union

Size = Union[int, "Expr"]


class SizeError(ValueError):
    pass


_BINARY = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
}
# sympy prints Max and Min capitalized (torch's contiguous strides of a
# dynamic shape are products of Max(1, size)).
_CALLS = {"min": min, "max": max, "Min": min, "Max": max}


class Expr:
    """A size expression over symbols, checked when parsed."""

    def __init__(self, text: str):
        self.text = text
        try:
            self._tree = ast.parse(text, mode="eval").body
        except SyntaxError as e:
            raise SizeError("bad size expression %r: %s" % (text, e.msg))
        self.symbols = frozenset(self._check(self._tree))
        self._fn = _compile(_lowered(self._tree))

    def _check(self, node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return set()
        if isinstance(node, ast.Name):
            return {node.id}
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return self._check(node.left) | self._check(node.right)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and \
                isinstance(node.right, ast.Constant) and \
                type(node.right.value) is int and 0 <= node.right.value <= 8:
            # sympy prints products of a symbol with itself as powers
            # (`8*s27**2`).
            return self._check(node.left)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return self._check(node.operand)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in _CALLS and node.args and not node.keywords):
            return set().union(*(self._check(a) for a in node.args))
        raise SizeError("bad size expression %r: %s is not allowed"
                        % (self.text, ast.dump(node)))

    def evaluate(self, symbols: Mapping[str, int]) -> int:
        try:
            return self._fn(symbols)
        except KeyError:
            # The tree's walk says which symbol is unbound.
            return self._eval(self._tree, symbols)

    def _eval(self, node, symbols):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in symbols:
                raise SizeError("size symbol %r of %r is not bound"
                                % (node.id, self.text))
            return int(symbols[node.id])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return self._eval(node.left, symbols) ** node.right.value
        if isinstance(node, ast.BinOp):
            return _BINARY[type(node.op)](self._eval(node.left, symbols),
                                          self._eval(node.right, symbols))
        if isinstance(node, ast.UnaryOp):
            return -self._eval(node.operand, symbols)
        return _CALLS[node.func.id](*(self._eval(a, symbols)
                                      for a in node.args))

    def __eq__(self, other):
        return isinstance(other, Expr) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    def __repr__(self):
        return "Expr(%r)" % self.text


def _lowered(node):
    """A checked expression tree as Python computes it, its symbols read
    from the mapping `s` (converted with int, as `_eval` reads them)."""
    if isinstance(node, ast.Constant):
        return ast.Constant(node.value)
    if isinstance(node, ast.Name):
        return ast.Call(ast.Name("int", ast.Load()), [ast.Subscript(
            ast.Name("s", ast.Load()), ast.Constant(node.id), ast.Load())],
            [])
    if isinstance(node, ast.BinOp):
        return ast.BinOp(_lowered(node.left), type(node.op)(),
                         _lowered(node.right))
    if isinstance(node, ast.UnaryOp):
        return ast.UnaryOp(ast.USub(), _lowered(node.operand))
    return ast.Call(ast.Name(node.func.id.lower(), ast.Load()),
                    [_lowered(a) for a in node.args], [])


def _compile(body):
    """The function `lambda s: body` of an expression tree (compiled from
    the tree, not from text: Python's parser refuses over 200 nested
    parentheses, which long sums of terms printed as text would reach)."""
    tree = ast.Expression(ast.Lambda(
        ast.arguments(posonlyargs=[], args=[ast.arg("s")], kwonlyargs=[],
                      kw_defaults=[], defaults=[]), body))
    code = compile(ast.fix_missing_locations(tree), "<size expression>",
                   "eval")
    return eval(code, {"__builtins__": {}, "int": int, "min": min,
                       "max": max})


def _template_tree(template):
    if isinstance(template, tuple):
        return ast.Tuple([_template_tree(v) for v in template], ast.Load())
    if isinstance(template, Expr):
        return _lowered(template._tree)
    return ast.Constant(template)


def _template_value(template, symbols):
    if isinstance(template, tuple):
        return tuple(_template_value(v, symbols) for v in template)
    return evaluate(template, symbols)


def function(template):
    """A function of the symbols that returns `template` (a size, or nested
    tuples of sizes) evaluated, as `evaluate` would each size, compiled
    into one Python expression."""
    fn = _compile(_template_tree(template))

    def evaluated(symbols):
        try:
            return fn(symbols)
        except KeyError:
            # `evaluate` names the unbound symbol.
            return _template_value(template, symbols)
    return evaluated


def _named(node, names):
    """A checked expression tree with each symbol read from the local
    variable `names[symbol]` (KeyError where `names` lacks one)."""
    if isinstance(node, ast.Constant):
        return ast.Constant(node.value)
    if isinstance(node, ast.Name):
        return ast.Name(names[node.id], ast.Load())
    if isinstance(node, ast.BinOp):
        return ast.BinOp(_named(node.left, names), type(node.op)(),
                         _named(node.right, names))
    if isinstance(node, ast.UnaryOp):
        return ast.UnaryOp(ast.USub(), _named(node.operand, names))
    return ast.Call(ast.Name(node.func.id.lower(), ast.Load()),
                    [_named(a, names) for a in node.args], [])


# The deepest nesting of parentheses `source` writes (Python's parser
# refuses more than 200).
_MAX_NESTING = 64


def source(size: Size, names: Mapping[str, str]):
    """Python source computing `size` from local variables, `names[symbol]`
    holding each symbol's value (an int), parenthesized; None where a
    symbol has no variable or the text would nest parentheses too deeply
    (the caller then evaluates the size through `function`)."""
    if isinstance(size, int):
        return repr(size)
    if not size.symbols <= names.keys():
        return None
    try:
        text = ast.unparse(_named(size._tree, names))
    except RecursionError:
        return None
    depth = top = 0
    for c in text:
        depth += (c == "(") - (c == ")")
        top = max(top, depth)
    if top >= _MAX_NESTING:
        return None
    return text if text.isidentifier() or text.isdigit() else \
        "(" + text + ")"


def _polynomial(node):
    """The checked tree `node` as {monomial: coefficient}, a monomial a
    sorted tuple of (symbol, power); None where it uses //, %, min or
    max."""
    if isinstance(node, ast.Constant):
        return {(): node.value} if node.value else {}
    if isinstance(node, ast.Name):
        return {((node.id, 1),): 1}
    if isinstance(node, ast.UnaryOp):
        inner = _polynomial(node.operand)
        return None if inner is None else {m: -c for m, c in inner.items()}
    if not isinstance(node, ast.BinOp) or \
            type(node.op) not in (ast.Add, ast.Sub, ast.Mult, ast.Pow):
        return None
    left = _polynomial(node.left)
    if left is None:
        return None
    if isinstance(node.op, ast.Pow):
        result = {(): 1}
        for _ in range(node.right.value):
            result = _times(result, left)
        return result
    right = _polynomial(node.right)
    if right is None:
        return None
    if isinstance(node.op, ast.Mult):
        return _times(left, right)
    sign = 1 if isinstance(node.op, ast.Add) else -1
    result = dict(left)
    for m, c in right.items():
        result[m] = result.get(m, 0) + sign * c
    return {m: c for m, c in result.items() if c}


def _times(a, b):
    result = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            powers = dict(ma)
            for name, k in mb:
                powers[name] = powers.get(name, 0) + k
            m = tuple(sorted(powers.items()))
            result[m] = result.get(m, 0) + ca * cb
    return {m: c for m, c in result.items() if c}


def equal(a: Size, b: Size) -> bool:
    """Whether two sizes are equal whatever their symbols' values: equal
    integers, or expressions of + - * and powers that expand to the same
    polynomial (`(8*s27*s77)*(s27)` and `8*s27**2*s77`); others only
    when their texts are equal."""
    pa = {(): a} if isinstance(a, int) else _polynomial(a._tree)
    pb = {(): b} if isinstance(b, int) else _polynomial(b._tree)
    if pa is None or pb is None:
        return a == b
    return {m: c for m, c in pa.items() if c} == \
        {m: c for m, c in pb.items() if c}


@functools.lru_cache(maxsize=4096)
def _parse_text(text: str) -> Size:
    stripped = text.strip()
    if stripped.lstrip("-").isdigit():
        return int(stripped)
    return Expr(stripped)


def parse(value) -> Size:
    """An integer, or an expression from its string (or the expression
    itself)."""
    if isinstance(value, bool):
        raise SizeError("a size is an integer or an expression, not %r"
                        % (value,))
    if isinstance(value, (int, Expr)):
        return value
    if isinstance(value, str):
        return _parse_text(value)
    raise SizeError("a size is an integer or an expression, not %r"
                    % (value,))


def evaluate(size: Size, symbols: Mapping[str, int]) -> int:
    return size if isinstance(size, int) else size.evaluate(symbols)


def is_static(size: Size) -> bool:
    return isinstance(size, int)


# The most thread blocks a CUDA launch takes in x, y and z
# (cudaDeviceProp.maxGridSize since compute capability 3.0).
MAX_GRID = (2**31 - 1, 65535, 65535)


def grid(values: Tuple[Size, ...], symbols: Mapping[str, int]
         ) -> Tuple[int, ...]:
    """A kernel's grid at the bound symbols, checked against CUDA's limits.
    convert-fusion-to-gpu refuses a static grid that exceeds them; a grid
    computed from size symbols is known only now, and cuLaunchKernel takes
    32-bit counts (ctypes would cut a larger one silently, and the kernel
    would run on part of its rows)."""
    counts = tuple(evaluate(v, symbols) for v in values)
    for axis, (n, limit, v) in enumerate(zip(counts, MAX_GRID, values)):
        if not 0 <= n <= limit:
            raise SizeError(
                "a grid of %d thread blocks in %s (%s at %s) is more than "
                "the %d a CUDA grid holds" % (
                    n, "xyz"[axis], v if isinstance(v, int) else v.text,
                    ", ".join("%s = %d" % kv for kv in sorted(
                        symbols.items())), limit))
    return counts


def bind(pattern: Tuple[Size, ...], actual: Tuple[int, ...],
         symbols: Dict[str, int], what: str) -> None:
    """Binds the symbols that `pattern` (a shape or strides) uses alone
    (`s27`) to the values of `actual`, and checks every other entry
    against the symbols bound so far; entries that still use unbound
    symbols are left for a later pattern."""
    if len(pattern) != len(actual):
        raise SizeError("%s has %d dimensions, expected %d"
                        % (what, len(actual), len(pattern)))
    pending = []
    for k, (p, a) in enumerate(zip(pattern, actual)):
        if isinstance(p, Expr) and len(p.symbols) == 1 and \
                p.text == next(iter(p.symbols)):
            name = p.text
            if name in symbols and symbols[name] != a:
                raise SizeError("%s: dimension %d is %d but %s = %d"
                                % (what, k, a, name, symbols[name]))
            symbols[name] = int(a)
        else:
            pending.append((k, p, a))
    for k, p, a in pending:
        if isinstance(p, Expr) and not p.symbols <= symbols.keys():
            continue
        if evaluate(p, symbols) != a:
            raise SizeError("%s: dimension %d is %d, expected %s = %d"
                            % (what, k, a, p if isinstance(p, int) else
                               p.text, evaluate(p, symbols)))
