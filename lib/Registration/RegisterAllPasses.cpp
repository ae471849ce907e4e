//===- RegisterAllPasses.cpp - scheduler-opt's passes and pipelines -------===//

#include "fusion/InitAllPasses.h"

#include "fusion/Conversion/Passes.h"
#include "fusion/Dialect/Fusion/Transforms/Passes.h"
#include "fusion/Pipelines/LoweringPipelines.h"
#include "fusion/Pipelines/Pipelines.h"

void mlir::fusion::registerAllPasses() {
  // The registries are global and a second registration of a pipeline name
  // is an error in MLIR, so every compiler that links this library shares
  // one registration.
  static bool registered = [] {
    registerFusionPasses();
    registerFusionConversionPasses();
    registerFusionPipelines();
    registerLoweringPipelines();
    return true;
  }();
  (void)registered;
}
