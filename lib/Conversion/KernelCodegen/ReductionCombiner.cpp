//===- ReductionCombiner.cpp - Combine functions of fusion.reduce ---------===//
//
// The formulas follow torch/_inductor/runtime/triton_helpers.py: NaN wins
// in max/min (and their argmax/argmin, at its first position), Welford
// partials merge as in `welford_combine`, online softmax partials rescale
// their sums to the larger maximum.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Conversion/KernelCodegen/ReductionCombiner.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

ReductionCombiner::ReductionCombiner(ReduceKind kind, TypeRange inputTypes)
    : kind(kind), elementType(inputTypes.front()) {
  MLIRContext *context = elementType.getContext();
  switch (kind) {
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
    accTypes = {elementType, IntegerType::get(context, 64)};
    break;
  case ReduceKind::WelfordReduce:
  case ReduceKind::WelfordCombine:
    accTypes = {elementType, elementType, elementType};
    break;
  case ReduceKind::OnlineSoftmaxReduce:
    accTypes = {elementType, elementType};
    break;
  default:
    accTypes = {elementType};
    break;
  }
}

bool ReductionCombiner::needsPosition() const {
  return kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin;
}

/// The largest (or, with `negative`, the smallest) value of `type`:
/// infinities for floats, the extreme integers otherwise.
static Value extremeValue(OpBuilder &b, Location loc, Type type,
                          bool negative) {
  if (isa<FloatType>(type))
    return createFloatConstant(b, loc, type,
                               negative ? -std::numeric_limits<double>::infinity()
                                        : std::numeric_limits<double>::infinity());
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 1)
    return createIntConstant(b, loc, type, negative ? 0 : 1);
  APInt value = negative ? APInt::getSignedMinValue(width)
                         : APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

static Value zeroOf(OpBuilder &b, Location loc, Type type) {
  if (isa<FloatType>(type))
    return createFloatConstant(b, loc, type, 0.0);
  return createIntConstant(b, loc, type, 0);
}

static Value oneOf(OpBuilder &b, Location loc, Type type) {
  if (isa<FloatType>(type))
    return createFloatConstant(b, loc, type, 1.0);
  return createIntConstant(b, loc, type, 1);
}

SmallVector<Value> ReductionCombiner::emitIdentity(OpBuilder &b,
                                                   Location loc) const {
  Type t = elementType;
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::XorSum:
  case ReduceKind::Any:
    return {zeroOf(b, loc, t)};
  case ReduceKind::Prod:
    return {oneOf(b, loc, t)};
  case ReduceKind::Max:
    return {extremeValue(b, loc, t, /*negative=*/true)};
  case ReduceKind::Min:
    return {extremeValue(b, loc, t, /*negative=*/false)};
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin: {
    // The identity's position loses every tie.
    Value position = createIntConstant(b, loc, b.getI64Type(),
                                       std::numeric_limits<int64_t>::max());
    return {extremeValue(b, loc, t, kind == ReduceKind::ArgMax), position};
  }
  case ReduceKind::WelfordReduce:
  case ReduceKind::WelfordCombine:
    return {zeroOf(b, loc, t), zeroOf(b, loc, t), zeroOf(b, loc, t)};
  case ReduceKind::OnlineSoftmaxReduce:
    return {extremeValue(b, loc, t, /*negative=*/true), zeroOf(b, loc, t)};
  }
  llvm_unreachable("unknown reduction kind");
}

SmallVector<Value> ReductionCombiner::emitLift(OpBuilder &b, Location loc,
                                               ValueRange inputs,
                                               Value position) const {
  Value v = inputs.front();
  switch (kind) {
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
    return {v, position};
  case ReduceKind::WelfordReduce:
    return {v, zeroOf(b, loc, elementType), oneOf(b, loc, elementType)};
  case ReduceKind::WelfordCombine:
    return {inputs[0], inputs[1], inputs[2]};
  case ReduceKind::OnlineSoftmaxReduce:
    return {v, oneOf(b, loc, elementType)};
  default:
    return {v};
  }
}

/// True when `v` is NaN.
static Value isNaN(OpBuilder &b, Location loc, Value v) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
}

/// Argmax/argmin: the right side wins when its value is strictly better,
/// when it is NaN and the left is not, or on a tie (NaN ties NaN) at a
/// smaller position.
static SmallVector<Value> combineWithIndex(OpBuilder &b, Location loc,
                                           ValueRange lhs, ValueRange rhs,
                                           bool isMax) {
  Value va = lhs[0], ia = lhs[1], vb = rhs[0], ib = rhs[1];
  Value better, equal;
  if (isa<FloatType>(va.getType())) {
    better = arith::CmpFOp::create(
        b, loc, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
        vb, va);
    Value aNaN = isNaN(b, loc, va), bNaN = isNaN(b, loc, vb);
    Value notANaN = arith::XOrIOp::create(
        b, loc, aNaN, createIntConstant(b, loc, b.getI1Type(), 1));
    better = arith::OrIOp::create(
        b, loc, better, arith::AndIOp::create(b, loc, bNaN, notANaN));
    Value same =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, vb, va);
    Value bothNaN = arith::AndIOp::create(b, loc, aNaN, bNaN);
    equal = arith::OrIOp::create(b, loc, same, bothNaN);
  } else {
    better = arith::CmpIOp::create(
        b, loc, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt,
        vb, va);
    equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, vb, va);
  }
  Value earlier =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ib, ia);
  Value takeRhs = arith::OrIOp::create(
      b, loc, better, arith::AndIOp::create(b, loc, equal, earlier));
  return {arith::SelectOp::create(b, loc, takeRhs, vb, va),
          arith::SelectOp::create(b, loc, takeRhs, ib, ia)};
}

