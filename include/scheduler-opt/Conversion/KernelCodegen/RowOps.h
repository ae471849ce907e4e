//===- RowOps.h - Operations along a whole row of a kernel ------*- C++ -*-===//
//
// Inductor's `sort` and `scan` (ir.Sort, ir.Scan) compute every element of
// a row from the other elements of that row: a sort from all of them, an
// inclusive scan from those before it. The kernel emitter runs them as a
// reduction level of their own (KernelPlan.h): one pass over the row writes
// their inputs into scratch arrays of the row's length, the functions here
// sort or scan those arrays in place, and later passes read each element's
// result back at its position. One thread holds a whole row here; the GPU
// sorts and scans most rows with several lanes instead (BlockSort.h,
// BlockScan.h), on arrays they share. The arrays are per-thread stack arrays,
// or for rows of symbolic or large length one storage of the graph per
// result holding every row (KernelPlan::rowScratchInMemory), in which a
// row's elements lie `stride` apart from its `offset`.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_ROWOPS_H
#define SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_ROWOPS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Operation.h"

#include <functional>

namespace mlir::fusion::codegen {

/// True for the ops whose results depend on the whole row: a
/// `fusion.opaque "sort"`, a `fusion.scan`, or a `fusion.opaque "scan"`
/// (an older import, without its combine function).
bool isRowOp(Operation *op);

/// Checks, located at `op` (a row op), that it can be lowered: a scan
/// needs its combine function, and both take numbers.
LogicalResult checkRowOp(Operation *op);

/// The scratch arrays of one row: one 1-D memref per value of the tuple;
/// element i of the row is element `offset + i * stride` of each.
struct RowScratch {
  SmallVector<Value> arrays;
  /// The row's length: `staticSize` when it is static, else `size`
  /// (`index`).
  int64_t staticSize = ShapedType::kDynamic;
  Value size;
  /// `index` values; null for 0 and 1 (a stack array of one row).
  Value offset, stride;
  /// For each array of a sort: true where the pass before writes each
  /// element's own position in the row (an index_expr of the reduction
  /// index: torch.sort's indices; never the key's array), so that a sort
  /// that tracks original positions may rebuild the array from them.
  SmallVector<bool> positional;

  /// The row's length as an `index` value.
  Value getSize(OpBuilder &b, Location loc) const;
  /// The position of element `i` (`index`) in the arrays.
  Value getPosition(OpBuilder &b, Location loc, Value i) const;
};

/// True (an i1) when `a` comes strictly before `c` in torch.sort's order,
/// ascending or descending: NaN above every number; booleans unsigned,
/// other integers signed.
Value emitSortBefore(OpBuilder &b, Location loc, Value a, Value c,
                     bool descending);

/// Sorts the elements of `row` (the values of the tuple moved together)
/// by the first, stably, in ascending or descending order; NaNs order
/// above every other value, as in torch.sort.
void emitRowSort(OpBuilder &b, Location loc, const RowScratch &row,
                 bool descending);

/// Emits the combine function of a scan on the previous partial `lhs` and
/// the current elements `rhs`, returning the new partial.
using ScanCombineFn = function_ref<FailureOr<SmallVector<Value>>(
    OpBuilder &, ValueRange lhs, ValueRange rhs)>;

/// Replaces the elements of `row` by their inclusive scan under `combine`,
/// first to last (nothing for a row of length 0).
LogicalResult emitRowScan(OpBuilder &b, Location loc, const RowScratch &row,
                          ScanCombineFn combine);

/// Where a scan that several lanes compute together (the GPU's block
/// scans) reads the elements of its row and puts their results: the row's
/// scratch arrays, or (a scan whose results only feed the stores of the
/// pass after it) the scan's inputs computed in place and those stores.
struct ScanRowAccess {
  /// The row's length (`index`), and its static value or kDynamic.
  Value size;
  int64_t staticSize = ShapedType::kDynamic;
  /// The tuples of `count` adjacent elements from `first` (`index`) on;
  /// positions past the row read its last element.
  std::function<FailureOr<SmallVector<SmallVector<Value>>>(
      OpBuilder &, Value first, int64_t count)>
      load;
  /// Puts the scan's results of the elements `load` read last (the same
  /// `first`); those past the row are dropped.
  std::function<LogicalResult(OpBuilder &, Value first,
                              ArrayRef<SmallVector<Value>> results)>
      store;
};

/// The access of a scan to its scratch arrays `row` (the row's arrays
/// replaced in place by the scan).
ScanRowAccess getScratchAccess(OpBuilder &b, Location loc,
                               const RowScratch &row);

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_ROWOPS_H
