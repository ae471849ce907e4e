//===- ScheduleOrder.h - A graph known to be in dependence order -*- C++ -*-===//
//
// An analysis that holds no data, only a fact about the graph it was made
// for: its top-level scheduler nodes, and the members of every container,
// are in an order that respects each dependence of the DependenceGraph.
// The fusion pass makes and preserves it when the kernels it builds are in
// such an order (it checks this against the dependences it planned with);
// any pass that changes the graph without preserving it drops it, as MLIR
// drops every analysis a pass does not preserve. While it is cached the
// topological sort has nothing to move and need not build the dependence
// graph again.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_ANALYSIS_SCHEDULEORDER_H
#define SCHEDULER_OPT_ANALYSIS_SCHEDULEORDER_H

#include "mlir/Pass/AnalysisManager.h"

namespace mlir {
class Operation;
namespace fusion {

class ScheduleInDependenceOrder {
public:
  explicit ScheduleInDependenceOrder(Operation *) {}

  bool isInvalidated(const AnalysisManager::PreservedAnalyses &pa) {
    return !pa.isPreserved<ScheduleInDependenceOrder>();
  }
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_ANALYSIS_SCHEDULEORDER_H
