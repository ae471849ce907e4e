//===- FusionToGPU.cpp - fusion.graph to GPU kernels ----------------------===//
//
// Each kernel becomes a gpu.func; how rows and their elements map onto
// blocks, warps and threads follows Inductor's Triton kernels:
//
//   - pointwise: `pointwise-block-size` threads per block, each taking
//     `pointwise-vector-width` adjacent elements (vector accesses where
//     contiguous; splitPointwiseRows), or one when the size does not divide;
//     those that change layout in 2-D tiles through shared memory
//     (TransposeTiles.h), those whose every access runs down the tile's
//     columns in vectors of adjacent rows where each access allows
//     (permuteColumnsForVectors);
//   - reductions: L threads per row and R rows per block (chooseMapping):
//     at most a warp for rows of at most warp-reduction-max-size elements
//     (several rows per warp when shorter), else up to a block, with
//     blocks of at least 128 threads; about elements-per-thread elements
//     per thread, twice as many when the row reads one input and stays in
//     registers (getElementsPerThread).
//
// Each thread folds its elements into accumulators (in registers, unrolled,
// when it holds at most max-persistent-elements of the row; else in a loop
// that visits the row once per reduction level), then the row's threads
// merge them with gpu.shuffle xor and, across the warps of a block, through
// shared memory.
//
// Graphs with size symbols (docs/DynamicShapes.md): every kernel takes the
// symbols' values (index) after its storages; grids, loop bounds and
// indices are computed from them at run time, so one PTX serves every size.
// Choices that need a number (block size, warp or block per row) are made
// at the symbols' hints, as Inductor does; rows of symbolic length are
// reduced in a loop (never persistent, never vectorized), which is correct
// at any length; indices are 64-bit. A storage whose size is symbolic
// reaches a kernel as a bare pointer too: the kernel's memref type has the
// static extent kSymbolicStorageExtent, as the bare-pointer convention
// needs static shapes (kernels compute in-bounds flat indices themselves).
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Conversion/FusionToGPU/BlockScan.h"
#include "scheduler-opt/Conversion/FusionToGPU/BlockSort.h"
#include "scheduler-opt/Conversion/FusionToGPU/KernelConfigs.h"
#include "scheduler-opt/Conversion/FusionToGPU/SharedMemory.h"
#include "scheduler-opt/Conversion/FusionToGPU/TransposeTiles.h"
#include "scheduler-opt/Conversion/KernelCodegen/HostLowering.h"
#include "scheduler-opt/Conversion/KernelCodegen/KernelEmitter.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"
#include "scheduler-opt/Conversion/Passes.h"
#include "scheduler-opt/Dialect/Fusion/IR/ExternCall.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <tuple>

#define DEBUG_TYPE "convert-fusion-to-gpu"

namespace mlir::fusion {
#define GEN_PASS_DEF_CONVERTFUSIONTOGPUPASS
#include "scheduler-opt/Conversion/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

namespace {
constexpr int64_t kWarpSize = 32;
/// Threads per block that kernels reducing short rows aim at (rows of a
/// warp or less share blocks).
constexpr int64_t kRowBlockSize = 256;
/// Fewest threads per block of kernels reducing one or more rows per block.
constexpr int64_t kMinRowBlockSize = 128;
/// Threads an SM runs of a kernel whose later passes' column loads are
/// hoisted before its first reduction (hoist-loads): half of the 2048 an
/// SM of an H100 holds.
constexpr int64_t kHoistThreadsPerSM = 1024;
/// Most threads per row of a reduction over an outer dimension.
constexpr int64_t kMaxTileLanes = 8;
/// Fewest rows a block of such a reduction takes: a warp's load of one
/// element of each reads a 32-byte sector of f32.
constexpr int64_t kMinTileRows = 8;
/// The extent of a kernel's memref for a storage of symbolic size (2^48
/// elements, more than any GPU holds).
constexpr int64_t kSymbolicStorageExtent = int64_t(1) << 48;
/// The data layout of LLVM's 64-bit NVPTX target (NVPTXTargetMachine's
/// computeDataLayout, LLVM 22), which the kernels' module is translated with.
constexpr llvm::StringLiteral kNVPTXDataLayout =
    "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64";

struct MappingOptions {
  int64_t pointwiseBlockSize;
  int64_t pointwiseVectorWidth;
  int64_t elementsPerThread;
  int64_t maxReductionBlockSize;
  int64_t warpReductionMaxSize;
  int64_t maxPersistentElements;
  int64_t loopUnroll;
  int64_t reductionLanes;
  int64_t reductionRowsPerBlock;
  bool reductionTiles;
  bool transposeTiles;
  int64_t reductionRowsPerThread;
  int64_t reductionSplit;
  /// Most blocks of a split row on one thread block cluster (0: none).
  int64_t reductionCluster;
  int64_t numSMs;
  bool earlyLoads;
  bool hoistLoads;
  /// Groups of adjacent f32 atomic adds become one vector atomic (sm_90,
  /// PTX 8.1); a setting of the module, not of a kernel.
  bool vectorAtomics;
  /// Scans along rows on a block per row (BlockScan.h), each thread taking
  /// scanElementsPerThread adjacent elements per chunk.
  bool blockScans;
  int64_t scanElementsPerThread;
  /// Sorts along static rows kept in shared memory on the lanes of a block
  /// (BlockSort.h).
  bool blockSorts;
  /// Adjacent elements a lane of a register sort holds (BlockSort.h).
  int64_t sortElementsPerLane;
  /// The longest padded rows that sort in registers (BlockSort.h).
  int64_t registerSortRow;
};

/// The most threads of a block scan's block (BlockScan.h).
constexpr int64_t kMaxScanBlockSize = 1024;
/// Rows shorter than this (at their hint) are scanned by a thread each
/// (the shortest rows timed on several lanes: docs/Lowering.md, "Results:
/// block scans").
constexpr int64_t kMinBlockScanRow = 16;
/// Rows shorter than this are sorted by a thread each.
constexpr int64_t kMinBlockSortRow = 16;
/// The most threads of a block sort's block (BlockSort.h).
constexpr int64_t kMaxSortBlockSize = 1024;
/// The fewest lanes of a row sorted in registers: rows of 16 took 8.0 us
/// on 4 lanes of 4 elements, 13.5 on 2 of 8 (docs/Lowering.md, "Results:
/// block sorts").
constexpr int64_t kMinRegisterSortLanes = 4;

/// Most rows a thread computes at the same element positions.
constexpr int64_t kMaxRowsPerThread = 4;
/// The portable cluster size: the most blocks of a cluster every sm_90
/// launch can have without opting in to more.
constexpr int64_t kMaxClusterBlocks = 8;

/// True when `o` describes launchable kernels: block sizes multiples of a
/// warp up to 1024 (the reduction one a power of two), positive element
/// counts, powers of two where the mapping needs them.
static bool isValid(const MappingOptions &o) {
  int64_t lanes = std::max<int64_t>(o.reductionLanes, 1);
  return !(
      o.pointwiseBlockSize < kWarpSize || o.pointwiseBlockSize % kWarpSize != 0 ||
      o.maxReductionBlockSize % kWarpSize != 0 ||
      !llvm::isPowerOf2_64(o.maxReductionBlockSize) ||
      o.maxReductionBlockSize > 1024 || o.pointwiseBlockSize > 1024 ||
      o.maxPersistentElements < 1 || o.loopUnroll < 1 ||
      o.elementsPerThread < 1 || o.pointwiseVectorWidth < 1 ||
      o.scanElementsPerThread < 1 || o.scanElementsPerThread > 64 ||
      o.sortElementsPerLane < 2 || o.sortElementsPerLane > 64 ||
      !llvm::isPowerOf2_64(o.sortElementsPerLane) ||
      o.registerSortRow < 4 * kWarpSize || o.registerSortRow > 1024 ||
      !llvm::isPowerOf2_64(o.registerSortRow) ||
      o.pointwiseVectorWidth > 16 ||
      !llvm::isPowerOf2_64(o.pointwiseVectorWidth) || o.reductionLanes < 0 ||
      o.reductionLanes > 1024 || !llvm::isPowerOf2_64(lanes) ||
      o.reductionRowsPerBlock < 0 || o.reductionRowsPerThread < 0 ||
      o.reductionRowsPerThread > kMaxRowsPerThread ||
      !llvm::isPowerOf2_64(std::max<int64_t>(o.reductionRowsPerThread, 1)) ||
      o.reductionSplit < 0 || o.reductionSplit > kWarpSize ||
      !llvm::isPowerOf2_64(std::max<int64_t>(o.reductionSplit, 1)) ||
      o.reductionCluster < 0 || o.reductionCluster > kMaxClusterBlocks ||
      !llvm::isPowerOf2_64(std::max<int64_t>(o.reductionCluster, 1)) ||
      o.numSMs < 1 ||
      (o.reductionRowsPerBlock > 0 &&
       (!llvm::isPowerOf2_64(o.reductionRowsPerBlock) ||
        o.reductionRowsPerBlock * lanes > 1024 ||
        o.reductionRowsPerBlock * lanes < kWarpSize)));
}

/// Sets the option named `key` (as the pass spells it) of one kernel's
/// settings; false for a name that is not a per-kernel setting.
static bool applySetting(MappingOptions &o, StringRef key, int64_t value) {
  int64_t *field = llvm::StringSwitch<int64_t *>(key)
                       .Case("pointwise-block-size", &o.pointwiseBlockSize)
                       .Case("pointwise-vector-width", &o.pointwiseVectorWidth)
                       .Case("reduction-lanes", &o.reductionLanes)
                       .Case("reduction-rows-per-block",
                             &o.reductionRowsPerBlock)
                       .Case("reduction-rows-per-thread",
                             &o.reductionRowsPerThread)
                       .Case("reduction-split", &o.reductionSplit)
                       .Case("reduction-cluster", &o.reductionCluster)
                       .Case("elements-per-thread", &o.elementsPerThread)
                       .Case("scan-elements-per-thread",
                             &o.scanElementsPerThread)
                       .Case("sort-elements-per-lane",
                             &o.sortElementsPerLane)
                       .Case("register-sort-row", &o.registerSortRow)
                       .Case("max-persistent-elements",
                             &o.maxPersistentElements)
                       .Case("loop-unroll", &o.loopUnroll)
                       .Default(nullptr);
  if (field) {
    *field = value;
    return true;
  }
  if (key == "early-loads" && (value == 0 || value == 1)) {
    o.earlyLoads = value == 1;
    return true;
  }
  if (key == "hoist-loads" && (value == 0 || value == 1)) {
    o.hoistLoads = value == 1;
    return true;
  }
  return false;
}

/// How a kernel's rows map onto the grid.
struct KernelMapping {
  /// Pointwise: one thread per row of `plan` (an element, or a group of
  /// `vectorWidth` elements when `split` holds the split plan). Reduction:
  /// `numLanes` threads per row, `rowsPerBlock` rows per block.
  enum class Kind { Pointwise, Reduction } kind;
  int64_t blockSize;
  /// Blocks: ceil(numel / rowsPerBlock), an expression in the size symbols.
  AffineExpr gridSize;
  /// Rows per block (Pointwise: rows of the plan that runs, one per thread).
  int64_t rowsPerBlock;
  /// Threads per row, and per thread the row elements kept in registers
  /// (persistent) or handled per loop iteration.
  int64_t numLanes = 1;
  bool persistent = true;
  int64_t elementsPerLane = 1;
  /// Adjacent row elements a thread takes at a time (vector accesses).
  int64_t vectorWidth = 1;
  /// Rows each thread computes at the same element positions (Triton's
  /// XBLOCK > 1): a block takes rowsPerBlock * rowsPerThread rows, its
  /// thread rows taking rows t, t + rowsPerBlock, ...
  int64_t rowsPerThread = 1;
  /// Split reductions: blocks per row (each one a block of `blockSize`
  /// lanes of the row's `numLanes`), which merge their partials through
  /// memory; 1 otherwise.
  int64_t splitBlocks = 1;
  /// The split row's blocks form one thread block cluster (sm_90) and
  /// merge their partials through distributed shared memory, not through
  /// global memory and a counter.
  bool cluster = false;
  /// Rows held in registers issue the loads of a pass's stores for all of
  /// the thread's groups before computing the first (RowLayout).
  bool earlyLoads = false;
  bool hoistLoads = false;
  /// Reduction over an outer dimension (a 2-D tile, Inductor's
  /// ReductionHint.OUTER): the block's `rowsPerBlock` rows run along
  /// consecutive threads, each row's `numLanes` threads lie `rowsPerBlock`
  /// apart (thread = lane * rowsPerBlock + row), so that a warp's loads of
  /// adjacent rows are adjacent in memory.
  bool columns = false;
  /// Block scans: adjacent elements a thread takes per chunk.
  int64_t scanElementsPerThread = 1;
  /// The plan the kernel runs when it is not the kernel's own: a pointwise
  /// kernel whose threads take `vectorWidth` adjacent elements.
  std::shared_ptr<KernelPlan> split;

