//===- FuseNodesTest.cpp - Fusion invariants on generated graphs ----------===//
//
// Randomized tests of fusion-fuse-nodes on graphs from the generator, in
// program order and shuffled (then sorted, which makes long edges), under
// every peak-memory and loop-reordering policy:
//
// - every node of the input is in the result exactly once, and every kernel
//   has at least two members;
// - the result verifies and its dependence graph is acyclic with every
//   producer before its readers;
// - the result's peak memory (MemoryProfile, computed from the IR) is the
//   peak the planner reports: the live bytes the planner keeps per schedule
//   step as it fuses are those of the schedule it emits; with
//   peak-memory=never-raise it is at most the input's, with traffic-bounded
//   at most 1/32 of the bytes of all the graph's buffers above it (no
//   fusion saves more traffic than that);
// - the same input gives byte-identical output, and fusing the kernels
//   again keeps all of the above;
// - with combo kernels, and fusing foreach kernels again (their parts then
//   fuse by ForeachKernelSchedulerNode's rules), the same holds, and no
//   part of a foreach kernel depends on another part of it.
//
//===----------------------------------------------------------------------===//

#include "GraphGenerator.h"

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Analysis/MemoryProfile.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/FusionPlanner.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace mlir;
using namespace mlir::fusion;

namespace {

struct Policy {
  PeakMemoryPolicy peakMemory;
  LoopReorderPolicy reorderLoops;
  /// The options as written on the command line.
  const char *name;
};

constexpr Policy kPolicies[] = {
    {PeakMemoryPolicy::NeverRaise, LoopReorderPolicy::AfterFixpoint,
     "peak-memory=never-raise reorder-loops=after-fixpoint"},
    {PeakMemoryPolicy::NeverRaise, LoopReorderPolicy::EveryRound,
     "peak-memory=never-raise reorder-loops=every-round"},
    {PeakMemoryPolicy::Inductor, LoopReorderPolicy::AfterFixpoint,
     "peak-memory=inductor reorder-loops=after-fixpoint"},
    {PeakMemoryPolicy::Inductor, LoopReorderPolicy::Off,
     "peak-memory=inductor reorder-loops=off"},
    {PeakMemoryPolicy::TrafficBounded, LoopReorderPolicy::AfterFixpoint,
     "peak-memory=traffic-bounded reorder-loops=after-fixpoint"},
};

/// The bytes of every buffer of the graph: its arguments and what its
/// top-level operations produce.
int64_t allBufferBytes(GraphOp graph) {
  int64_t bytes = 0;
  auto add = [&](Value value) {
    if (auto type = dyn_cast<BufferType>(value.getType()))
      bytes += type.getSizeInBytes().value_or(0);
  };
  for (BlockArgument arg : graph.getBodyBlock().getArguments())
    add(arg);
  for (Operation &op : graph.getBodyBlock())
    for (Value result : op.getResults())
      add(result);
  return bytes;
}

/// Whether the peak after fusion keeps within what `policy` allows.
void expectPeakWithinPolicy(PeakMemoryPolicy policy, int64_t peakBefore,
                            int64_t peakAfter, int64_t bufferBytes) {
  if (policy == PeakMemoryPolicy::NeverRaise) {
    EXPECT_LE(peakAfter, peakBefore);
  } else if (policy == PeakMemoryPolicy::TrafficBounded) {
    EXPECT_LE(peakAfter - peakBefore, bufferBytes / 32);
  }
}

class FuseNodesTest : public ::testing::Test {
protected:
  /// A generated graph, topologically sorted, without dead nodes, with its
  /// loops ordered: what fusion sees in --fusion-schedule.
  OwningOpRef<ModuleOp> prepare(unsigned numNodes, uint64_t seed,
                                bool shuffle) {
    GraphGeneratorOptions options;
    options.numNodes = numNodes;
    options.seed = seed;
    options.maxDim = 24;
    options.shuffle = shuffle;
    OwningOpRef<ModuleOp> module = generateGraphModule(&ctx, options);
    EXPECT_TRUE(succeeded(verify(*module)));
    PassManager pm(&ctx);
    OpPassManager &graphPm = pm.nest<GraphOp>();
    graphPm.addPass(createTopologicalSortPass());
    graphPm.addPass(createDeadNodeEliminationPass());
    graphPm.addPass(createReorderLoopsPass());
    EXPECT_TRUE(succeeded(pm.run(*module)));
    return module;
  }

  LogicalResult fuse(ModuleOp module, const Policy &policy,
                     bool comboKernels = false) {
    FuseNodesPassOptions options;
    options.peakMemory = policy.peakMemory;
    options.reorderLoops = policy.reorderLoops;
    options.comboKernels = comboKernels;
    PassManager pm(&ctx);
    pm.addNestedPass<GraphOp>(createFuseNodesPass(options));
    return pm.run(module);
  }

  static GraphOp graphOf(ModuleOp module) {
    return *module.getBody()->getOps<GraphOp>().begin();
  }

