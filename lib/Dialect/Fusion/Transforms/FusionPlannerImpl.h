//===- FusionPlannerImpl.h - The planner, for its sources ------*- C++ -*-===//
//
// Private to lib/Dialect/Fusion/Transforms: the Planner class behind
// planFusion (FusionPlanner.h), declared here so that each of its concerns
// lives in a source of its own:
//
//   FusionPlanner.cpp    setup, the rounds, fusing, the plan (the driver)
//   PlannerRules.cpp     refusal reasons, dependence arithmetic, can_fuse
//   PlannerTiling.cpp    the backend's can_fuse: iteration spaces, tiling
//   PlannerScoring.cpp   candidate pairs, scores, memory heuristics
//   PlannerSchedule.cpp  slots, reachability, placement with live bytes
//   ForeachFusion.cpp    foreach (combo) kernels
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNERIMPL_H
#define LIB_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNERIMPL_H

#include "scheduler-opt/Analysis/MemoryProfile.h"
#include "scheduler-opt/Analysis/SizeVars.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/FusionPlanner.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/LoopUtils.h"
#include "scheduler-opt/Support/MixedPointerInfo.h"
#include "scheduler-opt/Support/PairMap.h"
#include "scheduler-opt/Support/RangeMaxTree.h"
#include "scheduler-opt/Support/ReachabilityIndex.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <optional>
#include <string>

namespace mlir {
namespace fusion {
namespace planner {

/// True when the index uses an indirect index (Inductor's SymT.TMP): a
/// symbol after the graph's `numSizeSymbols` size symbols.
inline bool isIndirect(MemoryDepAttr dep, unsigned numSizeSymbols) {
  return dep.getIndex().getNumSymbols() > numSizeSymbols;
}

/// A dependence after Inductor's normalize / normalize_with_stride_order.
struct NormalizedDep {
  StringAttr name;
  AffineExpr index;
  SmallVector<AffineExpr> sizes;
  bool operator==(const NormalizedDep &other) const {
    return name == other.name && index == other.index && sizes == other.sizes;
  }
};

/// A group's dependences in order. Most groups have a few: up to 8 are
/// looked up by a scan, without a hash set (a DenseSet allocates 64 buckets
/// on its first insertion, for every list of every group).
using DepSet =
    llvm::SetVector<Attribute, SmallVector<Attribute, 4>,
                    DenseSet<Attribute, MixedPointerInfo<Attribute>>, 8>;

enum class GroupKind { Node, Fused, Extern, Nop, Grouped, Foreach };

/// No group (a slot without one, a group outside any foreach kernel).
constexpr unsigned kNoGroup = ~0u;

/// A scheduler node being fused.
struct Group {
  GroupKind kind;
  /// Units (input top-level nodes) in Inductor's member order (node1's,
  /// then node2's), an execution order; a foreach group's are its parts'.
  SmallVector<unsigned, 4> units;
  /// Leaf nodes of a Node/Fused/Foreach group, in execution order.
  SmallVector<NodeOp, 4> leaves;
  /// A foreach group (Inductor's ForeachKernelSchedulerNode): its parts
  /// (snodes), groups that are not in the schedule themselves. Empty for a
  /// `fusion.foreach` of the input that the planner did not open.
  SmallVector<unsigned, 0> parts;
  /// A part: the foreach group holding it.
  unsigned parent = kNoGroup;
  /// A foreach group: Inductor's read_to_node, the part that reads each
  /// buffer (the last one). Inductor fills it only when it builds the node
  /// from its parts: it stays empty once a node joined a part.
  DenseMap<StringAttr, unsigned> readToPart;
  /// Inductor's read_writes (reads without the group's own writes) and
  /// unmet_dependencies.
  DepSet reads, writes, unmet;
  llvm::SmallDenseSet<StringAttr, 8, MixedPointerInfo<StringAttr>> bufferNames;
  unsigned minOrder, maxOrder;
  bool isReduction;
  /// Inductor's group: (numel, rnumel), canonical expressions.
  AffineExpr numel, rnumel;
  bool alive = true;
  /// Whether the group came out of a fusion: placeFusion then brought the
  /// live slots of all its storages up to date.
  bool fusedHere = false;
  /// Changes whenever anything can_fuse reads of the group changes (its
  /// members, dependences, loop orders); unique across groups and time.
  uint64_t version = 0;

