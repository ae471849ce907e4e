//===- ForeachFusion.cpp - Inductor's ForeachKernelSchedulerNode ----------===//
//
// The planner's foreach (combo) kernels: Inductor's
// ForeachKernelSchedulerNode (scheduler.py) and create_combo_kernel_nodes.
// A foreach group holds parts (Inductor's snodes) that do not depend on each
// other and run as one kernel, each on its own range of blocks. Fusion with
// a foreach group goes through its parts:
//
//   foreach + foreach   the parts pairwise, when every pair can fuse
//   node + foreach      into the part that reads what the node writes
//                       (get_consumer_subnode_for)
//   foreach + node      into the one part the node reads from
//                       (get_producer_subnode_for)
//
// and the pair of parts (or part and node) must pass every rule of
// Scheduler.can_fuse. Beyond Inductor, a fusion that would make one part
// read what another part writes is refused: parts run at the same time.
//
//===----------------------------------------------------------------------===//

#include "FusionPlannerImpl.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fusion-fuse-nodes"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::planner;

/// Makes the top-level groups `members` (in order) the parts of a new
/// foreach group (ForeachKernelSchedulerNode.__init__), which takes the id
/// of the first member; that member moves to a new id. Returns the foreach
/// group. Slots are left to the caller.
unsigned Planner::makeForeach(ArrayRef<unsigned> members) {
  unsigned f = members.front();
  unsigned first = groups.size();
  groups.push_back(std::move(groups[f]));
  groups[f] = Group();
  groups[f].kind = GroupKind::Foreach;
  groups[f].parts.push_back(first);
  llvm::append_range(groups[f].parts, members.drop_front());
  for (unsigned part : groups[f].parts) {
    Group &group = groups[part];
    group.alive = false;
    group.parent = f;
    groups[f].bufferNames.insert(group.bufferNames.begin(),
                                 group.bufferNames.end());
    for (unsigned unit : group.units) {
      groupOf[unit] = f;
      partOf[unit] = part;
    }
  }
  refreshForeach(f, /*rebuildReadIndex=*/true, /*partsRecomputed=*/false);
  return f;
}

/// Recomputes what a foreach group derives from its parts: units, leaves,
/// orders and merged dependences. Its buffer names, the union of its
/// parts', only grow: the callers add those of the groups that join. With `rebuildReadIndex` its
/// read_to_node is rebuilt, as Inductor does when it builds the node from
/// its parts; otherwise it is emptied, as Inductor's does when a node joins
/// a part (the `prev_node` path of ForeachKernelSchedulerNode.__init__).
/// With `partsRecomputed`, every part's dependences are those
/// recomputeGroupDeps gives (no pruning since), and the group's are merged
/// from them (mergePartDeps) instead of from every unit.
void Planner::refreshForeach(unsigned f, bool rebuildReadIndex,
                             bool partsRecomputed) {
  Group &fe = groups[f];
  fe.units.clear();
  fe.leaves.clear();
  fe.isReduction = false;
  fe.minOrder = ~0u;
  fe.maxOrder = 0;
  fe.numel = fe.rnumel = getCachedConstantExpr(1, graph.getContext());
  fe.readToPart.clear();
  for (unsigned part : fe.parts) {
    const Group &group = groups[part];
    llvm::append_range(fe.units, group.units);
    llvm::append_range(fe.leaves, group.leaves);
    fe.isReduction |= group.isReduction;
    fe.minOrder = std::min(fe.minOrder, group.minOrder);
    fe.maxOrder = std::max(fe.maxOrder, group.maxOrder);
    if (rebuildReadIndex)
      for (Attribute dep : group.reads)
        fe.readToPart[getDepName(dep)] = part;
  }
  if (partsRecomputed)
    mergePartDeps(fe);
  else
    recomputeGroupDeps(fe);
}

/// recomputeGroupDeps of a foreach group whose parts' dependences are
/// recomputeGroupDeps' own: the same lists, from the parts' merged ones.
/// The writes are the ordered union of the units' writes, and so that of
/// the parts' (each the ordered union of its units'); a read or unmet
/// dependence a part left out (written by the part, or of a buffer it
/// names) the group leaves out too, as its writes and names hold the
/// part's, so filtering the parts' lists keeps the first occurrences, in
/// order, that filtering the units' keeps.
void Planner::mergePartDeps(Group &fe) {
  mergeDeps(fe, fe.parts, [&](unsigned part) {
    const Group &group = groups[part];
    return DepLists{group.reads.getArrayRef(), group.writes.getArrayRef(),
                    group.unmet.getArrayRef()};
  });
}

