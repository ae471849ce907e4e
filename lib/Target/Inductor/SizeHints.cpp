//===- SizeHints.cpp - size_hints.json ------------------------------------===//
//
// The hint Inductor used for each size symbol of a graph compiled with
// dynamic shapes (`V.graph.sizevars` hints), as the corpus records them:
// `{"s27": 1024, "s77": 4096}`.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

LogicalResult
mlir::fusion::inductor::readSizeHints(unsigned bufferId,
                                      const DumpLocator &locator,
                                      llvm::StringMap<int64_t> &hints) {
  StringRef text =
      locator.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return locator.emitError(text.data())
           << "size hints are not valid JSON: "
           << llvm::toString(json.takeError());
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return locator.emitError(text.data())
           << "size hints must be a JSON object of symbol names and integers";
  for (const auto &[key, value] : *object) {
    std::optional<int64_t> hint = value.getAsInteger();
    // The key's text locates the entry in the file.
    size_t at = text.find(("\"" + key.str() + "\"").c_str());
    const char *loc = text.data() + (at == StringRef::npos ? 0 : at);
    if (!hint || *hint < 0)
      return locator.emitError(loc)
             << "size hint of '" << key.str()
             << "' must be a non-negative integer";
    hints[key.str()] = *hint;
  }
  return success();
}
