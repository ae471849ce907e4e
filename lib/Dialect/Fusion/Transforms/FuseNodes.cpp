//===- FuseNodes.cpp - Inductor's fuse_nodes as a pass --------------------===//
//
// Decides the kernels with the FusionPlanner, then builds them: each group
// of several nodes becomes a `fusion.fused` holding its member nodes in
// execution order, each foreach (combo) kernel a `fusion.foreach` of its
// parts, and the graph's nodes are put in the order the fused graph runs in.
// The `fusion.foreach` ops of the input are opened first: their members
// become top-level nodes again, and the planner starts from one foreach
// kernel per opened op.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Analysis/ScheduleOrder.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/FusionPlanner.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/FusionRemarks.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/LoopUtils.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::fusion {
#define GEN_PASS_DEF_FUSENODESPASS
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;

/// Builds one `fusion.fused` from `units` (top-level nodes or fused ops, in
/// execution order) before `insertionPoint`, and redirects uses outside it.
static FusedOp buildFusedOp(ArrayRef<Operation *> units,
                            Operation *insertionPoint) {
  SmallVector<NodeOp> members;
  SmallVector<Location> locs;
  for (Operation *unit : units) {
    SmallVector<SchedulerNodeOpInterface> leaves;
    cast<SchedulerNodeOpInterface>(unit).getLeafNodes(leaves);
    for (SchedulerNodeOpInterface leaf : leaves) {
      members.push_back(cast<NodeOp>(leaf.getOperation()));
      locs.push_back(leaf->getLoc());
    }
  }
  SmallVector<Type> resultTypes;
  for (NodeOp member : members)
    llvm::append_range(resultTypes, member->getResultTypes());

  OpBuilder builder(insertionPoint);
  auto fused = FusedOp::create(builder, builder.getFusedLoc(locs),
                               resultTypes);
  Block &body = fused.getBodyBlock();
  for (NodeOp member : members)
    member->moveBefore(&body, body.end());
  SmallVector<Value> memberResults;
  for (NodeOp member : members)
    llvm::append_range(memberResults, member->getResults());
  builder.setInsertionPointToEnd(&body);
  YieldOp::create(builder, fused.getLoc(), memberResults);

  // Fused ops the kernel absorbed (now holding only their yield): their
  // results are the kernel's results. Before the uses below are redirected,
  // which would redirect their yields too.
  for (Operation *unit : units) {
    auto old = dyn_cast<FusedOp>(unit);
    if (!old)
      continue;
    auto yield = cast<YieldOp>(old.getBodyBlock().getTerminator());
    for (auto [oldResult, inner] :
         llvm::zip(old.getResults(), yield.getValues())) {
      unsigned index = llvm::find(memberResults, inner) - memberResults.begin();
      assert(index < memberResults.size() && "a yield of a member's result");
      // Members read the value itself, everything else the kernel's result.
      oldResult.replaceUsesWithIf(inner, [&](OpOperand &use) {
        return fused->isAncestor(use.getOwner());
      });
      oldResult.replaceAllUsesWith(fused.getResult(index));
    }
    old.erase();
  }
  // Uses outside the kernel now read the kernel's results.
  for (auto [inner, outer] : llvm::zip(memberResults, fused.getResults()))
    inner.replaceUsesWithIf(outer, [&](OpOperand &use) {
      return !fused->isAncestor(use.getOwner());
    });
  return fused;
}

/// Builds one `fusion.foreach` of `parts` (nodes or fused ops, in order)
/// before `insertionPoint`, and redirects uses outside it.
static ForeachOp buildForeachOp(ArrayRef<Operation *> parts,
                                Operation *insertionPoint) {
  SmallVector<Type> resultTypes;
  SmallVector<Location> locs;
  SmallVector<Value> partResults;
  for (Operation *part : parts) {
    llvm::append_range(resultTypes, part->getResultTypes());
    llvm::append_range(partResults, part->getResults());
    locs.push_back(part->getLoc());
  }
  OpBuilder builder(insertionPoint);
  auto foreach = ForeachOp::create(builder, builder.getFusedLoc(locs),
                                   resultTypes);
  Block &body = foreach.getBodyBlock();
  for (Operation *part : parts)
    part->moveBefore(&body, body.end());
  builder.setInsertionPointToEnd(&body);
  YieldOp::create(builder, foreach.getLoc(), partResults);
  for (auto [inner, outer] : llvm::zip(partResults, foreach.getResults()))
    inner.replaceUsesWithIf(outer, [&](OpOperand &use) {
      return !foreach->isAncestor(use.getOwner());
    });
  return foreach;
}

/// Opens the top-level `fusion.foreach` ops of `graph`: their members take
/// their place, and their results' uses read the members' results. Returns
/// the members of each, in order.
static SmallVector<SmallVector<Operation *>> openForeachOps(GraphOp graph) {
  SmallVector<SmallVector<Operation *>> lists;
  for (Operation &op :
       llvm::make_early_inc_range(graph.getBodyBlock().without_terminator())) {
    auto foreach = dyn_cast<ForeachOp>(op);
    if (!foreach)
      continue;
    SmallVector<Operation *> &members = lists.emplace_back();
    for (Operation &member :
         llvm::make_early_inc_range(foreach.getMembers())) {
      member.moveBefore(foreach);
      members.push_back(&member);
    }
    auto yield = cast<YieldOp>(foreach.getBodyBlock().getTerminator());
    foreach->replaceAllUsesWith(yield.getValues());
    foreach.erase();
  }
  return lists;
}

