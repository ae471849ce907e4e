//===- InductorScalarOps.h - Inductor's ops that need more than a clone -*- C++ -*-===//
//
// The scalar operations of a fusion.node body that the kernel emitter does
// not copy as they are: `fusion.opaque` (Inductor's operations kept by
// name: special functions, random numbers, frexp, device asserts, ...) and
// the upstream ops that a target has no lowering for (`arith.remf` on the
// GPU, `math.ipowi` and `math.fpowi` of a 64-bit exponent on both). Each
// is emitted following PyTorch's
// definition (Triton's for the GPU-facing semantics: random numbers are
// `tl.randn` and Inductor's `randint64` on both targets), or is reported
// at its location when no target lowers it.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_INDUCTORSCALAROPS_H
#define SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_INDUCTORSCALAROPS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace mlir::fusion::codegen {

/// True when `op` is emitted by emitInductorScalarOp rather than copied.
bool isInductorScalarOp(Operation *op);

/// Checks, located at `op`, that some target lowers `op` (a fusion.opaque
/// with a known name and result count). Ops that are not fusion.opaque
/// succeed.
LogicalResult checkInductorScalarOp(Operation *op);

/// Emits `op` on `operands` (its operands, already emitted) and returns
/// the values of its results. The target is the GPU when the nearest
/// symbol table around the insertion point is a gpu.module. Fails, located
/// at `op`, when the target has no lowering for it.
FailureOr<SmallVector<Value>> emitInductorScalarOp(OpBuilder &b, Operation *op,
                                                   ValueRange operands);

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_INDUCTORSCALAROPS_H
