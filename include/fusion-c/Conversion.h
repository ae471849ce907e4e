//===-- fusion-c/Conversion.h - C API of the fusion lowerings -----*- C -*-===//
//
// The lowerings of the fusion dialect (convert-fusion-to-gpu,
// convert-fusion-to-loops, ...), generated from Conversion/Passes.td:
// `mlirRegisterFusionConversionPasses()`,
// `mlirCreateFusionConversion<Pass>()`, `mlirRegisterFusionConversion<Pass>()`.
//
//===----------------------------------------------------------------------===//

#ifndef FUSION_C_CONVERSION_H
#define FUSION_C_CONVERSION_H

#include "mlir-c/Pass.h"

#include "fusion/Conversion/Passes.capi.h.inc"

#endif // FUSION_C_CONVERSION_H