/// True when the kernels of `plan`, built in its order, respect every
/// dependence of `deps` (the units' graph the plan was made from): each
/// edge goes forward between kernels, between the parts of a foreach and
/// between the members of a fused kernel. Units that are containers are not
/// looked into, so a plan over any of them is not known to be ordered.
static bool isInDependenceOrder(const FusionPlan &plan,
                                const DependenceGraph &deps) {
  // Each unit's place: kernel, part of the kernel, member of the part.
  struct Place {
    unsigned kernel = 0, part = 0, member = 0;
    bool operator<(const Place &o) const {
      return std::tie(kernel, part, member) <
             std::tie(o.kernel, o.part, o.member);
    }
  };
  unsigned numUnits = deps.getNumNodes();
  SmallVector<Place> places(numUnits);
  SmallVector<bool> placed(numUnits, false);
  for (auto [kernel, entry] :
       llvm::enumerate(llvm::zip(plan.groups, plan.foreachParts))) {
    auto [group, partSizes] = entry;
    unsigned part = 0, member = 0, partEnd = partSizes.empty()
                                                 ? group.size()
                                                 : partSizes.front();
    for (auto [i, unit] : llvm::enumerate(group)) {
      if (i == partEnd) {
        if (++part >= partSizes.size())
          return false;
        member = 0;
        partEnd += partSizes[part];
      }
      if (unit >= numUnits || placed[unit])
        return false;
      placed[unit] = true;
      places[unit] = {static_cast<unsigned>(kernel), part, member++};
    }
  }
  for (unsigned unit = 0; unit < numUnits; ++unit) {
    if (!placed[unit] ||
        isContainerNode(deps.getNode(unit).getOperation()))
      return false;
    for (unsigned pred : deps.getPredecessors(unit))
      if (!(places[pred] < places[unit]))
        return false;
  }
  return true;
}

namespace {
struct FuseNodesPass final
    : public mlir::fusion::impl::FuseNodesPassBase<FuseNodesPass> {
  using Base::Base;

  void runOnOperation() override {
    GraphOp graphOp = getOperation();
    // Foreach kernels of the input are planned from their members, on a
    // dependence graph that takes the leaves' accesses from the one before.
    auto before = getCachedAnalysis<DependenceGraph>();
    SmallVector<SmallVector<Operation *>> foreachOps =
        openForeachOps(graphOp);
    std::optional<DependenceGraph> opened;
    if (!foreachOps.empty()) {
      if (before)
        opened.emplace(graphOp, before->get());
      else
        opened.emplace(graphOp);
    }
    DependenceGraph &deps =
        opened ? *opened : getAnalysis<DependenceGraph>();
    if (deps.hasCycle()) {
      deps.emitCycleError();
      return signalPassFailure();
    }
    FusionOptions options;
    options.maxFusionSize = maxFusionSize;
    options.scoreFusionMemoryThreshold = scoreFusionMemoryThreshold;
    options.maxRounds = maxRounds;
    options.pairwiseAttempts = pairwiseAttempts;
    options.horizontal = horizontal;
    options.aggressiveFusion = aggressiveFusion;
    options.reorderLoops = reorderLoops;
    options.peakMemory = peakMemory;
    options.explain = explain;
    options.comboKernels = comboKernels;
    options.comboMaxPartBytes = comboMaxPartBytes;
    SmallVector<SmallVector<unsigned, 4>> foreachLists;
    for (ArrayRef<Operation *> members : foreachOps) {
      SmallVector<unsigned, 4> &list = foreachLists.emplace_back();
      for (Operation *member : members)
        list.push_back(*deps.lookupNode(member));
    }
    FailureOr<FusionPlan> plan =
        planFusion(graphOp, deps, options, foreachLists,
                   &getAnalysis<LoopStrideCache>());
    if (failed(plan))
      return signalPassFailure();

    numCandidates += plan->candidatesScored;
    numFusions += plan->fusions;
    numRounds += plan->rounds;
    numRefused += plan->refusals.size();
    numRefusedPeakMemory +=
        plan->refusalCounts[static_cast<unsigned>(RefusalReason::PeakMemory)];
    if (explain)
      emitExplanations(*plan);

    // Build the kernels, then put every top-level node in schedule order.
    SmallVector<Operation *> units;
    for (unsigned n = 0, e = deps.getNumNodes(); n < e; ++n)
      units.push_back(deps.getNode(n).getOperation());
    Operation *terminator = graphOp.getBodyBlock().getTerminator();
    auto buildKernel = [&](ArrayRef<unsigned> group) {
      if (group.size() == 1)
        return units[group.front()];
      SmallVector<Operation *> members;
      for (unsigned unit : group)
        members.push_back(units[unit]);
      return buildFusedOp(members, terminator).getOperation();
    };
    bool ordered = isInDependenceOrder(*plan, deps);
    for (auto [group, partSizes] :
         llvm::zip(plan->groups, plan->foreachParts)) {
      if (partSizes.empty()) {
        buildKernel(group)->moveBefore(terminator);
        continue;
      }
      SmallVector<Operation *> parts;
      ArrayRef<unsigned> rest = group;
      for (unsigned size : partSizes) {
        parts.push_back(buildKernel(rest.take_front(size)));
        rest = rest.drop_front(size);
      }
      buildForeachOp(parts, terminator);
    }
    // The topological sort after fusion then has nothing to do.
    if (ordered) {
      (void)getAnalysis<ScheduleInDependenceOrder>();
      markAnalysesPreserved<ScheduleInDependenceOrder>();
    }
  }

  /// A remark per pair left unfused, on the later node, and one summary.
  void emitExplanations(const FusionPlan &plan) {
    for (const Refusal &refusal : plan.refusals)
      emitRefusalRemark(refusal.anchor->getLoc(), refusal.first,
                        refusal.second, getRefusalKey(refusal.reason),
                        getRefusalMessage(refusal.reason));
    emitFusionSummaryRemark(getOperation().getLoc(), plan);
  }
};
} // namespace
