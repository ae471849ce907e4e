//===- LoweringPipelines.h - From fusion graphs to PTX and CPU code -*- C++ -*-===//
//
// Registered pipelines that lower scheduled fusion graphs:
//
//   --fusion-to-ptx   --fusion-schedule, convert-fusion-to-gpu, then the
//                     NVVM lowering of the kernels (libdevice linked in
//                     when found) and of the host code, to PTX text for `chip` (or cubin / fatbin
//                     when `format` says so); with `output-dir`, also
//                     writes <graph>.ptx, <graph>.cubin when ptxas is
//                     found, and the launch manifest <graph>.json there.
//   --fusion-to-cpu   --fusion-schedule, convert-fusion-to-loops, then the
//                     LLVM dialect the LLVM JIT (mlir-runner) runs.
//   --fusion-loops-to-llvm
//                     the second half of --fusion-to-cpu, for modules that
//                     gain a main function in between (the JIT tests).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_PIPELINES_LOWERINGPIPELINES_H
#define SCHEDULER_OPT_PIPELINES_LOWERINGPIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::fusion {

/// Which of a kernel's streamed accesses --fusion-to-ptx writes with PTX
/// cache hints (`cache-hints`; docs/Lowering.md, "Cache hints").
enum class CacheHints {
  /// None: the PTX NVPTX writes.
  None,
  /// A row's streamed loads skip L1 (ld.global.nc.L1::no_allocate).
  Loads,
  /// Vector stores are evict-first (st.global.cs).
  Stores,
  /// Both.
  All,
};

