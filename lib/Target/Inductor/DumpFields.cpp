//===- DumpFields.cpp - The values on a dump's lines ----------------------===//
//
// Dependences (`MemoryDep`, `StarDep`, `WeakDep`), layouts, devices, node
// users and size lists, read out of parsed Python values.
//
//===----------------------------------------------------------------------===//

#include "DumpFields.h"
#include "IndexExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

LogicalResult ValueReader::expectKind(const PyValue *v, PyValue::Kind kind,
                                      StringRef what) {
  if (v->kind == kind)
    return success();
  return error(v) << "expected " << what << ", found " << quoteSource(v->text);
}

/// A keyword argument of a call, or null.
const PyValue *ValueReader::keyword(const PyValue *call, StringRef key) {
  for (auto &[name, value] : call->keywords)
    if (name == key)
      return value;
  return nullptr;
}

/// Fails on positional arguments beyond `maxPositional` and on keywords
/// not in `keywords`: nothing the dump says is ignored.
LogicalResult ValueReader::checkArguments(const PyValue *call,
                                          unsigned maxPositional,
                                          ArrayRef<StringRef> keywords) {
  if (call->elements.size() > maxPositional)
    return error(call->elements[maxPositional])
           << "unexpected argument "
           << quoteSource(call->elements[maxPositional]->text) << " of '"
           << call->str << "'";
  for (auto &[key, value] : call->keywords)
    if (!llvm::is_contained(keywords, key))
      return error(value) << "unexpected argument '" << key << "' of '"
                          << call->str << "'";
  return success();
}

FailureOr<const PyValue *> ValueReader::requireKeyword(const PyValue *call,
                                                       StringRef key) {
  if (const PyValue *v = keyword(call, key))
    return v;
  return error(call) << "'" << call->str << "' needs the argument '" << key
                     << "'";
}

FailureOr<bool> ValueReader::readBool(const PyValue *v) {
  if (v->isName("True"))
    return true;
  if (v->isName("False"))
    return false;
  return error(v) << "expected True or False, found " << quoteSource(v->text);
}

FailureOr<StringRef> ValueReader::readString(const PyValue *v, StringRef what) {
  if (failed(expectKind(v, PyValue::Kind::String, what)))
    return failure();
  return v->str;
}

FailureOr<AffineExpr> ValueReader::readSize(const PyValue *v,
                                            StringRef what,
                                            bool isStride) {
  MLIRContext *ctx = locator.getContext();
  if (v->kind == PyValue::Kind::Int)
    return getAffineConstantExpr(v->intValue, ctx);
  // A function call alone (`Max(1, s53)`) is a Call to the value parser.
  if (v->kind != PyValue::Kind::Name && v->kind != PyValue::Kind::Expr &&
      v->kind != PyValue::Kind::Tuple && v->kind != PyValue::Kind::Call)
    return error(v) << "expected an integer or a size expression in " << what
                    << ", found " << quoteSource(v->text);
  return readSizeText(v->text, isStride);
}

FailureOr<AffineExpr>
ValueReader::readSizeText(StringRef text, bool isStride) {
  MLIRContext *ctx = locator.getContext();
  // Size expressions use size symbols only: no loop variables.
  auto resolve = [&](StringRef name) -> AffineExpr {
    if (symbols && SizeSymbols::isSizeSymbolName(name))
      return symbols->get(name, ctx);
    return AffineExpr();
  };
  return parseIndexExpr(
      text, ctx, resolve,
      [&](const char *at) -> InFlightDiagnostic { return locator.emitError(at); },
      [](unsigned) { return true; }, isStride);
}

LogicalResult ValueReader::readSizeList(const PyValue *v,
                                        SmallVectorImpl<AffineExpr> &out,
                                        StringRef what,
                                        bool isStride) {
  if (v->kind != PyValue::Kind::List && v->kind != PyValue::Kind::Tuple)
    return error(v) << "expected " << what << " (a list of sizes), found "
                    << quoteSource(v->text);
  for (const PyValue *e : v->elements) {
    FailureOr<AffineExpr> size = readSize(e, what, isStride);
    if (failed(size))
      return failure();
    out.push_back(*size);
  }
  return success();
}

