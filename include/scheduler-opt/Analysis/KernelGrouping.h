//===- KernelGrouping.h - Kernels of a schedule and their traffic -*- C++ -*-===//
//
// The kernels a scheduled fusion.graph launches, with the scheduler nodes
// each one runs and an estimate of the bytes it moves between memory and
// the chip. It is the common ground for comparing two groupings of the same
// graph (scheduler-opt's `--fusion-schedule` against Inductor's
// `ir_post_fusion.txt`): the same function describes both.
//
// A *kernel* is a top-level scheduler node that contains at least one
// `fusion.node`: a lone node, a `fusion.fused`, a `fusion.foreach` (one
// combo kernel), or a `fusion.group` holding computed nodes. Top-level
// `fusion.extern`s are library calls and `fusion.nop`s views; neither is a
// kernel (Inductor's count: top-level nodes in `ir_post_fusion.txt` that are
// not ExternKernelSchedulerNode / NopKernelSchedulerNode).
//
// Traffic model (identical for every grouping, so the numbers compare):
//  - a unit (kernel or extern) reads every distinct buffer that one of its
//    leaves reads and none of its leaves produces, once, at its full storage
//    size (`!fusion.buffer` storage bytes, whatever part the loads touch);
//  - it writes, once, every buffer one of its leaves produces that a unit
//    outside it reads (a load, an extern or view operand, or the buffer
//    version an in-place update overwrites), that is a graph output, or that
//    overwrites the storage of a graph input in place;
//  - views (`fusion.nop`) move nothing, and a read of a view counts the
//    view's own storage size;
//  - `!fusion.multi_output` tuples have no storage: the extern returning one
//    writes nothing, and each `multi_output` extern reading it counts as
//    writing the buffer it extracts.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_ANALYSIS_KERNELGROUPING_H
#define SCHEDULER_OPT_ANALYSIS_KERNELGROUPING_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir {
namespace fusion {

/// One external buffer access of a unit: the buffer name and its storage
/// size in bytes.
struct BufferTraffic {
  StringAttr buffer;
  int64_t bytes;
};

/// A top-level scheduler node as it runs: a kernel or an extern call.
struct ScheduledUnit {
  /// The node name (`op0_op1_op3` for a container).
  std::string name;
  /// Inductor's class for it: `SchedulerNode`, `FusedSchedulerNode`,
  /// `ForeachKernelSchedulerNode`, `GroupedSchedulerNode`,
  /// `ExternKernelSchedulerNode`.
  StringRef kind;
  /// The leaf scheduler nodes it runs, in execution order.
  SmallVector<StringAttr> members;
  /// For a foreach or group: the leaf names of each direct member, in member
  /// order (a foreach of fused groups has one part per fused group). Empty
  /// otherwise.
  SmallVector<SmallVector<StringAttr>, 0> parts;
  /// External buffers read and written, in first-access order.
  SmallVector<BufferTraffic> reads;
  SmallVector<BufferTraffic> writes;

  int64_t getBytesRead() const;
  int64_t getBytesWritten() const;
  int64_t getBytesMoved() const { return getBytesRead() + getBytesWritten(); }
};

/// The kernels and extern calls of one graph, in schedule order.
struct KernelGrouping {
  SmallVector<ScheduledUnit, 0> kernels;
  SmallVector<ScheduledUnit, 0> externs;
  /// Top-level nodes that are neither: views and groups of views.
  unsigned numNops = 0;
  /// All top-level scheduler nodes.
  unsigned numTopLevelNodes = 0;

  int64_t getKernelBytes() const;
  int64_t getExternBytes() const;
};

/// Describes the kernels of `graph` in its current node order. The graph
/// must verify.
KernelGrouping computeKernelGrouping(GraphOp graph);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_ANALYSIS_KERNELGROUPING_H
