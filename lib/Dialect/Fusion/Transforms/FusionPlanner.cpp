//===- FusionPlanner.cpp - Inductor's fuse_nodes, decided -----------------===//
//
// The decision half of fusion-fuse-nodes. Names follow Inductor's
// scheduler.py: a "group" is a scheduler node being fused (a
// FusedSchedulerNode once it has several members), a "unit" a top-level
// node of the input graph. Groups keep the merged read/write dependences
// Inductor's FusedSchedulerNode keeps, and a topological label instead of
// Inductor's ancestor sets, which grow quadratically with the graph: a path
// between two groups can only go through groups labeled between them, so
// reachability is a depth-first search pruned by labels.
//
//===----------------------------------------------------------------------===//

#include "fusion/Dialect/Fusion/Transforms/FusionPlanner.h"

#include "fusion/Analysis/MemoryProfile.h"
#include "fusion/Dialect/Fusion/Transforms/LoopUtils.h"
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

/// The buffer a dependence names.
static StringAttr depName(Attribute dep) {
  if (auto memory = dyn_cast<MemoryDepAttr>(dep))
    return memory.getName();
  if (auto star = dyn_cast<StarDepAttr>(dep))
    return star.getName();
  return cast<WeakDepAttr>(dep).getName();
}

/// True when the index uses an indirect index (Inductor's SymT.TMP).
static bool isIndirect(MemoryDepAttr dep) {
  return dep.getIndex().getNumSymbols() != 0;
}

/// A linear index: sum of stride * dim, plus a part without dims.
struct LinearIndex {
  SmallVector<int64_t> strides;
  AffineExpr rest;
};

/// Decomposes `expr` over `numDims` dims into strides and a dim-free rest;
/// nullopt unless every dim appears only linearly.
static std::optional<LinearIndex> decomposeLinear(AffineExpr expr,
                                                  unsigned numDims) {
  LinearIndex result{SmallVector<int64_t>(numDims, 0),
                     getAffineConstantExpr(0, expr.getContext())};
  SmallVector<std::pair<AffineExpr, int64_t>> worklist = {{expr, 1}};
  while (!worklist.empty()) {
    auto [e, scale] = worklist.pop_back_val();
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      result.strides[dim.getPosition()] += scale;
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
    if (bin.getKind() == AffineExprKind::Mul) {
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
        worklist.push_back({bin.getLHS(), scale * c.getValue()});
        continue;
      }
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS())) {
        worklist.push_back({bin.getRHS(), scale * c.getValue()});
        continue;
      }
    }
    return std::nullopt;
  }
  return result;
}

namespace {
/// A dependence after Inductor's normalize / normalize_with_stride_order.
struct NormalizedDep {
  StringAttr name;
  AffineExpr index;
  SmallVector<int64_t> sizes;
  bool operator==(const NormalizedDep &other) const {
    return name == other.name && index == other.index && sizes == other.sizes;
  }
};
} // namespace

/// Inductor's `_simplify_loops` on one linear index (with
/// `index_prevent_reordering`, so only adjacent dims merge): drops dims of
/// size 1, merges an outer dim into the next inner one when its stride is
/// the inner dim's stride times the inner size, and renames the dims left.
/// With `byStride`, first orders the dims by decreasing stride
/// (`normalize_with_stride_order`); otherwise drops trailing unused dims
/// (`normalize`). Nullopt for a non-linear index.
static std::optional<NormalizedDep> normalizeDep(MemoryDepAttr dep,
                                                 bool byStride) {
  AffineMap map = dep.getIndex();
  ArrayRef<int64_t> depSizes = dep.getSizes();
  std::optional<LinearIndex> linear =
      decomposeLinear(map.getResult(0), map.getNumDims());
  if (!linear)
    return std::nullopt;
  SmallVector<unsigned> order(depSizes.size());
  std::iota(order.begin(), order.end(), 0);
  if (byStride)
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return linear->strides[a] > linear->strides[b];
    });
  // (size, stride) outermost first.
  SmallVector<std::pair<int64_t, int64_t>> dims;
  for (unsigned d : order)
    if (depSizes[d] != 1)
      dims.push_back({depSizes[d], linear->strides[d]});
  for (unsigned inner = dims.size(); inner-- > 1;) {
    auto &outerDim = dims[inner - 1];
    auto &innerDim = dims[inner];
    if (outerDim.second == innerDim.second * innerDim.first) {
      innerDim.first *= outerDim.first;
      dims.erase(dims.begin() + inner - 1);
    }
  }
  if (!byStride)
    while (!dims.empty() && dims.back().second == 0)
      dims.pop_back();
  MLIRContext *ctx = map.getContext();
  AffineExpr index = linear->rest;
  NormalizedDep result{dep.getName(), nullptr, {}};
  for (auto [d, dim] : llvm::enumerate(dims)) {
    index = index + getAffineDimExpr(d, ctx) * dim.second;
    result.sizes.push_back(dim.first);
  }
  result.index = simplifyAffineExpr(index, dims.size(), map.getNumSymbols());
  return result;
}

