//===- FusionOps.cpp - Operations of the fusion dialect ---------------------===
//
// The generated op definitions, and the assembly syntax several ops share:
// buffer names taken from SSA names, the `[index]` of load, store and
// index_expr (custom<Index>) and a store's mode (custom<StoreMode>). Each
// op's own code lives with its kind: GraphOp.cpp, SchedulerNodeOps.cpp,
// ContainerOps.cpp, LoopBodyOps.cpp, OpaqueOp.cpp.
//
//===----------------------------------------------------------------------===//

#include "FusionOpsInternal.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fusion;

#include "scheduler-opt/Dialect/Fusion/IR/FusionInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Buffer names from SSA names
//===----------------------------------------------------------------------===//

bool mlir::fusion::detail::isUsableSSAName(StringRef name) {
  return !name.empty() && !llvm::all_of(name, llvm::isDigit);
}

ParseResult mlir::fusion::detail::inferNamesFromResults(OpAsmParser &parser,
                                                        OperationState &state,
                                                        StringRef attrName,
                                                        SMLoc loc) {
  if (state.attributes.get(attrName))
    return success();
  SmallVector<Attribute> names;
  for (unsigned i = 0, e = parser.getNumResults(); i < e; ++i) {
    auto [name, number] = parser.getResultName(i);
    if (number != 0 || !isUsableSSAName(name))
      return parser.emitError(loc)
             << "result #" << i
             << " needs a name: buffers are named by their SSA names (write "
                "'%buf0 = ...'), or give '"
             << attrName << "' explicitly";
    names.push_back(parser.getBuilder().getStringAttr(name));
  }
  state.addAttribute(attrName, parser.getBuilder().getArrayAttr(names));
  return success();
}

bool mlir::fusion::detail::namesMatchSSA(OpAsmPrinter &p, ValueRange values,
                                         ArrayAttr names) {
  if (values.size() != names.size())
    return false;
  for (auto [value, name] : llvm::zip(values, names)) {
    auto str = dyn_cast<StringAttr>(name);
    if (!str)
      return false;
    std::string printed;
    llvm::raw_string_ostream os(printed);
    p.printOperand(value, os);
    if (StringRef(printed) != ("%" + str.getValue()).str())
      return false;
  }
  return true;
}

StringRef mlir::fusion::detail::stripPercent(StringRef name) {
  name.consume_front("%");
  return name;
}

void mlir::fusion::detail::setBufferResultNames(Operation *op, ArrayAttr names,
                                                OpAsmSetValueNameFn setNameFn) {
  for (auto [result, name] : llvm::zip(op->getResults(), names))
    if (auto str = dyn_cast<StringAttr>(name))
      setNameFn(result, str.getValue());
}

unsigned mlir::fusion::getNumIndirectSymbols(AffineMap map,
                                             ValueRange indices) {
  return indices.size() - map.getNumDims();
}

/// Size symbols are parsed at this position plus their number, then moved
/// after the indirect symbols once their count is known.
static constexpr unsigned kParsedSizeSymbolBase = 1u << 16;

