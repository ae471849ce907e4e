//===- TopologicalOrder.cpp - Stable topological order --------------------===//

#include "fusion/Support/TopologicalOrder.h"

#include <functional>
#include <queue>
#include <vector>

using namespace mlir;

std::optional<SmallVector<unsigned>> mlir::fusion::stableTopologicalOrder(
    unsigned numNodes, function_ref<ArrayRef<unsigned>(unsigned)> preds,
    function_ref<ArrayRef<unsigned>(unsigned)> succs) {
  SmallVector<unsigned> order;
  order.reserve(numNodes);
  SmallVector<unsigned> remaining(numNodes);
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>>
      ready;
  for (unsigned n = 0; n < numNodes; ++n)
    if ((remaining[n] = preds(n).size()) == 0)
      ready.push(n);
  while (!ready.empty()) {
    unsigned n = ready.top();
    ready.pop();
    order.push_back(n);
    for (unsigned s : succs(n))
      if (--remaining[s] == 0)
        ready.push(s);
  }
  if (order.size() != numNodes)
    return std::nullopt;
  return order;
}
