//===- RegisterEverything.cpp - Register all of scheduler-opt from C ------===//

#include "scheduler-opt-c/RegisterEverything.h"

#include "scheduler-opt/InitAllDialects.h"
#include "scheduler-opt/InitAllPasses.h"

#include "mlir/CAPI/IR.h"

void mlirFusionRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::fusion::registerAllDialects(*unwrap(registry));
}

void mlirFusionRegisterAllPasses(void) { mlir::fusion::registerAllPasses(); }
