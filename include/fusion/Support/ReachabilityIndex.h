//===- ReachabilityIndex.h - Fast negative reachability on a DAG -*- C++ -*-===//
//
// Interval labels for reachability in a static DAG (GRAIL, Yildirim et al.,
// VLDB 2010): each of a few depth-first traversals, with children visited in
// a different (deterministic, pseudo-random) order, gives every node the
// interval [lowest post-order rank below it, its own rank]. If `u` reaches
// `v`, v's interval lies inside u's in every traversal; so an interval not
// contained proves in O(1) that there is no path, and a search for a path
// only enters nodes whose interval contains the target's. Building costs
// O(k (V + E)); no recursion.
//
//===----------------------------------------------------------------------===//

#ifndef FUSION_SUPPORT_REACHABILITYINDEX_H
#define FUSION_SUPPORT_REACHABILITYINDEX_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir {
namespace fusion {

class ReachabilityIndex {
public:
  ReachabilityIndex() = default;
  /// Labels the DAG of `numNodes` nodes whose edges `succs` gives, with
  /// `numTraversals` traversals.
  ReachabilityIndex(unsigned numNodes,
                    function_ref<ArrayRef<unsigned>(unsigned)> succs,
                    unsigned numTraversals = 3);

  /// False when there is certainly no path from `from` to `to`; true when
  /// there may be one (always true for from == to).
  bool mayReach(unsigned from, unsigned to) const {
    for (unsigned t = 0; t < numTraversals; ++t) {
      const Label &a = labels[t * numNodes + from];
      const Label &b = labels[t * numNodes + to];
      if (b.low < a.low || b.rank > a.rank)
        return false;
    }
    return true;
  }

private:
  struct Label {
    uint32_t low;
    uint32_t rank;
  };
  unsigned numNodes = 0;
  unsigned numTraversals = 0;
  /// Traversal-major: labels[t * numNodes + node].
  SmallVector<Label> labels;
};

} // namespace fusion
} // namespace mlir

#endif // FUSION_SUPPORT_REACHABILITYINDEX_H
