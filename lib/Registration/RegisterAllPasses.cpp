//===- RegisterAllPasses.cpp - scheduler-opt's passes and pipelines -------===//

#include "scheduler-opt/InitAllPasses.h"

#include "scheduler-opt/Conversion/Passes.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"
#include "scheduler-opt/Pipelines/LoweringPipelines.h"
#include "scheduler-opt/Pipelines/Pipelines.h"

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
