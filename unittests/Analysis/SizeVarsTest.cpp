//===- SizeVarsTest.cpp - Reasoning on symbolic sizes ---------------------===//
//
// SizeVars' statically_known_* facts against hand-derived answers: what
// sympy decides for the same expressions with size symbols >= 2.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/SizeVars.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {
class SizeVarsTest : public ::testing::Test {
protected:
  AffineExpr s(unsigned i) { return getAffineSymbolExpr(i, &ctx); }
  AffineExpr c(int64_t v) { return getAffineConstantExpr(v, &ctx); }
  MLIRContext ctx;
};

TEST_F(SizeVarsTest, EqualityIsSymbolic) {
  // s0*s1 and s1*s0 are one size; s0 and 1024 are not, whatever s0's hint.
  EXPECT_TRUE(SizeVars::staticallyKnownEquals(s(0) * s(1), s(1) * s(0)));
  EXPECT_TRUE(SizeVars::staticallyKnownEquals(s(0) * 8 * s(1),
                                              s(1) * (s(0) * 8)));
  EXPECT_FALSE(SizeVars::staticallyKnownEquals(s(0), c(1024)));
  EXPECT_TRUE(SizeVars::staticallyKnownEquals(s(0) + s(1), s(1) + s(0)));
}

TEST_F(SizeVarsTest, ExactQuotient) {
  // (s0*s1*512) / (s1*8) = 64*s0.
  std::optional<AffineExpr> q =
      SizeVars::exactQuotient(s(0) * s(1) * 512, s(1) * 8);
  ASSERT_TRUE(q.has_value());
  EXPECT_TRUE(SizeVars::staticallyKnownEquals(*q, s(0) * 64));
  // (8*s0*s1 + 16*s1) / (8*s1) = s0 + 2.
  q = SizeVars::exactQuotient(s(0) * s(1) * 8 + s(1) * 16, s(1) * 8);
  ASSERT_TRUE(q.has_value());
  EXPECT_TRUE(SizeVars::staticallyKnownEquals(*q, s(0) + 2));
  // Not a multiple for every value: s0 / 2, (s0 + 1) / s0, 12 / 8.
  EXPECT_FALSE(SizeVars::exactQuotient(s(0), c(2)).has_value());
  EXPECT_FALSE(SizeVars::exactQuotient(s(0) + 1, s(0)).has_value());
  EXPECT_FALSE(SizeVars::exactQuotient(c(12), c(8)).has_value());
  // A non-monomial divisor divides only itself and its multiples as a
  // factor: ((s0 + 7) floordiv 8) * 512 by (s0 + 7) floordiv 8.
  AffineExpr blocks = (s(0) + 7).floorDiv(8);
  q = SizeVars::exactQuotient(blocks * 512, blocks);
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(*q, c(512));
  EXPECT_FALSE(SizeVars::exactQuotient(s(0) * 512, blocks).has_value());
}

TEST_F(SizeVarsTest, GreaterThan) {
  EXPECT_TRUE(SizeVars::staticallyKnownGt(c(5), c(4)));
  EXPECT_FALSE(SizeVars::staticallyKnownGt(c(4), c(4)));
  // s0*s1 > s1 for sizes s0 >= 2; s0 > s1 is unknown; s1 > s0*s1 false.
  EXPECT_TRUE(SizeVars::staticallyKnownGt(s(0) * s(1), s(1)));
  EXPECT_FALSE(SizeVars::staticallyKnownGt(s(0), s(1)));
  EXPECT_FALSE(SizeVars::staticallyKnownGt(s(1), s(0) * s(1)));
  // 512 * s0 > 512 (s0 >= 2), but 512 > s0 is unknown.
  EXPECT_TRUE(SizeVars::staticallyKnownGt(s(0) * 512, c(512)));
  EXPECT_FALSE(SizeVars::staticallyKnownGt(c(512), s(0)));
}
TEST_F(SizeVarsTest, HintsOverflowSaturates) {
  // s0 = s1 = 2^40: s0 * 4 is 2^42; s0 * s1 = 2^80 and s0 * s1 + 1 are past
  // int64, larger than any int64 (no wrapped or fallback value).
  SizeVars vars(ArrayRef<int64_t>{int64_t(1) << 40, int64_t(1) << 40});
  EXPECT_EQ(vars.sizeHint(s(0) * 4), int64_t(1) << 42);
  EXPECT_EQ(vars.sizeHint(s(0) * s(1)), INT64_MAX);
  EXPECT_EQ(vars.sizeHint(s(0) * s(1) + 1), INT64_MAX);
  EXPECT_FALSE(vars.getMissingHint().has_value());
  // A symbol without a hint gives the fallback and is recorded.
  EXPECT_EQ(vars.sizeHint(s(2) * 2), 8192);
  EXPECT_EQ(vars.getMissingHint(), 2u);
}

} // namespace
