//===- DependenceGraphTest.cpp - DependenceGraph on built graphs ----------===//
//
// Builds scheduling graphs through the C++ API (as a compiler linking the
// dialect would) and checks what the dependence analysis derives from them:
// users, ancestors, mutation ordering and cycles.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Target/Inductor/InductorFormat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {

/// Builds a graph of 1-D pointwise nodes over buffers of `kSize` floats.
class GraphBuilder {
public:
  static constexpr int64_t kSize = 128;

  GraphBuilder(MLIRContext &ctx, unsigned numInputs)
      : ctx(ctx), builder(&ctx), loc(builder.getUnknownLoc()) {
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
    SmallVector<Type> inputs(numInputs, bufferType());
    SmallVector<std::string> names;
    for (unsigned i = 0; i < numInputs; ++i)
      names.push_back("arg" + std::to_string(i));
    SmallVector<StringRef> nameRefs(names.begin(), names.end());
    graph = GraphOp::create(builder, loc, "g", inputs, nameRefs,
                            ArrayRef<Type>{}, "cuda:0");
    builder.setInsertionPointToEnd(&graph.getBodyBlock());
  }

  BufferType bufferType() {
    return BufferType::get({kSize}, Float32Type::get(&ctx));
  }

  Value input(unsigned i) { return graph.getBodyBlock().getArgument(i); }

  /// Adds node `name` writing `buf<name minus "op">` = sum of `inputs`,
  /// optionally overwriting `mutated` in place.
  Value node(StringRef name, ArrayRef<Value> inputs, Value mutated = {}) {
    std::string buffer = ("buf" + name.drop_front(2)).str();
    SmallVector<Value> mutatedValues;
    SmallVector<int64_t> tied = {-1};
    if (mutated) {
      mutatedValues.push_back(mutated);
      tied = {0};
    }
    auto op = NodeOp::create(builder, loc, name, ArrayRef<int64_t>{kSize},
                             ArrayRef<int64_t>{}, ArrayRef<Type>{bufferType()},
                             ArrayRef<StringRef>{buffer}, mutatedValues, tied);
    Block &body = op.getBodyBlock();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(body.getTerminator());
    Value p0 = body.getArgument(0);
    AffineMap identity = builder.getDimIdentityMap();
    Value sum;
    for (Value in : inputs) {
      Value loaded = LoadOp::create(builder, loc, in, ValueRange{p0}, identity);
      sum = sum ? arith::AddFOp::create(builder, loc, sum, loaded).getResult()
                : loaded;
    }
    if (!sum)
      sum = arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(0));
    StoreOp::create(builder, loc, sum, body.getArgument(1), ValueRange{p0},
                    identity, StoreModeAttr());
    return op.getResult(0);
  }

  /// Terminates the graph with `outputs` and verifies it.
  GraphOp finish(ArrayRef<Value> outputs) {
    OutputOp::create(builder, loc, outputs);
    SmallVector<Type> types(outputs.size(), bufferType());
    graph.setFunctionTypeAttr(TypeAttr::get(builder.getFunctionType(
        graph.getFunctionType().getInputs(), types)));
    return graph;
  }

  OwningOpRef<ModuleOp> module;

private:
  MLIRContext &ctx;
  OpBuilder builder;
  Location loc;
  GraphOp graph;
};

class DependenceGraphTest : public ::testing::Test {
protected:
  DependenceGraphTest() {
    ctx.loadDialect<FusionDialect, arith::ArithDialect>();
  }

  static unsigned indexOf(const DependenceGraph &deps, StringRef name) {
    for (unsigned n = 0; n < deps.getNumNodes(); ++n)
      if (deps.getNode(n).getNodeName() == name)
        return n;
    ADD_FAILURE() << "no node " << name.str();
    return ~0u;
  }

  static std::vector<std::string> names(const DependenceGraph &deps,
                                        ArrayRef<unsigned> indices) {
    std::vector<std::string> result;
    for (unsigned n : indices)
      result.push_back(deps.getNode(n).getNodeName());
    return result;
  }

  MLIRContext ctx;
};

