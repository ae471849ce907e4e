//===- PipelineReuseTest.cpp - A pass manager run on several modules ------===//
//
// A compiler that links the passes builds the scheduling pipeline once and
// runs it on module after module. The pipeline's passes run on
// `fusion.graph`; if the pass manager resolved that anchor before the
// `fusion` dialect was loaded, it kept an unregistered operation name that
// loading the dialect later frees: the next run compared graphs against a
// dangling name, matched none, and silently scheduled nothing (ASan:
// heap-use-after-free in OpPassManagerImpl::finalizePassList, found by
// fuzz-lower, which reuses pipelines across inputs). The passes declare the
// dialect they run on as a dependent dialect, so that the pass manager loads
// it before it resolves its anchors.
//
//===----------------------------------------------------------------------===//

#include "GraphGenerator.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

OwningOpRef<ModuleOp> generate(MLIRContext *ctx) {
  GraphGeneratorOptions options;
  options.numNodes = 24;
  options.seed = 7;
  options.shuffle = true;
  return generateGraphModule(ctx, options);
}

/// The same graph scheduled by a pass manager made for it in a context
/// where the dialect is loaded from the start.
std::string scheduledInFreshContext() {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module = generate(&ctx);
  PassManager pm(&ctx);
  buildFusionSchedulePipeline(pm, FusionScheduleOptions());
  EXPECT_TRUE(succeeded(pm.run(*module)));
  return print(*module);
}

TEST(PipelineReuseTest, DialectLoadedAfterTheFirstRun) {
  std::string expected = scheduledInFreshContext();

  // A context where nothing of the project is loaded yet.
  DialectRegistry registry;
  registry.insert<FusionDialect>();
  MLIRContext ctx(registry);
  PassManager pm(&ctx);
  buildFusionSchedulePipeline(pm, FusionScheduleOptions());
  OwningOpRef<ModuleOp> empty = ModuleOp::create(UnknownLoc::get(&ctx));
  ASSERT_TRUE(succeeded(pm.run(*empty)));

  // The second module brings the dialect into the context, if the first
  // run did not; the pipeline must still schedule its graph.
  OwningOpRef<ModuleOp> module = generate(&ctx);
  std::string unscheduled = print(*module);
  ASSERT_TRUE(succeeded(pm.run(*module)));
  ASSERT_TRUE(succeeded(verify(*module)));
  EXPECT_NE(print(*module), unscheduled);
  EXPECT_EQ(print(*module), expected);
}

} // namespace