/// Inductor's get_consumer_subnode_for: the part of foreach group f that
/// reads the first output of `producer` some part reads.
std::optional<unsigned> Planner::consumerPartFor(unsigned f,
                                                 unsigned producer) {
  const Group &fe = groups[f];
  for (NodeOp leaf : groups[producer].leaves)
    for (unsigned r = 0, e = leaf->getNumResults(); r < e; ++r) {
      auto it = fe.readToPart.find(leaf.getBufferName(r));
      if (it != fe.readToPart.end())
        return it->second;
    }
  return std::nullopt;
}

/// Inductor's get_producer_subnode_for: the part of foreach group f that
/// produces what `consumer` reads, when there is exactly one.
std::optional<unsigned> Planner::producerPartFor(unsigned f,
                                                 unsigned consumer) {
  std::optional<unsigned> found;
  for (Attribute dep : groups[consumer].reads) {
    std::optional<unsigned> producer = producerUnit(getDepName(dep));
    if (!producer || groupOf[*producer] != f)
      continue;
    if (found && *found != partOf[*producer])
      return std::nullopt;
    found = partOf[*producer];
  }
  return found;
}

/// True when fusing g1 and g2 (one of them a foreach group) would make a
/// part of the result depend on another part: a unit of the result with a
/// predecessor in the result outside its own part.
bool Planner::partsWouldDepend(unsigned g1, unsigned g2) {
  unsigned f = groups[g1].isForeach() ? g1 : g2;
  unsigned other = f == g1 ? g2 : g1;
  // The part of the result each unit will be in, named by the part of f it
  // becomes: a part of another foreach group the part of f at its position
  // (whyNotFuseForeach checked that both have as many), a node the part
  // its foreach partner picks.
  llvm::SmallDenseMap<unsigned, unsigned, 16> partOfOther;
  std::optional<unsigned> nodePart;
  if (groups[other].isForeach()) {
    assert(groups[other].parts.size() == groups[f].parts.size() &&
           "foreach groups of different lengths do not fuse");
    for (auto [own, theirs] : llvm::zip(groups[f].parts, groups[other].parts))
      partOfOther[theirs] = own;
  } else {
    nodePart = other == g1 ? consumerPartFor(f, other)
                           : producerPartFor(f, other);
  }
  auto resultPart = [&](unsigned unit) -> std::optional<unsigned> {
    unsigned g = groupOf[unit];
    if (g == f)
      return partOf[unit];
    if (g != other)
      return std::nullopt;
    if (!groups[other].isForeach())
      return nodePart;
    return partOfOther.lookup(partOf[unit]);
  };
  auto dependsAcross = [&](unsigned unit) {
    std::optional<unsigned> own = resultPart(unit);
    return llvm::any_of(deps.getPredecessors(unit), [&](unsigned pred) {
      std::optional<unsigned> theirs = resultPart(pred);
      return theirs && theirs != own;
    });
  };
  // The parts of a foreach group that a fusion made depend on no other
  // part (the fusion checked): a node joining one adds only its own edges.
  if (!groups[other].isForeach() && groups[f].fusedHere) {
    for (unsigned unit : groups[other].units) {
      if (dependsAcross(unit))
        return true;
      for (unsigned succ : deps.getSuccessors(unit))
        if (groupOf[succ] == f && dependsAcross(succ))
          return true;
    }
    return false;
  }
  for (unsigned g : {g1, g2})
    for (unsigned unit : groups[g].units)
      if (dependsAcross(unit))
        return true;
  return false;
}

