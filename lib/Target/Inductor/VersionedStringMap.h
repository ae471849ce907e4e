//===- VersionedStringMap.h - A StringMap with readable past ----*- C++ -*-===//
//
// A string-keyed map whose recent past can be read back: every assignment
// carries a version (the number of loop bodies the importer had started
// when it was made), and a lookup at version v sees the map as it was when
// body v started, that is, after the assignments of versions up to v only.
// The importer builds a run of nodes' graph-level ops first and their loop
// bodies afterwards, in parallel; each body reads the buffers and mutation
// renames as the sequential import would have seen them at its node.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_VERSIONEDSTRINGMAP_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_VERSIONEDSTRINGMAP_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <cassert>
#include <optional>

namespace mlir {
namespace fusion {
namespace inductor {

template <typename T> class VersionedStringMap {
public:
  /// The current value of `key`, if it has one.
  const T *find(llvm::StringRef key) const {
    // StringMap::find hashes the key before it looks at the table: most
    // lookups go to a map that is empty (mutation renames of a graph with
    // no mutation) or to a history that is (no loop body built apart).
    if (map.empty())
      return nullptr;
    auto it = map.find(key);
    return it == map.end() ? nullptr : &it->second;
  }

  /// Sets `key` to `value` by an assignment of `version`. While recording,
  /// versions do not decrease until the next clearHistory().
  void set(llvm::StringRef key, T value, unsigned version) {
    assert((!recording || version >= lastVersion) &&
           "versions must not decrease");
    lastVersion = version;
    auto [it, inserted] = map.try_emplace(key);
    if (recording) {
      llvm::SmallVector<Change, 1> &changes = history[key];
      // Only the value before the first assignment of a version is needed.
      if (changes.empty() || changes.back().version != version)
        changes.push_back(
            {version, inserted ? std::nullopt : std::optional<T>(it->second)});
    }
    it->second = std::move(value);
  }

  /// Whether assignments remember what they replace (off: findAt sees the
  /// current map at every version).
  void setRecording(bool on) { recording = on; }

  /// The value `key` had after the assignments of versions up to `version`
  /// made since the last clearHistory() (and every one before it), if any.
  const T *findAt(llvm::StringRef key, unsigned version) const {
    if (!history.empty())
      if (auto hit = history.find(key); hit != history.end())
        for (const Change &change : hit->second)
          if (change.version > version)
            return change.before ? &*change.before : nullptr;
    return find(key);
  }

  /// Forgets the past: later lookups at any version see the current map.
  void clearHistory() {
    history.clear();
    lastVersion = 0;
  }

  /// Makes room for `n` keys at once (a graph's buffers are known before
  /// the first assignment): the map then never rehashes as it fills.
  /// Does nothing after the first assignment.
  void reserve(unsigned n) {
    if (map.empty())
      map = llvm::StringMap<T>(n);
  }

  bool hasHistory() const { return !history.empty(); }
  size_t size() const { return map.size(); }

private:
  /// An assignment: its version and the value the key had before it.
  struct Change {
    unsigned version;
    std::optional<T> before;
  };
  llvm::StringMap<T> map;
  llvm::StringMap<llvm::SmallVector<Change, 1>> history;
  unsigned lastVersion = 0;
  bool recording = false;
};

} // namespace inductor
} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_VERSIONEDSTRINGMAP_H
