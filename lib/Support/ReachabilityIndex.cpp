//===- ReachabilityIndex.cpp - Fast negative reachability on a DAG --------===//

#include "scheduler-opt/Support/ReachabilityIndex.h"

#include <algorithm>
#include <random>

using namespace mlir;
using namespace mlir::fusion;

ReachabilityIndex::ReachabilityIndex(
    unsigned numNodes, function_ref<ArrayRef<unsigned>(unsigned)> succs,
    unsigned numTraversals)
    : numNodes(numNodes), numTraversals(numTraversals),
      labels(static_cast<size_t>(numNodes) * numTraversals) {
  // A fixed seed and our own shuffle: the same labels on every platform.
  std::mt19937 rng(0x5eed);
  auto shuffle = [&](SmallVectorImpl<unsigned> &items) {
    for (size_t i = items.size(); i > 1; --i)
      std::swap(items[i - 1], items[rng() % i]);
  };
  SmallVector<unsigned> roots(numNodes);
  for (unsigned n = 0; n < numNodes; ++n)
    roots[n] = n;
  SmallVector<bool> visited(numNodes);
  struct Frame {
    unsigned node;
    SmallVector<unsigned, 4> children;
    unsigned next = 0;
  };
  for (unsigned t = 0; t < numTraversals; ++t) {
    auto at = [&](unsigned node) -> Label & { return label(t, node); };
    std::fill(visited.begin(), visited.end(), false);
    shuffle(roots);
    uint32_t rank = 0;
    SmallVector<Frame> stack;
    auto enter = [&](unsigned node) {
      visited[node] = true;
      ArrayRef<unsigned> s = succs(node);
      Frame frame{node, {s.begin(), s.end()}};
      shuffle(frame.children);
      at(node).low = UINT32_MAX;
      stack.push_back(std::move(frame));
    };
    for (unsigned root : roots) {
      if (visited[root])
        continue;
      enter(root);
      while (!stack.empty()) {
        Frame &frame = stack.back();
        if (frame.next < frame.children.size()) {
          unsigned child = frame.children[frame.next++];
          if (!visited[child])
            enter(child);
          else
            at(frame.node).low =
                std::min(at(frame.node).low, at(child).low);
          continue;
        }
        unsigned node = frame.node;
        at(node).rank = ++rank;
        at(node).low = std::min(at(node).low, at(node).rank);
        stack.pop_back();
        if (!stack.empty())
          at(stack.back().node).low =
              std::min(at(stack.back().node).low, at(node).low);
      }
    }
  }
}
