#!/usr/bin/env python3
"""Reference values of Inductor's operations that the lowerings emit
themselves (random numbers, special functions, frexp, integer pow),
computed in plain Python independently of the lowering: Philox checked
against Random123's known answer, Box-Muller, the math module, power
series, bisection, finite differences of math.lgamma. Inputs follow the
pattern of test-fusion-jit-main (jit_fill.py). Prints the outputs as
printMemrefF64 would, in the order of the test graph.

    inductor_ops_reference.py opaque   # test/Conversion/FusionToLoops/inductor-opaque-jit.mlir
    inductor_ops_reference.py asserts  # test/Target/Inductor/asserts.test
    inductor_ops_reference.py polynomials  # ...FusionToLoops/inductor-polynomials-jit.mlir
    inductor_ops_reference.py bucketize  # test/Target/Inductor/bucketize.test
    inductor_ops_reference.py store_modes  # test/Target/Inductor/store-modes.test
    inductor_ops_reference.py gamma  # ...FusionToLoops/inductor-gamma-jit.mlir
    inductor_ops_reference.py sorts  # test/Target/Inductor/sort-values.test
    inductor_ops_reference.py sort_nan  # ...FusionToLoops/sort-jit.mlir
    inductor_ops_reference.py scans|cumext|intscan  # test/Target/Inductor/scan-values.test
    inductor_ops_reference.py scan_jit  # ...FusionToLoops/scan-jit.mlir
"""
import bisect
import decimal
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jit_fill import f32, float_input, hash31, print_memref  # noqa: E402

M32 = 0xFFFFFFFF


def philox(seed, offset):
    """Philox4x32-10 on counter (offset, 0, 0, 0), key (seed lo, seed hi)."""
    k0, k1 = seed & M32, (seed >> 32) & M32
    c0, c1, c2, c3 = offset & M32, 0, 0, 0
    for _ in range(10):
        prod_b = 0xCD9E8D57 * c2
        prod_a = 0xD2511F53 * c0
        c0, c1, c2, c3 = ((prod_b >> 32) ^ c1 ^ k0, prod_b & M32,
                          (prod_a >> 32) ^ c3 ^ k1, prod_a & M32)
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c0, c1, c2, c3


# Random123's known-answer test for philox4x32-10 (zero counter and key).
assert philox(0, 0) == (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)


def uniform(word):
    """Triton's uint_to_uniform_float for a 32-bit word, in f32."""
    x = word - (1 << 32) if word & 0x80000000 else word
    if x < 0:
        x = -x - 1
    return f32(f32(float(x)) * f32(4.6566127342e-10))


def randn(seed, offset):
    w = philox(seed, offset)
    u1 = max(f32(1.0e-7), uniform(w[0]))
    u2 = uniform(w[1])
    theta = f32(f32(6.283185307179586) * u2)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(theta)


def randint64(seed, offset, low, high):
    w = philox(seed, offset)
    return (w[0] | (w[1] << 32)) % (high - low) + low


def erfinv(y):
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    lo, hi = -10.0, 10.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if math.erf(mid) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def i0(x):
    q = (x / 2) ** 2
    term, total, k = 1.0, 1.0, 0
    while term > 1e-18 * total:
        k += 1
        term *= q / (k * k)
        total += term
    return total


def i1(x):
    q = (x / 2) ** 2
    term, total, k = x / 2, x / 2, 0
    while abs(term) > 1e-18 * abs(total):
        k += 1
        term *= q / (k * (k + 1))
        total += term
    return total


def bessel_k(nu, x):
    """K_nu(x) = integral over t > 0 of exp(-x cosh t) cosh(nu t), by the
    trapezoid rule (exponentially accurate for this integrand)."""
    if x == 0:
        return math.inf
    h, t, total = 0.02, 0.0, 0.0
    while True:
        w = math.exp(-x * math.cosh(t)) * math.cosh(nu * t)
        total += w * (0.5 if t == 0 else 1.0)
        if x * math.cosh(t) > 800:
            break
        t += h
    return total * h


def hurwitz_zeta(s, q):
    """zeta(s, q) for s > 1, q > 0: 2000 terms of the sum, then the
    integral of the rest with its first two Euler-Maclaurin corrections."""
    n = 2000
    total = sum((q + k) ** -s for k in range(n))
    a = q + n
    return (total + a ** (1 - s) / (s - 1) + 0.5 * a ** -s
            + s / 12 * a ** (-s - 1))