//===----------------------------------------------------------------------===//
// The planner
//===----------------------------------------------------------------------===//

namespace {

enum class GroupKind { Node, Fused, Extern, Nop, Grouped, Foreach };

/// A scheduler node being fused.
struct Group {
  GroupKind kind;
  /// Units (input top-level nodes), in execution order.
  SmallVector<unsigned, 4> units;
  /// Leaf nodes of a Node/Fused group, in execution order.
  SmallVector<NodeOp, 4> leaves;
  /// Inductor's read_writes (reads without the group's own writes) and
  /// unmet_dependencies.
  llvm::SetVector<Attribute> reads, writes, unmet;
  llvm::SmallDenseSet<StringAttr, 8> bufferNames;
  unsigned minOrder, maxOrder;
  /// A topological label: an edge from a to b implies label(a) < label(b).
  int64_t label;
  bool isReduction;
  /// Inductor's group: (numel, rnumel).
  int64_t numel, rnumel;
  bool alive = true;

  bool isFusable() const {
    return kind == GroupKind::Node || kind == GroupKind::Fused;
  }
  std::string getName() const;
};

/// The dependences of one unit, refreshed when its loops are reordered.
struct UnitDeps {
  SmallVector<Attribute, 4> reads, writes, unmet;
};

/// Inductor's tiling of a pointwise kernel: (numel, rnumel) or, tiled in
/// two, (x, y, rnumel).
using Tiling = SmallVector<int64_t, 3>;

class Planner {
public:
  Planner(GraphOp graph, const DependenceGraph &deps,
          const FusionOptions &options)
      : graph(graph), deps(deps), options(options) {}

  FailureOr<FusionPlan> run();

private:
  // Setup.
  LogicalResult initialize();
  Group makeUnitGroup(unsigned unit);
  void recomputeGroupDeps(Group &group);
  void refreshUnitDeps(unsigned unit);

  // Graph queries.
  template <typename Fn>
  void forEachSuccessorGroup(unsigned g, Fn fn);
  bool reaches(unsigned from, unsigned to, bool viaOther);
  bool isAncestor(unsigned g1, unsigned g2);
  bool createsCycle(unsigned g1, unsigned g2);

  // Memory sizes and scores.
  int64_t depSize(Attribute dep);
  int64_t bufferElements(StringAttr name);
  int64_t scoreFusionMemory(const Group &g1, const Group &g2);
  int64_t sharedDataAfterReorderingLoop(unsigned g1, unsigned g2);
  bool canFusionIncreasePeakMemory(const Group &g1, const Group &g2);
  bool areLongDistant(const Group &g1, const Group &g2) const;

  // Rules.
  std::optional<RefusalReason> whyNotFuse(unsigned g1, unsigned g2);
  std::optional<RefusalReason> whyNotFuseVertical(unsigned g1, unsigned g2);
  std::optional<RefusalReason> whyNotFuseBackend(const Group &g1,
                                                 const Group &g2);
  bool fusableReadAndWrite(Attribute read, MemoryDepAttr write);
  bool fusableWeakDep(WeakDepAttr weak, const Group &g1, const Group &g2);
  StringAttr renamed(StringAttr name);
  StringAttr realName(StringAttr name);
  Tiling selectTiling(ArrayRef<NodeOp> nodes, int64_t numel,
                      int64_t rnumel);

  // Fusion.
  bool tryFuse(unsigned g1, unsigned g2);
  unsigned fuse(unsigned g1, unsigned g2);
  void refuse(unsigned g1, unsigned g2, RefusalReason reason);
  SmallVector<std::pair<unsigned, unsigned>> getPossibleFusions();
  bool fuseOnce(ArrayRef<std::pair<unsigned, unsigned>> candidates,
                const llvm::DenseSet<std::pair<unsigned, unsigned>> &blocked,
                SmallVectorImpl<std::pair<unsigned, unsigned>> &merged);
  SmallVector<unsigned> scheduleOrder();
  int64_t peakBytes();

  struct State {
    SmallVector<Group, 0> groups;
    SmallVector<unsigned> groupOf;
  };

  GraphOp graph;
  const DependenceGraph &deps;
  const FusionOptions &options;
  MLIRContext *ctx = nullptr;

