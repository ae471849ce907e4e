//===- TopologicalOrder.cpp - Stable topological order, cycles -----------===//

#include "scheduler-opt/Support/TopologicalOrder.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
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

SmallVector<unsigned>
mlir::fusion::findCycle(unsigned numNodes,
                        function_ref<ArrayRef<unsigned>(unsigned)> preds,
                        function_ref<ArrayRef<unsigned>(unsigned)> succs) {
  SmallVector<unsigned> remaining(numNodes);
  SmallVector<unsigned> ready;
  for (unsigned n = 0; n < numNodes; ++n)
    if ((remaining[n] = preds(n).size()) == 0)
      ready.push_back(n);
  while (!ready.empty()) {
    unsigned n = ready.pop_back_val();
    for (unsigned s : succs(n))
      if (--remaining[s] == 0)
        ready.push_back(s);
  }
  const unsigned *start =
      llvm::find_if(remaining, [](unsigned count) { return count != 0; });
  if (start == remaining.end())
    return {};
  // Every unordered node has an unordered predecessor.
  SmallVector<int> position(numNodes, -1);
  SmallVector<unsigned> path;
  unsigned n = start - remaining.begin();
  while (position[n] < 0) {
    position[n] = path.size();
    path.push_back(n);
    n = *llvm::find_if(preds(n), [&](unsigned p) { return remaining[p] != 0; });
  }
  // path[position[n]..] walks predecessors; reverse it into edge order and
  // start at the lowest node for a stable message.
  SmallVector<unsigned> cycle(path.begin() + position[n], path.end());
  std::reverse(cycle.begin(), cycle.end());
  std::rotate(cycle.begin(), llvm::min_element(cycle), cycle.end());
  return cycle;
}