  const KernelPlan &getPlan(const KernelPlan &plan) const {
    return split ? *split : plan;
  }
};

/// Threads per row of a reduction of `rnumel` elements: about
/// `elementsPerThread` elements each, a power of two; rows of at most
/// warp-reduction-max-size elements take at most a warp (and share it with
/// other rows when shorter), longer ones up to max-reduction-block-size.
static int64_t chooseLanes(int64_t rnumel, const MappingOptions &options,
                           int64_t elementsPerThread) {
  if (options.reductionLanes > 0)
    return options.reductionLanes;
  // Capped before rounding up: a power of two past 2^62 leaves int64.
  int64_t lanes = llvm::PowerOf2Ceil(std::min<int64_t>(
      llvm::divideCeil(rnumel, elementsPerThread), 1024));
  if (rnumel <= options.warpReductionMaxSize)
    return std::min(lanes, kWarpSize);
  return std::clamp<int64_t>(lanes, 2 * kWarpSize,
                             options.maxReductionBlockSize);
}

/// Rows a block of a reduction takes, `lanes` threads a row: blocks of
/// kRowBlockSize threads for rows of a warp or less, else of at least
/// kMinRowBlockSize (rows of 64 threads go two to a block: softmax's 4096
/// rows of 1024 ran 2 to 3% faster so).
static int64_t rowsPerBlockFor(int64_t lanes) {
  return lanes <= kWarpSize ? kRowBlockSize / lanes
                            : std::max<int64_t>(1, kMinRowBlockSize / lanes);
}

/// Lanes for a kernel whose rows would fill at most half as many blocks as
/// there are SMs: twice as many while that holds, it makes more blocks and
/// each thread keeps a 16-byte group or more (gpt2's layer norms, 512 rows
/// of 256: 64 blocks of 8 rows by 32 threads became 256 blocks of 2 rows
/// by 64, 8.47 instead of 9.95 us over four kernels on an H100, Inductor
/// 7.91).
static int64_t spreadFewRows(int64_t numel, int64_t rnumel, int64_t lanes,
                             const MappingOptions &options) {
  auto blocks = [&](int64_t l) {
    return static_cast<int64_t>(llvm::divideCeil(numel, rowsPerBlockFor(l)));
  };
  while (2 * blocks(lanes) <= options.numSMs &&
         blocks(2 * lanes) > blocks(lanes) &&
         static_cast<int64_t>(llvm::divideCeil(rnumel, 2 * lanes)) >= 4 &&
         2 * lanes <= options.maxReductionBlockSize)
    lanes *= 2;
  return lanes;
}

/// Rows a block and lanes a row of a reduction over an outer dimension
/// whose grid would fill at most half as many blocks as there are SMs:
/// half as many rows a block and twice the lanes a row while that holds,
/// down to kMinTileRows, as long as every lane keeps four elements or
/// more (the block keeps its threads; each thread reads less). Inductor's
/// outer_config_opt does the like for few columns ("Try to use all SMs
/// with small x": XBLOCK = x // 128 within 2 to 8, R0_BLOCK 64;
/// torch/_inductor/runtime/triton_heuristics.py). gpt2_train's layer-norm
/// weight gradient over the embeddings (1024 columns of 128, five loads):
/// 32 blocks of 32 rows by 8 lanes took 4.64 us, 128 blocks of 8 rows by
/// 32 lanes 2.53 (Inductor 2.9; docs/Lowering.md).
static std::pair<int64_t, int64_t>
spreadFewColumns(int64_t numel, int64_t rnumel, int64_t rowsPerBlock,
                 int64_t lanes, const MappingOptions &options) {
  auto blocks = [&](int64_t rows) {
    return static_cast<int64_t>(llvm::divideCeil(numel, rows));
  };
  while (rowsPerBlock > kMinTileRows &&
         2 * blocks(rowsPerBlock) <= options.numSMs &&
         blocks(rowsPerBlock / 2) > blocks(rowsPerBlock)) {
    if (llvm::divideCeil(rnumel, 2 * lanes) < 4)
      break;
    rowsPerBlock /= 2;
    lanes *= 2;
  }
  return {rowsPerBlock, lanes};
}

/// What a row reads per element position: the distinct elements (by
/// storage and index) that its members load with an index moving with r,
/// loads of buffers the group produces excepted (those are registers);
/// `columns` of them do not depend on the row (a weight or bias along the
/// row), which threads computing several rows load once.
/// `bytes` is what one position of the row reads from all of them.
struct RowInputs {
  int64_t rows = 0;
  int64_t columns = 0;
  int64_t bytes = 0;
};

static RowInputs countRowInputs(const KernelPlan &plan) {
  llvm::SmallDenseSet<std::pair<Value, AffineExpr>> rows, columns;
  RowInputs inputs;
  for (const auto &[op, expr] : plan.indexExprs) {
    auto load = dyn_cast<LoadOp>(op);
    if (!load || plan.isForwarded(load) || !expr.isFunctionOfDim(1))
      continue;
    bool added = expr.isFunctionOfDim(0) || hasIndirectIndices(load)
                     ? rows.insert({load.getBuffer(), expr}).second
                     : columns.insert({load.getBuffer(), expr}).second;
    Type type = load.getType();
    if (added && type.isIntOrFloat())
      inputs.bytes += std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  }
  inputs.rows = rows.size();
  inputs.columns = columns.size();
  return inputs;
}

/// The elements of one row a thread takes, and how many rows it takes
/// them of (the same columns of each).
struct RowShape {
  int64_t elementsPerThread;
  int64_t rowsPerThread = 1;
};

/// The register-budget rule. A thread that keeps a long row in registers
/// takes twice elements-per-thread elements (16) of rows in all, so that
/// all rows of a large kernel are resident at once (softmax over 4096 rows
/// of 1024: 2048 blocks of 2 rows by 64 threads, one wave on an H100, 6%
/// faster than two waves of 128-thread rows), when what it holds across
/// the reduction stays within 20 values (one per element of its rows,
/// plus one per column of each input that does not depend on the row: a
/// normalization's weight and bias, which ptxas keeps in registers too),
/// where ptxas fits the 32 registers a thread has at full occupancy; the
/// rest goes to indices, the reduction and the epilogue. Threads taking
/// the same columns of several rows load the weight once for them
/// (Triton's 2-D blocks with XBLOCK > 1). Measured on an H100
/// (docs/Lowering.md): rmsnorm's 4 rows of 4 (20 values) took 32
/// registers, one wave, 5% faster than 8 elements of one row; its 2 rows
/// of 8 (24 values) took 43 registers and gained nothing, layernorm's 4
/// rows of 4 with weight and bias (24) took 42 and ran 15% slower than
/// one row of 8 (its 2 rows of 8 and one row of 16, 47 and 56 registers,
/// 7 and 6% slower). Rows
/// with two inputs that depend on the row, rows kept in a loop, short
/// rows and kernels with too few rows to share keep elements-per-thread
/// of one row. `reduction-rows-per-thread` fixes the rows.
static RowShape chooseRowShape(const KernelPlan &plan,
                               const MappingOptions &options, bool combo) {
  RowShape narrow{options.elementsPerThread};
  int64_t rnumel = plan.getRNumelHint();
  if (!plan.hasStaticRNumel() || rnumel <= options.warpReductionMaxSize)
    return narrow;
  RowInputs inputs = countRowInputs(plan);
  if (inputs.rows != 1)
    return narrow;
  int64_t wide = 2 * options.elementsPerThread;
  int64_t budget = wide + wide / 4;
  for (int64_t rows = 1; rows <= kMaxRowsPerThread; rows *= 2) {
    if (options.reductionRowsPerThread > 0 &&
        rows != options.reductionRowsPerThread)
      continue;
    int64_t columns = wide / rows;
    // (At least a 16-byte group of each row a thread.)
    if (rows > 1 && (combo || columns < 4 || !plan.hasStaticNumel() ||
                     plan.numel < rows * options.numSMs))
      break;
    if (options.reductionRowsPerThread == 0 &&
        wide + columns * inputs.columns > budget)
      continue;
    // Only where the rows then stay in registers: looped rows gain more
    // from more threads.
    int64_t lanes = chooseLanes(rnumel, options, columns);
    if (static_cast<int64_t>(llvm::divideCeil(rnumel, lanes)) >
        options.maxPersistentElements)
      continue;
    return {columns, rows};
  }
  return narrow;
}

/// True when a member body asserts (check_bounds, device_assert_async):
/// the blocks of a split row that do not finish it compute its per-row
/// values on placeholders, which must not assert.
static bool hasAsserts(const KernelPlan &plan) {
  bool found = false;
  plan.op->walk([&](OpaqueOp op) {
    if (op.getOpName() == "check_bounds" ||
        op.getOpName() == "device_assert_async")
      found = true;
  });
  return found;
}

/// The bytes an SM reads in the time the blocks of a split row take to
/// exchange their partials (a store, a fence and an atomic in each block,
/// then the last block's fence and loads: about 1.3 us on an H100, where
/// an SM reads about 22 GB/s of the 2.93 TB/s copy rate).
constexpr int64_t kSplitExchangeBytes = 32 * 1024;
/// How a kernel's rows split over blocks.
struct SplitChoice {
  int64_t blocks = 1;
  /// The row's blocks form a cluster (see KernelMapping::cluster).
  bool cluster = false;
};

/// Blocks per row of a split reduction. Kernels with fewer rows than half
/// the SMs may spread each row over up to PowerOf2Floor(SMs / rows)
/// blocks, at most a warp of them (the last block merges the partials
/// with shuffles) and each with more than warp-reduction-max-size
/// elements (a block of at least 64 threads); they do when the part of a
/// row's reads that moves to other SMs, rowBytes * (split - 1) / split,
/// exceeds kSplitExchangeBytes. Measured on an H100 (docs/Lowering.md):
/// add_sum (64 rows of 4096, 32 KiB a row) ran 2.13 us unsplit and 3.38,
/// 3.53 and 3.80 us with 2, 4 and 8 blocks a row; cross_entropy's mean
/// (one row of 4096 targets and gathered logits, 48 KiB) 5.01 us
/// unsplit, 4.37, 3.98 and 3.75 with 2, 4 and 8.
/// Only kernels of one reduction level whose per-element stores come
/// before it and whose per-row stores after it (the row's last block
/// makes those). `reduction-split` fixes the count (1: never).
///
/// A split of at most `reduction-cluster` blocks (sm_90; at most 8, the
/// portable cluster size) puts each row's blocks on one thread block
/// cluster, which exchange their partials through distributed shared
/// memory instead (two cluster barriers, 0.5 to 0.6 us on an H100):
/// cross_entropy's mean on a cluster of 8 ran 3.11 to 3.27 us against
/// 3.66 to 4.03 through global memory; at 2 and 4 blocks a cluster was
/// 0.4 to 1.1 us faster too (docs/Lowering.md). The rule for whether to
/// split stays: add_sum's 64 rows of 4096 ran 2.43 to 2.52 us on clusters
/// of 2 against 1.98 to 2.12 unsplit, and 1.96 with the cluster barriers
/// left out (wrong sums): a block reading 16 KiB of a row instead of 32
/// ends no sooner there.
static SplitChoice chooseSplit(const KernelPlan &plan,
                               const MappingOptions &options) {
  if (options.reductionSplit == 1 || options.reductionLanes != 0 ||
      options.reductionRowsPerBlock != 0 || !plan.rowOps.empty() ||
      !plan.hasStaticNumel() || !plan.hasStaticRNumel() ||
      plan.numLevels != 1 || hasAsserts(plan))
    return {};
  for (StoreOp store : plan.memoryStores)
    if (plan.isElementStore(store) != (plan.getEmitDepth(store) == 0))
      return {};
  int64_t split = options.reductionSplit;
  if (split == 0) {
    if (2 * plan.numel > options.numSMs)
      return {};
    split = static_cast<int64_t>(
        llvm::bit_floor(static_cast<uint64_t>(options.numSMs / plan.numel)));
  }
  split = std::min<int64_t>(split, kWarpSize);
  while (split > 1 && plan.rnumel / split <= options.warpReductionMaxSize)
    split /= 2;
  if (options.reductionSplit == 0 && split > 1) {
    // In floating point: a row of 2^62 elements must not wrap.
    double rowBytes =
        static_cast<double>(plan.rnumel) * countRowInputs(plan).bytes;
    if (rowBytes * (split - 1) / split <= kSplitExchangeBytes)
      return {};
  }
  if (split == 1)
    return {};
  return {split, /*cluster=*/split <= options.reductionCluster};
}

/// `expr` (of d0 = x, d1 = r, no symbols) at (x, r).
static int64_t evaluateAt(AffineExpr expr, int64_t x, int64_t r) {
  MLIRContext *ctx = expr.getContext();
  AffineExpr value = simplifyAffineExpr(
      expr.replaceDims({getAffineConstantExpr(x, ctx),
                        getAffineConstantExpr(r, ctx)}),
      2, 0);
  return cast<AffineConstantExpr>(value).getValue();
}

/// True when the kernel reduces over an outer dimension: more of its
/// per-element accesses are contiguous across rows (the index steps by one
/// from row x to row x + 1) than along a row (by one from r to r + 1), as
/// the weight gradients of a normalization (sum over rows of each column)
/// or batch-norm statistics. Inductor's ReductionHint.OUTER.
static bool reducesOuterDimension(const KernelPlan &plan) {
  if (!plan.hasStaticNumel() || !plan.hasStaticRNumel() || plan.numel < 2 ||
      plan.rnumel < 2)
    return false;
  int64_t alongRows = 0, acrossRows = 0;
  for (const auto &[op, expr] : plan.indexExprs) {
    bool hasSymbols = false;
    expr.walk([&](AffineExpr e) {
      if (isa<AffineSymbolExpr>(e))
        hasSymbols = true;
    });
    if (!isa<LoadOp, StoreOp>(op) || hasSymbols || !expr.isFunctionOfDim(1))
      continue;
    if (auto load = dyn_cast<LoadOp>(op); load && plan.isForwarded(load))
      continue;
    int64_t base = evaluateAt(expr, 0, 0);
    if (evaluateAt(expr, 0, 1) - base == 1)
      ++alongRows;
    else if (evaluateAt(expr, 1, 0) - base == 1)
      ++acrossRows;
  }
  return acrossRows > alongRows;
}

/// Static shared memory a block may use (48 KiB on every chip since
/// compute capability 2.0; more needs a dynamic allocation).
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// An upper bound of the bytes of one thread's reduction accumulators
/// (each distinct reduction's operands and results: an argmax keeps its
/// value and index, a Welford reduction three values from one).
static int64_t getAccumulatorBytes(const KernelPlan &plan) {
  int64_t bytes = 0;
  auto add = [&](Type type) {
    bytes += std::max<int64_t>(type.getIntOrFloatBitWidth() / 8, 1);
  };
  for (ReduceOp reduce : plan.reduces) {
    if (plan.representative.lookup(reduce) != reduce)
      continue;
    for (Type type : reduce->getOperandTypes())
      add(type);
    for (Type type : reduce->getResultTypes())
      add(type);
  }
  return bytes;
}

/// The bytes of shared memory one row of `plan`'s sorts and scans takes
/// where its lanes share it (the scratch arrays of the row ops computed
/// once, and the block sorts' positions, BlockSort.h, counted for rows
/// that sort in registers too, without them); 0 where the plan keeps its
/// rows in memory.
static int64_t getSharedRowBytes(const KernelPlan &plan, int64_t rnumel) {
  if (plan.rowScratchInMemory)
    return 0;
  int64_t bytes = 0;
  for (Operation *op : plan.rowOps) {
    if (plan.rowRepresentative.lookup(op) != op)
      continue;
    for (Type type : op->getResultTypes())
      bytes += rnumel * std::max<int64_t>(type.getIntOrFloatBitWidth() / 8, 1);
    if (!isa<ScanOp>(op))
      bytes += rnumel * 4;
  }
  return bytes;
}

/// A row of `threads` lanes: a group of a warp's lanes for rows of up to
/// 2 x kWarpSize threads (`maxGroupThreads`), the block's kRowBlockSize
/// threads taking rows of it (fewer where there are fewer rows, but a
/// warp; fewer where the rows' `rowBytes` of shared memory would pass half
/// of kMaxStaticSharedBytes), else a block of up to `maxBlockSize` threads
/// a row.
static void setRowLanes(KernelMapping &m, int64_t threads, int64_t numel,
                        int64_t rowBytes, int64_t maxGroupThreads,
                        int64_t maxBlockSize) {
  if (threads <= maxGroupThreads) {
    m.numLanes =
        std::clamp<int64_t>(llvm::PowerOf2Ceil(threads), 2, kWarpSize);
    m.rowsPerBlock = std::min<int64_t>(
        kRowBlockSize / m.numLanes,
        std::max<int64_t>(kWarpSize / m.numLanes, llvm::PowerOf2Ceil(numel)));
    while (m.rowsPerBlock * m.numLanes > kWarpSize &&
           m.rowsPerBlock * rowBytes > kMaxStaticSharedBytes / 2)
      m.rowsPerBlock /= 2;
  } else {
    m.numLanes =
        llvm::PowerOf2Ceil(std::min<int64_t>(threads, maxBlockSize));
    m.rowsPerBlock = 1;
  }
}

/// The mapping of one kernel; with `blockSize`, a power of two of at least
/// a warp, that block size instead of the kernel's own (the parts of a
/// combo kernel share their blocks' size).
KernelMapping chooseMapping(const KernelPlan &plan,
                            const MappingOptions &options,
                            std::optional<int64_t> blockSize = std::nullopt) {
  KernelMapping m;
  // Sizes at the hints where symbolic (Inductor's size_hint).
  int64_t numel = plan.getNumelHint();
  int64_t rnumel = plan.getRNumelHint();
  auto gridOf = [&](int64_t rowsPerBlock) {
    return simplifyIndexExpr(plan.numelExpr.ceilDiv(rowsPerBlock), 0,
                              plan.numSizeSymbols);
  };
  if (!plan.isReduction) {
    m.kind = KernelMapping::Kind::Pointwise;
    // Threads take 16 bytes (of f32; 8 of 16-bit types) at a time when
    // whole groups tile the kernel: vector loads and stores for the
    // accesses contiguous in the flat index.
    int64_t width = options.pointwiseVectorWidth;
    int64_t rows = numel;
    // (Not with a sort or scan: its rows are the plan's own.)
    if (width > 1 && plan.rowOps.empty() && plan.hasStaticNumel() &&
        plan.numel % width == 0 &&
        plan.numel >= width * kWarpSize) {
      m.split = std::make_shared<KernelPlan>(splitPointwiseRows(plan, width));
      m.vectorWidth = m.elementsPerLane = width;
      rows = m.split->numel;
    }
    // Rounded up to warps only when fewer rows than a block (alignTo of a
    // count near INT64_MAX would leave int64).
    m.blockSize = blockSize.value_or(
        rows >= options.pointwiseBlockSize
            ? options.pointwiseBlockSize
            : static_cast<int64_t>(llvm::alignTo(rows, kWarpSize)));
    m.rowsPerBlock = m.blockSize;
    m.gridSize = m.split ? getAffineConstantExpr(
                               llvm::divideCeil(rows, m.rowsPerBlock),
                               plan.op->getContext())
                         : gridOf(m.rowsPerBlock);
    return m;
  }
  m.kind = KernelMapping::Kind::Reduction;
  if (blockSize) {
    // A combo part runs its rows as it would alone, more of them a block,
    // where the shared block size is a multiple of its own; a split or
    // clustered row and 2-D tiles whose partials would outgrow shared
    // memory cannot, and sorts and scans take the rule below (a thread a
    // row keeps its mapping there; block sorts and scans, whose lanes are
    // the block's, do not).
    KernelMapping own = chooseMapping(plan, options);
    if (own.splitBlocks == 1 && !own.cluster && plan.rowOps.empty() &&
        *blockSize % own.blockSize == 0 &&
        (!own.columns ||
         *blockSize * getAccumulatorBytes(plan) <= kMaxStaticSharedBytes)) {
      own.rowsPerBlock *= *blockSize / own.blockSize;
      own.blockSize = *blockSize;
      own.gridSize = gridOf(own.rowsPerBlock * own.rowsPerThread);
      return own;
    }
  }
  bool hasSort = llvm::any_of(plan.rowOps, [](Operation *op) {
    return !isa<ScanOp>(op);
  });
  if (hasSort && options.blockSorts && !blockSize &&
      plan.hasStaticRNumel() && !plan.rowScratchInMemory &&
      rnumel >= kMinBlockSortRow &&
      getSharedRowBytes(plan, rnumel) <= kMaxStaticSharedBytes / 2 &&
      llvm::all_of(plan.rowOps, [&](Operation *op) {
        return isa<ScanOp>(op) ? options.blockScans
                               : cast<OpaqueOp>(op).getOpName() == "sort";
      })) {
    // Sorts (BlockSort.h): rows padded to at most register-sort-row
    // elements take a group of up to a warp's lanes,
    // sort-elements-per-lane adjacent elements a lane (but at least
    // kMinRegisterSortLanes lanes and at most a warp's), several rows a
    // block, and sort in registers; longer rows a lane per pair of the
    // padded row at each stage, up to a block of kMaxSortBlockSize lanes.
    // The kernel's scans run on the same lanes (BlockScan.h).
    m.scanElementsPerThread = options.scanElementsPerThread;
    int64_t padded = llvm::PowerOf2Ceil(rnumel);
    setRowLanes(m,
                padded <= options.registerSortRow
                    ? std::clamp<int64_t>(padded /
                                              options.sortElementsPerLane,
                                          kMinRegisterSortLanes, kWarpSize)
                    : padded / 2,
                numel,
                getSharedRowBytes(plan, rnumel), 2 * kWarpSize,
                kMaxSortBlockSize);
    m.blockSize = m.numLanes * m.rowsPerBlock;
    m.gridSize = gridOf(m.rowsPerBlock);
    m.persistent = false;
    m.vectorWidth = plan.rnumel % 4 == 0 ? 4 : 1;
    m.elementsPerLane = llvm::alignTo(options.loopUnroll, m.vectorWidth);
    return m;
  }
  if (!plan.rowOps.empty() && options.blockScans && !blockSize &&
      rnumel >= kMinBlockScanRow &&
      llvm::all_of(plan.rowOps, llvm::IsaPred<ScanOp>)) {
    // Scans: scan-elements-per-thread elements a thread per chunk
    // (BlockScan.h). Rows of up to two such chunks of a warp take a group
    // of a warp's lanes each, the fewest (at least two) that hold the row
    // in one chunk, or a warp looping over two chunks (8 elements a
    // thread in one chunk took 3 times as long on rows of 256: "Results:
    // block scans"); a block takes kRowBlockSize threads' rows (fewer
    // where there are fewer rows, but a warp). Longer rows take a block
    // each.
    m.scanElementsPerThread = options.scanElementsPerThread;
    setRowLanes(m, llvm::divideCeil(rnumel, m.scanElementsPerThread), numel,
                getSharedRowBytes(plan, rnumel), 2 * kWarpSize,
                kMaxScanBlockSize);
    m.blockSize = m.numLanes * m.rowsPerBlock;
    m.gridSize = gridOf(m.rowsPerBlock);
    m.persistent = false;
    m.vectorWidth = plan.hasStaticRNumel() && plan.rnumel % 4 == 0 ? 4 : 1;
    m.elementsPerLane = llvm::alignTo(options.loopUnroll, m.vectorWidth);
    return m;
  }
  if (!plan.rowOps.empty()) {
    // Sorts and scans: one thread per row, looping over it (RowOps.h).
    m.numLanes = 1;
    m.rowsPerBlock = blockSize.value_or(
        std::max<int64_t>(kWarpSize, std::min<int64_t>(
                                         kRowBlockSize,
                                         llvm::PowerOf2Ceil(numel))));
    m.blockSize = m.rowsPerBlock;
    m.gridSize = gridOf(m.rowsPerBlock);
    m.persistent = false;
    m.elementsPerLane = 1;
    return m;
  }
  if (!blockSize && options.reductionTiles && options.reductionLanes == 0 &&
      options.reductionRowsPerBlock == 0 && reducesOuterDimension(plan)) {
    // Rows along a warp (128 contiguous bytes of f32 per load), about
    // elements-per-thread of each row per thread, at most kMaxTileLanes
    // threads per row (a block of 32 rows then has 256 threads, and every
    // thread's accumulators fit in shared memory).
    m.columns = true;
    m.numLanes = std::min<int64_t>(
        llvm::PowerOf2Ceil(llvm::divideCeil(rnumel, options.elementsPerThread)),
        kMaxTileLanes);
    m.rowsPerBlock = std::max<int64_t>(kWarpSize, kRowBlockSize / m.numLanes);
    // Few rows: no more of them per block than there are, but a warp.
    if (numel < m.rowsPerBlock)
      m.rowsPerBlock =
          std::max<int64_t>(kWarpSize, llvm::PowerOf2Ceil(numel));
    std::tie(m.rowsPerBlock, m.numLanes) = spreadFewColumns(
        numel, rnumel, m.rowsPerBlock, m.numLanes, options);
    // Every thread's partials meet in shared memory: fewer rows per block,
    // then fewer lanes, where a block's would not fit (one lane needs none).
    int64_t accumulatorBytes = getAccumulatorBytes(plan);
    while (m.numLanes > 1 && m.numLanes * m.rowsPerBlock * accumulatorBytes >
                                 kMaxStaticSharedBytes) {
      if (m.rowsPerBlock > kWarpSize)
        m.rowsPerBlock /= 2;
      else
        m.numLanes /= 2;
    }
    m.blockSize = m.numLanes * m.rowsPerBlock;
    m.gridSize = gridOf(m.rowsPerBlock);
    int64_t perLane = llvm::divideCeil(rnumel, m.numLanes);
    m.persistent = perLane <= options.maxPersistentElements;
    m.elementsPerLane = m.persistent ? perLane : options.loopUnroll;
    return m;
  }
  RowShape shape = chooseRowShape(plan, options, blockSize.has_value());
  m.numLanes = chooseLanes(rnumel, options, shape.elementsPerThread);
  m.rowsPerThread = shape.rowsPerThread;
  if (blockSize) {
    // A combo part: rows of a warp or less share the block, longer rows
    // take all of it.
    m.numLanes = m.numLanes <= kWarpSize ? m.numLanes : *blockSize;
    m.rowsPerBlock = *blockSize / m.numLanes;
  } else if (options.reductionRowsPerBlock > 0) {
    m.rowsPerBlock = options.reductionRowsPerBlock;
  } else {
    if (options.reductionLanes == 0 && m.rowsPerThread == 1 &&
        plan.hasStaticNumel() && plan.hasStaticRNumel() &&
        rnumel <= options.warpReductionMaxSize)
      m.numLanes = spreadFewRows(numel, rnumel, m.numLanes, options);
    m.rowsPerBlock = rowsPerBlockFor(m.numLanes);
    // Few rows: no block larger than they need, but at least a warp
    // (shuffles take whole warps).
    if (numel < m.rowsPerBlock)
      m.rowsPerBlock = llvm::PowerOf2Ceil(numel);
    m.rowsPerBlock = std::max<int64_t>(m.rowsPerBlock,
                                       llvm::divideCeil(kWarpSize, m.numLanes));
  }
  m.blockSize = m.numLanes * m.rowsPerBlock;
  SplitChoice choice = blockSize ? SplitChoice() : chooseSplit(plan, options);
  int64_t split = choice.blocks;
  if (split > 1) {
    // Block b takes lanes (b mod split) * L ... of row b / split (on a
    // cluster: its rank is b mod split).
    m.splitBlocks = split;
    m.cluster = choice.cluster;
    m.blockSize = chooseLanes(llvm::divideCeil(rnumel, split), options,
                              shape.elementsPerThread);
    m.numLanes = split * m.blockSize;
    m.rowsPerBlock = 1;
    m.rowsPerThread = 1;
  }
  m.gridSize = split > 1 ? getAffineConstantExpr(plan.numel * split,
                                                 plan.op->getContext())
                         : gridOf(m.rowsPerBlock * m.rowsPerThread);
  // Threads take 16-byte groups of adjacent elements when rows divide.
  bool staticRows = plan.hasStaticRNumel();
  m.vectorWidth = staticRows && plan.rnumel % 4 == 0 ? 4 : 1;
  int64_t perLane =
      llvm::alignTo(llvm::divideCeil(rnumel, m.numLanes), m.vectorWidth);
  // A row of symbolic length may be longer than the hint: loop over it.
  m.persistent = staticRows && perLane <= options.maxPersistentElements;
  m.elementsPerLane = m.persistent
                          ? perLane
                          : llvm::alignTo(options.loopUnroll, m.vectorWidth);
  if (!m.persistent && m.rowsPerThread > 1) {
    m.rowsPerThread = 1;
    m.gridSize = gridOf(m.rowsPerBlock);
  }
  m.earlyLoads = m.persistent && options.earlyLoads;
  // Only where every block is resident at once (half an SM's threads):
  // there the row's trip to memory is the kernel's; kernels of several
  // waves overlap it with other blocks, and the held loads cost registers
  // (hoisted loads were slower on the large normalizations, 68a985e).
  auto staticGrid = dyn_cast<AffineConstantExpr>(m.gridSize);
  m.hoistLoads = m.persistent && options.hoistLoads && m.rowsPerThread == 1 &&
                 staticGrid &&
                 staticGrid.getValue() * m.blockSize <=
                     options.numSMs * kHoistThreadsPerSM;
  return m;
}

/// The tile of a pointwise kernel that only changes its order (every access
/// contiguous down a column, nothing staged: resnet18's batch norms over
/// channels-last buffers in the statistics' [n, c, h, w] order) as a plain
/// pointwise kernel over its elements column by column, when that takes
/// them in vectors of `width`: rows a multiple of the width, and after the
/// split every store, and every load that moves with the elements, at an
/// aligned f(x) + r of a type KernelEmitter takes in vectors (loads free of
/// r are broadcasts). Each thread then takes `width` adjacent rows of a
/// column in one access, as Inductor's `XBLOCK` 1 tile does. Nothing
/// otherwise (the tile stays).
std::optional<KernelPlan> permuteColumnsForVectors(const KernelPlan &plan,
                                                   const TransposeTile &tile,
                                                   int64_t width) {
  if (!tile.staged.empty() || !tile.computeDownColumns || width < 2 ||
      tile.rows % width != 0 || plan.numel < width * kWarpSize)
    return std::nullopt;
  KernelPlan permuted = permutePointwiseColumns(plan, tile.rows, tile.columns);
  KernelPlan split = splitPointwiseRows(permuted, width);
  MLIRContext *context = plan.op->getContext();
  AffineExpr r = getAffineDimExpr(1, context);
  auto isVector = [&](AffineExpr expr, Type type) {
    if (!KernelEmitter::getVectorBytes(type, width))
      return false;
    AffineExpr rest = simplifyIndexExpr(expr - r, 2, plan.numSizeSymbols);
    if (rest.isFunctionOfDim(1))
      return false;
    auto misalignment = dyn_cast<AffineConstantExpr>(
        simplifyIndexExpr(rest % width, 2, plan.numSizeSymbols));
    return misalignment && misalignment.getValue() == 0;
  };
  for (StoreOp store : split.memoryStores)
    if (hasIndirectIndices(store) || store.getMode() ||
        !isVector(split.indexExprs.lookup(store), store.getValue().getType()))
      return std::nullopt;
  bool vectorLoads = true;
  plan.op->walk([&](LoadOp load) {
    if (split.isForwarded(load))
      return;
    AffineExpr expr = split.indexExprs.lookup(load);
    if (hasIndirectIndices(load) ||
        (expr.isFunctionOfDim(1) && !isVector(expr, load.getType())))
      vectorLoads = false;
  });
  if (!vectorLoads)
    return std::nullopt;
  return permuted;
}

/// The most thread blocks a CUDA launch has in x (cudaDeviceProp's
/// maxGridSize[0] on every chip since compute capability 3.0). The kernels
/// here use x alone: y and z (at most 65535 each) are always 1.
constexpr int64_t kMaxGridSizeX = std::numeric_limits<int32_t>::max();

/// Fails with an error on `op` when a launch of `blocks` thread blocks
/// exceeds CUDA's grid: launched anyway, the block count would be cut to
/// 32 bits and the kernel would run on part of its rows. A grid of
/// symbolic size is known only at run time: the host function checks it
/// before the launch (checkGridAtRunTime), and so does the Python runtime.
LogicalResult checkGridSize(Operation *op, AffineExpr blocks) {
  auto count = dyn_cast<AffineConstantExpr>(blocks);
  if (!count || count.getValue() <= kMaxGridSizeX)
    return success();
  return op->emitOpError("needs ")
         << count.getValue() << " thread blocks, more than the "
         << kMaxGridSizeX << " a CUDA grid holds in x";
}

/// Asserts on the host, before a launch of `blocks` thread blocks computed
/// from size symbols, that CUDA's grid holds them: the symbols' values are
/// known only at run time, and a larger count would launch cut to 32 bits.
/// An unsigned comparison also refuses a count that wrapped negative.
void checkGridAtRunTime(OpBuilder &b, Location loc, Value blocks,
                               StringRef kernel) {
  Value limit = arith::ConstantIndexOp::create(b, loc, kMaxGridSizeX);
  Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                     blocks, limit);
  cf::AssertOp::create(b, loc, fits,
                       (kernel + " needs more thread blocks than the " +
                        llvm::Twine(kMaxGridSizeX) +
                        " a CUDA grid holds in x")
                           .str());
}

/// `value` from lane `lane ^ offset` of the warp, for any scalar type.
Value shuffleXor(OpBuilder &b, Location loc, Value value, int32_t offset) {
  return shuffleScalar(
      b, loc, value,
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset),
      gpu::ShuffleMode::XOR);
}