SmallVector<Value> ReductionCombiner::emitCombine(OpBuilder &b, Location loc,
                                                  ValueRange lhs,
                                                  ValueRange rhs) const {
  Type t = elementType;
  bool isFloat = isa<FloatType>(t);
  bool isBool = t.isInteger(1);
  switch (kind) {
  case ReduceKind::Sum:
    if (isFloat)
      return {arith::AddFOp::create(b, loc, lhs[0], rhs[0])};
    if (isBool)
      return {arith::XOrIOp::create(b, loc, lhs[0], rhs[0])};
    return {arith::AddIOp::create(b, loc, lhs[0], rhs[0])};
  case ReduceKind::Prod:
    if (isFloat)
      return {arith::MulFOp::create(b, loc, lhs[0], rhs[0])};
    if (isBool)
      return {arith::AndIOp::create(b, loc, lhs[0], rhs[0])};
    return {arith::MulIOp::create(b, loc, lhs[0], rhs[0])};
  case ReduceKind::Max:
    if (isFloat)
      return {arith::MaximumFOp::create(b, loc, lhs[0], rhs[0])};
    if (isBool)
      return {arith::OrIOp::create(b, loc, lhs[0], rhs[0])};
    return {arith::MaxSIOp::create(b, loc, lhs[0], rhs[0])};
  case ReduceKind::Min:
    if (isFloat)
      return {arith::MinimumFOp::create(b, loc, lhs[0], rhs[0])};
    if (isBool)
      return {arith::AndIOp::create(b, loc, lhs[0], rhs[0])};
    return {arith::MinSIOp::create(b, loc, lhs[0], rhs[0])};
  case ReduceKind::Any:
    return {arith::OrIOp::create(b, loc, lhs[0], rhs[0])};
  case ReduceKind::XorSum:
    return {arith::XOrIOp::create(b, loc, lhs[0], rhs[0])};
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
    return combineWithIndex(b, loc, lhs, rhs, kind == ReduceKind::ArgMax);
  case ReduceKind::WelfordReduce:
  case ReduceKind::WelfordCombine: {
    // triton_helpers.welford_combine.
    Value meanA = lhs[0], m2A = lhs[1], wA = lhs[2];
    Value meanB = rhs[0], m2B = rhs[1], wB = rhs[2];
    Value zero = zeroOf(b, loc, t);
    Value delta = arith::SubFOp::create(b, loc, meanB, meanA);
    Value w = arith::AddFOp::create(b, loc, wA, wB);
    Value wIsZero =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, w, zero);
    Value ratio = arith::SelectOp::create(
        b, loc, wIsZero, zero, arith::DivFOp::create(b, loc, wB, w));
    Value mean = arith::AddFOp::create(
        b, loc, meanA, arith::MulFOp::create(b, loc, delta, ratio));
    Value m2Sum = arith::AddFOp::create(b, loc, m2A, m2B);
    Value deltaSquared = arith::MulFOp::create(b, loc, delta, delta);
    Value weighted = arith::MulFOp::create(b, loc, deltaSquared, wA);
    Value m2 = arith::AddFOp::create(
        b, loc, m2Sum, arith::MulFOp::create(b, loc, weighted, ratio));
    return {mean, m2, w};
  }
  case ReduceKind::OnlineSoftmaxReduce: {
    // triton_helpers.online_softmax_combine: rescale both sums to the new
    // maximum; a maximum of -inf (nothing seen) scales by 1.
    Value maxA = lhs[0], sumA = lhs[1], maxB = rhs[0], sumB = rhs[1];
    Value m = arith::MaximumFOp::create(b, loc, maxA, maxB);
    Value negInf = extremeValue(b, loc, t, /*negative=*/true);
    Value one = oneOf(b, loc, t);
    Value mIsNegInf =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, negInf);
    auto scale = [&](Value max) {
      Value e = math::ExpOp::create(b, loc,
                                    arith::SubFOp::create(b, loc, max, m));
      return arith::SelectOp::create(b, loc, mIsNegInf, one, e);
    };
    Value scaledA = arith::MulFOp::create(b, loc, sumA, scale(maxA));
    Value scaledB = arith::MulFOp::create(b, loc, sumB, scale(maxB));
    Value sum = arith::AddFOp::create(b, loc, scaledA, scaledB);
    return {m, sum};
  }
  }
  llvm_unreachable("unknown reduction kind");
}

SmallVector<Value> ReductionCombiner::emitResults(OpBuilder &b, Location loc,
                                                  ValueRange acc) const {
  switch (kind) {
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
    return {acc[1]};
  case ReduceKind::WelfordReduce:
  case ReduceKind::WelfordCombine:
  case ReduceKind::OnlineSoftmaxReduce:
    return SmallVector<Value>(acc.begin(), acc.end());
  default:
    return {acc[0]};
  }
}
