//===- PlannerTiling.cpp - SIMD tiling and iteration spaces ---------------===//
//
// The backend's half of can_fuse: Inductor's SIMDScheduling.can_fuse
// (simd.py), whether two kernels' iteration spaces agree, and the tiling of
// pointwise kernels (candidate_tilings, select_tiling) it compares.
//
//===----------------------------------------------------------------------===//

#include "FusionPlannerImpl.h"

#include "scheduler-opt/Analysis/SizeVars.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/LoopUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::planner;

/// Inductor's `SIMDKernel._split_iteration_ranges` feasibility: can the loop
/// sizes of a node be split onto the kernel's iteration groups? Sizes may be
/// symbolic: a split needs `statically_known_multiple_of`, as Inductor's
/// (CantSplit otherwise).
static bool isCompatible(ArrayRef<AffineExpr> groupSizes, NodeOp node) {
  SmallVector<AffineExpr> remaining(groupSizes);
  unsigned current = 0;
  auto isOne = [](AffineExpr e) { return getStaticSize(e) == 1; };
  auto addRange = [&](unsigned i, AffineExpr size) {
    if (i >= remaining.size() || getStaticSize(size) == 0)
      return false;
    std::optional<AffineExpr> rest =
        SizeVars::exactQuotient(remaining[i], size);
    if (!rest)
      return false;
    remaining[i] = *rest;
    return true;
  };
  for (AffineExpr size : node.getLoopSizeExprs()) {
    if (isOne(size))
      continue;
    while (current < remaining.size() && isOne(remaining[current]))
      ++current;
    if (current + 1 < remaining.size() &&
        SizeVars::staticallyKnownGt(size, remaining[current])) {
      std::optional<AffineExpr> inner =
          SizeVars::exactQuotient(size, remaining[current]);
      if (!inner)
        return false;
      AffineExpr outer = remaining[current];
      if (!addRange(current, outer) || !addRange(current + 1, *inner))
        return false;
    } else if (!addRange(current, size)) {
      return false;
    }
  }
  return llvm::all_of(remaining, isOne);
}

/// isCompatible(groupSizes, node), asked once per node and group sizes
/// while the node keeps its loop order (the groups of the candidate pairs
/// of every round ask again for the same leaves).
bool Planner::fitsGroups(ArrayRef<AffineExpr> groupSizes, NodeOp node) {
  assert(groupSizes.size() <= 3 && "a kernel has at most three groups");
  std::array<AffineExpr, 3> sizes = {};
  llvm::copy(groupSizes, sizes.begin());
  SmallVector<GroupFit, 2> &fits = groupFits[node.getOperation()];
  for (const GroupFit &fit : fits)
    if (fit.sizes == sizes)
      return fit.fits;
  bool result = isCompatible(groupSizes, node);
  fits.push_back({sizes, result});
  return result;
}

/// Drops what was kept about `leaf` that depends on its loop order.
void Planner::forgetLoopOrder(NodeOp leaf) {
  tilingCache.erase(leaf.getOperation());
  groupFits.erase(leaf.getOperation());
}

/// SizeVars::product of two expressions, once per pair.
AffineExpr Planner::product(AffineExpr a, AffineExpr b) {
  auto [it, inserted] = products.try_emplace({a, b});
  if (inserted)
    it->second = SizeVars::product(graph.getContext(), {a, b});
  return it->second;
}

/// Inductor's SIMDScheduling.candidate_tilings: for each access of a
/// pointwise node that walks memory contiguously along an outer loop (a
/// transpose), the 2D tiling splitting its loops there, scored.
ArrayRef<Planner::TilingCandidate> Planner::candidateTilings(NodeOp node) {
  auto [it, inserted] = tilingCache.try_emplace(node.getOperation());
  if (!inserted)
    return it->second;
  SmallVector<TilingCandidate> &candidates = it->second;
  SmallVector<AffineExpr> ranges = node.getRangeExprs();
  if (ranges.size() <= 1 || node.isReduction())
    return candidates;
  // is_good_size and the scores use the size hints.
  auto isGoodSize = [&](AffineExpr e) {
    int64_t s = sizeVars.sizeHint(e);
    return s >= 32 && s % 32 == 0;
  };
  // The loads in walk order, then the stores in walk order: one walk.
  SmallVector<std::pair<Operation *, StringAttr>> accesses, stores;
  SmallVector<StringAttr> writeNames;
  node.getBodyBlock().walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      accesses.push_back({op, getBufferName(load.getBuffer())});
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      auto handle = cast<BlockArgument>(store.getBuffer());
      StringAttr name =
          node.getBufferName(handle.getArgNumber() - node.getNumLoops());
      stores.push_back({op, name});
      writeNames.push_back(name);
    }
  });
  llvm::append_range(accesses, stores);
  int64_t nodeNumel = sizeVars.sizeHint(node.getNumelExpr());
  for (auto [access, name] : accesses) {
    std::optional<SmallVector<int64_t>> strides = loopStrides.get(node, access);
    if (!strides)
      continue;
    strides->truncate(ranges.size());
    auto unit = llvm::find(*strides, 1);
    if (unit == strides->end())
      continue;
    unsigned split = unit - strides->begin() + 1;
    if (split == ranges.size())
      continue;
    if (llvm::all_of(ArrayRef(*strides).drop_front(split),
                     [](int64_t s) { return s == 0; }))
      continue;
    MLIRContext *ctx = node.getContext();
    AffineExpr outer = SizeVars::product(ctx, ArrayRef(ranges).take_front(split));
    AffineExpr inner = SizeVars::product(ctx, ArrayRef(ranges).drop_front(split));
    int64_t score = 1;
    for (unsigned d = 0; d < ranges.size(); ++d)
      if ((*strides)[d] != 0)
        score = saturatingMul(score, sizeVars.sizeHint(ranges[d]));
    // Size hints are unbounded, and the bonuses may not fit either.
    if (llvm::is_contained(writeNames, name))
      score = saturatingMul(score, 2);
    if (isGoodSize(outer))
      score = saturatingMul(score, 2);
    if (isGoodSize(inner))
      score = saturatingMul(score, 2);
    if (score < nodeNumel)
      continue;
    candidates.push_back({{outer, inner}, score, name});
  }
  return candidates;
}