/// Combines `acc` over aligned groups of `lanes` lanes of each warp; every
/// lane gets its group's result (a butterfly of xor shuffles).
SmallVector<Value> warpAllReduce(OpBuilder &b, Location loc,
                                 const ReductionCombiner &combiner,
                                 ValueRange acc, int64_t lanes = kWarpSize) {
  SmallVector<Value> current(acc.begin(), acc.end());
  for (int32_t offset = lanes / 2; offset >= 1; offset /= 2) {
    SmallVector<Value> other;
    for (Value v : current)
      other.push_back(shuffleXor(b, loc, v, offset));
    current = combiner.emitCombine(b, loc, current, other);
  }
  return current;
}

/// Emits one kernel of a graph into the graph's gpu.module and launches it
/// from the host function; records it in the graph's manifest steps.
class GPUHostTarget final : public HostTarget {
public:
  /// `kernelOptions` replace `options` for the kernels they name (the
  /// names used are added to `configured`).
  GPUHostTarget(StringRef graphName, const MappingOptions &options,
                const llvm::StringMap<MappingOptions> &kernelOptions,
                llvm::StringSet<> &configured,
                SmallVectorImpl<Attribute> &manifestSteps,
                unsigned &numKernels)
      : graphName(graphName), options(options), kernelOptions(kernelOptions),
        configured(configured), manifestSteps(manifestSteps),
        numKernels(numKernels) {}

