//===- TopologicalOrderTest.cpp - Stable order and cycles on random graphs ===//

#include "scheduler-opt/Support/TopologicalOrder.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace mlir;
using namespace mlir::fusion;

namespace {
/// A directed graph as adjacency lists in both directions.
struct Graph {
  explicit Graph(unsigned n) : preds(n), succs(n) {}
  void edge(unsigned from, unsigned to) {
    succs[from].push_back(to);
    preds[to].push_back(from);
    edges.insert({from, to});
  }
  std::optional<SmallVector<unsigned>> order() const {
    return stableTopologicalOrder(
        preds.size(), [&](unsigned n) { return ArrayRef(preds[n]); },
        [&](unsigned n) { return ArrayRef(succs[n]); });
  }
  SmallVector<unsigned> cycle() const {
    return findCycle(
        preds.size(), [&](unsigned n) { return ArrayRef(preds[n]); },
        [&](unsigned n) { return ArrayRef(succs[n]); });
  }
  std::vector<SmallVector<unsigned>> preds, succs;
  std::set<std::pair<unsigned, unsigned>> edges;
};

/// Whether `cycle` is a cycle of `g`: consecutive nodes (and the last to the
/// first) are joined by edges, and no node repeats.
bool isCycleOf(const Graph &g, ArrayRef<unsigned> cycle) {
  if (cycle.empty())
    return false;
  std::set<unsigned> seen(cycle.begin(), cycle.end());
  if (seen.size() != cycle.size())
    return false;
  for (size_t i = 0; i < cycle.size(); ++i)
    if (!g.edges.count({cycle[i], cycle[(i + 1) % cycle.size()]}))
      return false;
  return true;
}
} // namespace

TEST(TopologicalOrderTest, KeepsInputOrderWhereEdgesAllow) {
  Graph g(5);
  g.edge(3, 1); // 3 must precede 1; everything else keeps its index order.
  std::optional<SmallVector<unsigned>> order = g.order();
  ASSERT_TRUE(order);
  EXPECT_EQ(*order, (SmallVector<unsigned>{0, 2, 3, 1, 4}));
  EXPECT_TRUE(g.cycle().empty());
}

TEST(TopologicalOrderTest, SelfLoopIsACycleOfOne) {
  Graph g(3);
  g.edge(0, 1);
  g.edge(2, 2);
  EXPECT_FALSE(g.order());
  EXPECT_EQ(g.cycle(), (SmallVector<unsigned>{2}));
}

TEST(TopologicalOrderTest, CycleExcludesNodesBehindIt) {
  // 0 -> 1 -> 4 -> 2 -> 1 is the cycle {1, 4, 2}; 3 and 5 hang behind it.
  Graph g(6);
  g.edge(0, 1);
  g.edge(1, 4);
  g.edge(4, 2);
  g.edge(2, 1);
  g.edge(2, 3);
  g.edge(3, 5);
  EXPECT_FALSE(g.order());
  // In edge order, starting at the lowest node on the cycle.
  EXPECT_EQ(g.cycle(), (SmallVector<unsigned>{1, 4, 2}));
}

TEST(TopologicalOrderTest, AgreesWithOrderOnRandomGraphs) {
  std::mt19937 rng(7);
  for (unsigned trial = 0; trial < 500; ++trial) {
    unsigned n = 1 + rng() % 30;
    Graph g(n);
    // Mostly forward edges (a DAG), sometimes a back edge closing cycles.
    unsigned numEdges = rng() % (2 * n + 1);
    for (unsigned e = 0; e < numEdges; ++e) {
      unsigned a = rng() % n, b = rng() % n;
      bool back = rng() % 8 == 0;
      if (a == b && !back)
        continue;
      if ((a < b) == back)
        std::swap(a, b);
      g.edge(a, b);
    }
    std::optional<SmallVector<unsigned>> order = g.order();
    SmallVector<unsigned> cycle = g.cycle();
    ASSERT_EQ(order.has_value(), cycle.empty()) << "trial " << trial;
    if (order) {
      // Every edge goes forward in the order, and each node appears once.
      std::vector<unsigned> position(n, ~0u);
      for (auto [pos, node] : llvm::enumerate(*order)) {
        ASSERT_EQ(position[node], ~0u);
        position[node] = pos;
      }
      for (auto [from, to] : g.edges)
        ASSERT_LT(position[from], position[to]) << "trial " << trial;
    } else {
      ASSERT_TRUE(isCycleOf(g, cycle)) << "trial " << trial;
      EXPECT_EQ(cycle.front(), *std::min_element(cycle.begin(), cycle.end()));
    }
  }
}
