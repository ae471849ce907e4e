//===- FxGraph.cpp - Placeholders of fx_graph_readable.py -----------------===//
//
// Graph inputs that only extern kernels read get no layout line in the
// dump; the FX graph's annotations (`primals_1: "f32[4, 128]"`) give them.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"
#include "IndexExpr.h"
#include "TrimBlanks.h"

#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

/// `text` from its first character that is not a blank or a line break
/// (StringRef::ltrim(" \t\r\n") without its table of characters).
static StringRef dropLineBlanks(StringRef text) {
  const char *begin = text.begin();
  while (begin != text.end() &&
         (*begin == ' ' || *begin == '\t' || *begin == '\r' || *begin == '\n'))
    ++begin;
  return StringRef(begin, text.end() - begin);
}

/// The value of `text` if it is only decimal digits and fits in int64.
static std::optional<int64_t> readDecimal(StringRef text) {
  if (text.empty() || !llvm::all_of(text, llvm::isDigit))
    return std::nullopt;
  int64_t value;
  // No 18 digits exceed INT64_MAX.
  if (text.size() > 18)
    return text.getAsInteger(10, value) ? std::nullopt
                                        : std::optional<int64_t>(value);
  value = 0;
  for (char c : text)
    value = value * 10 + (c - '0');
  return value;
}

LogicalResult mlir::fusion::inductor::readFxPlaceholders(
    unsigned bufferId, const DumpLocator &locator, SizeSymbols &symbols,
    llvm::StringMap<FxPlaceholder> &placeholders) {
  MLIRContext *ctx = locator.getContext();
  StringRef text =
      locator.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  size_t def = text.find("def forward(self");
  if (def == StringRef::npos)
    return locator.emitError(text.data())
           << "expected 'def forward(self, ...)' in the FX graph";
  StringRef rest = text.drop_front(def + strlen("def forward(self"));
  while (true) {
    rest = dropLineBlanks(rest);
    if (rest.consume_front(")"))
      return success();
    if (!rest.consume_front(","))
      return locator.emitError(rest.data())
             << "expected ',' or ')' in the parameters of forward()";
    rest = dropLineBlanks(rest);
    if (rest.starts_with(")")) {
      rest = rest.drop_front();
      return success();
    }
    StringRef name = rest.take_front(identLength(rest));
    if (name.empty())
      return locator.emitError(rest.data()) << "expected a parameter name";
    rest = rest.drop_front(name.size()).ltrim(' ');
    if (!rest.consume_front(":"))
      continue; // An unannotated parameter: nothing to learn from it.
    rest = rest.ltrim(' ');
    if (!rest.consume_front("\""))
      return locator.emitError(rest.data())
             << "expected a quoted annotation for '" << name << "'";
    size_t close = rest.find('"');
    if (close == StringRef::npos)
      return locator.emitError(rest.data()) << "unterminated annotation";
    StringRef annotation = rest.take_front(close);
    rest = rest.drop_front(close + 1);

    // `f32[4, 128]`, optionally followed by `[128, 1]` strides and a device.
    size_t open = annotation.find('[');
    if (open == StringRef::npos)
      continue;
    FxPlaceholder ph;
    ph.loc = annotation.data();
    ph.dtypeCode = annotation.take_front(open);
    // Sizes are integers or expressions in the size symbols (`s27*s77`).
    auto readList = [&](StringRef &s, SmallVectorImpl<AffineExpr> &out) {
      if (!s.consume_front("["))
        return false;
      size_t end = s.find(']');
      if (end == StringRef::npos)
        return false;
      // The items between commas; empty ones are skipped.
      for (StringRef items = s.take_front(end); !items.empty();) {
        size_t comma = std::min(items.find(','), items.size());
        StringRef item = trimBlanks(items.take_front(comma));
        bool empty = comma == 0;
        items = items.drop_front(std::min(comma + 1, items.size()));
        if (empty)
          continue;
        // An integer (most sizes) is read as parseIndexExpr would read it.
        if (std::optional<int64_t> value = readDecimal(item)) {
          out.push_back(getCachedConstantExpr(*value, ctx));
          continue;
        }
        bool bad = false;
        FailureOr<AffineExpr> size = parseIndexExpr(
            item, ctx,
            [&](StringRef var) -> AffineExpr {
              if (SizeSymbols::isSizeSymbolName(var))
                return symbols.get(var, ctx);
              return AffineExpr();
            },
            [&](const char *at) -> InFlightDiagnostic {
              // Not a size: the annotation is not usable as a layout.
              bad = true;
              InFlightDiagnostic diag = locator.emitError(at);
              diag.abandon();
              return diag;
            },
            [](unsigned) { return true; });
        if (failed(size) || bad)
          return false;
        out.push_back(*size);
      }
      s = s.drop_front(end + 1);
      return true;
    };
    StringRef dims = annotation.drop_front(open);
    if (!readList(dims, ph.sizes))
      continue; // Not a tensor shape: not usable as a layout.
    if (dims.starts_with("[") && readList(dims, ph.strides))
      ph.hasStrides = ph.strides.size() == ph.sizes.size();
    placeholders.try_emplace(name, std::move(ph));
  }
}

StringRef mlir::fusion::inductor::fxDtypeName(StringRef code) {
#define FUSION_DTYPE(FX, TORCH, NAME, TYPE)                                   \
  if (code == #FX)                                                             \
    return "torch." #TORCH;
#include "scheduler-opt/Support/Dtypes.def"
  return code;
}
