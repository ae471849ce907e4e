//===- TransposeTiles.h - Pointwise kernels that change layout --*- C++ -*-===//
//
// A pointwise kernel whose loads are contiguous along one dimension and
// whose stores are contiguous along another (a transpose, a copy into
// channels-last, a permute) cannot be coalesced on both sides with one
// thread per element: whichever order the threads take, one side strides.
// Triton tiles such kernels in two dimensions (Inductor's `ynumel` and
// `xnumel`) and moves the tile through shared memory; so does this.
//
// The kernel's flat index x is seen as a matrix of `rows` x `columns`
// (x = row * columns + column), `columns` chosen from the accesses' index
// expressions: the smallest step of x after which a non-contiguous access
// moves by one element. Accesses are then contiguous along a row (x to
// x + 1) or down a column (x to x + columns). Each block takes a tile of
// `tileRows` x `tileColumns` elements and runs in two phases:
//
//   1. the loads that are contiguous in the direction the kernel does not
//      compute in (the staged loads) are read in their own order, a few
//      elements per thread (all in flight together), into shared memory;
//   2. after a barrier, each thread computes its elements of the tile in
//      the order its stores are contiguous in, reading the staged loads'
//      values from shared memory and everything else as usual.
//
// A kernel whose accesses are all contiguous down a column (its loop
// order strides every access, as a pointwise node whose loops took a
// reduction's order) stages nothing: phase 2 alone computes down the
// columns, without shared memory or a barrier. FusionToGPU runs such a
// kernel instead as a pointwise kernel over its elements column by
// column, in vectors of adjacent rows, where every access allows
// (permuteColumnsForVectors).
//
// Which element each thread computes changes; what it computes does not,
// so the choice only affects speed.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_TRANSPOSETILES_H
#define SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_TRANSPOSETILES_H

#include "scheduler-opt/Conversion/KernelCodegen/KernelPlan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <functional>
#include <optional>

namespace mlir::fusion::codegen {

/// How a pointwise kernel that changes layout runs in 2-D tiles.
struct TransposeTile {
  /// The kernel's elements as a rows x columns matrix (row-major in x).
  int64_t rows = 0, columns = 0;
  /// Elements of a tile, the threads of its block, and the elements each
  /// thread takes (positions t, t + blockSize, ... of the tile).
  int64_t tileRows = 0, tileColumns = 0;
  int64_t blockSize = 0, elementsPerThread = 0;
  /// True when the stores are contiguous down a column (threads compute
  /// the tile column by column, and the staged loads are contiguous along
  /// a row); false for the reverse.
  bool computeDownColumns = false;
  /// Loads read through shared memory in phase 1: without indirect
  /// indices, outside masked regions, of storages the kernel does not
  /// write, contiguous in the direction the kernel does not compute in
  /// (none: the tile only changes the order).
  SmallVector<LoadOp> staged;

  int64_t getBlockSize() const { return blockSize; }
  int64_t getNumBlocks() const {
    return llvm::divideCeil(rows, tileRows) *
           llvm::divideCeil(columns, tileColumns);
  }
};

/// The tiling of pointwise kernel `plan` whose buffers live in `storage`,
/// or nullopt when it has no load to stage and computes along the rows
/// (no layout change), sizes are not static, it is a sort or scan, or it
/// has fewer elements than a tile.
std::optional<TransposeTile> chooseTransposeTile(const KernelPlan &plan,
                                                 const StoragePlan &storage);

/// Emits the body of `kernel` running `plan` in the tiles of `tile`
/// (block size tile.getBlockSize(), tile.getNumBlocks() blocks) at `b`'s
/// insertion point; adds the shared memory it declares to `sharedBytes`.
LogicalResult emitTransposeTileBody(OpBuilder &b, gpu::GPUFuncOp kernel,
                                    const KernelPlan &plan,
                                    const TransposeTile &tile,
                                    const std::function<Value(Value)> &getMemref,
                                    int64_t &sharedBytes);

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_TRANSPOSETILES_H
