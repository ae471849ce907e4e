//===- FusionPlanner.cpp - Inductor's fuse_nodes, decided -----------------===//
//
// The decision half of fusion-fuse-nodes. Names follow Inductor's
// scheduler.py: a "group" is a scheduler node being fused (a
// FusedSchedulerNode once it has several members), a "unit" a top-level
// node of the input graph. Groups keep the merged read/write dependences
// Inductor's FusedSchedulerNode keeps. Instead of Inductor's ancestor sets,
// which grow quadratically with the graph, the planner keeps the schedule
// itself: every group has a slot, slots are a topological order, and a
// fusion moves only groups between the two it merges. A path between two
// groups can only go through groups between their slots, so reachability
// is a depth-first search pruned by slots; and the live bytes of every slot
// sit in a range-max tree, so whether a fusion raises the peak is known
// from the buffers of the groups it moves.
//
//===----------------------------------------------------------------------===//

#include "FusionPlannerImpl.h"

#include "fusion/Analysis/MemoryProfile.h"
#include "fusion/Analysis/SizeVars.h"
#include "fusion/Dialect/Fusion/IR/SizeChecks.h"
#include "fusion/Dialect/Fusion/Transforms/LoopUtils.h"
#include "fusion/Support/RangeMaxTree.h"
#include "fusion/Support/ReachabilityIndex.h"
#include "fusion/Support/TopologicalOrder.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"

#include <numeric>

#define DEBUG_TYPE "fusion-fuse-nodes"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::planner;

//===----------------------------------------------------------------------===//
// Refusal reasons
//===----------------------------------------------------------------------===//

namespace {
struct ReasonInfo {
  RefusalReason reason;
  const char *key;
  const char *message;
};
} // namespace

/// Keys are stable identifiers for tools; messages are Inductor's WhyNoFuse
/// texts where Inductor has one.
static constexpr ReasonInfo kReasons[] = {
    {RefusalReason::ExternOrNop, "extern-or-nop", "node is extern or nop"},
    {RefusalReason::Grouped, "grouped",
     "grouped node must not be fused with other nodes"},
    {RefusalReason::Order, "order", "node1 must go before node2"},
    {RefusalReason::NoSharedData, "no-shared-data", "no shared data"},
    {RefusalReason::MaxFusionSize, "max-fusion-size", "exceeds max fusion"},
    {RefusalReason::InductorPeakMemory, "inductor-peak-memory",
     "Fusion will increase peak memory"},
    {RefusalReason::MemoryDepsMismatch, "memory-deps-mismatch",
     "memory deps did not match"},
    {RefusalReason::IntermediateNodes, "intermediate-nodes",
     "intermediate nodes between node1 & node2"},
    {RefusalReason::ReductionShapeMismatch, "numel-mismatch-reduce",
     "numel/rnumel mismatch (reduce)"},
    {RefusalReason::PointwiseShapeMismatch, "numel-mismatch-pointwise",
     "numel/rnumel mismatch (non-reduce)"},
    {RefusalReason::ReductionShapeIncompatible, "numel-incompatible",
     "nodes numel/rnumel incompatibility"},
    {RefusalReason::TilingMismatch, "tiling-mismatch", "tiling mismatch"},
    {RefusalReason::ReductionTiling, "reduction-tiling",
     "invalid tiling for reduction"},
    {RefusalReason::ScoreThreshold, "score-threshold",
     "score_fusion_memory_threshold"},
    {RefusalReason::LongDistance, "long-distance",
     "Nodes are too far away. Fusing them may increase peak memory."},
    {RefusalReason::HorizontalDisabled, "horizontal-disabled",
     "horizontal fusion is disabled"},
    {RefusalReason::Cycle, "cycle", "will create cycle"},
    {RefusalReason::ForeachLengthMismatch, "foreach-length",
     "foreach do not have same length"},
    {RefusalReason::ForeachProducerReduction, "foreach-producer-reduction",
     "candidate producer is a reduction, foreach ops cannot be fused with "
     "reductions currently"},
    {RefusalReason::ForeachConsumerReduction, "foreach-consumer-reduction",
     "candidate consumer is a reduction, foreach ops cannot be fused with "
     "reductions currently"},
    {RefusalReason::ForeachNoConsumerPart, "foreach-no-consumer-part",
     "candidate producer is not dep of any foreach consumer"},
    {RefusalReason::ForeachNoProducerPart, "foreach-no-producer-part",
     "candidate consumer has no dep in any foreach producer"},
    {RefusalReason::ForeachPartsDepend, "foreach-parts-depend",
     "one part of the foreach kernel would read what another part writes"},
    {RefusalReason::InPlaceRace, "in-place-race",
     "node2 would overwrite in place what node1 reads at another index"},
    {RefusalReason::PeakMemory, "peak-memory",
     "fusion would raise peak memory above the unfused schedule's"},
};

StringRef mlir::fusion::getRefusalKey(RefusalReason reason) {
  return kReasons[static_cast<unsigned>(reason)].key;
}

StringRef mlir::fusion::getRefusalMessage(RefusalReason reason) {
  return kReasons[static_cast<unsigned>(reason)].message;
}

//===----------------------------------------------------------------------===//
// Dependence arithmetic (dependencies.py)
//===----------------------------------------------------------------------===//

/// A linear index: sum of stride * dim (strides in the size symbols), plus
/// a part without dims.
struct LinearIndex {
  SmallVector<AffineExpr> strides;
  AffineExpr rest;
};

/// Decomposes `expr` over `numDims` dims into strides and a dim-free rest;
/// nullopt unless every dim appears only linearly.
static std::optional<LinearIndex> decomposeLinear(AffineExpr expr,
                                                  unsigned numDims,
                                                  unsigned numSizeSymbols) {
  // A scale may use size symbols, not indirect indices.
  auto isScale = [&](AffineExpr e) {
    return e.isSymbolicOrConstant() && getNumSymbolsUsed(e) <= numSizeSymbols;
  };
  MLIRContext *ctx = expr.getContext();
  LinearIndex result{
      SmallVector<AffineExpr>(numDims, getAffineConstantExpr(0, ctx)),
      getAffineConstantExpr(0, ctx)};
  SmallVector<std::pair<AffineExpr, AffineExpr>> worklist = {
      {expr, getAffineConstantExpr(1, ctx)}};
  while (!worklist.empty()) {
    auto [e, scale] = worklist.pop_back_val();
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      AffineExpr &stride = result.strides[dim.getPosition()];
      stride = SizeVars::simplify(stride + scale);
      continue;
    }
    if (llvm::none_of(llvm::seq(0u, numDims),
                      [&](unsigned d) { return e.isFunctionOfDim(d); })) {
      result.rest = result.rest + e * scale;
      continue;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return std::nullopt;
    if (bin.getKind() == AffineExprKind::Add) {
      worklist.push_back({bin.getLHS(), scale});
      worklist.push_back({bin.getRHS(), scale});
      continue;
    }
    // A factor in the size symbols only scales the stride (`d0 * s0`).
    if (bin.getKind() == AffineExprKind::Mul) {
      if (isScale(bin.getRHS())) {
        worklist.push_back({bin.getLHS(), scale * bin.getRHS()});
        continue;
      }
      if (isScale(bin.getLHS())) {
        worklist.push_back({bin.getRHS(), scale * bin.getLHS()});
        continue;
      }
    }
    return std::nullopt;
  }
  result.rest = SizeVars::simplify(result.rest);
  return result;
}


