//===- ReachabilityIndex.cpp - Fast negative reachability on a DAG --------===//

#include "scheduler-opt/Support/ReachabilityIndex.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::fusion;

ReachabilityIndex::ReachabilityIndex(
    unsigned numNodes, function_ref<ArrayRef<unsigned>(unsigned)> succs,
    unsigned numTraversals)
    : numNodes(numNodes), numTraversals(numTraversals),
      labels(static_cast<size_t>(numNodes) * numTraversals) {
  // A fixed seed and our own generator and shuffle: the same labels on
  // every platform. Any order gives correct labels (a path still nests the
  // intervals); the order only decides how many non-paths they rule out, so
  // a cheap generator (xorshift64) serves, where std::mt19937 cost more to
  // seed than a small graph's whole traversal.
  uint64_t state = 0x5eed5eed5eed5eedull;
  auto next = [&](uint64_t bound) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % bound;
  };
  auto shuffle = [&](MutableArrayRef<unsigned> items) {
    for (size_t i = items.size(); i > 1; --i)
      std::swap(items[i - 1], items[next(i)]);
  };
  SmallVector<unsigned> roots(numNodes);
  for (unsigned n = 0; n < numNodes; ++n)
    roots[n] = n;
  SmallVector<bool> visited(numNodes);
  // The children still to visit of every node on the stack, in one buffer:
  // a frame's are children[next, end) of its segment [begin, end), above
  // those of the frames below it.
  struct Frame {
    unsigned node;
    unsigned begin, next, end;
  };
  SmallVector<unsigned> children;
  SmallVector<Frame> stack;
  for (unsigned t = 0; t < numTraversals; ++t) {
    auto at = [&](unsigned node) -> Label & { return label(t, node); };
    std::fill(visited.begin(), visited.end(), false);
    shuffle(roots);
    uint32_t rank = 0;
    auto enter = [&](unsigned node) {
      visited[node] = true;
      ArrayRef<unsigned> s = succs(node);
      unsigned begin = children.size();
      children.append(s.begin(), s.end());
      shuffle(MutableArrayRef<unsigned>(children).drop_front(begin));
      at(node).low = UINT32_MAX;
      stack.push_back(
          {node, begin, begin, static_cast<unsigned>(children.size())});
    };
    for (unsigned root : roots) {
      if (visited[root])
        continue;
      enter(root);
      while (!stack.empty()) {
        Frame &frame = stack.back();
        if (frame.next < frame.end) {
          unsigned node = frame.node;
          unsigned child = children[frame.next++];
          if (!visited[child])
            enter(child); // may move the stack: `frame` is not used after
          else
            at(node).low = std::min(at(node).low, at(child).low);
          continue;
        }
        unsigned node = frame.node;
        children.truncate(frame.begin);
        stack.pop_back();
        at(node).rank = ++rank;
        at(node).low = std::min(at(node).low, at(node).rank);
        if (!stack.empty())
          at(stack.back().node).low =
              std::min(at(stack.back().node).low, at(node).low);
      }
    }
  }
}
