//===- RegisterEverything.cpp - Register all of scheduler-opt from C ------===//

#include "fusion-c/RegisterEverything.h"

#include "fusion/InitAllDialects.h"
#include "fusion/InitAllPasses.h"

#include "mlir/CAPI/IR.h"

void mlirFusionRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::fusion::registerAllDialects(*unwrap(registry));
}

void mlirFusionRegisterAllPasses(void) { mlir::fusion::registerAllPasses(); }
