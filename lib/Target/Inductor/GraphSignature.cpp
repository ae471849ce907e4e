//===- GraphSignature.cpp - The outputs of signature.json -----------------===//
//
// The torch.compile backend writes the graph's signature next to the dump
// (python/scheduler_opt/backend.py, `_graph_signature`): its `outputs` are
// `V.graph.graph_outputs` in order, each a view of a buffer (`{"buffer":
// "buf5", "size": ..., "stride": ..., "offset": 0, "dtype": "f32"}`), a
// size (`{"size": "s0"}`) or null. The importer takes the buffers they
// name: what Inductor's `get_output_names` holds.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

LogicalResult mlir::fusion::inductor::readSignatureOutputs(
    unsigned bufferId, const DumpLocator &locator,
    llvm::StringSet<> &outputs) {
  StringRef text =
      locator.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return locator.emitError(text.data())
           << "the graph signature is not valid JSON: "
           << llvm::toString(json.takeError());
  const llvm::json::Object *object = json->getAsObject();
  const llvm::json::Array *list =
      object ? object->getArray("outputs") : nullptr;
  if (!list)
    return locator.emitError(text.data())
           << "the graph signature must be a JSON object with an 'outputs' "
              "list";
  // Entries are located from the key on (its text may be escaped).
  size_t searchFrom = text.find("\"outputs\"");
  if (searchFrom == StringRef::npos)
    searchFrom = 0;
  for (const llvm::json::Value &entry : *list) {
    if (entry.kind() == llvm::json::Value::Null)
      continue;
    const llvm::json::Object *output = entry.getAsObject();
    const llvm::json::Value *buffer = output ? output->get("buffer") : nullptr;
    if (output && !buffer && output->get("size"))
      continue; // A size the graph returns.
    std::optional<StringRef> name = buffer ? buffer->getAsString()
                                           : std::optional<StringRef>();
    // The entry's buffer name locates it in the file.
    size_t at = name ? text.find(("\"" + *name + "\"").str(), searchFrom)
                     : StringRef::npos;
    if (!name || name->empty() || at == StringRef::npos)
      return locator.emitError(text.data() + searchFrom)
             << "each output of the graph signature must be null, a size "
                "({\"size\": ...}) or a view of a buffer ({\"buffer\": "
                "\"buf5\", ...})";
    outputs.insert(*name);
  }
  return success();
}
