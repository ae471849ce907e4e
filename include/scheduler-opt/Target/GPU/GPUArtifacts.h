//===- GPUArtifacts.h - Kernels and launch manifests to files ---*- C++ -*-===//
//
// Serialisation of a lowered module: each graph's kernels (the object of its
// `gpu.binary`, PTX or a binary) and its launch manifest (the
// `fusion.launch_manifests` entry, checked against the manifest's schema)
// written to files, PTX assembled by `ptxas` when one is found. The pass
// `fusion-write-gpu-artifacts` runs this; compilers that drive the lowering
// themselves call it directly.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_TARGET_GPU_GPUARTIFACTS_H
#define SCHEDULER_OPT_TARGET_GPU_GPUARTIFACTS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace fusion {

/// Where a CUDA toolkit may be installed, most preferred first: CUDA_HOME,
/// CUDA_PATH, CUDA_ROOT when set, then /usr/local/cuda.
SmallVector<std::string> getCudaToolkitRoots();

/// The ptxas to use: `requested` unless empty ("none": no ptxas), else the
/// one on PATH or under the toolkit roots; empty when there is none.
std::string findPtxas(StringRef requested);

struct GPUArtifactOptions {
  /// Directory the files are written to (created if missing).
  std::string outputDir = ".";
  /// Architecture ptxas assembles PTX for.
  std::string chip = "sm_90";
  /// ptxas to assemble PTX with (see findPtxas).
  std::string ptxas;
};

/// Writes `<outputDir>/<graph>.ptx` (or `.cubin` / `.fatbin`, the object of
/// `gpu.binary @<graph>_kernels`), `<graph>.cubin` when the object is PTX and
/// ptxas is found, and `<graph>.json`, the launch manifest, for every graph
/// of `module`'s `fusion.launch_manifests`. Fails with a located error when
/// the module was not lowered that far, a file cannot be written, ptxas
/// fails or a manifest does not follow its schema. Counts the files written
/// in `numFilesWritten`.
LogicalResult writeGPUArtifacts(ModuleOp module,
                                const GPUArtifactOptions &options,
                                unsigned &numFilesWritten);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_TARGET_GPU_GPUARTIFACTS_H