  Value allocate(OpBuilder &b, Location loc, MemRefType type,
                 Value dynamicSize) override {
    SmallVector<Value> dynamicSizes;
    if (dynamicSize)
      dynamicSizes.push_back(dynamicSize);
    return gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(),
                                ValueRange{}, dynamicSizes, ValueRange{},
                                /*hostShared=*/false)
        .getMemref();
  }
  void deallocate(OpBuilder &b, Location loc, Value memref) override {
    gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{},
                           memref);
  }
  void copy(OpBuilder &b, Location loc, Value from, Value to) override {
    gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, to,
                          from);
  }

  LogicalResult emitKernel(OpBuilder &b, const KernelPlan &plan,
                           const GraphPlan &graph, ArrayRef<unsigned> storages,
                           ValueRange args) override;
  LogicalResult emitComboKernel(OpBuilder &b, ForeachOp op,
                                ArrayRef<ComboPart> parts,
                                const GraphPlan &graph,
                                ArrayRef<unsigned> storages,
                                ValueRange args) override;
  /// One combo kernel of `parts` (a partition of the foreach `op`), named
  /// after `node`.
  LogicalResult emitComboPartition(OpBuilder &b, ForeachOp op,
                                   StringRef node,
                                   ArrayRef<const ComboPart *> parts,
                                   const MappingOptions &comboOptions,
                                   const GraphPlan &graph,
                                   ArrayRef<unsigned> storages,
                                   ValueRange args);
  /// A pointwise kernel that changes layout, in 2-D tiles through shared
  /// memory (TransposeTiles.h).
  LogicalResult emitTransposeKernel(OpBuilder &b, const KernelPlan &plan,
                                    const TransposeTile &tile,
                                    const GraphPlan &graph,
                                    ArrayRef<unsigned> storages,
                                    ValueRange args);

  void noteExtern(ExternOp op, const GraphPlan &graph,
                  ArrayRef<unsigned> storages) override {
    Builder b(op.getContext());
    const StoragePlan &plan = graph.storage;
    auto storageName = [&](Value buffer) -> Attribute {
      return b.getStringAttr(plan.storages[*plan.lookup(buffer)].name);
    };
    SmallVector<Attribute> args, inputs, outputs;
    for (unsigned s : storages)
      args.push_back(b.getStringAttr(plan.storages[s].name));
    // Buffer name -> storage, for the call's arguments, which name buffers.
    NamedAttrList buffers;
    auto addBuffer = [&](Value buffer) {
      if (!buffers.get(getBufferName(buffer)))
        buffers.append(getBufferName(buffer), storageName(buffer));
    };
    for (Value input : op.getInputs()) {
      inputs.push_back(storageName(input));
      addBuffer(input);
    }
    for (const ExternOutput &output : getExternOutputs(op)) {
      outputs.push_back(b.getDictionaryAttr({
          b.getNamedAttr("buffer", getBufferName(output.buffer)),
          b.getNamedAttr("storage", storageName(output.buffer)),
          b.getNamedAttr("index", b.getI64IntegerAttr(output.index)),
      }));
      addBuffer(output.buffer);
    }
    SmallVector<NamedAttribute> step = {
        b.getNamedAttr("kind", b.getStringAttr("extern")),
        b.getNamedAttr("name", b.getStringAttr(op.getKernel())),
        b.getNamedAttr("node", b.getStringAttr(op.getName())),
        b.getNamedAttr("args", b.getArrayAttr(args)),
        b.getNamedAttr("inputs", b.getArrayAttr(inputs)),
        b.getNamedAttr("outputs", b.getArrayAttr(outputs)),
        b.getNamedAttr("buffers", buffers.getDictionary(b.getContext())),
    };
    if (auto call = op->getAttrOfType<DictionaryAttr>(kExternCallAttrName))
      step.push_back(b.getNamedAttr("call", call));
    manifestSteps.push_back(b.getDictionaryAttr(step));
  }

  std::string getModuleName() const { return (graphName + "_kernels").str(); }

private:
  gpu::GPUModuleOp getOrCreateModule(OpBuilder &b, Operation *host);
  gpu::GPUFuncOp createKernelFunc(OpBuilder &b, Location loc, StringRef name,
                                  int64_t blockSize, const GraphPlan &graph,
                                  ArrayRef<unsigned> storages, ValueRange args);
  SmallVector<Value> kernelSymbols(gpu::GPUFuncOp kernel) const;
  /// `clusterSize` blocks along x form a thread block cluster (1: none).
  void launch(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
              StringRef node, AffineExpr gridSize, int64_t blockSize,
              const GraphPlan &graph, ArrayRef<unsigned> storages,
              ValueRange args, int64_t clusterSize = 1);
  LogicalResult emitBody(OpBuilder &b, gpu::GPUFuncOp kernel,
                         const KernelPlan &plan, const KernelMapping &mapping,
                         const std::function<Value(Value)> &getMemref,
                         AffineExpr firstBlock = AffineExpr());
  /// Combines `acc` over the `numLanes` threads of each row (aligned
  /// groups of whole warps); every thread gets its row's result.
  SmallVector<Value> blockAllReduce(OpBuilder &b, Location loc,
                                    gpu::GPUFuncOp kernel, Value tid,
                                    int64_t blockSize, int64_t numLanes,
                                    const ReductionCombiner &combiner,
                                    ValueRange acc);
  /// blockAllReduce of several accumulators at once: one barrier for all.
  SmallVector<SmallVector<Value>>
  blockAllReduceMany(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                     Value tid, int64_t blockSize, int64_t numLanes,
                     ArrayRef<const ReductionCombiner *> combiners,
                     ArrayRef<SmallVector<Value>> accs);

  /// Merges the accumulators of a split row (see KernelMapping): each
  /// block combines its lanes' partials, its first thread writes them to
  /// the kernel's global workspace and counts the block in the row's
  /// counter; the block that counts last merges the row's partials in
  /// partial order (deterministic, whichever block ends last), resets the
  /// counter for the next launch (CUDA graph replays included), and sets
  /// `finished`, which the per-row stores wait for. Other blocks return
  /// the identity.
  SmallVector<SmallVector<Value>>
  splitAllReduce(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel, Value tid,
                 Value x, Value part, const KernelMapping &mapping,
                 ArrayRef<const ReductionCombiner *> combiners,
                 ArrayRef<SmallVector<Value>> accs, Value &finished);

  /// Merges the accumulators of a split row whose blocks form a cluster:
  /// each block combines its lanes' partials and its first thread stores
  /// them into slot `part` of the cluster's first block's shared memory
  /// (`mapa`, `st.shared::cluster`); after a cluster barrier (release,
  /// then acquire) the first block merges the row's partials in partial
  /// order, as splitAllReduce, and sets `finished`. Other blocks return
  /// the identity.
  SmallVector<SmallVector<Value>>
  clusterAllReduce(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                   Value tid, Value part, const KernelMapping &mapping,
                   ArrayRef<const ReductionCombiner *> combiners,
                   ArrayRef<SmallVector<Value>> accs, Value &finished);

  /// Each block's partials of a split row, in all of its threads.
  SmallVector<SmallVector<Value>>
  blockPartials(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel, Value tid,
                const KernelMapping &mapping,
                ArrayRef<const ReductionCombiner *> combiners,
                ArrayRef<SmallVector<Value>> accs);

  /// The merge of a split row's partials in the block that finishes it:
  /// lane l of each warp takes partial l mod split (`load(l mod split,
  /// w)` of accumulator value w, stored as getWorkspaceType), and a
  /// butterfly over the split's lanes merges them in a fixed order;
  /// elsewhere the identity.
  SmallVector<SmallVector<Value>> mergePartials(
      OpBuilder &b, Location loc, Value tid, int64_t split, Value finished,
      ArrayRef<const ReductionCombiner *> combiners,
      llvm::function_ref<Value(OpBuilder &, Value, unsigned, Type)> load,
      llvm::function_ref<void(OpBuilder &)> beforeLoads);

  /// Combines `acc` over the `numLanes` threads of each row of a column
  /// layout (thread = lane * rowsPerBlock + row): rows of fewer than a
  /// warp first fold the lanes a warp holds of them by xor shuffles; then
  /// the partials meet in shared memory (one a lane, or one a warp after
  /// shuffles) and every thread folds its row's in order.
  SmallVector<Value> columnAllReduce(OpBuilder &b, Location loc,
                                     gpu::GPUFuncOp kernel, Value tid,
                                     int64_t rowsPerBlock, int64_t numLanes,
                                     const ReductionCombiner &combiner,
                                     ValueRange acc);

  /// The options of the kernel of node `node`: its kernel-configs entry,
  /// else the module's.
  const MappingOptions &getOptions(StringRef node);

  StringRef graphName;
  const MappingOptions &options;
  const llvm::StringMap<MappingOptions> &kernelOptions;
  llvm::StringSet<> &configured;
  SmallVectorImpl<Attribute> &manifestSteps;
  unsigned &numKernels;
  gpu::GPUModuleOp module;
  int64_t sharedBytes = 0;
  /// Split reductions emitted into the current kernel (names its globals).
  unsigned numSplits = 0;
};

gpu::GPUModuleOp GPUHostTarget::getOrCreateModule(OpBuilder &b,
                                                  Operation *host) {
  if (module)
    return module;
  OpBuilder mb(host);
  module = gpu::GPUModuleOp::create(mb, host->getLoc(), getModuleName());
  // NVPTX's data layout (NVPTXTargetMachine, 64-bit), set before the
  // kernels are translated to LLVM IR: a load or store the LLVM dialect
  // leaves without an alignment takes its type's ABI alignment from the
  // module's layout when translated, and LLVM's default layout aligns i64
  // to 4 bytes. An i64 store of a bitcast double then became a double
  // store aligned to 4, which NVPTX splits into two `st.global.b32` of the
  // f64 register, and the GPU wrote the low word as the double converted
  // to an integer (to_dtype_bitcast of 1.0 to int64 gave 0x3ff0000000000001
  // on an H100).
  module->setAttr("llvm.data_layout",
                  mb.getStringAttr(kNVPTXDataLayout));
  return module;
}

SmallVector<Value> GPUHostTarget::blockAllReduce(
    OpBuilder &b, Location loc, gpu::GPUFuncOp kernel, Value tid,
    int64_t blockSize, int64_t numLanes, const ReductionCombiner &combiner,
    ValueRange acc) {
  return blockAllReduceMany(b, loc, kernel, tid, blockSize, numLanes,
                            {&combiner}, {SmallVector<Value>(acc)})
      .front();
}

SmallVector<SmallVector<Value>>
GPUHostTarget::blockAllReduceMany(OpBuilder &b, Location loc,
                                  gpu::GPUFuncOp kernel, Value tid,
                                  int64_t blockSize, int64_t numLanes,
                                  ArrayRef<const ReductionCombiner *> combiners,
                                  ArrayRef<SmallVector<Value>> accs) {
  SmallVector<SmallVector<Value>> perWarp;
  for (auto [combiner, acc] : llvm::zip(combiners, accs))
    perWarp.push_back(warpAllReduce(b, loc, *combiner, acc));
  int64_t numWarps = blockSize / kWarpSize;
  int64_t warpsPerRow = numLanes / kWarpSize;
  if (warpsPerRow == 1)
    return perWarp;
  // Lane 0 of each warp publishes the warp's partial results; after the
  // barrier every warp combines all of them, so every thread has the row's.
  Type indexType = tid.getType();
  Value warp = arith::ShRUIOp::create(b, loc, tid,
                                      createIntConstant(b, loc, indexType, 5));
  Value laneInWarp = arith::AndIOp::create(
      b, loc, tid, createIntConstant(b, loc, indexType, kWarpSize - 1));
  SmallVector<SmallVector<Value>> slots;
  for (const ReductionCombiner *combiner : combiners) {
    SmallVector<Value> &own = slots.emplace_back();
    for (Type type : combiner->getAccumulatorTypes())
      own.push_back(addSharedArray(kernel, loc, numWarps, type, sharedBytes));
  }
  Value isLeader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, laneInWarp,
                            createIntConstant(b, loc, indexType, 0));
  Value warpIndex = arith::IndexCastOp::create(b, loc, b.getIndexType(), warp);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifOp = scf::IfOp::create(b, loc, isLeader, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    for (auto [values, own] : llvm::zip(perWarp, slots))
      for (auto [v, slot] : llvm::zip(values, own))
        memref::StoreOp::create(b, loc, v, slot, ValueRange{warpIndex});
  }
  gpu::BarrierOp::create(b, loc);
  // Lane l reads partial l mod warpsPerRow (a power of two) of its row's
  // warps, so a butterfly over log2(warpsPerRow) steps gives every lane the
  // row's total.
  Value readIndex = arith::AndIOp::create(
      b, loc, laneInWarp,
      createIntConstant(b, loc, indexType, warpsPerRow - 1));
  if (warpsPerRow != numWarps)
    readIndex = arith::OrIOp::create(
        b, loc, readIndex,
        arith::AndIOp::create(
            b, loc, warp,
            createIntConstant(b, loc, indexType, ~(warpsPerRow - 1))));
  readIndex = arith::IndexCastOp::create(b, loc, b.getIndexType(), readIndex);
  SmallVector<SmallVector<Value>> results;
  for (auto [combiner, own] : llvm::zip(combiners, slots)) {
    SmallVector<Value> partials;
    for (Value slot : own)
      partials.push_back(
          memref::LoadOp::create(b, loc, slot, ValueRange{readIndex}));
    results.push_back(warpAllReduce(b, loc, *combiner, partials, warpsPerRow));
  }
  return results;
}

