//===- ParallelImportTest.cpp - What parallel loop bodies rely on ---------===//
//
// The importer builds loop bodies on several threads (ParallelBodies.cpp)
// and relies on two pieces checked here: a map read back as it was at an
// earlier version (VersionedStringMap.h), and diagnostics reported in the
// order of their positions, up to a given one (OrderedDiagnostics.h).
//
//===----------------------------------------------------------------------===//

#include "OrderedDiagnostics.h"
#include "VersionedStringMap.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/ThreadPool.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::fusion::inductor;

namespace {

/// The value of `key` at `version`, or "-" for none.
std::string at(const VersionedStringMap<std::string> &map, StringRef key,
               unsigned version) {
  const std::string *v = map.findAt(key, version);
  return v ? *v : "-";
}

TEST(VersionedStringMapTest, ReadsEachVersion) {
  VersionedStringMap<std::string> map;
  map.setRecording(true);
  map.set("a", "a0", 0);
  map.set("a", "a2", 2);
  map.set("b", "b2", 2);
  map.set("a", "a2bis", 2); // Same version: the version sees the last.
  map.set("a", "a5", 5);
  // Version v sees the assignments of versions up to v.
  EXPECT_EQ(at(map, "a", 0), "a0");
  EXPECT_EQ(at(map, "a", 1), "a0");
  EXPECT_EQ(at(map, "a", 2), "a2bis");
  EXPECT_EQ(at(map, "a", 4), "a2bis");
  EXPECT_EQ(at(map, "a", 5), "a5");
  EXPECT_EQ(at(map, "a", ~0u), "a5");
  EXPECT_EQ(at(map, "b", 1), "-");
  EXPECT_EQ(at(map, "b", 2), "b2");
  EXPECT_EQ(at(map, "c", 3), "-");
  ASSERT_TRUE(map.find("a"));
  EXPECT_EQ(*map.find("a"), "a5");
  EXPECT_EQ(map.size(), 2u);
}

TEST(VersionedStringMapTest, ClearHistoryKeepsTheCurrentMap) {
  VersionedStringMap<std::string> map;
  map.setRecording(true);
  map.set("a", "a1", 1);
  map.set("a", "a3", 3);
  map.clearHistory();
  EXPECT_FALSE(map.hasHistory());
  // What came before the clear is the state every version sees.
  EXPECT_EQ(at(map, "a", 0), "a3");
  map.set("a", "a7", 7);
  EXPECT_EQ(at(map, "a", 6), "a3");
  EXPECT_EQ(at(map, "a", 7), "a7");
}

TEST(VersionedStringMapTest, NotRecordingSeesTheCurrentMap) {
  VersionedStringMap<std::string> map;
  map.set("a", "a1", 1);
  map.set("a", "a3", 3);
  EXPECT_FALSE(map.hasHistory());
  EXPECT_EQ(at(map, "a", 0), "a3");
}

TEST(VersionedStringMapTest, ReserveKeepsWhatIsThere) {
  VersionedStringMap<std::string> map;
  map.reserve(1000);
  map.setRecording(true);
  for (unsigned i = 0; i < 1000; ++i)
    map.set("k" + std::to_string(i), "v" + std::to_string(i), i);
  EXPECT_EQ(map.size(), 1000u);
  EXPECT_EQ(at(map, "k999", 999), "v999");
  EXPECT_EQ(at(map, "k999", 998), "-");
  // After the first assignment, reserving does nothing: the map and its
  // history stay.
  map.reserve(1);
  EXPECT_EQ(map.size(), 1000u);
  EXPECT_EQ(at(map, "k5", 5), "v5");
  EXPECT_EQ(at(map, "k5", 4), "-");
}

/// Emits a diagnostic `message` at `position` from the calling thread.
void emitAt(MLIRContext &ctx, OrderedDiagnostics &diags, uint64_t position,
            StringRef message) {
  diags.setPosition(position);
  emitError(UnknownLoc::get(&ctx)) << message;
  diags.clearPosition();
}

TEST(OrderedDiagnosticsTest, ReportsInPositionOrderUpToTheLast) {
  MLIRContext ctx;
  std::vector<std::string> seen;
  ScopedDiagnosticHandler collect(&ctx, [&](Diagnostic &diag) {
    seen.push_back(diag.str());
    return success();
  });
  {
    OrderedDiagnostics diags(&ctx);
    emitAt(ctx, diags, 5, "five");
    emitAt(ctx, diags, 1, "one");
    emitAt(ctx, diags, 3, "three-a");
    emitAt(ctx, diags, 3, "three-b");
    emitAt(ctx, diags, 4, "four");
    diags.drop(4);
    // Without a position a diagnostic goes on at once.
    emitError(UnknownLoc::get(&ctx)) << "now";
    EXPECT_EQ(seen, std::vector<std::string>{"now"});
    diags.report(/*last=*/4);
  }
  EXPECT_EQ(seen,
            (std::vector<std::string>{"now", "one", "three-a", "three-b"}));
}

TEST(OrderedDiagnosticsTest, OrdersThreads) {
  MLIRContext ctx;
  std::vector<std::string> seen;
  ScopedDiagnosticHandler collect(&ctx, [&](Diagnostic &diag) {
    seen.push_back(diag.str());
    return success();
  });
  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(4));
  {
    OrderedDiagnostics diags(&ctx);
    // Positions 0..199 from four threads in whatever order they run, two
    // diagnostics each; only those up to 150 are reported.
    for (unsigned t = 0; t < 4; ++t)
      pool.async([&, t] {
        for (unsigned p = t; p < 200; p += 4) {
          diags.setPosition(p);
          emitError(UnknownLoc::get(&ctx)) << p << "a";
          emitError(UnknownLoc::get(&ctx)) << p << "b";
        }
        diags.clearPosition();
      });
    pool.wait();
    diags.report(150);
  }
  std::vector<std::string> expected;
  for (unsigned p = 0; p <= 150; ++p) {
    expected.push_back(std::to_string(p) + "a");
    expected.push_back(std::to_string(p) + "b");
  }
  EXPECT_EQ(seen, expected);
}

} // namespace
