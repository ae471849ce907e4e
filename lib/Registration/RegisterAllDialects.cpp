//===- RegisterAllDialects.cpp - scheduler-opt's dialects -----------------===//

#include "scheduler-opt/InitAllDialects.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Pipelines/LoweringPipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::fusion::registerAllDialects(DialectRegistry &registry) {
  registry.insert<FusionDialect, arith::ArithDialect, func::FuncDialect,
                  math::MathDialect>();
  registerLoweringDialects(registry);
}
