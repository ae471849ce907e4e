//===- Polynomials.cpp - PyTorch's orthogonal polynomials -----------------===//
//
// torch.special's Chebyshev (T, U, V, W, and the shifted ones), Hermite (H,
// He), Laguerre and Legendre polynomials as ATen computes them (`*_polynomial_*_forward` in
// aten/src/ATen/native/Math.h): the degree is the second operand converted
// to int64; negative degrees give 0; the special cases at |x| = 1 (and
// x = 0 for Laguerre), the trigonometric forms ATen takes for high degrees
// inside (-1, 1), then the three-term recurrence, as an scf.for that runs
// no iteration when another case applies.
//
//===----------------------------------------------------------------------===//

#include "ScalarOpsImpl.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

namespace {
/// The polynomials, in the order of kPolynomials.
enum class Poly { T, U, V, W, H, He, L, P };

struct PolynomialRow {
  StringRef name;
  Poly poly;
  /// The shifted Chebyshev kinds: the kind at 2x - 1, with ATen's own
  /// special cases (x = 1, x = 0) and thresholds.
  bool shifted = false;
};

/// One degree's evaluation: x, the degree n (i64) and its float value.
struct PolyEval {
  ScalarOpContext &ctx;
  FloatMath f;
  Value x, n, nf;

  Value ci(int64_t v) const {
    return createIntConstant(f.b, f.loc, n.getType(), v);
  }
  Value icmp(arith::CmpIPredicate pred, Value a, Value c) const {
    return arith::CmpIOp::create(f.b, f.loc, pred, a, c);
  }
  Value nEq(int64_t v) const { return icmp(arith::CmpIPredicate::eq, n, ci(v)); }
  Value nGt(int64_t v) const { return icmp(arith::CmpIPredicate::sgt, n, ci(v)); }
  Value nEven() const {
    Value rem = arith::RemSIOp::create(f.b, f.loc, n, ci(2));
    return icmp(arith::CmpIPredicate::eq, rem, ci(0));
  }
  Value both(Value a, Value c) const {
    return arith::AndIOp::create(f.b, f.loc, a, c);
  }
  Value either(Value a, Value c) const {
    return arith::OrIOp::create(f.b, f.loc, a, c);
  }
  Value acos(Value v) const { return math::AcosOp::create(f.b, f.loc, v); }
  Value cos(Value v) const { return math::CosOp::create(f.b, f.loc, v); }
  Value sin(Value v) const { return math::SinOp::create(f.b, f.loc, v); }
  Value une(Value a, Value c) const {
    return arith::CmpFOp::create(f.b, f.loc, arith::CmpFPredicate::UNE, a, c);
  }

  /// q_{k+1} = step(k, p, q) for k in [first, last) by `stride`, from
  /// (p, q); the last q. Runs no iteration unless `run`.
  Value recurrence(
      Value p, Value q, int64_t first, Value last, int64_t stride, Value run,
      function_ref<Value(const FloatMath &, Value k, Value p, Value q)> step)
      const {
    OpBuilder &b = f.b;
    Location loc = f.loc;
    Type index = b.getIndexType();
    Value lo = createIntConstant(b, loc, index, first);
    Value hi = arith::IndexCastOp::create(b, loc, index, last);
    hi = arith::SelectOp::create(b, loc, run,
                                 arith::MaxSIOp::create(b, loc, hi, lo), lo);
    Value st = createIntConstant(b, loc, index, stride);
    auto loop = scf::ForOp::create(
        b, loc, lo, hi, st, ValueRange{p, q},
        [&](OpBuilder &lb, Location l, Value iv, ValueRange args) {
          FloatMath lf{lb, l, f.type};
          Value k64 = arith::IndexCastOp::create(lb, l, lb.getI64Type(), iv);
          Value k = arith::SIToFPOp::create(lb, l, f.type, k64);
          Value r = step(lf, k, args[0], args[1]);
          scf::YieldOp::create(lb, l, ValueRange{args[1], r});
        });
    return loop.getResult(1);
  }
};
} // namespace

