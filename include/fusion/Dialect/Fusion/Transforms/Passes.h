//===- Passes.h - Scheduling passes of the fusion dialect -------*- C++ -*-===//
//
// Declares the passes of include/fusion/Dialect/Fusion/Transforms/Passes.td:
// `createTopologicalSortPass()`, `createDeadNodeEliminationPass()`,
// `createReorderLoopsPass(options)`, and `registerFusionPasses()`.
//
//===----------------------------------------------------------------------===//

#ifndef FUSION_DIALECT_FUSION_TRANSFORMS_PASSES_H
#define FUSION_DIALECT_FUSION_TRANSFORMS_PASSES_H

#include "fusion/Dialect/Fusion/IR/FusionOps.h"
#include "fusion/Dialect/Fusion/Transforms/FusionPolicies.h"

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir {
namespace fusion {

#define GEN_PASS_DECL
#include "fusion/Dialect/Fusion/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fusion/Dialect/Fusion/Transforms/Passes.h.inc"

} // namespace fusion
} // namespace mlir

#endif // FUSION_DIALECT_FUSION_TRANSFORMS_PASSES_H
