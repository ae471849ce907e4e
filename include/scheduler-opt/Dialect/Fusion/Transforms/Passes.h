//===- Passes.h - Scheduling passes of the fusion dialect -------*- C++ -*-===//
//
// Declares the passes of include/scheduler-opt/Dialect/Fusion/Transforms/Passes.td:
// `createTopologicalSortPass()`, `createDeadNodeEliminationPass()`,
// `createReorderLoopsPass(options)`, and `registerFusionPasses()`.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_PASSES_H
#define SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_PASSES_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/FusionPolicies.h"

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir {
namespace fusion {

#define GEN_PASS_DECL
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h.inc"

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_PASSES_H