SmallVector<Value> GPUHostTarget::columnAllReduce(
    OpBuilder &b, Location loc, gpu::GPUFuncOp kernel, Value tid,
    int64_t rowsPerBlock, int64_t numLanes, const ReductionCombiner &combiner,
    ValueRange acc) {
  Type indexType = tid.getType();
  auto constant = [&](int64_t v) {
    return createIntConstant(b, loc, indexType, v);
  };
  int64_t blockSize = rowsPerBlock * numLanes;
  // Rows of fewer than a warp: a warp holds kWarpSize / rowsPerBlock lanes
  // of each of its rows, rowsPerBlock apart; xor shuffles fold them first,
  // so that shared memory holds one partial a row and warp and each thread
  // folds blockSize / kWarpSize of them instead of numLanes.
  bool shuffle = rowsPerBlock < kWarpSize && blockSize % kWarpSize == 0;
  SmallVector<Value> current(acc.begin(), acc.end());
  int64_t slotsPerRow = numLanes;
  if (shuffle) {
    for (int32_t offset = kWarpSize / 2; offset >= rowsPerBlock; offset /= 2) {
      SmallVector<Value> other;
      for (Value v : current)
        other.push_back(shuffleXor(b, loc, v, offset));
      current = combiner.emitCombine(b, loc, current, other);
    }
    slotsPerRow = blockSize / kWarpSize;
  }
  int64_t numSlots = rowsPerBlock * slotsPerRow;
  SmallVector<Value> slots;
  for (Type type : combiner.getAccumulatorTypes())
    slots.push_back(addSharedArray(kernel, loc, numSlots, type, sharedBytes));
  // Each thread's partials go to slot `at` of every accumulator.
  auto publish = [&](Value at) {
    Value self = arith::IndexCastOp::create(b, loc, b.getIndexType(), at);
    for (auto [v, slot] : llvm::zip(current, slots))
      memref::StoreOp::create(b, loc, v, slot, ValueRange{self});
  };
  if (shuffle) {
    // The warp's first rowsPerBlock lanes (one of each row) publish at
    // warp * rowsPerBlock + row.
    Value laneInWarp =
        arith::AndIOp::create(b, loc, tid, constant(kWarpSize - 1));
    Value publishes = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            laneInWarp, constant(rowsPerBlock));
    OpBuilder::InsertionGuard guard(b);
    auto ifOp = scf::IfOp::create(b, loc, publishes, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    // Operands made one statement at a time: the IR's order must not
    // depend on the compiler's order of evaluating arguments.
    Value rows = constant(rowsPerBlock);
    Value warp = arith::ShRUIOp::create(b, loc, tid,
                                        constant(llvm::Log2_64(kWarpSize)));
    publish(arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, warp, rows), laneInWarp));
  } else {
    publish(tid);
  }
  gpu::BarrierOp::create(b, loc);
  // The row's partials lie rowsPerBlock apart from its first.
  Value row = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      arith::AndIOp::create(b, loc, tid, constant(rowsPerBlock - 1)));
  auto partial = [&](int64_t k) {
    Value at = arith::AddIOp::create(
        b, loc, row, arith::ConstantIndexOp::create(b, loc, k * rowsPerBlock));
    SmallVector<Value> values;
    for (Value slot : slots)
      values.push_back(memref::LoadOp::create(b, loc, slot, ValueRange{at}));
    return values;
  };
  SmallVector<Value> result = partial(0);
  for (int64_t k = 1; k < slotsPerRow; ++k)
    result = combiner.emitCombine(b, loc, result, partial(k));
  return result;
}

/// The type a split reduction's workspace keeps a partial of `type` in
/// (i1 as a byte, as memrefs of i1 are not addressable bits).
static Type getWorkspaceType(Type type) {
  return type.isInteger(1) ? IntegerType::get(type.getContext(), 8) : type;
}

SmallVector<SmallVector<Value>> GPUHostTarget::splitAllReduce(
    OpBuilder &b, Location loc, gpu::GPUFuncOp kernel, Value tid, Value x,
    Value part, const KernelMapping &mapping,
    ArrayRef<const ReductionCombiner *> combiners,
    ArrayRef<SmallVector<Value>> accs, Value &finished) {
  MLIRContext *ctx = b.getContext();
  Type indexType = tid.getType();
  int64_t split = mapping.splitBlocks;
  auto constant = [&](int64_t v) {
    return createIntConstant(b, loc, indexType, v);
  };
  SmallVector<SmallVector<Value>> partials =
      blockPartials(b, loc, kernel, tid, mapping, combiners, accs);

  // The kernel's workspace: one partial per block of each accumulator
  // value, and a counter per row, zero when the module loads and reset by
  // each row's last block. Module globals, so that they need no
  // allocation or clearing by the runtime.
  unsigned id = numSplits++;
  auto globalSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global);
  int64_t rows = cast<AffineConstantExpr>(mapping.gridSize).getValue() / split;
  auto makeGlobal = [&](const Twine &suffix, Type type, int64_t size,
                        bool zero) -> Value {
    auto memrefType = MemRefType::get({size}, type, AffineMap(), globalSpace);
    std::string name =
        (kernel.getName() + "_split" + Twine(id) + "_" + suffix).str();
    OpBuilder gb(kernel);
    Attribute init = gb.getUnitAttr();
    if (zero)
      init = DenseElementsAttr::get(RankedTensorType::get({size}, type),
                                    gb.getZeroAttr(type));
    memref::GlobalOp::create(gb, loc, name, gb.getStringAttr("private"),
                             memrefType, init, /*constant=*/false,
                             /*alignment=*/IntegerAttr());
    return memref::GetGlobalOp::create(b, loc, memrefType, name);
  };
  SmallVector<Value> workspaces;
  for (auto [i, combiner] : llvm::enumerate(combiners))
    for (auto [j, type] : llvm::enumerate(combiner->getAccumulatorTypes()))
      workspaces.push_back(makeGlobal("partial" + Twine(i) + "_" + Twine(j),
                                      getWorkspaceType(type), rows * split,
                                      /*zero=*/false));
  Value counters = makeGlobal("count", b.getI32Type(), rows, /*zero=*/true);
  Value flag = addSharedArray(kernel, loc, 1, b.getI32Type(), sharedBytes);

  auto toIndex = [&](Value v) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult();
  };
  auto fence = [&](OpBuilder &fb) {
    LLVM::FenceOp::create(fb, loc, LLVM::AtomicOrdering::acq_rel, "device");
  };
  Value zeroIndex = arith::ConstantIndexOp::create(b, loc, 0);
  Value row = toIndex(x);
  {
    // The block's first thread publishes its partials and counts the block.
    OpBuilder::InsertionGuard guard(b);
    Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                         constant(0));
    auto ifOp = scf::IfOp::create(b, loc, leader, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value slot = toIndex(arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, x, constant(split)), part));
    unsigned w = 0;
    for (const SmallVector<Value> &values : partials)
      for (Value v : values) {
        Type stored = getWorkspaceType(v.getType());
        if (stored != v.getType())
          v = arith::ExtUIOp::create(b, loc, stored, v);
        memref::StoreOp::create(b, loc, v, workspaces[w++], ValueRange{slot});
      }
    fence(b);
    Value one = createIntConstant(b, loc, b.getI32Type(), 1);
    Value before = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::addi, one, counters, ValueRange{row});
    Value last = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, before,
        createIntConstant(b, loc, b.getI32Type(), split - 1));
    auto reset = scf::IfOp::create(b, loc, last, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard resetGuard(b);
      b.setInsertionPoint(reset.thenBlock()->getTerminator());
      memref::StoreOp::create(b, loc,
                              createIntConstant(b, loc, b.getI32Type(), 0),
                              counters, ValueRange{row});
    }
    memref::StoreOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, b.getI32Type(), last), flag,
        ValueRange{zeroIndex});
  }
  gpu::BarrierOp::create(b, loc);
  finished = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      memref::LoadOp::create(b, loc, flag, ValueRange{zeroIndex}),
      createIntConstant(b, loc, b.getI32Type(), 0));

  // The last block merges the row's partials.
  return mergePartials(
      b, loc, tid, split, finished, combiners,
      [&](OpBuilder &lb, Value which, unsigned w, Type) -> Value {
        Value slot = toIndex(arith::AddIOp::create(
            lb, loc, arith::MulIOp::create(lb, loc, x, constant(split)),
            which));
        return memref::LoadOp::create(lb, loc, workspaces[w],
                                      ValueRange{slot});
      },
      fence);
}

SmallVector<SmallVector<Value>> GPUHostTarget::blockPartials(
    OpBuilder &b, Location loc, gpu::GPUFuncOp kernel, Value tid,
    const KernelMapping &mapping,
    ArrayRef<const ReductionCombiner *> combiners,
    ArrayRef<SmallVector<Value>> accs) {
  if (mapping.blockSize > kWarpSize)
    return blockAllReduceMany(b, loc, kernel, tid, mapping.blockSize,
                              mapping.blockSize, combiners, accs);
  SmallVector<SmallVector<Value>> partials;
  for (auto [combiner, acc] : llvm::zip(combiners, accs))
    partials.push_back(
        warpAllReduce(b, loc, *combiner, acc, mapping.blockSize));
  return partials;
}

SmallVector<SmallVector<Value>> GPUHostTarget::mergePartials(
    OpBuilder &b, Location loc, Value tid, int64_t split, Value finished,
    ArrayRef<const ReductionCombiner *> combiners,
    llvm::function_ref<Value(OpBuilder &, Value, unsigned, Type)> load,
    llvm::function_ref<void(OpBuilder &)> beforeLoads) {
  SmallVector<Type> resultTypes;
  for (const ReductionCombiner *combiner : combiners)
    llvm::append_range(resultTypes, combiner->getAccumulatorTypes());
  auto ifOp = scf::IfOp::create(b, loc, resultTypes, finished,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    beforeLoads(b);
    Value which = arith::AndIOp::create(
        b, loc, tid, createIntConstant(b, loc, tid.getType(), split - 1));
    SmallVector<Value> merged;
    unsigned w = 0;
    for (const ReductionCombiner *combiner : combiners) {
      SmallVector<Value> loaded;
      for (Type type : combiner->getAccumulatorTypes()) {
        Value v = load(b, which, w++, getWorkspaceType(type));
        if (v.getType() != type)
          v = arith::TruncIOp::create(b, loc, type, v);
        loaded.push_back(v);
      }
      llvm::append_range(merged,
                         warpAllReduce(b, loc, *combiner, loaded, split));
    }
    scf::YieldOp::create(b, loc, merged);
    b.setInsertionPointToStart(ifOp.elseBlock());
    SmallVector<Value> identities;
    for (const ReductionCombiner *combiner : combiners)
      llvm::append_range(identities, combiner->emitIdentity(b, loc));
    scf::YieldOp::create(b, loc, identities);
  }
  SmallVector<SmallVector<Value>> results;
  unsigned pos = 0;
  for (const ReductionCombiner *combiner : combiners) {
    size_t n = combiner->getAccumulatorTypes().size();
    results.emplace_back(ifOp.getResults().begin() + pos,
                         ifOp.getResults().begin() + pos + n);
    pos += n;
  }
  return results;
}

SmallVector<SmallVector<Value>> GPUHostTarget::clusterAllReduce(
    OpBuilder &b, Location loc, gpu::GPUFuncOp kernel, Value tid, Value part,
    const KernelMapping &mapping,
    ArrayRef<const ReductionCombiner *> combiners,
    ArrayRef<SmallVector<Value>> accs, Value &finished) {
  MLIRContext *ctx = b.getContext();
  int64_t split = mapping.splitBlocks;
  SmallVector<SmallVector<Value>> partials =
      blockPartials(b, loc, kernel, tid, mapping, combiners, accs);

  // The first block's slots: an array of `split` partials per accumulator
  // value in static shared memory (address space 3), which every block of
  // the cluster has; only the first block's are used.
  unsigned id = numSplits++;
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/3);
  auto clusterPtr = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/7);
  SmallVector<LLVM::GlobalOp> slots;
  SmallVector<Type> slotTypes;
  {
    OpBuilder gb(kernel);
    unsigned w = 0;
    for (const ReductionCombiner *combiner : combiners)
      for (Type type : combiner->getAccumulatorTypes()) {
        Type stored = getWorkspaceType(type);
        int64_t bytes = std::max<int64_t>(stored.getIntOrFloatBitWidth() / 8,
                                          1);
        slots.push_back(LLVM::GlobalOp::create(
            gb, loc, LLVM::LLVMArrayType::get(stored, split),
            /*isConstant=*/false, LLVM::Linkage::Internal,
            (kernel.getName() + "_cluster" + Twine(id) + "_partial" +
             Twine(w++))
                .str(),
            /*value=*/Attribute(), /*alignment=*/bytes, /*addrSpace=*/3));
        slotTypes.push_back(stored);
        sharedBytes += split * bytes;
      }
  }
  auto slotAt = [&](OpBuilder &sb, unsigned w, Value base, Type ptrType,
                    Value index) -> Value {
    return LLVM::GEPOp::create(sb, loc, ptrType, slotTypes[w], base,
                               ArrayRef<LLVM::GEPArg>{index});
  };
  // A block may write into another's shared memory only once that block
  // runs: every block arrives (relaxed) at the cluster barrier when it
  // starts, and the first exchange of the kernel waits for all of them.
  if (id == 0) {
    OpBuilder eb = OpBuilder::atBlockBegin(&kernel.getBody().front());
    NVVM::ClusterArriveRelaxedOp::create(eb, loc, eb.getUnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  }
  {
    // The block's first thread stores its partials into slot `part` of the
    // first block's.
    OpBuilder::InsertionGuard guard(b);
    Value leader =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                              createIntConstant(b, loc, tid.getType(), 0));
    auto ifOp = scf::IfOp::create(b, loc, leader, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value firstRank = createIntConstant(b, loc, b.getI32Type(), 0);
    unsigned w = 0;
    for (const SmallVector<Value> &values : partials)
      for (Value v : values) {
        if (slotTypes[w] != v.getType())
          v = arith::ExtUIOp::create(b, loc, slotTypes[w], v);
        Value local = LLVM::AddressOfOp::create(b, loc, slots[w]);
        Value remote =
            NVVM::MapaOp::create(b, loc, clusterPtr, local, firstRank);
        LLVM::StoreOp::create(b, loc, v,
                              slotAt(b, w, remote, clusterPtr, part));
        ++w;
      }
  }
  // Release the stores; the first block acquires them.
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  finished =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part,
                            createIntConstant(b, loc, part.getType(), 0));
  return mergePartials(
      b, loc, tid, split, finished, combiners,
      [&](OpBuilder &lb, Value which, unsigned w, Type type) -> Value {
        Value local = LLVM::AddressOfOp::create(lb, loc, slots[w]);
        return LLVM::LoadOp::create(lb, loc, type,
                                    slotAt(lb, w, local, sharedPtr, which));
      },
      [](OpBuilder &) {});
}

