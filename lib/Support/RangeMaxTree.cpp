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
  maxima.assign(4 * numPositions, 0);
  pending.assign(4 * numPositions, 0);
  build(1, 0, numPositions, values);
}

void RangeMaxTree::build(unsigned node, unsigned lo, unsigned hi,
                         llvm::ArrayRef<int64_t> values) {
  if (hi - lo == 1) {
    maxima[node] = values[lo];
    return;
  }
  unsigned mid = lo + (hi - lo) / 2;
  build(2 * node, lo, mid, values);
  build(2 * node + 1, mid, hi, values);
  maxima[node] = std::max(maxima[2 * node], maxima[2 * node + 1]);
}

void RangeMaxTree::add(unsigned begin, unsigned end, int64_t delta) {
  end = std::min(end, numPositions);
  if (begin >= end || delta == 0)
    return;
  add(1, 0, numPositions, begin, end, delta);
}

void RangeMaxTree::add(unsigned node, unsigned lo, unsigned hi,
                       unsigned begin, unsigned end, int64_t delta) {
  if (begin <= lo && hi <= end) {
    maxima[node] += delta;
    pending[node] += delta;
    return;
  }
  unsigned mid = lo + (hi - lo) / 2;
  if (begin < mid)
    add(2 * node, lo, mid, begin, end, delta);
  if (end > mid)
    add(2 * node + 1, mid, hi, begin, end, delta);
  maxima[node] =
      std::max(maxima[2 * node], maxima[2 * node + 1]) + pending[node];
}

int64_t RangeMaxTree::max(unsigned begin, unsigned end) const {
  end = std::min(end, numPositions);
  if (begin >= end)
    return kEmpty;
  return max(1, 0, numPositions, begin, end);
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
  return result + pending[node];
}
