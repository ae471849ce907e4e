//===- scheduler-opt.cpp - The scheduler-opt driver -----------------------===//
//
// An mlir-opt style driver: it only registers the fusion dialect, the
// upstream dialects the pipeline needs, and the project's passes.
//
//===----------------------------------------------------------------------===//

#include "fusion/Conversion/Passes.h"
#include "fusion/Dialect/Fusion/IR/FusionDialect.h"
#include "fusion/Dialect/Fusion/Transforms/Passes.h"
#include "fusion/Pipelines/LoweringPipelines.h"
#include "fusion/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::fusion::test {
void registerTestDependenceGraphPasses();
void registerTestJitMainPass();
void registerTestKernelGroupingPasses();
void registerTestMemoryProfilePasses();
void registerTestRefusalRemarksPasses();
void registerTestReorderLoopsPasses();
} // namespace mlir::fusion::test

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::fusion::registerFusionPasses();
  mlir::fusion::registerFusionPipelines();
  mlir::fusion::registerFusionConversionPasses();
  mlir::fusion::registerLoweringPipelines();
  mlir::fusion::test::registerTestJitMainPass();
  mlir::fusion::test::registerTestDependenceGraphPasses();
  mlir::fusion::test::registerTestKernelGroupingPasses();
  mlir::fusion::test::registerTestMemoryProfilePasses();
  mlir::fusion::test::registerTestRefusalRemarksPasses();
  mlir::fusion::test::registerTestReorderLoopsPasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::fusion::FusionDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::func::FuncDialect>();
  mlir::fusion::registerLoweringDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "scheduler-opt: Inductor-style kernel fusion scheduling\n",
      registry));
}
