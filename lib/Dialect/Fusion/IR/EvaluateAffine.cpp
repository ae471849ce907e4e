//===- EvaluateAffine.cpp - Values of index expressions ---------------------===

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;

std::optional<int64_t> mlir::fusion::evaluateAffineExpr(
    AffineExpr expr, ArrayRef<int64_t> dims, ArrayRef<int64_t> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  if (auto d = dyn_cast<AffineDimExpr>(expr)) {
    if (d.getPosition() >= dims.size())
      return std::nullopt;
    return dims[d.getPosition()];
  }
  if (auto s = dyn_cast<AffineSymbolExpr>(expr)) {
    if (s.getPosition() >= symbols.size())
      return std::nullopt;
    return symbols[s.getPosition()];
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = evaluateAffineExpr(bin.getLHS(), dims, symbols);
  std::optional<int64_t> rhs = evaluateAffineExpr(bin.getRHS(), dims, symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  int64_t result;
  switch (bin.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(*lhs, *rhs, result))
      return std::nullopt;
    return result;
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(*lhs, *rhs, result))
      return std::nullopt;
    return result;
  case AffineExprKind::FloorDiv:
    if (*rhs <= 0)
      return std::nullopt;
    return llvm::divideFloorSigned(*lhs, *rhs);
  case AffineExprKind::CeilDiv:
    if (*rhs <= 0)
      return std::nullopt;
    return llvm::divideCeilSigned(*lhs, *rhs);
  case AffineExprKind::Mod:
    if (*rhs <= 0)
      return std::nullopt;
    return llvm::mod(*lhs, *rhs);
  default:
    return std::nullopt;
  }
}

