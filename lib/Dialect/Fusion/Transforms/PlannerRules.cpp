//===- PlannerRules.cpp - Inductor's can_fuse rules -----------------------===//
//
// The planner's fusion rules: Inductor's Scheduler.can_fuse and
// can_fuse_vertical (scheduler.py), with the dependence arithmetic of
// dependencies.py they rest on (normalize, normalize_with_stride_order,
// mutation renames), and the table of refusal reasons every rule answers
// with. The backend's rules (iteration spaces, tiling) are in
// PlannerTiling.cpp, foreach kernels' in ForeachFusion.cpp.
//
//===----------------------------------------------------------------------===//

#include "FusionPlannerImpl.h"

#include "scheduler-opt/Analysis/SizeVars.h"
#include "scheduler-opt/Dialect/Fusion/IR/AffineSum.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

#include "llvm/Support/MathExtras.h"

#include <numeric>

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
     "fusion would raise peak memory above what the policy allows"},
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

/// Adds `expr * scale` to `result` (`scale` in the size symbols); false
/// unless every dim appears only linearly, with a scale in the size symbols
/// (`d0 * s0`).
static bool addLinear(AffineExpr expr, AffineExpr scale, unsigned numDims,
                      unsigned numSizeSymbols, LinearIndex &result) {
  // A scale may use size symbols, not indirect indices.
  auto isScale = [&](AffineExpr e) {
    return e.isSymbolicOrConstant() && getNumSymbolsUsed(e) <= numSizeSymbols;
  };
  auto hasDims = [&](AffineExpr e) {
    return llvm::any_of(llvm::seq(0u, numDims),
                        [&](unsigned d) { return e.isFunctionOfDim(d); });
  };
  SmallVector<SumTerm> terms;
  (void)flattenSum(expr, terms);
  for (auto [coefficient, factor] : terms) {
    AffineExpr termScale = scale * coefficient;
    if (!factor || !hasDims(factor)) {
      result.rest = result.rest + (factor ? factor * termScale : termScale);
      continue;
    }
    if (auto dim = dyn_cast<AffineDimExpr>(factor)) {
      AffineExpr &stride = result.strides[dim.getPosition()];
      stride = SizeVars::simplify(stride + termScale);
      continue;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(factor);
    if (!bin || bin.getKind() != AffineExprKind::Mul)
      return false;
    if (isScale(bin.getRHS())) {
      if (!addLinear(bin.getLHS(), termScale * bin.getRHS(), numDims,
                     numSizeSymbols, result))
        return false;
    } else if (!isScale(bin.getLHS()) ||
               !addLinear(bin.getRHS(), termScale * bin.getLHS(), numDims,
                          numSizeSymbols, result)) {
      return false;
    }
  }
  return true;
}

/// Adds `expr * scale` to the integer strides and constant of an index
/// made of dims, constants, sums and products by constants only (most
/// indices); false for anything else, or for a value of 2^40 or more, far
/// from where any order of summing could overflow.
static bool addConstantLinear(AffineExpr expr, int64_t scale,
                              MutableArrayRef<int64_t> strides,
                              int64_t &constant) {
  constexpr int64_t kLimit = int64_t(1) << 40;
  auto add = [&](int64_t &to, int64_t value) {
    to += value;
    return to > -kLimit && to < kLimit;
  };
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < strides.size() &&
           add(strides[dim.getPosition()], scale);
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    int64_t value;
    return !llvm::MulOverflow(scale, c.getValue(), value) &&
           add(constant, value);
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return false;
  if (bin.getKind() == AffineExprKind::Add)
    return addConstantLinear(bin.getLHS(), scale, strides, constant) &&
           addConstantLinear(bin.getRHS(), scale, strides, constant);
  if (bin.getKind() != AffineExprKind::Mul)
    return false;
  AffineExpr other = bin.getLHS();
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!c) {
    c = dyn_cast<AffineConstantExpr>(bin.getLHS());
    other = bin.getRHS();
  }
  int64_t product;
  if (!c || llvm::MulOverflow(scale, c.getValue(), product) ||
      product <= -kLimit || product >= kLimit)
    return false;
  return addConstantLinear(other, product, strides, constant);
}

