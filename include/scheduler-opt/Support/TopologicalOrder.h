//===- TopologicalOrder.h - Stable topological order, cycles ----*- C++ -*-===//
//
// Kahn's algorithm that always emits the ready node of lowest index, so the
// input order is kept wherever the edges allow and an already sorted input
// comes out unchanged. Shared by fusion-topological-sort and the fusion
// planner (which numbers groups by their first original position, as
// Inductor sorts fused nodes by min_order before its topological sort).
//
// The one cycle finder of the project: the graph verifier, the dependence
// analysis and fusion-topological-sort all name a cycle through it, so the
// same graph gets the same cycle in every message.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_SUPPORT_TOPOLOGICALORDER_H
#define SCHEDULER_OPT_SUPPORT_TOPOLOGICALORDER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace fusion {

/// Returns the nodes 0..numNodes-1 in the stable topological order of the
/// edges given by `preds`/`succs` (which must agree), or nullopt when the
/// edges are cyclic. O((V + E) log V).
std::optional<SmallVector<unsigned>>
stableTopologicalOrder(unsigned numNodes,
                       function_ref<ArrayRef<unsigned>(unsigned)> preds,
                       function_ref<ArrayRef<unsigned>(unsigned)> succs);

/// Returns the nodes on one cycle of the edges given by `preds`/`succs`
/// (which must agree), in edge order and starting at its lowest node, or an
/// empty vector when the edges are acyclic. Kahn's algorithm leaves exactly
/// the nodes on or behind a cycle; walking unordered predecessors from the
/// lowest of them must revisit a node, which closes a cycle. O(V + E), no
/// recursion.
SmallVector<unsigned>
findCycle(unsigned numNodes, function_ref<ArrayRef<unsigned>(unsigned)> preds,
          function_ref<ArrayRef<unsigned>(unsigned)> succs);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_SUPPORT_TOPOLOGICALORDER_H