/// ForeachKernelSchedulerNode.can_fuse(producer=g1, consumer=g2), called by
/// SIMDScheduling.can_fuse once Scheduler.can_fuse's checks on the whole
/// groups passed.
std::optional<RefusalReason> Planner::whyNotFuseForeach(unsigned g1,
                                                        unsigned g2) {
  const Group &producer = groups[g1];
  const Group &consumer = groups[g2];
  if (producer.isForeach() && consumer.isForeach()) {
    if (producer.parts.size() != consumer.parts.size())
      return RefusalReason::ForeachLengthMismatch;
    for (auto [p1, p2] : llvm::zip(producer.parts, consumer.parts))
      if (std::optional<RefusalReason> why = whyNotFuse(p1, p2))
        return why;
  } else if (consumer.isForeach()) {
    if (producer.isReduction)
      return RefusalReason::ForeachProducerReduction;
    std::optional<unsigned> part = consumerPartFor(g2, g1);
    if (!part)
      return RefusalReason::ForeachNoConsumerPart;
    if (std::optional<RefusalReason> why = whyNotFuse(g1, *part))
      return why;
  } else {
    if (consumer.isReduction)
      return RefusalReason::ForeachConsumerReduction;
    std::optional<unsigned> part = producerPartFor(g1, g2);
    if (!part)
      return RefusalReason::ForeachNoProducerPart;
    if (std::optional<RefusalReason> why = whyNotFuse(*part, g2))
      return why;
  }
  if (partsWouldDepend(g1, g2))
    return RefusalReason::ForeachPartsDepend;
  return std::nullopt;
}

/// ForeachKernelSchedulerNode.fuse(producer=g1, consumer=g2), once allowed
/// and placed. The result keeps id g1, as placeFusion expects.
unsigned Planner::fuseForeach(unsigned g1, unsigned g2) {
  // The foreach group's names (the union of its parts') gain the other's.
  Group &fe = groups[groups[g1].isForeach() ? g1 : g2];
  const Group &joining = groups[groups[g1].isForeach() ? g2 : g1];
  fe.bufferNames.insert(joining.bufferNames.begin(),
                        joining.bufferNames.end());
  if (groups[g1].isForeach() && groups[g2].isForeach()) {
    // Part i of the result is part i of each, g1's members first.
    SmallVector<unsigned> parts1(groups[g1].parts.begin(),
                                 groups[g1].parts.end());
    SmallVector<unsigned> parts2(groups[g2].parts.begin(),
                                 groups[g2].parts.end());
    for (auto [p1, p2] : llvm::zip(parts1, parts2)) {
      SmallVector<unsigned, 4> moved(groups[p2].units);
      absorb(p1, p2, /*prepend=*/false);
      for (unsigned unit : moved) {
        groupOf[unit] = g1;
        partOf[unit] = p1;
      }
    }
    groups[g2].kill();
    refreshForeach(g1, /*rebuildReadIndex=*/true, /*partsRecomputed=*/true);
    return g1;
  }
  if (groups[g1].isForeach()) {
    unsigned part = *producerPartFor(g1, g2);
    SmallVector<unsigned, 4> moved(groups[g2].units);
    absorb(part, g2, /*prepend=*/false);
    for (unsigned unit : moved) {
      groupOf[unit] = g1;
      partOf[unit] = part;
    }
    refreshForeach(g1, /*rebuildReadIndex=*/false, /*partsRecomputed=*/true);
    return g1;
  }
  // The node g1 joins a part of g2 as its producer; the foreach group then
  // moves to id g1.
  unsigned part = *consumerPartFor(g2, g1);
  SmallVector<unsigned, 4> moved(groups[g1].units);
  absorb(part, g1, /*prepend=*/true);
  std::swap(groups[g1], groups[g2]);
  for (unsigned p : groups[g1].parts)
    groups[p].parent = g1;
  for (unsigned unit : moved)
    partOf[unit] = part;
  refreshForeach(g1, /*rebuildReadIndex=*/false, /*partsRecomputed=*/true);
  for (unsigned unit : groups[g1].units)
    groupOf[unit] = g1;
  return g1;
}

