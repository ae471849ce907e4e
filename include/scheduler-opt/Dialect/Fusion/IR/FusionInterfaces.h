//===- FusionInterfaces.h - Interfaces of the fusion dialect ----*- C++ -*-===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONINTERFACES_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONINTERFACES_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpDefinition.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionInterfaces.h.inc"

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONINTERFACES_H