  /// Input order of the units (a stable topological order) and position.
  SmallVector<unsigned> inputOrder, position;
  SmallVector<UnitDeps> unitDeps;
  SmallVector<Group, 0> groups;
  SmallVector<unsigned> groupOf;
  SmallVector<StorageUse> storages;
  int64_t baselinePeak = 0;

  DenseMap<Attribute, int64_t> depSizeCache;
  /// DFS marks, reset by bumping the stamp.
  SmallVector<unsigned> visitStamp, unitStamp;
  /// Reachability in the input graph, for isAncestor.
  ReachabilityIndex reachability;
  unsigned stamp = 0;

  FusionPlan plan;
  /// (first unit, second unit, reason) already reported.
  llvm::DenseSet<std::tuple<unsigned, unsigned, unsigned>> reported;
  /// The first units of the two groups of each refusal in plan.refusals.
  SmallVector<std::pair<unsigned, unsigned>> refusalUnits;
  /// Units whose loops were reordered in the current round.
  llvm::SetVector<unsigned> reorderedUnits;
};
} // namespace

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
  group.label = position[unit];
  group.isReduction = false;
  group.numel = group.rnumel = 1;
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
        group.numel = node.getNumel();
        group.rnumel = node.getReductionNumel();
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
    Value buffer = deps.lookupBuffer(depName(dep));
    std::optional<unsigned> producer =
        buffer ? deps.getProducer(buffer) : std::nullopt;
    if (producer && *producer != unit)
      ud.unmet.push_back(dep);
  }
  reorderedUnits.insert(unit);
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
      if (!group.bufferNames.contains(depName(dep)) &&
          !group.writes.contains(dep))
        group.unmet.insert(dep);
  }
}

LogicalResult Planner::initialize() {
  ctx = graph.getContext();
  unsigned numUnits = deps.getNumNodes();
  std::optional<SmallVector<unsigned>> order = stableTopologicalOrder(
      numUnits, [&](unsigned n) { return deps.getPredecessors(n); },
      [&](unsigned n) { return deps.getSuccessors(n); });
  if (!order)
    return failure();
  inputOrder = std::move(*order);
  position.assign(numUnits, 0);
  for (auto [pos, unit] : llvm::enumerate(inputOrder))
    position[unit] = pos;

  unitDeps.resize(numUnits);
  groupOf.resize(numUnits);
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

  storages = collectStorageUses(deps);
  baselinePeak = peakBytes();
  plan.peakBytesBefore = baselinePeak;
  return success();
}

//===----------------------------------------------------------------------===//
// Graph queries
//===----------------------------------------------------------------------===//

template <typename Fn>
void Planner::forEachSuccessorGroup(unsigned g, Fn fn) {
  for (unsigned unit : groups[g].units)
    for (unsigned succ : deps.getSuccessors(unit))
      if (groupOf[succ] != g)
        fn(groupOf[succ]);
}