/// Inductor's create_combo_kernel_nodes with its default grouping
/// (_default_group_nodes_for_combo_kernels): the kernels, by levels of the
/// dependence graph in schedule order, in chunks of at most 8; each chunk
/// of at least two kernels that are neither externs, nops, foreach nor
/// grouped nodes (combinable_nodes) becomes one foreach group. Unless
/// peak-memory=inductor, a chunk whose combo kernel would raise the peak
/// stays apart: a combo kernel shares no buffer, so it saves no traffic
/// that could pay for a raise.
void Planner::createComboKernels() {
  constexpr unsigned kMaxComboSize = 8;
  // Scheduler._topological_sort_nodes: Kahn's levels.
  SmallVector<unsigned> order = scheduleOrder();
  DenseMap<unsigned, unsigned> waiting;
  for (unsigned g : order) {
    llvm::SmallDenseSet<unsigned, 8> preds;
    forEachPredecessorGroup(g, [&](unsigned p) { preds.insert(p); });
    waiting[g] = preds.size();
  }
  SmallVector<SmallVector<unsigned>> levels;
  SmallVector<unsigned> remaining = order;
  while (!remaining.empty()) {
    SmallVector<unsigned> &level = levels.emplace_back();
    for (unsigned g : remaining)
      if (waiting[g] == 0)
        level.push_back(g);
    assert(!level.empty() && "the schedule is acyclic");
    llvm::erase_if(remaining, [&](unsigned g) { return waiting[g] == 0; });
    for (unsigned g : level) {
      waiting[g] = ~0u;
      llvm::SmallDenseSet<unsigned, 8> succs;
      forEachSuccessorGroup(g, [&](unsigned s) { succs.insert(s); });
      for (unsigned s : succs)
        --waiting[s];
    }
  }
  // With combo-max-part-bytes, the bytes of the buffers each group writes:
  // a combo kernel runs its parts at its earliest member's place, so a part
  // that writes much would hold its buffers longer.
  DenseMap<unsigned, int64_t> writtenBytes;
  if (options.comboMaxPartBytes > 0)
    for (const StorageUse &use : storages)
      writtenBytes[groupOf[use.producer]] += use.bytes;
  SmallVector<SmallVector<unsigned>> chunks;
  for (ArrayRef<unsigned> level : levels)
    for (unsigned begin = 0; begin < level.size(); begin += kMaxComboSize) {
      SmallVector<unsigned> chunk;
      for (unsigned g : level.slice(begin, std::min<size_t>(
                                               kMaxComboSize,
                                               level.size() - begin)))
        if ((groups[g].kind == GroupKind::Node ||
             groups[g].kind == GroupKind::Fused) &&
            (options.comboMaxPartBytes <= 0 ||
             writtenBytes.lookup(g) <= options.comboMaxPartBytes))
          chunk.push_back(g);
      if (chunk.size() >= 2)
        chunks.push_back(std::move(chunk));
    }
  // A combo kernel takes the slot of its earliest member; the slots are then
  // made a topological order again.
  auto make = [&](ArrayRef<unsigned> chunk) {
    unsigned minSlot = ~0u;
    for (unsigned g : chunk)
      minSlot = std::min(minSlot, slotOf[g]);
    unsigned f = makeForeach(chunk);
    slotOf[f] = minSlot;
    return f;
  };
  // Undoes the last makeForeach, whose first member moved to the last id.
  auto unmake = [&](unsigned f) {
    SmallVector<unsigned> parts(groups[f].parts.begin(),
                                groups[f].parts.end());
    groups[f] = std::move(groups[parts.front()]);
    groups.pop_back();
    parts.front() = f;
    for (unsigned g : parts) {
      groups[g].alive = true;
      groups[g].parent = kNoGroup;
      for (unsigned unit : groups[g].units) {
        groupOf[unit] = g;
        partOf[unit] = kNoGroup;
      }
    }
  };
  auto slotKey = [&](unsigned g) { return slotOf[g]; };
  SmallVector<unsigned> savedSlotOf(slotOf), savedGroupAtSlot(groupAtSlot);
  // All of them at once, kept unless the peak rises (the usual case, in
  // time linear in the graph); then one by one, each kept unless it raises
  // the peak.
  SmallVector<unsigned> made;
  for (ArrayRef<unsigned> chunk : chunks)
    made.push_back(make(chunk));
  assignSlots(slotKey);
  if (options.peakMemory == PeakMemoryPolicy::Inductor ||
      computePeakBytes() <= baselinePeak)
    return;
  for (unsigned f : llvm::reverse(made))
    unmake(f);
  slotOf = savedSlotOf;
  groupAtSlot = savedGroupAtSlot;
  for (ArrayRef<unsigned> chunk : chunks) {
    unsigned f = make(chunk);
    assignSlots(slotKey);
    if (computePeakBytes() <= baselinePeak) {
      savedSlotOf = slotOf;
      savedGroupAtSlot = groupAtSlot;
      continue;
    }
    LLVM_DEBUG(llvm::dbgs() << "combo kernel " << groups[f].getName()
                            << " would raise the peak\n");
    unmake(f);
    slotOf = savedSlotOf;
    groupAtSlot = savedGroupAtSlot;
    refuse(chunk[0], chunk[1], RefusalReason::PeakMemory);
  }
}
