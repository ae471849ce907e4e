//===- ImportIndexTerms.cpp - Non-affine parts of indices -----------------===//
//
// An index term (`Abs(p0 - 4)`, `Min(p0, 7)`, `p0*p1`, `TruncToInt(...)`)
// is computed in the loop body where the index is used: integer terms in
// `index`, float ones in f64 as sympy computes them, and bound to a map
// symbol. Dependence analysis sees an unknown symbol there, as for an
// indirect index: the access may touch any element of the buffer.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

FailureOr<Value> BodyImporter::termOperand(ArrayRef<IndexTerm> terms,
                                           const IndexOperand &operand,
                                           bool asFloat, const char *at) {
  Location l = loc(at);
  Type f64 = builder.getF64Type();
  if (operand.floatLiteral)
    return Value(arith::ConstantOp::create(
        builder, l, builder.getFloatAttr(f64, *operand.floatLiteral)));
  if (operand.isFloat())
    return termValue(terms, operand.floatTerm);
  Value v;
  auto symbol = dyn_cast<AffineSymbolExpr>(operand.affine);
  if (symbol && symbol.getPosition() >= kIndexTermSymbolBase) {
    // Another term, used as it is.
    FailureOr<Value> t =
        termValue(terms, symbol.getPosition() - kIndexTermSymbolBase);
    if (failed(t))
      return failure();
    v = *t;
  } else {
    AffineMap map;
    SmallVector<Value> operands;
    if (failed(buildMap(operand.affine, terms, at, map, operands)))
      return failure();
    v = IndexExprOp::create(builder, l, builder.getIndexType(), operands, map);
  }
  if (!asFloat)
    return v;
  Value wide = arith::IndexCastOp::create(builder, l, builder.getI64Type(), v);
  return Value(arith::SIToFPOp::create(builder, l, f64, wide));
}

/// log2 of an f64 as sympy computes it (Python's math.log2, exact at powers
/// of two): x = m * 2^e with m in [1, 2), log2(x) = e + log2(m). A library
/// log2 computing ln(x) * log2(e) is not exact there: libdevice's f64
/// `__nv_log2` gives 2.9999999999999996 at 8, which `TruncToInt` makes 2.
/// Subnormals are scaled by 2^64 first; zero, negatives, infinities and
/// NaN take the library's log2 (-inf, NaN, inf, NaN).
static Value buildIndexLog2(OpBuilder &b, Location l, Value x) {
  // Ops are built one statement each, so that their order in the IR does
  // not depend on the compiler's order of evaluating arguments.
  Type f64 = b.getF64Type(), i64 = b.getI64Type();
  auto cstF = [&](double v) -> Value {
    return arith::ConstantOp::create(b, l, b.getFloatAttr(f64, v));
  };
  auto cstI = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, l, b.getIntegerAttr(i64, v));
  };
  using FP = arith::CmpFPredicate;
  Value abs = math::AbsFOp::create(b, l, x);
  Value subnormal = arith::CmpFOp::create(b, l, FP::OLT, abs, cstF(0x1p-1022));
  Value timesTwo64 = arith::MulFOp::create(b, l, x, cstF(0x1p64));
  Value scaled = arith::SelectOp::create(b, l, subnormal, timesTwo64, x);
  Value bias1087 = cstI(1023 + 64);
  Value bias = arith::SelectOp::create(b, l, subnormal, bias1087, cstI(1023));
  Value bits = arith::BitcastOp::create(b, l, i64, scaled);
  Value shifted = arith::ShRUIOp::create(b, l, bits, cstI(52));
  Value biased = arith::AndIOp::create(b, l, shifted, cstI(0x7ff));
  Value fraction =
      arith::AndIOp::create(b, l, bits, cstI(0x000fffffffffffffLL));
  Value oneBits =
      arith::OrIOp::create(b, l, fraction, cstI(0x3ff0000000000000LL));
  Value mantissa = arith::BitcastOp::create(b, l, f64, oneBits);
  Value unbiased = arith::SubIOp::create(b, l, biased, bias);
  Value exponent = arith::SIToFPOp::create(b, l, f64, unbiased);
  Value log2Mantissa = math::Log2Op::create(b, l, mantissa);
  Value split = arith::AddFOp::create(b, l, exponent, log2Mantissa);
  // Positive and finite: x > 0 and x < inf (false for NaN).
  Value positive = arith::CmpFOp::create(b, l, FP::OGT, x, cstF(0.0));
  Value finite = arith::CmpFOp::create(
      b, l, FP::OLT, x, cstF(std::numeric_limits<double>::infinity()));
  Value usual = arith::AndIOp::create(b, l, positive, finite);
  Value library = math::Log2Op::create(b, l, x);
  return arith::SelectOp::create(b, l, usual, split, library);
}

