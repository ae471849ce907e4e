//===- ParallelSlicesTest.cpp - Slices cover the range once ----------------===//

#include "scheduler-opt/Support/ParallelSlices.h"

#include "llvm/Support/ThreadPool.h"
#include "gtest/gtest.h"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

using namespace mlir;
using namespace mlir::fusion;

namespace {
/// The slices parallelForSlices makes over [0, n), sorted.
std::vector<std::pair<size_t, size_t>> slicesOf(MLIRContext &ctx, size_t n,
                                                size_t minPerSlice,
                                                std::vector<int> &visits) {
  std::vector<std::pair<size_t, size_t>> slices;
  std::mutex mutex;
  visits.assign(n, 0);
  parallelForSlices(&ctx, n, minPerSlice, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      ++visits[i]; // each index belongs to one slice: no race
    std::lock_guard<std::mutex> lock(mutex);
    slices.push_back({begin, end});
  });
  llvm::sort(slices);
  return slices;
}
} // namespace

TEST(ParallelSlicesTest, WithoutThreadsOneSliceOnTheCaller) {
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  std::vector<int> visits;
  auto slices = slicesOf(ctx, 1000, 64, visits);
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_EQ(slices.front(), std::make_pair(size_t(0), size_t(1000)));
  EXPECT_EQ(std::vector<int>(1000, 1), visits);
}

TEST(ParallelSlicesTest, ThreadsGiveContiguousSlicesCoveringEachIndexOnce) {
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(4));
  MLIRContext ctx(MLIRContext::Threading::DISABLED);
  ctx.setThreadPool(pool);
  ASSERT_EQ(ctx.getNumThreads(), 4u);
  for (size_t n : {0u, 1u, 63u, 128u, 129u, 1000u, 4099u}) {
    std::vector<int> visits;
    auto slices = slicesOf(ctx, n, 64, visits);
    // At most one slice per thread, at least 64 items in each (one slice
    // for fewer than 128 items).
    size_t expected = std::max<size_t>(1, std::min<size_t>(4, n / 64));
    ASSERT_EQ(slices.size(), expected) << n;
    size_t next = 0;
    for (auto [begin, end] : slices) {
      EXPECT_EQ(begin, next) << n;
      EXPECT_LE(begin, end) << n;
      if (expected > 1)
        EXPECT_GE(end - begin, 64u) << n;
      next = end;
    }
    EXPECT_EQ(next, n);
    EXPECT_EQ(std::vector<int>(n, 1), visits) << n;
  }
}
