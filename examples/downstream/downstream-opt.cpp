//===- downstream-opt.cpp - An MLIR compiler that uses scheduler-opt ------===//
//
// What a compiler outside this repository does to use the fusion dialect:
// register it and its passes next to MLIR's own through the InitAll entry
// points, write passes of its own against the dialect's C++ API, and ops of
// its own on the dialect's ODS definitions. Here the pass is
// `downstream-print-kernels`, which reports each kernel of a scheduled graph
// the way Inductor's ir_post_fusion.txt names it, and the op is
// `downstream.num_elements` (DownstreamOps.td) on `!fusion.buffer` values.
//
//===----------------------------------------------------------------------===//

#include "DownstreamDialect.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionInterfaces.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/InitAllDialects.h"
#include "scheduler-opt/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

using namespace mlir;

namespace {
/// Emits one remark per top-level node of every fusion.graph: its Inductor
/// name and class, e.g. `op0_op1: FusedSchedulerNode`.
struct PrintKernelsPass
    : public PassWrapper<PrintKernelsPass, OperationPass<fusion::GraphOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrintKernelsPass)

  StringRef getArgument() const final { return "downstream-print-kernels"; }
  StringRef getDescription() const final {
    return "Report the kernels of each fusion.graph as Inductor names them";
  }

  void runOnOperation() final {
    for (Operation &op : getOperation().getBodyBlock()) {
      auto node = dyn_cast<fusion::SchedulerNodeOpInterface>(&op);
      if (!node)
        continue;
      op.emitRemark() << node.getNodeName() << ": "
                      << node.getInductorClassName();
    }
    markAllAnalysesPreserved();
  }
};
} // namespace

int main(int argc, char **argv) {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  fusion::registerAllDialects(registry);
  registry.insert<downstream::DownstreamDialect>();

  registerAllPasses();
  fusion::registerAllPasses();
  PassRegistration<PrintKernelsPass>();

  return asMainReturnCode(MlirOptMain(
      argc, argv, "downstream-opt: MLIR and scheduler-opt together\n",
      registry));
}
