//===- ParallelSlices.h - Contiguous slices on the context's threads -*- C++ -*-===//
//
// Runs a loop over [0, n) in contiguous slices, one task per slice, on the
// threads of an MLIRContext (mlir::parallelFor). A slice holds at least
// `minPerSlice` items, so that small inputs stay on the calling thread and
// pay nothing for the pool, and there are at most as many slices as the
// context has threads, so that a slice can keep a cache of its own. Without
// multithreading (the context's default in our tools) it is a plain loop.
// Callers keep their output independent of the slicing: each item writes
// only its own results, and caches only save work.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_SUPPORT_PARALLELSLICES_H
#define SCHEDULER_OPT_SUPPORT_PARALLELSLICES_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Threading.h"

#include <algorithm>
#include <cstddef>

namespace mlir {
namespace fusion {

/// Calls `fn(begin, end)` for contiguous slices covering [0, n), in parallel
/// on `ctx`'s threads when there is more than one slice.
template <typename Fn>
void parallelForSlices(MLIRContext *ctx, size_t n, size_t minPerSlice,
                       Fn &&fn) {
  size_t numSlices = std::max<size_t>(
      1, std::min<size_t>(ctx->getNumThreads(),
                          n / std::max<size_t>(1, minPerSlice)));
  if (numSlices == 1) {
    fn(size_t(0), n);
    return;
  }
  parallelFor(ctx, 0, numSlices, [&](size_t slice) {
    fn(n * slice / numSlices, n * (slice + 1) / numSlices);
  });
}

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_SUPPORT_PARALLELSLICES_H
