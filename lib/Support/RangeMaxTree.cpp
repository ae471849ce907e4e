//===- RangeMaxTree.cpp - Range add, range maximum ------------------------===//

#include "scheduler-opt/Support/RangeMaxTree.h"

#include <algorithm>
#include <limits>

using namespace mlir::fusion;

static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::min();

RangeMaxTree::RangeMaxTree(llvm::ArrayRef<int64_t> values)
    : numPositions(values.size()) {
  if (numPositions == 0)
    return;
  leaves = 1;
  while (leaves < numPositions)
    leaves *= 2;
  maxima.assign(2 * leaves, kEmpty);
  pending.assign(leaves, 0);
  std::copy(values.begin(), values.end(), maxima.begin() + leaves);
  for (unsigned node = leaves; node-- > 1;)
    maxima[node] = std::max(maxima[2 * node], maxima[2 * node + 1]);
}

void RangeMaxTree::pullUp(unsigned node) {
  for (node /= 2; node >= 1; node /= 2)
    maxima[node] =
        std::max(maxima[2 * node], maxima[2 * node + 1]) + pending[node];
}

void RangeMaxTree::add(unsigned begin, unsigned end, int64_t delta) {
  end = std::min(end, numPositions);
  if (begin >= end || delta == 0)
    return;
  // The canonical cover of [begin, end), bottom up; only the ancestors of
  // the first and last leaf hold covered nodes below them.
  unsigned first = begin + leaves, last = end - 1 + leaves;
  for (unsigned lo = first, hi = last + 1; lo < hi; lo /= 2, hi /= 2) {
    if (lo & 1) {
      maxima[lo] += delta;
      if (lo < leaves)
        pending[lo] += delta;
      ++lo;
    }
    if (hi & 1) {
      --hi;
      maxima[hi] += delta;
      if (hi < leaves)
        pending[hi] += delta;
    }
  }
  pullUp(first);
  pullUp(last);
}

int64_t RangeMaxTree::max() const {
  return numPositions == 0 ? kEmpty : maxima[1];
}

int64_t RangeMaxTree::max(unsigned begin, unsigned end) const {
  end = std::min(end, numPositions);
  if (begin >= end)
    return kEmpty;
  return max(1, 0, leaves, begin, end);
}

int64_t RangeMaxTree::max(unsigned node, unsigned lo, unsigned hi,
                          unsigned begin, unsigned end) const {
  if (begin <= lo && hi <= end)
    return maxima[node];
  unsigned mid = lo + (hi - lo) / 2;
  int64_t result = kEmpty;
  if (begin < mid)
    result = std::max(result, max(2 * node, lo, mid, begin, end));
  if (end > mid)
    result = std::max(result, max(2 * node + 1, mid, hi, begin, end));
  // The range holds a real position, so result is not kEmpty.
  return result + pending[node];
}
