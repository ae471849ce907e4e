//===- OpaqueOp.cpp - fusion.opaque ---------------------------------------===//
//
// An Inductor operation kept by name: it reads the buffers it takes whole.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

using namespace mlir;
using namespace mlir::fusion;

void OpaqueOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getOperandsMutable())
    if (isa<BufferType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand);
}

LogicalResult OpaqueOp::verify() {
  if (getOpName().empty())
    return emitOpError("needs the name of an Inductor operation");
  if (llvm::any_of(getResultTypes(), llvm::IsaPred<BufferType>))
    return emitOpError("results are values, not buffers");
  return success();
}
