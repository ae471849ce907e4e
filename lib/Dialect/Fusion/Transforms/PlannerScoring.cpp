//===- PlannerScoring.cpp - Candidate pairs and their scores --------------===//
//
// Inductor's get_possible_fusions and score_fusion: the candidate pairs of
// a round (groups sharing a buffer), ordered by score_fusion_memory and
// proximity, with the memory heuristics can_fuse consults
// (can_fusion_increase_peak_memory, are_long_distant_nodes) and
// shared_data_after_reordering_loop, which may reorder a node's loops to
// raise the score.
//
//===----------------------------------------------------------------------===//

#include "FusionPlannerImpl.h"

#include "scheduler-opt/Analysis/SizeVars.h"
#include "scheduler-opt/Dialect/Fusion/IR/ElementTypes.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/LoopUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/Debug.h"

#include <numeric>

#define DEBUG_TYPE "fusion-fuse-nodes"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::planner;

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

/// Marks the dims `expr` uses in `used`.
static void markUsedDims(AffineExpr expr, llvm::SmallBitVector &used) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    if (dim.getPosition() < used.size())
      used.set(dim.getPosition());
  } else if (auto bin = dyn_cast<AffineBinaryOpExpr>(expr)) {
    markUsedDims(bin.getLHS(), used);
    markUsedDims(bin.getRHS(), used);
  }
}

/// MemoryDep.get_numel: the elements an access touches (the sizes of the
/// dims its index uses; the whole buffer for an indirect access).
int64_t Planner::depElements(MemoryDepAttr dep) {
  if (isIndirect(dep))
    return bufferElements(dep.getName());
  int64_t numel = 1;
  ArrayRef<AffineExpr> sizes = dep.getSizes();
  // The dims used, in one walk (instead of one per dim).
  llvm::SmallBitVector used(sizes.size());
  markUsedDims(dep.getIndex().getResult(0), used);
  for (auto [d, size] : llvm::enumerate(sizes))
    if (used.test(d))
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
  int64_t itemSize = getElementByteSize(type.getElementType());
  auto memory = dyn_cast<MemoryDepAttr>(dep);
  int64_t numel = memory ? depElements(memory) : bufferElements(name);
  return it->second = saturatingMul(numel, itemSize);
}