/// Inductor's `_simplify_loops` on one linear index (with
/// `index_prevent_reordering`, so only adjacent dims merge): drops dims of
/// size 1, merges an outer dim into the next inner one when its stride is
/// the inner dim's stride times the inner size, and renames the dims left.
/// With `byStride`, first orders the dims by decreasing stride
/// (`normalize_with_stride_order`); otherwise drops trailing unused dims
/// (`normalize`). Nullopt for a non-linear index. Sizes and strides may use
/// size symbols: merging needs `stride(outer) == stride(inner) *
/// size(inner)` statically known, the stride order uses the hints.
static std::optional<NormalizedDep> normalizeDep(MemoryDepAttr dep,
                                                 bool byStride,
                                                 SizeVars &sizeVars) {
  AffineMap map = dep.getIndex();
  ArrayRef<AffineExpr> depSizes = dep.getSizes();
  std::optional<LinearIndex> linear =
      decomposeLinear(map.getResult(0), map.getNumDims(),
                      sizeVars.getHints().size());
  if (!linear)
    return std::nullopt;
  SmallVector<unsigned> order(depSizes.size());
  std::iota(order.begin(), order.end(), 0);
  if (byStride) {
    SmallVector<int64_t> hints = llvm::map_to_vector(
        linear->strides, [&](AffineExpr e) { return sizeVars.sizeHint(e); });
    llvm::stable_sort(order,
                      [&](unsigned a, unsigned b) { return hints[a] > hints[b]; });
  }
  MLIRContext *ctx = map.getContext();
  // (size, stride) outermost first.
  SmallVector<std::pair<AffineExpr, AffineExpr>> dims;
  for (unsigned d : order)
    if (getStaticSize(depSizes[d]) != 1)
      dims.push_back({depSizes[d], linear->strides[d]});
  for (unsigned inner = dims.size(); inner-- > 1;) {
    auto &outerDim = dims[inner - 1];
    auto &innerDim = dims[inner];
    if (SizeVars::staticallyKnownEquals(outerDim.second,
                                        innerDim.second * innerDim.first)) {
      innerDim.first = SizeVars::product(ctx, {innerDim.first, outerDim.first});
      dims.erase(dims.begin() + inner - 1);
    }
  }
  if (!byStride)
    while (!dims.empty() && getStaticSize(dims.back().second) == 0)
      dims.pop_back();
  AffineExpr index = linear->rest;
  NormalizedDep result{dep.getName(), nullptr, {}};
  for (auto [d, dim] : llvm::enumerate(dims)) {
    index = index + getAffineDimExpr(d, ctx) * dim.second;
    result.sizes.push_back(dim.first);
  }
  result.index = SizeVars::simplify(
      simplifyAffineExpr(index, dims.size(), map.getNumSymbols()));
  return result;
}

//===----------------------------------------------------------------------===//
// The planner
//===----------------------------------------------------------------------===//

std::string Group::getName() const {
  return llvm::join(llvm::map_range(leaves,
                                    [](NodeOp node) {
                                      return node.getName().str();
                                    }),
                    "_");
}

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

Group Planner::makeUnitGroup(unsigned unit) {
  SchedulerNodeOpInterface op = deps.getNode(unit);
  Group group;
  group.units = {unit};
  group.minOrder = group.maxOrder = position[unit];
  group.isReduction = false;
  group.numel = group.rnumel = getAffineConstantExpr(1, graph.getContext());
  Operation *raw = op.getOperation();
  if (isa<ExternOp>(raw))
    group.kind = GroupKind::Extern;
  else if (isa<NopOp>(raw))
    group.kind = GroupKind::Nop;
  else if (isa<GroupOp>(raw))
    group.kind = GroupKind::Grouped;
  else if (isa<ForeachOp>(raw))
    group.kind = GroupKind::Foreach;
  else if (isa<FusedOp>(raw))
    group.kind = GroupKind::Fused;
  else
    group.kind = GroupKind::Node;
  if (group.isFusable()) {
    SmallVector<SchedulerNodeOpInterface> leaves;
    op.getLeafNodes(leaves);
    bool first = true;
    for (SchedulerNodeOpInterface leaf : leaves) {
      auto node = cast<NodeOp>(leaf.getOperation());
      group.leaves.push_back(node);
      // Inductor's group of a fused node is that of a reduction member.
      if (first || (node.isReduction() && !group.isReduction)) {
        group.numel = SizeVars::simplify(node.getNumelExpr());
        group.rnumel = SizeVars::simplify(node.getReductionNumelExpr());
      }
      group.isReduction |= node.isReduction();
      first = false;
    }
  }
  for (unsigned r = 0, e = raw->getNumResults(); r < e; ++r)
    group.bufferNames.insert(op.getBufferName(r));
  SmallVector<SchedulerNodeOpInterface> leaves;
  op.getLeafNodes(leaves);
  for (SchedulerNodeOpInterface leaf : leaves)
    for (unsigned r = 0, e = leaf->getNumResults(); r < e; ++r)
      group.bufferNames.insert(leaf.getBufferName(r));
  return group;
}

void Planner::refreshUnitDeps(unsigned unit) {
  UnitDeps &ud = unitDeps[unit];
  SchedulerNodeOpInterface op = deps.getNode(unit);
  // Reordering loops changes the memory dependences of the body; the fake
  // dependences mutation adds (StarDeps, WeakDeps) stay.
  SmallVector<Attribute, 4> fakes;
  for (Attribute dep : ud.reads)
    if (!isa<MemoryDepAttr>(dep))
      fakes.push_back(dep);
  SmallVector<SchedulerNodeOpInterface> leaves;
  op.getLeafNodes(leaves);
  ud.reads.clear();
  ud.writes.clear();
  for (SchedulerNodeOpInterface leaf : leaves) {
    ReadWrites rw = computeReadWrites(leaf);
    for (Attribute dep : rw.reads)
      if (!llvm::is_contained(ud.reads, dep))
        ud.reads.push_back(dep);
    for (Attribute dep : rw.writes)
      if (!llvm::is_contained(ud.writes, dep))
        ud.writes.push_back(dep);
  }
  if (leaves.size() > 1) {
    // A pre-existing fused unit: its own writes satisfy its reads.
    llvm::erase_if(ud.reads, [&](Attribute dep) {
      return llvm::is_contained(ud.writes, dep);
    });
  }
  for (Attribute dep : fakes)
    if (!llvm::is_contained(ud.reads, dep))
      ud.reads.push_back(dep);
  // Unmet: produced by another node of the graph.
  ud.unmet.clear();
  for (Attribute dep : ud.reads) {
    std::optional<unsigned> producer = producerUnit(getDepName(dep));
    if (producer && *producer != unit)
      ud.unmet.push_back(dep);
  }
}

void Planner::recomputeGroupDeps(Group &group) {
  // Inductor's ReadWrites.merge_list and refresh_group_node_dependencies.
  group.reads.clear();
  group.writes.clear();
  group.unmet.clear();
  for (unsigned unit : group.units)
    group.writes.insert(unitDeps[unit].writes.begin(),
                        unitDeps[unit].writes.end());
  for (unsigned unit : group.units) {
    for (Attribute dep : unitDeps[unit].reads)
      if (!group.writes.contains(dep))
        group.reads.insert(dep);
    for (Attribute dep : unitDeps[unit].unmet)
      if (!group.bufferNames.contains(getDepName(dep)) &&
          !group.writes.contains(dep))
        group.unmet.insert(dep);
  }
}

LogicalResult Planner::initialize() {
  unsigned numUnits = deps.getNumNodes();
  std::optional<SmallVector<unsigned>> order = stableTopologicalOrder(
      numUnits, [&](unsigned n) { return deps.getPredecessors(n); },
      [&](unsigned n) { return deps.getSuccessors(n); });
  if (!order)
    return graph.emitOpError("dependence graph could not be ordered");
  SmallVector<unsigned> inputOrder = std::move(*order);
  position.assign(numUnits, 0);
  for (auto [pos, unit] : llvm::enumerate(inputOrder))
    position[unit] = pos;

  unitDeps.resize(numUnits);
  groupOf.resize(numUnits);
  partOf.assign(numUnits, kNoGroup);
  groups.reserve(numUnits);
  for (unsigned unit = 0; unit < numUnits; ++unit) {
    groupOf[unit] = unit;
    groups.push_back(makeUnitGroup(unit));
    UnitDeps &ud = unitDeps[unit];
    llvm::append_range(ud.reads, deps.getReads(unit));
    llvm::append_range(ud.writes, deps.getWrites(unit));
    llvm::append_range(ud.unmet, deps.getUnmetDependencies(unit));
  }
  for (Group &group : groups)
    recomputeGroupDeps(group);
  visitStamp.assign(numUnits, 0);
  unitStamp.assign(numUnits, 0);
  reachability = ReachabilityIndex(
      numUnits, [&](unsigned n) { return deps.getSuccessors(n); });

  // Inductor's create_foreach_nodes: the lists become foreach nodes, placed
  // after the other nodes before its topological sort.
  for (unsigned g = 0; g < numUnits; ++g)
    firstRoundOrder.push_back(g);
  llvm::stable_sort(firstRoundOrder, [&](unsigned a, unsigned b) {
    return position[a] < position[b];
  });
  SmallVector<unsigned> foreachGroups;
  for (ArrayRef<unsigned> list : foreachLists)
    foreachGroups.push_back(makeForeach(list));
  llvm::erase_if(firstRoundOrder, [&](unsigned g) {
    return !groups[g].alive || groups[g].isForeach();
  });
  llvm::append_range(firstRoundOrder, foreachGroups);

  // The input order is the first schedule, with a free slot after every
  // group for placeFusion.
  unsigned numSlots = 2 * numUnits;
  slotOf.resize(numUnits);
  assignSlots([&](unsigned g) { return groups[g].minOrder; });
  storages = collectStorageUses(deps, &sizeVars);
  storagesOfUnit.resize(numUnits);
  for (auto [index, use] : llvm::enumerate(storages)) {
    storagesOfUnit[use.producer].push_back(index);
    for (unsigned reader : use.readers)
      if (storagesOfUnit[reader].empty() ||
          storagesOfUnit[reader].back() != index)
        storagesOfUnit[reader].push_back(index);
  }
  SmallVector<int64_t> live(numSlots, 0);
  storageLive.reserve(storages.size());
  storageStamp.assign(storages.size(), 0);
  for (const StorageUse &use : storages) {
    auto [begin, end] = storageInterval(
        use, [&](unsigned unit) { return groupOf[unit]; },
        [&](unsigned g) { return slotOf[g]; }, /*merged=*/false);
    storageLive.push_back({begin, end});
    // Prefix sums of begin/end deltas.
    if (begin != end) {
      live[begin] += use.bytes;
      if (end < numSlots)
        live[end] -= use.bytes;
    }
  }
  for (unsigned slot = 1; slot < numSlots; ++slot)
    live[slot] += live[slot - 1];
  baselinePeak = 0;
  for (int64_t bytes : live)
    baselinePeak = std::max(baselinePeak, bytes);
  if (options.peakMemory == PeakMemoryPolicy::NeverRaise)
    liveTree = RangeMaxTree(live);
  plan.peakBytesBefore = baselinePeak;
  return success();
}

