//===- Fusion.cpp - C API of the fusion dialect ---------------------------===//

#include "fusion-c/Dialect/Fusion.h"

#include "fusion/Dialect/Fusion/IR/FusionDialect.h"
#include "fusion/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"

using namespace mlir;
using namespace mlir::fusion;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Fusion, fusion, FusionDialect)

#include "fusion/Dialect/Fusion/Transforms/Passes.capi.cpp.inc"
