//===- FusionOps.h - Operations of the fusion dialect -----------*- C++ -*-===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONOPS_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONOPS_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionAttrs.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionInterfaces.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h.inc"

namespace mlir {
namespace fusion {

/// Number of indirect symbols of an index map with operands `indices`: the
/// leading symbols, bound to operands. The symbols after them are the
/// graph's size symbols (symbol `k + i` is size symbol `i`).
unsigned getNumIndirectSymbols(AffineMap map, ValueRange indices);

/// The value of the index expression `expr` with dimension `i` set to
/// `dims[i]` and symbol `j` to `symbols[j]` (floor division, non-negative
/// modulo, as the dialect's indices mean them). Returns nullopt for a
/// dimension or symbol without a value, a division or modulo by a
/// non-positive value, or an overflow.
std::optional<int64_t> evaluateAffineExpr(AffineExpr expr,
                                          ArrayRef<int64_t> dims,
                                          ArrayRef<int64_t> symbols = {});

/// evaluateAffineExpr of `expr` at several points in one walk of it:
/// dimension `i` is `dims[i * n + p]` at point `p`, n = `values.size()`.
/// Writes the value at point `p` to `values[p]`; false when
/// evaluateAffineExpr gives nullopt at some point.
bool evaluateAffineExprAtPoints(AffineExpr expr, ArrayRef<int64_t> dims,
                                ArrayRef<int64_t> symbols,
                                MutableArrayRef<int64_t> values);

/// Whether `op` is a container scheduler node (`fusion.fused`,
/// `fusion.foreach`, `fusion.group`: Fusion_ContainerOp in FusionOps.td),
/// whose members are the ops of its body.
inline bool isContainerNode(Operation *op) {
  return isa<FusedOp, ForeachOp, GroupOp>(op);
}
inline bool isContainerNode(Operation &op) { return isContainerNode(&op); }

/// The member result that `value` re-exports when it is a result of a
/// `fusion.fused`, `fusion.foreach` or `fusion.group` (what the container's
/// terminator yields for it); `value` itself otherwise.
Value getMemberResult(Value value);

/// Follows container results down to the result of the leaf scheduler node
/// (or extern, nop) that they re-export.
Value lookThroughContainers(Value value);

namespace detail {
// What the scheduler node ops' generated methods (FusionOps.td) call.

/// Names the results of a leaf node after its `buffer_names`.
void setBufferResultNames(Operation *op, ArrayAttr names,
                          OpAsmSetValueNameFn setNameFn);

/// A container's members are the ops of its body before the terminator,
/// which yields every member result in order.
/// The member names joined by `_` (Inductor's FusedSchedulerNode name).
std::string getContainerNodeName(Operation *container);
/// The member producing result `resultNumber`, and its result number there.
std::pair<SchedulerNodeOpInterface, unsigned>
getContainerMember(Operation *container, unsigned resultNumber);
bool containerHasSideEffects(Operation *container);
void getContainerLeafNodes(Operation *container,
                           SmallVectorImpl<SchedulerNodeOpInterface> &leaves);
/// Names the container's results after the members' buffers.
void setContainerResultNames(Operation *container,
                             OpAsmSetValueNameFn setNameFn);
} // namespace detail

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONOPS_H
