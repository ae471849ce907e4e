//===- WalkPostOrder.h - Post-order walks without callbacks -----*- C++ -*-===//
//
// The verifiers and the dependence analysis visit every op of every loop
// body, most of a graph's ops, where Block::walk's type-erased callback and
// its iterators cost about as much as a visit. These walks take the visit
// as a template parameter instead, in Block::walk's post order.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_SUPPORT_WALKPOSTORDER_H
#define SCHEDULER_OPT_SUPPORT_WALKPOSTORDER_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"

namespace mlir::fusion {

/// Calls `fn` on every op nested in `block`, each after the ops nested in
/// it, until `fn` returns true; returns whether it did.
template <typename Fn>
bool walkPostOrderUntil(Block &block, Fn &fn) {
  for (Operation &op : block) {
    if (op.getNumRegions() != 0)
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          if (walkPostOrderUntil(nested, fn))
            return true;
    if (fn(&op))
      return true;
  }
  return false;
}

/// walkPostOrderUntil over the blocks of `op`'s regions (not `op` itself).
template <typename Fn>
bool walkNestedPostOrderUntil(Operation *op, Fn &fn) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (walkPostOrderUntil(block, fn))
        return true;
  return false;
}

} // namespace mlir::fusion

#endif // SCHEDULER_OPT_SUPPORT_WALKPOSTORDER_H