/// FloatPow(x, y) as Python's float ** computes it where its result is
/// exact: an integral exponent (|y| < 2^10) by square and multiply over the
/// bits of |y| (exact while the result is, as C's pow is; 1 / x^|y| for a
/// negative one), y = 0.5 as sqrt(x) for x >= 0, others the library's pow.
/// libdevice's f64 pow is not exact there: on an H100 pow(3, 1) and
/// pow(9, 0.5) gave 2.9999999999999996 and pow(2, -9) * 1024 less than 2,
/// which FloorToInt and TruncToInt turn into the integer below.
static Value buildIndexPow(OpBuilder &b, Location l, Value x, Value y) {
  constexpr unsigned kExponentBits = 10;
  Type f64 = b.getF64Type(), i64 = b.getI64Type();
  auto cstF = [&](double v) -> Value {
    return arith::ConstantOp::create(b, l, b.getFloatAttr(f64, v));
  };
  using FP = arith::CmpFPredicate;
  Value absY = math::AbsFOp::create(b, l, y);
  Value truncY = math::TruncOp::create(b, l, y);
  Value whole = arith::CmpFOp::create(b, l, FP::OEQ, truncY, y);
  Value small = arith::CmpFOp::create(b, l, FP::OLT, absY,
                                      cstF(double(1u << kExponentBits)));
  Value integral = arith::AndIOp::create(b, l, whole, small);
  Value safeY = arith::SelectOp::create(b, l, integral, absY, cstF(0.0));
  Value n = arith::FPToSIOp::create(b, l, i64, safeY);
  Value result = cstF(1.0), power = x;
  for (unsigned i = 0; i < kExponentBits; ++i) {
    Value mask = arith::ConstantOp::create(b, l, b.getIntegerAttr(i64, 1 << i));
    Value masked = arith::AndIOp::create(b, l, n, mask);
    Value zero = arith::ConstantOp::create(b, l, b.getIntegerAttr(i64, 0));
    Value set =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, masked, zero);
    Value times = arith::MulFOp::create(b, l, result, power);
    result = arith::SelectOp::create(b, l, set, times, result);
    if (i + 1 < kExponentBits)
      power = arith::MulFOp::create(b, l, power, power);
  }
  Value negative = arith::CmpFOp::create(b, l, FP::OLT, y, cstF(0.0));
  Value inverse = arith::DivFOp::create(b, l, cstF(1.0), result);
  Value byParts = arith::SelectOp::create(b, l, negative, inverse, result);
  // sqrt(-0) is -0 where pow(-0, 0.5) is +0: adding +0 makes it +0.
  Value half = arith::CmpFOp::create(b, l, FP::OEQ, y, cstF(0.5));
  Value nonNegative = arith::CmpFOp::create(b, l, FP::OGE, x, cstF(0.0));
  Value useSqrt = arith::AndIOp::create(b, l, half, nonNegative);
  Value root = math::SqrtOp::create(b, l, x);
  Value rootPlusZero = arith::AddFOp::create(b, l, root, cstF(0.0));
  Value library = math::PowFOp::create(b, l, x, y);
  Value other = arith::SelectOp::create(b, l, useSqrt, rootPlusZero, library);
  return arith::SelectOp::create(b, l, integral, byParts, other);
}

