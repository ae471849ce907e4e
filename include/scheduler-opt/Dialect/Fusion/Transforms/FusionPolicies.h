//===- FusionPolicies.h - Policies of fusion, as pass options ---*- C++ -*-===//
//
// The policies the fusion planner follows where Inductor's versions or our
// peak-memory guarantee differ. They are enum options of fusion-fuse-nodes
// and fusion-schedule, so the option parser itself rejects a value it does
// not know.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_FUSIONPOLICIES_H
#define SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_FUSIONPOLICIES_H

#include "llvm/Support/CommandLine.h"

namespace mlir {
namespace fusion {

/// How fusion treats peak memory.
enum class PeakMemoryPolicy {
  /// A fusion may raise the peak live bytes of the unfused schedule by at
  /// most the memory traffic it saves (score_fusion_memory of the pair): a
  /// fusion that saves re-reading a large buffer may keep two small outputs
  /// live at once, one that shares little cannot stretch large lifetimes.
  TrafficBounded,
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

/// The values of the peak-memory option, as fusion-fuse-nodes and
/// fusion-schedule both take it.
inline llvm::cl::ValuesClass peakMemoryPolicyValues() {
  return llvm::cl::values(
      clEnumValN(PeakMemoryPolicy::TrafficBounded, "traffic-bounded",
                 "No fusion raises the unfused schedule's peak by more than "
                 "the memory traffic it saves"),
      clEnumValN(PeakMemoryPolicy::NeverRaise, "never-raise",
                 "No fusion raises the unfused schedule's peak"),
      clEnumValN(PeakMemoryPolicy::Inductor, "inductor",
                 "Inductor's heuristics only"));
}

/// The values of the reorder-loops option.
inline llvm::cl::ValuesClass loopReorderPolicyValues() {
  return llvm::cl::values(
      clEnumValN(LoopReorderPolicy::AfterFixpoint, "after-fixpoint",
                 "In one more round once the others change nothing, as "
                 "Inductor 2.10+"),
      clEnumValN(LoopReorderPolicy::EveryRound, "every-round",
                 "In every can_fuse, as Inductor before 2.10"),
      clEnumValN(LoopReorderPolicy::Off, "off", "Never"));
}

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_FUSIONPOLICIES_H