  bool isFusable() const {
    return kind == GroupKind::Node || kind == GroupKind::Fused ||
           (kind == GroupKind::Foreach && !parts.empty());
  }
  bool isForeach() const { return kind == GroupKind::Foreach; }
  /// Ends a group that fused into another. Its id stays the id of one of
  /// its units, so candidate pairs recorded by group id map to groups
  /// through groupOf.
  void kill() {
    alive = false;
    parts.clear();
    units.clear();
    leaves.clear();
    reads.clear();
    writes.clear();
    unmet.clear();
  }
  std::string getName() const;
};

/// The dependences of one unit, refreshed when its loops are reordered.
struct UnitDeps {
  SmallVector<Attribute, 4> reads, writes, unmet;
};

/// A unit's or a group's dependence lists, as mergeDeps reads them.
struct DepLists {
  ArrayRef<Attribute> reads, writes, unmet;
};

/// What racesInPlace looks at in one unit: its writes that update a storage
/// in place and its reads (other than WeakDeps) of buffers with a storage,
/// each with that storage. Computed from UnitDeps on first use (the writes
/// and the reads apart: most units update nothing in place, and then no
/// reads are looked at) and dropped when those are refreshed; the reads
/// pruneRedundantDeps drops are WeakDeps, which are not here.
struct UnitStorages {
  struct Read {
    StringAttr name;
    Value storage;
    Attribute dep;
  };
  bool knowsWrites = false, knowsReads = false;
  SmallVector<std::pair<Value, MemoryDepAttr>, 0> inPlaceWrites;
  SmallVector<Read, 0> reads;
  /// The storageBit of every storage `reads` names, or-ed: a unit whose
  /// mask misses a writer's reads none of what it overwrites.
  uint64_t readMask = 0;
};

/// What racesInPlace looks at in a writing group: its units' in-place
/// writes with their storages, the storages as a set when there are many
/// (a foreach kernel of in-place updates overwrites one a part), and
/// their storageBits or-ed; kept while the group keeps its version (its
/// units and their dependences).
struct GroupInPlaceWrites {
  uint64_t version = ~uint64_t(0); // never a group's version: not computed
  SmallVector<std::pair<Value, MemoryDepAttr>, 8> writes;
  DenseSet<Value, MixedPointerInfo<Value>> storages;
  uint64_t mask = 0;
};

/// One of 64 bits for a storage, for UnitStorages::readMask.
inline uint64_t storageBit(Value storage) {
  return uint64_t(1) << (DenseMapInfo<Value>::getHashValue(storage) & 63);
}

/// Inductor's tiling of a pointwise kernel: (numel, rnumel) or, tiled in
/// two, (x, y, rnumel).
using Tiling = SmallVector<AffineExpr, 3>;

/// A producer whyNotFuseVertical looked at, and the version of its group then.
struct ProducerStamp {
  unsigned unit, group;
  uint64_t version;
};

/// A can_fuse answer kept by the planner (see Planner::verdicts).
struct FuseVerdict {
  uint64_t version1, version2;
  /// The refusal, or kNoRefusal.
  uint8_t why;
  /// Whether the shared score (or, for a foreach group, any of its parts')
  /// was under the threshold (so that a reorder round asks
  /// shared_data_after_reordering_loop), and whether the answer
  /// came from a reorder round.
  bool underThreshold, inReorderRound;
  /// The producers looked at: Planner::verdictProducers[begin, end).
  unsigned producersBegin, producersEnd;
};
constexpr uint8_t kNoRefusal = 0xff;

class Planner {
public:
  Planner(GraphOp graph, const DependenceGraph &deps,
          const FusionOptions &options,
          ArrayRef<SmallVector<unsigned, 4>> foreachLists,
          LoopStrideCache *graphStrides)
      : graph(graph), deps(deps), options(options),
        foreachLists(foreachLists), sizeVars(graph),
        numSizeSymbols(graph.getNumSizeSymbols()),
        allSizesHinted(!llvm::is_contained(sizeVars.getHints(),
                                           kSymbolicSize)),
        loopStrides(graphStrides ? *graphStrides : ownStrides) {}

