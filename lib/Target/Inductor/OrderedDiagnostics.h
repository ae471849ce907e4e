//===- OrderedDiagnostics.h - Diagnostics in sequential order ---*- C++ -*-===//
//
// When loop bodies are built in parallel, their diagnostics come in whatever
// order the threads run. The importer reports, as built sequentially, the
// diagnostics up to its first error and none after it. This handler holds
// every diagnostic emitted on a thread that has a position, then reports
// those at positions up to a given one, by position (stably: in emission
// order within one position, which one thread gives).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_ORDEREDDIAGNOSTICS_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_ORDEREDDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <mutex>
#include <utility>

namespace mlir {
namespace fusion {
namespace inductor {

class OrderedDiagnostics {
public:
  explicit OrderedDiagnostics(MLIRContext *context);
  /// Drops what was not reported.
  ~OrderedDiagnostics();

  /// Diagnostics emitted on the calling thread from now on are held at
  /// `position`.
  void setPosition(uint64_t position);
  /// Diagnostics emitted on the calling thread go to the other handlers.
  void clearPosition();
  /// Drops the diagnostics held at `position`.
  void drop(uint64_t position);
  /// Reports the held diagnostics at positions up to `last` in order of
  /// position, and forgets every held one.
  void report(uint64_t last);

private:
  MLIRContext *context;
  DiagnosticEngine::HandlerID handler;
  std::mutex mutex;
  llvm::SmallVector<std::pair<uint64_t, Diagnostic>, 0> held;
};

} // namespace inductor
} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_ORDEREDDIAGNOSTICS_H
