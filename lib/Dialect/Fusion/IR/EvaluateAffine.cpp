//===- EvaluateAffine.cpp - Values of index expressions ---------------------===

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;

/// The value of a binary index operation on two values, as the dialect's
/// indices mean it; nullopt for a division or modulo by a non-positive
/// value or an overflow.
static std::optional<int64_t> applyBinary(AffineExprKind kind, int64_t lhs,
                                          int64_t rhs) {
  int64_t result;
  switch (kind) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(lhs, rhs, result))
      return std::nullopt;
    return result;
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(lhs, rhs, result))
      return std::nullopt;
    return result;
  case AffineExprKind::FloorDiv:
    if (rhs <= 0)
      return std::nullopt;
    return llvm::divideFloorSigned(lhs, rhs);
  case AffineExprKind::CeilDiv:
    if (rhs <= 0)
      return std::nullopt;
    return llvm::divideCeilSigned(lhs, rhs);
  case AffineExprKind::Mod:
    if (rhs <= 0)
      return std::nullopt;
    return llvm::mod(lhs, rhs);
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> mlir::fusion::evaluateAffineExpr(
    AffineExpr expr, ArrayRef<int64_t> dims, ArrayRef<int64_t> symbols) {
  // One question for the kind (each isa<> asks libMLIR again): strides are
  // evaluated at every unit point of every access's index.
  AffineExprKind kind = expr.getKind();
  switch (kind) {
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(expr).getValue();
  case AffineExprKind::DimId: {
    unsigned position = cast<AffineDimExpr>(expr).getPosition();
    if (position >= dims.size())
      return std::nullopt;
    return dims[position];
  }
  case AffineExprKind::SymbolId: {
    unsigned position = cast<AffineSymbolExpr>(expr).getPosition();
    if (position >= symbols.size())
      return std::nullopt;
    return symbols[position];
  }
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = evaluateAffineExpr(bin.getLHS(), dims, symbols);
  std::optional<int64_t> rhs = evaluateAffineExpr(bin.getRHS(), dims, symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  return applyBinary(kind, *lhs, *rhs);
}

/// evaluateAffineExprAtPoints into `values` (one per point).
static bool evaluateAtPoints(AffineExpr expr, ArrayRef<int64_t> dims,
                             ArrayRef<int64_t> symbols,
                             MutableArrayRef<int64_t> values) {
  size_t numPoints = values.size();
  AffineExprKind kind = expr.getKind();
  switch (kind) {
  case AffineExprKind::Constant:
    llvm::fill(values, cast<AffineConstantExpr>(expr).getValue());
    return true;
  case AffineExprKind::DimId: {
    size_t first = cast<AffineDimExpr>(expr).getPosition() * numPoints;
    if (first >= dims.size())
      return false;
    llvm::copy(dims.slice(first, numPoints), values.begin());
    return true;
  }
  case AffineExprKind::SymbolId: {
    unsigned position = cast<AffineSymbolExpr>(expr).getPosition();
    if (position >= symbols.size())
      return false;
    llvm::fill(values, symbols[position]);
    return true;
  }
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  SmallVector<int64_t, 8> rhs(numPoints);
  if (!evaluateAtPoints(bin.getLHS(), dims, symbols, values) ||
      !evaluateAtPoints(bin.getRHS(), dims, symbols, rhs))
    return false;
  for (auto [value, right] : llvm::zip_equal(values, rhs)) {
    std::optional<int64_t> result = applyBinary(kind, value, right);
    if (!result)
      return false;
    value = *result;
  }
  return true;
}

bool mlir::fusion::evaluateAffineExprAtPoints(AffineExpr expr,
                                              ArrayRef<int64_t> dims,
                                              ArrayRef<int64_t> symbols,
                                              MutableArrayRef<int64_t> values) {
  return values.empty() || evaluateAtPoints(expr, dims, symbols, values);
}
