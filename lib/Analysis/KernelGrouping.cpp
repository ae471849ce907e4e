//===- KernelGrouping.cpp - Kernels of a schedule and their traffic -------===//

#include "scheduler-opt/Analysis/KernelGrouping.h"

#include "scheduler-opt/Analysis/DependenceGraph.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::fusion;

int64_t ScheduledUnit::getBytesRead() const {
  int64_t total = 0;
  for (const BufferTraffic &read : reads)
    total += read.bytes;
  return total;
}

int64_t ScheduledUnit::getBytesWritten() const {
  int64_t total = 0;
  for (const BufferTraffic &write : writes)
    total += write.bytes;
  return total;
}

int64_t KernelGrouping::getKernelBytes() const {
  int64_t total = 0;
  for (const ScheduledUnit &kernel : kernels)
    total += kernel.getBytesMoved();
  return total;
}

int64_t KernelGrouping::getExternBytes() const {
  int64_t total = 0;
  for (const ScheduledUnit &call : externs)
    total += call.getBytesMoved();
  return total;
}

namespace {
/// What the grouping needs to know about every buffer of the graph.
struct BufferFacts {
  /// Buffer name -> indices of the top-level nodes that read it, ascending.
  DenseMap<StringAttr, SmallVector<unsigned, 2>> readers;
  /// Buffer name -> the leaf result that produces it.
  DenseMap<StringAttr, OpResult> producers;
  llvm::DenseSet<StringAttr> graphInputs;
  llvm::DenseSet<StringAttr> graphOutputs;
};
} // namespace

/// Returns the storage bytes of a buffer value, with size symbols at the
/// graph's hints, or nullopt for values without storage
/// (`!fusion.multi_output`) or sizes without a hint.
static std::optional<int64_t> getStorageBytes(Value buffer) {
  auto type = dyn_cast<BufferType>(buffer.getType());
  if (!type)
    return std::nullopt;
  if (type.hasStaticLayout())
    return type.getSizeInBytes();
  Operation *scope = buffer.getParentRegion()->getParentOp();
  auto graph = dyn_cast<GraphOp>(scope);
  if (!graph)
    graph = scope->getParentOfType<GraphOp>();
  return graph ? type.getSizeInBytes(graph.getSizeHints()) : std::nullopt;
}

/// Returns true when the leaf result `result` overwrites, in place, storage
/// that belongs to a graph input: directly, through earlier in-place
/// versions, or through views of the input.
static bool overwritesGraphInput(OpResult result, const BufferFacts &facts) {
  auto leaf = cast<SchedulerNodeOpInterface>(result.getOwner());
  Value first = leaf.getMutatedBuffer(result.getResultNumber());
  if (!first)
    return false;
  SmallVector<Value> worklist{first};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value buffer = worklist.pop_back_val();
    if (!seen.insert(buffer).second)
      continue;
    StringAttr name = getBufferName(buffer);
    if (!name)
      continue;
    if (facts.graphInputs.contains(name))
      return true;
    OpResult producer = facts.producers.lookup(name);
    if (!producer)
      continue;
    auto owner = cast<SchedulerNodeOpInterface>(producer.getOwner());
    if (isa<NopOp>(owner.getOperation()))
      llvm::append_range(worklist, owner->getOperands());
    else if (Value older = owner.getMutatedBuffer(producer.getResultNumber()))
      worklist.push_back(older);
  }
  return false;
}

/// Returns true when a top-level node other than `unit` reads `name`.
static bool isReadOutside(StringAttr name, unsigned unit,
                          const BufferFacts &facts) {
  auto it = facts.readers.find(name);
  if (it == facts.readers.end())
    return false;
  return llvm::any_of(it->second,
                      [&](unsigned reader) { return reader != unit; });
}

/// Returns the leaf names of `node`, in execution order.
static SmallVector<StringAttr> getLeafNames(SchedulerNodeOpInterface node) {
  SmallVector<SchedulerNodeOpInterface, 1> leaves;
  node.getLeafNodes(leaves);
  MLIRContext *ctx = node->getContext();
  return llvm::to_vector(
      llvm::map_range(leaves, [&](SchedulerNodeOpInterface leaf) {
        return StringAttr::get(ctx, leaf.getNodeName());
      }));
}

