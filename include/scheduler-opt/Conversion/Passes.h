//===- Passes.h - Lowerings of the fusion dialect ---------------*- C++ -*-===//

#ifndef SCHEDULER_OPT_CONVERSION_PASSES_H
#define SCHEDULER_OPT_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir::fusion {

#define GEN_PASS_DECL
#include "scheduler-opt/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "scheduler-opt/Conversion/Passes.h.inc"

} // namespace mlir::fusion

#endif // SCHEDULER_OPT_CONVERSION_PASSES_H
