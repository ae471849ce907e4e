//===- DumpLocator.cpp - Locations in dumps -------------------------------===//
//
// Pointers into the dump's buffers become file:line:col locations.
//
//===----------------------------------------------------------------------===//

#include "InductorDump.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

unsigned mlir::fusion::inductor::countNewlines(const char *from,
                                              const char *to) {
  unsigned n = 0;
  while (from < to) {
    const char *nl =
        static_cast<const char *>(std::memchr(from, '\n', to - from));
    if (!nl)
      break;
    ++n;
    from = nl + 1;
  }
  return n;
}

std::pair<unsigned, unsigned>
DumpLocator::lineAndColumn(BufferCursor &cursor, const char *ptr) const {
  // Nearby pointers and those ahead are counted from the cursor, which
  // leaves a checkpoint (a place and its line) every kCheckpointBytes as it
  // moves ahead; a pointer far behind it (a diagnostic about an earlier
  // node, a foreach member placed after the other nodes) is counted from
  // the last checkpoint before it. SourceMgr's table of every line's
  // offset, which it would build on the first such question, is never
  // built (and a thread's copy could not build it).
  constexpr ptrdiff_t kCheckpointBytes = 1 << 16;
  if (ptr >= cursor.lineStart) {
    const char *from = cursor.lineStart;
    unsigned line = cursor.line;
    const char *last = cursor.checkpoints.empty()
                           ? cursor.start
                           : cursor.checkpoints.back().first;
    while (ptr - last >= kCheckpointBytes) {
      const char *next = last + kCheckpointBytes;
      if (next > from) {
        line += countNewlines(from, next);
        from = next;
      }
      cursor.checkpoints.push_back({from, line});
      last = from;
    }
    cursor.line = line + countNewlines(from, ptr);
  } else if (cursor.lineStart - ptr <= kCheckpointBytes) {
    cursor.line -= countNewlines(ptr, cursor.lineStart);
  } else {
    auto after = llvm::upper_bound(
        cursor.checkpoints, ptr,
        [](const char *p, const std::pair<const char *, unsigned> &c) {
          return p < c.first;
        });
    const char *from = cursor.start;
    unsigned line = 1;
    if (after != cursor.checkpoints.begin()) {
      from = std::prev(after)->first;
      line = std::prev(after)->second;
    }
    cursor.line = line + countNewlines(from, ptr);
  }
  // The start of ptr's line.
  const char *lineStart = ptr;
  while (lineStart > cursor.start && lineStart[-1] != '\n')
    --lineStart;
  cursor.lineStart = lineStart;
  // SourceMgr counts the column from the last '\n' or '\r' before ptr.
  const char *columnStart = lineStart;
  for (const char *c = lineStart; c < ptr; ++c)
    if (*c == '\r')
      columnStart = c + 1;
  return {cursor.line, static_cast<unsigned>(ptr - columnStart) + 1};
}

Location DumpLocator::get(const char *ptr) const {
  if (quiet)
    return UnknownLoc::get(context);
  if (ptr == lastPtr && lastLoc)
    return lastLoc;
  BufferCursor *cursor = lastId ? &buffers[lastId] : nullptr;
  if (!cursor || ptr < cursor->start || ptr > cursor->end) {
    unsigned id =
        sourceMgr.FindBufferContainingLoc(SMLoc::getFromPointer(ptr));
    // A pointer outside every buffer (none is made by the parser) is placed
    // at the start of the main file.
    if (id == 0) {
      id = sourceMgr.getMainFileID();
      ptr = sourceMgr.getMemoryBuffer(id)->getBufferStart();
    }
    cursor = &buffers[id];
    if (!cursor->start) {
      const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
      cursor->start = cursor->lineStart = buffer->getBufferStart();
      cursor->end = buffer->getBufferEnd();
      cursor->id = id;
      cursor->file =
          StringAttr::get(context, buffer->getBufferIdentifier());
    }
    lastId = id;
  }
  auto [line, column] = lineAndColumn(*cursor, ptr);
  lastPtr = ptr;
  lastLoc = FileLineColLoc::get(cursor->file, line, column);
  return lastLoc;
}

InFlightDiagnostic DumpLocator::quietError() const {
  // A diagnostic that takes a message and notes but is not in flight: its
  // destruction reports nothing, and making it touches no state another
  // thread shares (the unknown location is the context's, made once).
  InFlightDiagnostic diag = mlir::emitError(UnknownLoc::get(context));
  diag.abandon();
  return diag;
}

DumpLocator::Mark DumpLocator::mark() const {
  auto it = buffers.find(lastId);
  if (it == buffers.end())
    return {};
  return {lastId, it->second.lineStart, it->second.line};
}

void DumpLocator::seek(const Mark &mark) const {
  auto it = buffers.find(mark.id);
  if (it == buffers.end() || !mark.lineStart)
    return;
  it->second.lineStart = mark.lineStart;
  it->second.line = mark.line;
}

std::string mlir::fusion::inductor::quoteSource(StringRef text, size_t limit) {
  text = text.take_until([](char c) { return c == '\n' || c == '\r'; });
  std::string result = "'";
  for (char c : text.take_front(limit)) {
    if (llvm::isPrint(c))
      result += c;
    else
      result += "\\x" + llvm::utohexstr(static_cast<uint8_t>(c), true, 2);
  }
  if (text.size() > limit)
    result += "...";
  return result + "'";
}
