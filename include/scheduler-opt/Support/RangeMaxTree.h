//===- RangeMaxTree.h - Range add, range maximum ----------------*- C++ -*-===//
//
// A segment tree over positions 0..n-1 holding integers, supporting "add v
// to every position in [begin, end)" and "maximum over [begin, end)" in
// O(log n). The fusion pass keeps the live bytes of every schedule step in
// one, so checking whether a fusion raises peak memory costs O(log n) per
// buffer it touches instead of a rescan of the schedule.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_SUPPORT_RANGEMAXTREE_H
#define SCHEDULER_OPT_SUPPORT_RANGEMAXTREE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir {
namespace fusion {

class RangeMaxTree {
public:
  RangeMaxTree() = default;
  /// A tree over `values.size()` positions with the given initial values.
  explicit RangeMaxTree(llvm::ArrayRef<int64_t> values);

  unsigned size() const { return numPositions; }
  /// Adds `delta` to every position in [begin, end).
  void add(unsigned begin, unsigned end, int64_t delta);
  /// Subtracts `delta` from every position in [fromBegin, fromEnd) and adds
  /// it to every position in [toBegin, toEnd): a value that moves from one
  /// range to the other. Where the ranges meet, only their ends are updated.
  void move(unsigned fromBegin, unsigned fromEnd, unsigned toBegin,
            unsigned toEnd, int64_t delta);
  /// The maximum over [begin, end); INT64_MIN for an empty range.
  int64_t max(unsigned begin, unsigned end) const;
  /// The maximum over every position; INT64_MIN for an empty tree.
  int64_t max() const;
  /// The value at one position.
  int64_t get(unsigned position) const { return max(position, position + 1); }

private:
  /// Recomputes the maxima of the strict ancestors of the nodes `first` and
  /// `last` (leaves), each once.
  void pullUp(unsigned first, unsigned last);
  int64_t max(unsigned node, unsigned lo, unsigned hi, unsigned begin,
              unsigned end) const;

  unsigned numPositions = 0;
  /// A perfect binary tree in an array: node 1 is the root, node i has
  /// children 2i and 2i+1, and the leaves, positions 0..leaves-1 (a power
  /// of two), are nodes leaves..2*leaves-1; positions past numPositions
  /// hold INT64_MIN and are never added to. Updates walk up from the
  /// leaves without recursion.
  unsigned leaves = 0;
  /// maxima[node]: maximum of the node's range, including pending[node].
  llvm::SmallVector<int64_t, 0> maxima;
  /// pending[node] (inner nodes only): an addition applied to the whole
  /// range of the node and not pushed to its children (they never need
  /// it: queries add it back).
  llvm::SmallVector<int64_t, 0> pending;
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_SUPPORT_RANGEMAXTREE_H
