//===- FusionScanOps.h - Scans along the reduction loops --------*- C++ -*-===//
//
// fusion.scan and its terminator (FusionScanOps.td), apart from
// FusionOps.h: only what builds, verifies or lowers scans includes it.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONSCANOPS_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONSCANOPS_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h.inc"

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONSCANOPS_H
