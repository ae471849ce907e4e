//===- LoopUtilsTest.cpp - Loop-order algorithms against Inductor ---------===//
//
// The algorithms of LoopUtils that are not IR rewrites: pick_loop_order
// against Inductor's own Python (reference table below), stride extraction
// and decide_loop_order_to_match.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/Transforms/LoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <functional>
#include <random>
#include <vector>

using namespace mlir;
using namespace mlir::fusion;

namespace {

struct PickCase {
  std::vector<std::vector<int64_t>> strides;
  std::vector<int64_t> sizes;
  std::vector<unsigned> expected;
};

// Produced by Inductor's pick_loop_order under CPython 3.11 by
// pick_loop_order_reference.py (next to this file). The first 16 cases make
// Inductor's comparison non-transitive.
const PickCase kPickCases[] = {
    {{{16, 2, 32, 16, 32}, {16, 16, 8, 0, 32}, {4, 32, 1, 16, 0}}, {4, 4, 4, 4, 8}, {3, 2, 1, 0, 4}},
    {{{16, 1, 0, 2}, {0, 16, 2, 32}, {4, 0, 8, 32}}, {8, 4, 16, 4}, {2, 1, 3, 0}},
    {{{32, 4, 0}, {1, 4, 2}, {1, 0, 32}, {4, 2, 1}}, {16, 16, 8}, {2, 1, 0}},
    {{{2, 4, 2, 2, 4}, {4, 1, 0, 4, 32}, {8, 1, 16, 4, 32}, {2, 1, 0, 4, 2}}, {16, 8, 8, 16, 8}, {3, 2, 1, 0, 4}},
    {{{8, 1, 1, 16, 2}, {0, 2, 4, 2, 32}}, {4, 16, 4, 8, 8}, {1, 4, 0, 3, 2}},
    {{{2, 32, 1, 4, 4}, {32, 8, 16, 8, 2}, {4, 1, 1, 8, 4}}, {4, 16, 1, 8, 16}, {4, 3, 1, 0, 2}},
    {{{2, 16, 8, 4, 4}, {4, 1, 4, 2, 4}}, {8, 4, 8, 8, 8}, {3, 0, 4, 2, 1}},
    {{{0, 1, 1, 16}, {1, 0, 2, 32}, {4, 32, 4, 1}}, {4, 4, 16, 8}, {2, 3, 0, 1}},
    {{{1, 32, 1, 1, 16}, {1, 0, 16, 8, 4}, {16, 2, 0, 4, 0}}, {16, 4, 8, 16, 16}, {4, 3, 2, 1, 0}},
    {{{2, 0, 0, 8, 32}, {16, 8, 0, 0, 0}, {0, 1, 32, 2, 4}}, {16, 16, 4, 4, 4}, {1, 0, 3, 4, 2}},
    {{{2, 8, 8, 1, 16}, {16, 1, 4, 32, 4}}, {4, 8, 8, 4, 16}, {4, 3, 1, 2, 0}},
    {{{0, 32, 1, 4, 16}, {0, 0, 8, 8, 8}, {8, 1, 32, 4, 0}, {2, 16, 0, 8, 2}}, {16, 16, 8, 16, 16}, {4, 3, 2, 1, 0}},
    {{{0, 8, 1, 32, 4}, {2, 8, 0, 16, 32}, {8, 1, 2, 2, 0}, {0, 0, 32, 2, 8}}, {16, 4, 16, 4, 16}, {3, 4, 2, 1, 0}},
    {{{2, 4, 2, 0, 32}, {16, 8, 16, 16, 2}, {1, 0, 1, 2, 2}, {32, 2, 32, 8, 0}}, {4, 16, 4, 16, 16}, {4, 1, 3, 2, 0}},
    {{{2, 1, 4, 4}, {1, 2, 1, 4}}, {4, 4, 8, 16}, {2, 1, 0, 3}},
    {{{0, 0, 0, 32, 1}, {4, 1, 8, 16, 8}, {1, 32, 2, 0, 32}, {8, 1, 0, 16, 4}}, {4, 8, 16, 8, 8}, {2, 1, 0, 4, 3}},
    {{{32, 32, 4, 1}, {32, 32, 0, 1}}, {8, 1, 4, 4}, {3, 2, 0, 1}},
    {{{2, 2, 1}, {8, 16, 16}}, {16, 16, 8}, {2, 0, 1}},
    {{{1, 2, 0, 2}, {2, 32, 8, 8}}, {8, 8, 8, 4}, {0, 3, 2, 1}},
    {{{32, 4, 2}, {8, 2, 8}}, {8, 8, 4}, {2, 1, 0}},
    {{{1, 2, 8, 8}, {2, 1, 2, 2}}, {16, 8, 4, 16}, {1, 0, 3, 2}},
    {{{4, 1, 16, 0, 0}, {8, 8, 4, 0, 1}, {16, 8, 2, 32, 2}}, {8, 1, 8, 4, 16}, {4, 2, 0, 3, 1}},
    {{{16, 16, 2, 32}, {4, 2, 32, 16}, {16, 2, 2, 16}, {1, 8, 32, 0}}, {8, 8, 16, 8}, {1, 2, 0, 3}},
    {{{16, 2, 16, 32}, {4, 2, 32, 1}, {32, 32, 16, 4}}, {8, 16, 4, 8}, {3, 1, 2, 0}},
    {{{0, 16, 16, 16}, {4, 1, 8, 32}, {8, 8, 16, 4}, {2, 8, 8, 32}}, {8, 4, 16, 4}, {1, 0, 2, 3}},
    {{{1, 16, 16}, {0, 4, 1}, {1, 0, 1}, {0, 2, 1}}, {16, 16, 16}, {0, 2, 1}},
    {{{2, 4, 2}, {1, 4, 0}, {0, 16, 8}}, {4, 4, 4}, {2, 0, 1}},
    {{{8, 2, 1, 4}, {32, 0, 1, 4}, {2, 32, 1, 16}, {2, 2, 4, 8}}, {16, 16, 4, 4}, {2, 1, 3, 0}},
    {{{8, 16, 2, 8}, {2, 16, 8, 0}, {4, 2, 2, 16}}, {16, 1, 8, 4}, {2, 0, 3, 1}},
    {{{1, 0, 4, 32, 32}, {4, 8, 8, 16, 16}, {16, 16, 4, 32, 32}, {4, 4, 4, 16, 32}}, {8, 4, 4, 8, 16}, {0, 2, 1, 3, 4}},
    {{{1, 1, 4, 16}, {8, 4, 2, 8}, {1, 4, 8, 8}}, {4, 8, 4, 4}, {1, 0, 2, 3}},
    {{{4, 0, 4, 16}, {4, 0, 0, 32}, {0, 1, 8, 16}, {32, 0, 16, 1}}, {16, 4, 4, 4}, {1, 2, 0, 3}},
};

TEST(LoopUtilsTest, PickLoopOrderMatchesInductor) {
  for (const PickCase &c : kPickCases) {
    SmallVector<SmallVector<int64_t>> strides;
    for (const std::vector<int64_t> &row : c.strides)
      strides.emplace_back(row.begin(), row.end());
    SmallVector<unsigned> order = pickLoopOrder(strides, c.sizes);
    EXPECT_EQ(std::vector<unsigned>(order.begin(), order.end()), c.expected);
  }
}

TEST(LoopUtilsTest, PickLoopOrderBasics) {
  // One contiguous access: the stride-1 loop is innermost (listed first).
  SmallVector<SmallVector<int64_t>> rowMajor = {{8, 1}};
  EXPECT_EQ(pickLoopOrder(rowMajor, {4, 8}), (SmallVector<unsigned>{1, 0}));
  SmallVector<SmallVector<int64_t>> columnMajor = {{1, 8}};
  EXPECT_EQ(pickLoopOrder(columnMajor, {8, 4}), (SmallVector<unsigned>{0, 1}));
  // A tie (one access each way) keeps the input order: the last loop inner.
  SmallVector<SmallVector<int64_t>> tie = {{8, 1}, {1, 16}};
  EXPECT_EQ(pickLoopOrder(tie, {4, 8}), (SmallVector<unsigned>{1, 0}));
  // A loop of size 1 goes outermost whatever its strides.
  SmallVector<SmallVector<int64_t>> unit = {{1, 0, 4}};
  EXPECT_EQ(pickLoopOrder(unit, {4, 1, 8}), (SmallVector<unsigned>{0, 2, 1}));
}

class LoopUtilsIRTest : public ::testing::Test {
protected:
  LoopUtilsIRTest() { ctx.loadDialect<FusionDialect>(); }

