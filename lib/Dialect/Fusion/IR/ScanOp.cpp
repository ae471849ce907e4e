//===- ScanOp.cpp - fusion.scan -------------------------------------------===//
//
// An inclusive scan along the reduction loops; its region is the combine
// function, or empty when the dump did not give it.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.h"

using namespace mlir;
using namespace mlir::fusion;

LogicalResult ScanOp::verify() {
  if (getInputs().empty())
    return emitOpError("scans at least one value");
  if (getInputs().getTypes() != getResultTypes())
    return emitOpError("results must have the types of the inputs");
  if (llvm::any_of(getInputs().getTypes(), llvm::IsaPred<BufferType>))
    return emitOpError("scans values, not buffers");
  if (!hasCombineFunction())
    return success();
  Block &block = getCombine().front();
  SmallVector<Type> expected(getInputs().getTypes());
  llvm::append_range(expected, getInputs().getTypes());
  if (TypeRange(block.getArgumentTypes()) != TypeRange(expected))
    return emitOpError("combine function must take the partial tuple and "
                       "the current tuple (")
           << expected.size() << " arguments of the inputs' types)";
  auto yield = cast<ScanYieldOp>(block.getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError("must return a tuple of the scan's types");
  return success();
}

#define GET_OP_CLASSES
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.cpp.inc"
