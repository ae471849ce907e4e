//===- DumpLocator.cpp - Locations in dumps -------------------------------===//
//
// Pointers into the dump's buffers become file:line:col locations.
//
//===----------------------------------------------------------------------===//

#include "InductorDump.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

const DumpLocator::BufferLines &DumpLocator::getLines(const char *ptr) const {
  if (last && ptr >= last->begin && ptr <= last->end)
    return *last;
  unsigned id = sourceMgr.FindBufferContainingLoc(SMLoc::getFromPointer(ptr));
  if (id == 0)
    id = sourceMgr.getMainFileID();
  std::unique_ptr<BufferLines> &entry = lines[id];
  if (!entry) {
    const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
    entry = std::make_unique<BufferLines>();
    entry->begin = buffer->getBufferStart();
    entry->end = buffer->getBufferEnd();
    entry->file = StringAttr::get(context, buffer->getBufferIdentifier());
    StringRef text = buffer->getBuffer();
    entry->lineStarts.push_back(0);
    for (size_t i = text.find('\n'); i != StringRef::npos;
         i = text.find('\n', i + 1))
      entry->lineStarts.push_back(i + 1);
  }
  last = entry.get();
  return *last;
}

Location DumpLocator::get(const char *ptr) const {
  const BufferLines &buffer = getLines(ptr);
  // A pointer outside every buffer (none is made by the parser) is placed
  // at the start of the main file.
  size_t offset =
      ptr >= buffer.begin && ptr <= buffer.end ? ptr - buffer.begin : 0;
  // The importer asks for locations in dump order, mostly on the line of
  // the last one or a few lines on: look there before searching.
  ArrayRef<size_t> starts = buffer.lineStarts;
  size_t index = buffer.lastLine;
  if (index >= starts.size() || starts[index] > offset) {
    index = llvm::upper_bound(starts, offset) - starts.begin() - 1;
  } else {
    unsigned steps = 0;
    while (index + 1 < starts.size() && starts[index + 1] <= offset &&
           ++steps <= 16)
      ++index;
    if (index + 1 < starts.size() && starts[index + 1] <= offset)
      index = llvm::upper_bound(starts, offset) - starts.begin() - 1;
  }
  buffer.lastLine = index;
  return FileLineColLoc::get(buffer.file, index + 1, offset - starts[index] + 1);
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
