//===- Pipelines.cpp - Registered pass pipelines of scheduler-opt ---------===//

#include "scheduler-opt/Pipelines/Pipelines.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::fusion;

void mlir::fusion::buildFusionSchedulePipeline(
    OpPassManager &pm, const FusionScheduleOptions &options) {
  // Graph passes run on every fusion.graph, in parallel across graphs.
  bool onGraph = pm.getOpName() == GraphOp::getOperationName();
  OpPassManager &graphPm = onGraph ? pm : pm.nest<GraphOp>();
  // Scheduler._init: compute_dependencies (the DependenceGraph analysis the
  // passes share), topological_sort_schedule, dead_node_elimination; the
  // loop order Inductor picks when it creates each SchedulerNode.
  graphPm.addPass(createTopologicalSortPass());
  graphPm.addPass(createDeadNodeEliminationPass());
  ReorderLoopsPassOptions reorder;
  reorder.pickLoopOrder = options.pickLoopOrder;
  reorder.mergeLoops = options.mergeLoops;
  if (reorder.pickLoopOrder || reorder.mergeLoops)
    graphPm.addPass(createReorderLoopsPass(reorder));
  // fuse_nodes, then the order the fused graph runs in.
  if (options.fuse) {
    FuseNodesPassOptions fuse;
    fuse.peakMemory = options.peakMemory;
    fuse.explain = options.explain;
    fuse.comboKernels = options.comboKernels;
    fuse.comboMaxPartBytes = options.comboMaxPartBytes;
    graphPm.addPass(createFuseNodesPass(fuse));
    graphPm.addPass(createTopologicalSortPass());
  }
}

void mlir::fusion::registerFusionPipelines() {
  PassPipelineRegistration<FusionScheduleOptions>(
      "fusion-schedule",
      "Inductor's scheduling order: topological sort, dead-node elimination, "
      "loop reordering, fusion and topological sort of every fusion.graph",
      buildFusionSchedulePipeline);
}
