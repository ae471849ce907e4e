//===- ReachabilityIndexTest.cpp - Interval labels against brute force ----===//

#include "scheduler-opt/Support/ReachabilityIndex.h"

#include "gtest/gtest.h"

#include <random>
#include <vector>

using namespace mlir;
using namespace mlir::fusion;

/// Random DAGs (edges from lower to higher index): mayReach must be true for
/// every reachable pair and should be false for most unreachable ones.
TEST(ReachabilityIndexTest, NeverDeniesAPathOnRandomDags) {
  std::mt19937 rng(7);
  for (unsigned trial = 0; trial < 20; ++trial) {
    unsigned n = 5 + rng() % 200;
    std::vector<std::vector<unsigned>> succs(n);
    for (unsigned u = 0; u < n; ++u)
      for (unsigned k = rng() % 4; k > 0; --k) {
        unsigned span = 1 + rng() % 20;
        if (u + span < n)
          succs[u].push_back(u + span);
      }
    ReachabilityIndex index(n, [&](unsigned u) { return ArrayRef(succs[u]); });
    // Brute-force reachability, in reverse topological order.
    std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
    for (unsigned u = n; u-- > 0;) {
      reach[u][u] = true;
      for (unsigned s : succs[u])
        for (unsigned v = 0; v < n; ++v)
          if (reach[s][v])
            reach[u][v] = true;
    }
    unsigned unreachable = 0, denied = 0;
    for (unsigned u = 0; u < n; ++u)
      for (unsigned v = 0; v < n; ++v) {
        if (reach[u][v]) {
          ASSERT_TRUE(index.mayReach(u, v)) << u << " -> " << v;
        } else {
          ++unreachable;
          denied += !index.mayReach(u, v);
        }
      }
    // The filter is useful: it answers most negative queries itself.
    EXPECT_GT(denied, unreachable / 2) << "trial " << trial;
  }
}

TEST(ReachabilityIndexTest, ChainAndDiamond) {
  //   0 -> 1 -> 3, 0 -> 2 -> 3, 4 alone
  std::vector<std::vector<unsigned>> succs = {{1, 2}, {3}, {3}, {}, {}};
  ReachabilityIndex index(5, [&](unsigned u) { return ArrayRef(succs[u]); });
  EXPECT_TRUE(index.mayReach(0, 3));
  EXPECT_TRUE(index.mayReach(1, 3));
  EXPECT_FALSE(index.mayReach(3, 0));
  EXPECT_FALSE(index.mayReach(0, 4));
  EXPECT_FALSE(index.mayReach(4, 0));
  EXPECT_TRUE(index.mayReach(4, 4));
}