  static std::string print(Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os);
    return text;
  }

  /// The names of the leaf nodes (members of kernels included).
  static std::multiset<std::string> leafNames(GraphOp graph) {
    std::multiset<std::string> names;
    for (Operation &op : graph.getBodyBlock().without_terminator()) {
      SmallVector<SchedulerNodeOpInterface> leaves;
      cast<SchedulerNodeOpInterface>(op).getLeafNodes(leaves);
      for (SchedulerNodeOpInterface leaf : leaves)
        names.insert(leaf.getNodeName());
    }
    return names;
  }

  /// The number of foreach kernels of `module`'s graph whose parts do not
  /// depend on each other; a failure for each that has parts that do.
  static unsigned checkForeachParts(ModuleOp module) {
    // On a copy whose foreach members are top-level nodes again, no member
    // may depend on another member of the same foreach.
    OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
    GraphOp graph = graphOf(*copy);
    DenseMap<Operation *, unsigned> foreachOf;
    unsigned numForeach = 0;
    for (Operation &op : llvm::make_early_inc_range(
             graph.getBodyBlock().without_terminator())) {
      auto foreach = dyn_cast<ForeachOp>(op);
      if (!foreach)
        continue;
      for (Operation &member :
           llvm::make_early_inc_range(foreach.getMembers())) {
        member.moveBefore(foreach);
        foreachOf[&member] = numForeach;
      }
      auto yield = cast<YieldOp>(foreach.getBodyBlock().getTerminator());
      foreach->replaceAllUsesWith(yield.getValues());
      foreach.erase();
      ++numForeach;
    }
    DependenceGraph deps(graph);
    EXPECT_FALSE(deps.hasCycle());
    for (unsigned n = 0, e = deps.getNumNodes(); n < e; ++n) {
      auto it = foreachOf.find(deps.getNode(n).getOperation());
      if (it == foreachOf.end())
        continue;
      for (unsigned pred : deps.getPredecessors(n)) {
        auto other = foreachOf.find(deps.getNode(pred).getOperation());
        EXPECT_FALSE(other != foreachOf.end() && other->second == it->second)
            << deps.getNode(n).getNodeName() << " depends on "
            << deps.getNode(pred).getNodeName() << " of the same foreach";
      }
    }
    return numForeach;
  }

  MLIRContext ctx;
};

TEST_F(FuseNodesTest, InvariantsOnGeneratedGraphs) {
  for (bool shuffle : {false, true}) {
    for (unsigned numNodes : {60u, 400u}) {
      for (uint64_t seed = 0; seed < 6; ++seed) {
        for (const Policy &policy : kPolicies) {
          SCOPED_TRACE(testing::Message()
                       << "nodes " << numNodes << " seed " << seed
                       << (shuffle ? " shuffled" : "") << " "
                       << policy.name);
          OwningOpRef<ModuleOp> module = prepare(numNodes, seed, shuffle);
          GraphOp graph = graphOf(*module);
          std::multiset<std::string> before = leafNames(graph);
          int64_t peakBefore = MemoryProfile(DependenceGraph(graph))
                                   .getPeakBytes();
          int64_t bufferBytes = allBufferBytes(graph);

          // What the planner decides and reports, on a copy.
          OwningOpRef<ModuleOp> copy = cast<ModuleOp>((*module)->clone());
          FusionOptions options;
          options.peakMemory = policy.peakMemory;
          options.reorderLoops = policy.reorderLoops;
          GraphOp copyGraph = graphOf(*copy);
          DependenceGraph copyDeps(copyGraph);
          FailureOr<FusionPlan> plan =
              planFusion(copyGraph, copyDeps, options);
          ASSERT_TRUE(succeeded(plan));
          EXPECT_EQ(plan->peakBytesBefore, peakBefore);

          ASSERT_TRUE(succeeded(fuse(*module, policy)));
          ASSERT_TRUE(succeeded(verify(*module)));

          // Every node once; kernels of two or more.
          EXPECT_EQ(leafNames(graph), before);
          unsigned numKernels = 0;
          for (Operation &op : graph.getBodyBlock().without_terminator()) {
            ++numKernels;
            if (auto fused = dyn_cast<FusedOp>(op)) {
              EXPECT_GE(llvm::range_size(fused.getMembers()), 2u);
            }
          }
          EXPECT_EQ(numKernels, plan->groups.size());

          // Acyclic, producers first.
          DependenceGraph deps(graph);
          EXPECT_FALSE(deps.hasCycle());
          for (unsigned node = 0, e = deps.getNumNodes(); node < e; ++node)
            for (unsigned pred : deps.getPredecessors(node))
              EXPECT_LT(pred, node);

          // The peak the planner kept is the peak of the result.
          int64_t peakAfter = MemoryProfile(deps).getPeakBytes();
          EXPECT_EQ(peakAfter, plan->peakBytesAfter);
          expectPeakWithinPolicy(options.peakMemory, peakBefore, peakAfter,
                                 bufferBytes);

          // Deterministic.
          OwningOpRef<ModuleOp> again = prepare(numNodes, seed, shuffle);
          ASSERT_TRUE(succeeded(fuse(*again, policy)));
          EXPECT_EQ(print(*again), print(*module));

          // Fusing kernels again (not a fixpoint in general: Inductor's
          // pairwise-attempts window and its one loop-reordering round can
          // leave fusions a second run makes) keeps every invariant.
          ASSERT_TRUE(succeeded(fuse(*module, policy)));
          ASSERT_TRUE(succeeded(verify(*module)));
          EXPECT_EQ(leafNames(graph), before);
          DependenceGraph fusedAgain(graph);
          EXPECT_FALSE(fusedAgain.hasCycle());
          expectPeakWithinPolicy(options.peakMemory, peakAfter,
                                 MemoryProfile(fusedAgain).getPeakBytes(),
                                 allBufferBytes(graph));
        }
      }
    }
  }
}