  FailureOr<FusionPlan> run();

private:
  // Setup (FusionPlanner.cpp; the schedule's in PlannerSchedule.cpp).
  LogicalResult initialize();
  void initializeSchedule();
  void makeUnitGroup(unsigned unit, Group &group);
  void recomputeGroupDeps(Group &group);
  /// Inductor's ReadWrites.merge_list and refresh_group_node_dependencies:
  /// `group`'s writes are the ordered union of its sources' writes
  /// (`depsOf(source)`: a unit's or a part's DepLists), its reads the
  /// sources' reads it does not write, its unmet dependences the sources'
  /// unmet ones it neither writes nor names, each list in the sources'
  /// order. A template so that the planner's most frequent refresh makes
  /// no indirect call per source.
  template <typename DepsOf>
  void mergeDeps(Group &group, ArrayRef<unsigned> sources, DepsOf depsOf) {
    bumpVersion(group);
    group.reads.clear();
    group.writes.clear();
    group.unmet.clear();
    for (unsigned source : sources) {
      ArrayRef<Attribute> writes = depsOf(source).writes;
      group.writes.insert(writes.begin(), writes.end());
    }
    for (unsigned source : sources) {
      DepLists deps = depsOf(source);
      for (Attribute dep : deps.reads)
        if (!group.writes.contains(dep))
          group.reads.insert(dep);
      for (Attribute dep : deps.unmet)
        if (!group.bufferNames.contains(getDepName(dep)) &&
            !group.writes.contains(dep))
          group.unmet.insert(dep);
    }
  }
  void refreshUnitDeps(unsigned unit);

  bool isIndirect(MemoryDepAttr dep) const {
    return planner::isIndirect(dep, numSizeSymbols);
  }

  // Graph queries (PlannerSchedule.cpp).
  template <typename Fn>
  void forEachSuccessorGroup(unsigned g, Fn fn);
  template <typename Fn>
  void forEachPredecessorGroup(unsigned g, Fn fn);
  bool reaches(unsigned from, unsigned to, bool viaOther);
  bool isAncestor(unsigned g1, unsigned g2);
  bool createsCycle(unsigned g1, unsigned g2);

  // Memory sizes and scores (PlannerScoring.cpp).
  int64_t depSize(Attribute dep);
  int64_t depElements(MemoryDepAttr dep);
  int64_t bufferElements(StringAttr name);
  int64_t scoreFusionMemory(const Group &g1, const Group &g2);
  std::optional<int64_t> sharedDataAfterReorderingLoop(unsigned g1,
                                                       unsigned g2);
  bool canFusionIncreasePeakMemory(const Group &g1, const Group &g2);
  std::optional<std::pair<Type, AffineExpr>> reuseKey(Attribute dep);
  ArrayRef<std::pair<Type, AffineExpr>> singleUserInputs(const Group &group);
  bool areLongDistant(const Group &g1, const Group &g2) const;

