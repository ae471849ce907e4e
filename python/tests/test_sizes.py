"""Size expressions of manifests for symbolic shapes."""
import pytest

from scheduler_opt import sizes


def test_parse_and_evaluate():
    assert sizes.parse(12) == 12
    assert sizes.parse("12") == 12
    e = sizes.parse("s27*s77")
    assert e.symbols == {"s27", "s77"}
    assert e.evaluate({"s27": 1024, "s77": 4096}) == 1024 * 4096
    # Floor division and modulo as sympy's FloorDiv and ModularIndexing.
    assert sizes.parse("((s0 + 3)//4)").evaluate({"s0": 5}) == 2
    assert sizes.parse("s0 % 3").evaluate({"s0": 7}) == 1
    assert sizes.parse("max(s0, 2*s1) - 1").evaluate({"s0": 3, "s1": 4}) == 7
    # Powers by small constants, as sympy prints s27*s27 (attention's
    # scores: 8*s77*s27**2 elements).
    assert sizes.parse("8*s27**2").evaluate({"s27": 3}) == 72
    # sympy's Max and Min: torch's contiguous strides of a dynamic shape
    # (view_as_complex's result, as dump.py writes it).
    e = sizes.parse("s27*Max(1,(s53//2))")
    assert e.symbols == {"s27", "s53"}
    assert e.evaluate({"s27": 64, "s53": 32}) == 1024
    assert e.evaluate({"s27": 64, "s53": 1}) == 64
    assert sizes.parse("Min(s0, 5)").evaluate({"s0": 7}) == 5


@pytest.mark.parametrize("text", ["s0 +", "s0 / 2", "s0 ** s1", "s0 ** -1",
                                  "2 ** 99", "f(s0)", "s0.real", "'a'"])
def test_rejects(text):
    with pytest.raises(sizes.SizeError):
        sizes.parse(text)


def test_rejects_non_sizes():
    with pytest.raises(sizes.SizeError):
        sizes.parse(True)
    with pytest.raises(sizes.SizeError):
        sizes.parse(1.5)


def test_unbound_symbol():
    with pytest.raises(sizes.SizeError, match="'s1' of 's0\\*s1' is not bound"):
        sizes.parse("s0*s1").evaluate({"s0": 2})


def test_bind():
    symbols = {}
    shape = tuple(sizes.parse(v) for v in ["s77", "s27"])
    sizes.bind(shape, (4096, 1024), symbols, "x")
    assert symbols == {"s77": 4096, "s27": 1024}
    # Strides in the same symbols are checked, not bound.
    strides = tuple(sizes.parse(v) for v in ["s27", 1])
    sizes.bind(strides, (1024, 1), symbols, "x strides")
    with pytest.raises(sizes.SizeError, match="dimension 0 is 1000"):
        sizes.bind(strides, (1000, 1), symbols, "x strides")
    with pytest.raises(sizes.SizeError, match="s77 = 4096"):
        sizes.bind(shape, (8, 1024), symbols, "y")
    with pytest.raises(sizes.SizeError, match="1 dimensions, expected 2"):
        sizes.bind(shape, (8,), symbols, "z")


def test_grid_limits():
    """Grids computed from size symbols are checked when the symbols are
    bound: CUDA takes at most 2^31 - 1 blocks in x and 65535 in y and z,
    and cuLaunchKernel's 32-bit counts would cut a larger grid silently."""
    rows = sizes.parse("(s0*s1 + 255) // 256")
    assert sizes.grid((rows, 1, 1), {"s0": 64, "s1": 100}) == (25, 1, 1)
    # 2^31 - 1 blocks of 256 elements: the largest grid.
    largest = {"s0": 2**31 - 1, "s1": 256}
    assert sizes.grid((rows, 1, 1), largest) == (2**31 - 1, 1, 1)
    # 256 elements more: 2^31 blocks, one too many (2^31 would reach the
    # driver as 2^31, 2^32 + 5 as 5).
    with pytest.raises(sizes.SizeError, match=r"a grid of 2147483648 "
                       r"thread blocks in x \(\(s0\*s1 \+ 255\) // 256 at "
                       r"s0 = 2147483648, s1 = 256\) is more than the "
                       r"2147483647"):
        sizes.grid((rows, 1, 1), {"s0": 2**31, "s1": 256})
    with pytest.raises(sizes.SizeError, match="in y"):
        sizes.grid((1, sizes.parse("s0"), 1), {"s0": 65536})
    assert sizes.grid((1, 1, sizes.parse("s0")), {"s0": 65535}) == \
        (1, 1, 65535)


