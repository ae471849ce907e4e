//===- Fusion.cpp - C API of the fusion dialect ---------------------------===//

#include "scheduler-opt-c/Dialect/Fusion.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"

using namespace mlir;
using namespace mlir::fusion;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Fusion, fusion, FusionDialect)

#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.capi.cpp.inc"