/// Inductor's score_fusion_memory: bytes of the dependences both share.
int64_t Planner::scoreFusionMemory(const Group &g1, const Group &g2) {
  // The shared dependences are those of g1's reads and writes (each once)
  // that g2 reads or writes, the same set looked up from g2's side, which
  // is cheaper when g2 has fewer (a node against a foreach kernel). The
  // sum of sizes that are not negative does not depend on its order,
  // saturating or not; nor does which size hint is reported missing, when
  // every size symbol has a hint.
  if (allSizesHinted && g2.reads.size() + g2.writes.size() <
                            g1.reads.size() + g1.writes.size()) {
    int64_t score = 0;
    bool negative = false;
    auto add = [&](Attribute dep) {
      int64_t size = depSize(dep);
      negative |= size < 0;
      score = saturatingAdd(score, size);
    };
    auto inG1 = [&](Attribute dep) {
      return g1.reads.contains(dep) || g1.writes.contains(dep);
    };
    for (Attribute dep : g2.reads)
      if (inG1(dep))
        add(dep);
    for (Attribute dep : g2.writes)
      if (!g2.reads.contains(dep) && inG1(dep))
        add(dep);
    if (!negative)
      return score;
  }
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
  // A group names a few dozen buffers at most: small tables, most of them
  // never allocated (the planner asks this of every pair under the
  // threshold in a reorder round).
  auto bufferNames = [](const Group &g) {
    llvm::SmallSetVector<StringAttr, 16> names;
    for (const DepSet *list : {&g.reads, &g.writes})
      for (Attribute dep : *list)
        if (auto memory = dyn_cast<MemoryDepAttr>(dep))
          if (!isa<AffineConstantExpr>(memory.getIndex().getResult(0)))
            names.insert(memory.getName());
    return names;
  };
  // {dep.name: dep for dep in reads_and_writes()}: the last one wins.
  auto nameToDep = [](const Group &g) {
    llvm::SmallDenseMap<StringAttr, Attribute, 16> map;
    for (Attribute dep : g.reads)
      map[getDepName(dep)] = dep;
    for (Attribute dep : g.writes)
      map[getDepName(dep)] = dep;
    return map;
  };
  llvm::SmallSetVector<StringAttr, 16> names1 = bufferNames(groups[g1]);
  llvm::SmallSetVector<StringAttr, 16> names2 = bufferNames(groups[g2]);
  llvm::SmallDenseMap<StringAttr, Attribute, 16> deps1 = nameToDep(groups[g1]);
  llvm::SmallDenseMap<StringAttr, Attribute, 16> deps2 = nameToDep(groups[g2]);
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
    if (failed(reorderLoopsByDepPair(group.leaves, self, other,
                                     &loopRewrites)))
      return false;
    for (NodeOp leaf : group.leaves)
      forgetLoopOrder(leaf);
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

/// Inductor's buffer_reuse_key of a read of a single-user intermediate
/// buffer (its element type and storage size), or nothing.
std::optional<std::pair<Type, AffineExpr>> Planner::reuseKey(Attribute dep) {
  auto [it, inserted] = reuseKeys.try_emplace(dep);
  if (inserted) {
    Value buffer = deps.lookupBuffer(getDepName(dep));
    auto type = buffer && !isa<BlockArgument>(buffer)
                    ? dyn_cast<BufferType>(buffer.getType())
                    : BufferType();
    // buffer_reuse_key: the storage size as a simplified expression.
    if (type && deps.getUsers(buffer).size() == 1)
      it->second = std::make_pair(
          type.getElementType(), SizeVars::simplify(type.getStorageSizeExpr()));
  }
  return it->second;
}

/// The distinct reuse keys of a group's reads, kept while the group keeps
/// its version. Valid until groups are added (the table then grows).
ArrayRef<std::pair<Type, AffineExpr>>
Planner::singleUserInputs(const Group &group) {
  if (groupReuseKeys.size() < groups.size())
    groupReuseKeys.resize(groups.size());
  GroupReuseKeys &entry = groupReuseKeys[&group - groups.data()];
  if (entry.version == group.version)
    return entry.keys;
  entry.keys.clear();
  for (Attribute dep : group.reads)
    if (std::optional<std::pair<Type, AffineExpr>> key = reuseKey(dep))
      if (!llvm::is_contained(entry.keys, *key))
        entry.keys.push_back(*key);
  entry.version = group.version;
  return entry.keys;
}

/// Inductor's can_fusion_increase_peak_memory heuristic.
bool Planner::canFusionIncreasePeakMemory(const Group &g1, const Group &g2) {
  // Only keys both groups have count: the group with fewer reads is asked
  // first, and without keys answers for both (a node against a foreach
  // group, whose keys change with every node that joins it).
  bool g2First = g2.reads.size() < g1.reads.size();
  if (singleUserInputs(g2First ? g2 : g1).empty())
    return false;
  ArrayRef<std::pair<Type, AffineExpr>> keys1 = singleUserInputs(g1);
  if (keys1.empty())
    return false;
  ArrayRef<std::pair<Type, AffineExpr>> keys2 = singleUserInputs(g2);
  int64_t overhead = 0;
  for (auto key : keys1)
    if (llvm::is_contained(keys2, key))
      overhead = saturatingAdd(overhead, sizeVars.sizeHint(key.second));
  // The score is never negative: no overhead, no refusal.
  if (overhead == 0)
    return false;
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
// Candidates
//===----------------------------------------------------------------------===//

/// Inductor's get_possible_fusions: pairs of fusable groups sharing a
/// buffer, each group with at most `pairwiseAttempts` later ones, that
/// can_fuse allows, by decreasing score_fusion_key.
SmallVector<std::pair<unsigned, unsigned>> Planner::getPossibleFusions() {
  SmallVector<unsigned> order = inductorOrder();
  // The groups using each buffer, buffers in the order of their first use:
  // (buffer, group) pairs in a flat list, then grouped by buffer (a list per
  // buffer allocates for each of them, every round).
  // A group's buffers, each once in the order of first use: the buffer's
  // last user so far says whether the group already named it.
  DenseMap<StringAttr, unsigned> bufferIndex;
  bufferIndex.reserve(order.size());
  SmallVector<unsigned> lastUser;
  SmallVector<std::pair<unsigned, unsigned>> uses;
  for (unsigned g : order) {
    Group &group = groups[g];
    if (!group.isFusable())
      continue;
    for (const DepSet *list : {&group.reads, &group.writes})
      for (Attribute dep : *list) {
        auto [it, inserted] =
            bufferIndex.try_emplace(getDepName(dep), bufferIndex.size());
        if (inserted)
          lastUser.push_back(kNoGroup);
        if (lastUser[it->second] == g)
          continue;
        lastUser[it->second] = g;
        uses.push_back({it->second, g});
      }
  }
  SmallVector<unsigned> firstUse(bufferIndex.size() + 1, 0);
  for (auto [buffer, g] : uses)
    ++firstUse[buffer + 1];
  std::partial_sum(firstUse.begin(), firstUse.end(), firstUse.begin());
  SmallVector<unsigned> users(uses.size());
  SmallVector<unsigned> next(firstUse.begin(), std::prev(firstUse.end()));
  for (auto [buffer, g] : uses)
    users[next[buffer]++] = g;
  // The pairs checkAllPairs may visit, so that `seen` is sized once.
  size_t numPairs = 0;
  for (unsigned b = 0, e = bufferIndex.size(); b < e; ++b) {
    size_t n = firstUse[b + 1] - firstUse[b];
    for (size_t i = 0; i < n; ++i)
      numPairs += std::min<size_t>(n - 1 - i, options.pairwiseAttempts);
  }
  SmallVector<std::pair<unsigned, unsigned>> possible;
  // Each possible pair's score, when can_fuse just computed it: valid while
  // both groups keep those versions (a reorder round may reorder either
  // group's loops before the sort).
  SmallVector<VersionedScore> scores;
  auto allow = [&](unsigned g1, unsigned g2) {
    possible.push_back({g1, g2});
    VersionedScore &score = scores.emplace_back();
    if (lastScore.version1 == groups[g1].version &&
        lastScore.version2 == groups[g2].version)
      score = lastScore;
  };
  llvm::DenseSet<std::pair<unsigned, unsigned>> seen;
  seen.reserve(numPairs);
  auto checkAllPairs = [&](ArrayRef<unsigned> nodes) {
    for (unsigned i = 0, e = nodes.size(); i < e; ++i) {
      unsigned end = std::min<unsigned>(e, i + 1 + options.pairwiseAttempts);
      for (unsigned j = i + 1; j < end; ++j) {
        if (!seen.insert({nodes[i], nodes[j]}).second)
          continue;
        ++plan.candidatesScored;
        std::optional<RefusalReason> why = whyNotFuse(nodes[i], nodes[j]);
        if (!why) {
          allow(nodes[i], nodes[j]);
          continue;
        }
        // Foreach fusions are order dependent: the foreach node may be the
        // producer.
        if (groups[nodes[j]].isForeach() && !whyNotFuse(nodes[j], nodes[i]))
          allow(nodes[j], nodes[i]);
        else
          refuse(nodes[i], nodes[j], *why);
      }
    }
  };
  for (unsigned b = 0, e = bufferIndex.size(); b < e; ++b)
    checkAllPairs(
        ArrayRef(users).slice(firstUse[b], firstUse[b + 1] - firstUse[b]));
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
  for (auto [pair, known] : llvm::zip(possible, scores)) {
    const Group &a = groups[pair.first], &b = groups[pair.second];
    int64_t memory = known.version1 == a.version && known.version2 == b.version
                         ? known.score
                         : scoreFusionMemory(a, b);
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
