//===- PairMapTest.cpp - PairMap against std::map -------------------------===//

#include "scheduler-opt/Support/PairMap.h"

#include "gtest/gtest.h"

#include <map>
#include <random>

using namespace mlir::fusion;

TEST(PairMapTest, MatchesStdMapOnRandomOperations) {
  std::mt19937 rng(7);
  PairMap<int> map;
  std::map<std::pair<unsigned, unsigned>, int> reference;
  for (int op = 0; op < 20000; ++op) {
    unsigned first = rng() % 300, second = rng() % 40;
    int value = static_cast<int>(rng() % 1000);
    auto known = reference.find({first, second});
    switch (rng() % 3) {
    case 0: {
      auto [entry, inserted] = map.tryEmplace(first, second, value);
      ASSERT_EQ(inserted, known == reference.end());
      if (inserted)
        reference[{first, second}] = value;
      ASSERT_EQ(*entry, (reference[{first, second}]));
      break;
    }
    case 1:
      map.insertOrAssign(first, second, value);
      reference[{first, second}] = value;
      break;
    default: {
      int *entry = map.find(first, second);
      ASSERT_EQ(entry != nullptr, known != reference.end());
      if (entry) {
        ASSERT_EQ(*entry, known->second);
      }
      break;
    }
    }
  }
  for (const auto &[key, value] : reference) {
    int *entry = map.find(key.first, key.second);
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(*entry, value);
  }
}

TEST(PairMapTest, FindsNothingBeyondTheFirstIdsSeen) {
  PairMap<unsigned> map;
  EXPECT_EQ(map.find(0, 0), nullptr);
  map.tryEmplace(5, 1, 10u);
  EXPECT_EQ(map.find(4, 1), nullptr);
  EXPECT_EQ(map.find(5, 2), nullptr);
  EXPECT_EQ(map.find(6, 1), nullptr);
  ASSERT_NE(map.find(5, 1), nullptr);
  EXPECT_EQ(*map.find(5, 1), 10u);
  // (5, 1) and (1, 5) are different pairs.
  EXPECT_EQ(map.find(1, 5), nullptr);
}