def erfcx(x):
    """exp(x^2) erfc(x): from math.erfc below 5; above, the continued
    fraction of erfc (no erfc call, no overflow)."""
    if x < 5:
        return math.exp(x * x) * math.erfc(x)
    frac = 0.0
    for k in range(80, 0, -1):
        frac = (k / 2) / (x + frac)
    return 1 / (math.sqrt(math.pi) * (x + frac))


def ndtri(y):
    if y == 0:
        return -math.inf
    if y == 1:
        return math.inf
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def log_ndtr(x):
    t = x / math.sqrt(2)
    if x < -5:
        return math.log(erfcx(-t) / 2) - t * t
    return math.log(0.5 * math.erfc(-t))


def trapezoid(fn, a, b, n):
    h = (b - a) / n
    return h * (0.5 * fn(a) + sum(fn(a + k * h) for k in range(1, n)) +
                0.5 * fn(b))


def simpson(fn, a, b, n):
    h = (b - a) / n
    return h / 3 * (fn(a) + fn(b) + sum((4 if k % 2 else 2) * fn(a + k * h)
                                        for k in range(1, n)))


def bessel_j1(x):
    """(1/pi) integral over [0, pi] of cos(t - x sin t)."""
    return trapezoid(lambda t: math.cos(t - x * math.sin(t)), 0, math.pi,
                     400) / math.pi


def bessel_y(nu, x):
    """Y_nu(x), x > 0, nu in {0, 1}: Schlaefli's integrals."""
    first = simpson(lambda t: math.sin(x * math.sin(t) - nu * t), 0,
                    math.pi, 1000) / math.pi
    end = math.asinh(800 / x)
    second = simpson(lambda t: (math.exp(nu * t) + (-1) ** nu *
                                math.exp(-nu * t)) * math.exp(-x * math.sinh(t)),
                     0, end, 4000) / math.pi
    return first - second


def nextafter_f32(x, y):
    """The f32 after x toward y, from the bits."""
    if x == y:
        return y
    if x == 0:
        return math.copysign(1.401298464324817e-45, y)
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    bits += 1 if (y > x) == (x > 0) else -1
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def digamma(x):
    if x == 0:
        return -math.copysign(math.inf, x)
    if x < 0 and x == math.floor(x):
        return math.nan
    h = 1e-7 * max(1.0, abs(x))
    return (math.lgamma(x + h) - math.lgamma(x - h)) / (2 * h)


def ipowi(base, exp):
    if exp < 0:
        return 1 if base == 1 else ((-1) ** (-exp) if base == -1 else 0)
    return base ** exp


