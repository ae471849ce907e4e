//===- DownstreamDialect.cpp - A downstream dialect over fusion types -----===//

#include "DownstreamDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

#include "DownstreamOpsDialect.cpp.inc"

void downstream::DownstreamDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "DownstreamOps.cpp.inc"
      >();
}

Operation *downstream::DownstreamDialect::materializeConstant(
    OpBuilder &builder, Attribute value, Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

/// Folds to the element count the fusion type's C++ API computes, when the
/// shape is static (the count of a shape with size symbols has no value).
OpFoldResult downstream::NumElementsOp::fold(FoldAdaptor) {
  std::optional<int64_t> numElements = getBuffer().getType().getNumElements();
  if (!numElements)
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), *numElements);
}

#define GET_OP_CLASSES
#include "DownstreamOps.cpp.inc"
