//===- TestMemoryProfile.cpp - Print buffer lifetimes and peak memory -----===//
//
// `test-print-memory-profile` prints, for each graph, every allocation with
// its lifetime in schedule steps and its size, the live bytes at every step
// and the peak.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/MemoryProfile.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {
struct TestPrintMemoryProfilePass
    : PassWrapper<TestPrintMemoryProfilePass, OperationPass<GraphOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintMemoryProfilePass)

  StringRef getArgument() const final { return "test-print-memory-profile"; }
  StringRef getDescription() const final {
    return "Print buffer lifetimes, live bytes per step and peak memory";
  }

  void runOnOperation() override {
    auto &deps = getAnalysis<DependenceGraph>();
    if (deps.hasCycle()) {
      deps.emitCycleError();
      return signalPassFailure();
    }
    auto &profile = getAnalysis<MemoryProfile>();
    llvm::raw_ostream &os = llvm::outs();
    os << "graph @" << getOperation().getSymName() << "\n";
    for (const BufferLifetime &life : profile.getLifetimes())
      os << "  " << getBufferName(life.buffer).getValue() << ": steps ["
         << life.begin << ", " << life.end << "), " << life.bytes
         << " bytes\n";
    os << "  live bytes:";
    for (int64_t bytes : profile.getLiveBytes())
      os << " " << bytes;
    os << "\n  peak: " << profile.getPeakBytes() << " bytes at step "
       << profile.getPeakStep() << "\n";
    markAllAnalysesPreserved();
  }
};
} // namespace

namespace mlir::fusion::test {
void registerTestMemoryProfilePasses() {
  PassRegistration<TestPrintMemoryProfilePass>();
}
} // namespace mlir::fusion::test
