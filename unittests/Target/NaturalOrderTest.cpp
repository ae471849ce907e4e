//===- NaturalOrderTest.cpp - The importer's natural order of names -------===//
//
// naturalLess decides StringRef::compare_numeric's order from where two names
// first differ; it is checked against compare_numeric itself on every pair
// of short strings over letters, separators and digits. sortNatural, which
// sorts by keys made from the names, sorts as naturalLess does.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace mlir::fusion::inductor;

namespace {

TEST(NaturalOrder, NumbersCompareByValue) {
  EXPECT_TRUE(naturalLess("arg2_1", "arg10_1"));
  EXPECT_FALSE(naturalLess("arg10_1", "arg2_1"));
  EXPECT_TRUE(naturalLess("buf9", "buf10"));
  EXPECT_TRUE(naturalLess("primals_12", "primals_12_1"));
  EXPECT_FALSE(naturalLess("buf3", "buf3"));
}

TEST(NaturalOrder, AgreesWithCompareNumeric) {
  const char alphabet[] = {'a', 'b', '_', '0', '1', '9'};
  std::vector<std::string> names = {""};
  for (size_t begin = 0, length = 1; length <= 4; ++length) {
    size_t end = names.size();
    for (size_t i = begin; i < end; ++i)
      for (char c : alphabet)
        names.push_back(names[i] + c);
    begin = end;
  }
  for (const std::string &a : names)
    for (const std::string &b : names)
      ASSERT_EQ(naturalLess(a, b), llvm::StringRef(a).compare_numeric(b) < 0)
          << "'" << a << "' against '" << b << "'";
}

TEST(NaturalOrder, SortNaturalSortsAsNaturalLess) {
  // Bytes below, between and above the digits, a byte above 127, and runs
  // of digits with leading zeros.
  const char alphabet[] = {'\x01', '.', '0', '1', '9', '_', 'a', '\xe9'};
  std::vector<std::string> names;
  for (size_t begin = 0, length = 1; length <= 4; ++length) {
    if (names.empty()) {
      for (char c : alphabet)
        names.push_back(std::string(1, c));
      continue;
    }
    size_t end = names.size();
    for (size_t i = begin; i < end; ++i)
      for (char c : alphabet)
        names.push_back(names[i] + c);
    begin = end;
  }
  // A run of more than 255 digits, which the keys do not count.
  names.push_back("a" + std::string(300, '7'));
  names.push_back("a" + std::string(299, '7'));
  for (bool withLongRun : {false, true}) {
    llvm::SmallVector<llvm::StringRef> sorted, expected;
    for (const std::string &name : names)
      if (withLongRun || name.size() < 100)
        sorted.push_back(name);
    // Reversed, so that the sort has something to do.
    std::reverse(sorted.begin(), sorted.end());
    expected = sorted;
    std::sort(expected.begin(), expected.end(), naturalLess);
    sortNatural(sorted);
    ASSERT_EQ(sorted, expected) << "with the long run: " << withLongRun;
  }
}

} // namespace
