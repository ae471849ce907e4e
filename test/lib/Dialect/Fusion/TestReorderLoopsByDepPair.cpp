//===- TestReorderLoopsByDepPair.cpp - Exercise reorder_loops_by_dep_pair -===//
//
// `test-reorder-loops-by-dep-pair{node=op1 other=op0 buffer=buf0}` calls
// `reorderLoopsByDepPair` as Inductor's `shared_data_after_reordering_loop`
// does: it takes the dependence of `node` on `buffer` and that of `other`
// (for each, the last of its reads and writes naming the buffer, as
// Inductor's `{dep.name: dep for dep in reads_and_writes()}` keeps) and
// permutes the pointwise loops of `node` (a fusion.node or fusion.fused) so
// that its access matches. A remark says when no order could be decided.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/LoopUtils.h"
#include "scheduler-opt/Target/Inductor/InductorFormat.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {
struct TestReorderLoopsByDepPairPass
    : PassWrapper<TestReorderLoopsByDepPairPass, OperationPass<GraphOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestReorderLoopsByDepPairPass)

  TestReorderLoopsByDepPairPass() = default;
  TestReorderLoopsByDepPairPass(const TestReorderLoopsByDepPairPass &pass)
      : PassWrapper(pass) {}

  StringRef getArgument() const final {
    return "test-reorder-loops-by-dep-pair";
  }
  StringRef getDescription() const final {
    return "Reorder the loops of one node to match another node's access to "
           "a shared buffer (Inductor's reorder_loops_by_dep_pair)";
  }

  Option<std::string> nodeName{*this, "node",
                               llvm::cl::desc("Node whose loops to reorder")};
  Option<std::string> otherName{
      *this, "other", llvm::cl::desc("Node whose access order to match")};
  Option<std::string> bufferName{
      *this, "buffer", llvm::cl::desc("Buffer both nodes access")};

  /// The dependence of node `n` on `buffer` Inductor's name-to-dep map keeps.
  static Attribute findDep(const DependenceGraph &deps, unsigned n,
                           StringRef buffer) {
    Attribute found;
    for (ArrayRef<Attribute> list : {deps.getReads(n), deps.getWrites(n)})
      for (Attribute dep : list) {
        StringAttr name;
        if (auto memory = dyn_cast<MemoryDepAttr>(dep))
          name = memory.getName();
        else if (auto star = dyn_cast<StarDepAttr>(dep))
          name = star.getName();
        if (name && name.getValue() == buffer)
          found = dep;
      }
    return found;
  }

  void runOnOperation() override {
    GraphOp graph = getOperation();
    auto &deps = getAnalysis<DependenceGraph>();
    std::optional<unsigned> node, other;
    for (unsigned n = 0, e = deps.getNumNodes(); n < e; ++n) {
      std::string name = deps.getNode(n).getNodeName();
      if (name == nodeName)
        node = n;
      if (name == otherName)
        other = n;
    }
    if (!node || !other) {
      graph.emitError("no top-level node named '")
          << (node ? otherName : nodeName) << "'";
      return signalPassFailure();
    }
    Attribute selfDep = findDep(deps, *node, bufferName);
    Attribute otherDep = findDep(deps, *other, bufferName);
    if (!selfDep || !otherDep) {
      deps.getNode(selfDep ? *other : *node)->emitError("does not access '")
          << bufferName << "'";
      return signalPassFailure();
    }
    Operation *op = deps.getNode(*node);
    auto selfMemory = dyn_cast<MemoryDepAttr>(selfDep);
    auto otherMemory = dyn_cast<MemoryDepAttr>(otherDep);
    LogicalResult result = failure();
    if (selfMemory && otherMemory) {
      if (auto nodeOp = dyn_cast<NodeOp>(op))
        result = reorderLoopsByDepPair(nodeOp, selfMemory, otherMemory);
      else if (auto fused = dyn_cast<FusedOp>(op))
        result = reorderLoopsByDepPair(fused, selfMemory, otherMemory);
    }
    if (failed(result)) {
      op->emitRemark("loops not reordered: cannot match ")
          << formatInductorDep(selfDep) << " to "
          << formatInductorDep(otherDep);
      markAllAnalysesPreserved();
    }
  }
};
} // namespace

namespace mlir::fusion::test {
void registerTestReorderLoopsPasses() {
  PassRegistration<TestReorderLoopsByDepPairPass>();
}
} // namespace mlir::fusion::test
