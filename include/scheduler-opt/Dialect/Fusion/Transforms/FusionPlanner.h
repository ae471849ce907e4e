//===- FusionPlanner.h - Inductor's fuse_nodes, decided ---------*- C++ -*-===//
//
// Decides which scheduler nodes of a fusion.graph fuse into one kernel, with
// the algorithm and rules of Inductor's `Scheduler.fuse_nodes`
// (scheduler.py) and `SIMDScheduling.can_fuse` (simd.py):
//
//   fuse_nodes / fuse_nodes_once         run(): rounds until a fixpoint
//   get_possible_fusions                 candidates sharing a buffer
//   score_fusion_key, score_fusion_memory  candidate order
//   can_fuse, can_fuse_vertical,         whyNotFuse(): every rule, each refusal
//   can_fuse_horizontal, fusable_*         named by a RefusalReason
//   will_fusion_create_cycle             createsCycle()
//   shared_data_after_reordering_loop    loop reordering of one node
//   can_fusion_increase_peak_memory,     Inductor's memory heuristics
//   are_long_distant_nodes
//   ForeachKernelSchedulerNode.can_fuse  foreach (combo) kernels: ForeachFusion.cpp
//   and .fuse, create_combo_kernel_nodes
//
// Beyond Inductor, under the default policy no fusion raises the peak
// memory of the schedule above the unfused schedule's: the planner keeps the
// schedule the fused graph will run in, and the live bytes of each of its
// steps, as fusions are made, and refuses a fusion that would raise the
// peak at that point (it may be made in a later round, once other fusions
// have lowered the peak around it).
//
// The planner only decides: it changes IR only where Inductor's can_fuse
// does, by reordering the loops of a node to match another node's access
// order. FuseNodesPass builds the fused ops from the decision.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNER_H
#define SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNER_H

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/FusionPolicies.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace mlir {
namespace fusion {

/// Inductor's fusion knobs (torch._inductor.config) and ours.
class LoopStrideCache;

struct FusionOptions {
  /// config.max_fusion_size.
  unsigned maxFusionSize = 64;
  /// config.score_fusion_memory_threshold.
  int64_t scoreFusionMemoryThreshold = 10;
  /// fuse_nodes' number of rounds.
  unsigned maxRounds = 10;
  /// config.max_fusion_buffer_group_pairwise_attempts: how many later nodes
  /// sharing a buffer each node is paired with.
  unsigned pairwiseAttempts = 64;
  /// Fuse nodes that share inputs without depending on each other.
  bool horizontal = true;
  /// config.aggressive_fusion: also consider pairs of nodes with the same
  /// iteration group (numel, rnumel) that share no buffer.
  bool aggressiveFusion = false;
  /// config.loop_ordering_after_fusion: reorder a node's loops so a shared
  /// buffer is accessed in the same order.
  LoopReorderPolicy reorderLoops = LoopReorderPolicy::AfterFixpoint;
  PeakMemoryPolicy peakMemory = PeakMemoryPolicy::TrafficBounded;
  /// Name the groups of each refusal (Refusal::first and second), for
  /// explanations; otherwise they are left empty.
  bool explain = false;
  /// config.combo_kernels: once fusion is done, combine independent kernels
  /// into foreach (combo) kernels (create_combo_kernel_nodes).
  bool comboKernels = false;
  /// With comboKernels, only groups whose buffers (those they write) take
  /// at most this many bytes join combo kernels; 0: any (Inductor's rule).
  int64_t comboMaxPartBytes = 0;
};

/// Why a candidate pair was not fused, one per rule (Inductor's WhyNoFuse
/// messages).
enum class RefusalReason {
  ExternOrNop,
  Grouped,
  Order,
  NoSharedData,
  MaxFusionSize,
  InductorPeakMemory,
  MemoryDepsMismatch,
  IntermediateNodes,
  ReductionShapeMismatch,
  PointwiseShapeMismatch,
  ReductionShapeIncompatible,
  TilingMismatch,
  ReductionTiling,
  ScoreThreshold,
  LongDistance,
  HorizontalDisabled,
  Cycle,
  /// ForeachKernelSchedulerNode.can_fuse: two foreach kernels of different
  /// numbers of parts.
  ForeachLengthMismatch,
  /// A reduction cannot join a foreach kernel as its producer / consumer.
  ForeachProducerReduction,
  ForeachConsumerReduction,
  /// No part of the foreach consumer reads what the producer writes.
  ForeachNoConsumerPart,
  /// The consumer reads from no part, or from several parts, of the foreach
  /// producer.
  ForeachNoProducerPart,
  /// Ours: one part of the foreach kernel would read what another part
  /// writes, and the parts of a combo kernel run at the same time.
  ForeachPartsDepend,
  /// Ours: node2 overwrites in place elements node1 reads at other indices.
  /// Inductor checks this with fusable_weak_dep, but prune_redundant_deps
  /// drops the WeakDep first when node2 also reads a result of node1, and
  /// the fused kernel then races.
  InPlaceRace,
  /// Ours: the fusion would raise the peak memory of the unfused schedule.
  PeakMemory,
};
constexpr unsigned kNumRefusalReasons =
    static_cast<unsigned>(RefusalReason::PeakMemory) + 1;

/// A short stable identifier of the reason (`memory-deps-mismatch`).
StringRef getRefusalKey(RefusalReason reason);
/// Inductor's message for the reason (`memory deps did not match`).
StringRef getRefusalMessage(RefusalReason reason);

/// One refused candidate pair: `first` is the earlier group's node name
/// (with FusionOptions::explain).
struct Refusal {
  std::string first;
  std::string second;
  RefusalReason reason;
  /// Where to report it: the first leaf of the later group.
  Operation *anchor;
};

/// The decision: groups of top-level nodes (indices into the input
/// DependenceGraph) that become one kernel each, in the order the fused graph
/// runs in (the order whose peak memory the planner kept).
struct FusionPlan {
  /// Every top-level node exactly once; a group of one is left alone.
  SmallVector<SmallVector<unsigned, 4>> groups;
  /// Per group: empty for a group that is one fused kernel; for a foreach
  /// (combo) kernel, the number of nodes of each of its parts (Inductor's
  /// snodes), which take `groups[i]` in order.
  SmallVector<SmallVector<unsigned, 0>> foreachParts;
  SmallVector<Refusal> refusals;
  unsigned rounds = 0;
  unsigned candidatesScored = 0;
  unsigned fusions = 0;
  /// Peak live bytes of the input schedule and of the planned one.
  int64_t peakBytesBefore = 0;
  int64_t peakBytesAfter = 0;
  /// The pairs left unfused (`refusals`) per reason.
  std::array<unsigned, kNumRefusalReasons> refusalCounts{};
};

/// Plans the fusion of a topologically sorted, acyclic graph. `deps` must
/// describe `graph` as it is on entry. Each of `foreachLists` (top-level
/// nodes, none in two lists) starts as one foreach kernel whose parts are
/// those nodes (Inductor's create_foreach_nodes). With `loopStrides` (the
/// graph's analysis), the strides of the leaves' accesses are taken from it
/// and kept there; without, from a memo of the plan's own.
FailureOr<FusionPlan>
planFusion(GraphOp graph, const DependenceGraph &deps,
           const FusionOptions &options,
           ArrayRef<SmallVector<unsigned, 4>> foreachLists = {},
           LoopStrideCache *loopStrides = nullptr);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNER_H