  // Rules (PlannerRules.cpp; the backend's and tiling in PlannerTiling.cpp).
  std::optional<RefusalReason> whyNotFuse(unsigned g1, unsigned g2);
  std::optional<RefusalReason> computeWhyNotFuse(unsigned g1, unsigned g2);
  bool isVerdictKept(unsigned g) const;
  bool isVerdictValid(const FuseVerdict &verdict, unsigned g1,
                      unsigned g2) const;
  void bumpVersion(Group &group) { group.version = ++versionClock; }
  std::optional<RefusalReason> whyNotFuseVertical(unsigned g1, unsigned g2);
  std::optional<RefusalReason> whyNotFuseBackend(unsigned g1, unsigned g2);
  std::optional<RefusalReason> whyNotFuseShapes(const Group &g1,
                                                const Group &g2);
  bool fusableReadAndWrite(Attribute read, MemoryDepAttr write);
  std::optional<NormalizedDep> normalized(MemoryDepAttr dep, bool byStride);
  bool fusableWeakDep(WeakDepAttr weak, const Group &g1, const Group &g2);
  bool racesInPlace(const Group &reader, const Group &writer);
  ArrayRef<std::pair<Value, MemoryDepAttr>> inPlaceWritesOf(unsigned unit) {
    UnitStorages &entry = unitStorages[unit];
    if (!entry.knowsWrites)
      findInPlaceWrites(unit, entry);
    return entry.inPlaceWrites;
  }
  const UnitStorages &storageReadsOf(unsigned unit) {
    UnitStorages &entry = unitStorages[unit];
    if (!entry.knowsReads)
      findStorageReads(unit, entry);
    return entry;
  }
  const GroupInPlaceWrites &inPlaceWritesOf(const Group &group);
  void findInPlaceWrites(unsigned unit, UnitStorages &entry);
  void findStorageReads(unsigned unit, UnitStorages &entry);
  StringAttr renamed(StringAttr name);
  StringAttr computeRenamed(StringAttr name);
  StringAttr realName(StringAttr name);
  Value storageOf(StringAttr name);
  /// One of Inductor's CandidateTilings of a node.
  struct TilingCandidate {
    std::pair<AffineExpr, AffineExpr> tiling;
    int64_t score;
    StringAttr name;
  };
  ArrayRef<TilingCandidate> candidateTilings(NodeOp node);
  bool fitsGroups(ArrayRef<AffineExpr> groupSizes, NodeOp node);
  AffineExpr product(AffineExpr a, AffineExpr b);
  void forgetLoopOrder(NodeOp leaf);
  Tiling selectTiling(ArrayRef<NodeOp> nodes, AffineExpr numel,
                      AffineExpr rnumel);
  Tiling groupTiling(const Group &group);

  // Fusion rounds (FusionPlanner.cpp; candidates in PlannerScoring.cpp).
  bool tryFuse(unsigned g1, unsigned g2);
  unsigned fuse(unsigned g1, unsigned g2);
  void absorb(unsigned into, unsigned from, bool prepend);
  void recomputeAfterReorder(unsigned g);
  void refuse(unsigned g1, unsigned g2, RefusalReason reason);
  SmallVector<std::pair<unsigned, unsigned>> getPossibleFusions();
  void fuseOnce(ArrayRef<std::pair<unsigned, unsigned>> candidates);
  bool runRound();
  void pruneRedundantDeps();
  std::optional<unsigned> producerUnit(StringAttr name) const;
  std::optional<unsigned> producerGroup(Attribute dep) const;
  size_t numGroups() const;
  void settleRefusals();

  // Foreach (combo) kernels: ForeachFusion.cpp.
  /// True when `unit` belongs to group g (a top-level group or a part).
  bool inGroup(unsigned unit, unsigned g) const {
    return groupOf[unit] == g || partOf[unit] == g;
  }
  /// The group in the schedule that holds g (g itself, or its foreach).
  unsigned topGroup(unsigned g) const {
    return groups[g].parent == kNoGroup ? g : groups[g].parent;
  }
  unsigned makeForeach(ArrayRef<unsigned> members);
  void refreshForeach(unsigned f, bool rebuildReadIndex, bool partsRecomputed);
  void mergePartDeps(Group &fe);
  std::optional<unsigned> consumerPartFor(unsigned f, unsigned producer);
  std::optional<unsigned> producerPartFor(unsigned f, unsigned consumer);
  std::optional<RefusalReason> whyNotFuseForeach(unsigned g1, unsigned g2);
  bool partsWouldDepend(unsigned g1, unsigned g2);
  unsigned fuseForeach(unsigned g1, unsigned g2);
  void createComboKernels();
  void assignSlots(function_ref<unsigned(unsigned)> key);

  // The schedule (PlannerSchedule.cpp).
  SmallVector<unsigned> scheduleOrder() const;
  SmallVector<unsigned> inductorOrder();
  bool placeFusion(unsigned g1, unsigned g2);
  std::pair<unsigned, unsigned>
  storageInterval(const StorageUse &use, function_ref<unsigned(unsigned)> group,
                  function_ref<unsigned(unsigned)> slot, bool merged) const;
  int64_t computePeakBytes() const;