KernelGrouping mlir::fusion::computeKernelGrouping(GraphOp graph) {
  KernelGrouping grouping;
  SmallVector<SchedulerNodeOpInterface> units;
  for (Operation &op : graph.getBodyBlock().without_terminator())
    if (auto node = dyn_cast<SchedulerNodeOpInterface>(op))
      units.push_back(node);
  grouping.numTopLevelNodes = units.size();

  // One walk over the leaves: who reads what, who produces what.
  BufferFacts facts;
  for (unsigned i = 0, e = graph.getInputNames().size(); i < e; ++i)
    facts.graphInputs.insert(graph.getInputName(i));
  for (Value output : graph.getOutputOp().getBuffers())
    if (StringAttr name = getBufferName(output))
      facts.graphOutputs.insert(name);

  SmallVector<SmallVector<SchedulerNodeOpInterface, 1>> leavesOf(units.size());
  SmallVector<SmallVector<SmallVector<Value, 4>, 1>> readsOf(units.size());
  auto addReader = [&](Value buffer, unsigned unit) {
    StringAttr name = getBufferName(buffer);
    if (!name)
      return;
    SmallVector<unsigned, 2> &list = facts.readers[name];
    if (list.empty() || list.back() != unit)
      list.push_back(unit);
  };
  for (auto [index, unit] : llvm::enumerate(units)) {
    unit.getLeafNodes(leavesOf[index]);
    for (SchedulerNodeOpInterface leaf : leavesOf[index]) {
      readsOf[index].push_back(computeReadWrites(leaf).readBuffers);
      for (Value buffer : readsOf[index].back())
        addReader(buffer, index);
      for (OpResult result : leaf->getResults()) {
        // The version an in-place update overwrites must be in memory.
        if (Value old = leaf.getMutatedBuffer(result.getResultNumber()))
          addReader(old, index);
        if (StringAttr name = leaf.getBufferName(result.getResultNumber()))
          facts.producers.try_emplace(name, result);
      }
    }
  }

  for (auto [index, unit] : llvm::enumerate(units)) {
    ArrayRef<SchedulerNodeOpInterface> leaves = leavesOf[index];
    bool computes = llvm::any_of(leaves, [](SchedulerNodeOpInterface leaf) {
      return isa<NodeOp>(leaf.getOperation());
    });
    bool calls = llvm::any_of(leaves, [](SchedulerNodeOpInterface leaf) {
      return isa<ExternOp>(leaf.getOperation());
    });
    if (!computes && !calls) {
      ++grouping.numNops;
      continue;
    }

    ScheduledUnit described;
    described.name = unit.getNodeName();
    described.kind = unit.getInductorClassName();
    described.members = getLeafNames(unit);
    if (isa<ForeachOp, GroupOp>(unit.getOperation()))
      for (Operation &member :
           unit->getRegion(0).front().without_terminator())
        if (auto node = dyn_cast<SchedulerNodeOpInterface>(member))
          described.parts.push_back(getLeafNames(node));

    llvm::DenseSet<StringAttr> produced;
    for (SchedulerNodeOpInterface leaf : leaves)
      for (unsigned r = 0, e = leaf->getNumResults(); r < e; ++r)
        if (StringAttr name = leaf.getBufferName(r))
          produced.insert(name);

    llvm::DenseSet<StringAttr> counted;
    for (ArrayRef<Value> reads : readsOf[index]) {
      for (Value buffer : reads) {
        StringAttr name = getBufferName(buffer);
        std::optional<int64_t> bytes = getStorageBytes(buffer);
        if (!name || !bytes || produced.contains(name) ||
            !counted.insert(name).second)
          continue;
        described.reads.push_back({name, *bytes});
      }
    }
    for (SchedulerNodeOpInterface leaf : leaves) {
      for (OpResult result : leaf->getResults()) {
        StringAttr name = leaf.getBufferName(result.getResultNumber());
        std::optional<int64_t> bytes = getStorageBytes(result);
        if (!name || !bytes)
          continue;
        if (isReadOutside(name, index, facts) ||
            facts.graphOutputs.contains(name) ||
            overwritesGraphInput(result, facts))
          described.writes.push_back({name, *bytes});
      }
    }
    (computes ? grouping.kernels : grouping.externs)
        .push_back(std::move(described));
  }
  return grouping;
}
