//===- FusionScanOps.h - Scans along the reduction loops --------*- C++ -*-===//
//
// fusion.scan and its terminator (FusionScanOps.td), apart from
// FusionOps.h: only what builds, verifies or lowers scans includes it.
//
//===----------------------------------------------------------------------===//

#ifndef FUSION_DIALECT_FUSION_IR_FUSIONSCANOPS_H
#define FUSION_DIALECT_FUSION_IR_FUSIONSCANOPS_H

#include "fusion/Dialect/Fusion/IR/FusionDialect.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "fusion/Dialect/Fusion/IR/FusionScanOps.h.inc"

#endif // FUSION_DIALECT_FUSION_IR_FUSIONSCANOPS_H