TEST_F(DependenceGraphTest, UsersAncestorsAndMetDependencies) {
  // A diamond: op0 -> {op1, op2} -> op3, op3 and op1 are outputs.
  GraphBuilder b(ctx, 1);
  Value b0 = b.node("op0", {b.input(0)});
  Value b1 = b.node("op1", {b0});
  Value b2 = b.node("op2", {b0, b.input(0)});
  Value b3 = b.node("op3", {b1, b2});
  GraphOp graph = b.finish({b3, b1});
  ASSERT_TRUE(succeeded(verify(graph)));

  DependenceGraph deps(graph);
  ASSERT_FALSE(deps.hasCycle());
  ASSERT_EQ(deps.getNumNodes(), 4u);

  unsigned op3 = indexOf(deps, "op3");
  EXPECT_EQ(names(deps, deps.getPredecessors(op3)),
            (std::vector<std::string>{"op1", "op2"}));
  EXPECT_EQ(names(deps, deps.getAncestors(op3)),
            (std::vector<std::string>{"op0", "op1", "op2"}));
  EXPECT_TRUE(deps.getAncestors(indexOf(deps, "op0")).empty());

  // buf0 is read by op1 and op2 (with the index op1 writes: in-place ok).
  ArrayRef<NodeUser> users = deps.getUsers(b0);
  ASSERT_EQ(users.size(), 2u);
  EXPECT_EQ(users[0].node, indexOf(deps, "op1"));
  EXPECT_TRUE(users[0].canInplace);
  EXPECT_EQ(users[1].node, indexOf(deps, "op2"));
  EXPECT_FALSE(users[1].isWeak);

  // buf1 is read by op3 and is a graph output, which comes last.
  users = deps.getUsers(b1);
  ASSERT_EQ(users.size(), 2u);
  EXPECT_EQ(users[0].node, op3);
  EXPECT_TRUE(users[1].isOutput());

  // op2's read of the graph input is met, its read of buf0 is not.
  unsigned op2 = indexOf(deps, "op2");
  EXPECT_EQ(formatInductorDepSet(deps.getMetDependencies(op2)),
            "[MemoryDep('arg0', d0, {d0: 128})]");
  EXPECT_EQ(formatInductorDepSet(deps.getUnmetDependencies(op2)),
            "[MemoryDep('buf0', d0, {d0: 128})]");
  EXPECT_EQ(deps.lookupBuffer(StringAttr::get(&ctx, "buf2")), b2);
  EXPECT_EQ(deps.getProducer(b2), op2);
  EXPECT_FALSE(deps.getProducer(b.input(0)).has_value());
  // By name, in one lookup: the same producers; none for a graph input or
  // a name of no buffer.
  EXPECT_EQ(deps.getProducer(StringAttr::get(&ctx, "buf2")), op2);
  EXPECT_EQ(deps.getProducer(StringAttr::get(&ctx, "buf0")),
            indexOf(deps, "op0"));
  EXPECT_FALSE(deps.getProducer(StringAttr::get(&ctx, "arg0")).has_value());
  EXPECT_FALSE(deps.getProducer(StringAttr::get(&ctx, "buf9")).has_value());
}

TEST_F(DependenceGraphTest, MutationRunsAfterReadersOfTheOldVersion) {
  // op2 overwrites arg0 in place; op0 and op1 read the old contents, so op2
  // must follow both (WeakDeps on their buffers). op1 is placed after op2 in
  // the IR: order in a graph region carries no meaning.
  GraphBuilder b(ctx, 1);
  Value b0 = b.node("op0", {b.input(0)});
  Value b2 = b.node("op2", {b0}, /*mutated=*/b.input(0));
  Value b1 = b.node("op1", {b.input(0)});
  GraphOp graph = b.finish({b1});
  ASSERT_TRUE(succeeded(verify(graph)));

  DependenceGraph deps(graph);
  ASSERT_FALSE(deps.hasCycle());
  unsigned op1 = indexOf(deps, "op1"), op2 = indexOf(deps, "op2");
  EXPECT_EQ(names(deps, deps.getPredecessors(op2)),
            (std::vector<std::string>{"op0", "op1"}));
  EXPECT_EQ(deps.getSuccessors(op1), ArrayRef<unsigned>{op2});
  EXPECT_EQ(formatInductorDepSet(deps.getUnmetDependencies(op2)),
            "\n    [   MemoryDep('buf0', d0, {d0: 128}),\n"
            "        WeakDep(name='buf0', mutating_buf='buf2', is_fake=True),\n"
            "        WeakDep(name='buf1', mutating_buf='buf2', is_fake=True)]");
  EXPECT_EQ(formatInductorDepSet(deps.getMetDependencies(op2)),
            "[StarDep(name='arg0', mode=None)]");
  EXPECT_EQ(deps.getMutation(b.input(0)), b2);

  // The mutated input's final version is used by the graph's consumer, and
  // op2 is a weak user of op1's buffer.
  ArrayRef<NodeUser> users = deps.getUsers(b2);
  ASSERT_EQ(users.size(), 1u);
  EXPECT_TRUE(users[0].isOutput());
  users = deps.getUsers(b1);
  ASSERT_EQ(users.size(), 2u);
  EXPECT_EQ(users[0].node, op2);
  EXPECT_TRUE(users[0].isWeak);
  EXPECT_TRUE(users[1].isOutput());
}