/// The math op of `OpaqueUnaryFn_<name>` on f64.
static Value opaqueUnary(OpBuilder &b, Location l, StringRef name, Value x) {
  name.consume_front("OpaqueUnaryFn_");
  if (name == "log2")
    return buildIndexLog2(b, l, x);
  using Fn = Value (*)(OpBuilder &, Location, Value);
  Fn fn = llvm::StringSwitch<Fn>(name)
              .Case("sqrt",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::SqrtOp::create(b, l, x);
                    })
              .Case("cos",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::CosOp::create(b, l, x);
                    })
              .Case("cosh",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::CoshOp::create(b, l, x);
                    })
              .Case("sin",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::SinOp::create(b, l, x);
                    })
              .Case("sinh",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::SinhOp::create(b, l, x);
                    })
              .Case("tan",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::TanOp::create(b, l, x);
                    })
              .Case("tanh",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::TanhOp::create(b, l, x);
                    })
              .Case("asin",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::AsinOp::create(b, l, x);
                    })
              .Case("acos",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::AcosOp::create(b, l, x);
                    })
              .Case("atan",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::AtanOp::create(b, l, x);
                    })
              .Case("exp",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::ExpOp::create(b, l, x);
                    })
              .Case("log",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::LogOp::create(b, l, x);
                    })
              .Case("asinh",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return math::AsinhOp::create(b, l, x);
                    })
              .Default(nullptr);
  assert(fn && "the parser admits only these OpaqueUnaryFn names");
  return fn(b, l, x);
}

/// torch's eval_is_non_overlapping_and_dense(sizes, strides) as 0 or 1
/// (IsNonOverlappingAndDenseIndicator, torch/utils/_sympy/functions.py):
/// with the dimensions sorted stably by stride, each one of size other than
/// 1 has the product of the sizes (other than 1) sorted before it as its
/// stride; a single dimension needs stride 1 or a size below 2. Computed
/// without sorting: the dimensions sorted before i are those of smaller
/// stride, or of equal stride and lower position.
static Value isNonOverlappingAndDense(OpBuilder &b, Location l,
                                      ArrayRef<Value> args) {
  using P = arith::CmpIPredicate;
  unsigned n = args.size() / 2;
  ArrayRef<Value> sizes = args.take_front(n), strides = args.drop_front(n);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, l, b.getIndexAttr(v));
  };
  auto cmp = [&](P p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, l, p, x, y);
  };
  Value one = constant(1);
  Value result;
  if (n == 1) {
    result = arith::OrIOp::create(b, l, cmp(P::eq, strides[0], one),
                                  cmp(P::slt, sizes[0], constant(2)));
  } else {
    result = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
    for (unsigned i = 0; i < n; ++i) {
      Value expected = one;
      for (unsigned j = 0; j < n; ++j) {
        if (j == i)
          continue;
        Value before = cmp(j < i ? P::sle : P::slt, strides[j], strides[i]);
        Value counts =
            arith::AndIOp::create(b, l, before, cmp(P::ne, sizes[j], one));
        expected = arith::MulIOp::create(
            b, l, expected,
            arith::SelectOp::create(b, l, counts, sizes[j], one));
      }
      Value ok = arith::OrIOp::create(b, l, cmp(P::eq, sizes[i], one),
                                      cmp(P::eq, strides[i], expected));
      result = arith::AndIOp::create(b, l, result, ok);
    }
  }
  return arith::IndexCastUIOp::create(b, l, b.getIndexType(), result);
}

