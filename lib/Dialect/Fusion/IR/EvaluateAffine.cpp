//===- EvaluateAffine.cpp - Values of index expressions ---------------------===

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;

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
  int64_t result;
  switch (kind) {
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

