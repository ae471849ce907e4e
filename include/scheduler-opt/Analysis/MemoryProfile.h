//===- MemoryProfile.h - Live buffer bytes over a schedule ------*- C++ -*-===//
//
// The memory a fusion.graph needs when its scheduler nodes run in their
// current order: every buffer a node allocates lives from that node to the
// last node reading it (to the end for graph outputs), in-place versions
// share the storage they overwrite, views (fusion.nop) and graph inputs
// allocate nothing, and a buffer produced and consumed inside one fused
// kernel never reaches memory. Peak memory is the largest sum of live bytes
// at any step: the quantity Inductor's fusion heuristics can raise
// (pytorch#138685) and scheduler-opt's fusion refuses to.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_ANALYSIS_MEMORYPROFILE_H
#define SCHEDULER_OPT_ANALYSIS_MEMORYPROFILE_H

#include "scheduler-opt/Analysis/DependenceGraph.h"

namespace mlir {
namespace fusion {

class SizeVars;

/// One allocation: the storage of a buffer and of every in-place version
/// of it, live at the steps [begin, end) of the schedule.
struct BufferLifetime {
  /// The buffer that allocates the storage (not an in-place version).
  Value buffer;
  unsigned begin;
  unsigned end;
  int64_t bytes;
};

/// Returns true when `buffer`, a result of a member of the top-level node
/// `node`, is read only inside that node: a fused kernel keeps it in
/// registers, and so does a foreach kernel (in the fused part that makes
/// it: its parts do not read each other's results).
bool isKernelInternal(const DependenceGraph &deps, Value buffer,
                      unsigned node);

/// One storage allocation in terms of the graph's top-level nodes: the node
/// producing it and every node reading any version of it (through views
/// too), as the memory model needs them to place it in any schedule.
struct StorageUse {
  Value buffer;
  unsigned producer;
  /// Readers and later in-place writers, without the producer; sorted.
  SmallVector<unsigned, 2> readers;
  /// Used by the graph's consumer: lives to the end of the schedule.
  bool isOutput;
  int64_t bytes;
};

/// Collects the storage allocations of the graph (see MemoryProfile). Sizes
/// in size symbols are taken at their hints (through `sizeVars` when given,
/// which records a missing hint).
SmallVector<StorageUse> collectStorageUses(const DependenceGraph &deps,
                                           SizeVars *sizeVars = nullptr);

/// The live bytes at each of `numSteps` steps when top-level node `n` runs
/// at step `stepOf(n)`, leaving out the storages `isElided` says a fused
/// kernel keeps in registers.
SmallVector<int64_t>
computeLiveBytes(ArrayRef<StorageUse> storages, unsigned numSteps,
                 function_ref<unsigned(unsigned)> stepOf,
                 function_ref<bool(const StorageUse &)> isElided);

class MemoryProfile {
public:
  MemoryProfile(Operation *graph, AnalysisManager &am);
  explicit MemoryProfile(const DependenceGraph &deps);

  ArrayRef<BufferLifetime> getLifetimes() const { return lifetimes; }
  /// Live bytes at each step (top-level node position) of the schedule.
  ArrayRef<int64_t> getLiveBytes() const { return liveBytes; }
  int64_t getPeakBytes() const { return peakBytes; }
  /// The first step where the peak is reached (0 for an empty graph).
  unsigned getPeakStep() const { return peakStep; }

  bool isInvalidated(const AnalysisManager::PreservedAnalyses &pa) {
    return !pa.isPreserved<MemoryProfile>() ||
           !pa.isPreserved<DependenceGraph>();
  }

private:
  void compute(const DependenceGraph &deps);

  SmallVector<BufferLifetime> lifetimes;
  SmallVector<int64_t> liveBytes;
  int64_t peakBytes = 0;
  unsigned peakStep = 0;
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_ANALYSIS_MEMORYPROFILE_H
