//===- BlockScan.h - Scans of a row by a whole thread block -----*- C++ -*-===//
//
// Inductor's scans (`ops.scan`: cumsum, cumprod, logcumsumexp, cummax, any
// associative combine function) run in Triton as `tl.associative_scan`
// over a block's elements, with a carry between blocks of a longer row.
// Here a row's scan runs on the `blockSize` threads of a thread block, on
// the row's scratch arrays in place (RowOps.h: shared memory, or the row's
// part of the graph's storages) after the pass that wrote them, or on the
// scan's inputs computed where it reads them, its results going straight
// to the stores that take them (ScanRowAccess).
// The row is taken in chunks of blockSize x elementsPerThread elements;
// in each chunk
//
//   1. every thread scans its `elementsPerThread` adjacent elements in
//      registers, first to last;
//   2. the threads' totals are scanned across each warp (shuffles up by
//      1, 2, 4, 8 and 16 lanes), and each warp's total goes to shared
//      memory;
//   3. after a barrier, every warp scans the warps' totals the same way
//      (lane w reads warp w's) and takes the total of the warps before
//      its own, and of all of them (the chunk's total), from its lanes;
//   4. each element becomes carry . warps before . lanes before . its
//      own scan, in that order (the combine function need not commute),
//      and is stored; the carry takes in the chunk's total.
//
// Short rows (emitLaneGroupRowScan) run the same steps on an aligned group
// of a warp's lanes instead, several rows a block, without step 3.
//
// The combine function may have no identity, so "nothing before" is a
// flag, not a value. Floating-point sums and products round as such a
// tree does, not as the CPU's element-by-element loop (PyTorch's
// tolerances allow either; so does Inductor's own tree).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_BLOCKSCAN_H
#define SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_BLOCKSCAN_H

#include "scheduler-opt/Conversion/KernelCodegen/RowOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::fusion::codegen {

/// `value` from another lane of the warp (gpu.shuffle `mode` by `offset`,
/// an i32, over the whole warp), for any scalar type: wide values travel as two
/// 32-bit halves, narrow ones widened. A lane with no source lane (up past
/// the first lane, down past the last) gets its own value.
Value shuffleScalar(OpBuilder &b, Location loc, Value value, Value offset,
                    gpu::ShuffleMode mode);

/// Scans the elements of `row` (tuples of `types`; one row per thread
/// block: every thread of the block calls this, and `tid`, of an integer
/// type, is its index) under `combine`, as the file comment says: each
/// thread loads its elements of a chunk through `row.load` and gives
/// their inclusive scan to `row.store`. Starts with a barrier (other
/// threads may have written the row) and ends with one (other threads may
/// read the results next).
/// Adds to `kernel` the shared memory for the warps' totals, counted into
/// `sharedBytes`.
LogicalResult emitBlockRowScan(OpBuilder &b, Location loc,
                               gpu::GPUFuncOp kernel, Value tid,
                               int64_t blockSize, int64_t elementsPerThread,
                               const ScanRowAccess &row, TypeRange types,
                               ScanCombineFn combine, int64_t &sharedBytes);

/// Scans the elements of `row` as emitBlockRowScan does, on an aligned
/// group of `lanesPerRow` lanes of a warp (a power of two up to 32) instead
/// of a block: the block's threads take rows lanesPerRow at a time, `tid`
/// being the thread's index in the block. The chunks are lanesPerRow x
/// elementsPerThread elements; the lanes' totals are scanned with shuffles
/// over the whole warp, each lane combining only the values of lanes of its
/// own group (shuffles up by 1, 2, ... below lanesPerRow, taken where the
/// lane's index in the group is at least the distance), and the chunk's
/// total comes from the group's last lane: no shared memory. Every thread
/// of the block calls this (rows past the last on a copy of the last one,
/// storing nothing), with the same row length; starts and ends with a
/// barrier like emitBlockRowScan.
LogicalResult emitLaneGroupRowScan(OpBuilder &b, Location loc, Value tid,
                                   int64_t lanesPerRow,
                                   int64_t elementsPerThread,
                                   const ScanRowAccess &row, TypeRange types,
                                   ScanCombineFn combine);

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_BLOCKSCAN_H
