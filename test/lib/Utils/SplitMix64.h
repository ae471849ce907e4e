//===- SplitMix64.h - A portable random sequence ----------------*- C++ -*-===//
//
// splitmix64: a tiny generator whose sequence is the same everywhere (the
// standard distributions are not), so that a seed names one generated
// graph, in either of scheduler-graph-gen's formats.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_TEST_LIB_UTILS_SPLITMIX64_H
#define SCHEDULER_OPT_TEST_LIB_UTILS_SPLITMIX64_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace mlir {
namespace fusion {

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}

  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n); n must be positive.
  uint64_t below(uint64_t n) { return next() % n; }
  bool percent(unsigned p) { return below(100) < p; }
  template <typename T>
  T pick(llvm::ArrayRef<T> items) {
    return items[below(items.size())];
  }

private:
  uint64_t state;
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_TEST_LIB_UTILS_SPLITMIX64_H