  AffineExpr d(unsigned i) { return getAffineDimExpr(i, &ctx); }
  AffineExpr s(unsigned i) { return getAffineSymbolExpr(i, &ctx); }

  MemoryDepAttr dep(AffineExpr index, ArrayRef<int64_t> sizes,
                    unsigned numSymbols = 0) {
    return MemoryDepAttr::get(
        &ctx, StringAttr::get(&ctx, "buf0"),
        AffineMap::get(sizes.size(), numSymbols, index),
        llvm::map_to_vector(sizes,
                            [&](int64_t size) {
                              return getAffineConstantExpr(size, &ctx);
                            }),
        nullptr);
  }

  MLIRContext ctx;
};

TEST_F(LoopUtilsIRTest, Strides) {
  EXPECT_EQ(getStrides(d(0) * 4096 + d(1), 2, 0),
            (SmallVector<int64_t>{4096, 1}));
  // A broadcast dimension has stride 0; an offset does not count.
  EXPECT_EQ(getStrides(d(1) * 3 + 7, 2, 0), (SmallVector<int64_t>{0, 3}));
  // Inductor's stride of FloorDiv(d0, 2) is expr(1) - expr(0) = 0.
  EXPECT_EQ(getStrides(d(0).floorDiv(2) + d(1) * 8, 2, 0),
            (SmallVector<int64_t>{0, 8}));
  // An indirect index adds a term that cancels out ...
  EXPECT_EQ(getStrides(s(0) * 256 + d(0), 1, 1), (SmallVector<int64_t>{1}));
  // ... unless it makes the stride depend on it.
  EXPECT_EQ(getStrides((s(0) + d(0)) % 8, 1, 1), std::nullopt);
}

// getStrides evaluates symbol-free indices directly; on random index
// expressions (negative coefficients, nested mod / floordiv / ceildiv) that
// must give what simplifying expr(e_d) - expr(0) gives, which is how
// strides were computed before and still are with indirect indices.
TEST_F(LoopUtilsIRTest, StridesByEvaluationMatchSimplification) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  std::function<AffineExpr(unsigned, int)> random = [&](unsigned numDims,
                                                         int depth) {
    int kind = depth == 0 ? pick(0, 1) : pick(0, 6);
    switch (kind) {
    case 0:
      return d(pick(0, numDims - 1));
    case 1:
      return getAffineConstantExpr(pick(-9, 9), &ctx);
    case 2:
      return random(numDims, depth - 1) + random(numDims, depth - 1);
    case 3:
      return random(numDims, depth - 1) * pick(-5, 64);
    case 4:
      return random(numDims, depth - 1) % pick(1, 17);
    case 5:
      return random(numDims, depth - 1).floorDiv(pick(1, 17));
    default:
      return random(numDims, depth - 1).ceilDiv(pick(1, 17));
    }
  };
  auto reference = [&](AffineExpr expr, unsigned numDims)
      -> std::optional<SmallVector<int64_t>> {
    SmallVector<AffineExpr> point(numDims, getAffineConstantExpr(0, &ctx));
    AffineExpr atOrigin = expr.replaceDims(point);
    SmallVector<int64_t> strides;
    for (unsigned i = 0; i < numDims; ++i) {
      point[i] = getAffineConstantExpr(1, &ctx);
      auto diff = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
          expr.replaceDims(point) - atOrigin, numDims, 0));
      point[i] = getAffineConstantExpr(0, &ctx);
      if (!diff)
        return std::nullopt;
      strides.push_back(diff.getValue());
    }
    return strides;
  };
  for (int trial = 0; trial < 2000; ++trial) {
    unsigned numDims = pick(1, 4);
    AffineExpr expr = random(numDims, pick(1, 4));
    std::string text;
    llvm::raw_string_ostream(text) << expr;
    SCOPED_TRACE("expr: " + text);
    EXPECT_EQ(getStrides(expr, numDims, 0), reference(expr, numDims));
    // A symbol term that cancels takes the simplifying path: same strides.
    EXPECT_EQ(getStrides(expr + s(0) * 3, numDims, 1),
              reference(expr, numDims));
  }
}

