//===- CachedConstantTest.cpp - Affine constants from a per-thread table --===//
//
// getCachedConstantExpr must give the context's own uniqued constant, and
// never one of a context that is gone: contexts are created and destroyed
// one after another (scheduler-corpus-bench makes one per repetition), often
// at the same address.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <memory>
#include <new>

using namespace mlir;
using namespace mlir::fusion;

namespace {

std::unique_ptr<MLIRContext> makeFusionContext() {
  auto ctx = std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
  ctx->loadDialect<FusionDialect>();
  return ctx;
}

TEST(CachedConstantTest, SameExpressionAsTheUniquer) {
  std::unique_ptr<MLIRContext> ctx = makeFusionContext();
  for (int64_t value : {int64_t(0), int64_t(1), int64_t(-1), int64_t(768),
                        int64_t(50257), kSymbolicSize, INT64_MAX}) {
    AffineExpr first = getCachedConstantExpr(value, ctx.get());
    EXPECT_EQ(first, getAffineConstantExpr(value, ctx.get()));
    EXPECT_EQ(getCachedConstantExpr(value, ctx.get()), first);
  }
}

TEST(CachedConstantTest, CollidingValuesKeepTheirOwnExpression) {
  // More values than the table has slots: some share one, and each must
  // still come back as itself.
  std::unique_ptr<MLIRContext> ctx = makeFusionContext();
  for (int round = 0; round < 2; ++round)
    for (int64_t value = 0; value < 1000; ++value)
      EXPECT_EQ(cast<AffineConstantExpr>(
                    getCachedConstantExpr(value * 37, ctx.get()))
                    .getValue(),
                value * 37);
}

TEST(CachedConstantTest, NewContextAtTheSameAddress) {
  // A context built where the last one was (as a process that makes one
  // per graph often gets): the table filled for the last one must not
  // answer for it.
  alignas(MLIRContext) unsigned char storage[sizeof(MLIRContext)];
  for (int round = 0; round < 4; ++round) {
    auto *ctx = new (storage) MLIRContext(MLIRContext::Threading::DISABLED);
    ctx->loadDialect<FusionDialect>();
    // Constants made first place this round's 1 and 4096 elsewhere than
    // last round's.
    for (int other = 0; other <= round; ++other)
      (void)getAffineConstantExpr(100000 + other, ctx);
    for (int64_t value : {int64_t(1), int64_t(4096)})
      EXPECT_EQ(getCachedConstantExpr(value, ctx),
                getAffineConstantExpr(value, ctx));
    ctx->~MLIRContext();
  }
}

TEST(CachedConstantTest, ContextWithoutTheDialect) {
  // Not cached (nothing would empty the table when it goes), still right.
  for (int round = 0; round < 4; ++round) {
    MLIRContext ctx(MLIRContext::Threading::DISABLED);
    AffineExpr expr = getCachedConstantExpr(7, &ctx);
    EXPECT_EQ(expr.getContext(), &ctx);
    EXPECT_EQ(expr, getAffineConstantExpr(7, &ctx));
  }
}

} // namespace
