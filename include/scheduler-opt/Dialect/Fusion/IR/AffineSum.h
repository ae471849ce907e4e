//===- AffineSum.h - Index expressions as sums of terms ---------*- C++ -*-===//
//
// An index expression read as sympy reads it: a sum of terms
// `coefficient * factor`, where a factor is a dimension, a symbol, or a
// subexpression that is neither a sum nor a constant multiple (a product of
// non-constants such as `d0 * s1`, a floordiv, a mod). The one flattening
// that canonical dependences, Inductor-format printing, the planner's linear
// decomposition and SizeVars' monomials build on.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_AFFINESUM_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_AFFINESUM_H

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace fusion {

/// A term `coefficient * factor` of a flattened sum; a null factor is a
/// constant term.
struct SumTerm {
  int64_t coefficient;
  AffineExpr factor;
};

/// Appends the terms of `expr * scale` to `terms`, left to right: `+` and
/// multiplication by a constant are flattened, a constant becomes a term
/// with a null factor, anything else one term with itself as the factor.
/// Equal factors are not merged. Coefficients are computed modulo 2^64;
/// returns false when one left int64.
bool flattenSum(AffineExpr expr, SmallVectorImpl<SumTerm> &terms,
                int64_t scale = 1);

/// Appends the non-constant factors of the product `expr` (a term's factor)
/// to `factors`, left to right, and multiplies `coefficient` by its constant
/// factors, modulo 2^64; returns false when that left int64.
bool flattenProduct(AffineExpr expr, SmallVectorImpl<AffineExpr> &factors,
                    int64_t &coefficient);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_AFFINESUM_H