/// Adds `vector` (2 or 4 f32) into the storage `memref` from element
/// `index` on with one sm_90 vector reduction, `red.global.add.v4.f32`
/// (PTX 8.1; NVPTX has no vector atomicrmw), as Triton's vector atomics:
/// each element is added atomically, relaxed at GPU scope, as the scalar
/// `atom.global.add.f32` of memref.atomic_rmw does. Kernel storages are
/// memrefs of offset 0 from bare pointers: the aligned pointer is the
/// storage's first element.
static void emitVectorAtomicAdd(OpBuilder &b, Location loc, Value memref,
                                Value index, Value vector) {
  auto type = cast<VectorType>(vector.getType());
  int64_t width = type.getDimSize(0);
  int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value offset = arith::MulIOp::create(
      b, loc, index, arith::ConstantIndexOp::create(b, loc, elementBytes));
  Value address = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(), arith::AddIOp::create(b, loc, base, offset));
  MLIRContext *ctx = b.getContext();
  Value generic = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx), address);
  Value global = LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1), generic);
  SmallVector<Value> operands{global};
  std::string constraints = "l";
  std::string list;
  for (int64_t i = 0; i < width; ++i) {
    operands.push_back(vector::ExtractOp::create(b, loc, vector, i));
    constraints += ",f";
    list += (i ? ", $" : "$") + std::to_string(i + 1);
  }
  constraints += ",~{memory}";
  std::string text = "red.global.add.v" + std::to_string(width) +
                     ".f32 [$0], {" + list + "};";
  LLVM::InlineAsmOp::create(b, loc, Type(), operands, text, constraints,
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

LogicalResult
GPUHostTarget::emitBody(OpBuilder &b, gpu::GPUFuncOp kernel,
                        const KernelPlan &kernelPlan,
                        const KernelMapping &mapping,
                        const std::function<Value(Value)> &getMemref,
                        AffineExpr firstBlock) {
  const KernelPlan &plan = mapping.getPlan(kernelPlan);
  Location loc = plan.op->getLoc();
  // Row and element indices are 32-bit unless the kernel is too large, or
  // its sizes are only known at run time (compared without sums that could
  // leave int64 for huge rows).
  constexpr int64_t kMaxI32 = std::numeric_limits<int32_t>::max();
  bool narrow =
      plan.hasStaticNumel() && plan.hasStaticRNumel() &&
      plan.numel < kMaxI32 - mapping.rowsPerBlock * mapping.rowsPerThread &&
      plan.rnumel < kMaxI32 - mapping.numLanes * mapping.elementsPerLane;
  Type indexType = narrow ? b.getI32Type() : b.getI64Type();
  KernelEmitter emitter(plan, getMemref, indexType, kernelSymbols(kernel));
  auto constant = [&](int64_t v) {
    return createIntConstant(b, loc, indexType, v);
  };
  Value tid = arith::IndexCastUIOp::create(
      b, loc, indexType, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value bid = arith::IndexCastUIOp::create(
      b, loc, indexType, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  if (firstBlock && firstBlock != getAffineConstantExpr(0, b.getContext()))
    bid = arith::SubIOp::create(b, loc, bid,
                                emitter.emitSize(b, firstBlock));

  RowLayout layout;
  Value x;
  Value zero = constant(0);
  if (mapping.kind == KernelMapping::Kind::Pointwise) {
    x = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, bid, constant(mapping.blockSize)),
        tid);
    layout.lane = zero;
  } else if (mapping.columns) {
    // Row tid mod rowsPerBlock of the block, lane tid / rowsPerBlock.
    Value first =
        arith::MulIOp::create(b, loc, bid, constant(mapping.rowsPerBlock));
    Value row =
        arith::AndIOp::create(b, loc, tid, constant(mapping.rowsPerBlock - 1));
    x = arith::AddIOp::create(b, loc, first, row);
    layout.lane = arith::ShRUIOp::create(
        b, loc, tid, constant(llvm::Log2_64(mapping.rowsPerBlock)));
  } else if (mapping.splitBlocks > 1) {
    // Row bid / split; the block's lanes are lanes (bid mod split) * L, ...
    // of the row's split * L.
    int64_t split = mapping.splitBlocks;
    x = arith::ShRUIOp::create(b, loc, bid, constant(llvm::Log2_64(split)));
    Value part = arith::AndIOp::create(b, loc, bid, constant(split - 1));
    layout.lane = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, part, constant(mapping.blockSize)), tid);
    layout.twoPassStatistics = false;
    layout.finishedRow = std::make_shared<Value>();
    layout.combineLevelAcrossLanes =
        [this, kernel, tid, x, part, &mapping, finished = layout.finishedRow](
            OpBuilder &cb, Location cl,
            ArrayRef<const ReductionCombiner *> combiners,
            ArrayRef<SmallVector<Value>> accs) {
          if (mapping.cluster)
            return clusterAllReduce(cb, cl, kernel, tid, part, mapping,
                                    combiners, accs, *finished);
          return splitAllReduce(cb, cl, kernel, tid, x, part, mapping,
                                combiners, accs, *finished);
        };
  } else if (mapping.rowsPerBlock == 1) {
    x = mapping.rowsPerThread == 1
            ? bid
            : arith::MulIOp::create(b, loc, bid,
                                    constant(mapping.rowsPerThread))
                  .getResult();
    layout.lane = tid;
  } else {
    // Row tid / numLanes of the block, lane tid mod numLanes (powers of two).
    Value first = arith::MulIOp::create(
        b, loc, bid, constant(mapping.rowsPerBlock * mapping.rowsPerThread));
    Value row = arith::ShRUIOp::create(
        b, loc, tid, constant(llvm::Log2_64(mapping.numLanes)));
    x = arith::AddIOp::create(b, loc, first, row);
    layout.lane =
        arith::AndIOp::create(b, loc, tid, constant(mapping.numLanes - 1));
  }
  if (mapping.columns && mapping.numLanes > 1) {
    layout.combineAcrossLanes = [this, kernel, tid,
                                 rows = mapping.rowsPerBlock,
                                 lanes = mapping.numLanes](
                                    OpBuilder &cb, Location cl,
                                    const ReductionCombiner &combiner,
                                    ValueRange acc) {
      return columnAllReduce(cb, cl, kernel, tid, rows, lanes, combiner, acc);
    };
  } else if (mapping.columns || mapping.splitBlocks > 1) {
    // One thread per row: nothing to combine (split rows: see above).
  } else if (mapping.kind == KernelMapping::Kind::Reduction &&
             mapping.numLanes <= kWarpSize) {
    layout.combineAcrossLanes = [lanes = mapping.numLanes](
                                    OpBuilder &cb, Location cl,
                                    const ReductionCombiner &combiner,
                                    ValueRange acc) {
      return warpAllReduce(cb, cl, combiner, acc, lanes);
    };
  } else if (mapping.kind == KernelMapping::Kind::Reduction) {
    layout.combineAcrossLanes = [this, kernel, tid,
                                 blockSize = mapping.blockSize,
                                 lanes = mapping.numLanes](
                                    OpBuilder &cb, Location cl,
                                    const ReductionCombiner &combiner,
                                    ValueRange acc) {
      return blockAllReduce(cb, cl, kernel, tid, blockSize, lanes, combiner,
                            acc);
    };
    // A level's reductions, of all of the thread's rows, share a barrier.
    layout.combineLevelAcrossLanes =
        [this, kernel, tid, blockSize = mapping.blockSize,
         lanes =
             mapping.numLanes](OpBuilder &cb, Location cl,
                               ArrayRef<const ReductionCombiner *> combiners,
                               ArrayRef<SmallVector<Value>> accs) {
          return blockAllReduceMany(cb, cl, kernel, tid, blockSize, lanes,
                                    combiners, accs);
        };
  }
  layout.numLanes = mapping.numLanes;
  // Sorts and scans on a thread per row take adjacent rows on adjacent
  // threads: their rows kept in memory are interleaved, so that a warp's
  // accesses at one position of its rows are adjacent. A block scanning or
  // sorting a row keeps it contiguous, in shared memory where it is not in
  // memory (always, for sorts).
  bool blockScan = !plan.rowOps.empty() && mapping.numLanes > 1;
  layout.interleavedRowScratch = !blockScan;
  if (blockScan) {
    layout.scanAcrossLanes = [this, kernel, tid,
                              blockSize = mapping.blockSize,
                              lanes = mapping.numLanes,
                              perThread = mapping.scanElementsPerThread](
                                 OpBuilder &cb, Location cl,
                                 const ScanRowAccess &row, TypeRange types,
                                 ScanCombineFn combine) {
      if (lanes <= kWarpSize)
        return emitLaneGroupRowScan(cb, cl, tid, lanes, perThread, row, types,
                                    combine);
      return emitBlockRowScan(cb, cl, kernel, tid, blockSize, perThread, row,
                              types, combine, sharedBytes);
    };
    // The block's rows one after another in shared memory.
    int64_t rowsPerBlock = mapping.rowsPerBlock;
    if (rowsPerBlock > 1 && plan.hasStaticRNumel())
      layout.sharedRowOffset = arith::MulIOp::create(
          b, loc,
          arith::IndexCastUIOp::create(
              b, loc, b.getIndexType(),
              arith::ShRUIOp::create(
                  b, loc, tid, constant(llvm::Log2_64(mapping.numLanes)))),
          arith::ConstantIndexOp::create(b, loc, plan.rnumel));
    layout.sortAcrossLanes = [this, kernel, tid, rowsPerBlock,
                              lanes = mapping.numLanes](
                                 OpBuilder &cb, Location cl,
                                 const RowScratch &row, bool descending) {
      return emitBlockRowSort(cb, cl, kernel, tid, lanes, rowsPerBlock, row,
                              descending, sharedBytes);
    };
    layout.allocateRowArray = [this, kernel, rowsPerBlock](
                                  OpBuilder &, Location cl,
                                  MemRefType type) mutable -> Value {
      return addSharedArray(kernel, cl, type.getNumElements() * rowsPerBlock,
                            type.getElementType(), sharedBytes,
                            kRowArrayAlignment);
    };
  }
  layout.persistent = mapping.persistent;
  layout.elementsPerLane = mapping.elementsPerLane;
  layout.vectorWidth = mapping.vectorWidth;
  layout.earlyLoads = mapping.earlyLoads;
  layout.hoistLoads = mapping.hoistLoads;
  if (options.vectorAtomics)
    layout.atomicAddVector = emitVectorAtomicAdd;
  auto staticGrid = dyn_cast<AffineConstantExpr>(mapping.gridSize);
  bool partialGrid =
      !plan.hasStaticNumel() ||
      (mapping.splitBlocks == 1 &&
       staticGrid.getValue() * mapping.rowsPerBlock * mapping.rowsPerThread !=
           plan.numel);
  // The thread's rows: x, x + rowsPerBlock, ...
  SmallVector<RowInstance> rows;
  for (int64_t k = 0; k < mapping.rowsPerThread; ++k) {
    RowInstance row;
    row.x = k == 0 ? x
                   : arith::AddIOp::create(b, loc, x,
                                           constant(k * mapping.rowsPerBlock))
                         .getResult();
    if (partialGrid) {
      // Threads past the last row compute on the last row and store
      // nothing.
      Value numel = emitter.emitSize(b, plan.numelExpr);
      Value last =
          plan.hasStaticNumel()
              ? constant(plan.numel - 1)
              : arith::SubIOp::create(b, loc, numel, constant(1)).getResult();
      row.valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        row.x, numel);
      row.x = arith::MinUIOp::create(b, loc, row.x, last);
    }
    row.storeGuard = row.valid;
    if (mapping.kind == KernelMapping::Kind::Reduction) {
      // One lane stores what a row computes once (the first thread of the
      // block that finishes a split row).
      Value leader = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          mapping.splitBlocks > 1 ? tid : layout.lane, zero);
      row.storeGuard =
          row.valid
              ? arith::AndIOp::create(b, loc, leader, row.valid).getResult()
              : leader;
    }
    rows.push_back(row);
  }
  return emitter.emitRows(b, rows, layout);
}

/// A valid PTX identifier for a node name.
static std::string sanitize(StringRef name) {
  std::string result;
  for (char c : name)
    result.push_back(llvm::isAlnum(c) ? c : '_');
  return result;
}

/// The kernel argument type of a storage's memref: storages of symbolic
/// size get a static extent (see the file comment).
static Type getKernelArgType(Type hostType) {
  auto memref = dyn_cast<MemRefType>(hostType);
  if (!memref || memref.hasStaticShape())
    return hostType;
  return MemRefType::get({kSymbolicStorageExtent}, memref.getElementType());
}

/// An empty `gpu.func` kernel named after `node` taking the memrefs of
/// `storages`, then the size symbols (index) when the graph has some, with
/// its known block size; `sharedBytes` starts over.
gpu::GPUFuncOp GPUHostTarget::createKernelFunc(OpBuilder &b, Location loc,
                                               StringRef node,
                                               int64_t blockSize,
                                               const GraphPlan &graph,
                                               ArrayRef<unsigned> storages,
                                               ValueRange args) {
  auto host = b.getInsertionBlock()->getParentOp();
  gpu::GPUModuleOp gpuModule = getOrCreateModule(b, host);
  OpBuilder kb = OpBuilder::atBlockEnd(gpuModule.getBody());
  SmallVector<Type> argTypes;
  for (Type type : args.getTypes())
    argTypes.push_back(getKernelArgType(type));
  argTypes.append(sizeSymbols.size(), kb.getIndexType());
  auto kernel =
      gpu::GPUFuncOp::create(kb, loc, "kernel_" + sanitize(node),
                             kb.getFunctionType(argTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), kb.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      kb.getDenseI32ArrayAttr({static_cast<int32_t>(blockSize), 1, 1}));
  for (auto [i, s] : llvm::enumerate(storages)) {
    kernel.setArgAttr(i, "fusion.name",
                      kb.getStringAttr(graph.storage.storages[s].name));
    // Storages are distinct allocations, each passed once.
    kernel.setArgAttr(i, "llvm.noalias", kb.getUnitAttr());
  }
  sharedBytes = 0;
  numSplits = 0;
  return kernel;
}

