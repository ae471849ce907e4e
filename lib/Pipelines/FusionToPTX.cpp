//===- FusionToPTX.cpp - fusion graphs to PTX -----------------------------===//
//
// The NVVM part follows upstream's gpu-lower-to-nvvm-pipeline, with kernels
// taking bare pointers (what a runtime without MLIR launches them with) and
// libdevice linked in for the math functions.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Pipelines/LoweringPipelines.h"
#include "CacheHints.h"
#include "PredicateStores.h"
#include "scheduler-opt/Conversion/Passes.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"
#include "scheduler-opt/Pipelines/Pipelines.h"
#include "scheduler-opt/Target/GPU/GPUArtifacts.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

std::string fusion::findLibdevice() {
  for (const std::string &root : getCudaToolkitRoots()) {
    SmallString<128> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(path))
      return std::string(path);
  }
  return "";
}

/// The compute capability of a chip name (`sm_90` and `sm_90a` give 90);
/// 0 for a name not of that form.
static int getChipVersion(StringRef chip) {
  int version = 0;
  if (!chip.consume_front("sm_"))
    return 0;
  chip = chip.take_while(llvm::isDigit);
  return chip.getAsInteger(10, version) ? 0 : version;
}

/// The PTX ISA version that target features name (`+ptx81` gives 81; the
/// last one named wins, as in LLVM), or 0 when they name none.
static int getPTXVersion(StringRef features) {
  int version = 0;
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    part = part.trim();
    int v = 0;
    if (part.consume_front("+ptx") && !part.getAsInteger(10, v))
      version = v;
  }
  return version;
}

void fusion::buildFusionToPTXPipeline(OpPassManager &pm,
                                      const FusionToPTXOptions &options) {
  // Inductor's scheduling order (topological sort, dead-node elimination,
  // loop order, and fusion once it exists).
  if (options.schedule) {
    FusionScheduleOptions schedule;
    schedule.comboKernels = options.comboKernels;
    schedule.comboMaxPartBytes = options.comboMaxPartBytes;
    buildFusionSchedulePipeline(pm, schedule);
  }

  ConvertFusionToGPUPassOptions gpuOptions;
  gpuOptions.maxPersistentElements = options.maxPersistentElements;
  gpuOptions.maxReductionBlockSize = options.maxReductionBlockSize;
  gpuOptions.warpReductionMaxSize = options.warpReductionMaxSize;
  gpuOptions.elementsPerThread = options.elementsPerThread;
  gpuOptions.pointwiseBlockSize = options.pointwiseBlockSize;
  gpuOptions.pointwiseVectorWidth = options.pointwiseVectorWidth;
  gpuOptions.reductionLanes = options.reductionLanes;
  gpuOptions.reductionRowsPerBlock = options.reductionRowsPerBlock;
  gpuOptions.approxExp = options.approxExp;
  gpuOptions.reductionTiles = options.reductionTiles;
  gpuOptions.transposeTiles = options.transposeTiles;
  gpuOptions.f32Division = options.f32Division;
  gpuOptions.loopUnroll = options.loopUnroll;
  gpuOptions.reductionRowsPerThread = options.reductionRowsPerThread;
  gpuOptions.reductionSplit = options.reductionSplit;
  gpuOptions.numSMs = options.numSMs;
  // Thread block clusters exist from sm_90 on.
  gpuOptions.reductionCluster =
      getChipVersion(options.chip) >= 90 ? options.reductionCluster : 0;
  gpuOptions.earlyLoads = options.earlyLoads;
  gpuOptions.blockScans = options.blockScans;
  gpuOptions.scanElementsPerThread = options.scanElementsPerThread;
  gpuOptions.blockSorts = options.blockSorts;
  gpuOptions.sortElementsPerLane = options.sortElementsPerLane;
  gpuOptions.registerSortRow = options.registerSortRow;
  // red.global.add.v4.f32 needs sm_90 and PTX 8.1.
  gpuOptions.vectorAtomics = options.vectorAtomics &&
                             getChipVersion(options.chip) >= 90 &&
                             getPTXVersion(options.features) >= 81;
  gpuOptions.kernelConfigs = options.kernelConfigs;
  // Concatenation inputs into their storage: the lowering needs
  // storage-relative indices everywhere.
  pm.nest<GraphOp>().addPass(createPlaceConcatInputsPass());
  pm.addPass(createConvertFusionToGPUPass(gpuOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Host and device: structured control flow and standard ops to LLVM.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  std::string libdevice = options.libdevice;
  if (libdevice.empty())
    libdevice = findLibdevice();
  if (!libdevice.empty() && libdevice != "none")
    target.linkLibs.push_back(libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Kernels: gpu, math (libdevice calls) and memref (bare pointers) to NVVM.
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  pm.addNestedPass<gpu::GPUModuleOp>(createStripDebugInfoPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(nvvm));
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  if (options.predicateStores)
    pm.addNestedPass<gpu::GPUModuleOp>(
        createPTXPredicateStoresPass(options.cacheHints));
  if (options.cacheHints != CacheHints::None)
    pm.addNestedPass<gpu::GPUModuleOp>(
        createPTXCacheHintsPass(options.cacheHints));

  // Host: launches to the GPU runtime, kernels to PTX (or cubin).
  GpuToLLVMConversionPassOptions host;
  host.kernelBarePtrCallConv = true;
  pm.addPass(createGpuToLLVMConversionPass(host));
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  if (!options.outputDir.empty()) {
    FusionWriteGPUArtifactsPassOptions write;
    write.outputDir = options.outputDir;
    write.chip = options.chip;
    if (!options.toolkit.empty())
      write.ptxas = options.toolkit + "/bin/ptxas";
    pm.addPass(createFusionWriteGPUArtifactsPass(write));
  }
}

void fusion::registerLoweringPipelines() {
  PassPipelineRegistration<FusionToPTXOptions>(
      "fusion-to-ptx",
      "Schedule fusion graphs, lower them to GPU kernels and on to PTX (and "
      "write them and their launch manifests with output-dir)",
      buildFusionToPTXPipeline);
  PassPipelineRegistration<FusionToCPUOptions>(
      "fusion-to-cpu",
      "Schedule fusion graphs, lower them to loops and on to the LLVM dialect "
      "for the JIT",
      buildFusionToCPUPipeline);
  PassPipelineRegistration<>(
      "fusion-loops-to-llvm",
      "Lower the output of convert-fusion-to-loops to the LLVM dialect",
      buildFusionLoopsToLLVMPipeline);
}

void fusion::registerLoweringDialects(DialectRegistry &registry) {
  registry.insert<cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  LLVM::LLVMDialect, memref::MemRefDialect, NVVM::NVVMDialect,
                  scf::SCFDialect, vector::VectorDialect>();
  // The to-LLVM patterns the conversions find through dialect interfaces
  // (the GPU one maps #gpu.address_space to NVVM address spaces).
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}