TEST_F(LoopUtilsIRTest, DecideLoopOrderToMatch) {
  // Transposed: self's dim 1 has the stride of other's dim 0.
  auto order = decideLoopOrderToMatch(dep(d(1) * 128 + d(0), {128, 64}),
                                      dep(d(0) * 128 + d(1), {64, 128}));
  ASSERT_TRUE(order);
  EXPECT_EQ(*order, (SmallVector<unsigned>{1, 0}));
  // Three dims: strides [1, 128, 16] against [128, 16, 1].
  order = decideLoopOrderToMatch(
      dep(d(1) * 128 + d(2) * 16 + d(0), {16, 4, 8}),
      dep(d(0) * 128 + d(1) * 16 + d(2), {4, 8, 16}));
  ASSERT_TRUE(order);
  EXPECT_EQ(*order, (SmallVector<unsigned>{1, 2, 0}));
  // Inductor gives up on broadcasts (an unused dim), sizes of 1, repeated
  // strides, different stride sets, indirect indices and dim mismatches.
  EXPECT_FALSE(decideLoopOrderToMatch(dep(d(0), {16, 8}),
                                      dep(d(0) * 8 + d(1), {16, 8})));
  EXPECT_FALSE(decideLoopOrderToMatch(dep(d(0) * 8 + d(1), {1, 8}),
                                      dep(d(0) * 8 + d(1), {1, 8})));
  EXPECT_FALSE(decideLoopOrderToMatch(dep(d(0) + d(1), {4, 8}),
                                      dep(d(0) + d(1), {4, 8})));
  EXPECT_FALSE(decideLoopOrderToMatch(dep(d(0) * 17 + d(1), {8, 16}),
                                      dep(d(1) * 16 + d(0), {16, 8})));
  EXPECT_FALSE(decideLoopOrderToMatch(dep(d(0) * 8 + d(1) + s(0), {4, 8}, 1),
                                      dep(d(0) * 8 + d(1), {4, 8})));
  EXPECT_FALSE(decideLoopOrderToMatch(dep(d(0) * 8 + d(1), {4, 8}),
                                      dep(d(0), {32})));
}

