//===- FusionInterfacesTest.cpp - The dialect's op interfaces -------------===//
//
// What the op interfaces answer for each op that implements them: the
// scheduler node interface's defaults for leaf nodes and the members-derived
// answers of containers, and the index and access interfaces of load, store
// and index_expr. The expected values are read off the IR below by hand.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {

// op1 mutates %acc in place; op2 (an extern with side effects) and the
// fused op3/op4 pair read op0's result; op4 loads through an indirect index.
constexpr const char *kGraph = R"mlir(
fusion.graph @g(%x: !fusion.buffer<8xf32>, %acc: !fusion.buffer<8xf32>,
                %ids: !fusion.buffer<8xi64>)
    -> (!fusion.buffer<8xf32>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [8]
      writes(%out : !fusion.buffer<8xf32> mutates %acc) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] atomic_add : !fusion.buffer<8xf32>
  }
  %buf2 = fusion.extern "op2" "extern_kernels.print"(%buf0) {side_effects}
      : (!fusion.buffer<8xf32>) -> !fusion.buffer<8xf32>
  %buf3, %buf4 = fusion.fused -> !fusion.buffer<8xf32>, !fusion.buffer<8xf32> {
    %buf3_0 = fusion.node "op3" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
      %0 = fusion.load %buf0[%p0] : !fusion.buffer<8xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
    }
    %buf4_0 = fusion.node "op4" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
      %i = fusion.load %ids[%p0] : !fusion.buffer<8xi64>
      %j = arith.index_cast %i : i64 to index
      %0 = fusion.load %buf3_0[symbol(%j)] : !fusion.buffer<8xf32>
      %k = fusion.index_expr [%p0 * 2 + symbol(%j)] : i64
      fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
    }
    fusion.yield %buf3_0, %buf4_0 : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>
  }
  fusion.output %buf1, %buf4 : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>
}
)mlir";

class FusionInterfacesTest : public ::testing::Test {
protected:
  FusionInterfacesTest() {
    ctx.loadDialect<FusionDialect, arith::ArithDialect>();
    module = parseSourceString<ModuleOp>(kGraph, &ctx);
  }