/// Parses `[index-expr]` over SSA values (`%p0` a dimension, `symbol(%i)` an
/// indirect symbol, both numbered in order of first use as upstream's
/// affine maps of SSA ids) and size symbols `sN`, into `map` and its index
/// operands.
static ParseResult
parseIndex(OpAsmParser &parser,
           SmallVectorImpl<OpAsmParser::UnresolvedOperand> &indices,
           AffineMapAttr &map) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<OpAsmParser::UnresolvedOperand> dims, syms;
  auto position = [](SmallVectorImpl<OpAsmParser::UnresolvedOperand> &list,
                     const OpAsmParser::UnresolvedOperand &operand) {
    for (auto [i, seen] : llvm::enumerate(list))
      if (seen.name == operand.name && seen.number == operand.number)
        return static_cast<unsigned>(i);
    list.push_back(operand);
    return static_cast<unsigned>(list.size() - 1);
  };
  auto parseOperand = [&](AffineExpr &expr) -> OptionalParseResult {
    OpAsmParser::UnresolvedOperand operand;
    if (succeeded(parser.parseOptionalKeyword("symbol"))) {
      if (parser.parseLParen() || parser.parseOperand(operand) ||
          parser.parseRParen())
        return failure();
      expr = getAffineSymbolExpr(position(syms, operand), ctx);
      return success();
    }
    OptionalParseResult parsed = parser.parseOptionalOperand(operand);
    if (!parsed.has_value() || failed(*parsed))
      return parsed;
    expr = getAffineDimExpr(position(dims, operand), ctx);
    return success();
  };
  // Several results parse, so that the verifier can say why they are wrong.
  SmallVector<AffineExpr> exprs;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            return parseIndexExpr(parser, exprs.emplace_back(),
                                  kParsedSizeSymbolBase, parseOperand);
          }))
    return failure();
  unsigned numSymbols = syms.size();
  DenseMap<AffineExpr, AffineExpr> moved;
  for (AffineExpr expr : exprs)
    expr.walk([&](AffineExpr e) {
      auto sym = dyn_cast<AffineSymbolExpr>(e);
      if (!sym || sym.getPosition() < kParsedSizeSymbolBase)
        return;
      unsigned to = syms.size() + sym.getPosition() - kParsedSizeSymbolBase;
      moved[e] = getAffineSymbolExpr(to, ctx);
      numSymbols = std::max(numSymbols, to + 1);
    });
  if (!moved.empty())
    for (AffineExpr &expr : exprs)
      expr = expr.replace(moved);
  map = AffineMapAttr::get(AffineMap::get(dims.size(), numSymbols, exprs, ctx));
  llvm::append_range(indices, dims);
  llvm::append_range(indices, syms);
  return success();
}

/// Prints the index as the map prints, with dimensions and indirect
/// symbols replaced by their operands and size symbols renumbered from s0.
static void printIndex(OpAsmPrinter &p, Operation *, OperandRange indices,
                       AffineMapAttr mapAttr) {
  AffineMap map = mapAttr.getValue();
  std::string text;
  llvm::raw_string_ostream os(text);
  map.getResult(0).print(os);
  unsigned numDims = map.getNumDims();
  unsigned numIndirect = getNumIndirectSymbols(map, indices);
  p << "[";
  StringRef rest = text;
  while (!rest.empty()) {
    size_t start = rest.find_first_of("ds");
    // Identifiers are `d<N>`, `s<N>` or operator keywords (floordiv, mod,
    // ceildiv); only the first two are followed by a digit.
    while (start != StringRef::npos &&
           (start + 1 >= rest.size() || !llvm::isDigit(rest[start + 1]) ||
            (start > 0 && llvm::isAlpha(rest[start - 1]))))
      start = rest.find_first_of("ds", start + 1);
    if (start == StringRef::npos) {
      p << rest;
      break;
    }
    p << rest.take_front(start);
    char kind = rest[start];
    rest = rest.drop_front(start + 1);
    size_t len = 0;
    while (len < rest.size() && llvm::isDigit(rest[len]))
      ++len;
    unsigned number = 0;
    rest.take_front(len).getAsInteger(10, number);
    rest = rest.drop_front(len);
    if (kind == 'd') {
      p.printOperand(indices[number]);
    } else if (number < numIndirect) {
      p << "symbol(";
      p.printOperand(indices[numDims + number]);
      p << ")";
    } else {
      p << "s" << (number - numIndirect);
    }
  }
  p << "]";
}

/// A store's mode as a bare keyword after the index (` atomic_add`), nothing
/// for a plain store.
static ParseResult parseStoreMode(OpAsmParser &parser, StoreModeAttr &mode) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword)))
    return success();
  std::optional<StoreMode> value = symbolizeStoreMode(keyword);
  if (!value)
    return parser.emitError(loc, "unknown store mode '") << keyword << "'";
  mode = StoreModeAttr::get(parser.getContext(), *value);
  return success();
}

static void printStoreMode(OpAsmPrinter &p, Operation *, StoreModeAttr mode) {
  if (mode)
    p << " " << stringifyStoreMode(mode.getValue());
}

#define GET_OP_CLASSES
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.cpp.inc"
