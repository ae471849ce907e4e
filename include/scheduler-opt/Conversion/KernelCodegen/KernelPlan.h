//===- KernelPlan.h - Mapping a kernel onto its iteration space -*- C++ -*-===//
//
// How one kernel (an unfused `fusion.node` or a `fusion.fused` group) runs,
// following Inductor's SIMD kernels (`simd.py`): the kernel iterates over
// rows x in [0, numel) and, in reduction kernels, over the elements r in
// [0, rnumel) of each row. Every member node maps onto that (x, r) space:
//
//   - a reduction member (numel, rnumel) runs per element and reduces over r;
//   - a pointwise member with numel * rnumel iterations runs per element;
//   - a pointwise member with numel iterations runs once per row.
//
// Its loop variables are the delinearization of x (pointwise loops) and r
// (reduction loops), or of the flat index x * rnumel + r when its loops do
// not split at the row boundary. A buffer produced and read inside a group
// is forwarded from the producer's stored value: that requires the reader
// to read, in each (x, r), exactly what the producer wrote there, which the
// plan checks on the flat indices composed into (x, r).
//
// Reductions impose an order inside a row: a value that depends on `d`
// reductions (its depth) can only be computed after they finished. Level k
// of a row runs the reductions whose inputs have depth k, over all of r;
// per-element stores of depth k run in that pass, per-row stores of depth k
// before it.
//
// Graphs with size symbols: numel and rnumel are expressions in the symbols
// (symbol i is the graph's size symbol i), known at run time. Loop
// variables and index expressions may then use the symbols too: loop
// variables use size symbol i as symbol i; the index of an access with k
// indirect indices uses them as symbols 0..k-1 and size symbol i as symbol
// k + i, as the dialect's index maps do.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_KERNELPLAN_H
#define SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_KERNELPLAN_H

#include "scheduler-opt/Conversion/KernelCodegen/GraphPlan.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::fusion::codegen {

/// How one member node runs over its kernel's (x, r) space.
struct MemberPlan {
  NodeOp node;
  /// True when the member runs per element (x, r); false when it runs once
  /// per row x.
  bool perElement = false;
  /// Each loop variable of the node as an expression of d0 = x and d1 = r.
  SmallVector<AffineExpr> loopVars;
  /// True when the member's stores run per element: pointwise members run
  /// per element, and reduction members without a fusion.reduce (a sort or
  /// a scan stores every element of the row).
  bool storesPerElement = false;
};

/// A kernel mapped onto its iteration space.
struct KernelPlan {
  /// The `fusion.node` or `fusion.fused` op.
  Operation *op = nullptr;
  /// Inductor's name of the node (`op0_op1_op3` for a group).
  std::string name;
  /// Rows (Inductor's numel) and elements per row (rnumel; 1 when no
  /// member reduces): the static values, kSymbolicSize when symbolic.
  int64_t numel = 1;
  int64_t rnumel = 1;
  /// The same as expressions in the graph's size symbols.
  AffineExpr numelExpr, rnumelExpr;
  /// The graph's size symbols and their hints (kSymbolicSize where none is
  /// known).
  unsigned numSizeSymbols = 0;
  SmallVector<int64_t> sizeHints;
  bool isReduction = false;
  SmallVector<MemberPlan> members;

  /// The flat index of every load, store and index_expr, as an expression
  /// of d0 = x, d1 = r and the op's indirect indices (symbols).
  DenseMap<Operation *, AffineExpr> indexExprs;
  /// Buffers produced and read inside the group: the store producing each.
  DenseMap<Value, StoreOp> producers;
  /// Stores whose buffer reaches memory, in member and program order.
  SmallVector<StoreOp> memoryStores;
  /// Reductions in member and program order, and for each the first one
  /// that computes the same thing (itself when none does).
  SmallVector<ReduceOp> reduces;
  DenseMap<Operation *, ReduceOp> representative;
  /// Sorts and scans (RowOps.h) in member and program order, and for each
  /// the first one that computes the same thing.
  SmallVector<Operation *> rowOps;
  DenseMap<Operation *, Operation *> rowRepresentative;
  /// True when the scratch arrays of the sorts and scans are storages of
  /// the graph (one per result of each representative, the StoragePlan
  /// maps the result to it) holding numel x rnumel elements, instead of
  /// per-thread stack arrays of rnumel elements; see
  /// needsRowScratchStorage.
  bool rowScratchInMemory = false;
  /// Number of reductions each value of a member body waits for.
  DenseMap<Value, unsigned> depth;
  /// Reduction levels of a row (see the file comment).
  unsigned numLevels = 0;
  /// In-place stores emitted later than their depth (see getEmitDepth).
  DenseMap<Operation *, unsigned> deferredDepth;

