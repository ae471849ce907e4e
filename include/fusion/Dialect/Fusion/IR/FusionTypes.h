//===- FusionTypes.h - Types of the fusion dialect --------------*- C++ -*-===//

#ifndef FUSION_DIALECT_FUSION_IR_FUSIONTYPES_H
#define FUSION_DIALECT_FUSION_IR_FUSIONTYPES_H

#include "fusion/Dialect/Fusion/IR/SizeExpr.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "fusion/Dialect/Fusion/IR/FusionOpsTypes.h.inc"

#endif // FUSION_DIALECT_FUSION_IR_FUSIONTYPES_H