/// `{d0: 64, d1: 4096}` or `{p0: s77}`.
LogicalResult ValueReader::readVarSizes(
    const PyValue *v, SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out,
    StringRef what) {
  if (failed(expectKind(v, PyValue::Kind::Dict, what)))
    return failure();
  for (size_t i = 0; i + 1 < v->elements.size(); i += 2) {
    const PyValue *key = v->elements[i], *size = v->elements[i + 1];
    if (failed(expectKind(key, PyValue::Kind::Name, "a variable name")))
      return failure();
    FailureOr<AffineExpr> expr = readSize(size, what);
    if (failed(expr))
      return failure();
    out.push_back({key->str, *expr});
  }
  return success();
}

bool SizeSymbols::isSizeSymbolName(StringRef name) {
  for (StringRef prefix : {"ps", "s", "u"})
    if (name.consume_front(prefix))
      return !name.empty() &&
             llvm::all_of(name, [](char c) { return llvm::isDigit(c); });
  return false;
}

AffineExpr SizeSymbols::get(StringRef name, MLIRContext *context,
                            unsigned base) {
  auto [it, inserted] = positions.try_emplace(name, names.size());
  if (inserted)
    names.push_back(name.str());
  return getAffineSymbolExpr(base + it->second, context);
}

std::optional<unsigned> SizeSymbols::lookup(StringRef name) const {
  auto it = positions.find(name);
  if (it == positions.end())
    return std::nullopt;
  return it->second;
}

/// What readVarSizes calls a MemoryDep's sizes in its errors.
static constexpr StringLiteral kDepSizesWhat =
    "the sizes of the index variables";

FailureOr<DumpDep> ValueReader::readDep(const PyValue *v) {
  DumpDep dep;
  dep.text = v->text;
  if (v->kind != PyValue::Kind::Call)
    return error(v) << "expected MemoryDep, StarDep or WeakDep, found "
                    << quoteSource(v->text);
  if (v->str == "MemoryDep") {
    dep.kind = DumpDep::Kind::Memory;
    if (v->elements.size() != 3 && v->elements.size() != 4)
      return error(v) << "MemoryDep takes a name, an index, sizes and an "
                         "optional mode";
    FailureOr<StringRef> name =
        readString(v->elements[0], "a buffer name in quotes");
    if (failed(name))
      return failure();
    dep.name = *name;
    if (failed(checkArguments(v, 4, {})))
      return failure();
    dep.index = v->elements[1]->text;
    // Checked (and their size symbols numbered) here, read again on demand.
    SmallVector<std::pair<StringRef, AffineExpr>, 4> sizes;
    if (failed(readVarSizes(v->elements[2], sizes, kDepSizesWhat)))
      return failure();
    dep.sizes = v->elements[2]->text;
    if (v->elements.size() == 4 && !v->elements[3]->isNone()) {
      if (failed(
              expectKind(v->elements[3], PyValue::Kind::Name, "a store mode")))
        return failure();
      dep.mode = v->elements[3]->str;
    }
    return dep;
  }
  if (v->str == "StarDep") {
    dep.kind = DumpDep::Kind::Star;
    if (failed(checkArguments(v, 0, {"name", "mode"})))
      return failure();
    FailureOr<const PyValue *> name = requireKeyword(v, "name");
    if (failed(name))
      return failure();
    FailureOr<StringRef> str = readString(*name, "a buffer name in quotes");
    if (failed(str))
      return failure();
    dep.name = *str;
    if (const PyValue *mode = keyword(v, "mode"); mode && !mode->isNone()) {
      FailureOr<StringRef> m = readString(mode, "a store mode in quotes");
      if (failed(m))
        return failure();
      dep.mode = *m;
    }
    return dep;
  }
  if (v->str == "WeakDep") {
    dep.kind = DumpDep::Kind::Weak;
    if (failed(checkArguments(v, 0, {"name", "mutating_buf", "is_fake"})))
      return failure();
    FailureOr<const PyValue *> name = requireKeyword(v, "name");
    if (failed(name))
      return failure();
    FailureOr<const PyValue *> mutating = requireKeyword(v, "mutating_buf");
    if (failed(mutating))
      return failure();
    FailureOr<StringRef> n = readString(*name, "a buffer name in quotes");
    if (failed(n))
      return failure();
    FailureOr<StringRef> m = readString(*mutating, "a buffer name in quotes");
    if (failed(m))
      return failure();
    dep.name = *n;
    dep.mutatingBuf = *m;
    if (const PyValue *fake = keyword(v, "is_fake")) {
      FailureOr<bool> b = readBool(fake);
      if (failed(b))
        return failure();
      dep.isFake = *b;
    }
    return dep;
  }
  return error(v) << "unknown dependence kind '" << v->str
                  << "' (expected MemoryDep, StarDep or WeakDep)";
}

