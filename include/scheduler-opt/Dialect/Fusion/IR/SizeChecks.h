//===- SizeChecks.h - Sizes that int64 can represent ------------*- C++ -*-===//
//
// The verifier's guarantee that every size a pass or a lowering computes
// from verified IR fits in int64: element counts, storage extents and byte
// sizes of buffers, iteration counts of nodes, the values an index
// expression takes over its loops, and the bytes of all a graph's buffers
// together (so that sums of buffer sizes, such as peak memory, fit too).
// Each check computes in checked arithmetic and reports where a value
// cannot be represented, instead of letting it wrap (docs/Reliability.md).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_SIZECHECKS_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_SIZECHECKS_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"

#include <cstdint>
#include <optional>

namespace mlir {
class Operation;
namespace fusion {

/// Bytes of a buffer with this static layout (the extent from its first to
/// its last element, times the element size); nullopt when a step of the
/// computation leaves int64. Sizes, strides and offset are non-negative.
std::optional<int64_t> getCheckedSizeInBytes(ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> strides,
                                             int64_t offset, Type elementType);

/// Fails, with an error from `emitError`, when a buffer with this static
/// layout takes more bytes than int64 counts.
LogicalResult verifyBufferSize(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> strides, int64_t offset,
                               Type elementType);

/// Fails, with an error on `op`, when the product of the static entries of
/// `loopSizes` (the iterations of a node, pointwise and reduction loops
/// together; an entry < 1 is a symbolic size, known only at run time) does
/// not fit in int64.
LogicalResult verifyIterationCount(Operation *op, ArrayRef<int64_t> loopSizes);

/// Fails, with an error on `op`, when the single result of `map` can leave
/// int64 (in a result or a subexpression) while dimension d runs over
/// [0, dimSizes[d]). A dimension of unknown size (a value < 1) and the
/// map's symbols (indirect indices, known only at run time) are unbounded:
/// only subexpressions without them are checked.
LogicalResult verifyIndexRange(Operation *op, AffineMap map,
                               ArrayRef<int64_t> dimSizes);

namespace detail {
/// Adds the bytes of a buffer type with a static layout to `total`; false
/// when they, or the sum, do not fit in int64.
bool addStaticBufferBytes(BufferType type, int64_t &total);

/// The error of the graph verifier's total bytes (GraphOpsWalk.h).
LogicalResult emitTotalBytesError(Operation *graph);

} // namespace detail

/// Appends the size hints to `diag` as "s0 = 4, s1 = ?" (? for a symbol
/// without a hint).
void printSizeHints(InFlightDiagnostic &diag, ArrayRef<int64_t> hints);

/// `a + b` and `a * b` for non-negative heuristic quantities (fusion
/// scores): INT64_MAX when the exact value does not fit.
int64_t saturatingAdd(int64_t a, int64_t b);
int64_t saturatingMul(int64_t a, int64_t b);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_SIZECHECKS_H
