//===- WriteGPUArtifacts.cpp - The pass that writes kernels to files ------===//
//
// The serialisation itself is in Target/GPU (writeGPUArtifacts).
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Conversion/Passes.h"
#include "scheduler-opt/Target/GPU/GPUArtifacts.h"

namespace mlir::fusion {
#define GEN_PASS_DEF_FUSIONWRITEGPUARTIFACTSPASS
#include "scheduler-opt/Conversion/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;

namespace {
struct FusionWriteGPUArtifactsPass final
    : fusion::impl::FusionWriteGPUArtifactsPassBase<FusionWriteGPUArtifactsPass> {
  using Base::Base;

  void runOnOperation() override {
    GPUArtifactOptions options;
    options.outputDir = outputDir;
    options.chip = chip;
    options.ptxas = ptxas;
    unsigned written = 0;
    LogicalResult result = writeGPUArtifacts(getOperation(), options, written);
    numFilesWritten += written;
    if (failed(result))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
