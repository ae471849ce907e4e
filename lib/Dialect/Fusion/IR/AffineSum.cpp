//===- AffineSum.cpp - Index expressions as sums of terms -----------------===//

#include "scheduler-opt/Dialect/Fusion/IR/AffineSum.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;

/// `a * b` modulo 2^64; clears `fits` when the exact product leaves int64.
static int64_t wrappingMul(int64_t a, int64_t b, bool &fits) {
  int64_t r;
  fits &= !llvm::MulOverflow(a, b, r);
  return r;
}

static void flatten(AffineExpr expr, int64_t scale,
                    SmallVectorImpl<SumTerm> &terms, bool &fits) {
  if (auto bin = dyn_cast<AffineBinaryOpExpr>(expr)) {
    if (bin.getKind() == AffineExprKind::Add) {
      flatten(bin.getLHS(), scale, terms, fits);
      flatten(bin.getRHS(), scale, terms, fits);
      return;
    }
    if (bin.getKind() == AffineExprKind::Mul) {
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
        return flatten(bin.getLHS(), wrappingMul(scale, c.getValue(), fits),
                       terms, fits);
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
        return flatten(bin.getRHS(), wrappingMul(scale, c.getValue(), fits),
                       terms, fits);
    }
  }
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    terms.push_back({wrappingMul(scale, c.getValue(), fits), nullptr});
    return;
  }
  terms.push_back({scale, expr});
}

bool mlir::fusion::flattenSum(AffineExpr expr, SmallVectorImpl<SumTerm> &terms,
                              int64_t scale) {
  bool fits = true;
  flatten(expr, scale, terms, fits);
  return fits;
}

static void flattenProductInto(AffineExpr expr,
                               SmallVectorImpl<AffineExpr> &factors,
                               int64_t &coefficient, bool &fits) {
  if (auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
      bin && bin.getKind() == AffineExprKind::Mul) {
    flattenProductInto(bin.getLHS(), factors, coefficient, fits);
    flattenProductInto(bin.getRHS(), factors, coefficient, fits);
    return;
  }
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    coefficient = wrappingMul(coefficient, c.getValue(), fits);
    return;
  }
  factors.push_back(expr);
}

bool mlir::fusion::flattenProduct(AffineExpr expr,
                                  SmallVectorImpl<AffineExpr> &factors,
                                  int64_t &coefficient) {
  bool fits = true;
  flattenProductInto(expr, factors, coefficient, fits);
  return fits;
}