  GraphOp graph;
  const DependenceGraph &deps;
  const FusionOptions &options;
  ArrayRef<SmallVector<unsigned, 4>> foreachLists;
  /// Inductor's V.graph.sizevars: size hints and statically known facts.
  SizeVars sizeVars;
  unsigned numSizeSymbols;
  /// Whether every size symbol has a hint (sizeHint then never records a
  /// missing one, whatever it is asked in whichever order).
  bool allSizesHinted;

  /// Each unit's position in the input order (a stable topological order).
  SmallVector<unsigned> position;
  SmallVector<UnitDeps> unitDeps;
  /// The units whose reads or unmet dependences held a WeakDep as the
  /// planner started. WeakDeps are only ever dropped from a unit's lists
  /// (refreshUnitDeps keeps those left), and a group's are its units', so
  /// pruneRedundantDeps passes over the groups of other units without
  /// looking at their dependences.
  llvm::BitVector mayWaitWeakly;
  SmallVector<UnitStorages, 0> unitStorages;
  SmallVector<Group, 0> groups;
  /// The top-level group of every unit, and the part of a foreach group
  /// holding it (kNoGroup outside foreach groups).
  SmallVector<unsigned> groupOf, partOf;
  /// Whether the next round is the first, which finds candidates in the
  /// order create_foreach_nodes left (foreach nodes last, then sorted).
  bool firstRound = true;
  /// That order before the sort: the groups that are not foreach nodes by
  /// input position, then the foreach nodes in list order.
  SmallVector<unsigned> firstRoundOrder;
  SmallVector<StorageUse> storages;
  int64_t baselinePeak = 0;

  DenseMap<Attribute, int64_t, MixedPointerInfo<Attribute>> depSizeCache;
  /// DFS marks, reset by bumping the stamp.
  SmallVector<unsigned> visitStamp, unitStamp;
  /// Reachability in the input graph, for isAncestor, and its search's
  /// stack (kept: a search per candidate pair).
  ReachabilityIndex reachability;
  SmallVector<unsigned> searchStack;
  unsigned stamp = 0;

  /// can_fuse's answers, kept across rounds and between finding the
  /// candidates and fusing them (Inductor asks again for every candidate
  /// pair in every round): an answer stands while the two groups, and the
  /// groups of the producers its intermediate-node check looked at, keep
  /// their versions. For plain and foreach groups in the schedule (not for
  /// foreach parts).
  PairMap<FuseVerdict> verdicts;
  SmallVector<ProducerStamp, 0> verdictProducers;
  /// What the answer being computed looked at (see FuseVerdict).
  SmallVector<ProducerStamp, 4> consultedProducers;
  bool consultedUnderThreshold = false;
  uint64_t versionClock = 0;
  /// The last score_fusion_memory can_fuse computed, with the versions of
  /// the two groups then (unique across groups and time, so they name the
  /// pair and its state), for get_possible_fusions' sort key.
  struct VersionedScore {
    uint64_t version1 = 0, version2 = 0;
    int64_t score = 0;
  } lastScore;

