//===- ReorderLoops.cpp - Inductor's pick_loop_order and merge_loops ------===//
//
// Picks the loop order of every top-level fusion.node from the strides of its
// memory accesses, then merges contiguous loops of every fusion.node; the
// nodes in parallel on the context's threads.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/Transforms/LoopUtils.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"
#include "scheduler-opt/Support/ParallelSlices.h"

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
    MLIRContext *ctx = &getContext();
    // Node bodies are isolated from above and each rewrite stays inside its
    // node, so the nodes are rewritten in parallel on the context's threads,
    // in contiguous slices (each with its own stride cache); the counts are
    // summed afterwards, so the result does not depend on the slicing.
    bool changed = false;

    if (pickLoopOrder) {
      // Inductor picks the order when it creates a SchedulerNode, before any
      // fusion: the members of a fused node keep their common order.
      SmallVector<NodeOp> nodes(graph.getBodyBlock().getOps<NodeOp>());
      SmallVector<char> reordered(nodes.size(), 0);
      // The first slice keeps its strides in the graph's analysis, for the
      // fusion pass; the others, on other threads, in their own.
      LoopStrideCache &graphStrides = getAnalysis<LoopStrideCache>();
      parallelForSlices(
          ctx, nodes.size(), kMinNodesPerSlice, [&](size_t begin, size_t end) {
            LoopStrideCache ownStrides;
            LoopStrideCache &strides = begin == 0 ? graphStrides : ownStrides;
            for (size_t i = begin; i < end; ++i) {
              NodeOp node = nodes[i];
              SmallVector<unsigned> order =
                  computePreferredLoopOrder(node, &strides);
              if (isIdentity(order))
                continue;
              LLVM_DEBUG(llvm::dbgs()
                         << "reorder loops of " << node.getName() << " to ["
                         << llvm::interleaved(order) << "]\n");
              reordered[i] = succeeded(applyLoopPermutation(node, order));
            }
          });
      unsigned count = llvm::count(reordered, 1);
      numReordered += count;
      changed |= count != 0;
    }

    if (mergeLoops) {
      // Every fusion.node, also those inside containers, but not inside
      // node bodies.
      SmallVector<NodeOp> nodes;
      graph.getBodyBlock().walk<WalkOrder::PreOrder>([&](Operation *op) {
        auto node = dyn_cast<NodeOp>(op);
        if (!node)
          return WalkResult::advance();
        nodes.push_back(node);
        return WalkResult::skip();
      });
      SmallVector<MergeLoopsResult> merged(nodes.size());
      parallelForSlices(ctx, nodes.size(), kMinNodesPerSlice,
                        [&](size_t begin, size_t end) {
                          for (size_t i = begin; i < end; ++i)
                            merged[i] = fusion::mergeLoops(nodes[i]);
                        });
      for (auto [node, result] : llvm::zip(nodes, merged)) {
        LLVM_DEBUG(if (result.changed()) llvm::dbgs()
                   << "merged " << result.numMerged << " loop pairs and "
                   << result.numUnitLoopsRemoved << " unit loops of "
                   << node.getName() << "\n");
        numMerged += result.numMerged;
        numUnitLoopsRemoved += result.numUnitLoopsRemoved;
        changed |= result.changed();
      }
    }

    if (!changed)
      markAllAnalysesPreserved();
  }

  /// Fewer nodes than this a thread stay on the calling thread.
  static constexpr size_t kMinNodesPerSlice = 64;
};
} // namespace
