//===- PairMap.h - A map keyed by pairs of dense ids ------------*- C++ -*-===//
//
// The planner keeps answers per pair of groups (can_fuse's verdicts, the
// refusals' places in the report) and asks for them in about the order of
// the pairs' first groups, since candidates come buffer by buffer in the
// order of the graph. A hash table of all pairs spreads those asks over the
// whole table: at 100k nodes, tens of MB touched at random. Here the pairs
// of each first id are a short list of their own, in a vector indexed by
// that id, so that consecutive asks touch neighbouring lists.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_SUPPORT_PAIRMAP_H
#define SCHEDULER_OPT_SUPPORT_PAIRMAP_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace mlir {
namespace fusion {

/// A map from (first, second) pairs of ids to values `V`, for first ids
/// that are dense (below a few times the number of pairs) and few second
/// ids per first id: a lookup scans the list of its first id. Pointers to
/// values stay valid until a pair with the same first id is inserted.
template <typename V>
class PairMap {
public:
  /// The value of (first, second), or null.
  V *find(unsigned first, unsigned second) {
    if (first >= lists.size())
      return nullptr;
    auto it = llvm::find_if(lists[first], [&](const Entry &entry) {
      return entry.first == second;
    });
    return it == lists[first].end() ? nullptr : &it->second;
  }

  /// Maps (first, second) to `value` unless it is mapped already. Returns
  /// the pair's value and whether it was inserted.
  std::pair<V *, bool> tryEmplace(unsigned first, unsigned second, V value) {
    if (V *known = find(first, second))
      return {known, false};
    if (first >= lists.size())
      lists.resize(first + 1);
    lists[first].push_back({second, std::move(value)});
    return {&lists[first].back().second, true};
  }

  /// Maps (first, second) to `value`, replacing any value it had.
  void insertOrAssign(unsigned first, unsigned second, V value) {
    auto [known, inserted] = tryEmplace(first, second, value);
    if (!inserted)
      *known = std::move(value);
  }

private:
  using Entry = std::pair<unsigned, V>;
  llvm::SmallVector<llvm::SmallVector<Entry, 0>, 0> lists;
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_SUPPORT_PAIRMAP_H
