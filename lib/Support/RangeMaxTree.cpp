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

void RangeMaxTree::pullUp(unsigned first, unsigned last) {
  // Level by level: above the level where the two paths meet, the second
  // one has nothing left to recompute.
  for (first /= 2, last /= 2; first >= 1; first /= 2, last /= 2) {
    maxima[first] =
        std::max(maxima[2 * first], maxima[2 * first + 1]) + pending[first];
    if (last != first)
      maxima[last] =
          std::max(maxima[2 * last], maxima[2 * last + 1]) + pending[last];
  }
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
  pullUp(first, last);
}

void RangeMaxTree::move(unsigned fromBegin, unsigned fromEnd, unsigned toBegin,
                        unsigned toEnd, int64_t delta) {
  if (fromBegin >= fromEnd || toBegin >= toEnd ||
      std::max(fromBegin, toBegin) > std::min(fromEnd, toEnd)) {
    add(fromBegin, fromEnd, -delta);
    add(toBegin, toEnd, delta);
    return;
  }
  // The ranges meet: positions in both keep their value, so only the two
  // ends change.
  if (toBegin < fromBegin)
    add(toBegin, fromBegin, delta);
  else
    add(fromBegin, toBegin, -delta);
  if (toEnd > fromEnd)
    add(fromEnd, toEnd, delta);
  else
    add(toEnd, fromEnd, -delta);
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
