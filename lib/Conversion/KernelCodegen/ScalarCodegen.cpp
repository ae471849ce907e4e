//===- ScalarCodegen.cpp - Scalar semantics of fusion body ops ------------===//

#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

Value codegen::createIntConstant(OpBuilder &b, Location loc, Type type,
                                 int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value codegen::createFloatConstant(OpBuilder &b, Location loc, Type type,
                                   double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

Value codegen::castIntegerLike(OpBuilder &b, Location loc, Value value,
                               Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  if (from.isIndex() || type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, value);
  if (from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(b, loc, type, value);
  return arith::TruncIOp::create(b, loc, type, value);
}

//===----------------------------------------------------------------------===//
// Affine expressions
//===----------------------------------------------------------------------===//

namespace {
/// Inclusive bounds of a (sub)expression, or unknown.
struct Bounds {
  bool known = false;
  int64_t lo = 0, hi = 0;
  static Bounds of(int64_t lo, int64_t hi) { return {true, lo, hi}; }
  bool nonNegative() const { return known && lo >= 0; }
};
} // namespace

/// Multiplies with overflow detection; unknown on overflow.
static Bounds mulBounds(Bounds a, Bounds c) {
  if (!a.known || !c.known)
    return {};
  int64_t p[4];
  if (llvm::MulOverflow(a.lo, c.lo, p[0]) ||
      llvm::MulOverflow(a.lo, c.hi, p[1]) ||
      llvm::MulOverflow(a.hi, c.lo, p[2]) || llvm::MulOverflow(a.hi, c.hi, p[3]))
    return {};
  return Bounds::of(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
}

static Bounds addBounds(Bounds a, Bounds c) {
  int64_t lo, hi;
  if (!a.known || !c.known || llvm::AddOverflow(a.lo, c.lo, lo) ||
      llvm::AddOverflow(a.hi, c.hi, hi))
    return {};
  return Bounds::of(lo, hi);
}

/// Bounds of `expr`, and whether every subexpression has known bounds
/// (folded into `allKnown`), with the widest magnitude seen in `maxAbs`.
static Bounds boundsOf(AffineExpr expr, ArrayRef<int64_t> dimSizes,
                       bool &allKnown, uint64_t &maxAbs) {
  Bounds result;
  switch (expr.getKind()) {
  case AffineExprKind::Constant: {
    int64_t c = cast<AffineConstantExpr>(expr).getValue();
    result = Bounds::of(c, c);
    break;
  }
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    if (pos < dimSizes.size() && dimSizes[pos] > 0)
      result = Bounds::of(0, dimSizes[pos] - 1);
    break;
  }
  case AffineExprKind::SymbolId:
    break;
  default: {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    Bounds l = boundsOf(bin.getLHS(), dimSizes, allKnown, maxAbs);
    Bounds r = boundsOf(bin.getRHS(), dimSizes, allKnown, maxAbs);
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      result = addBounds(l, r);
      break;
    case AffineExprKind::Mul:
      result = mulBounds(l, r);
      break;
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv:
      if (l.known && r.known && r.lo == r.hi && r.lo > 0) {
        auto div = [&](int64_t v) {
          return expr.getKind() == AffineExprKind::FloorDiv
                     ? llvm::divideFloorSigned(v, r.lo)
                     : llvm::divideCeilSigned(v, r.lo);
        };
        result = Bounds::of(div(l.lo), div(l.hi));
      }
      break;
    case AffineExprKind::Mod:
      if (r.known && r.lo == r.hi && r.lo > 0) {
        if (l.nonNegative() && l.hi < r.lo)
          result = l;
        else
          result = Bounds::of(0, r.lo - 1);
      }
      break;
    default:
      break;
    }
    break;
  }
  }
  if (!result.known) {
    allKnown = false;
  } else {
    auto mag = [](int64_t v) {
      return v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    };
    maxAbs = std::max({maxAbs, mag(result.lo), mag(result.hi)});
  }
  return result;
}

AffineExpr codegen::simplifyIndexExpr(AffineExpr expr, unsigned numDims,
                                      unsigned numSymbols) {
  if (!expr.isPureAffine())
    return expr;
  return simplifyAffineExpr(expr, numDims, numSymbols);
}

std::optional<std::pair<int64_t, int64_t>>
codegen::getAffineExprBounds(AffineExpr expr, ArrayRef<int64_t> dimSizes) {
  bool allKnown = true;
  uint64_t maxAbs = 0;
  Bounds b = boundsOf(expr, dimSizes, allKnown, maxAbs);
  if (!allKnown || !b.known)
    return std::nullopt;
  return std::make_pair(b.lo, b.hi);
}

Type codegen::getAffineEvaluationType(MLIRContext *context, AffineExpr expr,
                                      ArrayRef<int64_t> dimSizes) {
  bool allKnown = true;
  uint64_t maxAbs = 0;
  boundsOf(expr, dimSizes, allKnown, maxAbs);
  unsigned width =
      allKnown && maxAbs <= uint64_t(std::numeric_limits<int32_t>::max()) ? 32
                                                                           : 64;
  return IntegerType::get(context, width);
}

namespace {
/// Emits an affine expression bottom-up, tracking bounds so that division
/// and remainder of non-negative values use the cheaper unsigned forms.
struct AffineEmitter {
  OpBuilder &b;
  Location loc;
  ValueRange dims;
  ArrayRef<int64_t> dimSizes;
  ValueRange symbols;
  Type type;

  std::pair<Value, Bounds> emit(AffineExpr expr) {
    switch (expr.getKind()) {
    case AffineExprKind::Constant: {
      int64_t c = cast<AffineConstantExpr>(expr).getValue();
      return {createIntConstant(b, loc, type, c), Bounds::of(c, c)};
    }
    case AffineExprKind::DimId: {
      unsigned pos = cast<AffineDimExpr>(expr).getPosition();
      Bounds bounds;
      if (pos < dimSizes.size() && dimSizes[pos] > 0)
        bounds = Bounds::of(0, dimSizes[pos] - 1);
      return {castIntegerLike(b, loc, dims[pos], type), bounds};
    }
    case AffineExprKind::SymbolId: {
      unsigned pos = cast<AffineSymbolExpr>(expr).getPosition();
      return {castIntegerLike(b, loc, symbols[pos], type), Bounds()};
    }
    default:
      break;
    }
    auto bin = cast<AffineBinaryOpExpr>(expr);
    auto [lhs, lb] = emit(bin.getLHS());
    auto [rhs, rb] = emit(bin.getRHS());
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      return {arith::AddIOp::create(b, loc, lhs, rhs), addBounds(lb, rb)};
    case AffineExprKind::Mul:
      return {arith::MulIOp::create(b, loc, lhs, rhs), mulBounds(lb, rb)};
    case AffineExprKind::FloorDiv: {
      bool positiveDivisor = rb.known && rb.lo > 0;
      if (lb.nonNegative() && positiveDivisor) {
        Bounds bounds = rb.lo == rb.hi ? Bounds::of(lb.lo / rb.lo, lb.hi / rb.lo)
                                       : Bounds::of(0, lb.hi);
        return {arith::DivUIOp::create(b, loc, lhs, rhs), bounds};
      }
      return {arith::FloorDivSIOp::create(b, loc, lhs, rhs), Bounds()};
    }
    case AffineExprKind::CeilDiv:
      return {arith::CeilDivSIOp::create(b, loc, lhs, rhs), Bounds()};
    case AffineExprKind::Mod: {
      bool positiveDivisor = rb.known && rb.lo > 0;
      if (lb.nonNegative() && positiveDivisor) {
        if (rb.lo == rb.hi && lb.hi < rb.lo)
          return {lhs, lb};
        return {arith::RemUIOp::create(b, loc, lhs, rhs),
                Bounds::of(0, rb.hi - 1)};
      }
      // Affine `mod` is never negative: add the divisor to a negative
      // remainder.
      Value rem = arith::RemSIOp::create(b, loc, lhs, rhs);
      Value zero = createIntConstant(b, loc, type, 0);
      Value negative = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, rem, zero);
      Value adjusted = arith::AddIOp::create(b, loc, rem, rhs);
      Bounds bounds =
          positiveDivisor ? Bounds::of(0, rb.hi - 1) : Bounds();
      return {arith::SelectOp::create(b, loc, negative, adjusted, rem),
              bounds};
    }
    default:
      llvm_unreachable("unknown affine expression kind");
    }
  }
};
} // namespace