TEST_F(DependenceGraphTest, MutationOrderCycleIsReported) {
  // op1 reads both the old version of arg0 and op2's result, while op2
  // overwrites arg0: op1 must run before op2 and after it.
  GraphBuilder b(ctx, 1);
  Value b2 = b.node("op2", {}, /*mutated=*/b.input(0));
  Value b1 = b.node("op1", {b.input(0), b2});
  GraphOp graph = b.finish({b1});
  ASSERT_TRUE(succeeded(verify(graph)));

  DependenceGraph deps(graph);
  ASSERT_TRUE(deps.hasCycle());
  EXPECT_EQ(names(deps, deps.getCycle()),
            (std::vector<std::string>{"op2", "op1"}));

  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  deps.emitCycleError();
  EXPECT_NE(message.find("op2 -> op1 -> op2"), std::string::npos) << message;
}

TEST_F(DependenceGraphTest, UseDefCycleIsRejectedByTheVerifier) {
  // A def-use cycle cannot even be built into a valid graph.
  GraphBuilder b(ctx, 1);
  Value b0 = b.node("op0", {b.input(0)});
  Value b1 = b.node("op1", {b0});
  // Make op0 read op1's result: op0 -> op1 -> op0.
  auto op0 = cast<NodeOp>(b0.getDefiningOp());
  LoadOp load = *op0.getBodyBlock().getOps<LoadOp>().begin();
  load.getBufferMutable().assign(b1);
  GraphOp graph = b.finish({b1});

  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(verify(graph)));
  EXPECT_NE(message.find("op0 -> op1 -> op0"), std::string::npos) << message;
}

TEST_F(DependenceGraphTest, LongChainIsLinear) {
  // A chain of 20k nodes: building the analysis must not recurse or scan
  // all pairs; ancestors of the last node are all the others.
  constexpr unsigned kNodes = 20000;
  GraphBuilder b(ctx, 1);
  Value last = b.input(0);
  for (unsigned i = 0; i < kNodes; ++i)
    last = b.node("op" + std::to_string(i), {last});
  GraphOp graph = b.finish({last});
  DependenceGraph deps(graph);
  EXPECT_FALSE(deps.hasCycle());
  EXPECT_EQ(deps.getAncestors(kNodes - 1).size(), kNodes - 1);
  EXPECT_EQ(deps.getPredecessors(kNodes - 1), ArrayRef<unsigned>{kNodes - 2});
}


/// Opens the top-level fusion.foreach ops of `graph` as the fusion pass
/// does: members take their place, uses of results read the members'.
static void openForeachOps(GraphOp graph) {
  for (Operation &op :
       llvm::make_early_inc_range(graph.getBodyBlock().without_terminator())) {
    auto foreach = dyn_cast<ForeachOp>(op);
    if (!foreach)
      continue;
    for (Operation &member : llvm::make_early_inc_range(foreach.getMembers()))
      member.moveBefore(foreach);
    auto yield = cast<YieldOp>(foreach.getBodyBlock().getTerminator());
    foreach->replaceAllUsesWith(yield.getValues());
    foreach.erase();
  }
}

/// Everything `a` and `b` answer, node by node and buffer by buffer.
static void expectSameGraph(const DependenceGraph &a,
                            const DependenceGraph &b) {
  ASSERT_EQ(a.getNumNodes(), b.getNumNodes());
  EXPECT_EQ(a.getCycle(), b.getCycle());
  SmallVector<Value> buffers(a.getGraph().getBodyBlock().getArguments());
  for (unsigned n = 0; n < a.getNumNodes(); ++n) {
    EXPECT_EQ(a.getNode(n), b.getNode(n));
    EXPECT_EQ(a.getReads(n), b.getReads(n)) << "node " << n;
    EXPECT_EQ(a.getWrites(n), b.getWrites(n)) << "node " << n;
    EXPECT_EQ(a.getUnmetDependencies(n), b.getUnmetDependencies(n));
    EXPECT_EQ(a.getMetDependencies(n), b.getMetDependencies(n));
    EXPECT_EQ(a.getPredecessors(n), b.getPredecessors(n));
    EXPECT_EQ(a.getSuccessors(n), b.getSuccessors(n));
    llvm::append_range(buffers, a.getNode(n)->getResults());
    SmallVector<SchedulerNodeOpInterface> leaves;
    a.getNode(n).getLeafNodes(leaves);
    for (SchedulerNodeOpInterface leaf : leaves)
      llvm::append_range(buffers, leaf->getResults());
  }
  for (Value buffer : buffers) {
    EXPECT_EQ(a.getProducer(buffer), b.getProducer(buffer));
    EXPECT_EQ(a.getMutation(buffer), b.getMutation(buffer));
    ArrayRef<NodeUser> usersA = a.getUsers(buffer), usersB = b.getUsers(buffer);
    ASSERT_EQ(usersA.size(), usersB.size());
    for (auto [ua, ub] : llvm::zip(usersA, usersB)) {
      EXPECT_EQ(ua.leaf, ub.leaf);
      EXPECT_EQ(ua.node, ub.node);
      EXPECT_EQ(ua.canInplace, ub.canInplace);
      EXPECT_EQ(ua.isWeak, ub.isWeak);
    }
  }
}

