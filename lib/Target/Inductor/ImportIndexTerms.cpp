//===- ImportIndexTerms.cpp - Non-affine parts of indices -----------------===//
//
// An index term (`Abs(p0 - 4)`, `Min(p0, 7)`, `p0*p1`, `TruncToInt(...)`)
// is computed in the loop body where the index is used: integer terms in
// `index`, float ones in f64 as sympy computes them, and bound to a map
// symbol. Dependence analysis sees an unknown symbol there, as for an
// indirect index: the access may touch any element of the buffer.
//
//===----------------------------------------------------------------------===//

#include "CreateOp.h"
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
    return Value(createOp<arith::ConstantOp>(
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
    v = createOp<IndexExprOp>(builder, l, builder.getIndexType(), operands,
                              map);
  }
  if (!asFloat)
    return v;
  Value wide =
      createOp<arith::IndexCastOp>(builder, l, builder.getI64Type(), v);
  return Value(createOp<arith::SIToFPOp>(builder, l, f64, wide));
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
    return createOp<arith::ConstantOp>(b, l, b.getFloatAttr(f64, v));
  };
  auto cstI = [&](int64_t v) -> Value {
    return createOp<arith::ConstantOp>(b, l, b.getIntegerAttr(i64, v));
  };
  using FP = arith::CmpFPredicate;
  Value abs = createOp<math::AbsFOp>(b, l, x);
  Value subnormal =
      createOp<arith::CmpFOp>(b, l, FP::OLT, abs, cstF(0x1p-1022));
  Value timesTwo64 = createOp<arith::MulFOp>(b, l, x, cstF(0x1p64));
  Value scaled = createOp<arith::SelectOp>(b, l, subnormal, timesTwo64, x);
  Value bias1087 = cstI(1023 + 64);
  Value bias = createOp<arith::SelectOp>(b, l, subnormal, bias1087, cstI(1023));
  Value bits = createOp<arith::BitcastOp>(b, l, i64, scaled);
  Value shifted = createOp<arith::ShRUIOp>(b, l, bits, cstI(52));
  Value biased = createOp<arith::AndIOp>(b, l, shifted, cstI(0x7ff));
  Value fraction =
      createOp<arith::AndIOp>(b, l, bits, cstI(0x000fffffffffffffLL));
  Value oneBits =
      createOp<arith::OrIOp>(b, l, fraction, cstI(0x3ff0000000000000LL));
  Value mantissa = createOp<arith::BitcastOp>(b, l, f64, oneBits);
  Value unbiased = createOp<arith::SubIOp>(b, l, biased, bias);
  Value exponent = createOp<arith::SIToFPOp>(b, l, f64, unbiased);
  Value log2Mantissa = createOp<math::Log2Op>(b, l, mantissa);
  Value split = createOp<arith::AddFOp>(b, l, exponent, log2Mantissa);
  // Positive and finite: x > 0 and x < inf (false for NaN).
  Value positive = createOp<arith::CmpFOp>(b, l, FP::OGT, x, cstF(0.0));
  Value finite = createOp<arith::CmpFOp>(
      b, l, FP::OLT, x, cstF(std::numeric_limits<double>::infinity()));
  Value usual = createOp<arith::AndIOp>(b, l, positive, finite);
  Value library = createOp<math::Log2Op>(b, l, x);
  return createOp<arith::SelectOp>(b, l, usual, split, library);
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
    return createOp<arith::ConstantOp>(b, l, b.getFloatAttr(f64, v));
  };
  using FP = arith::CmpFPredicate;
  Value absY = createOp<math::AbsFOp>(b, l, y);
  Value truncY = createOp<math::TruncOp>(b, l, y);
  Value whole = createOp<arith::CmpFOp>(b, l, FP::OEQ, truncY, y);
  Value small = createOp<arith::CmpFOp>(b, l, FP::OLT, absY,
                                        cstF(double(1u << kExponentBits)));
  Value integral = createOp<arith::AndIOp>(b, l, whole, small);
  Value safeY = createOp<arith::SelectOp>(b, l, integral, absY, cstF(0.0));
  Value n = createOp<arith::FPToSIOp>(b, l, i64, safeY);
  Value result = cstF(1.0), power = x;
  for (unsigned i = 0; i < kExponentBits; ++i) {
    Value mask =
        createOp<arith::ConstantOp>(b, l, b.getIntegerAttr(i64, 1 << i));
    Value masked = createOp<arith::AndIOp>(b, l, n, mask);
    Value zero = createOp<arith::ConstantOp>(b, l, b.getIntegerAttr(i64, 0));
    Value set =
        createOp<arith::CmpIOp>(b, l, arith::CmpIPredicate::ne, masked, zero);
    Value times = createOp<arith::MulFOp>(b, l, result, power);
    result = createOp<arith::SelectOp>(b, l, set, times, result);
    if (i + 1 < kExponentBits)
      power = createOp<arith::MulFOp>(b, l, power, power);
  }
  Value negative = createOp<arith::CmpFOp>(b, l, FP::OLT, y, cstF(0.0));
  Value inverse = createOp<arith::DivFOp>(b, l, cstF(1.0), result);
  Value byParts = createOp<arith::SelectOp>(b, l, negative, inverse, result);
  // sqrt(-0) is -0 where pow(-0, 0.5) is +0: adding +0 makes it +0.
  Value half = createOp<arith::CmpFOp>(b, l, FP::OEQ, y, cstF(0.5));
  Value nonNegative = createOp<arith::CmpFOp>(b, l, FP::OGE, x, cstF(0.0));
  Value useSqrt = createOp<arith::AndIOp>(b, l, half, nonNegative);
  Value root = createOp<math::SqrtOp>(b, l, x);
  Value rootPlusZero = createOp<arith::AddFOp>(b, l, root, cstF(0.0));
  Value library = createOp<math::PowFOp>(b, l, x, y);
  Value other = createOp<arith::SelectOp>(b, l, useSqrt, rootPlusZero, library);
  return createOp<arith::SelectOp>(b, l, integral, byParts, other);
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
                      return createOp<math::SqrtOp>(b, l, x);
                    })
              .Case("cos",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::CosOp>(b, l, x);
                    })
              .Case("cosh",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::CoshOp>(b, l, x);
                    })
              .Case("sin",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::SinOp>(b, l, x);
                    })
              .Case("sinh",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::SinhOp>(b, l, x);
                    })
              .Case("tan",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::TanOp>(b, l, x);
                    })
              .Case("tanh",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::TanhOp>(b, l, x);
                    })
              .Case("asin",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::AsinOp>(b, l, x);
                    })
              .Case("acos",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::AcosOp>(b, l, x);
                    })
              .Case("atan",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::AtanOp>(b, l, x);
                    })
              .Case("exp",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::ExpOp>(b, l, x);
                    })
              .Case("log",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::LogOp>(b, l, x);
                    })
              .Case("asinh",
                    [](OpBuilder &b, Location l, Value x) -> Value {
                      return createOp<math::AsinhOp>(b, l, x);
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
    return createOp<arith::ConstantOp>(b, l, b.getIndexAttr(v));
  };
  auto cmp = [&](P p, Value x, Value y) -> Value {
    return createOp<arith::CmpIOp>(b, l, p, x, y);
  };
  Value one = constant(1);
  Value result;
  if (n == 1) {
    result = createOp<arith::OrIOp>(b, l, cmp(P::eq, strides[0], one),
                                    cmp(P::slt, sizes[0], constant(2)));
  } else {
    result = createOp<arith::ConstantOp>(b, l, b.getBoolAttr(true));
    for (unsigned i = 0; i < n; ++i) {
      Value expected = one;
      for (unsigned j = 0; j < n; ++j) {
        if (j == i)
          continue;
        Value before = cmp(j < i ? P::sle : P::slt, strides[j], strides[i]);
        Value counts =
            createOp<arith::AndIOp>(b, l, before, cmp(P::ne, sizes[j], one));
        expected = createOp<arith::MulIOp>(
            b, l, expected,
            createOp<arith::SelectOp>(b, l, counts, sizes[j], one));
      }
      Value ok = createOp<arith::OrIOp>(b, l, cmp(P::eq, sizes[i], one),
                                        cmp(P::eq, strides[i], expected));
      result = createOp<arith::AndIOp>(b, l, result, ok);
    }
  }
  return createOp<arith::IndexCastUIOp>(b, l, b.getIndexType(), result);
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
    Value i = createOp<arith::FPToSIOp>(builder, l, i64, f);
    return createOp<arith::IndexCastOp>(builder, l, indexType, i);
  };
  auto boolToIndex = [&](Value b) -> Value {
    return createOp<arith::IndexCastUIOp>(builder, l, indexType, b);
  };
  auto isTrue = [&](Value v) -> Value {
    return createOp<arith::CmpIOp>(
        builder, l, arith::CmpIPredicate::ne, v,
        createOp<arith::ConstantOp>(builder, l, builder.getIndexAttr(0)));
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
      return Value(createOp<arith::AddFOp>(builder, l, a, b));
    if (fn == "-")
      return Value(createOp<arith::SubFOp>(builder, l, a, b));
    if (fn == "*")
      return Value(createOp<arith::MulFOp>(builder, l, a, b));
    if (fn == "/" || fn == "FloatTrueDiv" || fn == "IntTrueDiv")
      return Value(createOp<arith::DivFOp>(builder, l, a, b));
    if (fn == "//")
      return Value(createOp<math::FloorOp>(
          builder, l, createOp<arith::DivFOp>(builder, l, a, b)));
    if (fn == "%")
      return buildPythonMod(builder, l, a, b);
    if (fn == "FloatPow")
      return buildIndexPow(builder, l, a, b);
    if (fn == "ToFloat")
      return a;
    if (fn == "TruncToFloat")
      return Value(createOp<math::TruncOp>(builder, l, a));
    if (fn == "RoundDecimal") {
      // round(x * 10^n) / 10^n, rounding half to even.
      Value n = createOp<arith::SIToFPOp>(
          builder, l, builder.getF64Type(),
          createOp<arith::IndexCastOp>(builder, l, i64, b));
      Value ten = createOp<arith::ConstantOp>(builder, l,
                                              builder.getF64FloatAttr(10.0));
      Value scale = createOp<math::PowFOp>(builder, l, ten, n);
      Value r = createOp<math::RoundEvenOp>(
          builder, l, createOp<arith::MulFOp>(builder, l, a, scale));
      return Value(createOp<arith::DivFOp>(builder, l, r, scale));
    }
    if (fn.starts_with("OpaqueUnaryFn_"))
      return opaqueUnary(builder, l, fn, a);
    if (fn == "Abs")
      return Value(createOp<math::AbsFOp>(builder, l, a));
    if (fn == "Min")
      return fold([&](Value x, Value y) -> Value {
        return createOp<arith::MinimumFOp>(builder, l, x, y);
      });
    if (fn == "Max")
      return fold([&](Value x, Value y) -> Value {
        return createOp<arith::MaximumFOp>(builder, l, x, y);
      });
    if (fn == "Where")
      return Value(
          createOp<arith::SelectOp>(builder, l, isTrue(a), args[1], args[2]));
    if (fn == "TruncToInt")
      return toIndex(createOp<math::TruncOp>(builder, l, a));
    if (fn == "FloorToInt" || fn == "floor")
      return toIndex(createOp<math::FloorOp>(builder, l, a));
    if (fn == "CeilToInt" || fn == "ceiling")
      return toIndex(createOp<math::CeilOp>(builder, l, a));
    if (fn == "RoundToInt")
      return toIndex(createOp<math::RoundEvenOp>(builder, l, a));
    auto pred = llvm::StringSwitch<std::optional<arith::CmpFPredicate>>(fn)
                    .Case("<", arith::CmpFPredicate::OLT)
                    .Case("<=", arith::CmpFPredicate::OLE)
                    .Case(">", arith::CmpFPredicate::OGT)
                    .Case(">=", arith::CmpFPredicate::OGE)
                    .Cases({"==", "Eq"}, arith::CmpFPredicate::OEQ)
                    .Cases({"!=", "Ne"}, arith::CmpFPredicate::UNE)
                    .Default(std::nullopt);
    if (pred)
      return boolToIndex(createOp<arith::CmpFOp>(builder, l, *pred, a, b));
    return error(term.loc) << "'" << fn
                           << "' does not take float arguments in an index";
  }

  Value a = args[0], b = args.size() > 1 ? args[1] : Value();
  if (fn == "*")
    return Value(createOp<arith::MulIOp>(builder, l, a, b));
  if (fn == "//")
    return Value(createOp<arith::FloorDivSIOp>(builder, l, a, b));
  if (fn == "%")
    return buildPythonMod(builder, l, a, b);
  if (fn == "CeilDiv")
    return Value(createOp<arith::CeilDivSIOp>(builder, l, a, b));
  if (fn == "PowByNatural") {
    // A constant exponent (the common p**2) multiplies: math.ipowi has no
    // lowering in the pipelines.
    std::optional<int64_t> exponent;
    if (auto c = dyn_cast<AffineConstantExpr>(term.args[1].affine))
      exponent = c.getValue();
    if (exponent && *exponent >= 0 && *exponent <= 64) {
      Value result =
          createOp<arith::ConstantOp>(builder, l, builder.getIndexAttr(1));
      for (int64_t k = 0; k < *exponent; ++k)
        result = createOp<arith::MulIOp>(builder, l, result, a);
      return result;
    }
    Value base = createOp<arith::IndexCastOp>(builder, l, i64, a);
    Value exp = createOp<arith::IndexCastOp>(builder, l, i64, b);
    Value p = createOp<math::IPowIOp>(builder, l, base, exp);
    return Value(createOp<arith::IndexCastOp>(builder, l, indexType, p));
  }
  if (fn == "Abs") {
    Value zero =
        createOp<arith::ConstantOp>(builder, l, builder.getIndexAttr(0));
    Value neg =
        createOp<arith::CmpIOp>(builder, l, arith::CmpIPredicate::slt, a, zero);
    return Value(createOp<arith::SelectOp>(
        builder, l, neg, createOp<arith::SubIOp>(builder, l, zero, a), a));
  }
  if (fn == "Min")
    return fold([&](Value x, Value y) -> Value {
      return createOp<arith::MinSIOp>(builder, l, x, y);
    });
  if (fn == "Max")
    return fold([&](Value x, Value y) -> Value {
      return createOp<arith::MaxSIOp>(builder, l, x, y);
    });
  if (fn == "Where")
    return Value(
        createOp<arith::SelectOp>(builder, l, isTrue(a), args[1], args[2]));
  if (fn == "BitwiseFn_bitwise_and" || fn == "And")
    return fold([&](Value x, Value y) -> Value {
      return createOp<arith::AndIOp>(builder, l, x, y);
    });
  if (fn == "BitwiseFn_bitwise_or" || fn == "Or")
    return fold([&](Value x, Value y) -> Value {
      return createOp<arith::OrIOp>(builder, l, x, y);
    });
  if (fn == "Not") {
    Value zero =
        createOp<arith::ConstantOp>(builder, l, builder.getIndexAttr(0));
    return boolToIndex(
        createOp<arith::CmpIOp>(builder, l, arith::CmpIPredicate::eq, a, zero));
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
    return Value(createOp<arith::ShLIOp>(builder, l, a, b));
  if (fn == "RShift")
    return Value(createOp<arith::ShRSIOp>(builder, l, a, b));
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
    return boolToIndex(createOp<arith::CmpIOp>(builder, l, *pred, a, b));
  return error(term.loc) << "unsupported function '" << fn
                         << "' in the index expression";
}