/// Inductor's SIMDScheduling.select_tiling for pointwise kernels: a 2D
/// tiling when enough accesses walk memory contiguously along an outer
/// loop (a transpose), else (numel, rnumel).
Tiling Planner::selectTiling(ArrayRef<NodeOp> nodes, AffineExpr numel,
                             AffineExpr rnumel) {
  Tiling fallback = {numel, rnumel};
  if (getStaticSize(rnumel) != 1)
    return fallback;
  llvm::SmallDenseSet<StringAttr, 8> seenNames;
  // Tilings ranked by total score; ties keep first-seen order
  // (Counter.most_common).
  llvm::MapVector<std::pair<AffineExpr, AffineExpr>, int64_t> scores;
  for (NodeOp node : nodes)
    for (const TilingCandidate &candidate : candidateTilings(node))
      if (seenNames.insert(candidate.name).second)
        scores[candidate.tiling] += candidate.score;
  if (scores.empty())
    return fallback;
  SmallVector<std::pair<std::pair<AffineExpr, AffineExpr>, int64_t>> ranked(
      scores.begin(), scores.end());
  llvm::stable_sort(ranked, [](const auto &a, const auto &b) {
    return a.second > b.second;
  });
  for (auto &[tiling, score] : ranked) {
    AffineExpr groupSizes[] = {tiling.first, tiling.second, rnumel};
    if (llvm::all_of(nodes,
                     [&](NodeOp n) { return fitsGroups(groupSizes, n); }))
      return {tiling.first, tiling.second, rnumel};
  }
  return fallback;
}

/// selectTiling of a group's leaves in its own shape, kept while the group
/// keeps its version. A copy: the next call may move the table.
Tiling Planner::groupTiling(const Group &group) {
  unsigned id = &group - groups.data();
  auto [it, inserted] = groupTilings.try_emplace(id);
  if (inserted || it->second.first != group.version)
    it->second = {group.version,
                  selectTiling(group.leaves, group.numel, group.rnumel)};
  return it->second.second;
}

/// SIMDScheduling.can_fuse: foreach kernels follow their own rules;
/// otherwise the kernels' iteration spaces must agree.
std::optional<RefusalReason> Planner::whyNotFuseBackend(unsigned g1,
                                                        unsigned g2) {
  if (groups[g1].isForeach() || groups[g2].isForeach())
    return whyNotFuseForeach(g1, g2);
  return whyNotFuseShapes(groups[g1], groups[g2]);
}

/// The iteration spaces of two kernels that are not foreach kernels.
std::optional<RefusalReason> Planner::whyNotFuseShapes(const Group &g1,
                                                       const Group &g2) {
  if (g1.isReduction && g2.isReduction) {
    if (g1.numel != g2.numel || g1.rnumel != g2.rnumel)
      return RefusalReason::ReductionShapeMismatch;
    return std::nullopt;
  }
  if (!g1.isReduction && !g2.isReduction) {
    if (g1.numel != g2.numel || g1.rnumel != g2.rnumel)
      return RefusalReason::PointwiseShapeMismatch;
    // The groups' shapes are equal: each one's tiling is its own.
    Tiling t1 = groupTiling(g1);
    Tiling t2 = groupTiling(g2);
    // Without a 2D tiling on either side the merged one does not matter.
    if (t1.size() <= 2 && t2.size() <= 2)
      return std::nullopt;
    SmallVector<NodeOp, 8> both(g1.leaves.begin(), g1.leaves.end());
    llvm::append_range(both, g2.leaves);
    Tiling t3 = selectTiling(both, g1.numel, g1.rnumel);
    bool ok = true;
    if (t1.size() > 2)
      ok = t2.size() > 2 ? (t1 == t2 && t2 == t3) : t1 == t3;
    else
      ok = t2 == t3;
    if (!ok)
      return RefusalReason::TilingMismatch;
    return std::nullopt;
  }
  const Group &pointwise = g1.isReduction ? g2 : g1;
  const Group &reduction = g1.isReduction ? g1 : g2;
  MLIRContext *ctx = graph.getContext();
  if (pointwise.numel == product(reduction.numel, reduction.rnumel)) {
    AffineExpr groupSizes[] = {reduction.numel, reduction.rnumel};
    if (!llvm::all_of(pointwise.leaves,
                      [&](NodeOp n) { return fitsGroups(groupSizes, n); }))
      return RefusalReason::ReductionShapeIncompatible;
    AffineExpr one = getCachedConstantExpr(1, ctx);
    Tiling tiling = pointwise.rnumel == one
                        ? groupTiling(pointwise)
                        : selectTiling(pointwise.leaves, pointwise.numel, one);
    Tiling flat = {pointwise.numel, one};
    Tiling split = {reduction.numel, reduction.rnumel, one};
    if (tiling != flat && tiling != split)
      return RefusalReason::ReductionTiling;
    return std::nullopt;
  }
  if (pointwise.numel != reduction.numel)
    return RefusalReason::ReductionShapeIncompatible;
  return std::nullopt;
}
