//===- OrderedDiagnostics.cpp - Diagnostics in sequential order -----------===//

#include "OrderedDiagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::fusion::inductor;

namespace {
/// The handler a thread's diagnostics go to, and their position there.
struct ThreadPosition {
  const OrderedDiagnostics *owner = nullptr;
  uint64_t position = 0;
};
} // namespace

static thread_local ThreadPosition threadPosition;

OrderedDiagnostics::OrderedDiagnostics(MLIRContext *context)
    : context(context) {
  handler = context->getDiagEngine().registerHandler(
      [this](Diagnostic &diag) -> LogicalResult {
        if (threadPosition.owner != this)
          return failure(); // Another thread's: not ours to order.
        std::lock_guard<std::mutex> lock(mutex);
        held.emplace_back(threadPosition.position, std::move(diag));
        return success();
      });
}

OrderedDiagnostics::~OrderedDiagnostics() {
  context->getDiagEngine().eraseHandler(handler);
  if (threadPosition.owner == this)
    threadPosition = {};
}

void OrderedDiagnostics::setPosition(uint64_t position) {
  threadPosition = {this, position};
}

void OrderedDiagnostics::clearPosition() { threadPosition = {}; }

void OrderedDiagnostics::drop(uint64_t position) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::erase_if(held,
                 [&](const auto &entry) { return entry.first == position; });
}

void OrderedDiagnostics::report(uint64_t last) {
  SmallVector<std::pair<uint64_t, Diagnostic>, 0> reported;
  {
    std::lock_guard<std::mutex> lock(mutex);
    reported = std::move(held);
    held.clear();
  }
  llvm::stable_sort(
      reported, [](const auto &a, const auto &b) { return a.first < b.first; });
  // Reported on this thread with no position: to the handlers before us.
  ThreadPosition saved = threadPosition;
  threadPosition = {};
  for (auto &[position, diag] : reported)
    if (position <= last)
      context->getDiagEngine().emit(std::move(diag));
  threadPosition = saved;
}