//===----------------------------------------------------------------------===//
// Graph queries
//===----------------------------------------------------------------------===//

/// True when there is a path from `from` to `to`; with `viaOther`, a path
/// through at least one other group (a direct edge does not count).
bool Planner::reaches(unsigned from, unsigned to, bool viaOther) {
  unsigned limit = slotOf[to];
  if (slotOf[from] >= limit)
    return false;
  ++stamp;
  SmallVector<unsigned> stack;
  bool found = false;
  forEachSuccessorGroup(from, [&](unsigned succ) {
    if (succ == to) {
      found |= !viaOther;
      return;
    }
    if (slotOf[succ] < limit && visitStamp[succ] != stamp) {
      visitStamp[succ] = stamp;
      stack.push_back(succ);
    }
  });
  while (!found && !stack.empty()) {
    unsigned g = stack.pop_back_val();
    forEachSuccessorGroup(g, [&](unsigned succ) {
      if (succ == to) {
        found = true;
        return;
      }
      if (slotOf[succ] < limit && visitStamp[succ] != stamp) {
        visitStamp[succ] = stamp;
        stack.push_back(succ);
      }
    });
  }
  return found;
}

/// Inductor's `node1.get_operation_names() & node2.ancestors`: some unit of
/// g1 is an ancestor of some unit of g2 in the input graph. Unlike reaches(),
/// it ignores paths that only exist because of other fusions, as Inductor's
/// ancestor sets do. Input positions are a topological order, so the search
/// never goes past the last unit of g2.
bool Planner::isAncestor(unsigned g1, unsigned g2) {
  // A path between units is a path between their groups, and slots are a
  // topological order of the groups.
  if (slotOf[topGroup(g1)] >= slotOf[topGroup(g2)])
    return false;
  ArrayRef<unsigned> targets = groups[g2].units;
  unsigned last = 0;
  for (unsigned unit : targets)
    last = std::max(last, position[unit]);
  // Only nodes that may reach a target are worth entering; the interval
  // labels answer most of these questions without a search: first against
  // the union of the targets' intervals, then, for few targets, each.
  ReachabilityIndex::TargetSet targetSet = reachability.makeTargetSet(targets);
  auto promising = [&](unsigned unit) {
    if (!reachability.mayReachAny(unit, targetSet))
      return false;
    return targets.size() > 8 ||
           llvm::any_of(targets, [&](unsigned target) {
             return reachability.mayReach(unit, target);
           });
  };
  ++stamp;
  SmallVector<unsigned> stack;
  for (unsigned unit : groups[g1].units) {
    unitStamp[unit] = stamp;
    if (promising(unit))
      stack.push_back(unit);
  }
  while (!stack.empty()) {
    unsigned unit = stack.pop_back_val();
    for (unsigned succ : deps.getSuccessors(unit)) {
      if (inGroup(succ, g2))
        return true;
      if (position[succ] < last && unitStamp[succ] != stamp) {
        unitStamp[succ] = stamp;
        if (promising(succ))
          stack.push_back(succ);
      }
    }
  }
  return false;
}

/// Inductor's will_fusion_create_cycle: a path between the two groups that
/// leaves them through another group.
bool Planner::createsCycle(unsigned g1, unsigned g2) {
  return reaches(g1, g2, /*viaOther=*/true) ||
         reaches(g2, g1, /*viaOther=*/true);
}

//===----------------------------------------------------------------------===//
// Memory scores
//===----------------------------------------------------------------------===//

int64_t Planner::bufferElements(StringAttr name) {
  Value buffer = deps.lookupBuffer(name);
  auto type = buffer ? dyn_cast<BufferType>(buffer.getType()) : BufferType();
  if (!type)
    return 0;
  return sizeVars.sizeHint(SizeVars::product(
      type.getContext(), type.getSizeExprs()));
}

/// MemoryDep.get_numel: the elements an access touches (the sizes of the
/// dims its index uses; the whole buffer for an indirect access).
int64_t Planner::depElements(MemoryDepAttr dep) {
  if (isIndirect(dep))
    return bufferElements(dep.getName());
  int64_t numel = 1;
  AffineExpr index = dep.getIndex().getResult(0);
  for (auto [d, size] : llvm::enumerate(dep.getSizes()))
    if (index.isFunctionOfDim(d))
      numel = saturatingMul(numel, sizeVars.sizeHint(size));
  return numel;
}

/// Inductor's dep_size_hint: the bytes an access touches.
int64_t Planner::depSize(Attribute dep) {
  auto [it, inserted] = depSizeCache.try_emplace(dep, 0);
  if (!inserted)
    return it->second;
  if (isa<WeakDepAttr>(dep))
    return it->second = 1;
  StringAttr name = getDepName(dep);
  Value buffer = deps.lookupBuffer(name);
  auto type = buffer ? dyn_cast<BufferType>(buffer.getType()) : BufferType();
  if (!type)
    return it->second;
  int64_t itemSize =
      std::max<int64_t>(type.getElementType().getIntOrFloatBitWidth() / 8, 1);
  auto memory = dyn_cast<MemoryDepAttr>(dep);
  int64_t numel = memory ? depElements(memory) : bufferElements(name);
  return it->second = saturatingMul(numel, itemSize);
}

/// Inductor's score_fusion_memory: bytes of the dependences both share.
int64_t Planner::scoreFusionMemory(const Group &g1, const Group &g2) {
  int64_t score = 0;
  auto shares = [&](Attribute dep) {
    return g2.reads.contains(dep) || g2.writes.contains(dep);
  };
  for (Attribute dep : g1.reads)
    if (shares(dep))
      score = saturatingAdd(score, depSize(dep));
  for (Attribute dep : g1.writes)
    if (!g1.reads.contains(dep) && shares(dep))
      score = saturatingAdd(score, depSize(dep));
  return score;
}

