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

Location DumpLocator::get(const char *ptr) const {
  SMLoc loc = SMLoc::getFromPointer(ptr);
  unsigned id = sourceMgr.FindBufferContainingLoc(loc);
  // A pointer outside every buffer (none is made by the parser) is placed
  // at the start of the main file.
  if (id == 0) {
    id = sourceMgr.getMainFileID();
    loc = SMLoc::getFromPointer(
        sourceMgr.getMemoryBuffer(id)->getBufferStart());
  }
  StringAttr &file = files[id];
  if (!file)
    file = StringAttr::get(
        context, sourceMgr.getMemoryBuffer(id)->getBufferIdentifier());
  auto [line, column] = sourceMgr.getLineAndColumn(loc, id);
  return FileLineColLoc::get(file, line, column);
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