LogicalResult mlir::fusion::inductor::readDepSizes(
    const DumpDep &dep, const DumpLocator &locator, SizeSymbols &symbols,
    SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out) {
  if (readVarSizesDirect(dep.sizes, locator.getContext(), out))
    return success();
  PyValueArena arena;
  FailureOr<PyValue *> value = parsePyValue(dep.sizes, locator, arena);
  if (failed(value))
    return failure();
  return ValueReader(locator, symbols).readVarSizes(*value, out, kDepSizesWhat);
}

LogicalResult ValueReader::readDepList(const PyValue *v, DumpDepList &out) {
  if (failed(expectKind(v, PyValue::Kind::List, "a list of dependences")))
    return failure();
  for (const PyValue *e : v->elements) {
    FailureOr<DumpDep> dep = readDep(e);
    if (failed(dep))
      return failure();
    out.deps.push_back(std::move(*dep));
  }
  return success();
}

/// `device(type='cuda', index=0)` -> "cuda:0".
FailureOr<std::string> ValueReader::readDevice(const PyValue *v) {
  if (v->kind == PyValue::Kind::String)
    return v->str.str();
  if (v->kind != PyValue::Kind::Call || v->str != "device")
    return error(v) << "expected a device, found " << quoteSource(v->text);
  if (failed(checkArguments(v, 0, {"type", "index"})))
    return failure();
  FailureOr<const PyValue *> type = requireKeyword(v, "type");
  if (failed(type))
    return failure();
  FailureOr<StringRef> str = readString(*type, "a device type in quotes");
  if (failed(str))
    return failure();
  std::string device = str->str();
  if (const PyValue *index = keyword(v, "index"); index && !index->isNone()) {
    if (failed(expectKind(index, PyValue::Kind::Int, "a device index")))
      return failure();
    device += ":" + std::to_string(index->intValue);
  }
  return device;
}

/// The layout classes of ir.py: those with storage (printed by
/// Layout.__str__), then the two without.
static const StringRef kLayoutClasses[] = {
    "FixedLayout",
    "FlexibleLayout",
    "NonOwningLayout",
    "CommBufferLayout",
    "MutationLayoutSHOULDREMOVE",
    "Layout",
    "MultiOutputLayout",
    "NoneLayout",
};

ArrayRef<StringRef> mlir::fusion::inductor::getLayoutClasses() {
  return kLayoutClasses;
}

bool mlir::fusion::inductor::isStorageLayoutClass(StringRef className) {
  return llvm::is_contained(getLayoutClasses().drop_back(2), className);
}

