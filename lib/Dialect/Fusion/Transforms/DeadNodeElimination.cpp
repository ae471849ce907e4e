//===- DeadNodeElimination.cpp - Inductor's dead_node_elimination ---------===//
//
// Removes the scheduler nodes whose buffers nobody that stays uses and that
// have no side effect.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fusion-dead-node-elimination"

namespace mlir::fusion {
#define GEN_PASS_DEF_DEADNODEELIMINATIONPASS
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;

/// Marks the top-level nodes that write into the storage of a graph input:
/// those overwriting in place a graph input, a `fusion.nop` view of one, or
/// an earlier in-place version of one. The caller sees such writes, so the
/// nodes must stay (Inductor keeps mutated inputs alive through the graph's
/// OutputNode). A forward worklist over SSA uses from the graph inputs.
static void markInputMutations(GraphOp graph,
                               const DenseMap<Operation *, unsigned> &index,
                               SmallVectorImpl<bool> &sideEffect) {
  Block &block = graph.getBodyBlock();
  llvm::DenseSet<Value> seen;
  SmallVector<Value> worklist;
  for (BlockArgument input : block.getArguments())
    if (seen.insert(input).second)
      worklist.push_back(input);
  auto push = [&](Value value) {
    if (seen.insert(value).second)
      worklist.push_back(value);
  };
  while (!worklist.empty()) {
    Value storage = worklist.pop_back_val();
    for (OpOperand &use : storage.getUses()) {
      Operation *user = use.getOwner();
      // Most uses are loads in node bodies: one comparison of names rather
      // than the interface lookup below.
      if (isa<LoadOp>(user))
        continue;
      if (auto nop = dyn_cast<NopOp>(user)) {
        for (Value result : nop.getResults())
          push(result);
      } else if (auto yield = dyn_cast<YieldOp>(user)) {
        // A container result is the member result its yield lists.
        Operation *parent = yield->getParentOp();
        if (isContainerNode(parent))
          push(parent->getResult(use.getOperandNumber()));
      } else if (auto leaf = dyn_cast<SchedulerNodeOpInterface>(user)) {
        for (unsigned r = 0, e = leaf->getNumResults(); r < e; ++r) {
          if (leaf.getMutatedBuffer(r) != storage)
            continue;
          push(leaf->getResult(r));
          if (Operation *top = block.findAncestorOpInBlock(*leaf))
            if (auto it = index.find(top); it != index.end())
              sideEffect[it->second] = true;
        }
      }
    }
  }
}

namespace {
struct DeadNodeEliminationPass final
    : fusion::impl::DeadNodeEliminationPassBase<DeadNodeEliminationPass> {
  using Base::Base;

  void runOnOperation() override {
    GraphOp graph = getOperation();
    Block &block = graph.getBodyBlock();
    SmallVector<Operation *> nodes;
    DenseMap<Operation *, unsigned> index;
    // Sized once: grown a node at a time, the table of a 100k-node graph
    // is rehashed a dozen times.
    index.reserve(block.getOperations().size());
    for (Operation &op : block.without_terminator()) {
      index[&op] = nodes.size();
      nodes.push_back(&op);
    }
    unsigned numNodes = nodes.size();

    // Roots: side effects, input mutations and producers of graph outputs.
    // `producers[n]` lists the nodes whose buffers node `n` uses.
    SmallVector<bool> live(numNodes, false);
    markInputMutations(graph, index, live);
    SmallVector<SmallVector<unsigned, 4>> producers(numNodes);
    Operation *output = block.getTerminator();
    for (auto [n, op] : llvm::enumerate(nodes)) {
      if (cast<SchedulerNodeOpInterface>(op).hasSideEffects())
        live[n] = true;
      for (Value result : op->getResults()) {
        for (Operation *user : result.getUsers()) {
          Operation *top = block.findAncestorOpInBlock(*user);
          if (top == output)
            live[n] = true;
          else if (auto it = index.find(top);
                   it != index.end() && it->second != n)
            producers[it->second].push_back(n);
        }
      }
    }

    // Everything a live node uses is live: the fixpoint Inductor reaches by
    // walking a topologically sorted list backwards, in any order.
    SmallVector<unsigned> worklist;
    for (unsigned n = 0; n < numNodes; ++n)
      if (live[n])
        worklist.push_back(n);
    while (!worklist.empty()) {
      unsigned n = worklist.pop_back_val();
      for (unsigned p : producers[n])
        if (!live[p]) {
          live[p] = true;
          worklist.push_back(p);
        }
    }

    // Dead nodes only use each other's results: drop those uses, then erase.
    SmallVector<Operation *> dead;
    for (unsigned n = 0; n < numNodes; ++n)
      if (!live[n])
        dead.push_back(nodes[n]);
    if (dead.empty()) {
      markAllAnalysesPreserved();
      return;
    }
    LLVM_DEBUG({
      for (Operation *op : dead)
        llvm::dbgs() << "removed dead node: "
                     << cast<SchedulerNodeOpInterface>(op).getNodeName()
                     << "\n";
    });
    for (Operation *op : dead)
      op->dropAllReferences();
    for (Operation *op : dead)
      op->erase();
    numRemoved += dead.size();
  }
};
} // namespace
