//===- scheduler-opt.cpp - The scheduler-opt driver -----------------------===//
//
// An mlir-opt style driver: it only registers, through the same InitAll
// entry points other compilers call (include/scheduler-opt/InitAll*.h), plus
// upstream's generic transforms and the test-only passes of test/lib.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/InitAllDialects.h"
#include "scheduler-opt/InitAllPasses.h"

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
  mlir::fusion::registerAllPasses();
  mlir::fusion::test::registerTestJitMainPass();
  mlir::fusion::test::registerTestDependenceGraphPasses();
  mlir::fusion::test::registerTestKernelGroupingPasses();
  mlir::fusion::test::registerTestMemoryProfilePasses();
  mlir::fusion::test::registerTestRefusalRemarksPasses();
  mlir::fusion::test::registerTestReorderLoopsPasses();
  mlir::DialectRegistry registry;
  mlir::fusion::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "scheduler-opt: Inductor-style kernel fusion scheduling\n",
      registry));
}