FailureOr<DumpLayout> ValueReader::readLayout(const PyValue *v) {
  DumpLayout layout;
  layout.loc = v->loc();
  if (v->kind != PyValue::Kind::Call)
    return error(v) << "expected a layout, found " << quoteSource(v->text);
  layout.className = v->str;
  if (v->str == "MultiOutputLayout" || v->str == "NoneLayout") {
    layout.kind = v->str == "NoneLayout" ? DumpLayout::Kind::None
                                         : DumpLayout::Kind::MultiOutput;
    // NoneLayout also prints size=[0], stride=[0]: it has no storage.
    if (failed(checkArguments(v, 0, {"device", "size", "stride"})))
      return failure();
    FailureOr<const PyValue *> device = requireKeyword(v, "device");
    if (failed(device))
      return failure();
    FailureOr<std::string> dev = readDevice(*device);
    if (failed(dev))
      return failure();
    layout.device = *dev;
    return layout;
  }
  // Every subclass of ir.Layout prints Layout.__str__: device, dtype, size,
  // stride and offset. NonOwningLayout is a view into another buffer's
  // storage and CommBufferLayout a communication buffer: both are storage
  // with a fixed layout to the scheduler.
  if (!isStorageLayoutClass(v->str))
    return error(v) << "unsupported layout '" << v->str
                    << "' (expected FixedLayout, FlexibleLayout, "
                       "NonOwningLayout, CommBufferLayout, "
                       "MutationLayoutSHOULDREMOVE, Layout, "
                       "MultiOutputLayout or NoneLayout)";
  layout.kind = DumpLayout::Kind::Fixed;
  if (failed(checkArguments(v, 2, {"size", "stride", "offset"})))
    return failure();
  if (v->elements.size() != 2)
    return error(v) << "'" << v->str
                    << "' takes a device and a dtype before size= and "
                       "stride=";
  FailureOr<std::string> dev = readDevice(v->elements[0]);
  if (failed(dev) || failed(expectKind(v->elements[1], PyValue::Kind::Name,
                                       "a dtype such as torch.float32")))
    return failure();
  layout.device = *dev;
  layout.dtype = v->elements[1]->str;
  layout.dtypeLoc = v->elements[1]->loc();
  FailureOr<const PyValue *> size = requireKeyword(v, "size");
  if (failed(size))
    return failure();
  FailureOr<const PyValue *> stride = requireKeyword(v, "stride");
  if (failed(stride) ||
      failed(readSizeList(*size, layout.size, "the layout size")) ||
      failed(readSizeList(*stride, layout.stride, "the layout stride",
                          /*isStride=*/true)))
    return failure();
  if (layout.size.size() != layout.stride.size())
    return error(*stride) << "layout has " << layout.size.size()
                          << " sizes but " << layout.stride.size()
                          << " strides";
  layout.offset = getAffineConstantExpr(0, locator.getContext());
  if (const PyValue *offset = keyword(v, "offset")) {
    FailureOr<AffineExpr> expr = readSize(offset, "the layout offset");
    if (failed(expr))
      return failure();
    layout.offset = *expr;
  }
  return layout;
}

FailureOr<DumpUser> ValueReader::readUser(const PyValue *v) {
  if (v->kind != PyValue::Kind::Call || v->str != "NodeUser")
    return error(v) << "expected NodeUser(...), found " << quoteSource(v->text);
  DumpUser user;
  user.loc = v->loc();
  if (failed(checkArguments(v, 0, {"node", "can_inplace", "is_weak"})))
    return failure();
  FailureOr<const PyValue *> node = requireKeyword(v, "node");
  if (failed(node))
    return failure();
  if ((*node)->isName("OUTPUT")) {
    // nodeName stays empty.
  } else if ((*node)->kind == PyValue::Kind::Call) {
    user.nodeClass = (*node)->str;
    if (failed(checkArguments(*node, 0, {"name"})))
      return failure();
    FailureOr<const PyValue *> name = requireKeyword(*node, "name");
    if (failed(name))
      return failure();
    FailureOr<StringRef> str = readString(*name, "a node name in quotes");
    if (failed(str))
      return failure();
    user.nodeName = *str;
  } else {
    return error(*node) << "expected OUTPUT or a scheduler node, found "
                        << quoteSource((*node)->text);
  }
  for (auto [key, field] :
       {std::pair<StringRef, bool *>{"can_inplace", &user.canInplace},
        {"is_weak", &user.isWeak}}) {
    FailureOr<const PyValue *> flag = requireKeyword(v, key);
    if (failed(flag))
      return failure();
    FailureOr<bool> b = readBool(*flag);
    if (failed(b))
      return failure();
    *field = *b;
  }
  return user;
}

LogicalResult ValueReader::readStringList(
    const PyValue *v,
    SmallVectorImpl<std::pair<StringRef, const char *>> &out) {
  if (failed(expectKind(v, PyValue::Kind::List, "a list of names")))
    return failure();
  for (const PyValue *e : v->elements) {
    FailureOr<StringRef> s = readString(e, "a buffer name in quotes");
    if (failed(s))
      return failure();
    out.push_back({*s, e->loc()});
  }
  return success();
}
