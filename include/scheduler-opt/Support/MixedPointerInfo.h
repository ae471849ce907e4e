//===- MixedPointerInfo.h - Hash tables keyed by attributes -----*- C++ -*-===//
//
// MLIR hashes an attribute (and any pointer) for DenseMap as (p >> 4) ^
// (p >> 9). The attributes of a large graph (buffer names, dependences) are
// allocated by the context at regular strides, and that hash of them fills
// the large tables of the schedule in clusters: at 100k nodes a lookup of a
// buffer name probes two to three times as many buckets as at 10k.
// Multiplying the pointer by a 64-bit odd constant and keeping the high
// bits spreads them evenly at any size.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_SUPPORT_MIXEDPOINTERINFO_H
#define SCHEDULER_OPT_SUPPORT_MIXEDPOINTERINFO_H

#include "llvm/ADT/DenseMapInfo.h"

#include <cstdint>

namespace mlir {
namespace fusion {

/// DenseMapInfo for a pointer-like key `T` (an attribute, a value: anything
/// with getAsOpaquePointer) with the bits of its pointer mixed. Equality and
/// the empty and tombstone keys are T's own.
template <typename T>
struct MixedPointerInfo : llvm::DenseMapInfo<T> {
  static unsigned getHashValue(const T &key) {
    auto bits = reinterpret_cast<uintptr_t>(key.getAsOpaquePointer());
    return static_cast<unsigned>((uint64_t(bits) * 0x9E3779B97F4A7C15ull) >>
                                 32);
  }
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_SUPPORT_MIXEDPOINTERINFO_H
