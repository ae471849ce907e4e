//===- FusionToCPU.cpp - fusion graphs to LLVM dialect for the CPU JIT ----===//

#include "scheduler-opt/Conversion/Passes.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"
#include "scheduler-opt/Pipelines/LoweringPipelines.h"
#include "scheduler-opt/Pipelines/Pipelines.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void fusion::buildFusionLoopsToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createSCFToControlFlowPass());
  // LLVM intrinsics where there are some, libm calls (erff, tanhf...) for
  // the rest.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void fusion::buildFusionToCPUPipeline(OpPassManager &pm,
                                      const FusionToCPUOptions &options) {
  if (options.schedule) {
    FusionScheduleOptions schedule;
    schedule.comboKernels = options.comboKernels;
    schedule.comboMaxPartBytes = options.comboMaxPartBytes;
    buildFusionSchedulePipeline(pm, schedule);
  }
  // Concatenation inputs into their storage: the lowering needs
  // storage-relative indices everywhere.
  pm.nest<GraphOp>().addPass(createPlaceConcatInputsPass());
  pm.addPass(createConvertFusionToLoopsPass());
  buildFusionLoopsToLLVMPipeline(pm);
}
