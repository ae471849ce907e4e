//===- FusionInterfaces.h - Interfaces of the fusion dialect ----*- C++ -*-===//

#ifndef FUSION_DIALECT_FUSION_IR_FUSIONINTERFACES_H
#define FUSION_DIALECT_FUSION_IR_FUSIONINTERFACES_H

#include "fusion/Dialect/Fusion/IR/FusionTypes.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpDefinition.h"

#include "fusion/Dialect/Fusion/IR/FusionInterfaces.h.inc"

#endif // FUSION_DIALECT_FUSION_IR_FUSIONINTERFACES_H
