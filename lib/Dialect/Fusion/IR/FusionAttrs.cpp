//===- FusionAttrs.cpp - Attributes of the fusion dialect -----------------===//

#include "fusion/Dialect/Fusion/IR/FusionAttrs.h"
#include "fusion/Dialect/Fusion/IR/FusionDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fusion;

#include "fusion/Dialect/Fusion/IR/FusionEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "fusion/Dialect/Fusion/IR/FusionAttrs.cpp.inc"

void FusionDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fusion/Dialect/Fusion/IR/FusionAttrs.cpp.inc"
      >();
}

LogicalResult
MemoryDepAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringAttr name, AffineMap index, ArrayRef<int64_t> sizes,
                      StoreModeAttr mode) {
  if (!name || name.getValue().empty())
    return emitError() << "memory dependence needs a buffer name";
  if (index.getNumResults() != 1)
    return emitError() << "memory dependence index must have one result, got "
                       << index.getNumResults();
  if (index.getNumDims() != sizes.size())
    return emitError() << "memory dependence index has " << index.getNumDims()
                       << " dimensions but " << sizes.size() << " sizes";
  return success();
}

int64_t MemoryDepAttr::getNumAccesses() const {
  int64_t n = 1;
  for (int64_t size : getSizes())
    n *= size;
  return n;
}
