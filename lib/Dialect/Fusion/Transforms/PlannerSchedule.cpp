//===- PlannerSchedule.cpp - Slots, reachability and live bytes -----------===//
//
// The planner's schedule: every group has a slot, slots are a topological
// order of the groups, and a fusion moves only the groups between the two
// it merges (placeFusion). Reachability between groups is a depth-first
// search pruned by slots; the live bytes of every slot sit in a range-max
// tree, so whether a fusion raises the peak is known from the storages of
// the groups it moves. Also Inductor's own order of the groups
// (topological_sort_schedule), in which a round looks for candidates.
//
//===----------------------------------------------------------------------===//

#include "FusionPlannerImpl.h"

#include "scheduler-opt/Analysis/MemoryProfile.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"
#include "scheduler-opt/Support/RangeMaxTree.h"
#include "scheduler-opt/Support/ReachabilityIndex.h"
#include "scheduler-opt/Support/TopologicalOrder.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::planner;

//===----------------------------------------------------------------------===//
// Slots
//===----------------------------------------------------------------------===//

/// The input order is the first schedule, with a free slot after every
/// group for placeFusion; the live bytes of every slot, and the peak.
void Planner::initializeSchedule() {
  unsigned numUnits = deps.getNumNodes();
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
  if (options.peakMemory != PeakMemoryPolicy::Inductor)
    liveTree = RangeMaxTree(live);
  plan.peakBytesBefore = baselinePeak;
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
  // A direct edge, the usual answer for a producer and its consumer:
  // looked for from the group with fewer units (a unit is in group g
  // exactly when it is among g's units).
  ArrayRef<unsigned> sources = groups[g1].units;
  ArrayRef<unsigned> targets = groups[g2].units;
  if (sources.size() <= targets.size()) {
    for (unsigned unit : sources)
      for (unsigned succ : deps.getSuccessors(unit))
        if (inGroup(succ, g2))
          return true;
  } else {
    for (unsigned unit : targets)
      for (unsigned pred : deps.getPredecessors(unit))
        if (inGroup(pred, g1))
          return true;
  }
  unsigned last = 0;
  for (unsigned unit : targets)
    last = std::max(last, position[unit]);
  // Only nodes that may reach a target are worth entering; the interval
  // labels answer most of these questions without a search: first against
  // the union of the targets' intervals, then, for few targets, each.
  // For one target (most searches) that target's interval alone.
  ReachabilityIndex::TargetSet targetSet;
  if (targets.size() > 1)
    targetSet = reachability.makeTargetSet(targets);
  auto promising = [&](unsigned unit) {
    if (targets.size() == 1)
      return reachability.mayReach(unit, targets.front());
    if (!reachability.mayReachAny(unit, targetSet))
      return false;
    return targets.size() > 8 ||
           llvm::any_of(targets, [&](unsigned target) {
             return reachability.mayReach(unit, target);
           });
  };
  ++stamp;
  SmallVectorImpl<unsigned> &stack = searchStack;
  stack.clear();
  for (unsigned unit : sources) {
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
// Placement and live bytes
//===----------------------------------------------------------------------===//

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

  if (options.peakMemory != PeakMemoryPolicy::Inductor) {
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
    // A fused g1 that keeps its slot keeps the live slots of every storage
    // that g2 and the groups that move do not touch: those are visited
    // through their units. (Its storages were visited when it was fused;
    // the merged group's chain grows by one member per fusion, and
    // visiting all of them made placing a long chain quadratic. So does a
    // foreach group that a fusion made, which grows by a node at a time.)
    bool g1Stays = groups[g1].kind == GroupKind::Fused ||
                   (groups[g1].isForeach() && groups[g1].fusedHere);
    for (auto [g, slot] : moves)
      if (g != g1 || slot != slotOf[g1] || !g1Stays)
        visit(g);
    visit(g2);
    // Apply, check, and undo if the peak rose beyond what the policy
    // allows: above the unfused schedule's for never-raise; for
    // traffic-bounded, above both the peak before this fusion and the
    // unfused peak plus 1/32 of the traffic the fusion saves (the inverse
    // of the factor of Inductor's can_fusion_increase_peak_memory, which
    // lets a fusion raise a lower bound of the peak by 32 times what it
    // saves). A fusion that does not raise the current peak never pays.
    int64_t peakBefore = liveTree.max();
    auto apply = [&](unsigned index, std::pair<unsigned, unsigned> from,
                     std::pair<unsigned, unsigned> to) {
      liveTree.move(from.first, from.second, to.first, to.second,
                    storages[index].bytes);
    };
    for (auto &[index, live] : changes)
      apply(index, storageLive[index], live);
    int64_t peakAfter = liveTree.max();
    bool tooHigh =
        peakAfter > baselinePeak &&
        (options.peakMemory == PeakMemoryPolicy::NeverRaise ||
         (peakAfter > peakBefore &&
          saturatingMul(peakAfter - baselinePeak, kPeakPerTrafficDivisor) >
              scoreFusionMemory(groups[g1], groups[g2])));
    if (tooHigh) {
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

//===----------------------------------------------------------------------===//
// Inductor's order
//===----------------------------------------------------------------------===//

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
    // Sorted by name as they come, each after the equal names before it (a
    // stable sort of a few entries, without stable_sort's buffer).
    SmallVector<std::pair<StringRef, unsigned>, 8> named;
    for (Attribute dep : groups[g].unmet)
      if (std::optional<unsigned> producer = producerGroup(dep))
        if (*producer != g) {
          StringRef name = getDepName(dep).getValue();
          auto at = llvm::upper_bound(
              named, name, [](StringRef key, const auto &entry) {
                return key < entry.first;
              });
          named.insert(at, {name, *producer});
        }
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
