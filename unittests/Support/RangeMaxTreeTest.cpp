//===- RangeMaxTreeTest.cpp - RangeMaxTree against a plain array ----------===//

#include "scheduler-opt/Support/RangeMaxTree.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

using namespace mlir::fusion;

TEST(RangeMaxTreeTest, MatchesBruteForceOnRandomOperations) {
  std::mt19937_64 rng(42);
  for (unsigned size : {1u, 2u, 3u, 7u, 8u, 9u, 64u, 1000u}) {
    std::vector<int64_t> reference(size);
    for (int64_t &v : reference)
      v = static_cast<int64_t>(rng() % 1000) - 500;
    RangeMaxTree tree(reference);
    ASSERT_EQ(tree.size(), size);
    for (unsigned op = 0; op < 2000; ++op) {
      unsigned a = rng() % (size + 1), b = rng() % (size + 1);
      unsigned begin = std::min(a, b), end = std::max(a, b);
      unsigned kind = rng() % 3;
      if (kind == 0) {
        int64_t delta = static_cast<int64_t>(rng() % 2001) - 1000;
        tree.add(begin, end, delta);
        for (unsigned i = begin; i < end; ++i)
          reference[i] += delta;
        ASSERT_EQ(tree.max(),
                  *std::max_element(reference.begin(), reference.end()));
      } else if (kind == 1) {
        // A second range near the first (overlapping, touching, apart or
        // empty), as a storage's live slots move when a fusion moves groups.
        unsigned c = std::min<unsigned>(size, begin + rng() % 5);
        unsigned d = std::min<unsigned>(size, end + rng() % 5);
        if (rng() % 2)
          c = begin - std::min<unsigned>(begin, rng() % 5);
        if (rng() % 4 == 0)
          d = c;
        int64_t delta = static_cast<int64_t>(rng() % 1001);
        tree.move(begin, end, c, std::max(c, d), delta);
        for (unsigned i = begin; i < end; ++i)
          reference[i] -= delta;
        for (unsigned i = c; i < std::max(c, d); ++i)
          reference[i] += delta;
        ASSERT_EQ(tree.max(),
                  *std::max_element(reference.begin(), reference.end()))
            << "size " << size << " move [" << begin << ", " << end
            << ") to [" << c << ", " << std::max(c, d) << ")";
      } else if (begin < end) {
        int64_t expected = *std::max_element(reference.begin() + begin,
                                             reference.begin() + end);
        ASSERT_EQ(tree.max(begin, end), expected)
            << "size " << size << " range [" << begin << ", " << end << ")";
      }
    }
    EXPECT_EQ(tree.max(),
              *std::max_element(reference.begin(), reference.end()));
    for (unsigned i = 0; i < size; ++i)
      ASSERT_EQ(tree.get(i), reference[i]);
  }
}

TEST(RangeMaxTreeTest, EmptyRangesAndTree) {
  RangeMaxTree empty;
  EXPECT_EQ(empty.max(), std::numeric_limits<int64_t>::min());
  RangeMaxTree tree(std::vector<int64_t>{5, 1, 3});
  EXPECT_EQ(tree.max(2, 2), std::numeric_limits<int64_t>::min());
  tree.add(1, 1, 100); // empty range: no effect
  tree.add(2, 10, 4);  // clipped to the tree
  EXPECT_EQ(tree.max(), 7);
  EXPECT_EQ(tree.max(0, 2), 5);
}
