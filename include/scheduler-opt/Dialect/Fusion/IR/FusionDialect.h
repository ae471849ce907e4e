//===- FusionDialect.h - The fusion dialect ---------------------*- C++ -*-===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONDIALECT_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionOpsDialect.h.inc"

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONDIALECT_H
