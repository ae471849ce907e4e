//===- AffineSumTest.cpp - Index expressions as sums of terms -------------===//
//
// flattenSum on expressions whose terms are read off by hand.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/AffineSum.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {

class AffineSumTest : public ::testing::Test {
protected:
  AffineExpr d(unsigned i) { return getAffineDimExpr(i, &ctx); }
  AffineExpr s(unsigned i) { return getAffineSymbolExpr(i, &ctx); }
  AffineExpr c(int64_t v) { return getAffineConstantExpr(v, &ctx); }
  MLIRContext ctx;
};

TEST_F(AffineSumTest, TermsLeftToRight) {
  // 3 * (d0 * 4 + d1 floordiv 2 - 5) + d0 * s0 has the terms 12 * d0,
  // 3 * (d1 floordiv 2), -15 and 1 * (d0 * s0).
  AffineExpr floorDiv = d(1).floorDiv(2);
  AffineExpr product = d(0) * s(0);
  AffineExpr expr = (d(0) * 4 + floorDiv - 5) * 3 + product;
  SmallVector<SumTerm> terms;
  ASSERT_TRUE(flattenSum(expr, terms));
  // Compared as a multiset: the order of a sum's operands is MLIR's to
  // choose.
  auto count = [&](int64_t coefficient, AffineExpr factor) {
    return llvm::count_if(terms, [&](const SumTerm &t) {
      return t.coefficient == coefficient && t.factor == factor;
    });
  };
  ASSERT_EQ(terms.size(), 4u);
  EXPECT_EQ(count(12, d(0)), 1);
  EXPECT_EQ(count(3, floorDiv), 1);
  EXPECT_EQ(count(-15, AffineExpr()), 1);
  EXPECT_EQ(count(1, product), 1);
}

TEST_F(AffineSumTest, ScaleMultipliesEveryTerm) {
  SmallVector<SumTerm> terms;
  ASSERT_TRUE(flattenSum(d(0) * s(0) + d(1), terms, /*scale=*/-2));
  ASSERT_EQ(terms.size(), 2u);
  for (const SumTerm &term : terms)
    EXPECT_EQ(term.coefficient, -2);
}

TEST_F(AffineSumTest, ReportsCoefficientsBeyondInt64) {
  SmallVector<SumTerm> terms;
  EXPECT_FALSE(flattenSum(d(0) * (int64_t(1) << 62), terms, /*scale=*/4));
  terms.clear();
  EXPECT_TRUE(flattenSum(d(0) * (int64_t(1) << 61), terms, /*scale=*/2));
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_EQ(terms[0].coefficient, int64_t(1) << 62);
}

TEST_F(AffineSumTest, ProductFactorsAndCoefficient) {
  // (d0 * 3) * (s1 * -2) * (d1 floordiv 4): factors d0, s1, d1 floordiv 4
  // in that order, coefficient 5 * 3 * -2.
  AffineExpr floorDiv = d(1).floorDiv(4);
  AffineExpr expr = getAffineBinaryOpExpr(
      AffineExprKind::Mul,
      getAffineBinaryOpExpr(AffineExprKind::Mul, d(0) * 3, s(1) * -2),
      floorDiv);
  SmallVector<AffineExpr> factors;
  int64_t coefficient = 5;
  ASSERT_TRUE(flattenProduct(expr, factors, coefficient));
  EXPECT_EQ(coefficient, -30);
  ASSERT_EQ(factors.size(), 3u);
  EXPECT_EQ(factors[0], d(0));
  EXPECT_EQ(factors[1], s(1));
  EXPECT_EQ(factors[2], floorDiv);
}

} // namespace