/// Launches `kernel` from the host function and records the launch in the
/// manifest.
/// A size of the manifest: an integer, or its expression's text.
static Attribute manifestSize(Builder &b, AffineExpr size,
                              ArrayRef<std::string> names) {
  if (auto constant = dyn_cast<AffineConstantExpr>(size))
    return b.getI64IntegerAttr(constant.getValue());
  return b.getStringAttr(printManifestSize(size, names));
}

void GPUHostTarget::launch(OpBuilder &b, Location loc, gpu::GPUFuncOp kernel,
                           StringRef node, AffineExpr gridSize,
                           int64_t blockSize, const GraphPlan &graph,
                           ArrayRef<unsigned> storages, ValueRange args,
                           int64_t clusterSize) {
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value one = index(1);
  // Memrefs of symbolic size take the kernel's static extent; then the
  // symbols.
  SmallVector<Value> operands;
  for (auto [arg, type] : llvm::zip(args, kernel.getArgumentTypes()))
    operands.push_back(arg.getType() == type
                           ? arg
                           : memref::CastOp::create(b, loc, type, arg)
                                 .getResult());
  llvm::append_range(operands, sizeSymbols);
  Value grid = emitSizeValue(b, loc, gridSize, sizeSymbols);
  if (!isa<AffineConstantExpr>(gridSize))
    checkGridAtRunTime(b, loc, grid, kernel.getName());
  std::optional<gpu::KernelDim3> cluster;
  if (clusterSize > 1)
    cluster = gpu::KernelDim3{index(clusterSize), one, one};
  gpu::LaunchFuncOp::create(b, loc, kernel, gpu::KernelDim3{grid, one, one},
                            gpu::KernelDim3{index(blockSize), one, one},
                            /*dynamicSharedMemorySize=*/Value(), operands,
                            /*asyncTokenType=*/Type(),
                            /*asyncDependencies=*/{}, cluster);
  ++numKernels;

  SmallVector<std::string> symbolNames = getSizeSymbolNames(graph.graph);
  SmallVector<Attribute> argNames, symbols;
  for (unsigned s : storages)
    argNames.push_back(b.getStringAttr(graph.storage.storages[s].name));
  for (const std::string &name : symbolNames)
    symbols.push_back(b.getStringAttr(name));
  SmallVector<NamedAttribute> step = {
      b.getNamedAttr("kind", b.getStringAttr("kernel")),
      b.getNamedAttr("name", b.getStringAttr(kernel.getName())),
      b.getNamedAttr("node", b.getStringAttr(node)),
      b.getNamedAttr("grid",
                     b.getArrayAttr({manifestSize(b, gridSize, symbolNames),
                                     b.getI64IntegerAttr(1),
                                     b.getI64IntegerAttr(1)})),
      b.getNamedAttr("block", b.getI64ArrayAttr({blockSize, 1, 1})),
      b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(sharedBytes)),
      b.getNamedAttr("args", b.getArrayAttr(argNames)),
  };
  // The symbols' values follow the storages' pointers (64-bit each).
  if (!symbols.empty())
    step.push_back(b.getNamedAttr("symbols", b.getArrayAttr(symbols)));
  // Blocks of one thread block cluster, where the kernel has them.
  if (clusterSize > 1)
    step.push_back(b.getNamedAttr(
        "cluster", b.getI64ArrayAttr({clusterSize, 1, 1})));
  manifestSteps.push_back(b.getDictionaryAttr(step));
}

/// The values of the size symbols in `kernel`: its last arguments. Not the
/// entry block's last arguments: the shared arrays a body adds as it is
/// emitted (workgroup attributions) follow the arguments there, so a combo
/// kernel's later parts would take an earlier part's arrays for symbols.
SmallVector<Value> GPUHostTarget::kernelSymbols(gpu::GPUFuncOp kernel) const {
  ValueRange arguments =
      kernel.getArguments().take_front(kernel.getNumArguments());
  return llvm::to_vector(arguments.take_back(sizeSymbols.size()));
}

/// The memref, in `kernel`'s arguments, of every buffer of `storages`.
static std::function<Value(Value)>
memrefGetter(gpu::GPUFuncOp kernel, const GraphPlan &graph,
             ArrayRef<unsigned> storages) {
  DenseMap<unsigned, Value> memrefOf;
  for (auto [i, s] : llvm::enumerate(storages))
    memrefOf[s] = kernel.getArgument(i);
  return [memrefOf = std::move(memrefOf), &graph](Value buffer) {
    return memrefOf.lookup(*graph.storage.lookup(buffer));
  };
}

const MappingOptions &GPUHostTarget::getOptions(StringRef node) {
  std::string name = "kernel_" + sanitize(node);
  auto it = kernelOptions.find(name);
  if (it == kernelOptions.end())
    return options;
  configured.insert(name);
  return it->second;
}

LogicalResult GPUHostTarget::emitKernel(OpBuilder &b, const KernelPlan &plan,
                                        const GraphPlan &graph,
                                        ArrayRef<unsigned> storages,
                                        ValueRange args) {
  Location loc = plan.op->getLoc();
  const MappingOptions &kernelOptions = getOptions(plan.name);
  std::optional<KernelPlan> permuted;
  if (std::optional<TransposeTile> tile =
          kernelOptions.transposeTiles
              ? chooseTransposeTile(plan, graph.storage)
              : std::nullopt) {
    permuted = permuteColumnsForVectors(plan, *tile,
                                        kernelOptions.pointwiseVectorWidth);
    if (!permuted)
      return emitTransposeKernel(b, plan, *tile, graph, storages, args);
  }
  const KernelPlan &kernelPlan = permuted ? *permuted : plan;
  KernelMapping mapping = chooseMapping(kernelPlan, kernelOptions);
  if (failed(checkGridSize(plan.op, mapping.gridSize)))
    return failure();
  gpu::GPUFuncOp kernel = createKernelFunc(b, loc, plan.name,
                                           mapping.blockSize, graph, storages,
                                           args);
  int64_t clusterSize = mapping.cluster ? mapping.splitBlocks : 1;
  if (mapping.cluster)
    kernel.setKnownClusterSizeAttr(b.getDenseI32ArrayAttr(
        {static_cast<int32_t>(clusterSize), 1, 1}));
  OpBuilder kb = OpBuilder::atBlockBegin(&kernel.getBody().front());
  LogicalResult result = emitBody(kb, kernel, kernelPlan, mapping,
                                  memrefGetter(kernel, graph, storages));
  gpu::ReturnOp::create(kb, loc);
  if (failed(result))
    return failure();
  launch(b, loc, kernel, plan.name, mapping.gridSize, mapping.blockSize,
         graph, storages, args, clusterSize);
  return success();
}

LogicalResult GPUHostTarget::emitTransposeKernel(OpBuilder &b,
                                                 const KernelPlan &plan,
                                                 const TransposeTile &tile,
                                                 const GraphPlan &graph,
                                                 ArrayRef<unsigned> storages,
                                                 ValueRange args) {
  Location loc = plan.op->getLoc();
  AffineExpr grid = getAffineConstantExpr(tile.getNumBlocks(), b.getContext());
  if (failed(checkGridSize(plan.op, grid)))
    return failure();
  gpu::GPUFuncOp kernel = createKernelFunc(
      b, loc, plan.name, tile.getBlockSize(), graph, storages, args);
  OpBuilder kb = OpBuilder::atBlockBegin(&kernel.getBody().front());
  LogicalResult result =
      emitTransposeTileBody(kb, kernel, plan, tile,
                            memrefGetter(kernel, graph, storages), sharedBytes);
  gpu::ReturnOp::create(kb, loc);
  if (failed(result))
    return failure();
  launch(b, loc, kernel, plan.name, grid, tile.getBlockSize(), graph,
         storages, args);
  return success();
}

/// Inductor's `LARGE_NUMELS`: pointwise parts of more elements run alone.
static constexpr int64_t kLargeComboNumel = 51'200'000;

/// Whether two mappings of a reduction run each row the same way (threads
/// a row, rows and elements a thread, where the partials meet); the rows a
/// block may differ.
static bool sameRowMapping(const KernelMapping &a, const KernelMapping &b) {
  return a.numLanes == b.numLanes && a.rowsPerThread == b.rowsPerThread &&
         a.persistent == b.persistent &&
         a.elementsPerLane == b.elementsPerLane &&
         a.vectorWidth == b.vectorWidth && a.splitBlocks == b.splitBlocks &&
         a.cluster == b.cluster && a.columns == b.columns &&
         a.scanElementsPerThread == b.scanElementsPerThread;
}

LogicalResult GPUHostTarget::emitComboKernel(OpBuilder &b, ForeachOp op,
                                             ArrayRef<ComboPart> parts,
                                             const GraphPlan &graph,
                                             ArrayRef<unsigned> storages,
                                             ValueRange args) {
  // Its parts take its kernel-configs entry, if any.
  const MappingOptions &comboOptions = getOptions(op.getNodeName());
  // The parts that share a block size, as Inductor's combo kernels
  // partition their nodes by blocking strategy at code generation
  // (ComboKernel.horizontal_partition): a part keeps a kernel of its own
  // when sharing would change how it runs. So do a transposing tile and a
  // pointwise part over Inductor's LARGE_NUMELS, and a reduction whose rows
  // the shared block size (the largest part's, a power of two) would map
  // otherwise than its own (2-D tiles of an outer reduction, split or
  // clustered rows, block sorts and scans: chooseMapping's choices made
  // without a given block size; or other threads a row). Reductions and
  // pointwise parts that keep their mappings share a kernel, unlike in
  // Inductor, whose Triton kernels' block shapes differ between the two.
  SmallVector<KernelMapping> own;
  SmallVector<bool> alone;
  for (const ComboPart &part : parts) {
    own.push_back(chooseMapping(part.plan, comboOptions));
    alone.push_back(
        (comboOptions.transposeTiles &&
         chooseTransposeTile(part.plan, graph.storage)) ||
        (own.back().kind == KernelMapping::Kind::Pointwise &&
         part.plan.getNumelHint() > kLargeComboNumel));
  }
  // Leaving a part out may lower the shared block size: until none leaves.
  for (bool changed = true; changed;) {
    changed = false;
    int64_t blockSize = kWarpSize;
    for (auto [i, m] : llvm::enumerate(own))
      if (!alone[i])
        blockSize = std::max(blockSize, m.blockSize);
    blockSize = llvm::PowerOf2Ceil(blockSize);
    for (auto [i, part] : llvm::enumerate(parts)) {
      if (alone[i] || own[i].kind != KernelMapping::Kind::Reduction)
        continue;
      if (!sameRowMapping(own[i],
                          chooseMapping(part.plan, comboOptions, blockSize))) {
        alone[i] = true;
        changed = true;
      }
    }
  }
  SmallVector<const ComboPart *> shared;
  for (auto [i, part] : llvm::enumerate(parts))
    if (!alone[i])
      shared.push_back(&part);
  if (shared.size() == parts.size())
    return emitComboPartition(b, op, op.getNodeName(), shared, comboOptions,
                              graph, storages, args);
  for (auto [i, part] : llvm::enumerate(parts))
    if ((alone[i] || shared.size() == 1) &&
        failed(emitKernel(b, part.plan, graph, part.storages, part.args)))
      return failure();
  if (shared.size() < 2)
    return success();
  // The shared parts' storages, in the foreach's order.
  llvm::SmallDenseSet<unsigned, 16> used;
  for (const ComboPart *part : shared)
    used.insert(part->storages.begin(), part->storages.end());
  SmallVector<unsigned> sharedStorages;
  SmallVector<Value> sharedArgs;
  for (auto [s, arg] : llvm::zip_equal(storages, args))
    if (used.contains(s)) {
      sharedStorages.push_back(s);
      sharedArgs.push_back(arg);
    }
  std::string node = llvm::join(
      llvm::map_range(shared,
                      [](const ComboPart *part) { return part->plan.name; }),
      "_");
  return emitComboPartition(b, op, node, shared, comboOptions, graph,
                            sharedStorages, sharedArgs);
}

/// Inductor's combo kernel: one kernel whose consecutive ranges of blocks
/// each run one part, all with the same block size (the largest a part
/// wants, rounded to a power of two); a block runs only its part, so the
/// barriers of reductions stay uniform within a block.
LogicalResult GPUHostTarget::emitComboPartition(
    OpBuilder &b, ForeachOp op, StringRef node,
    ArrayRef<const ComboPart *> parts, const MappingOptions &comboOptions,
    const GraphPlan &graph, ArrayRef<unsigned> storages, ValueRange args) {
  Location loc = op.getLoc();
  int64_t blockSize = kWarpSize;
  for (const ComboPart *part : parts)
    blockSize = std::max(blockSize,
                         chooseMapping(part->plan, comboOptions).blockSize);
  blockSize = llvm::PowerOf2Ceil(blockSize);
  // The parts' blocks one after another (added saturating: two static
  // counts near INT64_MAX must not wrap; a symbolic part leaves the sum to
  // run time).
  int64_t totalBlocks = 0;
  for (const ComboPart *part : parts) {
    auto blocks = dyn_cast<AffineConstantExpr>(
        chooseMapping(part->plan, comboOptions, blockSize).gridSize);
    if (!blocks) {
      totalBlocks = 0;
      break;
    }
    totalBlocks = saturatingAdd(totalBlocks, blocks.getValue());
  }
  if (failed(checkGridSize(
          op, getAffineConstantExpr(totalBlocks, op.getContext()))))
    return failure();
  gpu::GPUFuncOp kernel =
      createKernelFunc(b, loc, node, blockSize, graph, storages, args);
  OpBuilder kb = OpBuilder::atBlockBegin(&kernel.getBody().front());
  std::function<Value(Value)> getMemref =
      memrefGetter(kernel, graph, storages);
  Value bid = gpu::BlockIdOp::create(kb, loc, gpu::Dimension::x);
  SmallVector<Value> symbols = kernelSymbols(kernel);
  auto blockIndex = [&](AffineExpr blocks) {
    return emitSizeValue(kb, loc, blocks, symbols);
  };
  AffineExpr firstBlock = getAffineConstantExpr(0, b.getContext());
  for (const ComboPart *part : parts) {
    KernelMapping mapping = chooseMapping(part->plan, comboOptions, blockSize);
    AffineExpr endBlock = firstBlock + mapping.gridSize;
    Value inRange = arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::ult,
                                          bid, blockIndex(endBlock));
    if (firstBlock != getAffineConstantExpr(0, b.getContext()))
      inRange = arith::AndIOp::create(
          kb, loc,
          arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::uge, bid,
                                blockIndex(firstBlock)),
          inRange);
    auto ifOp = scf::IfOp::create(kb, loc, inRange, /*withElseRegion=*/false);
    OpBuilder pb = OpBuilder::atBlockBegin(ifOp.thenBlock());
    pb.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    if (failed(emitBody(pb, kernel, part->plan, mapping, getMemref,
                        firstBlock))) {
      gpu::ReturnOp::create(kb, loc);
      return failure();
    }
    firstBlock = endBlock;
  }
  gpu::ReturnOp::create(kb, loc);
  // The parts' shared arrays add up: past a block's static shared memory,
  // the parts run as kernels of their own.
  if (sharedBytes > kMaxStaticSharedBytes) {
    kernel.erase();
    for (const ComboPart *part : parts)
      if (failed(emitKernel(b, part->plan, graph, part->storages, part->args)))
        return failure();
    return success();
  }
  launch(b, loc, kernel, node, firstBlock, blockSize, graph, storages, args);
  return success();
}

