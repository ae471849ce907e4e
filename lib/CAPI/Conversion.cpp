//===- Conversion.cpp - C API of the fusion lowerings ---------------------===//

#include "fusion-c/Conversion.h"

#include "fusion/Conversion/Passes.h"

#include "mlir/CAPI/Pass.h"

using namespace mlir;
using namespace mlir::fusion;

#include "fusion/Conversion/Passes.capi.cpp.inc"
