//===- MemoryProfile.cpp - Live buffer bytes over a schedule --------------===//

#include "fusion/Analysis/MemoryProfile.h"

using namespace mlir;
using namespace mlir::fusion;

bool mlir::fusion::isKernelInternal(const DependenceGraph &deps, Value buffer,
                                    unsigned node) {
  if (!isa<FusedOp>(deps.getNode(node).getOperation()))
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

void MemoryProfile::compute(const DependenceGraph &deps) {
  unsigned numSteps = deps.getNumNodes();
  for (unsigned n = 0; n < numSteps; ++n) {
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
        // The storage lives until the last reader of any of its versions.
        unsigned end = n + 1;
        for (Value version = result; version;
             version = deps.getMutation(version)) {
          if (std::optional<unsigned> writer = deps.getProducer(version))
            end = std::max(end, *writer + 1);
          for (const NodeUser &user : deps.getUsers(version)) {
            if (user.isWeak)
              continue;
            end = user.isOutput() ? numSteps : std::max(end, user.node + 1);
          }
        }
        lifetimes.push_back({result, n, end, type.getSizeInBytes()});
      }
    }
  }
  // Sweep the allocation boundaries.
  SmallVector<int64_t> delta(numSteps + 1, 0);
  for (const BufferLifetime &life : lifetimes) {
    delta[life.begin] += life.bytes;
    delta[life.end] -= life.bytes;
  }
  liveBytes.resize(numSteps);
  int64_t live = 0;
  for (unsigned step = 0; step < numSteps; ++step) {
    live += delta[step];
    liveBytes[step] = live;
    if (live > peakBytes) {
      peakBytes = live;
      peakStep = step;
    }
  }
}
