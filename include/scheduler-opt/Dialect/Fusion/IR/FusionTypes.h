//===- FusionTypes.h - Types of the fusion dialect --------------*- C++ -*-===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONTYPES_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONTYPES_H

#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "scheduler-opt/Dialect/Fusion/IR/FusionOpsTypes.h.inc"

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONTYPES_H