/// Inductor's shared_data_after_reordering_loop: when the groups access a
/// shared buffer in different loop orders, reorder the pointwise one's loops
/// to match, then score again. Nullopt (Inductor's -1) keeps the old score.
std::optional<int64_t>
Planner::sharedDataAfterReorderingLoop(unsigned g1, unsigned g2) {
  if (options.reorderLoops == LoopReorderPolicy::Off)
    return std::nullopt;
  // ReadWrites.buffer_names(): buffers accessed through a MemoryDep whose
  // index is not a constant (load_seed).
  auto bufferNames = [](const Group &g) {
    llvm::SetVector<StringAttr> names;
    for (const llvm::SetVector<Attribute> *list : {&g.reads, &g.writes})
      for (Attribute dep : *list)
        if (auto memory = dyn_cast<MemoryDepAttr>(dep))
          if (!isa<AffineConstantExpr>(memory.getIndex().getResult(0)))
            names.insert(memory.getName());
    return names;
  };
  // {dep.name: dep for dep in reads_and_writes()}: the last one wins.
  auto nameToDep = [](const Group &g) {
    DenseMap<StringAttr, Attribute> map;
    for (Attribute dep : g.reads)
      map[getDepName(dep)] = dep;
    for (Attribute dep : g.writes)
      map[getDepName(dep)] = dep;
    return map;
  };
  llvm::SetVector<StringAttr> names1 = bufferNames(groups[g1]);
  llvm::SetVector<StringAttr> names2 = bufferNames(groups[g2]);
  DenseMap<StringAttr, Attribute> deps1 = nameToDep(groups[g1]);
  DenseMap<StringAttr, Attribute> deps2 = nameToDep(groups[g2]);
  Attribute lhs, rhs;
  int64_t bestNumel = -1;
  for (StringAttr name : names1) {
    if (!names2.contains(name))
      continue;
    auto m1 = dyn_cast<MemoryDepAttr>(deps1[name]);
    auto m2 = dyn_cast<MemoryDepAttr>(deps2[name]);
    // A StarDep normalizes to itself, which a MemoryDep never equals.
    if (!m1 || !m2)
      continue;
    std::optional<NormalizedDep> n1 = normalized(m1, /*byStride=*/true);
    std::optional<NormalizedDep> n2 = normalized(m2, /*byStride=*/true);
    if (!n1 || !n2 || !(*n1 == *n2))
      continue;
    int64_t numel = depElements(m1);
    if (numel > bestNumel) {
      bestNumel = numel;
      lhs = m1;
      rhs = m2;
    }
  }
  auto lhsDep = dyn_cast_or_null<MemoryDepAttr>(lhs);
  auto rhsDep = dyn_cast_or_null<MemoryDepAttr>(rhs);
  if (!lhsDep || !rhsDep)
    return std::nullopt;
  if (lhsDep.getIndex().getNumDims() != rhsDep.getIndex().getNumDims()) {
    std::optional<NormalizedDep> n1 = normalized(lhsDep, false);
    std::optional<NormalizedDep> n2 = normalized(rhsDep, false);
    if (n1 && n2 && *n1 == *n2)
      return depSize(lhsDep);
    return std::nullopt;
  }
  auto reorder = [&](unsigned g, MemoryDepAttr self, MemoryDepAttr other) {
    Group &group = groups[g];
    if (failed(reorderLoopsByDepPair(group.leaves, self, other)))
      return false;
    for (NodeOp leaf : group.leaves)
      tilingCache.erase(leaf.getOperation());
    LLVM_DEBUG(llvm::dbgs() << "reordered loops of " << group.getName()
                            << "\n");
    recomputeAfterReorder(g);
    return true;
  };
  bool reordered = false;
  if (!groups[g1].isReduction)
    reordered = reorder(g1, lhsDep, rhsDep);
  else if (!groups[g2].isReduction)
    reordered = reorder(g2, rhsDep, lhsDep);
  if (!reordered)
    return std::nullopt;
  return scoreFusionMemory(groups[g1], groups[g2]);
}

/// Inductor's can_fusion_increase_peak_memory heuristic.
bool Planner::canFusionIncreasePeakMemory(const Group &g1, const Group &g2) {
  auto reuseKey = [&](Attribute dep) {
    auto [it, inserted] = reuseKeys.try_emplace(dep);
    if (inserted) {
      Value buffer = deps.lookupBuffer(getDepName(dep));
      auto type = buffer && !isa<BlockArgument>(buffer)
                      ? dyn_cast<BufferType>(buffer.getType())
                      : BufferType();
      // buffer_reuse_key: the storage size as a simplified expression.
      if (type && deps.getUsers(buffer).size() == 1)
        it->second = std::make_pair(
            type.getElementType(),
            SizeVars::simplify(type.getStorageSizeExpr()));
    }
    return it->second;
  };
  auto singleUserInputs = [&](const Group &g) {
    llvm::SetVector<std::pair<Type, AffineExpr>> keys;
    for (Attribute dep : g.reads)
      if (std::optional<std::pair<Type, AffineExpr>> key = reuseKey(dep))
        keys.insert(*key);
    return keys;
  };
  auto keys1 = singleUserInputs(g1);
  auto keys2 = singleUserInputs(g2);
  int64_t overhead = 0;
  for (auto key : keys1)
    if (keys2.contains(key))
      overhead = saturatingAdd(overhead, sizeVars.sizeHint(key.second));
  return overhead > saturatingMul(32, scoreFusionMemory(g1, g2));
}