def opaque():
    n = 64
    seed = 1311768467294899695
    x = [float_input(i, 0) for i in range(n)]
    print_memref([randn(seed, i) for i in range(n)])
    print_memref([randint64(seed, i, -7, 1000) for i in range(n)])
    print_memref([erfinv(f32(v * 0.5)) for v in x])
    print_memref([i0(f32(v * 6.0)) for v in x])
    print_memref([math.exp(-abs(f32(v * 6.0))) * i0(f32(v * 6.0)) for v in x])
    print_memref([0.5 * math.erfc(-f32(v * 2.0) / math.sqrt(2)) for v in x])
    print_memref([digamma(f32(v * 4.0)) for v in x])
    big = [math.frexp(f32(v * 1000.0)) for v in x]
    tiny = [math.frexp(f32(v * 2.0 ** -140)) for v in x]
    print_memref([m for m, _ in big])
    print_memref([e for _, e in big])
    print_memref([m for m, _ in tiny])
    print_memref([e for _, e in tiny])
    print_memref([ipowi(i % 7 - 3, (i // 7) % 9 - 2) for i in range(n)])
    print_memref([i1(f32(v * 6.0)) for v in x])
    print_memref([math.exp(-abs(f32(v * 6.0))) * i1(f32(v * 6.0)) for v in x])
    pos = [f32(abs(v) * 6.0) for v in x]
    for nu in (0, 1):
        print_memref([bessel_k(nu, v) for v in pos])
    for nu in (0, 1):
        print_memref([bessel_k(nu, v) * math.exp(v) if v else math.inf
                      for v in pos])
    print_memref([math.sin(f32(v * 6.0)) / f32(v * 6.0) if v else 1.0
                  for v in x])
    # zeta(1.5 + p0 mod 4, 3 |x| + 0.05); polygamma(p0 mod 4, 2 |x| + 0.1).
    qs = [f32(f32(abs(v) * 3.0) + f32(0.05)) for v in x]
    print_memref([hurwitz_zeta(1.5 + i % 4, q) for i, q in enumerate(qs)])
    ys = [f32(f32(abs(v) * 2.0) + f32(0.1)) for v in x]
    poly = []
    for i, y in enumerate(ys):
        m = i % 4
        poly.append(digamma(y) if m == 0 else
                    (-1) ** (m + 1) * math.factorial(m) * hurwitz_zeta(m + 1, y))
    print_memref(poly)
    # erfcx(10 x) (both methods), ndtri((x + 2) / 4), log_ndtr(10 x).
    # Beyond f32's range (2 exp(x^2) for x below -9.4) the result is inf.
    print_memref([e if e <= 3.4028234663852886e38 else math.inf
                  for e in (erfcx(f32(v * 10.0)) for v in x)])
    print_memref([ndtri(f32(f32(v + 2.0) * 0.25)) for v in x])
    print_memref([log_ndtr(f32(v * 10.0)) for v in x])
    # bessel_j1(6 x), bessel_y0 / y1(6 |x| + 0.1), nextafter(x, 1).
    print_memref([bessel_j1(f32(v * 6.0)) for v in x])
    ys = [f32(f32(abs(v) * 6.0) + f32(0.1)) for v in x]
    print_memref([bessel_y(0, y) for y in ys])
    print_memref([bessel_y(1, y) for y in ys])
    print_memref([nextafter_f32(v, 1.0) for v in x])


def bucketize():
    """test/Target/Inductor/bucketize.test: arg0_1 against the boundaries
    (-1, -0.5, 0, 0.5, 1), which the graph stores shuffled with a sorter:
    torch.bucketize's right=False is bisect_left, right=True bisect_right."""
    bounds = [-1.0, -0.5, 0.0, 0.5, 1.0]
    x = [float_input(i, 0) for i in range(64)]
    print_memref([bisect.bisect_left(bounds, v) for v in x])
    print_memref([bisect.bisect_right(bounds, v) for v in x])


def store_modes():
    """test/Target/Inductor/store-modes.test: buf0 = arg0_1 + arg0_1."""
    print_memref([2 * float_input(i, 0) for i in range(16)])


def chebyshev(kind, x, n):
    """The four Chebyshev kinds from their trigonometric definitions."""
    if abs(x) == 1:
        t = 0.0 if x > 0 else math.pi
        if kind == "t":
            return math.cos(n * t)
        if kind == "u":
            return (n + 1) * (1 if x > 0 else (-1) ** n)
        if kind == "v":
            return 1.0 if x > 0 else (-1) ** n * (2 * n + 1)
        return 2 * n + 1 if x > 0 else (-1) ** n
    t = math.acos(x)
    return {"t": lambda: math.cos(n * t),
            "u": lambda: math.sin((n + 1) * t) / math.sin(t),
            "v": lambda: math.cos((n + 0.5) * t) / math.cos(t / 2),
            "w": lambda: math.sin((n + 0.5) * t) / math.sin(t / 2)}[kind]()


def hermite_h(x, n):
    """Physicists' Hermite, explicit sum."""
    return math.factorial(n) * sum(
        (-1) ** m * (2 * x) ** (n - 2 * m)
        / (math.factorial(m) * math.factorial(n - 2 * m))
        for m in range(n // 2 + 1))


def hermite_he(x, n):
    return math.factorial(n) * sum(
        (-1) ** m * x ** (n - 2 * m)
        / (math.factorial(m) * math.factorial(n - 2 * m) * 2 ** m)
        for m in range(n // 2 + 1))


def laguerre(x, n):
    return sum(math.comb(n, k) * (-x) ** k / math.factorial(k)
               for k in range(n + 1))


def legendre(x, n):
    return sum((-1) ** k * math.factorial(2 * n - 2 * k)
               / (2 ** n * math.factorial(k) * math.factorial(n - k)
                  * math.factorial(n - 2 * k)) * x ** (n - 2 * k)
               for k in range(n // 2 + 1))


def polynomials():
    n = 64
    x = [f32(float_input(i, 0) * 0.5) for i in range(n)]
    deg = [i % 13 for i in range(n)]
    for kind in "tuvw":
        print_memref([chebyshev(kind, v, d) for v, d in zip(x, deg)])
    for fn in (hermite_h, hermite_he, laguerre, legendre):
        print_memref([fn(v, d) for v, d in zip(x, deg)])
    # The shifted kinds at x in [0, 1): the kinds at 2x - 1 (in f32, as
    # the lowering rounds it).
    shifted = [f32(f32(float_input(i, 0) * 0.25) + 0.5) for i in range(n)]
    ys = [f32(f32(v + v) - 1.0) for v in shifted]
    for kind in "tuvw":
        print_memref([chebyshev(kind, y, d) for y, d in zip(ys, deg)])


def asserts():
    """test/Target/Inductor/asserts.test with int-range=12: a gather of
    arg1_1 at arg0_1, and the assertion's condition arg0_1 < 12."""
    idx = [hash31(i, 0) % 12 for i in range(8)]
    table = [float_input(i, 1) for i in range(16)]
    print_memref([table[k] for k in idx])
    print_memref([1.0 if k < 12 else 0.0 for k in idx])


def gamma_p_series(a, x):
    """P(a, x) = x^a e^-x / gamma(a) * sum x^n / (a (a+1) ... (a+n))."""
    term = total = 1.0 / a
    n = 0
    while abs(term) > abs(total) * 1e-17:
        n += 1
        term *= x / (a + n)
        total += term
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def gamma_q_fraction(a, x):
    """Q(a, x) by Legendre's continued fraction, evaluated by Lentz's
    method (x > a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    i = 0
    while True:
        i += 1
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = d if abs(d) > tiny else tiny
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_p(a, x):
    """The regularized lower incomplete gamma function, with SciPy's
    boundary values."""
    if math.isnan(a) or math.isnan(x) or a < 0 or x < 0:
        return math.nan
    if a == 0:
        return 1.0 if x > 0 else math.nan
    if x == 0:
        return 0.0
    if math.isinf(a):
        return math.nan if math.isinf(x) else 0.0
    if math.isinf(x):
        return 1.0
    if x < a + 1:
        return gamma_p_series(a, x)
    return 1.0 - gamma_q_fraction(a, x)


def gamma_q(a, x):
    p = gamma_p(a, x)
    if math.isnan(p) or x < a + 1 or math.isinf(x) or math.isinf(a):
        return 1.0 - p
    return gamma_q_fraction(a, x)


def airy_ai(x):
    """Ai(x) from its Maclaurin series Ai(0) f(x) + Ai'(0) g(x), summed in
    60-digit decimals (the cancellation of the two series for positive x
    costs up to 15 digits)."""
    if math.isnan(x) or math.isinf(x):
        return math.nan
    if x > 103.892:  # ATen's cut-off: Ai underflows there
        return 0.0
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        z = decimal.Decimal(x)
        z3 = z * z * z
        f = t = decimal.Decimal(1)
        g = u = z
        k = 0
        while True:
            k += 1
            t = t * z3 / ((3 * k - 1) * (3 * k))
            u = u * z3 / ((3 * k) * (3 * k + 1))
            f += t
            g += u
            if k > 10 and abs(t) + abs(u) < decimal.Decimal("1e-45"):
                break
        ai = (decimal.Decimal("0.355028053887817239260063186004183176397979")
              * f - decimal.Decimal(
                  "0.258819403792806798405183560189203963479091") * g)
        return float(ai)


def gamma():
    """test/Conversion/FusionToLoops/inductor-gamma-jit.mlir."""
    n = 64
    x = [float_input(i, 0) for i in range(n)]
    y = [float_input(i, 1) for i in range(n)]
    pairs = []
    for i, (v, w) in enumerate(zip(x, y)):
        r = i % 4
        if r == 0:
            a = f32(f32(abs(v) * 2.0) + f32(0.05))
            t = f32(abs(w) * 3.0)
        elif r == 1:
            a = f32(f32(abs(v) * 40.0) + 0.5)
            t = f32(a * f32(f32(w * f32(0.2)) + 1.0))
        elif r == 2:
            a = f32(f32(v * 20.0) + 250.0)
            t = f32(a + f32(w * 10.0))
        else:
            a = f32(f32(abs(v) * 0.5) + f32(0.01))
            t = f32(abs(w) * 0.5)
        pairs.append((a, t))
    p = [gamma_p(a, t) for a, t in pairs]
    q = [gamma_q(a, t) for a, t in pairs]
    for values in (p, q, p, q, p, q):
        print_memref(values)
    inf = math.inf
    bounds = [(1, 0), (0, 2), (-1, 1), (1, -1), (inf, 1), (2, inf),
              (inf, inf), (0, 0)]
    print_memref([gamma_p(a, t) for a, t in bounds])
    print_memref([airy_ai(g) for g in
                  (200.0, inf, -inf, math.nan, -0.5, 0.0, f32(2.09),
                   f32(8.4))])
    g = [f32(v * 4.0) for v in x]
    print_memref([airy_ai(v) for v in g])
    print_memref([airy_ai(v) for v in g])
    print_memref([min(max(i - 20, 0), 29) for i in range(n)])
    # tl.dot terms summed over k in order, in f32.
    mm = []
    for i in range(8):
        for j in range(8):
            acc = 0.0
            for k in range(8):
                acc = f32(acc + f32(x[i * 8 + k] * y[k * 8 + j]))
            mm.append(acc)
    print_memref(mm)


def torch_sort(values, descending):
    """torch.sort's order, stably: NaN above every number; the positions
    of the sorted values."""
    def key(i):
        v = values[i]
        nan = v != v
        if descending:
            return (0 if nan else 1, 0 if nan else -v)
        return (1 if nan else 0, 0 if nan else v)
    return sorted(range(len(values)), key=key)


def sorts():
    """test/Target/Inductor/sort-values.test: the 2.11 dump of
    torch.sort(x, 1, descending=True, stable=True), torch.argsort(x, 1)
    and torch.sort(x, 0) on x of 8x64 (row-major)."""
    rows, cols = 8, 64
    x = [float_input(i, 0) for i in range(rows * cols)]
    desc_values, desc_indices, asc_indices = [], [], []
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        order = torch_sort(row, True)
        desc_values += [row[i] for i in order]
        desc_indices += order
        asc_indices += torch_sort(row, False)
    col_values = [0.0] * (rows * cols)
    col_indices = [0] * (rows * cols)
    for c in range(cols):
        column = [x[r * cols + c] for r in range(rows)]
        for k, i in enumerate(torch_sort(column, False)):
            col_values[k * cols + c] = column[i]
            col_indices[k * cols + c] = i
    for out in (desc_values, desc_indices, asc_indices, col_values,
                col_indices):
        print_memref(out)


def sort_nan():
    """test/Conversion/FusionToLoops/sort-jit.mlir: rows of 16 of
    v = x where x < 1 else NaN (x the first input, 4 rows), sorted
    ascending and descending with their positions; the i32 values
    floor(4 x) sorted descending with positions (ties stable); the
    booleans x > 0 sorted ascending."""
    rows, cols = 4, 16
    x = [float_input(i, 0) for i in range(rows * cols)]
    v = [a if a < 1.0 else math.nan for a in x]
    outs = [[] for _ in range(7)]
    for r in range(rows):
        row = v[r * cols:(r + 1) * cols]
        for slot, descending in ((0, False), (2, True)):
            order = torch_sort(row, descending)
            outs[slot] += [row[i] for i in order]
            outs[slot + 1] += order
        ints = [math.floor(f32(4.0 * a)) for a in x[r * cols:(r + 1) * cols]]
        order = torch_sort(ints, True)
        outs[4] += [ints[i] for i in order]
        outs[5] += order
        bools = [1 if a > 0 else 0 for a in x[r * cols:(r + 1) * cols]]
        outs[6] += sorted(bools)
    for out in outs:
        print_memref(out)


def scans():
    """test/Target/Inductor/scan-values.test: the 2.11 dump of
    torch.cumsum(x, 1), torch.cumprod(x, 1) and torch.logcumsumexp(x, 1)
    on x of 8x64, with the combine functions the backend traces; in
    f64 (the lowering scans in f32: compared with a tolerance)."""
    rows, cols = 8, 64
    x = [float_input(i, 0) for i in range(rows * cols)]
    sums, prods, lses = [], [], []
    for r in range(rows):
        s, p, m, t = 0.0, 1.0, -math.inf, 0.0
        for v in x[r * cols:(r + 1) * cols]:
            s += v
            p *= v
            # log(sum exp) with the running maximum factored out.
            if v > m:
                t = t * math.exp(m - v) + 1.0
                m = v
            else:
                t += math.exp(v - m)
            sums.append(s)
            prods.append(p)
            lses.append(m + math.log(t))
    for out in (sums, prods, lses):
        print_memref(out)


def cumext():
    """test/Target/Inductor/scan-values.test: torch.cummax(x, 1) and
    torch.cummin(x, 1) on x of 8x64: running extremum and the position of
    its last occurrence (torch's CPU kernel takes x >= max)."""
    rows, cols = 8, 64
    x = [float_input(i, 0) for i in range(rows * cols)]
    outs = [[], [], [], []]
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        hi = lo = None
        for k, v in enumerate(row):
            if hi is None or v >= row[hi]:
                hi = k
            if lo is None or v <= row[lo]:
                lo = k
            outs[0].append(row[hi])
            outs[1].append(hi)
            outs[2].append(row[lo])
            outs[3].append(lo)
    for out in outs:
        print_memref(out)


def intscan():
    """test/Target/Inductor/scan-values.test: torch.cumsum of an int32 x
    (test-fusion-jit-main's integers: hash mod 4) and of x > 0, on 8x64."""
    rows, cols = 8, 64
    x = [hash31(i, 0) % 4 for i in range(rows * cols)]
    sums, counts = [], []
    for r in range(rows):
        s = c = 0
        for v in x[r * cols:(r + 1) * cols]:
            s += v
            c += v > 0
            sums.append(s)
            counts.append(c)
    print_memref(sums)
    print_memref(counts)


def scan_jit():
    """test/Conversion/FusionToLoops/scan-jit.mlir: rows of 16 of x (the
    first input, 4 rows): running sums, running maxima with the position
    of their last occurrence, and s = 0.5 s + x."""
    rows, cols = 4, 16
    x = [float_input(i, 0) for i in range(rows * cols)]
    outs = [[], [], [], []]
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        s, best, ema = 0.0, None, None
        for k, v in enumerate(row):
            s += v
            if best is None or v >= row[best]:
                best = k
            ema = v if ema is None else f32(f32(0.5 * ema) + v)
            outs[0].append(s)
            outs[1].append(row[best])
            outs[2].append(best)
            outs[3].append(ema)
    for out in outs:
        print_memref(out)


def rows_in_memory(rows, cols):
    """test/Conversion/FusionToLoops/rows-in-memory-jit.mlir at s0 = rows,
    s1 = cols: @dynrows (cumsum, a stable descending sort with positions,
    the row maximum of the cumsum), then @long (a stable ascending sort of 2
    rows of 1500, with positions) and @short (cumsum of 2 rows of 1300),
    each on x = the first input, in f32 steps."""
    def cumsum(row):
        out, s = [], 0.0
        for v in row:
            s = f32(s + v)
            out.append(s)
        return out

    def sort(row, descending):
        order = sorted(range(len(row)),
                       key=(lambda k: -row[k]) if descending
                       else (lambda k: row[k]))
        return [row[k] for k in order], order

    x = [float_input(i, 0) for i in range(rows * cols)]
    outs = [[], [], [], []]
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        c = cumsum(row)
        values, order = sort(row, descending=True)
        outs[0] += c
        outs[1] += values
        outs[2] += order
        outs[3].append(max(c))
    for cols, fn in ((1500, "sort"), (1300, "cumsum")):
        x = [float_input(i, 0) for i in range(2 * cols)]
        rows_out = [[], []]
        for r in range(2):
            row = x[r * cols:(r + 1) * cols]
            if fn == "sort":
                values, order = sort(row, descending=False)
                rows_out[0] += values
                rows_out[1] += order
            else:
                rows_out[0] += cumsum(row)
        outs += [o for o in rows_out if o]
    for out in outs:
        print_memref(out)


if __name__ == "__main__":
    {"opaque": opaque, "asserts": asserts, "bucketize": bucketize,
     "store_modes": store_modes,
     "polynomials": polynomials,
     "gamma": gamma, "sorts": sorts, "sort_nan": sort_nan, "scans": scans,
     "cumext": cumext, "intscan": intscan, "scan_jit": scan_jit,
     "rows_in_memory": rows_in_memory}[sys.argv[1]](
         *[int(a) for a in sys.argv[2:]])