  FusionPlan plan;
  /// The index in plan.refusals of each pair (first units) refused.
  PairMap<unsigned> refusalIndex;
  /// The first units of the two groups of each refusal in plan.refusals,
  /// and when it was last refused (increasing).
  SmallVector<std::pair<unsigned, unsigned>> refusalUnits;
  SmallVector<uint64_t> refusalTime;
  uint64_t refusalClock = 0;
  /// Inductor's is_reorder_round: whether can_fuse may reorder loops in the
  /// current round.
  bool reorderRound = false;
  /// The schedule: the slot of every live group, and the group in every
  /// slot (kNoGroup for none). Slots are a topological order of the groups.
  /// How far placeFusion looks for a free slot.
  static constexpr unsigned kMaxFreeSlotScan = 64;
  SmallVector<unsigned> slotOf, groupAtSlot;
  /// The storages each unit produces or reads (indices into `storages`).
  SmallVector<SmallVector<unsigned, 4>> storagesOfUnit;
  /// The slots [begin, end) each storage is live in ({0, 0}: in registers).
  SmallVector<std::pair<unsigned, unsigned>> storageLive;
  /// With peak-memory=traffic-bounded, a fusion may raise the peak above
  /// the unfused schedule's by 1/kPeakPerTrafficDivisor of the bytes it
  /// saves reading.
  static constexpr int64_t kPeakPerTrafficDivisor = 32;
  /// Live bytes per slot (unless peak-memory=inductor).
  RangeMaxTree liveTree;
  SmallVector<unsigned> storageStamp;
  /// Cached per dependence: Inductor's buffer_reuse_key of a read of a
  /// single-user intermediate buffer, or nothing.
  DenseMap<Attribute, std::optional<std::pair<Type, AffineExpr>>,
           MixedPointerInfo<Attribute>>
      reuseKeys;
  DenseMap<StringAttr, StringAttr, MixedPointerInfo<StringAttr>> renamedCache,
      realNameCache;
  /// The names of the buffers a mutation overwrites and of those that
  /// overwrite one: renamed and realName give every other name back as it
  /// is, without a lookup in the tables of all names.
  DenseSet<StringAttr, MixedPointerInfo<StringAttr>> mutationNames;
  DenseMap<StringAttr, Value, MixedPointerInfo<StringAttr>> storageCache;
  /// normalizeDep per index map, sizes and mode: dependences of different
  /// buffers through the same index (a backward graph reads a dozen
  /// buffers by `4096 * d0 + d1`) normalize alike but for the name, which
  /// `normalized` puts in. The sizes point into the dependence attributes,
  /// which the context keeps.
  DenseMap<std::tuple<AffineMap, ArrayRef<AffineExpr>, unsigned>,
           std::optional<NormalizedDep>>
      normalizedCache;
  /// The strides of the leaves' accesses (candidateTilings): the graph's
  /// analysis when given, else `ownStrides`.
  LoopStrideCache ownStrides;
  LoopStrideCache &loopStrides;
  /// The new indices of the reorder rounds' loop permutations.
  LoopRewriteCache loopRewrites;
  /// The index translations of the units' dependences refreshed after
  /// their loops were reordered.
  DepMapCache depMaps;
  /// candidateTilings per leaf node, dropped when its loops are reordered.
  DenseMap<Operation *, SmallVector<TilingCandidate>> tilingCache;
  /// fitsGroups per leaf node: the group sizes asked (the unused ones
  /// null) and the answers, a few per leaf; dropped when the leaf's loops
  /// are reordered.
  struct GroupFit {
    std::array<AffineExpr, 3> sizes;
    bool fits;
  };
  DenseMap<Operation *, SmallVector<GroupFit, 2>> groupFits;
  /// product(a, b) per pair.
  DenseMap<std::pair<AffineExpr, AffineExpr>, AffineExpr> products;
  /// singleUserInputs per group id, with the group's version then.
  struct GroupReuseKeys {
    uint64_t version = ~uint64_t(0); // never a group's version: not computed
    SmallVector<std::pair<Type, AffineExpr>, 2> keys;
  };
  SmallVector<GroupReuseKeys, 0> groupReuseKeys;
  /// inPlaceWritesOf per group id.
  SmallVector<GroupInPlaceWrites, 0> groupInPlaceWrites;
  /// groupTiling per group id, with the group's version then.
  DenseMap<unsigned, std::pair<uint64_t, Tiling>> groupTilings;
};

template <typename Fn>
void Planner::forEachSuccessorGroup(unsigned g, Fn fn) {
  for (unsigned unit : groups[g].units)
    for (unsigned succ : deps.getSuccessors(unit))
      if (groupOf[succ] != g)
        fn(groupOf[succ]);
}

template <typename Fn>
void Planner::forEachPredecessorGroup(unsigned g, Fn fn) {
  for (unsigned unit : groups[g].units)
    for (unsigned pred : deps.getPredecessors(unit))
      if (groupOf[pred] != g)
        fn(groupOf[pred]);
}

} // namespace planner
} // namespace fusion
} // namespace mlir

#endif // LIB_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNERIMPL_H