static const PolynomialRow kPolynomials[] = {
    {"chebyshev_polynomial_t", Poly::T},  {"chebyshev_polynomial_u", Poly::U},
    {"chebyshev_polynomial_v", Poly::V},  {"chebyshev_polynomial_w", Poly::W},
    {"hermite_polynomial_h", Poly::H},    {"hermite_polynomial_he", Poly::He},
    {"laguerre_polynomial_l", Poly::L},   {"legendre_polynomial_p", Poly::P},
    {"shifted_chebyshev_polynomial_t", Poly::T, true},
    {"shifted_chebyshev_polynomial_u", Poly::U, true},
    {"shifted_chebyshev_polynomial_v", Poly::V, true},
    {"shifted_chebyshev_polynomial_w", Poly::W, true},
};

/// The polynomial of one family at (x, n).
static Value emitPolynomialOf(PolyEval &e, Poly poly, bool shifted) {
  FloatMath &f = e.f;
  Value one = f.c(1.0), two = f.c(2.0), zero = f.c(0.0);
  // The shifted kinds evaluate the kind at 2x - 1, their edges at x = 1
  // and x = 0 (where 2x - 1 is +-1).
  Value x = shifted ? f.sub(f.add(e.x, e.x), one) : e.x;
  Value x2 = f.add(x, x);
  Value absX = f.abs(x);
  Value xPositive = shifted ? f.eq(e.x, one) : f.lt(zero, x);
  Value atEdge = shifted ? e.either(f.eq(e.x, one), f.eq(e.x, zero))
                         : f.eq(absX, one);
  // Degrees above which ATen takes the trigonometric form.
  int64_t trigAbove = shifted ? (poly == Poly::W ? 4 : 6)
                              : (poly == Poly::T ? 6 : 8);
  Value nPlus1 = f.add(e.nf, one);
  Value twoNPlus1 = f.add(f.add(e.nf, e.nf), one);
  Value signN = f.select(e.nEven(), one, f.c(-1.0));
  Value edge, trig, useTrig, first, loop, atOne;
  Value noCase; // i1: no special case applies, so the recurrence runs
  switch (poly) {
  case Poly::T: {
    atOne = atEdge;
    edge = f.select(e.either(xPositive, e.nEven()), one, f.c(-1.0));
    useTrig = e.both(e.nGt(trigAbove), f.lt(absX, one));
    trig = e.cos(f.mul(e.nf, e.acos(x)));
    first = x;
    break;
  }
  case Poly::U: {
    atOne = atEdge;
    edge = f.select(e.either(xPositive, e.nEven()), nPlus1, f.neg(nPlus1));
    useTrig = e.both(e.nGt(trigAbove), f.lt(absX, one));
    Value theta = e.acos(x);
    Value s = e.sin(theta);
    trig = f.select(e.une(s, zero),
                    f.div(e.sin(f.mul(nPlus1, theta)), s),
                    f.div(f.mul(nPlus1, e.cos(f.mul(nPlus1, theta))), x));
    first = x2;
    break;
  }
  case Poly::V: {
    atOne = atEdge;
    edge = f.select(xPositive, one, f.mul(signN, twoNPlus1));
    useTrig = e.both(e.nGt(trigAbove), f.lt(absX, one));
    Value theta = e.acos(x);
    Value half = f.div(theta, two);
    trig = f.select(e.une(e.sin(half), one),
                    f.div(e.cos(f.mul(f.add(e.nf, f.c(0.5)), theta)),
                          e.cos(half)),
                    f.mul(signN, twoNPlus1));
    first = f.sub(x2, one);
    break;
  }
  case Poly::W: {
    atOne = atEdge;
    edge = f.select(xPositive, twoNPlus1, signN);
    useTrig = e.both(e.nGt(trigAbove), f.lt(absX, one));
    Value theta = e.acos(x);
    Value half = f.div(theta, two);
    trig = f.select(e.une(e.cos(half), one),
                    f.div(e.sin(f.mul(f.add(e.nf, f.c(0.5)), theta)),
                          e.sin(half)),
                    shifted ? signN : f.select(xPositive, twoNPlus1, signN));
    first = f.add(x2, one);
    break;
  }
  case Poly::H:
    first = x2;
    break;
  case Poly::He:
    first = x;
    break;
  case Poly::L:
    atOne = f.eq(absX, zero);
    edge = one;
    first = f.sub(one, x);
    break;
  case Poly::P:
    atOne = atEdge;
    edge = f.select(e.either(xPositive, e.nEven()), one, f.c(-1.0));
    first = x;
    break;
  }
  // Whether the recurrence's value is the result.
  noCase = e.nGt(1);
  if (atOne)
    noCase = e.both(noCase, arith::XOrIOp::create(
                                f.b, f.loc, atOne,
                                createIntConstant(f.b, f.loc, f.b.getI1Type(), 1)));
  if (useTrig)
    noCase = e.both(noCase, arith::XOrIOp::create(
                                f.b, f.loc, useTrig,
                                createIntConstant(f.b, f.loc, f.b.getI1Type(), 1)));
  switch (poly) {
  case Poly::T:
  case Poly::U:
  case Poly::V:
  case Poly::W:
    // k = 2 .. n.
    loop = e.recurrence(one, first, 2, arith::AddIOp::create(f.b, f.loc, e.n, e.ci(1)),
                        1, noCase,
                        [&](const FloatMath &g, Value, Value p, Value q) {
                          return g.sub(g.mul(x2, q), p);
                        });
    break;
  case Poly::H:
    // k = 2, 4, .. < 2n: r = 2x q - k p.
    loop = e.recurrence(one, first, 2, arith::AddIOp::create(f.b, f.loc, e.n, e.n),
                        2, noCase,
                        [&](const FloatMath &g, Value k, Value p, Value q) {
                          return g.sub(g.mul(x2, q), g.mul(k, p));
                        });
    break;
  case Poly::He:
    // k = 1 .. n - 1: r = x q - k p.
    loop = e.recurrence(one, first, 1, e.n, 1, noCase,
                        [&](const FloatMath &g, Value k, Value p, Value q) {
                          return g.sub(g.mul(x, q), g.mul(k, p));
                        });
    break;
  case Poly::L:
    // r = ((2k + (1 - x)) q - k p) / (k + 1).
    loop = e.recurrence(one, first, 1, e.n, 1, noCase,
                        [&](const FloatMath &g, Value k, Value p, Value q) {
                          Value a = g.add(g.add(k, k), g.sub(one, x));
                          return g.div(g.sub(g.mul(a, q), g.mul(k, p)),
                                       g.add(k, one));
                        });
    break;
  case Poly::P:
    // r = ((2k + 1) x q - k p) / (k + 1).
    loop = e.recurrence(one, first, 1, e.n, 1, noCase,
                        [&](const FloatMath &g, Value k, Value p, Value q) {
                          Value a = g.mul(g.add(g.add(k, k), one), x);
                          return g.div(g.sub(g.mul(a, q), g.mul(k, p)),
                                       g.add(k, one));
                        });
    break;
  }
  // The cases in ATen's order, the first that applies winning.
  Value v = loop;
  v = f.select(e.nEq(1), first, v);
  v = f.select(e.nEq(0), one, v);
  if (useTrig)
    v = f.select(useTrig, trig, v);
  if (atOne)
    v = f.select(atOne, edge, v);
  return f.select(e.icmp(arith::CmpIPredicate::slt, e.n, e.ci(0)), zero, v);
}

FailureOr<SmallVector<Value>> codegen::emitPolynomial(ScalarOpContext &ctx) {
  const PolynomialRow *row = nullptr;
  for (const PolynomialRow &r : kPolynomials)
    if (r.name == ctx.name)
      row = &r;
  if (!row || ctx.operands.size() != 2 || ctx.op->getNumResults() != 1 ||
      !isa<FloatType>(ctx.op->getResult(0).getType()))
    return ctx.op->emitOpError("'")
           << ctx.name << "' takes x and a degree and has one float result";
  Type resultType = ctx.op->getResult(0).getType();
  Type type = resultType.isF64() ? resultType : Type(ctx.b.getF32Type());
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = emitTorchCast(b, loc, ctx.operands[0], type);
  // static_cast<int64_t>(n) (a float degree truncates).
  Value n = emitTorchCast(b, loc, ctx.operands[1], b.getI64Type());
  Value nf = arith::SIToFPOp::create(b, loc, type, n);
  PolyEval e{ctx, FloatMath{b, loc, type}, x, n, nf};
  return SmallVector<Value>{
      emitTorchCast(b, loc, emitPolynomialOf(e, row->poly, row->shifted),
                    resultType)};
}
