//===- TopologicalOrder.h - Stable topological order ------------*- C++ -*-===//
//
// Kahn's algorithm that always emits the ready node of lowest index, so the
// input order is kept wherever the edges allow and an already sorted input
// comes out unchanged. Shared by fusion-topological-sort and the fusion
// planner (which numbers groups by their first original position, as
// Inductor sorts fused nodes by min_order before its topological sort).
//
//===----------------------------------------------------------------------===//

#ifndef FUSION_SUPPORT_TOPOLOGICALORDER_H
#define FUSION_SUPPORT_TOPOLOGICALORDER_H

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

} // namespace fusion
} // namespace mlir

#endif // FUSION_SUPPORT_TOPOLOGICALORDER_H