/// Decomposes `expr` over `numDims` dims into strides and a dim-free rest;
/// nullopt unless every dim appears only linearly.
static std::optional<LinearIndex> decomposeLinear(AffineExpr expr,
                                                  unsigned numDims,
                                                  unsigned numSizeSymbols) {
  MLIRContext *ctx = expr.getContext();
  // Constant strides and rest, as addLinear would find them, in integers
  // instead of expressions uniqued at every step.
  SmallVector<int64_t, 6> strides(numDims, 0);
  int64_t constant = 0;
  if (addConstantLinear(expr, 1, strides, constant)) {
    LinearIndex result;
    for (int64_t stride : strides)
      result.strides.push_back(getCachedConstantExpr(stride, ctx));
    result.rest = getCachedConstantExpr(constant, ctx);
    return result;
  }
  AffineExpr zero = getCachedConstantExpr(0, ctx);
  LinearIndex result{SmallVector<AffineExpr>(numDims, zero), zero};
  if (!addLinear(expr, getCachedConstantExpr(1, ctx), numDims, numSizeSymbols,
                 result))
    return std::nullopt;
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
// Rules
//===----------------------------------------------------------------------===//

/// Inductor's mutation_renames: the newest version of a buffer.
StringAttr Planner::renamed(StringAttr name) {
  if (!mutationNames.contains(name))
    return name;
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
  if (!mutationNames.contains(name))
    return name;
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

/// normalizeDep, memoized by index and sizes (normalizeDep reads nothing
/// else of the dependence but its name, which it copies).
std::optional<NormalizedDep> Planner::normalized(MemoryDepAttr dep,
                                                 bool byStride) {
  auto [it, inserted] = normalizedCache.try_emplace(
      {dep.getIndex(), dep.getSizes(), byStride ? 1 : 0});
  if (inserted)
    it->second = normalizeDep(dep, byStride, sizeVars);
  std::optional<NormalizedDep> result = it->second;
  if (result)
    result->name = dep.getName();
  return result;
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

/// The buffer whose storage `name` uses, as the lowering assigns storages
/// (GraphPlan's StorageAssigner): through versions updated in place
/// (realName), views (a nop's result uses its first input's storage) and
/// container results (the member result they yield). Null for an unknown
/// name.
Value Planner::storageOf(StringAttr name) {
  auto [it, inserted] = storageCache.try_emplace(name);
  if (!inserted)
    return it->second;
  Value buffer = deps.lookupBuffer(name);
  while (auto result = dyn_cast_or_null<OpResult>(buffer)) {
    Operation *op = result.getOwner();
    if (Value member = getMemberResult(result); member != buffer) {
      buffer = member;
      continue;
    }
    if (auto nop = dyn_cast<NopOp>(op)) {
      if (nop.getInputs().empty())
        break;
      buffer = nop.getInputs()[0];
      continue;
    }
    auto node = dyn_cast<SchedulerNodeOpInterface>(op);
    Value old = node ? node.getMutatedBuffer(result.getResultNumber()) : Value();
    if (!old)
      break;
    buffer = old;
  }
  return it->second = buffer;
}

/// Finds the writes of `unit` that update a storage in place, with that
/// storage (inPlaceWritesOf).
void Planner::findInPlaceWrites(unsigned unit, UnitStorages &entry) {
  for (Attribute dep : unitDeps[unit].writes) {
    auto write = dyn_cast<MemoryDepAttr>(dep);
    if (!write || realName(write.getName()) == write.getName())
      continue; // not an in-place update
    if (Value storage = storageOf(write.getName()))
      entry.inPlaceWrites.push_back({storage, write});
  }
  entry.knowsWrites = true;
}

/// Finds the reads of `unit` other than WeakDeps whose buffer has a
/// storage (storageReadsOf).
void Planner::findStorageReads(unsigned unit, UnitStorages &entry) {
  for (Attribute dep : unitDeps[unit].reads) {
    if (isa<WeakDepAttr>(dep))
      continue;
    StringAttr name = getDepName(dep);
    if (Value storage = storageOf(name)) {
      entry.reads.push_back({name, storage, dep});
      entry.readMask |= storageBit(storage);
    }
  }
  entry.knowsReads = true;
}

/// True when a member of `writer` overwrites a storage in place that a
/// member of `reader` reads at another index (or whole, or indirectly), so
/// that in one kernel some threads would read what others already
/// overwrote. Every version of the storage counts, and every view of it
/// (indices are flat offsets into the storage, so they compare across
/// views); reads of buffers that `writer` itself produces are real
/// dependences, left to can_fuse_vertical.
/// A foreach kernel of in-place updates overwrites a storage per part:
/// most reads of the other group then match none of them. Up to this many
/// storages are compared one by one, without hashing every read's.
static constexpr size_t kFewStorages = 8;

/// The storages `group` overwrites in place, with the writes that do:
/// usually none, and a few in a foreach kernel of in-place updates, which
/// is asked again for every candidate pair while it keeps its version.
const GroupInPlaceWrites &Planner::inPlaceWritesOf(const Group &group) {
  if (groupInPlaceWrites.size() < groups.size())
    groupInPlaceWrites.resize(groups.size());
  GroupInPlaceWrites &entry = groupInPlaceWrites[&group - groups.data()];
  if (entry.version == group.version)
    return entry;
  entry.writes.clear();
  entry.storages.clear();
  entry.mask = 0;
  for (unsigned w : group.units)
    for (const auto &write : inPlaceWritesOf(w)) {
      entry.writes.push_back(write);
      entry.mask |= storageBit(write.first);
    }
  if (entry.writes.size() > kFewStorages)
    for (auto [storage, write] : entry.writes)
      entry.storages.insert(storage);
  entry.version = group.version;
  return entry;
}

bool Planner::racesInPlace(const Group &reader, const Group &writer) {
  // Both groups' writes and reads come with their storages from the
  // units' UnitStorages, found once per unit; a writer of one unit (most
  // of them) takes its unit's writes as they are.
  ArrayRef<std::pair<Value, MemoryDepAttr>> inPlace;
  const GroupInPlaceWrites *written = nullptr;
  if (writer.units.size() == 1)
    inPlace = inPlaceWritesOf(writer.units.front());
  if (writer.units.size() != 1 || inPlace.size() > kFewStorages) {
    written = &inPlaceWritesOf(writer);
    inPlace = written->writes;
  }
  if (inPlace.empty())
    return false;
  uint64_t overwrittenMask = 0;
  if (written)
    overwrittenMask = written->mask;
  else
    for (auto [storage, write] : inPlace)
      overwrittenMask |= storageBit(storage);
  auto isOverwritten = [&](Value storage) {
    if (inPlace.size() > kFewStorages)
      return written->storages.contains(storage);
    return llvm::any_of(
        inPlace, [&](const auto &entry) { return entry.first == storage; });
  };
  for (unsigned r : reader.units) {
    const UnitStorages &readerStorages = storageReadsOf(r);
    if (!(readerStorages.readMask & overwrittenMask))
      continue;
    for (const UnitStorages::Read &entry : readerStorages.reads) {
      if (!isOverwritten(entry.storage) ||
          writer.bufferNames.contains(entry.name))
        continue;
      Value storage = entry.storage;
      Attribute readDep = entry.dep;
      auto read = dyn_cast<MemoryDepAttr>(readDep);
      for (auto [overwritten, write] : inPlace) {
        if (overwritten != storage)
          continue;
        // A mutation's own ordering StarDep on the version it updates.
        if (!read && isa<StarDepAttr>(readDep) &&
            llvm::any_of(unitDeps[r].writes, [&](Attribute own) {
              return getDepName(own) != realName(getDepName(own)) &&
                     storageOf(getDepName(own)) == storage;
            }))
          continue;
        if (!read || isIndirect(read) || isIndirect(write) ||
            read.getIndex() != write.getIndex() ||
            read.getSizes() != write.getSizes())
          return true;
      }
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
  // node2's unmet dependences by their renamed buffer (a group has a few:
  // a flat list, scanned).
  struct Remaining {
    StringAttr key;
    Attribute dep;
  };
  SmallVector<Remaining, 16> remaining;
  for (Attribute dep : node2.unmet) {
    if (auto weak = dyn_cast<WeakDepAttr>(dep))
      if (fusableWeakDep(weak, node1, node2))
        continue;
    remaining.push_back({renamed(getDepName(dep)), dep});
  }
  // A write matches the reads whose key is its renamed name. A name
  // renamed changes is a mutation's, and so is what it gives (the version
  // that overwrote it): without such keys, only a write's own name can
  // match, looked up without renaming every write (a foreach group's many).
  bool keysOfMutations = llvm::any_of(remaining, [&](const Remaining &read) {
    return mutationNames.contains(read.key);
  });
  for (Attribute write : node1.writes) {
    auto memory = dyn_cast<MemoryDepAttr>(write);
    if (!memory || remaining.empty())
      continue;
    StringAttr key =
        keysOfMutations ? renamed(memory.getName()) : memory.getName();
    llvm::erase_if(remaining, [&](const Remaining &read) {
      return read.key == key && fusableReadAndWrite(read.dep, memory);
    });
  }
  // The buffers still unmatched, each once (what follows does not depend
  // on their order).
  SmallVector<StringAttr, 16> remainingNames;
  for (const Remaining &entry : remaining)
    if (!llvm::is_contained(remainingNames, getDepName(entry.dep)))
      remainingNames.push_back(getDepName(entry.dep));
  for (StringAttr name : remainingNames)
    if (node1.bufferNames.contains(name))
      return RefusalReason::MemoryDepsMismatch;
  // Beyond Inductor: neither a WeakDep prune_redundant_deps dropped nor a
  // chain of mutations (fusable_weak_dep looks for reads of the first
  // version's name only) may hide a race.
  if (racesInPlace(node1, node2) || racesInPlace(node2, node1))
    return RefusalReason::InPlaceRace;
  // Each producer's group once: a foreach group's buffers often come from
  // the parts of another foreach group, all in that one group. (One stamp a
  // group: the units of a group change groups together.)
  SmallVector<unsigned, 8> checked;
  for (StringAttr name : remainingNames) {
    std::optional<unsigned> producer = producerUnit(name);
    if (!producer || inGroup(*producer, g1))
      continue;
    unsigned group = groupOf[*producer];
    if (llvm::is_contained(checked, group))
      continue;
    checked.push_back(group);
    // The answer now depends on the producer's group too.
    consultedProducers.push_back({*producer, group, groups[group].version});
    if (isAncestor(g1, group))
      return RefusalReason::IntermediateNodes;
  }
  return std::nullopt;
}

/// Whether can_fuse's answers for group g are kept: a plain or foreach
/// group in the schedule. A foreach group's answer also rests on its parts'
/// answers (computed each time, their producers and threshold counted in
/// the foreach group's) and on which units are in either group; any change
/// to a part, or to the units a group holds, changes the foreach group's
/// version.
bool Planner::isVerdictKept(unsigned g) const {
  const Group &group = groups[g];
  return (group.kind == GroupKind::Node || group.kind == GroupKind::Fused ||
          group.kind == GroupKind::Foreach) &&
         group.parent == kNoGroup;
}

/// Whether a kept answer still holds: neither group changed, nor the group
/// of any producer it looked at, and a reorder round would not have asked
/// shared_data_after_reordering_loop where the answer's round did not (or
/// the other way round).
bool Planner::isVerdictValid(const FuseVerdict &verdict, unsigned g1,
                             unsigned g2) const {
  if (verdict.version1 != groups[g1].version ||
      verdict.version2 != groups[g2].version)
    return false;
  if (verdict.underThreshold && verdict.inReorderRound != reorderRound)
    return false;
  for (const ProducerStamp &stamp :
       ArrayRef(verdictProducers)
           .slice(verdict.producersBegin,
                  verdict.producersEnd - verdict.producersBegin))
    if (groupOf[stamp.unit] != stamp.group ||
        groups[stamp.group].version != stamp.version)
      return false;
  return true;
}

/// Inductor's Scheduler.can_fuse, answered once for as long as the answer
/// holds (computeWhyNotFuse is the rule itself).
std::optional<RefusalReason> Planner::whyNotFuse(unsigned g1, unsigned g2) {
  if (!isVerdictKept(g1) || !isVerdictKept(g2))
    return computeWhyNotFuse(g1, g2);
  FuseVerdict *known = verdicts.find(g1, g2);
  if (known && isVerdictValid(*known, g1, g2)) {
    if (known->why == kNoRefusal)
      return std::nullopt;
    return static_cast<RefusalReason>(known->why);
  }
  consultedProducers.clear();
  consultedUnderThreshold = false;
  std::optional<RefusalReason> why = computeWhyNotFuse(g1, g2);
  // A reorder round may have reordered the loops of either group: the
  // versions after the answer are those it holds for.
  FuseVerdict verdict{groups[g1].version,
                      groups[g2].version,
                      why ? static_cast<uint8_t>(*why) : kNoRefusal,
                      consultedUnderThreshold,
                      reorderRound,
                      static_cast<unsigned>(verdictProducers.size()),
                      0};
  llvm::append_range(verdictProducers, consultedProducers);
  verdict.producersEnd = verdictProducers.size();
  verdicts.insertOrAssign(g1, g2, verdict);
  return why;
}

/// Inductor's Scheduler.can_fuse (with InductorChoices.can_fuse,
/// can_fuse_vertical and can_fuse_horizontal). Returns why not, if not.
std::optional<RefusalReason> Planner::computeWhyNotFuse(unsigned g1,
                                                        unsigned g2) {
  const Group &node1 = groups[g1];
  const Group &node2 = groups[g2];
  if (node1.kind == GroupKind::Grouped || node2.kind == GroupKind::Grouped)
    return RefusalReason::Grouped;
  if (!node1.isFusable() || !node2.isFusable())
    return RefusalReason::ExternOrNop;
  if (isAncestor(g2, g1))
    return RefusalReason::Order;

  int64_t shared = scoreFusionMemory(groups[g1], groups[g2]);
  lastScore = {groups[g1].version, groups[g2].version, shared};
  // Or-ed: a foreach group's answer asks for its parts'.
  consultedUnderThreshold |= shared < options.scoreFusionMemoryThreshold;
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
