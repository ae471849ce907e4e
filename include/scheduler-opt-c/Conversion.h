//===-- scheduler-opt-c/Conversion.h - C API of the fusion lowerings -----*- C -*-===//
//
// The lowerings of the fusion dialect (convert-fusion-to-gpu,
// convert-fusion-to-loops, ...), generated from Conversion/Passes.td:
// `mlirRegisterFusionConversionPasses()`,
// `mlirCreateFusionConversion<Pass>()`, `mlirRegisterFusionConversion<Pass>()`.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_C_CONVERSION_H
#define SCHEDULER_OPT_C_CONVERSION_H

#include "mlir-c/Pass.h"

#include "scheduler-opt/Conversion/Passes.capi.h.inc"

#endif // SCHEDULER_OPT_C_CONVERSION_H
