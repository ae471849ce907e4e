//===-- scheduler-opt-c/RegisterEverything.h - Register all of scheduler-opt -*- C -*-===//
//
// The C counterparts of scheduler-opt/InitAllDialects.h and scheduler-opt/InitAllPasses.h,
// as mlir-c/RegisterEverything.h is for MLIR's own.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_C_REGISTEREVERYTHING_H
#define SCHEDULER_OPT_C_REGISTEREVERYTHING_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Appends what scheduler-opt registers to `registry`: the fusion dialect,
/// the upstream dialects its graphs hold and its lowerings produce, and the
/// interfaces those lowerings need (mlir::fusion::registerAllDialects).
MLIR_CAPI_EXPORTED void mlirFusionRegisterAllDialects(MlirDialectRegistry registry);

/// Registers every fusion pass, conversion and pipeline (fusion-schedule,
/// fusion-to-ptx, fusion-to-cpu, fusion-loops-to-llvm), so that
/// `mlirParsePassPipeline` accepts them. Calling it again does nothing.
MLIR_CAPI_EXPORTED void mlirFusionRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // SCHEDULER_OPT_C_REGISTEREVERYTHING_H
