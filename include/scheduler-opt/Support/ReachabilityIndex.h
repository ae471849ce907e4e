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

#ifndef SCHEDULER_OPT_SUPPORT_REACHABILITYINDEX_H
#define SCHEDULER_OPT_SUPPORT_REACHABILITYINDEX_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
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
      const Label &a = label(t, from);
      const Label &b = label(t, to);
      if (b.low < a.low || b.rank > a.rank)
        return false;
    }
    return true;
  }

  /// The union of the intervals of a set of targets, per traversal.
  class TargetSet {
    friend class ReachabilityIndex;
    SmallVector<uint32_t, 8> maxLow, minRank;
  };
  TargetSet makeTargetSet(ArrayRef<unsigned> targets) const {
    TargetSet set;
    set.maxLow.assign(numTraversals, 0);
    set.minRank.assign(numTraversals, UINT32_MAX);
    for (unsigned t = 0; t < numTraversals; ++t)
      for (unsigned target : targets) {
        const Label &b = label(t, target);
        set.maxLow[t] = std::max(set.maxLow[t], b.low);
        set.minRank[t] = std::min(set.minRank[t], b.rank);
      }
    return set;
  }
  /// False when there is certainly no path from `from` to any of the
  /// targets: in some traversal, no target's interval can lie inside
  /// from's. Weaker than mayReach on each target, but O(1) per query.
  bool mayReachAny(unsigned from, const TargetSet &set) const {
    for (unsigned t = 0; t < numTraversals; ++t) {
      const Label &a = label(t, from);
      if (set.maxLow[t] < a.low || set.minRank[t] > a.rank)
        return false;
    }
    return true;
  }

private:
  struct Label {
    uint32_t low;
    uint32_t rank;
  };
  /// Node-major, so that a query about a node reads one cache line: its
  /// labels of every traversal side by side.
  const Label &label(unsigned t, unsigned node) const {
    return labels[static_cast<size_t>(node) * numTraversals + t];
  }
  Label &label(unsigned t, unsigned node) {
    return labels[static_cast<size_t>(node) * numTraversals + t];
  }
  unsigned numNodes = 0;
  unsigned numTraversals = 0;
  SmallVector<Label> labels;
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_SUPPORT_REACHABILITYINDEX_H
