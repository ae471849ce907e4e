//===- TopologicalSort.cpp - Inductor's topological_sort_schedule ---------===//
//
// Orders the scheduler nodes of a graph, and the members of every container,
// so that each node follows everything it depends on, keeping the input
// order wherever the dependences allow.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Analysis/ScheduleOrder.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"
#include "scheduler-opt/Support/TopologicalOrder.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"


#define DEBUG_TYPE "fusion-topological-sort"

namespace mlir::fusion {
#define GEN_PASS_DEF_TOPOLOGICALSORTPASS
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;

namespace {
/// Ordering edges between the members of one container (or the nodes of a
/// graph): `preds[n]` must run before `n`.
struct OrderingGraph {
  SmallVector<SmallVector<unsigned, 4>> preds;
  SmallVector<SmallVector<unsigned, 4>> succs;

  explicit OrderingGraph(unsigned numNodes)
      : preds(numNodes), succs(numNodes) {}

  void addEdge(unsigned from, unsigned to) {
    if (from == to || llvm::is_contained(preds[to], from))
      return;
    preds[to].push_back(from);
    succs[from].push_back(to);
  }
};

/// A decided member order for one container: `order[j]` is the current
/// position of the member that goes to position `j`.
struct ContainerOrder {
  Operation *container;
  SmallVector<unsigned> order;
};
} // namespace

/// Builds the ordering edges between the members of `container`: a member
/// using another member's result runs after it, and a member overwriting a
/// buffer version in place runs after every other member reading that
/// version (directly or through an alias), as the dependence analysis
/// orders top-level nodes. With `byUses`, the def-use edges come from the
/// uses of each member's results instead of a walk of every op of the
/// members: the same edges, fewer steps, but added in another order, which
/// only the cycle a failed order reports depends on.
static OrderingGraph buildMemberGraph(ArrayRef<Operation *> members,
                                      const DependenceGraph &deps,
                                      bool byUses) {
  OrderingGraph graph(members.size());
  DenseMap<Operation *, unsigned> memberOfLeaf;
  DenseMap<Value, unsigned> memberOfResult;
  DenseMap<Operation *, unsigned> memberIndex;
  for (auto [i, member] : llvm::enumerate(members)) {
    SmallVector<SchedulerNodeOpInterface> leaves;
    cast<SchedulerNodeOpInterface>(member).getLeafNodes(leaves);
    for (SchedulerNodeOpInterface leaf : leaves)
      memberOfLeaf[leaf] = i;
    if (byUses)
      memberIndex[member] = i;
    else
      for (Value result : member->getResults())
        memberOfResult[result] = i;
  }
  if (byUses) {
    Block *body = members.empty() ? nullptr : members.front()->getBlock();
    for (auto [j, member] : llvm::enumerate(members))
      for (Value result : member->getResults())
        for (Operation *user : result.getUsers())
          if (Operation *top = body->findAncestorOpInBlock(*user))
            if (auto it = memberIndex.find(top); it != memberIndex.end())
              graph.addEdge(j, it->second);
  }
  for (auto [index, member] : llvm::enumerate(members)) {
    // A structured binding is not captured by a lambda before C++20.
    auto i = index;
    // Def-use edges: any value of another member used inside this one.
    if (!byUses)
      member->walk([&](Operation *op) {
        for (Value operand : op->getOperands())
          if (auto it = memberOfResult.find(operand);
              it != memberOfResult.end())
            graph.addEdge(it->second, i);
      });
    // Mutation edges: readers of the overwritten version go first.
    SmallVector<SchedulerNodeOpInterface> leaves;
    cast<SchedulerNodeOpInterface>(member).getLeafNodes(leaves);
    for (SchedulerNodeOpInterface leaf : leaves) {
      for (unsigned r = 0, e = leaf->getNumResults(); r < e; ++r) {
        Value old = leaf.getMutatedBuffer(r);
        if (!old)
          continue;
        for (const NodeUser &user : deps.getUsers(old)) {
          if (user.isOutput() || user.isWeak || user.leaf == leaf)
            continue;
          if (auto it = memberOfLeaf.find(user.leaf);
              it != memberOfLeaf.end())
            graph.addEdge(it->second, i);
        }
      }
    }
  }
  return graph;
}

/// Decides the member order of `container`; emits an error and fails when
/// its members are on a cycle.
static FailureOr<ContainerOrder>
decideMemberOrder(Operation *container, const DependenceGraph &deps) {
  SmallVector<Operation *> members;
  for (Operation &member : container->getRegion(0).front().without_terminator())
    members.push_back(&member);
  OrderingGraph graph = buildMemberGraph(members, deps, /*byUses=*/true);
  std::optional<SmallVector<unsigned>> order = stableTopologicalOrder(
      members.size(), [&](unsigned n) { return ArrayRef(graph.preds[n]); },
      [&](unsigned n) { return ArrayRef(graph.succs[n]); });
  if (!order) {
    // The cycle reported is the one the edges in walk order lead to.
    graph = buildMemberGraph(members, deps, /*byUses=*/false);
    SmallVector<std::string> names;
    SmallVector<unsigned> cycle = findCycle(
        members.size(), [&](unsigned n) { return ArrayRef(graph.preds[n]); },
        [&](unsigned n) { return ArrayRef(graph.succs[n]); });
    for (unsigned n : cycle)
      names.push_back(cast<SchedulerNodeOpInterface>(members[n]).getNodeName());
    if (!names.empty())
      names.push_back(names.front());
    return container->emitOpError("has members on a dependence cycle: ")
           << llvm::join(names, " -> ")
           << " (including the order of in-place mutations after the "
              "readers of the overwritten buffer)";
  }
  return ContainerOrder{container, std::move(*order)};
}

/// Puts the members of a container in the decided order and rebuilds the
/// container when its results no longer follow its members (because they
/// moved, or because a member container was rebuilt with permuted results).
/// Returns the number of members that moved.
static unsigned applyMemberOrder(const ContainerOrder &decided) {
  Operation *container = decided.container;
  Block &body = container->getRegion(0).front();
  SmallVector<Operation *> members;
  for (Operation &member : body.without_terminator())
    members.push_back(&member);
  unsigned moved = 0;
  SmallVector<Operation *> ordered;
  for (auto [position, old] : llvm::enumerate(decided.order)) {
    ordered.push_back(members[old]);
    if (position != old)
      ++moved;
  }
  SmallVector<Value> newYielded;
  for (Operation *member : ordered)
    llvm::append_range(newYielded, member->getResults());
  Operation *terminator = body.getTerminator();
  if (moved == 0 && llvm::equal(terminator->getOperands(), newYielded))
    return 0;
  for (Operation *member : ordered)
    member->moveBefore(terminator);

  // Container result `k` is the value the yield lists at position `k`.
  SmallVector<Value> oldYielded(terminator->getOperands());
  DenseMap<Value, unsigned> newPosition;
  for (auto [i, value] : llvm::enumerate(newYielded))
    newPosition[value] = i;
  OpBuilder builder(container);
  OperationState state(container->getLoc(), container->getName());
  state.addTypes(ValueRange(newYielded).getTypes());
  state.addAttributes(container->getAttrs());
  state.addRegion();
  Operation *rebuilt = builder.create(state);
  rebuilt->getRegion(0).takeBody(container->getRegion(0));
  terminator->setOperands(newYielded);
  for (auto [result, value] : llvm::zip(container->getResults(), oldYielded))
    result.replaceAllUsesWith(rebuilt->getResult(newPosition.lookup(value)));
  container->erase();
  return moved;
}

/// The containers of `graph`, members before the containers holding them.
static SmallVector<Operation *> collectContainersInnermostFirst(GraphOp graph) {
  SmallVector<Operation *> preOrder, stack;
  for (Operation &op : graph.getBodyBlock().without_terminator())
    if (isContainerNode(op))
      stack.push_back(&op);
  while (!stack.empty()) {
    Operation *container = stack.pop_back_val();
    preOrder.push_back(container);
    for (Operation &member :
         container->getRegion(0).front().without_terminator())
      if (isContainerNode(member))
        stack.push_back(&member);
  }
  return SmallVector<Operation *>(llvm::reverse(preOrder));
}

namespace {
struct TopologicalSortPass final
    : fusion::impl::TopologicalSortPassBase<TopologicalSortPass> {
  using Base::Base;

  void runOnOperation() override {
    GraphOp graphOp = getOperation();
    // Known to be in order (the fusion pass checked the kernels it built):
    // nothing moves, and the dependence graph is not built again for it.
    if (getCachedAnalysis<ScheduleInDependenceOrder>()) {
      markAllAnalysesPreserved();
      return;
    }
    auto &deps = getAnalysis<DependenceGraph>();
    if (deps.hasCycle()) {
      deps.emitCycleError();
      return signalPassFailure();
    }

    // Decide the graph order and every container's member order first.
    std::optional<SmallVector<unsigned>> order = stableTopologicalOrder(
        deps.getNumNodes(),
        [&](unsigned n) { return deps.getPredecessors(n); },
        [&](unsigned n) { return deps.getSuccessors(n); });
    if (!order) {
      // The analysis found no cycle; a failure here means it is out of date.
      graphOp.emitOpError("dependence graph could not be ordered");
      return signalPassFailure();
    }
    SmallVector<ContainerOrder> memberOrders;
    for (Operation *container : collectContainersInnermostFirst(graphOp)) {
      FailureOr<ContainerOrder> memberOrder =
          decideMemberOrder(container, deps);
      if (failed(memberOrder))
        return signalPassFailure();
      memberOrders.push_back(std::move(*memberOrder));
    }

    // Then rewrite: top-level nodes, then containers innermost first, so
    // that a container rebuilt with permuted results is seen by its parent.
    unsigned moved = 0;
    Operation *terminator = graphOp.getBodyBlock().getTerminator();
    for (auto [position, node] : llvm::enumerate(*order)) {
      if (node != position)
        ++moved;
    }
    if (moved != 0)
      for (unsigned node : *order)
        deps.getNode(node)->moveBefore(terminator);
    LLVM_DEBUG(llvm::dbgs() << "moved " << moved << " of "
                            << deps.getNumNodes() << " top-level nodes\n");
    for (const ContainerOrder &memberOrder : memberOrders)
      moved += applyMemberOrder(memberOrder);

    numMoved += moved;
    if (moved == 0)
      markAllAnalysesPreserved();
  }
};
} // namespace
