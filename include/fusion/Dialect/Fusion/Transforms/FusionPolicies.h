//===- FusionPolicies.h - Policies of fusion, as pass options ---*- C++ -*-===//
//
// The policies the fusion planner follows where Inductor's versions or our
// peak-memory guarantee differ. They are enum options of fusion-fuse-nodes
// and fusion-schedule, so the option parser itself rejects a value it does
// not know.
//
//===----------------------------------------------------------------------===//

#ifndef FUSION_DIALECT_FUSION_TRANSFORMS_FUSIONPOLICIES_H
#define FUSION_DIALECT_FUSION_TRANSFORMS_FUSIONPOLICIES_H

namespace mlir {
namespace fusion {

/// How fusion treats peak memory.
enum class PeakMemoryPolicy {
  /// Never raise the peak live bytes of the unfused schedule.
  NeverRaise,
  /// Inductor's heuristics only (can_fusion_increase_peak_memory and
  /// are_long_distant_nodes), which can raise it (pytorch#138685).
  Inductor,
};

/// When fusion may reorder a node's loops to match another node's access
/// order (config.loop_ordering_after_fusion).
enum class LoopReorderPolicy {
  /// Never.
  Off,
  /// In can_fuse of every round, as Inductor before 2.10 does.
  EveryRound,
  /// Only in one more round (is_reorder_round) once the rounds without
  /// reordering have reached their fixpoint, as Inductor 2.10+ does (the
  /// corpus was dumped by 2.11).
  AfterFixpoint,
};

} // namespace fusion
} // namespace mlir

#endif // FUSION_DIALECT_FUSION_TRANSFORMS_FUSIONPOLICIES_H
