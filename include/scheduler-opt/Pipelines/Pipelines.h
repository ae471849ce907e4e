//===- Pipelines.h - Registered pass pipelines of scheduler-opt -*- C++ -*-===//
//
// `--fusion-schedule`: the passes of Inductor's `Scheduler._init`, in its
// order: topological sort, dead-node elimination, loop reordering, fusion,
// topological sort.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_PIPELINES_PIPELINES_H
#define SCHEDULER_OPT_PIPELINES_PIPELINES_H

#include "scheduler-opt/Dialect/Fusion/Transforms/FusionPolicies.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace fusion {

/// Options of the `fusion-schedule` pipeline.
struct FusionScheduleOptions
    : public PassPipelineOptions<FusionScheduleOptions> {
  Option<bool> pickLoopOrder{
      *this, "pick-loop-order",
      llvm::cl::desc("Order each node's loops by the strides of its memory "
                     "accesses (Inductor's pick_loop_order)"),
      llvm::cl::init(true)};
  Option<bool> mergeLoops{
      *this, "merge-loops",
      llvm::cl::desc("Merge contiguous loops before fusion; Inductor merges "
                     "them only after fusion on GPUs, so that loop orders "
                     "can still be matched"),
      llvm::cl::init(false)};
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Fuse nodes into kernels (fuse_nodes)"),
                    llvm::cl::init(true)};
  Option<PeakMemoryPolicy> peakMemory{
      *this, "peak-memory", llvm::cl::desc("Peak memory policy of fusion"),
      llvm::cl::init(PeakMemoryPolicy::TrafficBounded), peakMemoryPolicyValues()};
  Option<bool> comboKernels{
      *this, "combo-kernels",
      llvm::cl::desc("Once fusion is done, combine independent kernels into "
                     "foreach (combo) kernels (config.combo_kernels)"),
      llvm::cl::init(false)};
  Option<int64_t> comboMaxPartBytes{
      *this, "combo-max-part-bytes",
      llvm::cl::desc("With combo-kernels, only kernels whose buffers take at "
                     "most this many bytes join combo kernels (0: any)"),
      llvm::cl::init(0)};
  Option<bool> explain{
      *this, "explain",
      llvm::cl::desc("Emit a remark for every pair fusion refused, naming "
                     "the rule"),
      llvm::cl::init(false)};
};

/// Adds Inductor's scheduling order to `pm`: topological sort, dead-node
/// elimination, loop reordering, fusion and a final topological sort. `pm` may be anchored on `builtin.module`
/// (or any op holding graphs) or on `fusion.graph`.
void buildFusionSchedulePipeline(OpPassManager &pm,
                                 const FusionScheduleOptions &options);

/// Registers `fusion-schedule` with the pass registry.
void registerFusionPipelines();

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_PIPELINES_PIPELINES_H