TEST_F(DependenceGraphTest, OpenedContainersReuseLeafAccesses) {
  // A foreach holding a fused kernel and a node, read through its results
  // by a mutation, a view and a node; a fused kernel that stays closed,
  // read through its result too.
  ctx.loadDialect<math::MathDialect>();
  const char *source = R"mlir(
!T = !fusion.buffer<16xf32>
fusion.graph @g(%x: !T, %s: !T) -> (!T, !T) attributes {device = "cuda:0"} {
  %a0, %a1, %a2 = fusion.foreach -> !T, !T, !T {
    %f0, %f1 = fusion.fused -> !T, !T {
      %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !T) {
        %0 = fusion.load %x[%p0] : !T
        %1 = math.exp %0 : f32
        fusion.store %1, %out[%p0] : !T
      }
      %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !T) {
        %0 = fusion.load %buf0[%p0] : !T
        %1 = math.log %0 : f32
        fusion.store %1, %out[%p0] : !T
      }
      fusion.yield %buf0, %buf1 : !T, !T
    }
    %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !T) {
      %0 = fusion.load %x[15 - %p0] : !T
      fusion.store %0, %out[%p0] : !T
    }
    fusion.yield %f0, %f1, %buf2 : !T, !T, !T
  }
  %buf3 = fusion.node "op3" (%p0) in [16] writes(%out : !T mutates %s) {
    %0 = fusion.load %a1[%p0] : !T
    %1 = fusion.load %s[%p0] : !T
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0] : !T
  }
  %buf4 = fusion.nop "op4"(%a2) : (!T) -> !T
  %buf5 = fusion.node "op5" (%p0) in [16] writes(%out : !T) {
    %0 = fusion.load %buf4[%p0] : !T
    %1 = fusion.load %s[%p0] : !T
    %2 = arith.mulf %0, %1 : f32
    fusion.store %2, %out[%p0] : !T
  }
  %g0, %g1 = fusion.fused -> !T, !T {
    %buf6 = fusion.node "op6" (%p0) in [16] writes(%out : !T) {
      %0 = fusion.load %buf5[%p0] : !T
      fusion.store %0, %out[%p0] : !T
    }
    %buf7 = fusion.node "op7" (%p0) in [16] writes(%out : !T) {
      %0 = fusion.load %buf6[%p0] : !T
      fusion.store %0, %out[%p0] : !T
    }
    fusion.yield %buf6, %buf7 : !T, !T
  }
  %buf8 = fusion.node "op8" (%p0) in [16] writes(%out : !T) {
    %0 = fusion.load %g1[%p0] : !T
    %1 = fusion.load %a0[%p0] : !T
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0] : !T
  }
  fusion.output %buf3, %buf8 : !T, !T
}
)mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  ASSERT_TRUE(module);
  auto graph = cast<GraphOp>(module->getBody()->front());
  auto before = std::make_unique<DependenceGraph>(graph);
  ASSERT_EQ(before->getNumNodes(), 6u);
  openForeachOps(graph);
  ASSERT_TRUE(succeeded(verify(*module)));
  DependenceGraph fresh(graph);
  DependenceGraph reused(graph, *before);
  // What `before` held about erased containers is not needed any more.
  before.reset();
  ASSERT_EQ(fresh.getNumNodes(), 7u);
  EXPECT_FALSE(fresh.hasCycle());
  // op3 overwrites %s after op5 read it, and reads op1's result.
  unsigned op3 = indexOf(fresh, "op3");
  EXPECT_EQ(names(fresh, fresh.getPredecessors(op3)),
            (std::vector<std::string>{"op0_op1", "op5"}));
  expectSameGraph(fresh, reused);
  // And a graph built from the reused one, with nothing opened.
  DependenceGraph again(graph, reused);
  expectSameGraph(fresh, again);
}

} // namespace
