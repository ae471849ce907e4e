//===- TestRefusalRemarks.cpp - Remarks in the fusion pass's format -------===//
//
// `test-fusion-refusal-remarks{reason=...}` emits, for every two consecutive
// top-level `fusion.node`s A and B of a graph, the remark the fusion pass
// emits for a refused pair when its `explain` option is on (text and data,
// FusionRemarks.h), with no reason key:
//
//   <loc of B>: remark: not fusing A with B: <reason>
//
// It changes nothing. It lets the report tooling (scheduler-corpus-bench,
// bench/compare_inductor.py) be tested end to end without the fusion pass.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/FusionRemarks.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {
struct TestRefusalRemarksPass
    : PassWrapper<TestRefusalRemarksPass, OperationPass<GraphOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestRefusalRemarksPass)

  TestRefusalRemarksPass() = default;
  TestRefusalRemarksPass(const TestRefusalRemarksPass &pass)
      : PassWrapper(pass) {}

  StringRef getArgument() const final { return "test-fusion-refusal-remarks"; }
  StringRef getDescription() const final {
    return "Emit a 'not fusing A with B' remark for every two consecutive "
           "top-level nodes";
  }

  Option<std::string> reason{*this, "reason",
                             llvm::cl::desc("Reason given in every remark"),
                             llvm::cl::init("test refusal")};

  void runOnOperation() override {
    NodeOp previous;
    for (auto node : getOperation().getBodyBlock().getOps<NodeOp>()) {
      if (previous)
        emitRefusalRemark(node.getLoc(), previous.getName(), node.getName(),
                          /*reason=*/"", reason);
      previous = node;
    }
    markAllAnalysesPreserved();
  }
};
} // namespace

namespace mlir::fusion::test {
void registerTestRefusalRemarksPasses() {
  PassRegistration<TestRefusalRemarksPass>();
}
} // namespace mlir::fusion::test
