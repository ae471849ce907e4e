//===- HostLowering.h - The host function of a lowered graph ----*- C++ -*-===//
//
// Builds `func.func @<graph>` for a planned graph: one 1-D memref argument
// per graph input and per graph output (the storages of StoragePlan),
// temporaries allocated on entry and freed on exit, each step in order (a
// kernel, emitted and launched by the target, or an extern, called as a
// declared external function), then the copies into output arguments.
// The GPU and CPU lowerings differ only in the hooks of `HostTarget`.
//
// A graph with size symbols takes their values as trailing `index`
// arguments (`fusion.role = "symbol"`, `fusion.name` its Inductor name);
// storages whose size depends on them are `memref<?xT>`, their size as an
// affine map of the symbols in the argument's `fusion.elements`, and
// temporaries are allocated at the size the symbols give.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_HOSTLOWERING_H
#define SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_HOSTLOWERING_H

#include "scheduler-opt/Conversion/KernelCodegen/GraphPlan.h"
#include "scheduler-opt/Conversion/KernelCodegen/KernelPlan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::fusion::codegen {

/// The target-specific parts of a host function.
class HostTarget {
public:
  virtual ~HostTarget();
  /// Allocates a storage of `type`; `dynamicSize` is its number of
  /// elements when `type` is `memref<?xT>`, else null.
  virtual Value allocate(OpBuilder &b, Location loc, MemRefType type,
                         Value dynamicSize) = 0;
  virtual void deallocate(OpBuilder &b, Location loc, Value memref) = 0;
  /// Copies `from` into `to` (same type).
  virtual void copy(OpBuilder &b, Location loc, Value from, Value to) = 0;
  /// Emits the kernel of `plan` and, at `b`'s insertion point in the host
  /// function, its launch on `args`, the memrefs of `storages`.
  virtual LogicalResult emitKernel(OpBuilder &b, const KernelPlan &plan,
                                   const GraphPlan &graph,
                                   ArrayRef<unsigned> storages,
                                   ValueRange args) = 0;
  /// One part of a foreach (combo) kernel: its plan, and the storages it
  /// uses with their memrefs.
  struct ComboPart {
    KernelPlan plan;
    SmallVector<unsigned> storages;
    SmallVector<Value> args;
  };
  /// Emits the foreach kernel `op` of `parts` and its launch on `args`, the
  /// memrefs of `storages` (every storage of every part). By default each
  /// part is a kernel of its own, launched in order; the parts do not
  /// depend on each other, so any order is right.
  virtual LogicalResult emitComboKernel(OpBuilder &b, ForeachOp op,
                                        ArrayRef<ComboPart> parts,
                                        const GraphPlan &graph,
                                        ArrayRef<unsigned> storages,
                                        ValueRange args);
  /// Called for each extern, in order, once its call is emitted.
  virtual void noteExtern(ExternOp op, const GraphPlan &graph,
                          ArrayRef<unsigned> storages) {}

  /// The size symbols' values in the host function (`index`), set by
  /// lowerGraph before any step is emitted; empty for static graphs.
  SmallVector<Value> sizeSymbols;
};

/// Emits a size expression of the graph (symbol i = size symbol i) as an
/// `index` value from the symbols' values `symbols`.
Value emitSizeValue(OpBuilder &b, Location loc, AffineExpr size,
                    ValueRange symbols);

/// The memref type of a storage.
MemRefType getStorageType(const StoragePlan::Storage &storage);

/// Lowers `plan.graph` to a host function next to it (named
/// `<graph>.host` until `replaceGraph`). `numExternCalls` counts the
/// externs called.
FailureOr<func::FuncOp> lowerGraph(const GraphPlan &plan, HostTarget &target,
                                   unsigned &numExternCalls);

/// Erases a lowered graph and gives its name to its host function.
void replaceGraph(GraphOp graph, func::FuncOp host);

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_HOSTLOWERING_H
