//===- FusionPlanner.cpp - Inductor's fuse_nodes, decided -----------------===//
//
// The decision half of fusion-fuse-nodes, and the round driver. Names
// follow Inductor's scheduler.py: a "group" is a scheduler node being fused
// (a FusedSchedulerNode once it has several members), a "unit" a top-level
// node of the input graph. Groups keep the merged read/write dependences
// Inductor's FusedSchedulerNode keeps. Instead of Inductor's ancestor sets,
// which grow quadratically with the graph, the planner keeps the schedule
// itself (PlannerSchedule.cpp). Planner::run is Inductor's fuse_nodes:
//
//   initialize()          groups, their dependences, foreach nodes, slots
//   runRound() ...        prune_redundant_deps, get_possible_fusions
//                         (PlannerScoring.cpp), fuse_nodes_once: can_fuse
//                         (PlannerRules.cpp, PlannerTiling.cpp,
//                         ForeachFusion.cpp), will_fusion_create_cycle and
//                         placement (PlannerSchedule.cpp), fuse
//   createComboKernels()  with combo-kernels
//   the plan              groups in schedule order, the refusals that stand
//
//===----------------------------------------------------------------------===//

#include "FusionPlannerImpl.h"

#include "scheduler-opt/Analysis/SizeVars.h"
#include "scheduler-opt/Support/ParallelSlices.h"
#include "scheduler-opt/Support/TopologicalOrder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fusion-fuse-nodes"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::planner;

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

/// Fills `group` (default-constructed: built in place, a Group being large)
/// as the group of one unit.
void Planner::makeUnitGroup(unsigned unit, Group &group) {
  SchedulerNodeOpInterface op = deps.getNode(unit);
  group.units = {unit};
  group.minOrder = group.maxOrder = position[unit];
  group.isReduction = false;
  group.numel = group.rnumel = getCachedConstantExpr(1, graph.getContext());
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
  SmallVector<SchedulerNodeOpInterface> leaves;
  op.getLeafNodes(leaves);
  if (group.isFusable()) {
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
  for (SchedulerNodeOpInterface leaf : leaves)
    for (unsigned r = 0, e = leaf->getNumResults(); r < e; ++r)
      group.bufferNames.insert(leaf.getBufferName(r));
}

void Planner::refreshUnitDeps(unsigned unit) {
  UnitDeps &ud = unitDeps[unit];
  unitStorages[unit] = UnitStorages();
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
    ReadWrites rw = computeReadWrites(leaf, &depMaps);
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
  mergeDeps(group, group.units, [&](unsigned unit) {
    const UnitDeps &deps = unitDeps[unit];
    return DepLists{deps.reads, deps.writes, deps.unmet};
  });
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
  unitStorages.resize(numUnits);
  groupOf.resize(numUnits);
  partOf.assign(numUnits, kNoGroup);
  // Each unit's group reads only its own node: built in parallel on the
  // context's threads (versions are given below, in unit order). Each
  // foreach list adds a group: room for them, so that no Group moves.
  groups.reserve(numUnits + foreachLists.size());
  groups.resize(numUnits);
  parallelForSlices(graph.getContext(), numUnits, /*minPerSlice=*/256,
                    [&](size_t begin, size_t end) {
                      for (size_t unit = begin; unit < end; ++unit)
                        makeUnitGroup(unit, groups[unit]);
                    });
  for (unsigned unit = 0; unit < numUnits; ++unit) {
    groupOf[unit] = unit;
    UnitDeps &ud = unitDeps[unit];
    llvm::append_range(ud.reads, deps.getReads(unit));
    llvm::append_range(ud.writes, deps.getWrites(unit));
    llvm::append_range(ud.unmet, deps.getUnmetDependencies(unit));
  }
  mayWaitWeakly.resize(numUnits);
  for (unsigned unit = 0; unit < numUnits; ++unit)
    if (llvm::any_of(llvm::concat<const Attribute>(unitDeps[unit].reads,
                                                   unitDeps[unit].unmet),
                     [](Attribute dep) { return isa<WeakDepAttr>(dep); }))
      mayWaitWeakly.set(unit);
  for (Group &group : groups)
    recomputeGroupDeps(group);
  // Names renamed or realName may change: a buffer a later version
  // overwrites (the dependence graph's getMutation) or one that overwrites
  // another. A name is the name of the value the dependence graph finds
  // for it, so the other names are their own renamed and real names.
  for (auto [i, input] : llvm::enumerate(graph.getBodyBlock().getArguments()))
    if (deps.getMutation(input))
      mutationNames.insert(graph.getInputName(i));
  for (unsigned unit = 0; unit < numUnits; ++unit) {
    SmallVector<SchedulerNodeOpInterface> leaves;
    deps.getNode(unit).getLeafNodes(leaves);
    for (SchedulerNodeOpInterface leaf : leaves)
      for (OpResult result : leaf->getResults())
        if (deps.getMutation(result) ||
            leaf.getMutatedBuffer(result.getResultNumber()))
          mutationNames.insert(leaf.getBufferName(result.getResultNumber()));
  }
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

  initializeSchedule();
  return success();
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
  auto [index, inserted] =
      refusalIndex.tryEmplace(u1, u2, plan.refusals.size());
  if (!inserted) {
    plan.refusals[*index] = std::move(refusal);
    refusalTime[*index] = refusalClock++;
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
  groups[fuse(g1, g2)].fusedHere = true;
  return true;
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
  return deps.getProducer(name);
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
  // Most dependence lists hold no WeakDep: nothing to look up for them.
  auto hasWeakDep = [](auto &&deps) {
    return llvm::any_of(deps,
                        [](Attribute dep) { return isa<WeakDepAttr>(dep); });
  };
  auto prune = [&](unsigned self, SmallVectorImpl<Attribute> &unmet,
                   function_ref<void(Attribute)> removeRead) {
    if (!hasWeakDep(unmet))
      return false;
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
    if (!group.alive || llvm::none_of(group.units, [&](unsigned unit) {
          return mayWaitWeakly.test(unit);
        }))
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
    if (!hasWeakDep(group.unmet))
      continue;
    SmallVector<Attribute, 4> unmet(group.unmet.begin(), group.unmet.end());
    if (prune(g, unmet, [&](Attribute dep) { group.reads.remove(dep); })) {
      bumpVersion(group);
      group.unmet.clear();
      group.unmet.insert(unmet.begin(), unmet.end());
    }
  }
}

size_t Planner::numGroups() const {
  return llvm::count_if(groups, [](const Group &g) { return g.alive; });
}

/// Of the refusals recorded over the rounds, those that stand: a pair
/// refused in one round and fused in a later one was not refused in the
/// end; of the refusals between the same two final kernels (either way
/// round), the last one stands.
void Planner::settleRefusals() {
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
  assert((options.peakMemory == PeakMemoryPolicy::Inductor ||
          options.comboKernels || groupAtSlot.empty() ||
          plan.peakBytesAfter == liveTree.max()) &&
         "the live bytes kept per slot must be those of the schedule");
  settleRefusals();
  return std::move(plan);
}

FailureOr<FusionPlan>
mlir::fusion::planFusion(GraphOp graph, const DependenceGraph &deps,
                         const FusionOptions &options,
                         ArrayRef<SmallVector<unsigned, 4>> foreachLists,
                         LoopStrideCache *loopStrides) {
  return Planner(graph, deps, options, foreachLists, loopStrides).run();
}
