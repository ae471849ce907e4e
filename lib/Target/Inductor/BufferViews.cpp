//===- BufferViews.cpp - buffer_views.json --------------------------------===//
//
// Where each NonOwningLayout buffer lies in the storage it views. Inductor
// computes the inputs of a torch.cat straight into parts of the output
// (ConcatKernel.realize_into gives each a NonOwningLayout over a
// ReinterpretView of the output); the dump prints the view's size and
// stride but not its offset, which the scheduler does not need and a
// lowering does. The torch.compile backend records it from the live IR:
//
//   {"buf1": {"base": "buf5", "offset": 1}, "buf2": {"base": "buf5",
//    "offset": "2*s0"}}
//
// offsets in elements, as integers or size expressions in the dump's size
// symbols.
//
//===----------------------------------------------------------------------===//

#include "DumpFields.h"
#include "ImportInductorImpl.h"

#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

/// The value of `key` in the JSON object `dict`, if any.
static const PyValue *lookupKey(const PyValue *dict, StringRef key) {
  ArrayRef<PyValue *> entries = dict->elements;
  for (unsigned i = 0; i + 1 < entries.size(); i += 2)
    if (entries[i]->kind == PyValue::Kind::String && entries[i]->str == key)
      return entries[i + 1];
  return nullptr;
}

LogicalResult mlir::fusion::inductor::readBufferViews(
    unsigned bufferId, const DumpLocator &locator, SizeSymbols &symbols,
    PyValueArena &arena, llvm::StringMap<BufferView> &views) {
  StringRef text =
      locator.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  const char *start = text.data();
  auto expected = [&](const char *at) {
    return locator.emitError(at)
           << "buffer views: expected a JSON object of buffer names and "
              "{\"base\": name, \"offset\": elements}";
  };
  text = text.trim();
  if (text.empty())
    return expected(start);
  FailureOr<PyValue *> value = parsePyValue(text, locator, arena);
  if (failed(value))
    return failure();
  if ((*value)->kind != PyValue::Kind::Dict)
    return expected((*value)->loc());
  MLIRContext *ctx = locator.getContext();
  ValueReader reader(locator, symbols);
  ArrayRef<PyValue *> entries = (*value)->elements;
  for (unsigned i = 0; i + 1 < entries.size(); i += 2) {
    const PyValue *key = entries[i], *view = entries[i + 1];
    if (key->kind != PyValue::Kind::String || view->kind != PyValue::Kind::Dict)
      return expected(key->loc());
    const PyValue *base = lookupKey(view, "base");
    const PyValue *offset = lookupKey(view, "offset");
    if (!base || base->kind != PyValue::Kind::String || !offset)
      return expected(view->loc());
    BufferView parsed{base->str, AffineExpr(), key->loc()};
    if (offset->kind == PyValue::Kind::Int) {
      if (offset->intValue < 0)
        return locator.emitError(offset->loc())
               << "buffer views: the offset of '" << key->str
               << "' is negative";
      parsed.offset = getAffineConstantExpr(offset->intValue, ctx);
    } else if (offset->kind == PyValue::Kind::String) {
      // A size expression in the dump's size symbols, located in the file.
      FailureOr<AffineExpr> expr = reader.readSizeText(offset->str);
      if (failed(expr))
        return failure();
      parsed.offset = *expr;
    } else {
      return locator.emitError(offset->loc())
             << "buffer views: the offset of '" << key->str
             << "' must be an integer or a size expression";
    }
    if (!views.try_emplace(key->str, parsed).second)
      return locator.emitError(key->loc())
             << "buffer views: '" << key->str << "' is listed twice";
  }
  return success();
}