def test_compiled_expressions_compute_what_the_tree_computes():
    """`evaluate` runs the expression compiled to Python; the tree's walk
    (`_eval`) is the reference, with negative operands (floor semantics)
    and values on both sides of Min and Max."""
    texts = ["s0*s1", "((s0 + 3)//4)", "s0 % 3", "-s0 // 4", "(-s0) % 5",
             "max(s0, 2*s1) - 1", "s27*Max(1,(s53//2))", "Min(s0, 5)",
             "8*s27**2", "(s0 - s1)//(s1 + 1)", "Max(s0, Min(s1, 7)) % 4"]
    for text in texts:
        e = sizes.parse(text)
        for a in (-9, 0, 1, 6, 13):
            for b in (1, 2, 11):
                symbols = {"s0": a, "s1": b, "s27": a, "s53": b}
                assert e.evaluate(symbols) == e._eval(e._tree, symbols), \
                    (text, symbols)


def test_long_sums_compile():
    # Printed as text, 400 nested additions would exceed the 200 nested
    # parentheses Python's parser takes; compiled from the tree they run.
    e = sizes.parse(" + ".join("s%d" % (i % 3) for i in range(400)))
    assert e.evaluate({"s0": 1, "s1": 2, "s2": 3}) == 134 + 133 * (2 + 3)


def test_source_computes_what_evaluate_computes():
    """`source` writes a size as Python over local variables (the call
    function's symbols), computing what `evaluate` computes; None where a
    symbol has no variable, or where the text would nest parentheses
    deeper than Python's parser takes (the caller then uses `function`)."""
    names = {"s0": "a", "s1": "b", "s27": "c", "s53": "d"}
    texts = ["s0*s1", "((s0 + 3)//4)", "-s0 // 4", "(-s0) % 5",
             "max(s0, 2*s1) - 1", "s27*Max(1,(s53//2))", "8*s27**2",
             "(s0 - s1)//(s1 + 1)", "Max(s0, Min(s1, 7)) % 4", "s0", "12",
             " + ".join("s%d" % (i % 2) for i in range(100))]
    for text in texts:
        e = sizes.parse(text)
        code = compile(sizes.source(e, names), "<size>", "eval")
        for a in (-9, 0, 1, 6, 13):
            for b in (1, 2, 11):
                symbols = {"s0": a, "s1": b, "s27": a, "s53": b}
                values = {names[k]: v for k, v in symbols.items()}
                assert eval(code, {}, values) == \
                    sizes.evaluate(e, symbols), (text, symbols)
    assert sizes.source(sizes.parse("s0 + s9"), names) is None
    deep = "s0"
    for _ in range(100):
        deep = "s1 - (%s)" % deep
    e = sizes.parse(deep)
    assert sizes.source(e, names) is None
    assert e.evaluate({"s0": 3, "s1": 1}) == 3


def test_function_of_a_template():
    """`function` evaluates nested tuples of sizes at once, as `evaluate`
    each, and names an unbound symbol as `evaluate` does."""
    layout = tuple(sizes.parse(v) for v in ["s0", "s1"]), \
        (sizes.parse("s1"), 1), sizes.parse("s1*2")
    f = sizes.function(layout)
    assert f({"s0": 3, "s1": 5}) == ((3, 5), (5, 1), 10)
    assert sizes.function(())({}) == ()
    assert sizes.function((4, (1,)))({}) == (4, (1,))
    with pytest.raises(sizes.SizeError, match="'s1' of 's1' is not bound"):
        f({"s0": 3})


def test_equal_whatever_the_symbols():
    """sizes.equal: products and sums expanded (a kernel's iterations,
    `(8*s27*s77)*(s27)` against a member's `8*s27**2*s77`), integers, and
    expressions with //, % or min only by their text."""
    p = sizes.parse
    assert sizes.equal(p("(8*s27*s77)*(s27)"), p("8*s27**2*s77"))
    assert sizes.equal(p("s77*s27*512"), p("512*s27*s77"))
    assert sizes.equal(p("(s0 + 1)*s1 - s1"), p("s0*s1"))
    assert sizes.equal(p("(32)*(8)"), 256) and sizes.equal(256, 256)
    assert not sizes.equal(p("s0*s1"), p("s0*s0"))
    assert not sizes.equal(p("8*s27*s77"), p("8*s27**2*s77"))
    assert not sizes.equal(p("s0 + 1"), 1)
    assert sizes.equal(p("(s0 + 1)//2"), p("(s0 + 1)//2"))
    assert not sizes.equal(p("(s0 + 1)//2"), p("(1 + s0)//2"))
