//===- EvaluateAffineTest.cpp - Index expressions at several points -------===//
//
// evaluateAffineExprAtPoints must give, at every point, what
// evaluateAffineExpr gives there, and fail exactly when evaluateAffineExpr
// fails at some point (a division by a non-positive value, an overflow, a
// dimension or symbol without a value).
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <string>

using namespace mlir;
using namespace mlir::fusion;

namespace {

/// Checks the batched evaluation of `expr` over `points` (each a value per
/// dimension) against the scalar one, point by point.
void expectSameAsScalar(AffineExpr expr,
                        ArrayRef<SmallVector<int64_t>> points,
                        ArrayRef<int64_t> symbols) {
  size_t numPoints = points.size();
  size_t numDims = points.front().size();
  SmallVector<int64_t> dims(numDims * numPoints);
  for (size_t p = 0; p < numPoints; ++p)
    for (size_t i = 0; i < numDims; ++i)
      dims[i * numPoints + p] = points[p][i];
  SmallVector<int64_t> values(numPoints);
  bool ok = evaluateAffineExprAtPoints(expr, dims, symbols, values);
  bool allScalar = true;
  for (size_t p = 0; p < numPoints; ++p) {
    std::optional<int64_t> scalar =
        evaluateAffineExpr(expr, points[p], symbols);
    allScalar &= scalar.has_value();
    if (ok && scalar) {
      EXPECT_EQ(values[p], *scalar) << "at point " << p;
    }
  }
  EXPECT_EQ(ok, allScalar);
}

TEST(EvaluateAffineTest, AtPointsAsOneByOne) {
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  ctx.loadDialect<FusionDialect>();
  AffineExpr d0 = getAffineDimExpr(0, &ctx), d1 = getAffineDimExpr(1, &ctx),
             d2 = getAffineDimExpr(2, &ctx);
  AffineExpr s0 = getAffineSymbolExpr(0, &ctx),
             s1 = getAffineSymbolExpr(1, &ctx);
  // The origin, the unit points (as stride computations ask), and points
  // with negative and large values.
  SmallVector<SmallVector<int64_t>> points = {
      {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-7, 5, 3}, {INT64_MAX, 2, -1}};
  SmallVector<int64_t> symbols = {64, -3};
  AffineExpr exprs[] = {
      d0 * 4096 + d1 * 64 + d2,
      (d0 * 768 + d1).floorDiv(12) + (d2 % 64),
      d0.ceilDiv(s0) + d1 * s0,
      // Division and modulo by a non-positive value (symbol 1 is -3).
      d0.floorDiv(s1),
      d1 % s1,
      // Overflow at the largest value only.
      d0 * 2 + d1,
      d0 + 1,
      // A symbol without a value, and a dimension without one.
      d0 + getAffineSymbolExpr(5, &ctx),
      d0 + getAffineDimExpr(3, &ctx),
      getAffineConstantExpr(42, &ctx),
  };
  for (AffineExpr expr : exprs) {
    std::string text;
    llvm::raw_string_ostream(text) << expr;
    SCOPED_TRACE(text);
    expectSameAsScalar(expr, points, symbols);
    // Without the extreme point: the expressions that only overflow there
    // must then be evaluated everywhere.
    expectSameAsScalar(expr, ArrayRef(points).drop_back(), symbols);
  }
}

} // namespace
