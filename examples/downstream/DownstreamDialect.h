//===- DownstreamDialect.h - A downstream dialect over fusion types -*- C++ -*-===//

#ifndef DOWNSTREAM_DOWNSTREAMDIALECT_H
#define DOWNSTREAM_DOWNSTREAMDIALECT_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "DownstreamOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "DownstreamOps.h.inc"

#endif // DOWNSTREAM_DOWNSTREAMDIALECT_H
