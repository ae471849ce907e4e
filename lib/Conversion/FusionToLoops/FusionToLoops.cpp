//===- FusionToLoops.cpp - fusion.graph to CPU loops ----------------------===//
//
// Each kernel becomes a private function with a loop over its rows; the row
// body comes from the KernelEmitter with a single lane, so every reduction
// level is an scf.for over the row carrying the accumulators. Kernels of a
// graph with size symbols take the symbols' values after the storages and
// compute their loop bounds from them.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Conversion/KernelCodegen/HostLowering.h"
#include "scheduler-opt/Conversion/KernelCodegen/KernelEmitter.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"
#include "scheduler-opt/Conversion/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "convert-fusion-to-loops"

namespace mlir::fusion {
#define GEN_PASS_DEF_CONVERTFUSIONTOLOOPSPASS
#include "scheduler-opt/Conversion/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

namespace {
/// Kernels as functions called from the host function, memory as
/// memref.alloc'ed buffers.
class LoopsHostTarget final : public HostTarget {
public:
  LoopsHostTarget(StringRef graphName, unsigned &numKernels)
      : graphName(graphName), numKernels(numKernels) {}

  Value allocate(OpBuilder &b, Location loc, MemRefType type,
                 Value dynamicSize) override {
    if (dynamicSize)
      return memref::AllocOp::create(b, loc, type, ValueRange{dynamicSize});
    return memref::AllocOp::create(b, loc, type);
  }
  void deallocate(OpBuilder &b, Location loc, Value memref) override {
    memref::DeallocOp::create(b, loc, memref);
  }
  void copy(OpBuilder &b, Location loc, Value from, Value to) override {
    memref::CopyOp::create(b, loc, from, to);
  }

  LogicalResult emitKernel(OpBuilder &b, const KernelPlan &plan,
                           const GraphPlan &graph, ArrayRef<unsigned> storages,
                           ValueRange args) override {
    Location loc = plan.op->getLoc();
    auto host = cast<func::FuncOp>(b.getInsertionBlock()->getParentOp());
    OpBuilder kb(host);
    SmallVector<Value> operands(args.begin(), args.end());
    llvm::append_range(operands, sizeSymbols);
    auto type = b.getFunctionType(ValueRange(operands).getTypes(), {});
    auto kernel = func::FuncOp::create(
        kb, loc, (graphName + "__kernel_" + plan.name).str(), type);
    kernel.setPrivate();
    for (auto [i, s] : llvm::enumerate(storages))
      kernel.setArgAttr(i, "fusion.name",
                        kb.getStringAttr(graph.storage.storages[s].name));
    Block *entry = kernel.addEntryBlock();
    kb.setInsertionPointToStart(entry);

    DenseMap<unsigned, Value> memrefOf;
    for (auto [i, s] : llvm::enumerate(storages))
      memrefOf[s] = entry->getArgument(i);
    auto getMemref = [&](Value buffer) {
      return memrefOf.lookup(*graph.storage.lookup(buffer));
    };
    KernelEmitter emitter(plan, getMemref, kb.getIndexType(),
                          entry->getArguments().drop_front(args.size()));
    // Stack arrays of sorts and scans, once per call, not once per row.
    emitter.allocateRowScratch(kb);
    Value zero = createIntConstant(kb, loc, kb.getIndexType(), 0);
    RowLayout layout;
    layout.lane = zero;
    LogicalResult result = success();
    Value numel = emitter.emitSize(kb, plan.numelExpr);
    Value one = createIntConstant(kb, loc, kb.getIndexType(), 1);
    scf::ForOp::create(
        kb, loc, zero, numel, one, ValueRange{},
        [&](OpBuilder &lb, Location, Value x, ValueRange) {
          result = emitter.emitRow(lb, x, layout);
          scf::YieldOp::create(lb, loc);
        });
    func::ReturnOp::create(kb, loc);
    if (failed(result))
      return failure();
    func::CallOp::create(b, loc, kernel, operands);
    ++numKernels;
    return success();
  }

private:
  StringRef graphName;
  unsigned &numKernels;
};

struct ConvertFusionToLoopsPass final
    : fusion::impl::ConvertFusionToLoopsPassBase<ConvertFusionToLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<GraphOp> graphs(getOperation().getOps<GraphOp>());
    for (GraphOp graph : graphs) {
      DependenceGraph deps(graph);
      FailureOr<GraphPlan> plan = planGraph(graph, deps);
      if (failed(plan))
        return signalPassFailure();
      numRegisterBuffers += plan->storage.registerBuffers.size();
      std::string name = graph.getSymName().str();
      unsigned kernels = 0, externs = 0;
      LoopsHostTarget target(name, kernels);
      FailureOr<func::FuncOp> host = lowerGraph(*plan, target, externs);
      if (failed(host))
        return signalPassFailure();
      replaceGraph(graph, *host);
      numKernels += kernels;
      numExternCalls += externs;
    }
    if (failed(expandFloat8Ops(getOperation())))
      return signalPassFailure();
  }
};
} // namespace
