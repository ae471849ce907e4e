//===-- scheduler-opt-c/Dialect/Fusion.h - C API of the fusion dialect ---*- C -*-===//
//
// The fusion dialect's handle and its scheduling passes, following the
// mlir-c conventions (mlir-c/Dialect/*.h): register or load the dialect
// through `mlirGetDialectHandle__fusion__()`; register the passes with
// `mlirRegisterFusionPasses()` or create them one by one
// (`mlirCreateFusionTopologicalSortPass()`, ...) for
// `mlirOpPassManagerAddOwnedPass`.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_C_DIALECT_FUSION_H
#define SCHEDULER_OPT_C_DIALECT_FUSION_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Fusion, fusion);

#ifdef __cplusplus
}
#endif

// mlirRegisterFusionPasses(), mlirCreateFusion<Pass>(),
// mlirRegisterFusion<Pass>(), generated from Transforms/Passes.td.
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.capi.h.inc"

#endif // SCHEDULER_OPT_C_DIALECT_FUSION_H
