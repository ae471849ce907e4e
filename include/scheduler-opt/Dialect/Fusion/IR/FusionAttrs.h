//===- FusionAttrs.h - Attributes of the fusion dialect ---------*- C++ -*-===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONATTRS_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONATTRS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "scheduler-opt/Dialect/Fusion/IR/FusionAttrs.h.inc"

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONATTRS_H
