//===- ExternCalls.cpp - extern_calls.json onto fusion.extern ops ---------===//
//
// The dump names an extern's kernel but not how it is called; the backend's
// dump writer (python/scheduler_opt/dump.py) records each extern node's call
// in `extern_calls.json` beside the dump: `{"op12": {"kernel": ...,
// "args": [...], "kwargs": {...}, ...}}`. Each entry becomes the
// `fusion.call` attribute (ExternCall.h) of the fusion.extern of that name,
// as a dictionary holding the JSON's values (objects as dictionaries, arrays
// as arrays, integers as i64, other numbers as f64, booleans, strings, null
// as a unit attribute). The importer does not interpret the calls.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "scheduler-opt/Dialect/Fusion/IR/ExternCall.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

/// The attribute holding a JSON value.
static Attribute toAttribute(Builder &b, const llvm::json::Value &value) {
  if (const llvm::json::Object *object = value.getAsObject()) {
    NamedAttrList entries;
    for (const auto &[key, field] : *object)
      entries.append(StringRef(key), toAttribute(b, field));
    return entries.getDictionary(b.getContext());
  }
  if (const llvm::json::Array *array = value.getAsArray()) {
    SmallVector<Attribute> elements;
    for (const llvm::json::Value &element : *array)
      elements.push_back(toAttribute(b, element));
    return b.getArrayAttr(elements);
  }
  if (std::optional<bool> boolean = value.getAsBoolean())
    return b.getBoolAttr(*boolean);
  if (std::optional<int64_t> integer = value.getAsInteger())
    return b.getI64IntegerAttr(*integer);
  if (std::optional<double> number = value.getAsNumber())
    return b.getF64FloatAttr(*number);
  if (std::optional<StringRef> str = value.getAsString())
    return b.getStringAttr(*str);
  return b.getUnitAttr(); // null
}

LogicalResult inductor::attachExternCalls(ModuleOp module,
                                          llvm::MemoryBufferRef file) {
  MLIRContext *ctx = module.getContext();
  Location loc = FileLineColLoc::get(ctx, file.getBufferIdentifier(), 1, 1);
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse(file.getBuffer());
  if (!parsed)
    return emitError(loc) << "invalid extern calls: "
                          << llvm::toString(parsed.takeError());
  const llvm::json::Object *calls = parsed->getAsObject();
  if (!calls)
    return emitError(loc) << "extern calls must be a JSON object mapping "
                             "extern node names to their calls";
  llvm::StringMap<ExternOp> externs;
  module.walk([&](ExternOp op) { externs[op.getName()] = op; });
  Builder b(ctx);
  // In sorted order, so that the first error does not depend on hashing.
  SmallVector<StringRef> names;
  for (const auto &entry : *calls)
    names.push_back(entry.first);
  llvm::sort(names);
  for (StringRef name : names) {
    const llvm::json::Value &call = *calls->get(name);
    auto it = externs.find(name);
    if (it == externs.end())
      return emitError(loc) << "extern calls name '" << name
                            << "', which is no extern node of the dump";
    if (!call.getAsObject())
      return emitError(loc) << "the call of '" << name
                            << "' is not a JSON object";
    it->second->setAttr(kExternCallAttrName, toAttribute(b, call));
  }
  return success();
}
