//===- ReorderLoops.cpp - Inductor's pick_loop_order and merge_loops ------===//
//
// Picks the loop order of every top-level fusion.node from the strides of its
// memory accesses, then merges contiguous loops of every fusion.node.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/Transforms/LoopUtils.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/InterleavedRange.h"

#define DEBUG_TYPE "fusion-reorder-loops"

namespace mlir::fusion {
#define GEN_PASS_DEF_REORDERLOOPSPASS
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;

/// True when `order` keeps every loop in place.
static bool isIdentity(ArrayRef<unsigned> order) {
  for (auto [j, old] : llvm::enumerate(order))
    if (j != old)
      return false;
  return true;
}

namespace {
struct ReorderLoopsPass final
    : fusion::impl::ReorderLoopsPassBase<ReorderLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    GraphOp graph = getOperation();
    bool changed = false;

    if (pickLoopOrder) {
      // Inductor picks the order when it creates a SchedulerNode, before any
      // fusion: the members of a fused node keep their common order.
      LoopStrideCache strides;
      for (auto node : graph.getBodyBlock().getOps<NodeOp>()) {
        SmallVector<unsigned> order = computePreferredLoopOrder(node, &strides);
        if (isIdentity(order))
          continue;
        LLVM_DEBUG(llvm::dbgs() << "reorder loops of " << node.getName()
                                << " to [" << llvm::interleaved(order)
                                << "]\n");
        if (succeeded(applyLoopPermutation(node, order))) {
          ++numReordered;
          changed = true;
        }
      }
    }

    if (mergeLoops) {
      graph.getBodyBlock().walk<WalkOrder::PreOrder>([&](Operation *op) {
        auto node = dyn_cast<NodeOp>(op);
        if (!node)
          return WalkResult::advance();
        MergeLoopsResult merged = fusion::mergeLoops(node);
        LLVM_DEBUG(if (merged.changed()) llvm::dbgs()
                   << "merged " << merged.numMerged << " loop pairs and "
                   << merged.numUnitLoopsRemoved << " unit loops of "
                   << node.getName() << "\n");
        numMerged += merged.numMerged;
        numUnitLoopsRemoved += merged.numUnitLoopsRemoved;
        changed |= merged.changed();
        return WalkResult::skip();
      });
    }

    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