// Loop permutations through a LoopRewriteCache shared by several nodes give
// each node what it gets without one: nodes alike share new indices, and
// the same index maps over the same loops under another permutation, or in
// a node with another number of loops, get their own.
TEST_F(LoopUtilsIRTest, PermutationsThroughACacheMatchWithout) {
  const char *source = R"mlir(
fusion.graph @alike(%x: !fusion.buffer<2x4x8xf32>, %y: !fusion.buffer<8x4xf32>) -> (!fusion.buffer<2x4x8xf32>, !fusion.buffer<2x4x8xf32>, !fusion.buffer<2x4x8xf32>, !fusion.buffer<8x4xf32>) attributes {device = "cuda:0"} {
  %a = fusion.node "op0" (%p0, %p1, %p2) in [2, 4, 8] writes(%out : !fusion.buffer<2x4x8xf32>) {
    %0 = fusion.load %x[%p0 * 32 + %p1 * 8 + %p2] : !fusion.buffer<2x4x8xf32>
    %1 = fusion.load %x[%p0 * 32 + (%p2 floordiv 2) * 8 + %p1 mod 4] : !fusion.buffer<2x4x8xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0 * 32 + %p1 * 8 + %p2] : !fusion.buffer<2x4x8xf32>
  }
  %b = fusion.node "op1" (%p0, %p1, %p2) in [2, 4, 8] writes(%out : !fusion.buffer<2x4x8xf32>) {
    %0 = fusion.load %x[%p0 * 32 + %p1 * 8 + %p2] : !fusion.buffer<2x4x8xf32>
    %1 = fusion.load %x[%p0 * 32 + (%p2 floordiv 2) * 8 + %p1 mod 4] : !fusion.buffer<2x4x8xf32>
    %2 = arith.mulf %0, %1 : f32
    fusion.store %2, %out[%p0 * 32 + %p1 * 8 + %p2] : !fusion.buffer<2x4x8xf32>
  }
  %c = fusion.node "op2" (%p0, %p1, %p2) in [2, 4, 8] writes(%out : !fusion.buffer<2x4x8xf32>) {
    %0 = fusion.load %x[%p0 * 32 + %p1 * 8 + %p2] : !fusion.buffer<2x4x8xf32>
    %1 = fusion.load %x[%p0 * 32 + (%p2 floordiv 2) * 8 + %p1 mod 4] : !fusion.buffer<2x4x8xf32>
    %2 = arith.subf %0, %1 : f32
    fusion.store %2, %out[%p0 * 32 + %p1 * 8 + %p2] : !fusion.buffer<2x4x8xf32>
  }
  %d = fusion.node "op3" (%p0, %p1) in [8, 4] writes(%out : !fusion.buffer<8x4xf32>) {
    %0 = fusion.load %y[%p0 * 4 + %p1] : !fusion.buffer<8x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<8x4xf32>
  }
  fusion.output %a, %b, %c, %d : !fusion.buffer<2x4x8xf32>, !fusion.buffer<2x4x8xf32>, !fusion.buffer<2x4x8xf32>, !fusion.buffer<8x4xf32>
}
)mlir";
  ctx.loadDialect<arith::ArithDialect>();
  const SmallVector<unsigned> orders[] = {{2, 0, 1}, {2, 0, 1}, {1, 2, 0},
                                          {1, 0}};
  auto permuteAll = [&](LoopRewriteCache *cache) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    if (!module)
      return std::string();
    SmallVector<NodeOp> nodes;
    module->walk([&](NodeOp node) { nodes.push_back(node); });
    EXPECT_EQ(nodes.size(), 4u);
    for (auto [node, order] : llvm::zip(nodes, orders))
      EXPECT_TRUE(succeeded(applyLoopPermutation(node, order, cache)));
    std::string printed;
    llvm::raw_string_ostream os(printed);
    module->print(os);
    return printed;
  };
  LoopRewriteCache cache;
  std::string without = permuteAll(nullptr);
  std::string with = permuteAll(&cache);
  EXPECT_EQ(with, without);
  // The permutations did change the nodes.
  OwningOpRef<ModuleOp> input = parseSourceString<ModuleOp>(source, &ctx);
  ASSERT_TRUE(input);
  std::string unpermuted;
  llvm::raw_string_ostream os(unpermuted);
  input->print(os);
  EXPECT_NE(without, unpermuted);
  // A second pass through the filled cache gives the same again.
  EXPECT_EQ(permuteAll(&cache), without);
}

} // namespace
