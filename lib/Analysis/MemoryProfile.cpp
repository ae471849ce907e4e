//===- MemoryProfile.cpp - Live buffer bytes over a schedule --------------===//

#include "scheduler-opt/Analysis/MemoryProfile.h"
#include "scheduler-opt/Analysis/SizeVars.h"
#include "scheduler-opt/Dialect/Fusion/IR/ElementTypes.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"

using namespace mlir;
using namespace mlir::fusion;

bool mlir::fusion::isKernelInternal(const DependenceGraph &deps, Value buffer,
                                    unsigned node) {
  if (!isa<FusedOp, ForeachOp>(deps.getNode(node).getOperation()))
    return false;
  if (deps.getMutation(buffer))
    return false;
  for (const NodeUser &user : deps.getUsers(buffer))
    if (!user.isWeak && (user.isOutput() || user.node != node))
      return false;
  return true;
}

MemoryProfile::MemoryProfile(Operation *graph, AnalysisManager &am) {
  compute(am.getAnalysis<DependenceGraph>());
}

MemoryProfile::MemoryProfile(const DependenceGraph &deps) { compute(deps); }

SmallVector<StorageUse>
mlir::fusion::collectStorageUses(const DependenceGraph &deps,
                                 SizeVars *sizeVars) {
  SmallVector<StorageUse> storages;
  SizeVars ownSizeVars;
  if (!sizeVars) {
    if (deps.getNumNodes() != 0)
      if (auto graph = deps.getNode(0)->getParentOfType<GraphOp>())
        ownSizeVars = SizeVars(graph);
    sizeVars = &ownSizeVars;
  }
  for (unsigned n = 0, e = deps.getNumNodes(); n < e; ++n) {
    SmallVector<SchedulerNodeOpInterface, 1> leaves;
    deps.getNode(n).getLeafNodes(leaves);
    for (SchedulerNodeOpInterface leaf : leaves) {
      // Views alias their inputs; in-place results reuse the storage of the
      // buffer they overwrite, accounted with that buffer.
      if (isa<NopOp>(leaf.getOperation()))
        continue;
      for (OpResult result : leaf->getResults()) {
        auto type = dyn_cast<BufferType>(result.getType());
        if (!type || leaf.getMutatedBuffer(result.getResultNumber()))
          continue;
        if (isKernelInternal(deps, result, n))
          continue;
        int64_t itemSize = getElementByteSize(type.getElementType());
        // The verifier bounds the bytes of all buffers together at the
        // hints (verifySizesAtHints), so that the sums below fit.
        int64_t bytes =
            saturatingMul(sizeVars->sizeHint(type.getStorageSizeExpr()),
                          itemSize);
        if (std::optional<int64_t> elements = type.getNumElements();
            elements && *elements == 0)
          bytes = 0;
        StorageUse use{result, n, {}, false, bytes};
        for (Value version = result; version;
             version = deps.getMutation(version)) {
          if (std::optional<unsigned> writer = deps.getProducer(version))
            if (*writer != n)
              use.readers.push_back(*writer);
          for (const NodeUser &user : deps.getUsers(version)) {
            if (user.isWeak)
              continue;
            if (user.isOutput())
              use.isOutput = true;
            else if (user.node != n)
              use.readers.push_back(user.node);
          }
        }
        llvm::sort(use.readers);
        use.readers.erase(std::unique(use.readers.begin(), use.readers.end()),
                          use.readers.end());
        storages.push_back(std::move(use));
      }
    }
  }
  return storages;
}

SmallVector<int64_t>
mlir::fusion::computeLiveBytes(ArrayRef<StorageUse> storages,
                               unsigned numSteps,
                               function_ref<unsigned(unsigned)> stepOf,
                               function_ref<bool(const StorageUse &)> isElided) {
  SmallVector<int64_t> delta(numSteps + 1, 0);
  for (const StorageUse &use : storages) {
    if (isElided(use))
      continue;
    unsigned begin = stepOf(use.producer);
    unsigned end = begin + 1;
    if (use.isOutput)
      end = numSteps;
    for (unsigned reader : use.readers)
      end = std::max(end, stepOf(reader) + 1);
    delta[begin] += use.bytes;
    delta[end] -= use.bytes;
  }
  SmallVector<int64_t> live(numSteps);
  int64_t bytes = 0;
  for (unsigned step = 0; step < numSteps; ++step)
    live[step] = bytes += delta[step];
  return live;
}

void MemoryProfile::compute(const DependenceGraph &deps) {
  unsigned numSteps = deps.getNumNodes();
  SmallVector<StorageUse> storages = collectStorageUses(deps);
  for (const StorageUse &use : storages) {
    unsigned end = use.isOutput ? numSteps : use.producer + 1;
    for (unsigned reader : use.readers)
      end = std::max(end, reader + 1);
    lifetimes.push_back({use.buffer, use.producer, end, use.bytes});
  }
  liveBytes = computeLiveBytes(
      storages, numSteps, [](unsigned n) { return n; },
      [](const StorageUse &) { return false; });
  for (auto [step, bytes] : llvm::enumerate(liveBytes))
    if (bytes > peakBytes) {
      peakBytes = bytes;
      peakStep = step;
    }
}