FailureOr<Value> BodyImporter::termValue(ArrayRef<IndexTerm> terms,
                                         unsigned t) {
  const IndexTerm &term = terms[t];
  Location l = loc(term.loc);
  StringRef fn = term.fn;
  // Float-valued functions, and functions of float arguments (rounding to
  // integers), take f64 operands.
  bool floatArgs =
      term.isFloat || llvm::any_of(term.args, [](const IndexOperand &o) {
        return o.isFloat();
      });
  if (fn == "Where")
    floatArgs = term.isFloat;
  SmallVector<Value, 3> args;
  for (auto [i, arg] : llvm::enumerate(term.args)) {
    bool asFloat = floatArgs && !(fn == "Where" && i == 0) &&
                   !(fn == "RoundDecimal" && i == 1);
    FailureOr<Value> v = termOperand(terms, arg, asFloat, term.loc);
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  Type indexType = builder.getIndexType();
  Type i64 = builder.getI64Type();
  auto toIndex = [&](Value f) -> Value {
    Value i = arith::FPToSIOp::create(builder, l, i64, f);
    return arith::IndexCastOp::create(builder, l, indexType, i);
  };
  auto boolToIndex = [&](Value b) -> Value {
    return arith::IndexCastUIOp::create(builder, l, indexType, b);
  };
  auto isTrue = [&](Value v) -> Value {
    return arith::CmpIOp::create(
        builder, l, arith::CmpIPredicate::ne, v,
        arith::ConstantOp::create(builder, l, builder.getIndexAttr(0)));
  };
  auto fold = [&](auto create) {
    Value acc = args[0];
    for (Value v : ArrayRef(args).drop_front())
      acc = create(acc, v);
    return acc;
  };

  if (floatArgs) {
    Value a = args[0], b = args.size() > 1 ? args[1] : Value();
    if (fn == "+")
      return Value(arith::AddFOp::create(builder, l, a, b));
    if (fn == "-")
      return Value(arith::SubFOp::create(builder, l, a, b));
    if (fn == "*")
      return Value(arith::MulFOp::create(builder, l, a, b));
    if (fn == "/" || fn == "FloatTrueDiv" || fn == "IntTrueDiv")
      return Value(arith::DivFOp::create(builder, l, a, b));
    if (fn == "//")
      return Value(math::FloorOp::create(
          builder, l, arith::DivFOp::create(builder, l, a, b)));
    if (fn == "%")
      return buildPythonMod(builder, l, a, b);
    if (fn == "FloatPow")
      return buildIndexPow(builder, l, a, b);
    if (fn == "ToFloat")
      return a;
    if (fn == "TruncToFloat")
      return Value(math::TruncOp::create(builder, l, a));
    if (fn == "RoundDecimal") {
      // round(x * 10^n) / 10^n, rounding half to even.
      Value n = arith::SIToFPOp::create(
          builder, l, builder.getF64Type(),
          arith::IndexCastOp::create(builder, l, i64, b));
      Value ten =
          arith::ConstantOp::create(builder, l, builder.getF64FloatAttr(10.0));
      Value scale = math::PowFOp::create(builder, l, ten, n);
      Value r = math::RoundEvenOp::create(
          builder, l, arith::MulFOp::create(builder, l, a, scale));
      return Value(arith::DivFOp::create(builder, l, r, scale));
    }
    if (fn.starts_with("OpaqueUnaryFn_"))
      return opaqueUnary(builder, l, fn, a);
    if (fn == "Abs")
      return Value(math::AbsFOp::create(builder, l, a));
    if (fn == "Min")
      return fold([&](Value x, Value y) -> Value {
        return arith::MinimumFOp::create(builder, l, x, y);
      });
    if (fn == "Max")
      return fold([&](Value x, Value y) -> Value {
        return arith::MaximumFOp::create(builder, l, x, y);
      });
    if (fn == "Where")
      return Value(
          arith::SelectOp::create(builder, l, isTrue(a), args[1], args[2]));
    if (fn == "TruncToInt")
      return toIndex(math::TruncOp::create(builder, l, a));
    if (fn == "FloorToInt" || fn == "floor")
      return toIndex(math::FloorOp::create(builder, l, a));
    if (fn == "CeilToInt" || fn == "ceiling")
      return toIndex(math::CeilOp::create(builder, l, a));
    if (fn == "RoundToInt")
      return toIndex(math::RoundEvenOp::create(builder, l, a));
    auto pred = llvm::StringSwitch<std::optional<arith::CmpFPredicate>>(fn)
                    .Case("<", arith::CmpFPredicate::OLT)
                    .Case("<=", arith::CmpFPredicate::OLE)
                    .Case(">", arith::CmpFPredicate::OGT)
                    .Case(">=", arith::CmpFPredicate::OGE)
                    .Cases({"==", "Eq"}, arith::CmpFPredicate::OEQ)
                    .Cases({"!=", "Ne"}, arith::CmpFPredicate::UNE)
                    .Default(std::nullopt);
    if (pred)
      return boolToIndex(arith::CmpFOp::create(builder, l, *pred, a, b));
    return error(term.loc) << "'" << fn
                           << "' does not take float arguments in an index";
  }

  Value a = args[0], b = args.size() > 1 ? args[1] : Value();
  if (fn == "*")
    return Value(arith::MulIOp::create(builder, l, a, b));
  if (fn == "//")
    return Value(arith::FloorDivSIOp::create(builder, l, a, b));
  if (fn == "%")
    return buildPythonMod(builder, l, a, b);
  if (fn == "CeilDiv")
    return Value(arith::CeilDivSIOp::create(builder, l, a, b));
  if (fn == "PowByNatural") {
    // A constant exponent (the common p**2) multiplies: math.ipowi has no
    // lowering in the pipelines.
    std::optional<int64_t> exponent;
    if (auto c = dyn_cast<AffineConstantExpr>(term.args[1].affine))
      exponent = c.getValue();
    if (exponent && *exponent >= 0 && *exponent <= 64) {
      Value result =
          arith::ConstantOp::create(builder, l, builder.getIndexAttr(1));
      for (int64_t k = 0; k < *exponent; ++k)
        result = arith::MulIOp::create(builder, l, result, a);
      return result;
    }
    Value base = arith::IndexCastOp::create(builder, l, i64, a);
    Value exp = arith::IndexCastOp::create(builder, l, i64, b);
    Value p = math::IPowIOp::create(builder, l, base, exp);
    return Value(arith::IndexCastOp::create(builder, l, indexType, p));
  }
  if (fn == "Abs") {
    Value zero = arith::ConstantOp::create(builder, l, builder.getIndexAttr(0));
    Value neg =
        arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, a, zero);
    return Value(arith::SelectOp::create(
        builder, l, neg, arith::SubIOp::create(builder, l, zero, a), a));
  }
  if (fn == "Min")
    return fold([&](Value x, Value y) -> Value {
      return arith::MinSIOp::create(builder, l, x, y);
    });
  if (fn == "Max")
    return fold([&](Value x, Value y) -> Value {
      return arith::MaxSIOp::create(builder, l, x, y);
    });
  if (fn == "Where")
    return Value(
        arith::SelectOp::create(builder, l, isTrue(a), args[1], args[2]));
  if (fn == "BitwiseFn_bitwise_and" || fn == "And")
    return fold([&](Value x, Value y) -> Value {
      return arith::AndIOp::create(builder, l, x, y);
    });
  if (fn == "BitwiseFn_bitwise_or" || fn == "Or")
    return fold([&](Value x, Value y) -> Value {
      return arith::OrIOp::create(builder, l, x, y);
    });
  if (fn == "Not") {
    Value zero = arith::ConstantOp::create(builder, l, builder.getIndexAttr(0));
    return boolToIndex(
        arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, a, zero));
  }
  if (fn == "IsNonOverlappingAndDenseIndicator") {
    if (args.size() % 2 != 0)
      return error(term.loc)
             << "IsNonOverlappingAndDenseIndicator takes sizes then strides, "
                "an even number of arguments, got "
             << args.size();
    return isNonOverlappingAndDense(builder, l, args);
  }
  if (fn == "LShift")
    return Value(arith::ShLIOp::create(builder, l, a, b));
  if (fn == "RShift")
    return Value(arith::ShRSIOp::create(builder, l, a, b));
  // Rounding an integer is the integer.
  if (fn == "TruncToInt" || fn == "FloorToInt" || fn == "CeilToInt" ||
      fn == "RoundToInt" || fn == "floor" || fn == "ceiling")
    return a;
  auto pred = llvm::StringSwitch<std::optional<arith::CmpIPredicate>>(fn)
                  .Case("<", arith::CmpIPredicate::slt)
                  .Case("<=", arith::CmpIPredicate::sle)
                  .Case(">", arith::CmpIPredicate::sgt)
                  .Case(">=", arith::CmpIPredicate::sge)
                  .Cases({"==", "Eq"}, arith::CmpIPredicate::eq)
                  .Cases({"!=", "Ne"}, arith::CmpIPredicate::ne)
                  .Default(std::nullopt);
  if (pred)
    return boolToIndex(arith::CmpIOp::create(builder, l, *pred, a, b));
  return error(term.loc) << "unsupported function '" << fn
                         << "' in the index expression";
}