/// A tensor of the manifest: a graph input or output as a strided view of
/// a storage.
static DictionaryAttr tensorEntry(Builder &b, StringRef name,
                                  StringRef storage, BufferType type,
                                  ArrayRef<std::string> symbolNames) {
  auto sizes = [&](ArrayRef<AffineExpr> exprs) {
    SmallVector<Attribute> entries;
    for (AffineExpr e : exprs)
      entries.push_back(manifestSize(b, e, symbolNames));
    return b.getArrayAttr(entries);
  };
  return b.getDictionaryAttr({
      b.getNamedAttr("name", b.getStringAttr(name)),
      b.getNamedAttr("storage", b.getStringAttr(storage)),
      b.getNamedAttr("dtype", b.getStringAttr(getDTypeName(type.getElementType()))),
      b.getNamedAttr("shape", sizes(type.getSizeExprs())),
      b.getNamedAttr("strides", sizes(type.getStrideExprs())),
      b.getNamedAttr("offset",
                     manifestSize(b, type.getOffsetExpr(), symbolNames)),
  });
}

/// The launch manifest of a planned graph; `steps` are its kernel launches
/// and extern calls in order.
static DictionaryAttr buildManifest(Builder &b, const GraphPlan &plan,
                                    StringRef moduleName,
                                    ArrayRef<Attribute> kernelSteps) {
  const StoragePlan &storage = plan.storage;
  GraphOp graph = plan.graph;
  SmallVector<std::string> symbolNames = getSizeSymbolNames(graph);
  SmallVector<Attribute> storages;
  for (const StoragePlan::Storage &s : storage.storages) {
    StringRef role = s.role == StoragePlan::Role::Input    ? "input"
                     : s.role == StoragePlan::Role::Output ? "output"
                                                            : "temp";
    storages.push_back(b.getDictionaryAttr({
        b.getNamedAttr("name", b.getStringAttr(s.name)),
        b.getNamedAttr("role", b.getStringAttr(role)),
        b.getNamedAttr("dtype", b.getStringAttr(getDTypeName(s.elementType))),
        b.getNamedAttr("elements",
                       manifestSize(b, s.numElementsExpr, symbolNames)),
    }));
  }
  SmallVector<Attribute> inputs, outputs;
  for (BlockArgument arg : graph.getBodyBlock().getArguments())
    inputs.push_back(tensorEntry(
        b, graph.getInputName(arg.getArgNumber()).getValue(),
        storage.storages[*storage.lookup(arg)].name,
        cast<BufferType>(arg.getType()), symbolNames));
  for (auto [j, value] : llvm::enumerate(graph.getOutputOp().getBuffers())) {
    StringAttr name = getBufferName(value);
    outputs.push_back(tensorEntry(
        b, name ? name.getValue() : StringRef(),
        storage.storages[storage.outputs[j].storage].name,
        cast<BufferType>(value.getType()), symbolNames));
  }
  // Every buffer that reaches memory, by name (the first value of a name, in
  // graph order), for runtimes resolving buffers that calls or outputs
  // name: views and aliases share their base's storage.
  NamedAttrList buffers;
  auto addBuffer = [&](Value value) {
    StringAttr name = getBufferName(value);
    std::optional<unsigned> s = storage.lookup(value);
    if (name && s && !buffers.get(name))
      buffers.append(name, b.getStringAttr(storage.storages[*s].name));
  };
  for (BlockArgument arg : graph.getBodyBlock().getArguments())
    addBuffer(arg);
  graph.getBodyBlock().walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Value result : op->getResults())
      addBuffer(result);
  });
  // Kernels and externs, then the copies into output arguments.
  SmallVector<Attribute> steps(kernelSteps);
  for (const StoragePlan::Output &output : storage.outputs) {
    if (!output.copyFrom)
      continue;
    const StoragePlan::Storage &to = storage.storages[output.storage];
    const StoragePlan::Storage &from = storage.storages[*output.copyFrom];
    Attribute elements =
        to.hasStaticSize() && from.hasStaticSize()
            ? Attribute(b.getI64IntegerAttr(
                  std::min(to.numElements, from.numElements)))
            : b.getStringAttr(
                  "min(" + printManifestSize(to.numElementsExpr, symbolNames) +
                  ", " + printManifestSize(from.numElementsExpr, symbolNames) +
                  ")");
    steps.push_back(b.getDictionaryAttr({
        b.getNamedAttr("kind", b.getStringAttr("copy")),
        b.getNamedAttr("src", b.getStringAttr(from.name)),
        b.getNamedAttr("dst", b.getStringAttr(to.name)),
        b.getNamedAttr("elements", elements),
    }));
  }
  return b.getDictionaryAttr({
      b.getNamedAttr("graph", b.getStringAttr(graph.getSymName())),
      b.getNamedAttr("module", b.getStringAttr(moduleName)),
      b.getNamedAttr("storages", b.getArrayAttr(storages)),
      b.getNamedAttr("inputs", b.getArrayAttr(inputs)),
      b.getNamedAttr("outputs", b.getArrayAttr(outputs)),
      b.getNamedAttr("buffers", buffers.getDictionary(b.getContext())),
      b.getNamedAttr("steps", b.getArrayAttr(steps)),
  });
}

/// Triton's exponential of f32 values, which Inductor's `exp` (and the
/// sigmoid, softmax and GELU built on it) uses: exp2(x * log2(e)), i.e.
/// `ex2.approx.f32` (2 ulp) after one multiplication, instead of
/// libdevice's correctly range-reduced `__nv_expf`. Exponentials inside
/// special functions (marked accurate) stay libdevice's.
static void approximateExp(gpu::GPUModuleOp module) {
  SmallVector<math::ExpOp> exps;
  module.walk([&](math::ExpOp op) {
    if (op->removeAttr(kAccurateMathAttrName))
      return;
    if (getElementTypeOrSelf(op.getType()).isF32())
      exps.push_back(op);
  });
  for (math::ExpOp op : exps) {
    OpBuilder b(op);
    Value log2e = createFloatConstant(b, op.getLoc(), b.getF32Type(),
                                      1.4426950408889634);
    if (auto vector = dyn_cast<VectorType>(op.getType()))
      log2e = vector::BroadcastOp::create(b, op.getLoc(), vector, log2e);
    Value scaled =
        arith::MulFOp::create(b, op.getLoc(), op.getOperand(), log2e);
    Value result = math::Exp2Op::create(b, op.getLoc(), scaled);
    op.replaceAllUsesWith(result);
    op.erase();
  }
}

/// How f32 divisions of a kernel compute (`f32-division`).
enum class F32Division { Full, IEEE, Approx };

static std::optional<F32Division> parseF32Division(StringRef name) {
  return llvm::StringSwitch<std::optional<F32Division>>(name)
      .Case("full", F32Division::Full)
      .Case("ieee", F32Division::IEEE)
      .Case("approx", F32Division::Approx)
      .Default(std::nullopt);
}

/// `lhs / rhs` of f32 scalars as Triton's `/` computes it: `div.full.f32`
/// (llvm.nvvm.div.full), which scales the operands and divides with the
/// approximate reciprocal, at most 2 ulp over the whole range.
static Value emitFullDivision(OpBuilder &b, Location loc, Value lhs,
                              Value rhs) {
  return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(),
                                       b.getStringAttr("llvm.nvvm.div.full"),
                                       ValueRange{lhs, rhs})
      .getResult(0);
}

/// Divisions of f32 values (scalars or vectors) as `division` says, except
/// those marked accurate (inside special functions, which PyTorch and
/// Inductor compute with IEEE division), which keep `div.rn`.
///
/// Inductor's `truediv` is Triton's `a / b`, which Triton lowers for f32 to
/// `div.full.f32` (FDivOpConversion in Triton's ElementwiseOpToLLVM.cpp),
/// and its Welford helpers and means divide the same way: `full` computes
/// what Inductor's kernels compute. `approx` (`div.approx.f32`, a
/// reciprocal and a product) is only for measuring what division costs.
static void lowerDivisions(gpu::GPUModuleOp module, F32Division division) {
  SmallVector<arith::DivFOp> divisions;
  module.walk([&](arith::DivFOp op) {
    if (op->removeAttr(kAccurateMathAttrName))
      return;
    if (getElementTypeOrSelf(op.getType()).isF32())
      divisions.push_back(op);
  });
  if (division == F32Division::IEEE)
    return;
  for (arith::DivFOp op : divisions) {
    if (division == F32Division::Approx) {
      op.setFastmath(arith::FastMathFlags::afn);
      continue;
    }
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value result;
    if (auto vector = dyn_cast<VectorType>(op.getType())) {
      // The intrinsic takes scalars: one per element.
      result = arith::ConstantOp::create(
          b, loc, vector,
          DenseElementsAttr::get(vector, b.getF32FloatAttr(0.0f)));
      for (int64_t i = 0, e = vector.getNumElements(); i < e; ++i) {
        Value lhs = vector::ExtractOp::create(b, loc, op.getLhs(), i);
        Value rhs = vector::ExtractOp::create(b, loc, op.getRhs(), i);
        result = vector::InsertOp::create(
            b, loc, emitFullDivision(b, loc, lhs, rhs), result, i);
      }
    } else {
      result = emitFullDivision(b, loc, op.getLhs(), op.getRhs());
    }
    op.replaceAllUsesWith(result);
    op.erase();
  }
}

constexpr llvm::StringLiteral kInvalidOptions =
    "convert-fusion-to-gpu: block sizes must be multiples of 32 up to "
    "1024 (the reduction one a power of two), element counts "
    "positive, the vector width, reduction lanes, rows per block, "
    "rows per thread (at most 4), the split (at most 32) and the "
    "cluster (at most 8) powers of two (vectors of at most 16 elements, blocks of 32 to 1024 "
    "threads), num-sms positive";

/// The settings of `kernel-configs` over the module's `base`, by kernel
/// name; fails with an error on `module` for text that does not parse, a
/// key that is no per-kernel setting, or settings that are not valid.
static LogicalResult
parseKernelOptions(ModuleOp module, const MappingOptions &base,
                   StringRef text,
                   llvm::StringMap<MappingOptions> &kernelOptions) {
  std::string error;
  auto configs = parseKernelConfigs(text, error);
  if (failed(configs))
    return module.emitError("convert-fusion-to-gpu: kernel-configs: ")
           << error;
  for (const auto &[kernel, config] : *configs) {
    MappingOptions options = base;
    for (const auto &[key, value] : config)
      if (!applySetting(options, key, value))
        return module.emitError("convert-fusion-to-gpu: kernel-configs: '")
               << key << "=" << value << "' of kernel '" << kernel
               << "' is no per-kernel setting (pointwise-block-size, "
                  "pointwise-vector-width, reduction-lanes, "
                  "reduction-rows-per-block, reduction-rows-per-thread, "
                  "reduction-split, reduction-cluster, elements-per-thread, "
                  "max-persistent-elements, loop-unroll, early-loads=0|1, "
                  "hoist-loads=0|1)";
    if (!isValid(options))
      return module.emitError("convert-fusion-to-gpu: kernel-configs of '")
             << kernel << "': " << kInvalidOptions.drop_front(23);
    kernelOptions[kernel] = options;
  }
  return success();
}

struct ConvertFusionToGPUPass final
    : fusion::impl::ConvertFusionToGPUPassBase<ConvertFusionToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MappingOptions mappingOptions{pointwiseBlockSize,
                                  pointwiseVectorWidth,
                                  elementsPerThread,
                                  maxReductionBlockSize,
                                  warpReductionMaxSize,
                                  maxPersistentElements,
                                  loopUnroll,
                                  reductionLanes,
                                  reductionRowsPerBlock,
                                  reductionTiles,
                                  transposeTiles,
                                  reductionRowsPerThread,
                                  reductionSplit,
                                  reductionCluster,
                                  numSMs,
                                  earlyLoads,
                                  hoistLoads,
                                  vectorAtomics,
                                  blockScans,
                                  scanElementsPerThread,
                                  blockSorts,
                                  sortElementsPerLane,
                                  registerSortRow};
    std::optional<F32Division> division = parseF32Division(f32Division);
    if (!division) {
      module.emitError("convert-fusion-to-gpu: f32-division must be 'full', "
                       "'ieee' or 'approx', not '")
          << f32Division << "'";
      return signalPassFailure();
    }
    if (!isValid(mappingOptions)) {
      module.emitError(kInvalidOptions);
      return signalPassFailure();
    }
    llvm::StringMap<MappingOptions> kernelOptions;
    if (failed(parseKernelOptions(module, mappingOptions, kernelConfigs,
                                  kernelOptions)))
      return signalPassFailure();
    llvm::StringSet<> configured;
    Builder builder(module.getContext());
    NamedAttrList manifests;
    if (auto existing =
            module->getAttrOfType<DictionaryAttr>("fusion.launch_manifests"))
      manifests.append(existing.getValue());

    SmallVector<GraphOp> graphs(module.getOps<GraphOp>());
    for (GraphOp graph : graphs) {
      DependenceGraph deps(graph);
      FailureOr<GraphPlan> plan = planGraph(graph, deps);
      if (failed(plan))
        return signalPassFailure();
      numRegisterBuffers += plan->storage.registerBuffers.size();
      std::string name = graph.getSymName().str();
      SmallVector<Attribute> steps;
      unsigned kernels = 0, externs = 0;
      GPUHostTarget target(name, mappingOptions, kernelOptions, configured,
                           steps, kernels);
      FailureOr<func::FuncOp> host = lowerGraph(*plan, target, externs);
      if (failed(host))
        return signalPassFailure();
      manifests.set(name, buildManifest(builder, *plan, target.getModuleName(),
                                        steps));
      replaceGraph(graph, *host);
      numKernels += kernels;
      numExternCalls += externs;
    }
    for (const auto &entry : kernelOptions)
      if (!configured.contains(entry.getKey())) {
        module.emitError("convert-fusion-to-gpu: kernel-configs names '")
            << entry.getKey() << "', which is no kernel of this module";
        return signalPassFailure();
      }
    if (failed(expandFloat8Ops(module)))
      return signalPassFailure();
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      if (approxExp)
        approximateExp(gpuModule);
      lowerDivisions(gpuModule, *division);
    }
    if (!graphs.empty()) {
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      builder.getUnitAttr());
      module->setAttr("fusion.launch_manifests",
                      manifests.getDictionary(module.getContext()));
    }
  }
};
} // namespace