TEST_F(FuseNodesTest, ForeachAndComboKernelsOnGeneratedGraphs) {
  unsigned numForeach = 0;
  for (bool shuffle : {false, true}) {
    for (unsigned numNodes : {60u, 400u}) {
      for (uint64_t seed = 0; seed < 4; ++seed) {
        for (const Policy &policy : {kPolicies[0], kPolicies[2],
                                     kPolicies[4]}) {
          SCOPED_TRACE(testing::Message()
                       << "nodes " << numNodes << " seed " << seed
                       << (shuffle ? " shuffled" : "") << " "
                       << policy.name);
          OwningOpRef<ModuleOp> module = prepare(numNodes, seed, shuffle);
          GraphOp graph = graphOf(*module);
          std::multiset<std::string> before = leafNames(graph);
          int64_t peakBefore = MemoryProfile(DependenceGraph(graph))
                                   .getPeakBytes();
          int64_t bufferBytes = allBufferBytes(graph);

          ASSERT_TRUE(succeeded(fuse(*module, policy, /*comboKernels=*/true)));
          ASSERT_TRUE(succeeded(verify(*module)));
          EXPECT_EQ(leafNames(graph), before);
          numForeach += checkForeachParts(*module);
          int64_t peakAfter =
              MemoryProfile(DependenceGraph(graph)).getPeakBytes();
          expectPeakWithinPolicy(policy.peakMemory, peakBefore, peakAfter,
                                 bufferBytes);
          std::string first = print(*module);
          OwningOpRef<ModuleOp> again = prepare(numNodes, seed, shuffle);
          ASSERT_TRUE(succeeded(fuse(*again, policy, /*comboKernels=*/true)));
          EXPECT_EQ(print(*again), first);

          // The foreach kernels as input: their parts fuse with other nodes
          // and with each other by the foreach rules.
          ASSERT_TRUE(succeeded(fuse(*module, policy)));
          ASSERT_TRUE(succeeded(verify(*module)));
          EXPECT_EQ(leafNames(graph), before);
          checkForeachParts(*module);
          expectPeakWithinPolicy(
              policy.peakMemory, peakBefore,
              MemoryProfile(DependenceGraph(graph)).getPeakBytes(),
              bufferBytes);
        }
      }
    }
  }
  EXPECT_GT(numForeach, 0u) << "no combo kernels: the test shows nothing";
}

/// Inductor's rules raise the peak on some generated graphs; there the
/// never-raise policy decides otherwise and keeps the peak.
TEST_F(FuseNodesTest, NeverRaiseRefusesWhatRaisesThePeak) {
  bool raised = false, refused = false;
  for (uint64_t seed = 0; seed < 20 && !(raised && refused); ++seed) {
    OwningOpRef<ModuleOp> module = prepare(200, seed, /*shuffle=*/false);
    GraphOp graph = graphOf(*module);
    DependenceGraph deps(graph);
    FusionOptions inductor;
    inductor.peakMemory = PeakMemoryPolicy::Inductor;
    OwningOpRef<ModuleOp> copy = cast<ModuleOp>((*module)->clone());
    DependenceGraph copyDeps(graphOf(*copy));
    FailureOr<FusionPlan> loose = planFusion(graphOf(*copy), copyDeps, inductor);
    FusionOptions neverRaise;
    neverRaise.peakMemory = PeakMemoryPolicy::NeverRaise;
    FailureOr<FusionPlan> strict = planFusion(graph, deps, neverRaise);
    ASSERT_TRUE(succeeded(loose) && succeeded(strict));
    if (loose->peakBytesAfter > loose->peakBytesBefore) {
      raised = true;
      EXPECT_LE(strict->peakBytesAfter, strict->peakBytesBefore);
      refused |= strict->groups != loose->groups;
    }
  }
  EXPECT_TRUE(raised) << "no generated graph where Inductor's rules raise "
                         "the peak: the test shows nothing";
  EXPECT_TRUE(refused);
}

} // namespace
