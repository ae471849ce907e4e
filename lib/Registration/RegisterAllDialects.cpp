//===- RegisterAllDialects.cpp - scheduler-opt's dialects -----------------===//

#include "fusion/InitAllDialects.h"

#include "fusion/Dialect/Fusion/IR/FusionDialect.h"
#include "fusion/Pipelines/LoweringPipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::fusion::registerAllDialects(DialectRegistry &registry) {
  registry.insert<FusionDialect, arith::ArithDialect, func::FuncDialect,
                  math::MathDialect>();
  registerLoweringDialects(registry);
}