Value codegen::emitAffineExpr(OpBuilder &b, Location loc, AffineExpr expr,
                              ValueRange dims, ArrayRef<int64_t> dimSizes,
                              ValueRange symbols, Type type) {
  AffineEmitter emitter{b, loc, dims, dimSizes, symbols, type};
  return emitter.emit(expr).first;
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

Value codegen::emitTorchCast(OpBuilder &b, Location loc, Value value,
                             Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (toInt && toInt.getWidth() == 1) {
    // bool(x) is x != 0; NaN is true.
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   createFloatConstant(b, loc, from, 0.0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 createIntConstant(b, loc, from, 0));
  }
  if (fromInt && toInt) {
    if (fromInt.getWidth() == 1)
      return arith::ExtUIOp::create(b, loc, to, value);
    if (fromInt.getWidth() < toInt.getWidth())
      return arith::ExtSIOp::create(b, loc, to, value);
    return arith::TruncIOp::create(b, loc, to, value);
  }
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    if (fromFloat.getWidth() > toFloat.getWidth())
      return arith::TruncFOp::create(b, loc, to, value);
    // f16 <-> bf16: through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (fromFloat && toInt)
    return arith::FPToSIOp::create(b, loc, to, value);
  if (fromInt && toFloat) {
    if (fromInt.getWidth() == 1)
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  llvm_unreachable("fusion.cast verifier admits buffer element types only");
}
