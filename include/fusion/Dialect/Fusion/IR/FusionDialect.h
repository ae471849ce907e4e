//===- FusionDialect.h - The fusion dialect ---------------------*- C++ -*-===//

#ifndef FUSION_DIALECT_FUSION_IR_FUSIONDIALECT_H
#define FUSION_DIALECT_FUSION_IR_FUSIONDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"

#include "fusion/Dialect/Fusion/IR/FusionOpsDialect.h.inc"

#endif // FUSION_DIALECT_FUSION_IR_FUSIONDIALECT_H