  bool hasStaticNumel() const { return numel != kSymbolicSize; }
  bool hasStaticRNumel() const { return rnumel != kSymbolicSize; }
  /// numel and rnumel where symbols take their hints, for heuristics that
  /// need a number (block sizes, persistent reductions), as Inductor's
  /// size_hint; `fallback` when a symbol has no hint (Inductor's
  /// unbacked_symint_fallback).
  int64_t getNumelHint(int64_t fallback = 8192) const;
  int64_t getRNumelHint(int64_t fallback = 8192) const;

  const MemberPlan &getMember(Operation *opInBody) const;
  unsigned getDepth(Value value) const { return depth.lookup(value); }
  /// The level a reduction, sort or scan runs at: the depth of its inputs.
  unsigned getLevel(Operation *reduceOrRowOp) const;
  /// True for stores that run per element (x, r) of a row; false for those
  /// that run once per row (the stores of reduction nodes, which store
  /// reduced values, and the stores of per-row members).
  bool isElementStore(StoreOp store) const;
  /// The depth of a stored value and of its indirect indices.
  unsigned getStoreDepth(StoreOp store) const;
  /// The level a store is emitted at: its depth, or for an in-place update
  /// of a storage that members up to its own read, the last level, so that
  /// every read of the old contents, in whichever pass over the row it is
  /// emitted, comes first.
  unsigned getEmitDepth(StoreOp store) const {
    return std::max(getStoreDepth(store), deferredDepth.lookup(store));
  }
  bool isForwarded(LoadOp load) const {
    return producers.count(load.getBuffer());
  }

private:
  friend FailureOr<KernelPlan> planKernel(Operation *,
                                          const StoragePlan &);
  DenseMap<Operation *, unsigned> memberIndex;
};

/// True when a load, store or index_expr has indirect indices (symbols
/// bound to operands, as opposed to size symbols).
bool hasIndirectIndices(Operation *access);

/// Plans the kernel `kernel` (a `fusion.node` or `fusion.fused`) of a graph
/// whose storages are `storage`. Fails with a diagnostic on the offending
/// op when an op has no lowering, a member does not map onto the kernel's
/// iteration space, or a buffer cannot be kept in registers.
FailureOr<KernelPlan> planKernel(Operation *kernel, const StoragePlan &storage);

/// True when the sorts and scans of `plan` keep their rows in storages of
/// the graph rather than on each thread's stack: when rows have a symbolic
/// length (a stack array needs a static one), or their arrays would take
/// more than 16 KiB of a thread's stack (KernelPlan.cpp says why).
bool needsRowScratchStorage(const KernelPlan &plan);

/// Pointwise kernel `plan` with its elements taken `width` at a time, for
/// vector accesses: rows x' < numel / width of `width` elements r each
/// (element x = x' * width + r), every member running per element. Index
/// expressions keep the form f(x') + r wherever the original is contiguous
/// in x, also through `mod` and `floordiv` by multiples of `width` (a
/// broadcast `x mod 1024` stays contiguous). `plan` must be pointwise, its
/// numel static and a multiple of `width`.
KernelPlan splitPointwiseRows(const KernelPlan &plan, int64_t width);

/// Pointwise kernel `plan`, its elements seen as `rows` x `columns`
/// (x = row * columns + column), computed column by column instead: element
/// x' = column * rows + row of the result is element row * columns + column
/// of `plan`. Which element each thread takes changes, what it computes
/// does not. Accesses contiguous down a column of `plan` are contiguous in
/// x' (and then split by splitPointwiseRows into vectors where `rows` is a
/// multiple of the width). `plan` must be pointwise without sorts or scans,
/// its numel static and rows * columns.
KernelPlan permutePointwiseColumns(const KernelPlan &plan, int64_t rows,
                                   int64_t columns);

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_KERNELPLAN_H