struct FusionToPTXOptions : public PassPipelineOptions<FusionToPTXOptions> {
  PassOptions::Option<bool> schedule{
      *this, "schedule",
      llvm::cl::desc("Run the --fusion-schedule pipeline first"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> comboKernels{
      *this, "combo-kernels",
      llvm::cl::desc("--fusion-schedule's combo-kernels: combine independent "
                     "kernels into foreach (combo) kernels"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> comboMaxPartBytes{
      *this, "combo-max-part-bytes",
      llvm::cl::desc("--fusion-schedule's combo-max-part-bytes: only kernels "
                     "whose buffers take at most this many bytes join combo "
                     "kernels (0: any)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("GPU architecture to compile for"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA version and other target features (sm_90 "
                     "needs at least +ptx80, its vector atomics +ptx81)"),
      llvm::cl::init("+ptx81")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary produces: isa (PTX text), "
                     "bin (cubin, needs ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level of kernels"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("libdevice bitcode for math functions (default: "
                     "nvvm/libdevice/libdevice.10.bc under CUDA_HOME, "
                     "CUDA_PATH or /usr/local/cuda when present; 'none' to "
                     "leave __nv_* functions unresolved)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit directory whose bin/ptxas assembles "
                     "cubins (default: ptxas on PATH, or under CUDA_HOME, "
                     "CUDA_PATH or /usr/local/cuda)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> outputDir{
      *this, "output-dir",
      llvm::cl::desc("Write <graph>.ptx (or .cubin) and <graph>.json here"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> maxPersistentElements{
      *this, "max-persistent-elements",
      llvm::cl::desc("convert-fusion-to-gpu's max-persistent-elements"),
      llvm::cl::init(16)};
  PassOptions::Option<int64_t> elementsPerThread{
      *this, "elements-per-thread",
      llvm::cl::desc("convert-fusion-to-gpu's elements-per-thread"),
      llvm::cl::init(8)};
  PassOptions::Option<int64_t> warpReductionMaxSize{
      *this, "warp-reduction-max-size",
      llvm::cl::desc("convert-fusion-to-gpu's warp-reduction-max-size"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> maxReductionBlockSize{
      *this, "max-reduction-block-size",
      llvm::cl::desc("convert-fusion-to-gpu's max-reduction-block-size"),
      llvm::cl::init(512)};
  PassOptions::Option<int64_t> pointwiseBlockSize{
      *this, "pointwise-block-size",
      llvm::cl::desc("convert-fusion-to-gpu's pointwise-block-size"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> pointwiseVectorWidth{
      *this, "pointwise-vector-width",
      llvm::cl::desc("convert-fusion-to-gpu's pointwise-vector-width"),
      llvm::cl::init(4)};
  PassOptions::Option<int64_t> reductionLanes{
      *this, "reduction-lanes",
      llvm::cl::desc("convert-fusion-to-gpu's reduction-lanes"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> reductionRowsPerBlock{
      *this, "reduction-rows-per-block",
      llvm::cl::desc("convert-fusion-to-gpu's reduction-rows-per-block"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> reductionRowsPerThread{
      *this, "reduction-rows-per-thread",
      llvm::cl::desc("convert-fusion-to-gpu's reduction-rows-per-thread"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> reductionSplit{
      *this, "reduction-split",
      llvm::cl::desc("convert-fusion-to-gpu's reduction-split"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> reductionCluster{
      *this, "reduction-cluster",
      llvm::cl::desc("convert-fusion-to-gpu's reduction-cluster, for chips "
                     "of sm_90 and later (older chips have no clusters: "
                     "0 there)"),
      llvm::cl::init(8)};
  PassOptions::Option<int64_t> numSMs{
      *this, "num-sms", llvm::cl::desc("convert-fusion-to-gpu's num-sms"),
      llvm::cl::init(132)};
  PassOptions::Option<bool> vectorAtomics{
      *this, "vector-atomics",
      llvm::cl::desc("convert-fusion-to-gpu's vector-atomics, for chips of "
                     "sm_90 and later with PTX 8.1 or later in `features` "
                     "(off otherwise)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> blockScans{
      *this, "block-scans",
      llvm::cl::desc("convert-fusion-to-gpu's block-scans"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> scanElementsPerThread{
      *this, "scan-elements-per-thread",
      llvm::cl::desc("convert-fusion-to-gpu's scan-elements-per-thread"),
      llvm::cl::init(4)};
  PassOptions::Option<bool> blockSorts{
      *this, "block-sorts",
      llvm::cl::desc("convert-fusion-to-gpu's block-sorts"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> registerSortRow{
      *this, "register-sort-row",
      llvm::cl::desc("convert-fusion-to-gpu's register-sort-row"),
      llvm::cl::init(512)};
  PassOptions::Option<int64_t> sortElementsPerLane{
      *this, "sort-elements-per-lane",
      llvm::cl::desc("convert-fusion-to-gpu's sort-elements-per-lane"),
      llvm::cl::init(8)};
  PassOptions::Option<bool> earlyLoads{
      *this, "early-loads",
      llvm::cl::desc("convert-fusion-to-gpu's early-loads"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> kernelConfigs{
      *this, "kernel-configs",
      llvm::cl::desc("convert-fusion-to-gpu's kernel-configs"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> loopUnroll{
      *this, "loop-unroll",
      llvm::cl::desc("convert-fusion-to-gpu's loop-unroll"),
      llvm::cl::init(8)};
  PassOptions::Option<std::string> f32Division{
      *this, "f32-division",
      llvm::cl::desc("convert-fusion-to-gpu's f32-division"),
      llvm::cl::init("full")};
  PassOptions::Option<bool> reductionTiles{
      *this, "reduction-tiles",
      llvm::cl::desc("convert-fusion-to-gpu's reduction-tiles"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> transposeTiles{
      *this, "transpose-tiles",
      llvm::cl::desc("convert-fusion-to-gpu's transpose-tiles"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> approxExp{
      *this, "approx-exp", llvm::cl::desc("convert-fusion-to-gpu's approx-exp"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> predicateStores{
      *this, "predicate-stores",
      llvm::cl::desc("Write the stores and atomic adds a kernel guards "
                     "(bounds, a row's leader) as predicated PTX instead of "
                     "branching around them, so that their loads stay "
                     "before the guard (docs/Lowering.md, \"Predicated "
                     "stores\")"),
      llvm::cl::init(true)};
  PassOptions::Option<CacheHints> cacheHints{
      *this, "cache-hints",
      llvm::cl::desc("PTX cache hints on a row's streamed loads and on "
                     "vector stores; none by default: faster from DRAM, "
                     "slower when the input is in L2 (docs/Lowering.md, "
                     "\"Cache hints\")"),
      llvm::cl::init(CacheHints::None),
      llvm::cl::values(
          clEnumValN(CacheHints::None, "none", "No hints"),
          clEnumValN(CacheHints::Loads, "loads",
                     "A row's streamed loads skip L1 "
                     "(ld.global.nc.L1::no_allocate)"),
          clEnumValN(CacheHints::Stores, "stores",
                     "Vector stores are evict-first (st.global.cs)"),
          clEnumValN(CacheHints::All, "all", "Both"))};
};

struct FusionToCPUOptions : public PassPipelineOptions<FusionToCPUOptions> {
  PassOptions::Option<bool> schedule{
      *this, "schedule",
      llvm::cl::desc("Run the --fusion-schedule pipeline first"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> comboKernels{
      *this, "combo-kernels",
      llvm::cl::desc("--fusion-schedule's combo-kernels: combine independent "
                     "kernels into foreach (combo) kernels"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> comboMaxPartBytes{
      *this, "combo-max-part-bytes",
      llvm::cl::desc("--fusion-schedule's combo-max-part-bytes: only kernels "
                     "whose buffers take at most this many bytes join combo "
                     "kernels (0: any)"),
      llvm::cl::init(0)};
};

/// The libdevice path `--fusion-to-ptx` links by default, or "" if none.
std::string findLibdevice();

void buildFusionToPTXPipeline(OpPassManager &pm,
                              const FusionToPTXOptions &options);
void buildFusionLoopsToLLVMPipeline(OpPassManager &pm);
void buildFusionToCPUPipeline(OpPassManager &pm,
                              const FusionToCPUOptions &options);

/// Registers the three pipelines.
void registerLoweringPipelines();
/// Registers what the lowered IR and the NVVM serialization need: the gpu,
/// nvvm, llvm, scf, memref and func dialects, the NVVM target and the
/// translations to LLVM IR.
void registerLoweringDialects(DialectRegistry &registry);

} // namespace mlir::fusion

#endif // SCHEDULER_OPT_PIPELINES_LOWERINGPIPELINES_H
