//===- TestKernelGrouping.cpp - Print kernels and their traffic -----------===//
//
// `test-print-kernel-grouping` prints, for each graph, its kernels and extern
// calls in schedule order with their members, the external buffers each
// reads and writes (with storage bytes), and the totals.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/KernelGrouping.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::fusion;

static void printTraffic(llvm::raw_ostream &os, StringRef label,
                         ArrayRef<BufferTraffic> traffic) {
  os << "    " << label << ":";
  for (const BufferTraffic &access : traffic)
    os << " " << access.buffer.getValue() << "(" << access.bytes << ")";
  os << "\n";
}

static void printUnit(llvm::raw_ostream &os, StringRef label,
                      const ScheduledUnit &unit) {
  os << "  " << label << " " << unit.name << " (" << unit.kind << "):";
  for (StringAttr member : unit.members)
    os << " " << member.getValue();
  os << "\n";
  if (!unit.parts.empty()) {
    os << "    parts:";
    for (ArrayRef<StringAttr> part : unit.parts) {
      os << " [";
      llvm::interleave(
          part, os, [&](StringAttr name) { os << name.getValue(); }, " ");
      os << "]";
    }
    os << "\n";
  }
  printTraffic(os, "reads", unit.reads);
  printTraffic(os, "writes", unit.writes);
  os << "    bytes: " << unit.getBytesRead() << " + " << unit.getBytesWritten()
     << " = " << unit.getBytesMoved() << "\n";
}

namespace {
struct TestPrintKernelGroupingPass
    : PassWrapper<TestPrintKernelGroupingPass, OperationPass<GraphOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintKernelGroupingPass)

  StringRef getArgument() const final { return "test-print-kernel-grouping"; }
  StringRef getDescription() const final {
    return "Print the kernels of each graph and the bytes each moves";
  }

  void runOnOperation() override {
    KernelGrouping grouping = computeKernelGrouping(getOperation());
    llvm::raw_ostream &os = llvm::outs();
    os << "graph @" << getOperation().getSymName() << ": "
       << grouping.numTopLevelNodes << " nodes, " << grouping.kernels.size()
       << " kernels, " << grouping.externs.size() << " externs, "
       << grouping.numNops << " nops\n";
    for (const ScheduledUnit &kernel : grouping.kernels)
      printUnit(os, "kernel", kernel);
    for (const ScheduledUnit &call : grouping.externs)
      printUnit(os, "extern", call);
    os << "  kernel bytes: " << grouping.getKernelBytes()
       << ", extern bytes: " << grouping.getExternBytes() << "\n";
    markAllAnalysesPreserved();
  }
};
} // namespace

namespace mlir::fusion::test {
void registerTestKernelGroupingPasses() {
  PassRegistration<TestPrintKernelGroupingPass>();
}
} // namespace mlir::fusion::test