/// True when there is a path from `from` to `to`; with `viaOther`, a path
/// through at least one other group (a direct edge does not count).
bool Planner::reaches(unsigned from, unsigned to, bool viaOther) {
  int64_t limit = groups[to].label;
  if (groups[from].label >= limit)
    return false;
  ++stamp;
  SmallVector<unsigned> stack;
  bool found = false;
  forEachSuccessorGroup(from, [&](unsigned succ) {
    if (succ == to) {
      found |= !viaOther;
      return;
    }
    if (groups[succ].label < limit && visitStamp[succ] != stamp) {
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
      if (groups[succ].label < limit && visitStamp[succ] != stamp) {
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
  ArrayRef<unsigned> targets = groups[g2].units;
  unsigned last = 0;
  for (unsigned unit : targets)
    last = std::max(last, position[unit]);
  // Only nodes that may reach a target are worth entering; the interval
  // labels answer most of these questions without a search.
  auto promising = [&](unsigned unit) {
    return llvm::any_of(targets, [&](unsigned target) {
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
      if (groupOf[succ] == g2)
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
  return type ? type.getNumElements() : 0;
}

/// Inductor's dep_size_hint: the bytes an access touches.
int64_t Planner::depSize(Attribute dep) {
  auto [it, inserted] = depSizeCache.try_emplace(dep, 0);
  if (!inserted)
    return it->second;
  if (isa<WeakDepAttr>(dep))
    return it->second = 1;
  StringAttr name = depName(dep);
  Value buffer = deps.lookupBuffer(name);
  auto type = buffer ? dyn_cast<BufferType>(buffer.getType()) : BufferType();
  if (!type)
    return it->second;
  int64_t itemSize =
      std::max<int64_t>(type.getElementType().getIntOrFloatBitWidth() / 8, 1);
  int64_t numel = type.getNumElements();
  auto memory = dyn_cast<MemoryDepAttr>(dep);
  if (memory && !isIndirect(memory)) {
    // MemoryDep.get_numel: the sizes of the dims the index uses.
    numel = 1;
    AffineExpr index = memory.getIndex().getResult(0);
    for (auto [d, size] : llvm::enumerate(memory.getSizes()))
      if (index.isFunctionOfDim(d))
        numel *= size;
  }
  return it->second = numel * itemSize;
}

/// Inductor's score_fusion_memory: bytes of the dependences both share.
int64_t Planner::scoreFusionMemory(const Group &g1, const Group &g2) {
  int64_t score = 0;
  auto shares = [&](Attribute dep) {
    return g2.reads.contains(dep) || g2.writes.contains(dep);
  };
  for (Attribute dep : g1.reads)
    if (shares(dep))
      score += depSize(dep);
  for (Attribute dep : g1.writes)
    if (!g1.reads.contains(dep) && shares(dep))
      score += depSize(dep);
  return score;
}

/// Inductor's shared_data_after_reordering_loop: when the groups access a
/// shared buffer in different loop orders, reorder the pointwise one's loops
/// to match, then score again.
int64_t Planner::sharedDataAfterReorderingLoop(unsigned g1, unsigned g2) {
  if (!options.reorderLoops)
    return 0;
  auto nameToDep = [](const Group &g) {
    llvm::MapVector<StringAttr, Attribute> map;
    for (Attribute dep : g.reads)
      map[depName(dep)] = dep;
    for (Attribute dep : g.writes)
      map[depName(dep)] = dep;
    return map;
  };
  llvm::MapVector<StringAttr, Attribute> deps1 = nameToDep(groups[g1]);
  llvm::MapVector<StringAttr, Attribute> deps2 = nameToDep(groups[g2]);
  MemoryDepAttr lhs, rhs;
  int64_t bestNumel = -1;
  for (auto &[name, dep1] : deps1) {
    auto it = deps2.find(name);
    if (it == deps2.end())
      continue;
    auto m1 = dyn_cast<MemoryDepAttr>(dep1);
    auto m2 = dyn_cast<MemoryDepAttr>(it->second);
    if (!m1 || !m2)
      continue;
    std::optional<NormalizedDep> n1 = normalizeDep(m1, /*byStride=*/true);
    std::optional<NormalizedDep> n2 = normalizeDep(m2, /*byStride=*/true);
    if (!n1 || !n2 || !(*n1 == *n2))
      continue;
    int64_t numel = m1.getNumAccesses();
    if (numel > bestNumel) {
      bestNumel = numel;
      lhs = m1;
      rhs = m2;
    }
  }
  if (!lhs)
    return 0;
  if (lhs.getIndex().getNumDims() != rhs.getIndex().getNumDims()) {
    std::optional<NormalizedDep> n1 = normalizeDep(lhs, /*byStride=*/false);
    std::optional<NormalizedDep> n2 = normalizeDep(rhs, /*byStride=*/false);
    return n1 && n2 && *n1 == *n2 ? depSize(lhs) : 0;
  }
  auto reorder = [&](unsigned g, MemoryDepAttr self, MemoryDepAttr other) {
    Group &group = groups[g];
    if (failed(reorderLoopsByDepPair(group.leaves, self, other)))
      return;
    LLVM_DEBUG(llvm::dbgs() << "reordered loops of " << group.getName()
                            << "\n");
    for (unsigned unit : group.units)
      refreshUnitDeps(unit);
    recomputeGroupDeps(group);
  };
  if (!groups[g1].isReduction)
    reorder(g1, lhs, rhs);
  else if (!groups[g2].isReduction)
    reorder(g2, rhs, lhs);
  return scoreFusionMemory(groups[g1], groups[g2]);
}

/// Inductor's can_fusion_increase_peak_memory heuristic.
bool Planner::canFusionIncreasePeakMemory(const Group &g1, const Group &g2) {
  auto singleUserInputs = [&](const Group &g) {
    llvm::SetVector<std::pair<Type, int64_t>> keys;
    for (Attribute dep : g.reads) {
      Value buffer = deps.lookupBuffer(depName(dep));
      if (!buffer || isa<BlockArgument>(buffer))
        continue;
      auto type = dyn_cast<BufferType>(buffer.getType());
      if (type && deps.getUsers(buffer).size() == 1)
        keys.insert({type.getElementType(), type.getStorageSize()});
    }
    return keys;
  };
  auto keys1 = singleUserInputs(g1);
  auto keys2 = singleUserInputs(g2);
  int64_t overhead = 0;
  for (auto key : keys1)
    if (keys2.contains(key))
      overhead += key.second;
  return overhead > 32 * scoreFusionMemory(g1, g2);
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
  return getBufferName(version);
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
    SmallVector<int64_t> readSizes(memory.getSizes());
    SmallVector<int64_t> writeSizes(write.getSizes());
    if (options.reorderLoops && readSizes.size() != writeSizes.size()) {
      std::optional<NormalizedDep> r = normalizeDep(memory, false);
      std::optional<NormalizedDep> w = normalizeDep(write, false);
      if (!r || !w)
        return false;
      readIndex = r->index;
      writeIndex = w->index;
      readSizes = r->sizes;
      writeSizes = w->sizes;
    }
    return readIndex == writeIndex && readSizes.size() >= writeSizes.size() &&
           ArrayRef(readSizes).take_front(writeSizes.size()) ==
               ArrayRef(writeSizes);
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
    if (depName(dep) == weak.getMutating()) {
      write = dyn_cast<MemoryDepAttr>(dep);
      ++count;
    }
  if (count != 1 || !write || isIndirect(write))
    return false;
  StringAttr real = realName(weak.getMutating());
  for (Attribute dep : g1.reads) {
    if (depName(dep) != real)
      continue;
    auto read = dyn_cast<MemoryDepAttr>(dep);
    if (!read || isIndirect(read) || read.getIndex() != write.getIndex() ||
        read.getSizes() != write.getSizes())
      return false;
  }
  return true;
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
    remaining[renamed(depName(dep))].push_back(dep);
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
      remainingNames.insert(depName(dep));
  for (StringAttr name : remainingNames)
    if (node1.bufferNames.contains(name))
      return RefusalReason::MemoryDepsMismatch;
  for (StringAttr name : remainingNames) {
    Value buffer = deps.lookupBuffer(name);
    std::optional<unsigned> producer =
        buffer ? deps.getProducer(buffer) : std::nullopt;
    if (producer && groupOf[*producer] != g1 &&
        isAncestor(g1, groupOf[*producer]))
      return RefusalReason::IntermediateNodes;
  }
  return std::nullopt;
}

/// Inductor's `SIMDKernel._split_iteration_ranges` feasibility: can the loop
/// sizes of a node be split onto the kernel's iteration groups?
static bool isCompatible(ArrayRef<int64_t> groupSizes, NodeOp node) {
  SmallVector<int64_t> remaining(groupSizes);
  unsigned current = 0;
  auto addRange = [&](unsigned i, int64_t size) {
    if (i >= remaining.size() || size == 0 || remaining[i] % size != 0)
      return false;
    remaining[i] /= size;
    return true;
  };
  for (ArrayRef<int64_t> lengths : {node.getRanges(), node.getReductionRanges()})
    for (int64_t size : lengths) {
      if (size == 1)
        continue;
      while (current < remaining.size() && remaining[current] == 1)
        ++current;
      if (current + 1 < remaining.size() && size > remaining[current]) {
        if (size % remaining[current] != 0)
          return false;
        int64_t outer = remaining[current];
        if (!addRange(current, outer) ||
            !addRange(current + 1, size / outer))
          return false;
      } else if (!addRange(current, size)) {
        return false;
      }
    }
  return llvm::all_of(remaining, [](int64_t r) { return r == 1; });
}

/// Inductor's SIMDScheduling.select_tiling for pointwise kernels: a 2D
/// tiling when enough accesses walk memory contiguously along an outer
/// loop (a transpose), else (numel, rnumel).
Tiling Planner::selectTiling(ArrayRef<NodeOp> nodes, int64_t numel,
                             int64_t rnumel) {
  Tiling fallback = {numel, rnumel};
  if (rnumel != 1)
    return fallback;
  llvm::SmallDenseSet<StringAttr, 8> seenNames;
  // Tilings ranked by total score; ties keep first-seen order
  // (Counter.most_common).
  llvm::MapVector<std::pair<int64_t, int64_t>, int64_t> scores;
  auto isGoodSize = [](int64_t s) { return s >= 32 && s % 32 == 0; };
  for (NodeOp node : nodes) {
    ArrayRef<int64_t> ranges = node.getRanges();
    if (ranges.size() <= 1 || node.isReduction())
      continue;
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
    int64_t nodeNumel = node.getNumel();
    for (auto [access, name] : accesses) {
      AffineExpr expr = getLoopIndexExpr(node, access);
      if (!expr)
        continue;
      unsigned numSymbols = 0;
      expr.walk([&](AffineExpr e) {
        if (auto sym = dyn_cast<AffineSymbolExpr>(e))
          numSymbols = std::max(numSymbols, sym.getPosition() + 1);
      });
      std::optional<SmallVector<int64_t>> strides =
          getStrides(expr, ranges.size(), numSymbols);
      if (!strides)
        continue;
      auto unit = llvm::find(*strides, 1);
      if (unit == strides->end())
        continue;
      unsigned split = unit - strides->begin() + 1;
      if (split == ranges.size())
        continue;
      if (llvm::all_of(ArrayRef(*strides).drop_front(split),
                       [](int64_t s) { return s == 0; }))
        continue;
      int64_t outer = 1, inner = 1, score = 1;
      for (unsigned d = 0; d < ranges.size(); ++d) {
        (d < split ? outer : inner) *= ranges[d];
        if ((*strides)[d] != 0)
          score *= ranges[d];
      }
      if (llvm::is_contained(writeNames, name))
        score *= 2;
      if (isGoodSize(outer))
        score *= 2;
      if (isGoodSize(inner))
        score *= 2;
      if (score < nodeNumel)
        continue;
      if (!seenNames.insert(name).second)
        continue;
      scores[{outer, inner}] += score;
    }
  }
  SmallVector<std::pair<std::pair<int64_t, int64_t>, int64_t>> ranked(
      scores.begin(), scores.end());
  llvm::stable_sort(ranked, [](const auto &a, const auto &b) {
    return a.second > b.second;
  });
  for (auto &[tiling, score] : ranked) {
    int64_t groupSizes[] = {tiling.first, tiling.second, rnumel};
    if (llvm::all_of(nodes,
                     [&](NodeOp n) { return isCompatible(groupSizes, n); }))
      return {tiling.first, tiling.second, rnumel};
  }
  return fallback;
}

/// SIMDScheduling.can_fuse: the kernels' iteration spaces must agree.
std::optional<RefusalReason> Planner::whyNotFuseBackend(const Group &g1,
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
  if (pointwise.numel == reduction.numel * reduction.rnumel) {
    int64_t groupSizes[] = {reduction.numel, reduction.rnumel};
    if (!llvm::all_of(pointwise.leaves,
                      [&](NodeOp n) { return isCompatible(groupSizes, n); }))
      return RefusalReason::ReductionShapeIncompatible;
    Tiling tiling = selectTiling(pointwise.leaves, pointwise.numel, 1);
    Tiling flat = {pointwise.numel, 1};
    Tiling split = {reduction.numel, reduction.rnumel, 1};
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
  if (shared < options.scoreFusionMemoryThreshold)
    shared = sharedDataAfterReorderingLoop(g1, g2);
  // InductorChoices.can_fuse.
  if (shared == 0)
    return RefusalReason::NoSharedData;
  if (groups[g1].leaves.size() + groups[g2].leaves.size() >
      options.maxFusionSize)
    return RefusalReason::MaxFusionSize;
  if (canFusionIncreasePeakMemory(groups[g1], groups[g2]))
    return RefusalReason::InductorPeakMemory;

  if (isAncestor(g1, g2)) {
    if (std::optional<RefusalReason> why = whyNotFuseVertical(g1, g2))
      return why;
    return whyNotFuseBackend(groups[g1], groups[g2]);
  }
  if (!options.horizontal)
    return RefusalReason::HorizontalDisabled;
  if (shared < options.scoreFusionMemoryThreshold)
    return RefusalReason::ScoreThreshold;
  if (areLongDistant(groups[g1], groups[g2]))
    return RefusalReason::LongDistance;
  return whyNotFuseBackend(groups[g1], groups[g2]);
}

//===----------------------------------------------------------------------===//
// Fusion rounds
//===----------------------------------------------------------------------===//

void Planner::refuse(unsigned g1, unsigned g2, RefusalReason reason) {
  ++plan.refusalCounts[static_cast<unsigned>(reason)];
  unsigned u1 = groups[g1].units.front(), u2 = groups[g2].units.front();
  if (!reported.insert({u1, u2, static_cast<unsigned>(reason)}).second)
    return;
  auto name = [&](unsigned g) {
    const Group &group = groups[g];
    return group.leaves.empty() ? deps.getNode(group.units.front())
                                      .getNodeName()
                                : group.getName();
  };
  Operation *anchor = deps.getNode(groups[g2].units.front()).getOperation();
  if (!groups[g2].leaves.empty())
    anchor = groups[g2].leaves.front();
  plan.refusals.push_back({name(g1), name(g2), reason, anchor});
  refusalUnits.push_back({u1, u2});
}

/// Merges g2 into g1 (Inductor's FusedSchedulerNode.fuse) and keeps the
/// labels a topological order. Returns the merged group.
unsigned Planner::fuse(unsigned g1, unsigned g2) {
  Group &into = groups[g1];
  Group &from = groups[g2];
  LLVM_DEBUG(llvm::dbgs() << "fusing " << into.getName() << " with "
                          << from.getName() << "\n");
  SmallVector<unsigned, 4> units;
  std::merge(into.units.begin(), into.units.end(), from.units.begin(),
             from.units.end(), std::back_inserter(units),
             [&](unsigned a, unsigned b) { return position[a] < position[b]; });
  into.units = std::move(units);
  into.leaves.clear();
  for (unsigned unit : into.units) {
    SmallVector<SchedulerNodeOpInterface> leaves;
    deps.getNode(unit).getLeafNodes(leaves);
    for (SchedulerNodeOpInterface leaf : leaves)
      into.leaves.push_back(cast<NodeOp>(leaf.getOperation()));
  }
  for (unsigned unit : from.units)
    groupOf[unit] = g1;
  into.kind = GroupKind::Fused;
  into.bufferNames.insert(from.bufferNames.begin(), from.bufferNames.end());
  into.minOrder = std::min(into.minOrder, from.minOrder);
  into.maxOrder = std::max(into.maxOrder, from.maxOrder);
  if (from.isReduction && !into.isReduction) {
    into.numel = from.numel;
    into.rnumel = from.rnumel;
  }
  into.isReduction |= from.isReduction;
  into.label = std::max(into.label, from.label);
  // `from` is dead; its id stays the id of one of its units, so candidate
  // pairs recorded by group id map to groups through groupOf.
  from.alive = false;
  from.units.clear();
  from.leaves.clear();
  from.reads.clear();
  from.writes.clear();
  from.unmet.clear();
  recomputeGroupDeps(into);

  // Successors labeled at or below the merged group move above it.
  SmallVector<unsigned> worklist = {g1};
  while (!worklist.empty()) {
    unsigned g = worklist.pop_back_val();
    int64_t label = groups[g].label;
    forEachSuccessorGroup(g, [&](unsigned succ) {
      if (groups[succ].label <= label) {
        groups[succ].label = label + 1;
        worklist.push_back(succ);
      }
    });
  }
  return g1;
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
  fuse(g1, g2);
  return true;
}

/// Inductor's get_possible_fusions: pairs of fusable groups sharing a
/// buffer, each group with at most `pairwiseAttempts` later ones, that
/// can_fuse allows, by decreasing score_fusion_key.
SmallVector<std::pair<unsigned, unsigned>> Planner::getPossibleFusions() {
  llvm::MapVector<StringAttr, SmallVector<unsigned>> byBuffer;
  for (unsigned g : scheduleOrder()) {
    Group &group = groups[g];
    if (!group.isFusable())
      continue;
    llvm::SetVector<StringAttr> used;
    for (Attribute dep : group.reads)
      used.insert(depName(dep));
    for (Attribute dep : group.writes)
      used.insert(depName(dep));
    for (StringAttr name : used)
      byBuffer[name].push_back(g);
  }
  SmallVector<std::pair<unsigned, unsigned>> possible;
  llvm::DenseSet<std::pair<unsigned, unsigned>> seen;
  for (auto &[name, nodes] : byBuffer) {
    for (unsigned i = 0, e = nodes.size(); i < e; ++i) {
      unsigned end = std::min<unsigned>(e, i + 1 + options.pairwiseAttempts);
      for (unsigned j = i + 1; j < end; ++j) {
        if (!seen.insert({nodes[i], nodes[j]}).second)
          continue;
        ++plan.candidatesScored;
        if (std::optional<RefusalReason> why = whyNotFuse(nodes[i], nodes[j]))
          refuse(nodes[i], nodes[j], *why);
        else
          possible.push_back({nodes[i], nodes[j]});
      }
    }
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

/// One pass over the candidates (Inductor's fuse_nodes_once loop). Pairs are
/// mapped to the groups they belong to now. Returns true if any fused.
bool Planner::fuseOnce(
    ArrayRef<std::pair<unsigned, unsigned>> candidates,
    const llvm::DenseSet<std::pair<unsigned, unsigned>> &blocked,
    SmallVectorImpl<std::pair<unsigned, unsigned>> &merged) {
  bool changed = false;
  // A group's id is the id of one of its units, so groupOf maps the groups
  // of the round's start to the groups they are part of now.
  for (auto [c1, c2] : candidates) {
    unsigned g1 = groupOf[c1], g2 = groupOf[c2];
    if (g1 == g2 || blocked.contains({c1, c2}))
      continue;
    if (tryFuse(g1, g2)) {
      merged.push_back({c1, c2});
      changed = true;
    }
  }
  return changed;
}

/// The order the planned graph runs in: Inductor sorts fused nodes by
/// min_order and then topologically.
SmallVector<unsigned> Planner::scheduleOrder() {
  SmallVector<unsigned> alive;
  for (unsigned g = 0, e = groups.size(); g < e; ++g)
    if (groups[g].alive)
      alive.push_back(g);
  llvm::sort(alive, [&](unsigned a, unsigned b) {
    return groups[a].minOrder < groups[b].minOrder;
  });
  DenseMap<unsigned, unsigned> rank;
  for (auto [r, g] : llvm::enumerate(alive))
    rank[g] = r;
  SmallVector<SmallVector<unsigned, 4>> preds(alive.size()),
      succs(alive.size());
  for (auto [r, g] : llvm::enumerate(alive)) {
    forEachSuccessorGroup(g, [&](unsigned succ) {
      unsigned s = rank[succ];
      if (!llvm::is_contained(succs[r], s)) {
        succs[r].push_back(s);
        preds[s].push_back(r);
      }
    });
  }
  std::optional<SmallVector<unsigned>> order = stableTopologicalOrder(
      alive.size(), [&](unsigned n) { return ArrayRef(preds[n]); },
      [&](unsigned n) { return ArrayRef(succs[n]); });
  assert(order && "fusion must keep the graph acyclic");
  SmallVector<unsigned> result;
  for (unsigned r : *order)
    result.push_back(alive[r]);
  return result;
}

/// Peak live bytes when the current groups run in scheduleOrder(), with the
/// buffers internal to a fused group kept in registers.
int64_t Planner::peakBytes() {
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

FailureOr<FusionPlan> Planner::run() {
  if (failed(initialize()))
    return failure();
  llvm::DenseSet<std::pair<unsigned, unsigned>> blocked;
  auto numGroups = [&] {
    return llvm::count_if(groups, [](const Group &g) { return g.alive; });
  };
  for (unsigned round = 0; round < options.maxRounds; ++round) {
    ++plan.rounds;
    size_t groupsBefore = numGroups();
    reorderedUnits.clear();
    SmallVector<std::pair<unsigned, unsigned>> candidates =
        getPossibleFusions();
    State snapshot{groups, groupOf};
    SmallVector<std::pair<unsigned, unsigned>> merged;
    fuseOnce(candidates, blocked, merged);

    // Keep the peak: cut the round back to a prefix of its fusions that
    // does not raise it, refuse the first fusion left out, and try the
    // round's remaining candidates again.
    while (options.peakMemory == PeakMemoryPolicy::NeverRaise &&
           !merged.empty() && peakBytes() > baselinePeak) {
      auto replay = [&](unsigned count) {
        groups = snapshot.groups;
        groupOf = snapshot.groupOf;
        // Loops reordered since the snapshot changed their units' deps.
        for (unsigned unit : reorderedUnits)
          recomputeGroupDeps(groups[groupOf[unit]]);
        for (unsigned i = 0; i < count; ++i)
          fuse(groupOf[merged[i].first], groupOf[merged[i].second]);
      };
      // The prefix of no fusion is within budget and all of them are not:
      // find k with prefix k within and prefix k + 1 over.
      unsigned lo = 0, hi = merged.size();
      while (hi - lo > 1) {
        unsigned mid = lo + (hi - lo) / 2;
        replay(mid);
        (peakBytes() > baselinePeak ? hi : lo) = mid;
      }
      replay(lo);
      auto [c1, c2] = merged[lo];
      refuse(groupOf[c1], groupOf[c2], RefusalReason::PeakMemory);
      blocked.insert({c1, c2});
      merged.resize(lo);
      fuseOnce(candidates, blocked, merged);
    }
    size_t groupsAfter = numGroups();
    if (groupsAfter == groupsBefore || groupsAfter == 1)
      break;
  }

  for (unsigned g : scheduleOrder())
    plan.groups.push_back(groups[g].units);
  plan.fusions = deps.getNumNodes() - plan.groups.size();
  plan.peakBytesAfter = peakBytes();
  // A pair refused in one round and fused in a later one was not refused in
  // the end.
  SmallVector<Refusal> finalRefusals;
  for (auto [refusal, units] : llvm::zip(plan.refusals, refusalUnits))
    if (groupOf[units.first] != groupOf[units.second])
      finalRefusals.push_back(refusal);
  plan.refusals = std::move(finalRefusals);
  return std::move(plan);
}

FailureOr<FusionPlan> mlir::fusion::planFusion(GraphOp graph,
                                               const DependenceGraph &deps,
                                               const FusionOptions &options) {
  return Planner(graph, deps, options).run();
}
