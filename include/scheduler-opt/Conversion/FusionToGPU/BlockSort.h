//===- BlockSort.h - Sorts of a row by the lanes of a block -----*- C++ -*-===//
//
// Inductor's sorts (`ops.sort`: torch.sort, argsort, the sort of a top-p
// sampler) run in Triton as a bitonic network over a block's elements
// (`tl.sort`, `triton_helpers.sort_with_index`). Here a row kept in
// shared memory (its scratch arrays, RowOps.h, written by the pass before)
// is sorted in place by `lanesPerRow` threads of a block with a bitonic
// network over the row padded to a power of two N, in one of two forms.
//
// Rows of a warp's lanes or fewer sort in registers, as Triton's network
// does: each lane loads N / lanesPerRow consecutive elements (the values
// of the tuple and the original position, i32; 16-byte vector loads where
// the row needs no padding) after a `bar.warp.sync`; values that are the
// position (RowScratch::positional: torch.sort's indices) are neither
// loaded nor exchanged but rebuilt from the sorted positions at the end,
// and the classic network pairs position i with i ^ j at each stage of
// each merge of blocks of k, the lower position taking the earlier of the
// pair where i & k is 0, else the later. Pairs within a lane compare and
// select in registers; across lanes each lane gets its partner's element
// by xor shuffles (gpu.shuffle xor, shfl.sync.bfly) and keeps one by its
// side. The order is total, so both lanes of a pair agree: the key's,
// then the original position's, the padding (positions from the row's
// length) after every element. Each lane stores its elements of the row
// where it loaded them, then a second `bar.warp.sync`.
//
// Longer rows sort in the shared arrays, one barrier after each stage:
// every compare-exchange puts the first element of its pair (in the
// sort's order) at the lower position: the first stage of each merge of
// blocks of k elements pairs position i with its mirror i ^ (k - 1), the
// later stages i with i + j (j = k/4, ..., 1). The padding, which sorts
// after every element, then never moves, so pairs reaching past the row
// are skipped and the arrays hold the row alone. A position array (i32,
// in shared memory) breaks ties.
//
// Either way the order is the key's, then the original position's, so
// the sort is stable, as the one-thread insertion sort (emitRowSort) is,
// and gives the same result.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_BLOCKSORT_H
#define SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_BLOCKSORT_H

#include "scheduler-opt/Conversion/KernelCodegen/RowOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::fusion::codegen {

/// Sorts the elements of `row` (static length, arrays in shared memory,
/// the values of the tuple moved together) by the first, stably, as
/// emitRowSort does, on an aligned group of `lanesPerRow` threads of the
/// block (a power of two; `tid`, of an integer type, is the thread's
/// index in the block), as the file comment says. Every thread of the
/// block calls this with the same row length, `rowsPerBlock` rows a block
/// (each row's arrays at its `row.offset`); rows past the last are copies
/// in arrays of their own. Starts with a barrier (other threads wrote the
/// row) and ends with one (other threads read it next), of the row's warp
/// for rows of a warp's lanes or fewer (which sort in registers where
/// their values are integers or floats of up to 64 bits), else of the
/// block. Rows sorted in shared memory add to `kernel` the shared position
/// array of the block's rows, counted into `sharedBytes`.
LogicalResult emitBlockRowSort(OpBuilder &b, Location loc,
                               gpu::GPUFuncOp kernel, Value tid,
                               int64_t lanesPerRow, int64_t rowsPerBlock,
                               const RowScratch &row, bool descending,
                               int64_t &sharedBytes);

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_BLOCKSORT_H