/// Inductor's are_long_distant_nodes.
bool Planner::areLongDistant(const Group &g1, const Group &g2) const {
  int64_t proximity =
      std::max(std::abs(static_cast<int64_t>(g1.minOrder) - g2.maxOrder),
               std::abs(static_cast<int64_t>(g2.minOrder) - g1.maxOrder));
  return proximity > 64;
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

/// Inductor's mutation_renames: the newest version of a buffer.
StringAttr Planner::renamed(StringAttr name) {
  auto [it, inserted] = renamedCache.try_emplace(name);
  if (!inserted)
    return it->second;
  return it->second = computeRenamed(name);
}

StringAttr Planner::computeRenamed(StringAttr name) {
  Value buffer = deps.lookupBuffer(name);
  if (!buffer)
    return name;
  Value version = buffer;
  while (Value next = deps.getMutation(version))
    version = next;
  return version == buffer ? name : getBufferName(version);
}

/// Inductor's mutation_real_name: the buffer whose storage a version uses.
StringAttr Planner::realName(StringAttr name) {
  auto [it, inserted] = realNameCache.try_emplace(name);
  if (!inserted)
    return it->second;
  Value version = deps.lookupBuffer(name);
  if (!version)
    return name;
  while (auto result = dyn_cast<OpResult>(version)) {
    auto op = dyn_cast<SchedulerNodeOpInterface>(result.getOwner());
    Value old = op ? op.getMutatedBuffer(result.getResultNumber()) : Value();
    if (!old)
      break;
    version = old;
  }
  return it->second = getBufferName(version);
}

/// normalizeDep, memoized.
std::optional<NormalizedDep> Planner::normalized(MemoryDepAttr dep,
                                                 bool byStride) {
  auto [it, inserted] = normalizedCache.try_emplace({dep, byStride ? 1 : 0});
  if (inserted)
    it->second = normalizeDep(dep, byStride, sizeVars);
  return it->second;
}

/// Inductor's fusable_read_and_write.
bool Planner::fusableReadAndWrite(Attribute read, MemoryDepAttr write) {
  if (auto memory = dyn_cast<MemoryDepAttr>(read)) {
    // As Inductor, the read's name is renamed and the write's is not.
    if (renamed(memory.getName()) != write.getName() || isIndirect(memory) ||
        isIndirect(write))
      return false;
    AffineExpr readIndex = memory.getIndex().getResult(0);
    AffineExpr writeIndex = write.getIndex().getResult(0);
    SmallVector<AffineExpr> readSizes(memory.getSizes());
    SmallVector<AffineExpr> writeSizes(write.getSizes());
    if (options.reorderLoops != LoopReorderPolicy::Off &&
        readSizes.size() != writeSizes.size()) {
      std::optional<NormalizedDep> r = normalized(memory, false);
      std::optional<NormalizedDep> w = normalized(write, false);
      if (!r || !w)
        return false;
      readIndex = r->index;
      writeIndex = w->index;
      readSizes = r->sizes;
      writeSizes = w->sizes;
    }
    return SizeVars::staticallyKnownEquals(readIndex, writeIndex) &&
           readSizes.size() >= writeSizes.size() &&
           llvm::all_of(llvm::zip(readSizes, writeSizes), [](auto pair) {
             return SizeVars::staticallyKnownEquals(std::get<0>(pair),
                                                    std::get<1>(pair));
           });
  }
  if (auto star = dyn_cast<StarDepAttr>(read))
    return star.getMode() == write.getMode() && write.getMode() &&
           renamed(star.getName()) == renamed(write.getName());
  return false;
}

/// Inductor's fusable_weak_dep: the fused kernel updates in place exactly
/// the elements node1 read.
bool Planner::fusableWeakDep(WeakDepAttr weak, const Group &g1,
                             const Group &g2) {
  if (!g1.bufferNames.contains(weak.getName()))
    return false;
  MemoryDepAttr write;
  unsigned count = 0;
  for (Attribute dep : g2.writes)
    if (getDepName(dep) == weak.getMutating()) {
      write = dyn_cast<MemoryDepAttr>(dep);
      ++count;
    }
  if (count != 1 || !write || isIndirect(write))
    return false;
  StringAttr real = realName(weak.getMutating());
  for (Attribute dep : g1.reads) {
    if (getDepName(dep) != real)
      continue;
    auto read = dyn_cast<MemoryDepAttr>(dep);
    if (!read || isIndirect(read) || read.getIndex() != write.getIndex() ||
        read.getSizes() != write.getSizes())
      return false;
  }
  return true;
}

/// True when a member of `writer` overwrites a storage in place that a
/// member of `reader` reads at another index (or whole, or indirectly), so
/// that in one kernel some threads would read what others already
/// overwrote. Every version of the storage counts; reads of buffers that
/// `writer` itself produces are real dependences, left to
/// can_fuse_vertical.
bool Planner::racesInPlace(const Group &reader, const Group &writer) {
  for (unsigned w : writer.units)
    for (Attribute dep : unitDeps[w].writes) {
      auto write = dyn_cast<MemoryDepAttr>(dep);
      if (!write)
        continue;
      StringAttr storage = realName(write.getName());
      if (storage == write.getName())
        continue;
      for (unsigned r : reader.units)
        for (Attribute readDep : unitDeps[r].reads) {
          StringAttr name = getDepName(readDep);
          if (isa<WeakDepAttr>(readDep) || writer.bufferNames.contains(name) ||
              realName(name) != storage)
            continue;
          auto read = dyn_cast<MemoryDepAttr>(readDep);
          // A mutation's own ordering StarDep on the version it updates.
          if (!read && isa<StarDepAttr>(readDep) &&
              llvm::any_of(unitDeps[r].writes, [&](Attribute own) {
                return getDepName(own) != realName(getDepName(own)) &&
                       realName(getDepName(own)) == storage;
              }))
            continue;
          if (!read || isIndirect(read) || isIndirect(write) ||
              read.getIndex() != write.getIndex() ||
              read.getSizes() != write.getSizes())
            return true;
        }
    }
  return false;
}

/// Inductor's can_fuse_vertical: every read of node2 matches a write of
/// node1 or is produced by a node that can run before both.
std::optional<RefusalReason> Planner::whyNotFuseVertical(unsigned g1,
                                                         unsigned g2) {
  Group &node1 = groups[g1];
  Group &node2 = groups[g2];
  llvm::MapVector<StringAttr, SmallVector<Attribute, 2>> remaining;
  for (Attribute dep : node2.unmet) {
    if (auto weak = dyn_cast<WeakDepAttr>(dep))
      if (fusableWeakDep(weak, node1, node2))
        continue;
    remaining[renamed(getDepName(dep))].push_back(dep);
  }
  for (Attribute write : node1.writes) {
    auto memory = dyn_cast<MemoryDepAttr>(write);
    if (!memory)
      continue;
    auto it = remaining.find(renamed(memory.getName()));
    if (it == remaining.end())
      continue;
    llvm::erase_if(it->second, [&](Attribute read) {
      return fusableReadAndWrite(read, memory);
    });
  }
  llvm::SetVector<StringAttr> remainingNames;
  for (auto &[key, list] : remaining)
    for (Attribute dep : list)
      remainingNames.insert(getDepName(dep));
  for (StringAttr name : remainingNames)
    if (node1.bufferNames.contains(name))
      return RefusalReason::MemoryDepsMismatch;
  // Beyond Inductor: neither a WeakDep prune_redundant_deps dropped nor a
  // chain of mutations (fusable_weak_dep looks for reads of the first
  // version's name only) may hide a race.
  if (racesInPlace(node1, node2) || racesInPlace(node2, node1))
    return RefusalReason::InPlaceRace;
  for (StringAttr name : remainingNames) {
    std::optional<unsigned> producer = producerUnit(name);
    if (producer && !inGroup(*producer, g1) &&
        isAncestor(g1, groupOf[*producer]))
      return RefusalReason::IntermediateNodes;
  }
  return std::nullopt;
}

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
  SmallVector<std::pair<Operation *, StringAttr>> accesses;
  SmallVector<StringAttr> writeNames;
  node.getBodyBlock().walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      accesses.push_back({op, getBufferName(load.getBuffer())});
  });
  node.getBodyBlock().walk([&](Operation *op) {
    if (auto store = dyn_cast<StoreOp>(op)) {
      auto handle = cast<BlockArgument>(store.getBuffer());
      StringAttr name =
          node.getBufferName(handle.getArgNumber() - node.getNumLoops());
      accesses.push_back({op, name});
      writeNames.push_back(name);
    }
  });
  int64_t nodeNumel = sizeVars.sizeHint(node.getNumelExpr());
  for (auto [access, name] : accesses) {
    std::optional<SmallVector<int64_t>> strides = getLoopStrides(node, access);
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
                     [&](NodeOp n) { return isCompatible(groupSizes, n); }))
      return {tiling.first, tiling.second, rnumel};
  }
  return fallback;
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
    Tiling t1 = selectTiling(g1.leaves, g1.numel, g1.rnumel);
    Tiling t2 = selectTiling(g2.leaves, g1.numel, g1.rnumel);
    SmallVector<NodeOp, 8> both(g1.leaves.begin(), g1.leaves.end());
    llvm::append_range(both, g2.leaves);
    Tiling t3 = selectTiling(both, g1.numel, g1.rnumel);
    bool ok = true;
    if (t1.size() > 2)
      ok = t2.size() > 2 ? (t1 == t2 && t2 == t3) : t1 == t3;
    else if (t2.size() > 2)
      ok = t2 == t3;
    if (!ok)
      return RefusalReason::TilingMismatch;
    return std::nullopt;
  }
  const Group &pointwise = g1.isReduction ? g2 : g1;
  const Group &reduction = g1.isReduction ? g1 : g2;
  MLIRContext *ctx = graph.getContext();
  if (pointwise.numel ==
      SizeVars::product(ctx, {reduction.numel, reduction.rnumel})) {
    AffineExpr groupSizes[] = {reduction.numel, reduction.rnumel};
    if (!llvm::all_of(pointwise.leaves,
                      [&](NodeOp n) { return isCompatible(groupSizes, n); }))
      return RefusalReason::ReductionShapeIncompatible;
    AffineExpr one = getAffineConstantExpr(1, ctx);
    Tiling tiling = selectTiling(pointwise.leaves, pointwise.numel, one);
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

/// Inductor's Scheduler.can_fuse (with InductorChoices.can_fuse,
/// can_fuse_vertical and can_fuse_horizontal). Returns why not, if not.
std::optional<RefusalReason> Planner::whyNotFuse(unsigned g1, unsigned g2) {
  const Group &node1 = groups[g1];
  const Group &node2 = groups[g2];
  if (node1.kind == GroupKind::Grouped || node2.kind == GroupKind::Grouped)
    return RefusalReason::Grouped;
  if (!node1.isFusable() || !node2.isFusable())
    return RefusalReason::ExternOrNop;
  if (isAncestor(g2, g1))
    return RefusalReason::Order;

  int64_t shared = scoreFusionMemory(groups[g1], groups[g2]);
  if (reorderRound && shared < options.scoreFusionMemoryThreshold)
    if (std::optional<int64_t> reordered = sharedDataAfterReorderingLoop(g1, g2))
      shared = *reordered;
  // InductorChoices.can_fuse.
  if (shared == 0 && (!options.aggressiveFusion || groups[g1].isReduction ||
                      groups[g2].isReduction))
    return RefusalReason::NoSharedData;
  if (groups[g1].leaves.size() + groups[g2].leaves.size() >
      options.maxFusionSize)
    return RefusalReason::MaxFusionSize;
  if (canFusionIncreasePeakMemory(groups[g1], groups[g2]))
    return RefusalReason::InductorPeakMemory;

  if (isAncestor(g1, g2)) {
    if (std::optional<RefusalReason> why = whyNotFuseVertical(g1, g2))
      return why;
    return whyNotFuseBackend(g1, g2);
  }
  if (!options.horizontal)
    return RefusalReason::HorizontalDisabled;
  if (shared < options.scoreFusionMemoryThreshold)
    return RefusalReason::ScoreThreshold;
  if (areLongDistant(groups[g1], groups[g2]))
    return RefusalReason::LongDistance;
  return whyNotFuseBackend(g1, g2);
}

//===----------------------------------------------------------------------===//
// Fusion rounds
//===----------------------------------------------------------------------===//

void Planner::refuse(unsigned g1, unsigned g2, RefusalReason reason) {
  unsigned u1 = groups[g1].units.front(), u2 = groups[g2].units.front();
  auto name = [&](unsigned g) {
    const Group &group = groups[g];
    return group.leaves.empty() ? deps.getNode(group.units.front())
                                      .getNodeName()
                                : group.getName();
  };
  Operation *anchor = deps.getNode(groups[g2].units.front()).getOperation();
  if (!groups[g2].leaves.empty())
    anchor = groups[g2].leaves.front();
  // Names of large groups are long: build them only for explanations.
  Refusal refusal{options.explain ? name(g1) : std::string(),
                  options.explain ? name(g2) : std::string(), reason, anchor};
  // A pair refused again (in a later round, perhaps after one side grew)
  // keeps its place in the report with the latest reason.
  auto [it, inserted] = refusalIndex.try_emplace({u1, u2}, plan.refusals.size());
  if (!inserted) {
    plan.refusals[it->second] = std::move(refusal);
    refusalTime[it->second] = refusalClock++;
    return;
  }
  plan.refusals.push_back(std::move(refusal));
  refusalUnits.push_back({u1, u2});
  refusalTime.push_back(refusalClock++);
}

/// Merges g2 into g1 (Inductor's FusedSchedulerNode.fuse); placeFusion has
/// placed the merged group. Returns the merged group.
unsigned Planner::fuse(unsigned g1, unsigned g2) {
  LLVM_DEBUG(llvm::dbgs() << "fusing " << groups[g1].getName() << " with "
                          << groups[g2].getName() << "\n");
  if (groups[g1].isForeach() || groups[g2].isForeach())
    return fuseForeach(g1, g2);
  // FusedSchedulerNode.fuse: node1's members, then node2's. node2 is never
  // an ancestor of node1, so this is an execution order.
  absorb(g1, g2, /*prepend=*/false);
  for (unsigned unit : groups[g1].units)
    groupOf[unit] = g1;
  return g1;
}

/// Merges the members of `from` into `into` (FusedSchedulerNode.fuse), after
/// or, with `prepend`, before its own; `from` dies. Does not touch groupOf.
void Planner::absorb(unsigned into, unsigned from, bool prepend) {
  Group &dst = groups[into];
  Group &src = groups[from];
  // Inductor's group of a fused node is that of its first reduction member,
  // else that of its first member.
  bool takeShape = prepend ? (src.isReduction || !dst.isReduction)
                           : (src.isReduction && !dst.isReduction);
  if (takeShape) {
    dst.numel = src.numel;
    dst.rnumel = src.rnumel;
  }
  dst.units.insert(prepend ? dst.units.begin() : dst.units.end(),
                   src.units.begin(), src.units.end());
  dst.leaves.insert(prepend ? dst.leaves.begin() : dst.leaves.end(),
                    src.leaves.begin(), src.leaves.end());
  dst.kind = GroupKind::Fused;
  dst.bufferNames.insert(src.bufferNames.begin(), src.bufferNames.end());
  dst.minOrder = std::min(dst.minOrder, src.minOrder);
  dst.maxOrder = std::max(dst.maxOrder, src.maxOrder);
  dst.isReduction |= src.isReduction;
  src.kill();
  recomputeGroupDeps(dst);
}

/// Refreshes the dependences of group g after its loops were reordered, and
/// those of the foreach group it is a part of, or of its parts.
void Planner::recomputeAfterReorder(unsigned g) {
  for (unsigned unit : groups[g].units)
    refreshUnitDeps(unit);
  for (unsigned part : groups[g].parts)
    recomputeGroupDeps(groups[part]);
  recomputeGroupDeps(groups[g]);
  if (groups[g].parent != kNoGroup)
    recomputeGroupDeps(groups[groups[g].parent]);
}

/// Checks and, when allowed, performs one fusion of Inductor's
/// fuse_nodes_once loop.
bool Planner::tryFuse(unsigned g1, unsigned g2) {
  if (g1 == g2)
    return false;
  if (std::optional<RefusalReason> why = whyNotFuse(g1, g2)) {
    refuse(g1, g2, *why);
    return false;
  }
  if (createsCycle(g1, g2)) {
    refuse(g1, g2, RefusalReason::Cycle);
    return false;
  }
  if (!placeFusion(g1, g2)) {
    refuse(g1, g2, RefusalReason::PeakMemory);
    return false;
  }
  fuse(g1, g2);
  return true;
}

/// Inductor's get_possible_fusions: pairs of fusable groups sharing a
/// buffer, each group with at most `pairwiseAttempts` later ones, that
/// can_fuse allows, by decreasing score_fusion_key.
SmallVector<std::pair<unsigned, unsigned>> Planner::getPossibleFusions() {
  llvm::MapVector<StringAttr, SmallVector<unsigned>> byBuffer;
  SmallVector<unsigned> order = inductorOrder();
  for (unsigned g : order) {
    Group &group = groups[g];
    if (!group.isFusable())
      continue;
    llvm::SetVector<StringAttr> used;
    for (Attribute dep : group.reads)
      used.insert(getDepName(dep));
    for (Attribute dep : group.writes)
      used.insert(getDepName(dep));
    for (StringAttr name : used)
      byBuffer[name].push_back(g);
  }
  SmallVector<std::pair<unsigned, unsigned>> possible;
  llvm::DenseSet<std::pair<unsigned, unsigned>> seen;
  auto checkAllPairs = [&](ArrayRef<unsigned> nodes) {
    for (unsigned i = 0, e = nodes.size(); i < e; ++i) {
      unsigned end = std::min<unsigned>(e, i + 1 + options.pairwiseAttempts);
      for (unsigned j = i + 1; j < end; ++j) {
        if (!seen.insert({nodes[i], nodes[j]}).second)
          continue;
        ++plan.candidatesScored;
        std::optional<RefusalReason> why = whyNotFuse(nodes[i], nodes[j]);
        if (!why) {
          possible.push_back({nodes[i], nodes[j]});
          continue;
        }
        // Foreach fusions are order dependent: the foreach node may be the
        // producer.
        if (groups[nodes[j]].isForeach() && !whyNotFuse(nodes[j], nodes[i]))
          possible.push_back({nodes[j], nodes[i]});
        else
          refuse(nodes[i], nodes[j], *why);
      }
    }
  };
  for (auto &[name, nodes] : byBuffer)
    checkAllPairs(nodes);
  if (options.aggressiveFusion) {
    // config.aggressive_fusion: also pair nodes of the same iteration group.
    llvm::MapVector<std::pair<AffineExpr, AffineExpr>, SmallVector<unsigned>>
        byIterationGroup;
    for (unsigned g : order)
      if (groups[g].isFusable())
        byIterationGroup[{groups[g].numel, groups[g].rnumel}].push_back(g);
    for (auto &[key, nodes] : byIterationGroup)
      checkAllPairs(nodes);
  }
  // InductorChoices.score_fusion, highest first; stable for ties.
  struct Key {
    int templateScore;
    bool sameKind;
    int64_t memory;
    int64_t proximity;
  };
  SmallVector<Key> keys;
  for (auto [g1, g2] : possible) {
    const Group &a = groups[g1], &b = groups[g2];
    int64_t memory = scoreFusionMemory(a, b);
    int64_t proximity =
        -std::max(std::abs(static_cast<int64_t>(a.minOrder) - b.maxOrder),
                  std::abs(static_cast<int64_t>(b.minOrder) - a.maxOrder));
    keys.push_back({1 + (memory > 0), a.isReduction == b.isReduction &&
                                          memory > 0,
                    memory, proximity});
  }
  SmallVector<unsigned> index(possible.size());
  std::iota(index.begin(), index.end(), 0);
  llvm::stable_sort(index, [&](unsigned x, unsigned y) {
    const Key &a = keys[x], &b = keys[y];
    return std::tie(a.templateScore, a.sameKind, a.memory, a.proximity) >
           std::tie(b.templateScore, b.sameKind, b.memory, b.proximity);
  });
  SmallVector<std::pair<unsigned, unsigned>> sorted;
  for (unsigned i : index)
    sorted.push_back(possible[i]);
  return sorted;
}

/// Inductor's fuse_nodes_once loop over the candidates. Pairs are mapped to
/// the groups they belong to now (a group's id is the id of one of its
/// units, so groupOf maps the groups of the round's start to the groups
/// they are part of now).
void Planner::fuseOnce(ArrayRef<std::pair<unsigned, unsigned>> candidates) {
  for (auto [c1, c2] : candidates) {
    unsigned g1 = groupOf[c1], g2 = groupOf[c2];
    if (g1 != g2)
      tryFuse(g1, g2);
  }
}

/// Inductor's order of the groups, in which it looks for candidates:
/// sorted by min_order, then topological_sort_schedule, a depth-first search that
/// places each group after the producers of its unmet dependencies,
/// visited in the order of their buffer names.
SmallVector<unsigned> Planner::inductorOrder() {
  SmallVector<unsigned> alive;
  if (firstRound) {
    alive = firstRoundOrder;
  } else {
    for (unsigned g = 0, e = groups.size(); g < e; ++g)
      if (groups[g].alive)
        alive.push_back(g);
    llvm::stable_sort(alive, [&](unsigned a, unsigned b) {
      return groups[a].minOrder < groups[b].minOrder;
    });
  }
  // The producers of g's unmet dependencies by buffer name, then any other
  // predecessor (an ordering edge without a dependence of its own).
  auto producers = [&](unsigned g) {
    SmallVector<std::pair<StringRef, unsigned>> named;
    for (Attribute dep : groups[g].unmet)
      if (std::optional<unsigned> producer = producerGroup(dep))
        if (*producer != g)
          named.push_back({getDepName(dep).getValue(), *producer});
    llvm::stable_sort(named, [](const auto &a, const auto &b) {
      return a.first < b.first;
    });
    SmallVector<unsigned, 8> result;
    for (auto [name, producer] : named)
      result.push_back(producer);
    forEachPredecessorGroup(g, [&](unsigned pred) { result.push_back(pred); });
    return result;
  };
  SmallVector<unsigned> result;
  result.reserve(alive.size());
  unsigned seen = ++stamp;
  struct Frame {
    unsigned group;
    SmallVector<unsigned, 8> preds;
    unsigned next = 0;
  };
  SmallVector<Frame> stack;
  for (unsigned root : alive) {
    if (visitStamp[root] == seen)
      continue;
    visitStamp[root] = seen;
    stack.push_back({root, producers(root)});
    while (!stack.empty()) {
      Frame &top = stack.back();
      if (top.next < top.preds.size()) {
        unsigned pred = top.preds[top.next++];
        if (visitStamp[pred] != seen) {
          visitStamp[pred] = seen;
          stack.push_back({pred, producers(pred)});
        }
        continue;
      }
      result.push_back(top.group);
      stack.pop_back();
    }
  }
  return result;
}

/// Gives every group in the schedule a slot, two apart, in the stable
/// topological order of the groups by increasing `key`.
void Planner::assignSlots(function_ref<unsigned(unsigned)> key) {
  SmallVector<unsigned> alive;
  for (unsigned g = 0, e = groups.size(); g < e; ++g)
    if (groups[g].alive)
      alive.push_back(g);
  llvm::stable_sort(alive,
                    [&](unsigned a, unsigned b) { return key(a) < key(b); });
  DenseMap<unsigned, unsigned> index;
  for (auto [i, g] : llvm::enumerate(alive))
    index[g] = i;
  SmallVector<SmallVector<unsigned, 4>> preds(alive.size()),
      succs(alive.size());
  for (auto [i, g] : llvm::enumerate(alive))
    forEachPredecessorGroup(g, [&, i = i](unsigned p) {
      preds[i].push_back(index.lookup(p));
    });
  for (auto [i, list] : llvm::enumerate(preds)) {
    llvm::sort(list);
    list.erase(std::unique(list.begin(), list.end()), list.end());
    for (unsigned p : list)
      succs[p].push_back(i);
  }
  std::optional<SmallVector<unsigned>> order = stableTopologicalOrder(
      alive.size(), [&](unsigned n) { return ArrayRef<unsigned>(preds[n]); },
      [&](unsigned n) { return ArrayRef<unsigned>(succs[n]); });
  assert(order && "fusion keeps the groups acyclic");
  groupAtSlot.assign(2 * deps.getNumNodes(), kNoGroup);
  for (auto [pos, i] : llvm::enumerate(*order)) {
    slotOf[alive[i]] = 2 * pos;
    groupAtSlot[2 * pos] = alive[i];
  }
}

/// The groups in slot order: the order the planned graph runs in.
SmallVector<unsigned> Planner::scheduleOrder() const {
  SmallVector<unsigned> order;
  for (unsigned g : groupAtSlot)
    if (g != kNoGroup)
      order.push_back(g);
  return order;
}

/// The slots [begin, end) a storage is live in when unit u belongs to
/// `group(u)` and group g runs at `slot(g)`; {0, 0} when a fused group
/// keeps it in registers. `merged` says whether the producer's group has
/// several units, which `group` may not show for a fusion being weighed.
std::pair<unsigned, unsigned>
Planner::storageInterval(const StorageUse &use,
                         function_ref<unsigned(unsigned)> group,
                         function_ref<unsigned(unsigned)> slot,
                         bool merged) const {
  unsigned producer = group(use.producer);
  if (merged && !use.isOutput &&
      llvm::all_of(use.readers,
                   [&](unsigned reader) { return group(reader) == producer; }))
    return {0, 0};
  unsigned begin = slot(producer);
  unsigned end = use.isOutput ? groupAtSlot.size() : begin + 1;
  for (unsigned reader : use.readers)
    end = std::max(end, slot(group(reader)) + 1);
  return {begin, end};
}

/// Places the group g1 and g2 would merge into, if that keeps the peak
/// (with peak-memory=never-raise), and returns whether it did. Of the two,
/// E runs at the earlier slot a and L at the later slot b. The groups
/// between that L depends on (P) must run before the merged group, and
/// those that depend on E (D) after it; no group is in both, or the fusion
/// would make a cycle, and no edge goes from D to P.
///
/// With P empty, the merged group takes slot a, where Inductor's schedule
/// (sorted by min_order) puts it, and with D empty slot b; nothing else
/// moves. Otherwise, as in Pearce and Kelly's dynamic topological order,
/// only the groups in the way move: with p the last slot of P and d the
/// first of D (the last direct predecessor of L and the first direct
/// successor of E), the groups of P after d and of D before p take, in
/// increasing order, their own slots and a free one between d and p: first
/// those of P, then the merged group, then those of D. Slots start two
/// apart, so free ones are usually near. Only the storages of the groups
/// that move change the slots they are live in.
bool Planner::placeFusion(unsigned g1, unsigned g2) {
  unsigned a = std::min(slotOf[g1], slotOf[g2]);
  unsigned b = std::max(slotOf[g1], slotOf[g2]);
  unsigned earlier = groupAtSlot[a], later = groupAtSlot[b];
  // Edges go forward in slot order, so the first slot of D is that of a
  // direct successor of E, and the last slot of P that of a direct
  // predecessor of L.
  unsigned firstD = b, lastP = a;
  forEachSuccessorGroup(earlier, [&](unsigned g) {
    if (slotOf[g] < b && g != later)
      firstD = std::min(firstD, slotOf[g]);
  });
  forEachPredecessorGroup(later, [&](unsigned g) {
    if (slotOf[g] > a && g != earlier)
      lastP = std::max(lastP, slotOf[g]);
  });
  auto freeSlotIn = [&](unsigned lo, unsigned hi) -> std::optional<unsigned> {
    for (unsigned slot = lo + 1; slot < hi && slot <= lo + kMaxFreeSlotScan;
         ++slot)
      if (groupAtSlot[slot] == kNoGroup)
        return slot;
    return std::nullopt;
  };
  // The groups of (lo, hi) reachable from `from` (forward) or reaching it
  // (backward), in slot order: the search never leaves (lo, hi).
  auto region = [&](unsigned from, bool backward, unsigned lo, unsigned hi) {
    unsigned mark = ++stamp;
    SmallVector<unsigned> found, worklist = {from};
    while (!worklist.empty()) {
      unsigned g = worklist.pop_back_val();
      auto visit = [&](unsigned next) {
        if (slotOf[next] > lo && slotOf[next] < hi &&
            visitStamp[next] != mark) {
          visitStamp[next] = mark;
          found.push_back(next);
          worklist.push_back(next);
        }
      };
      if (backward)
        forEachPredecessorGroup(g, visit);
      else
        forEachSuccessorGroup(g, visit);
    }
    llvm::sort(found,
               [&](unsigned x, unsigned y) { return slotOf[x] < slotOf[y]; });
    return found;
  };
  // The groups that move and their new slots; g1 stands for the merged
  // group.
  SmallVector<std::pair<unsigned, unsigned>> moves;
  if (lastP == a) {
    moves.push_back({g1, a});
  } else if (firstD == b) {
    moves.push_back({g1, b});
  } else if (lastP < firstD) {
    if (std::optional<unsigned> slot = freeSlotIn(lastP, firstD))
      moves.push_back({g1, *slot});
  }
  if (moves.empty()) {
    // The groups in the way, and a slot for the merged group among theirs:
    // a free one between, or else every group of P and D moves, with a and
    // b to spare.
    unsigned lo = std::min(lastP, firstD), hi = std::max(lastP, firstD);
    std::optional<unsigned> spare = freeSlotIn(lo, hi);
    SmallVector<unsigned> pulled, pushed, pool;
    if (spare && lastP > firstD) {
      pulled = region(later, /*backward=*/true, firstD - 1, b);
      pushed = region(earlier, /*backward=*/false, a, lastP + 1);
      pool.push_back(*spare);
    } else {
      pulled = region(later, /*backward=*/true, a, b);
      pushed = region(earlier, /*backward=*/false, a, b);
      pool = {a, b};
    }
    for (unsigned g : pulled)
      pool.push_back(slotOf[g]);
    for (unsigned g : pushed)
      pool.push_back(slotOf[g]);
    llvm::sort(pool);
    unsigned next = 0;
    for (unsigned g : pulled)
      moves.push_back({g, pool[next++]});
    moves.push_back({g1, pool[next]});
    next = pool.size() - pushed.size();
    for (unsigned g : pushed)
      moves.push_back({g, pool[next++]});
  }
  DenseMap<unsigned, unsigned> newSlot;
  for (auto [g, slot] : moves)
    newSlot[g] = slot;
  newSlot[g2] = newSlot[g1];

  if (options.peakMemory == PeakMemoryPolicy::NeverRaise) {
    auto groupAfter = [&](unsigned unit) {
      unsigned g = groupOf[unit];
      return g == g2 ? g1 : g;
    };
    auto slotAfter = [&](unsigned g) {
      auto it = newSlot.find(g);
      return it == newSlot.end() ? slotOf[g] : it->second;
    };
    // The storages of the moved groups and of g2, each once.
    SmallVector<std::pair<unsigned, std::pair<unsigned, unsigned>>> changes;
    unsigned seen = ++stamp;
    auto visit = [&](unsigned g) {
      for (unsigned unit : groups[g].units)
        for (unsigned index : storagesOfUnit[unit]) {
          if (storageStamp[index] == seen)
            continue;
          storageStamp[index] = seen;
          unsigned producer = groupAfter(storages[index].producer);
          bool merged =
              producer == g1 || groups[producer].units.size() > 1;
          std::pair<unsigned, unsigned> live = storageInterval(
              storages[index], groupAfter, slotAfter, merged);
          if (live != storageLive[index])
            changes.push_back({index, live});
        }
    };
    for (auto [g, slot] : moves)
      visit(g);
    visit(g2);
    // Apply, check, and undo if the peak rose.
    auto apply = [&](unsigned index, std::pair<unsigned, unsigned> from,
                     std::pair<unsigned, unsigned> to) {
      int64_t bytes = storages[index].bytes;
      if (from.first != from.second)
        liveTree.add(from.first, from.second, -bytes);
      if (to.first != to.second)
        liveTree.add(to.first, to.second, bytes);
    };
    for (auto &[index, live] : changes)
      apply(index, storageLive[index], live);
    if (liveTree.max() > baselinePeak) {
      for (auto &[index, live] : changes)
        apply(index, live, storageLive[index]);
      return false;
    }
    for (auto &[index, live] : changes)
      storageLive[index] = live;
  }

  groupAtSlot[slotOf[g1]] = groupAtSlot[slotOf[g2]] = kNoGroup;
  for (auto [g, slot] : moves)
    groupAtSlot[slotOf[g]] = kNoGroup;
  for (auto [g, slot] : moves) {
    groupAtSlot[slot] = g;
    slotOf[g] = slot;
  }
  return true;
}

/// Peak live bytes of the schedule, computed afresh.
int64_t Planner::computePeakBytes() const {
  SmallVector<unsigned> order = scheduleOrder();
  SmallVector<unsigned> stepOfGroup(groups.size(), 0);
  for (auto [step, g] : llvm::enumerate(order))
    stepOfGroup[g] = step;
  SmallVector<int64_t> live = computeLiveBytes(
      storages, order.size(),
      [&](unsigned unit) { return stepOfGroup[groupOf[unit]]; },
      [&](const StorageUse &use) {
        unsigned g = groupOf[use.producer];
        if (groups[g].units.size() < 2 || use.isOutput)
          return false;
        return llvm::all_of(use.readers, [&](unsigned reader) {
          return groupOf[reader] == g;
        });
      });
  int64_t peak = 0;
  for (int64_t bytes : live)
    peak = std::max(peak, bytes);
  return peak;
}

/// One round of Inductor's fuse_nodes_once. Returns true when it fused
/// anything.
bool Planner::runRound() {
  ++plan.rounds;
  pruneRedundantDeps();
  size_t groupsBefore = numGroups();
  fuseOnce(getPossibleFusions());
  firstRound = false;
  return numGroups() != groupsBefore;
}

/// The unit producing the buffer `name`, if a node of the graph does.
std::optional<unsigned> Planner::producerUnit(StringAttr name) const {
  Value buffer = deps.lookupBuffer(name);
  return buffer ? deps.getProducer(buffer) : std::nullopt;
}

/// The group producing the buffer `dep` names, if a node of the graph does.
std::optional<unsigned> Planner::producerGroup(Attribute dep) const {
  if (std::optional<unsigned> producer = producerUnit(getDepName(dep)))
    return groupOf[*producer];
  return std::nullopt;
}

/// Inductor's prune_redundant_deps, run as every round starts: a WeakDep
/// (mutation order) on a group that the node also depends on through a
/// real dependence, or on its own group, is dropped from its unmet
/// dependences and reads, so that it no longer stands in the way of
/// vertical fusion. Units are pruned first, then their fused groups.
void Planner::pruneRedundantDeps() {
  auto prune = [&](unsigned self, SmallVectorImpl<Attribute> &unmet,
                   function_ref<void(Attribute)> removeRead) {
    llvm::SmallDenseSet<unsigned, 8> realProducers;
    for (Attribute dep : unmet)
      if (!isa<WeakDepAttr>(dep))
        if (std::optional<unsigned> g = producerGroup(dep))
          realProducers.insert(*g);
    SmallVector<Attribute, 4> pruned;
    for (Attribute dep : unmet) {
      if (!isa<WeakDepAttr>(dep))
        continue;
      std::optional<unsigned> g = producerGroup(dep);
      if (g && (*g == self || realProducers.contains(*g)))
        pruned.push_back(dep);
    }
    if (pruned.empty())
      return false;
    llvm::erase_if(unmet, [&](Attribute dep) {
      return llvm::is_contained(pruned, dep);
    });
    for (Attribute dep : pruned)
      removeRead(dep);
    return true;
  };
  for (unsigned g = 0, e = groups.size(); g < e; ++g) {
    Group &group = groups[g];
    if (!group.alive)
      continue;
    bool changed = false;
    for (unsigned unit : group.units) {
      auto &reads = unitDeps[unit].reads;
      changed |= prune(g, unitDeps[unit].unmet,
                       [&](Attribute dep) { llvm::erase(reads, dep); });
    }
    if (changed) {
      for (unsigned part : group.parts)
        recomputeGroupDeps(groups[part]);
      recomputeGroupDeps(group);
    }
    SmallVector<Attribute, 4> unmet(group.unmet.begin(), group.unmet.end());
    if (prune(g, unmet, [&](Attribute dep) { group.reads.remove(dep); })) {
      group.unmet.clear();
      group.unmet.insert(unmet.begin(), unmet.end());
    }
  }
}

size_t Planner::numGroups() const {
  return llvm::count_if(groups, [](const Group &g) { return g.alive; });
}

FailureOr<FusionPlan> Planner::run() {
  if (failed(initialize()))
    return failure();
  // Inductor's fuse_nodes: rounds until nothing changes, then (2.10+) one
  // round that may reorder loops to match access orders.
  reorderRound = options.reorderLoops == LoopReorderPolicy::EveryRound;
  for (unsigned round = 0; round < options.maxRounds; ++round)
    if (!runRound() || numGroups() == 1)
      break;
  if (options.reorderLoops == LoopReorderPolicy::AfterFixpoint &&
      numGroups() > 1) {
    reorderRound = true;
    runRound();
  }

  if (options.comboKernels)
    createComboKernels();
  for (unsigned g : scheduleOrder()) {
    plan.groups.push_back(groups[g].units);
    SmallVector<unsigned, 0> &parts = plan.foreachParts.emplace_back();
    for (unsigned part : groups[g].parts)
      parts.push_back(groups[part].units.size());
  }
  plan.fusions = deps.getNumNodes() - plan.groups.size();
  plan.peakBytesAfter = computePeakBytes();
  if (failed(sizeVars.checkHints(graph, "fusion")))
    return failure();
  assert((options.peakMemory != PeakMemoryPolicy::NeverRaise ||
          options.comboKernels || groupAtSlot.empty() ||
          plan.peakBytesAfter == liveTree.max()) &&
         "the live bytes kept per slot must be those of the schedule");
  // A pair refused in one round and fused in a later one was not refused in
  // the end; of the refusals between the same two final kernels (either
  // way round), the last one stands.
  SmallVector<Refusal> finalRefusals;
  SmallVector<uint64_t> finalTime;
  DenseMap<std::pair<unsigned, unsigned>, unsigned> finalIndex;
  for (auto [refusal, units, time] :
       llvm::zip(plan.refusals, refusalUnits, refusalTime)) {
    std::pair<unsigned, unsigned> key = std::minmax(groupOf[units.first],
                                                    groupOf[units.second]);
    if (key.first == key.second)
      continue;
    auto [it, inserted] = finalIndex.try_emplace(key, finalRefusals.size());
    if (inserted) {
      finalRefusals.push_back(refusal);
      finalTime.push_back(time);
    } else if (time > finalTime[it->second]) {
      finalRefusals[it->second] = refusal;
      finalTime[it->second] = time;
    }
  }
  plan.refusals = std::move(finalRefusals);
  for (const Refusal &refusal : plan.refusals)
    ++plan.refusalCounts[static_cast<unsigned>(refusal.reason)];
  return std::move(plan);
}

FailureOr<FusionPlan>
mlir::fusion::planFusion(GraphOp graph, const DependenceGraph &deps,
                         const FusionOptions &options,
                         ArrayRef<SmallVector<unsigned, 4>> foreachLists) {
  return Planner(graph, deps, options, foreachLists).run();
}
