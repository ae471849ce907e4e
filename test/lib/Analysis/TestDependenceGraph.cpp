//===- TestDependenceGraph.cpp - Print the dependence analysis ------------===//
//
// `test-print-dependences` prints, for every scheduler node of each graph,
// the dependences the DependenceGraph analysis computed, in the format of
// Inductor's ir_pre_fusion.txt / ir_post_fusion.txt dumps, so tests compare
// them with Inductor's own `.writes`, `.unmet_dependencies` and
// `.met_dependencies` lines; then the users of each buffer and the
// ancestors of each node.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Target/Inductor/InductorFormat.h"

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {
struct TestPrintDependencesPass
    : PassWrapper<TestPrintDependencesPass, OperationPass<GraphOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintDependencesPass)

  TestPrintDependencesPass() = default;
  TestPrintDependencesPass(const TestPrintDependencesPass &pass)
      : PassWrapper(pass) {}

  StringRef getArgument() const final { return "test-print-dependences"; }
  StringRef getDescription() const final {
    return "Print the dependence analysis in Inductor's dump format";
  }

  Option<bool> printAncestors{*this, "ancestors",
                              llvm::cl::desc("Print each node's ancestors"),
                              llvm::cl::init(true)};

  void runOnOperation() override {
    auto &graph = getAnalysis<DependenceGraph>();
    if (graph.hasCycle()) {
      graph.emitCycleError();
      return signalPassFailure();
    }
    llvm::raw_ostream &os = llvm::outs();
    unsigned g = getOperation().getNumSizeSymbols();
    os << "graph @" << getOperation().getSymName() << "\n";
    for (unsigned n = 0, e = graph.getNumNodes(); n < e; ++n) {
      SchedulerNodeOpInterface node = graph.getNode(n);
      std::string name = node.getNodeName();
      os << name << ": " << node.getInductorClassName() << "\n";
      os << name << ".writes = "
         << formatInductorDepSet(graph.getWrites(n), g) << "\n";
      os << name << ".unmet_dependencies = "
         << formatInductorDepSet(graph.getUnmetDependencies(n), g) << "\n";
      os << name << ".met_dependencies = "
         << formatInductorDepSet(graph.getMetDependencies(n), g) << "\n";
      for (OpResult result : node->getResults()) {
        StringAttr buffer = node.getBufferName(result.getResultNumber());
        if (Value old = node.getMutatedBuffer(result.getResultNumber()))
          os << buffer.getValue() << ".mutations = ['"
             << getBufferName(old).getValue() << "']\n";
        os << formatInductorUsers(buffer.getValue(), graph.getUsers(result))
           << "\n";
      }
      if (printAncestors) {
        SmallVector<std::string> names;
        for (unsigned a : graph.getAncestors(n))
          names.push_back("'" + graph.getNode(a).getNodeName() + "'");
        os << name << ".ancestors = [" << llvm::join(names, ", ") << "]\n";
      }
    }
    markAllAnalysesPreserved();
  }
};
} // namespace

namespace mlir::fusion::test {
void registerTestDependenceGraphPasses() {
  PassRegistration<TestPrintDependencesPass>();
}
} // namespace mlir::fusion::test