  /// The top-level scheduler node whose name is `name`.
  SchedulerNodeOpInterface node(StringRef name) {
    SchedulerNodeOpInterface found;
    module->walk([&](SchedulerNodeOpInterface op) {
      if (op.getNodeName() == name)
        found = op;
    });
    return found;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(FusionInterfacesTest, LeafNodes) {
  ASSERT_TRUE(module);
  SchedulerNodeOpInterface op0 = node("op0"), op1 = node("op1"),
                           op2 = node("op2");
  ASSERT_TRUE(op0 && op1 && op2);
  EXPECT_EQ(op0.getBufferName(0).getValue(), "buf0");
  EXPECT_EQ(op0.getBufferName(1), StringAttr());
  EXPECT_EQ(op0.getInductorClassName(), "SchedulerNode");
  EXPECT_EQ(op2.getInductorClassName(), "ExternKernelSchedulerNode");
  EXPECT_FALSE(op0.hasSideEffects());
  EXPECT_TRUE(op2.hasSideEffects());
  EXPECT_EQ(op0.getMutatedBuffer(0), Value());
  // %acc is the graph's second argument.
  Value acc = module->getBody()->front().getRegion(0).getArgument(1);
  EXPECT_EQ(op1.getMutatedBuffer(0), acc);
  SmallVector<SchedulerNodeOpInterface> leaves;
  op1.getLeafNodes(leaves);
  ASSERT_EQ(leaves.size(), 1u);
  EXPECT_EQ(leaves.front(), op1);
}

TEST_F(FusionInterfacesTest, ContainersDeriveFromMembers) {
  ASSERT_TRUE(module);
  SchedulerNodeOpInterface fused = node("op3_op4");
  ASSERT_TRUE(fused);
  EXPECT_TRUE(isa<FusedOp>(fused.getOperation()));
  EXPECT_EQ(fused.getInductorClassName(), "FusedSchedulerNode");
  EXPECT_EQ(fused.getBufferName(0).getValue(), "buf3_0");
  EXPECT_EQ(fused.getBufferName(1).getValue(), "buf4_0");
  EXPECT_EQ(fused.getMutatedBuffer(1), Value());
  EXPECT_FALSE(fused.hasSideEffects());
  SmallVector<SchedulerNodeOpInterface> leaves;
  fused.getLeafNodes(leaves);
  ASSERT_EQ(leaves.size(), 2u);
  EXPECT_EQ(leaves[0].getNodeName(), "op3");
  EXPECT_EQ(leaves[1].getNodeName(), "op4");
}

TEST_F(FusionInterfacesTest, AccessesAndIndices) {
  ASSERT_TRUE(module);
  auto op4 = cast<NodeOp>(node("op4").getOperation());
  SmallVector<IndexedOpInterface> indexed;
  op4.getBodyBlock().walk(
      [&](IndexedOpInterface op) { indexed.push_back(op); });
  // load %ids, load %buf3_0 (indirect), index_expr, store.
  ASSERT_EQ(indexed.size(), 4u);
  Value p0 = op4.getLoopVars()[0];

  auto direct = dyn_cast<AccessOpInterface>(indexed[0].getOperation());
  ASSERT_TRUE(direct);
  EXPECT_FALSE(direct.isWrite());
  EXPECT_EQ(direct.getAccessedBuffer(), cast<LoadOp>(indexed[0]).getBuffer());
  EXPECT_EQ(indexed[0].getNumIndirectSymbols(), 0u);
  ASSERT_EQ(indexed[0].getLoopIndices().size(), 1u);
  EXPECT_EQ(indexed[0].getLoopIndices()[0], p0);

  // %buf3_0[symbol(%j)]: no dimension, one indirect symbol.
  EXPECT_EQ(indexed[1].getLoopIndices().size(), 0u);
  ASSERT_EQ(indexed[1].getNumIndirectSymbols(), 1u);
  Value j = indexed[1].getIndirectIndices()[0];
  EXPECT_TRUE(isa<arith::IndexCastOp>(j.getDefiningOp()));

  // index_expr [%p0 * 2 + symbol(%j)] indexes but accesses no buffer.
  EXPECT_FALSE(isa<AccessOpInterface>(indexed[2].getOperation()));
  EXPECT_EQ(indexed[2].getLoopIndices()[0], p0);
  EXPECT_EQ(indexed[2].getIndirectIndices()[0], j);

  auto store = dyn_cast<AccessOpInterface>(indexed[3].getOperation());
  ASSERT_TRUE(store);
  EXPECT_TRUE(store.isWrite());
  EXPECT_EQ(store.getAccessedBuffer(), op4.getOutputHandles()[0]);
}

TEST_F(FusionInterfacesTest, SetIndexReplacesMapAndOperands) {
  ASSERT_TRUE(module);
  auto op4 = cast<NodeOp>(node("op4").getOperation());
  auto index = *op4.getBodyBlock().getOps<IndexExprOp>().begin();
  auto indexed = cast<IndexedOpInterface>(index.getOperation());
  Value p0 = op4.getLoopVars()[0];
  // [%p0 * 2 + symbol(%j)] becomes [%p0 + 3].
  AffineMap map = AffineMap::get(
      1, 0, getAffineDimExpr(0, &ctx) + getAffineConstantExpr(3, &ctx));
  indexed.setIndex(map, ValueRange{p0});
  EXPECT_EQ(index.getMap(), map);
  ASSERT_EQ(index.getIndices().size(), 1u);
  EXPECT_EQ(index.getIndices()[0], p0);
  EXPECT_EQ(indexed.getNumIndirectSymbols(), 0u);
}

} // namespace
