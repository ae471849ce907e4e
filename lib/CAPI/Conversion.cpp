//===- Conversion.cpp - C API of the fusion lowerings ---------------------===//

#include "scheduler-opt-c/Conversion.h"

#include "scheduler-opt/Conversion/Passes.h"

#include "mlir/CAPI/Pass.h"

using namespace mlir;
using namespace mlir::fusion;

#include "scheduler-opt/Conversion/Passes.capi.cpp.inc"
