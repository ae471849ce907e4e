//===- FusionOps.cpp - Operations of the fusion dialect -------------------===//

#include "fusion/Dialect/Fusion/IR/FusionOps.h"
#include "fusion/Dialect/Fusion/IR/SizeChecks.h"
#include "fusion/Dialect/Fusion/IR/SizeExpr.h"
#include "fusion/Support/TopologicalOrder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;

#include "fusion/Dialect/Fusion/IR/FusionInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Names
//
// Buffers are named by their SSA names, as in CIRCT: the parser takes
// `buffer_names` from the result names when the attribute is not written,
// and the printer elides it when the SSA names it prints say the same.
//===----------------------------------------------------------------------===//

/// Returns true when `name` can serve as a buffer name inferred from SSA.
static bool isUsableSSAName(StringRef name) {
  return !name.empty() && !llvm::all_of(name, llvm::isDigit);
}

/// Fills `attrName` from the SSA names of the results being parsed unless the
/// attribute dictionary already provides it.
static ParseResult inferNamesFromResults(OpAsmParser &parser,
                                         OperationState &state,
                                         StringRef attrName, SMLoc loc) {
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

/// Returns true when every value prints as `%<name>` for its name in `names`.
static bool namesMatchSSA(OpAsmPrinter &p, ValueRange values,
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

/// Strips the leading `%` of an SSA name as the parser reports it.
static StringRef stripPercent(StringRef name) {
  name.consume_front("%");
  return name;
}

//===----------------------------------------------------------------------===//
// Index maps shared by load, store and index_expr
//===----------------------------------------------------------------------===//

/// Checks an index map and its operands: one flat result, one operand per
/// dimension and per leading (indirect) symbol, dimensions bound to loop
/// variables of the enclosing node and indirect symbols to indices computed
/// in its body. The symbols after the indirect ones are size symbols, which
/// the enclosing graph checks.
static LogicalResult verifyIndexing(Operation *op, AffineMap map,
                                    OperandRange indices) {
  if (map.getNumResults() != 1)
    return op->emitOpError("expects a single flat index, got ")
           << map.getNumResults() << " index results";
  if (hasNonPositiveDivisor(map.getResult(0)))
    return op->emitOpError("index divides by a non-positive constant");
  if (indices.size() < map.getNumDims() ||
      indices.size() > map.getNumDims() + map.getNumSymbols())
    return op->emitOpError("index map takes ")
           << map.getNumDims() << " loop variables and up to "
           << map.getNumSymbols() << " indirect indices but "
           << indices.size() << " operands were given";
  auto node = op->getParentOfType<NodeOp>();
  if (!node)
    return op->emitOpError("must be nested in a fusion.node");
  Block *body = &node.getBodyBlock();
  unsigned numLoops = node.getNumLoops();
  for (auto [i, index] : llvm::enumerate(indices)) {
    auto arg = dyn_cast<BlockArgument>(index);
    bool isLoopVar = arg && arg.getOwner() == body &&
                     arg.getArgNumber() < numLoops;
    if (i < map.getNumDims() && !isLoopVar)
      return op->emitOpError("index dimension #")
             << i << " must be a loop variable of the enclosing fusion.node";
    if (i >= map.getNumDims() && isLoopVar)
      return op->emitOpError("indirect index #")
             << (i - map.getNumDims())
             << " is a loop variable; use it as a dimension instead";
  }
  SmallVector<int64_t> loopSizes = node.getLoopSizes(), dimSizes;
  for (Value index : indices.take_front(map.getNumDims()))
    dimSizes.push_back(
        loopSizes[cast<BlockArgument>(index).getArgNumber()]);
  return verifyIndexRange(op, map, dimSizes);
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
static ParseResult parseIndex(OpAsmParser &parser, OperationState &state,
                              SmallVectorImpl<OpAsmParser::UnresolvedOperand>
                                  &indices) {
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
  state.addAttribute("map", AffineMapAttr::get(AffineMap::get(
                                dims.size(), numSymbols, exprs, ctx)));
  llvm::append_range(indices, dims);
  llvm::append_range(indices, syms);
  return success();
}

/// Prints the index as the map prints, with dimensions and indirect
/// symbols replaced by their operands and size symbols renumbered from s0.
static void printIndex(OpAsmPrinter &p, AffineMap map, ValueRange indices) {
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
    unsigned number;
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

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

void GraphOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                    ArrayRef<Type> inputTypes, ArrayRef<StringRef> inputNames,
                    ArrayRef<Type> resultTypes, StringRef device) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(
      getFunctionTypeAttrName(state.name),
      TypeAttr::get(builder.getFunctionType(inputTypes, resultTypes)));
  state.addAttribute(getDeviceAttrName(state.name),
                     builder.getStringAttr(device));
  state.addAttribute(getInputNamesAttrName(state.name),
                     builder.getStrArrayAttr(inputNames));
  Region *body = state.addRegion();
  Block &block = body->emplaceBlock();
  for (Type type : inputTypes)
    block.addArgument(type, state.location);
}

RegionKind GraphOp::getRegionKind(unsigned index) { return RegionKind::Graph; }

void GraphOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  ArrayAttr names = getInputNames();
  for (auto [arg, name] : llvm::zip(region.getArguments(), names))
    if (auto str = dyn_cast<StringAttr>(name))
      setNameFn(arg, str.getValue());
}

OutputOp GraphOp::getOutputOp() {
  if (getBody().empty() || getBodyBlock().empty())
    return nullptr;
  return dyn_cast<OutputOp>(getBodyBlock().back());
}

/// Parses `symbols(s0 = hint, s1, ...)`: symbols in order, hints optional.
static ParseResult parseSizeSymbols(OpAsmParser &parser,
                                    OperationState &state) {
  if (failed(parser.parseOptionalKeyword("symbols")))
    return success();
  SmallVector<int64_t> hints;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            SMLoc loc = parser.getCurrentLocation();
            StringRef name;
            if (parser.parseKeyword(&name))
              return failure();
            std::string expected = "s" + std::to_string(hints.size());
            if (name != expected)
              return parser.emitError(loc, "size symbols are declared in "
                                           "order; expected '")
                     << expected << "', got '" << name << "'";
            int64_t &hint = hints.emplace_back(kSymbolicSize);
            if (succeeded(parser.parseOptionalEqual())) {
              SMLoc hintLoc = parser.getCurrentLocation();
              if (parser.parseInteger(hint))
                return failure();
              if (hint < 0)
                return parser.emitError(hintLoc, "size hint must be "
                                                 "non-negative");
            }
            return success();
          }))
    return failure();
  state.addAttribute(GraphOp::getSymbolHintsAttrName(state.name),
                     parser.getBuilder().getDenseI64ArrayAttr(hints));
  return success();
}

/// fusion.graph @name [symbols(s0 = hint, ...)] (%a: T, ...) -> (T, ...)
///     attributes {...} { ... }
ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &state) {
  Builder &builder = parser.getBuilder();
  StringAttr symName;
  if (parser.parseSymbolName(symName, getSymNameAttrName(state.name),
                             state.attributes) ||
      parseSizeSymbols(parser, state))
    return failure();

  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();
  SmallVector<Type> resultTypes;
  if (parser.parseOptionalArrowTypeList(resultTypes))
    return failure();
  SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDictWithKeyword(state.attributes))
    return failure();

  SmallVector<Type> inputTypes;
  SmallVector<Attribute> inputNames;
  for (OpAsmParser::Argument &arg : args) {
    inputTypes.push_back(arg.type);
    StringRef name = stripPercent(arg.ssaName.name);
    if (!isUsableSSAName(name))
      return parser.emitError(arg.ssaName.location)
             << "graph inputs are named by their SSA names; write '%arg0' "
                "rather than a number";
    inputNames.push_back(builder.getStringAttr(name));
  }
  StringAttr namesAttrName = getInputNamesAttrName(state.name);
  if (!state.attributes.get(namesAttrName))
    state.addAttribute(namesAttrName, builder.getArrayAttr(inputNames));
  state.addAttribute(
      getFunctionTypeAttrName(state.name),
      TypeAttr::get(builder.getFunctionType(inputTypes, resultTypes)));
  if (!state.attributes.get(getDeviceAttrName(state.name)))
    return parser.emitError(attrLoc)
           << "graph needs a 'device' attribute, e.g. attributes {device = "
              "\"cuda:0\"}";

  Region *body = state.addRegion();
  return parser.parseRegion(*body, args, /*enableNameShadowing=*/false);
}

void GraphOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printSymbolName(getSymName());
  if (auto hints = getSymbolHints()) {
    p << " symbols(";
    llvm::interleaveComma(llvm::enumerate(*hints), p, [&](auto it) {
      p << "s" << it.index();
      if (it.value() != kSymbolicSize)
        p << " = " << it.value();
    });
    p << ") ";
  }
  p << "(";
  llvm::interleaveComma(getBodyBlock().getArguments(), p,
                        [&](BlockArgument arg) { p.printRegionArgument(arg); });
  p << ")";
  ArrayRef<Type> results = getFunctionType().getResults();
  if (!results.empty()) {
    p << " -> (";
    llvm::interleaveComma(results, p);
    p << ")";
  }
  SmallVector<StringRef> elided = {getSymNameAttrName(),
                                   getFunctionTypeAttrName(),
                                   getSymbolHintsAttrName()};
  if (namesMatchSSA(p, getBodyBlock().getArguments(), getInputNames()))
    elided.push_back(getInputNamesAttrName());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), elided);
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

LogicalResult GraphOp::verify() {
  FunctionType type = getFunctionType();
  if (getInputNames().size() != type.getNumInputs())
    return emitOpError("has ")
           << type.getNumInputs() << " inputs but " << getInputNames().size()
           << " input names";
  for (Type input : type.getInputs())
    if (!isa<BufferType>(input))
      return emitOpError("inputs must be !fusion.buffer values, got ")
             << input;
  for (Type result : type.getResults())
    if (!isa<BufferType>(result))
      return emitOpError("results must be !fusion.buffer values, got ")
             << result;
  if (getDevice().empty())
    return emitOpError("needs a non-empty device");
  if (auto names = getSymbolNames())
    if (names->size() != getNumSizeSymbols())
      return emitOpError("declares ")
             << getNumSizeSymbols() << " size symbols but "
             << names->size() << " symbol names";
  for (int64_t hint : getSizeHints())
    if (hint != kSymbolicSize && hint < 0)
      return emitOpError("size hint must be non-negative, got ") << hint;
  return success();
}

std::string GraphOp::getSizeSymbolDisplayName(unsigned i) {
  std::string name = "s" + std::to_string(i);
  if (auto names = getSymbolNames())
    if (i < names->size())
      name += " (" + cast<StringAttr>((*names)[i]).getValue().str() + ")";
  return name;
}

/// Checks that `used` size symbols are declared by `graph`.
static LogicalResult checkSymbolsDeclared(Operation *op, GraphOp graph,
                                          unsigned used, StringRef where) {
  unsigned declared = graph.getNumSizeSymbols();
  if (used <= declared)
    return success();
  return op->emitOpError("uses size symbol s")
         << (used - 1) << " in " << where << " but the graph declares "
         << (declared == 0 ? std::string("no size symbols")
                           : std::to_string(declared) + " (s0..s" +
                                 std::to_string(declared - 1) + ")");
}

/// Size symbols a buffer type uses (one past the highest).
static unsigned sizeSymbolsOf(Type type) {
  auto buffer = dyn_cast<BufferType>(type);
  return buffer ? buffer.getNumSizeSymbols() : 0;
}

/// True if `expr` only grows with each dimension and symbol (no `mod`, no
/// negative constant), so that its maximum over a box is at the box's
/// upper corner.
static bool isMonotone(AffineExpr expr) {
  bool monotone = true;
  expr.walk([&](AffineExpr e) {
    if (e.getKind() == AffineExprKind::Mod)
      monotone = false;
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      monotone &= c.getValue() >= 0;
  });
  return monotone;
}

/// A hint must not contradict a static size: an access of a node with
/// symbolic loop sizes outside `fusion.masked` must stay inside a static
/// buffer when the symbols take their hints.
static LogicalResult checkAccessAtHints(Operation *op, GraphOp graph,
                                        NodeOp node) {
  auto access = getAccessMap(op);
  if (!access || isa<IndexExprOp>(op) || node.hasStaticLoopSizes() ||
      op->getParentOfType<MaskedOp>())
    return success();
  auto [map, indices] = *access;
  Value buffer = isa<LoadOp>(op) ? cast<LoadOp>(op).getBuffer()
                                 : cast<StoreOp>(op).getBuffer();
  auto type = cast<BufferType>(buffer.getType());
  if (!type.hasStaticLayout() || getNumIndirectSymbols(map, indices) != 0 ||
      !isMonotone(map.getResult(0)))
    return success();
  ArrayRef<int64_t> hints = graph.getSizeHints();
  SmallVector<int64_t> last;
  for (AffineExpr size : node.getLoopSizeExprs()) {
    std::optional<int64_t> v = evaluateSizeExpr(size, hints);
    if (!v || *v < 1)
      return success();
    last.push_back(*v - 1);
  }
  SmallVector<int64_t> dims;
  for (Value index : indices)
    dims.push_back(last[cast<BlockArgument>(index).getArgNumber()]);
  std::optional<int64_t> maxIndex =
      evaluateAffineExpr(map.getResult(0), dims, hints);
  std::optional<int64_t> storage = type.getStorageSize();
  if (!maxIndex || !storage || *maxIndex < *storage)
    return success();
  InFlightDiagnostic diag = op->emitOpError("reaches element ")
                            << *maxIndex << " of a buffer of " << *storage
                            << " elements at the size hints (";
  printSizeHints(diag, hints);
  return diag << "): a hint contradicts a static size";
}

/// With the size symbols at their hints, what the verifier checks for
/// static sizes (SizeChecks.h) holds too: the bytes of every buffer, the
/// iterations of every node and the bytes of all buffers together fit in
/// int64. The scheduler decides with these values (SizeVars::sizeHint,
/// peak memory), so a hint that makes one of them wrap is an error here,
/// not a wrapped number there. Sizes with a symbol without a hint are
/// known only at run time and skipped.
static LogicalResult verifySizesAtHints(GraphOp graph) {
  ArrayRef<int64_t> hints = graph.getSizeHints();
  if (hints.empty())
    return success();
  auto error = [&](Operation *op, StringRef what) -> InFlightDiagnostic {
    InFlightDiagnostic diag = op->emitOpError()
                              << what << " at the size hints (";
    printSizeHints(diag, hints);
    diag << ")";
    return diag;
  };
  int64_t total = 0;
  bool totalFits = true;
  auto addBuffer = [&](Operation *op, Type t) -> LogicalResult {
    auto type = dyn_cast<BufferType>(t);
    if (!type || findUnboundSymbol(type.getStorageSizeExpr(), hints))
      return success();
    for (AffineExpr size : type.getSizeExprs())
      if (findUnboundSymbol(size, hints))
        return success();
    std::optional<int64_t> bytes = type.getSizeInBytes(hints);
    if (!bytes)
      return error(op, "has a buffer of more bytes than int64 can count")
             << ": " << type;
    totalFits = totalFits && !llvm::AddOverflow(total, *bytes, total);
    return success();
  };
  for (Type input : graph.getFunctionType().getInputs())
    if (failed(addBuffer(graph, input)))
      return failure();
  WalkResult result = graph.getBody().walk([&](Operation *op) -> WalkResult {
    for (Type type : op->getResultTypes())
      if (failed(addBuffer(op, type)))
        return WalkResult::interrupt();
    auto node = dyn_cast<NodeOp>(op);
    if (!node || node.hasStaticLoopSizes())
      return WalkResult::advance();
    int64_t iterations = 1;
    for (AffineExpr size : node.getLoopSizeExprs()) {
      if (findUnboundSymbol(size, hints))
        return WalkResult::advance();
      std::optional<int64_t> v = evaluateSizeExpr(size, hints);
      if (!v || llvm::MulOverflow(iterations, *v, iterations))
        return error(op, "makes more iterations than int64 can count"),
               WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (!totalFits)
    return error(graph,
                 "has buffers of more bytes together than int64 can count");
  return success();
}

/// Every size symbol used in types, loop sizes and index maps is declared.
static LogicalResult verifySizeSymbols(GraphOp graph) {
  for (Type type : graph.getFunctionType().getInputs())
    if (failed(checkSymbolsDeclared(graph, graph, sizeSymbolsOf(type),
                                    "an input type")))
      return failure();
  for (Type type : graph.getFunctionType().getResults())
    if (failed(checkSymbolsDeclared(graph, graph, sizeSymbolsOf(type),
                                    "a result type")))
      return failure();
  WalkResult result = graph.getBody().walk([&](Operation *op) -> WalkResult {
    for (Type type : op->getResultTypes())
      if (failed(checkSymbolsDeclared(op, graph, sizeSymbolsOf(type),
                                      "a result type")))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(checkSymbolsDeclared(op, graph,
                                          sizeSymbolsOf(arg.getType()),
                                          "a block argument type")))
            return WalkResult::interrupt();
    if (auto node = dyn_cast<NodeOp>(op)) {
      unsigned used = 0;
      for (AffineExpr size : node.getLoopSizeExprs())
        used = std::max(used, getNumSymbolsUsed(size));
      if (failed(checkSymbolsDeclared(op, graph, used, "its loop sizes")))
        return WalkResult::interrupt();
    }
    if (auto access = getAccessMap(op)) {
      auto [map, indices] = *access;
      unsigned indirect = getNumIndirectSymbols(map, indices);
      if (failed(checkSymbolsDeclared(op, graph,
                                      map.getNumSymbols() - indirect,
                                      "its index")))
        return WalkResult::interrupt();
      if (failed(checkAccessAtHints(op, graph, op->getParentOfType<NodeOp>())))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Reports a cycle among the def-use edges of the graph's top-level
/// scheduler nodes, naming the nodes on it (fusion::findCycle).
static LogicalResult verifyAcyclic(GraphOp graph) {
  Block &block = graph.getBodyBlock();
  DenseMap<Operation *, unsigned> index;
  SmallVector<Operation *> nodes;
  for (Operation &op : block.without_terminator()) {
    index[&op] = nodes.size();
    nodes.push_back(&op);
  }
  // Edges: a node to every top-level op using one of its results.
  SmallVector<SmallVector<unsigned, 4>> preds(nodes.size()),
      succs(nodes.size());
  for (auto [n, op] : llvm::enumerate(nodes))
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (Operation *top = block.findAncestorOpInBlock(*user))
          if (auto it = index.find(top); it != index.end()) {
            succs[n].push_back(it->second);
            preds[it->second].push_back(n);
          }
  SmallVector<unsigned> cycle = findCycle(
      nodes.size(), [&](unsigned n) { return ArrayRef<unsigned>(preds[n]); },
      [&](unsigned n) { return ArrayRef<unsigned>(succs[n]); });
  if (cycle.empty())
    return success();
  SmallVector<std::string> names;
  for (unsigned n : cycle)
    names.push_back(cast<SchedulerNodeOpInterface>(nodes[n]).getNodeName());
  names.push_back(names.front());
  return nodes[cycle.front()]->emitOpError("is on a dependence cycle: ")
         << llvm::join(names, " -> ");
}

/// Calls `fn` on the leaf scheduler nodes among `members` and inside their
/// containers, in order, until it interrupts. Loop bodies, most of a
/// graph's ops, are not entered: scheduler nodes only have a graph or a
/// container as parent (HasParent, verified on each node).
static WalkResult
walkLeafNodes(Block &members,
              function_ref<WalkResult(SchedulerNodeOpInterface)> fn) {
  for (Operation &op : members) {
    auto node = dyn_cast<SchedulerNodeOpInterface>(op);
    if (!node)
      continue;
    if (!isa<FusedOp, ForeachOp, GroupOp>(op)) {
      if (fn(node).wasInterrupted())
        return WalkResult::interrupt();
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &block : region)
        if (walkLeafNodes(block, fn).wasInterrupted())
          return WalkResult::interrupt();
  }
  return WalkResult::advance();
}

LogicalResult GraphOp::verifyRegions() {
  Block &block = getBodyBlock();
  FunctionType type = getFunctionType();
  if (block.getNumArguments() != type.getNumInputs())
    return emitOpError("body has ")
           << block.getNumArguments() << " arguments but the graph has "
           << type.getNumInputs() << " inputs";
  for (auto [arg, input] : llvm::zip(block.getArguments(), type.getInputs()))
    if (arg.getType() != input)
      return emitOpError("body argument type ")
             << arg.getType() << " does not match input type " << input;
  OutputOp output = getOutputOp();
  if (!output)
    return emitOpError("body must end with fusion.output");
  if (output.getBuffers().getTypes() != type.getResults())
    return output.emitOpError("types do not match the graph result types");
  if (failed(verifyTotalBytes(*this)))
    return failure();

  for (Operation &op : block.without_terminator())
    if (!isa<SchedulerNodeOpInterface>(op))
      return op.emitOpError("cannot appear at graph level; only scheduler "
                            "nodes (fusion.node, fusion.extern, fusion.nop, "
                            "fusion.fused, fusion.foreach, fusion.group) can");

  // Unique node and buffer names, each version mutated at most once.
  llvm::StringMap<Operation *> nodeNames;
  llvm::StringMap<Location> bufferNames;
  for (auto [i, arg] : llvm::enumerate(block.getArguments()))
    if (!bufferNames.try_emplace(getInputName(i), arg.getLoc()).second)
      return emitOpError("input name '")
             << getInputName(i).getValue() << "' is used twice";
  DenseMap<Value, Operation *> mutatedBy;
  auto checkNames = [&](SchedulerNodeOpInterface node) -> WalkResult {
    std::string name = node.getNodeName();
    auto [it, inserted] = nodeNames.try_emplace(name, node);
    if (!inserted) {
      InFlightDiagnostic diag = node->emitOpError("node name '")
                                << name << "' is already used";
      diag.attachNote(it->second->getLoc()) << "first used here";
      return WalkResult::interrupt();
    }
    for (unsigned r = 0, e = node->getNumResults(); r < e; ++r) {
      StringAttr buffer = node.getBufferName(r);
      auto [bit, binserted] =
          bufferNames.try_emplace(buffer.getValue(), node->getLoc());
      if (!binserted) {
        InFlightDiagnostic diag = node->emitOpError("buffer name '")
                                  << buffer.getValue() << "' is already used";
        diag.attachNote(bit->second) << "first used here";
        return WalkResult::interrupt();
      }
      if (Value old = node.getMutatedBuffer(r)) {
        auto [mit, minserted] = mutatedBy.try_emplace(old, node);
        if (!minserted) {
          InFlightDiagnostic diag =
              node->emitOpError("overwrites a buffer version that '")
              << cast<SchedulerNodeOpInterface>(mit->second).getNodeName()
              << "' already overwrote; mutate that node's result instead";
          diag.attachNote(mit->second->getLoc()) << "first mutation here";
          return WalkResult::interrupt();
        }
      }
    }
    return WalkResult::advance();
  };
  if (walkLeafNodes(block, checkNames).wasInterrupted())
    return failure();

  for (Value buffer : output.getBuffers())
    if (Operation *mutator = mutatedBy.lookup(buffer))
      return output.emitOpError("returns a buffer version that '")
             << cast<SchedulerNodeOpInterface>(mutator).getNodeName()
             << "' overwrites in place; return that node's result instead";

  if (failed(verifySizeSymbols(*this)) || failed(verifySizesAtHints(*this)))
    return failure();
  return verifyAcyclic(*this);
}

//===----------------------------------------------------------------------===//
// OutputOp
//===----------------------------------------------------------------------===//

LogicalResult OutputOp::verify() {
  auto graph = cast<GraphOp>((*this)->getParentOp());
  if (getBuffers().getTypes() != graph.getFunctionType().getResults())
    return emitOpError("returns ")
           << getBuffers().size()
           << " buffers whose types do not match the graph results";
  return success();
}

//===----------------------------------------------------------------------===//
// Shared pieces of leaf scheduler nodes
//===----------------------------------------------------------------------===//

/// Checks `buffer_names` and `tied_operands` of a leaf node.
static LogicalResult verifyLeafResults(Operation *op, ArrayAttr bufferNames,
                                       ArrayRef<int64_t> tied,
                                       OperandRange mutable_operands,
                                       bool everyOperandTied) {
  if (bufferNames.size() != op->getNumResults())
    return op->emitOpError("has ")
           << op->getNumResults() << " results but " << bufferNames.size()
           << " buffer names";
  for (Attribute name : bufferNames)
    if (cast<StringAttr>(name).getValue().empty())
      return op->emitOpError("buffer names must not be empty");
  if (tied.size() != op->getNumResults())
    return op->emitOpError("has ")
           << op->getNumResults() << " results but " << tied.size()
           << " entries in tied_operands";
  SmallVector<bool> used(mutable_operands.size(), false);
  for (auto [result, operand] : llvm::zip(op->getResults(), tied)) {
    if (operand == -1)
      continue;
    if (operand < 0 || operand >= static_cast<int64_t>(used.size()))
      return op->emitOpError("result #")
             << result.getResultNumber() << " is tied to operand #" << operand
             << ", which does not exist";
    if (used[operand])
      return op->emitOpError("operand #")
             << operand << " is overwritten by more than one result";
    used[operand] = true;
    if (mutable_operands[operand].getType() != result.getType())
      return op->emitOpError("result #")
             << result.getResultNumber() << " of type " << result.getType()
             << " overwrites a buffer of a different type "
             << mutable_operands[operand].getType();
  }
  if (everyOperandTied)
    for (auto [i, isUsed] : llvm::enumerate(used))
      if (!isUsed)
        return op->emitOpError("operand #")
               << i << " is not overwritten by any result";
  return success();
}

static void setResultNames(Operation *op, ArrayAttr names,
                           OpAsmSetValueNameFn setNameFn) {
  for (auto [result, name] : llvm::zip(op->getResults(), names))
    if (auto str = dyn_cast<StringAttr>(name))
      setNameFn(result, str.getValue());
}

static Value tiedOperand(ArrayRef<int64_t> tied, OperandRange operands,
                         unsigned resultNumber) {
  if (resultNumber >= tied.size() || tied[resultNumber] < 0 ||
      tied[resultNumber] >= static_cast<int64_t>(operands.size()))
    return nullptr;
  return operands[tied[resultNumber]];
}

static StringAttr bufferNameAt(ArrayAttr names, unsigned resultNumber) {
  if (resultNumber >= names.size())
    return nullptr;
  return dyn_cast<StringAttr>(names[resultNumber]);
}

//===----------------------------------------------------------------------===//
// NodeOp
//===----------------------------------------------------------------------===//

void NodeOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   ArrayRef<int64_t> ranges, ArrayRef<int64_t> reductionRanges,
                   ArrayRef<Type> resultTypes, ArrayRef<StringRef> bufferNames,
                   ValueRange mutated, ArrayRef<int64_t> tiedOperands) {
  state.addAttribute(getNameAttrName(state.name), builder.getStringAttr(name));
  state.addAttribute(getRangesAttrName(state.name),
                     builder.getDenseI64ArrayAttr(ranges));
  state.addAttribute(getReductionRangesAttrName(state.name),
                     builder.getDenseI64ArrayAttr(reductionRanges));
  state.addAttribute(getBufferNamesAttrName(state.name),
                     builder.getStrArrayAttr(bufferNames));
  SmallVector<int64_t> tied(tiedOperands);
  if (tied.empty())
    tied.assign(resultTypes.size(), -1);
  state.addAttribute(getTiedOperandsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(tied));
  state.addOperands(mutated);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block &block = body->emplaceBlock();
  for (size_t i = 0, e = ranges.size() + reductionRanges.size(); i < e; ++i)
    block.addArgument(builder.getIndexType(), state.location);
  for (Type type : resultTypes)
    block.addArgument(type, state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&block);
  YieldOp::create(builder, state.location);
}

SmallVector<int64_t> NodeOp::getLoopSizes() {
  SmallVector<int64_t> sizes(getRanges());
  llvm::append_range(sizes, getReductionRanges());
  return sizes;
}

SmallVector<AffineExpr> NodeOp::getLoopSizeExprs() {
  if (AffineMapAttr symbolic = getSymbolicLoopSizesAttr())
    return SmallVector<AffineExpr>(symbolic.getValue().getResults());
  return llvm::map_to_vector(getLoopSizes(), [&](int64_t size) {
    return getAffineConstantExpr(size, getContext());
  });
}

void NodeOp::setLoopSizeExprs(ArrayRef<AffineExpr> sizes,
                              unsigned numPointwise) {
  SmallVector<int64_t> values =
      llvm::map_to_vector(sizes, [](AffineExpr e) { return getStaticSize(e); });
  ArrayRef<int64_t> all(values);
  setRanges(all.take_front(numPointwise));
  setReductionRanges(all.drop_front(numPointwise));
  if (llvm::is_contained(values, kSymbolicSize)) {
    unsigned numSymbols = 0;
    for (AffineExpr e : sizes)
      numSymbols = std::max(numSymbols, getNumSymbolsUsed(e));
    setSymbolicLoopSizesAttr(
        AffineMapAttr::get(AffineMap::get(0, numSymbols, sizes, getContext())));
  } else {
    removeSymbolicLoopSizesAttr();
  }
}

/// Product of `sizes`: kSymbolicSize if one is symbolic.
static int64_t staticProduct(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t size : sizes) {
    if (size == kSymbolicSize)
      return kSymbolicSize;
    n *= size;
  }
  return n;
}

/// Product of `sizes` as an expression.
static AffineExpr productExpr(MLIRContext *ctx, ArrayRef<AffineExpr> sizes) {
  AffineExpr n = getAffineConstantExpr(1, ctx);
  for (AffineExpr size : sizes)
    n = n * size;
  return n;
}

int64_t NodeOp::getNumel() { return staticProduct(getRanges()); }
int64_t NodeOp::getReductionNumel() {
  return staticProduct(getReductionRanges());
}
AffineExpr NodeOp::getNumelExpr() {
  return productExpr(getContext(), getRangeExprs());
}
AffineExpr NodeOp::getReductionNumelExpr() {
  return productExpr(getContext(), getReductionRangeExprs());
}

void NodeOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setResultNames(*this, getBufferNames(), setNameFn);
}

void NodeOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  unsigned numLoops = getNumLoops();
  for (BlockArgument arg : region.getArguments()) {
    unsigned n = arg.getArgNumber();
    if (n < numLoops)
      setNameFn(arg, ("p" + Twine(n)).str());
    else if (getNumResults() == 1)
      setNameFn(arg, "out");
    else
      setNameFn(arg, ("out" + Twine(n - numLoops)).str());
  }
}

void NodeOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Reads of the buffers its body loads; fresh results are allocations (an
  // unused node is dead); in-place results write the buffer they overwrite.
  effects.emplace_back(MemoryEffects::Read::get());
  for (OpResult result : getOperation()->getResults()) {
    if (Value old = tiedOperand(getTiedOperands(), getMutated(),
                                result.getResultNumber())) {
      for (OpOperand &operand : getMutatedMutable())
        if (operand.get() == old)
          effects.emplace_back(MemoryEffects::Write::get(), &operand);
    } else {
      effects.emplace_back(MemoryEffects::Allocate::get(), result);
    }
  }
}

std::string NodeOp::getNodeName() { return getName().str(); }
StringAttr NodeOp::getBufferName(unsigned resultNumber) {
  return bufferNameAt(getBufferNames(), resultNumber);
}
Value NodeOp::getMutatedBuffer(unsigned resultNumber) {
  return tiedOperand(getTiedOperands(), getMutated(), resultNumber);
}
bool NodeOp::hasSideEffects() { return false; }
void NodeOp::getLeafNodes(SmallVectorImpl<SchedulerNodeOpInterface> &leaves) {
  leaves.push_back(*this);
}
StringRef NodeOp::getInductorClassName() { return "SchedulerNode"; }


/// fusion.node "op0" (%p0, %p1) in [64] reduce [4096]
///     writes(%out : T [mutates %x], ...) [attributes {...}] { body }
ParseResult NodeOp::parse(OpAsmParser &parser, OperationState &state) {
  Builder &builder = parser.getBuilder();
  SMLoc loc = parser.getCurrentLocation();
  StringAttr name;
  if (parser.parseAttribute(name, getNameAttrName(state.name),
                            state.attributes))
    return failure();

  SmallVector<OpAsmParser::Argument> regionArgs;
  if (parser.parseArgumentList(regionArgs, OpAsmParser::Delimiter::Paren))
    return failure();
  for (OpAsmParser::Argument &arg : regionArgs)
    arg.type = builder.getIndexType();

  SmallVector<AffineExpr> ranges, reductionRanges;
  if (parser.parseKeyword("in") || parseSizeList(parser, ranges))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("reduce")) &&
      parseSizeList(parser, reductionRanges))
    return failure();
  if (regionArgs.size() != ranges.size() + reductionRanges.size())
    return parser.emitError(loc)
           << "node has " << regionArgs.size() << " loop variables but "
           << ranges.size() + reductionRanges.size() << " loop sizes";

  SmallVector<Type> resultTypes;
  SmallVector<OpAsmParser::UnresolvedOperand> mutated;
  SmallVector<Type> mutatedTypes;
  SmallVector<int64_t> tied;
  if (parser.parseKeyword("writes") ||
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument &handle = regionArgs.emplace_back();
            if (parser.parseArgument(handle, /*allowType=*/true))
              return failure();
            resultTypes.push_back(handle.type);
            if (succeeded(parser.parseOptionalKeyword("mutates"))) {
              tied.push_back(mutated.size());
              mutatedTypes.push_back(handle.type);
              return parser.parseOperand(mutated.emplace_back());
            }
            tied.push_back(-1);
            return success();
          }))
    return failure();
  if (parser.parseOptionalAttrDictWithKeyword(state.attributes))
    return failure();

  SmallVector<AffineExpr> loopSizes(ranges);
  llvm::append_range(loopSizes, reductionRanges);
  auto staticSizes = [](ArrayRef<AffineExpr> exprs) {
    return llvm::map_to_vector(exprs,
                               [](AffineExpr e) { return getStaticSize(e); });
  };
  state.addAttribute(getRangesAttrName(state.name),
                     builder.getDenseI64ArrayAttr(staticSizes(ranges)));
  state.addAttribute(getReductionRangesAttrName(state.name),
                     builder.getDenseI64ArrayAttr(staticSizes(reductionRanges)));
  if (llvm::is_contained(staticSizes(loopSizes), kSymbolicSize)) {
    unsigned numSymbols = 0;
    for (AffineExpr e : loopSizes)
      numSymbols = std::max(numSymbols, getNumSymbolsUsed(e));
    state.addAttribute(getSymbolicLoopSizesAttrName(state.name),
                       AffineMapAttr::get(AffineMap::get(
                           0, numSymbols, loopSizes, parser.getContext())));
  }
  state.addAttribute(getTiedOperandsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(tied));
  if (inferNamesFromResults(parser, state, getBufferNamesAttrName(state.name),
                            loc) ||
      parser.resolveOperands(mutated, mutatedTypes, loc, state.operands))
    return failure();
  state.addTypes(resultTypes);

  Region *body = state.addRegion();
  if (parser.parseRegion(*body, regionArgs, /*enableNameShadowing=*/false))
    return failure();
  NodeOp::ensureTerminator(*body, builder, state.location);
  return success();
}

void NodeOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printAttributeWithoutType(getNameAttr());
  p << " (";
  llvm::interleaveComma(getLoopVars(), p,
                        [&](BlockArgument arg) { p.printOperand(arg); });
  p << ") in ";
  printSizeList(p.getStream(), getRangeExprs());
  if (isReduction()) {
    p << " reduce ";
    printSizeList(p.getStream(), getReductionRangeExprs());
  }
  p << " writes(";
  llvm::interleaveComma(llvm::enumerate(getOutputHandles()), p, [&](auto it) {
    p.printOperand(it.value());
    p << " : " << it.value().getType();
    if (Value old = getMutatedBuffer(it.index())) {
      p << " mutates ";
      p.printOperand(old);
    }
  });
  p << ")";
  SmallVector<StringRef> elided = {getNameAttrName(), getRangesAttrName(),
                                   getReductionRangesAttrName(),
                                   getSymbolicLoopSizesAttrName(),
                                   getTiedOperandsAttrName()};
  if (namesMatchSSA(p, getOperation()->getResults(), getBufferNames()))
    elided.push_back(getBufferNamesAttrName());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), elided);
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult NodeOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  if (AffineMapAttr symbolic = getSymbolicLoopSizesAttr()) {
    AffineMap sizes = symbolic.getValue();
    if (sizes.getNumDims() != 0)
      return emitOpError("loop sizes cannot use loop variables");
    if (sizes.getNumResults() != getNumLoops())
      return emitOpError("has ")
             << getNumLoops() << " loops but " << sizes.getNumResults()
             << " symbolic loop sizes";
    for (auto [size, expr] : llvm::zip(getLoopSizes(), sizes.getResults())) {
      if (size != getStaticSize(expr))
        return emitOpError("loop size ")
               << size << " does not match its expression "
               << sizeExprToString(expr);
      if (hasNonPositiveDivisor(expr) ||
          getNumSymbolsUsed(expr) > kMaxSizeSymbols)
        return emitOpError("loop size ")
               << sizeExprToString(expr)
               << " divides by a non-positive constant or uses a size "
                  "symbol beyond s"
               << kMaxSizeSymbols - 1;
    }
  }
  // A size is symbolic only through its expression: INT64_MIN written as a
  // range is not a symbol (the sentinel kSymbolicSize stands for one).
  for (int64_t size : getLoopSizes())
    if (size < 1 && (size != kSymbolicSize || !getSymbolicLoopSizesAttr()))
      return emitOpError("loop sizes must be positive, got ") << size;
  if (failed(verifyIterationCount(*this, getLoopSizes())))
    return failure();
  return verifyLeafResults(*this, getBufferNames(), getTiedOperands(),
                           getMutated(), /*everyOperandTied=*/true);
}

namespace {
/// Where a value of a node body varies: only with the pointwise loops, with
/// the reduction loops too (before the reduction), or per pointwise
/// iteration after a `fusion.reduce` combined the reduction loops away.
enum class Phase { Pointwise, Reduction, Reduced };
} // namespace

/// Checks that values from before and after the reductions are not mixed,
/// that reductions only occur in reduction nodes, and that a reduction
/// node stores reduced values at pointwise indices.
static LogicalResult verifyReductionPhases(NodeOp node) {
  Block &body = node.getBodyBlock();
  // A scan or sort (Inductor's ir.Scan, ir.Sort) runs along the reduction
  // loops and stores every element it produces.
  bool scans = false;
  body.walk([&](OpaqueOp op) {
    scans |= op.getOpName() == "scan" || op.getOpName() == "sort";
  });
  unsigned numPointwise = node.getNumPointwiseLoops();
  DenseMap<Value, Phase> phases;
  for (BlockArgument arg : node.getLoopVars())
    phases[arg] = arg.getArgNumber() < numPointwise ? Phase::Pointwise
                                                    : Phase::Reduction;
  auto phaseOf = [&](Value v) {
    auto it = phases.find(v);
    return it == phases.end() ? Phase::Pointwise : it->second;
  };
  // Joins the phases of `values`, failing on a mix of before and after.
  auto join = [&](Operation *op, ValueRange values) -> FailureOr<Phase> {
    Phase result = Phase::Pointwise;
    for (Value v : values) {
      Phase phase = phaseOf(v);
      if (phase == Phase::Pointwise)
        continue;
      if (result != Phase::Pointwise && result != phase)
        return op->emitOpError("mixes values computed inside the reduction "
                               "loops with reduced values"),
               failure();
      result = phase;
    }
    return result;
  };

  bool sawReduce = false;
  WalkResult walk = body.walk([&](Operation *op) -> WalkResult {
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      sawReduce = true;
      if (!node.isReduction())
        return reduce.emitOpError("requires a node with reduction ranges");
      for (Value input : reduce.getInputs())
        if (phaseOf(input) == Phase::Reduced)
          return reduce.emitOpError("reduces a value that is already "
                                    "reduced; nested reductions need "
                                    "separate nodes");
      for (Value result : reduce.getResults())
        phases[result] = Phase::Reduced;
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<StoreOp>(op)) {
      bool insideReduction =
          llvm::any_of(op->getOperands(), [&](Value v) {
            return phaseOf(v) == Phase::Reduction;
          });
      if (node.isReduction() && insideReduction && !scans)
        return store.emitOpError(
            "in a reduction node must store a reduced value at an index of "
            "pointwise loop variables");
      if (failed(join(op, op->getOperands())))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (auto masked = dyn_cast<MaskedOp>(op)) {
      // The region is walked after its parent: join the mask and `other`
      // now, and the yielded value when the yield is visited.
      FailureOr<Phase> phase = join(op, op->getOperands());
      if (failed(phase))
        return WalkResult::interrupt();
      phases[masked.getResult()] = *phase;
      return WalkResult::advance();
    }
    if (auto yield = dyn_cast<YieldOp>(op)) {
      if (auto masked = dyn_cast<MaskedOp>(yield->getParentOp())) {
        SmallVector<Value> values(yield.getValues());
        values.push_back(masked.getResult());
        FailureOr<Phase> phase = join(op, values);
        if (failed(phase))
          return WalkResult::interrupt();
        phases[masked.getResult()] = *phase;
      }
      return WalkResult::advance();
    }
    FailureOr<Phase> phase = join(op, op->getOperands());
    if (failed(phase))
      return WalkResult::interrupt();
    for (Value result : op->getResults())
      phases[result] = *phase;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (node.isReduction() && !sawReduce && !scans)
    return node.emitOpError("has reduction ranges but no fusion.reduce, scan or "
                             "sort");
  return success();
}

LogicalResult NodeOp::verifyRegions() {
  Block &body = getBodyBlock();
  unsigned numLoops = getNumLoops();
  if (body.getNumArguments() != numLoops + getNumResults())
    return emitOpError("body must take ")
           << numLoops << " loop variables and " << getNumResults()
           << " output handles, but takes " << body.getNumArguments()
           << " arguments";
  for (BlockArgument arg : getLoopVars())
    if (!arg.getType().isIndex())
      return emitOpError("loop variable #")
             << arg.getArgNumber() << " must have type index";
  for (auto [handle, type] : llvm::zip(getOutputHandles(), getResultTypes()))
    if (handle.getType() != type)
      return emitOpError("output handle #")
             << (handle.getArgNumber() - numLoops) << " has type "
             << handle.getType() << " but the result has type " << type;
  for (BlockArgument handle : getOutputHandles())
    if (llvm::none_of(handle.getUsers(),
                      [](Operation *user) { return isa<StoreOp>(user); }))
      return emitOpError("never stores to result #")
             << (handle.getArgNumber() - numLoops);
  if (auto yield = dyn_cast<YieldOp>(body.getTerminator());
      !yield || !yield.getValues().empty())
    return emitOpError("body must end with a fusion.yield without operands");
  return verifyReductionPhases(*this);
}

//===----------------------------------------------------------------------===//
// ExternOp
//===----------------------------------------------------------------------===//

void ExternOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     StringRef kernel, ValueRange inputs,
                     ArrayRef<Type> resultTypes,
                     ArrayRef<StringRef> bufferNames,
                     ArrayRef<int64_t> tiedOperands, bool sideEffects) {
  state.addAttribute(getNameAttrName(state.name), builder.getStringAttr(name));
  state.addAttribute(getKernelAttrName(state.name),
                     builder.getStringAttr(kernel));
  state.addAttribute(getBufferNamesAttrName(state.name),
                     builder.getStrArrayAttr(bufferNames));
  SmallVector<int64_t> tied(tiedOperands);
  if (tied.empty())
    tied.assign(resultTypes.size(), -1);
  state.addAttribute(getTiedOperandsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(tied));
  if (sideEffects)
    state.addAttribute(getSideEffectsAttrName(state.name),
                       builder.getUnitAttr());
  state.addOperands(inputs);
  state.addTypes(resultTypes);
}

void ExternOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setResultNames(*this, getBufferNames(), setNameFn);
}

void ExternOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &input : getInputsMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &input);
  for (OpResult result : getOperation()->getResults()) {
    int64_t tied = getTiedOperands()[result.getResultNumber()];
    if (tied >= 0)
      effects.emplace_back(MemoryEffects::Write::get(),
                           &getInputsMutable()[tied]);
    else
      effects.emplace_back(MemoryEffects::Allocate::get(), result);
  }
  if (getSideEffects())
    effects.emplace_back(MemoryEffects::Write::get());
}

std::string ExternOp::getNodeName() { return getName().str(); }
StringAttr ExternOp::getBufferName(unsigned resultNumber) {
  return bufferNameAt(getBufferNames(), resultNumber);
}
Value ExternOp::getMutatedBuffer(unsigned resultNumber) {
  return tiedOperand(getTiedOperands(), getInputs(), resultNumber);
}
bool ExternOp::hasSideEffects() { return getSideEffects(); }
void ExternOp::getLeafNodes(
    SmallVectorImpl<SchedulerNodeOpInterface> &leaves) {
  leaves.push_back(*this);
}
StringRef ExternOp::getInductorClassName() {
  return "ExternKernelSchedulerNode";
}

/// fusion.extern "op8" "kernel"(%a, %b) [attributes] : (T, T)
///     -> T | (T [mutates %a], ...)
ParseResult ExternOp::parse(OpAsmParser &parser, OperationState &state) {
  Builder &builder = parser.getBuilder();
  SMLoc loc = parser.getCurrentLocation();
  StringAttr name, kernel;
  SmallVector<OpAsmParser::UnresolvedOperand> inputs;
  if (parser.parseAttribute(name, getNameAttrName(state.name),
                            state.attributes) ||
      parser.parseAttribute(kernel, getKernelAttrName(state.name),
                            state.attributes) ||
      parser.parseOperandList(inputs, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(state.attributes) || parser.parseColon())
    return failure();
  SmallVector<Type> inputTypes;
  if (parser.parseLParen() ||
      (failed(parser.parseOptionalRParen()) &&
       (parser.parseTypeList(inputTypes) || parser.parseRParen())) ||
      parser.parseArrow())
    return failure();

  SmallVector<Type> resultTypes;
  SmallVector<int64_t> tied;
  auto parseResult = [&]() -> ParseResult {
    if (parser.parseType(resultTypes.emplace_back()))
      return failure();
    if (failed(parser.parseOptionalKeyword("mutates"))) {
      tied.push_back(-1);
      return success();
    }
    OpAsmParser::UnresolvedOperand old;
    SMLoc oldLoc = parser.getCurrentLocation();
    if (parser.parseOperand(old))
      return failure();
    auto it = llvm::find_if(inputs, [&](auto &in) {
      return in.name == old.name && in.number == old.number;
    });
    if (it == inputs.end())
      return parser.emitError(oldLoc)
             << "a mutated buffer must be one of the extern's inputs";
    tied.push_back(it - inputs.begin());
    return success();
  };
  if (succeeded(parser.parseOptionalLParen())) {
    if (failed(parser.parseOptionalRParen()) &&
        (parser.parseCommaSeparatedList(parseResult) || parser.parseRParen()))
      return failure();
  } else if (parseResult()) {
    return failure();
  }
  state.addAttribute(getTiedOperandsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(tied));
  if (inferNamesFromResults(parser, state, getBufferNamesAttrName(state.name),
                            loc) ||
      parser.resolveOperands(inputs, inputTypes, loc, state.operands))
    return failure();
  state.addTypes(resultTypes);
  return success();
}

void ExternOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printAttributeWithoutType(getNameAttr());
  p << " ";
  p.printAttributeWithoutType(getKernelAttr());
  p << "(" << getInputs() << ")";
  SmallVector<StringRef> elided = {getNameAttrName(), getKernelAttrName(),
                                   getTiedOperandsAttrName()};
  if (namesMatchSSA(p, getOperation()->getResults(), getBufferNames()))
    elided.push_back(getBufferNamesAttrName());
  p.printOptionalAttrDict((*this)->getAttrs(), elided);
  p << " : (" << getInputs().getTypes() << ") -> ";
  bool anyTied = llvm::any_of(getTiedOperands(), [](int64_t t) { return t >= 0; });
  bool parens = getNumResults() != 1 || anyTied;
  if (parens)
    p << "(";
  llvm::interleaveComma(getOperation()->getResults(), p, [&](OpResult r) {
    p << r.getType();
    if (Value old = getMutatedBuffer(r.getResultNumber())) {
      p << " mutates ";
      p.printOperand(old);
    }
  });
  if (parens)
    p << ")";
}

LogicalResult ExternOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  if (getKernel().empty())
    return emitOpError("needs a non-empty kernel name");
  return verifyLeafResults(*this, getBufferNames(), getTiedOperands(),
                           getInputs(), /*everyOperandTied=*/false);
}

//===----------------------------------------------------------------------===//
// NopOp
//===----------------------------------------------------------------------===//

void NopOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setResultNames(*this, getBufferNames(), setNameFn);
}

std::string NopOp::getNodeName() { return getName().str(); }
StringAttr NopOp::getBufferName(unsigned resultNumber) {
  return bufferNameAt(getBufferNames(), resultNumber);
}
Value NopOp::getMutatedBuffer(unsigned) { return nullptr; }
bool NopOp::hasSideEffects() { return false; }
void NopOp::getLeafNodes(SmallVectorImpl<SchedulerNodeOpInterface> &leaves) {
  leaves.push_back(*this);
}
StringRef NopOp::getInductorClassName() { return "NopKernelSchedulerNode"; }

/// fusion.nop "op3"(%a, ...) [attributes] : (T, ...) -> T | (T, ...)
ParseResult NopOp::parse(OpAsmParser &parser, OperationState &state) {
  SMLoc loc = parser.getCurrentLocation();
  StringAttr name;
  SmallVector<OpAsmParser::UnresolvedOperand> inputs;
  FunctionType type;
  if (parser.parseAttribute(name, getNameAttrName(state.name),
                            state.attributes) ||
      parser.parseOperandList(inputs, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(state.attributes) || parser.parseColon() ||
      parser.parseType(type))
    return failure();
  if (inferNamesFromResults(parser, state, getBufferNamesAttrName(state.name),
                            loc) ||
      parser.resolveOperands(inputs, type.getInputs(), loc, state.operands))
    return failure();
  state.addTypes(type.getResults());
  return success();
}

void NopOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printAttributeWithoutType(getNameAttr());
  p << "(" << getInputs() << ")";
  SmallVector<StringRef> elided = {getNameAttrName()};
  if (namesMatchSSA(p, getOperation()->getResults(), getBufferNames()))
    elided.push_back(getBufferNamesAttrName());
  p.printOptionalAttrDict((*this)->getAttrs(), elided);
  p << " : ";
  p.printFunctionalType(getInputs().getTypes(), getResultTypes());
}

LogicalResult NopOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  return verifyLeafResults(*this, getBufferNames(),
                           SmallVector<int64_t>(getNumResults(), -1),
                           getInputs(), /*everyOperandTied=*/false);
}

//===----------------------------------------------------------------------===//
// Containers: FusedOp, ForeachOp, GroupOp
//===----------------------------------------------------------------------===//

/// Checks the members of a container and that its terminator yields every
/// member result in order.
template <typename ContainerOp>
static LogicalResult
verifyContainer(ContainerOp op, unsigned minMembers,
                function_ref<bool(Operation *)> isAllowedMember,
                StringRef allowed) {
  Block &body = op.getBodyBlock();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return op.emitOpError("body must end with fusion.yield");
  SmallVector<Value> memberResults;
  unsigned numMembers = 0;
  for (Operation &member : op.getMembers()) {
    if (!isAllowedMember(&member))
      return member.emitOpError("cannot be a member of ")
             << op->getName() << "; members are " << allowed;
    ++numMembers;
    llvm::append_range(memberResults, member.getResults());
  }
  if (numMembers < minMembers)
    return op.emitOpError("needs at least ") << minMembers << " members";
  if (!llvm::equal(yield.getValues(), memberResults))
    return yield.emitOpError("must yield the results of every member, in "
                             "member order");
  if (yield.getValues().getTypes() != op->getResultTypes())
    return op.emitOpError("result types do not match the yielded values");
  return success();
}

template <typename ContainerOp>
static std::string containerName(ContainerOp op) {
  SmallVector<SchedulerNodeOpInterface> leaves;
  op.getLeafNodes(leaves);
  return llvm::join(llvm::map_range(leaves,
                                    [](SchedulerNodeOpInterface leaf) {
                                      return leaf.getNodeName();
                                    }),
                    "_");
}

/// The member op producing result `resultNumber` of a container, and the
/// result number there.
template <typename ContainerOp>
static std::pair<SchedulerNodeOpInterface, unsigned>
memberFor(ContainerOp op, unsigned resultNumber) {
  auto yield = cast<YieldOp>(op.getBodyBlock().getTerminator());
  auto result = cast<OpResult>(yield.getValues()[resultNumber]);
  return {cast<SchedulerNodeOpInterface>(result.getOwner()),
          result.getResultNumber()};
}

template <typename ContainerOp>
static void containerLeaves(ContainerOp op,
                            SmallVectorImpl<SchedulerNodeOpInterface> &leaves) {
  for (Operation &member : op.getMembers())
    if (auto node = dyn_cast<SchedulerNodeOpInterface>(member))
      node.getLeafNodes(leaves);
}

template <typename ContainerOp>
static bool containerHasSideEffects(ContainerOp op) {
  return llvm::any_of(op.getMembers(), [](Operation &member) {
    auto node = dyn_cast<SchedulerNodeOpInterface>(member);
    return node && node.hasSideEffects();
  });
}

template <typename ContainerOp>
static void containerResultNames(ContainerOp op,
                                 OpAsmSetValueNameFn setNameFn) {
  auto yield = dyn_cast<YieldOp>(op.getBodyBlock().back());
  if (!yield || yield.getValues().size() != op->getNumResults())
    return;
  for (auto [result, value] : llvm::zip(op->getResults(), yield.getValues())) {
    auto opResult = dyn_cast<OpResult>(value);
    if (!opResult)
      continue;
    if (auto member = dyn_cast<SchedulerNodeOpInterface>(opResult.getOwner()))
      if (StringAttr name = member.getBufferName(opResult.getResultNumber()))
        setNameFn(result, name.getValue());
  }
}

#define FUSION_DEFINE_CONTAINER(OP, CLASS)                                     \
  std::string OP::getNodeName() { return containerName(*this); }              \
  StringAttr OP::getBufferName(unsigned resultNumber) {                        \
    auto [member, number] = memberFor(*this, resultNumber);                    \
    return member.getBufferName(number);                                       \
  }                                                                            \
  Value OP::getMutatedBuffer(unsigned resultNumber) {                          \
    auto [member, number] = memberFor(*this, resultNumber);                    \
    return member.getMutatedBuffer(number);                                    \
  }                                                                            \
  bool OP::hasSideEffects() { return containerHasSideEffects(*this); }         \
  void OP::getLeafNodes(SmallVectorImpl<SchedulerNodeOpInterface> &leaves) {   \
    containerLeaves(*this, leaves);                                            \
  }                                                                            \
  StringRef OP::getInductorClassName() { return CLASS; }                       \
  void OP::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {                  \
    containerResultNames(*this, setNameFn);                                    \
  }

FUSION_DEFINE_CONTAINER(FusedOp, "FusedSchedulerNode")
FUSION_DEFINE_CONTAINER(ForeachOp, "ForeachKernelSchedulerNode")
FUSION_DEFINE_CONTAINER(GroupOp, "GroupedSchedulerNode")
#undef FUSION_DEFINE_CONTAINER

LogicalResult FusedOp::verify() {
  return verifyContainer(
      *this, 2, [](Operation *op) { return isa<NodeOp>(op); }, "fusion.node");
}

LogicalResult ForeachOp::verify() {
  if (failed(verifyContainer(
          *this, 1, [](Operation *op) { return isa<NodeOp, FusedOp>(op); },
          "fusion.node and fusion.fused")))
    return failure();
  // The members run at the same time (one combo kernel): none reads what
  // another writes.
  for (Operation &member : getMembers()) {
    WalkResult result = member.walk([&](LoadOp load) {
      Operation *producer = load.getBuffer().getDefiningOp();
      while (producer && producer->getParentOp() != getOperation())
        producer = producer->getParentOp();
      if (!producer || producer == &member)
        return WalkResult::advance();
      InFlightDiagnostic diag =
          load.emitOpError("reads the result of '")
          << cast<SchedulerNodeOpInterface>(producer).getNodeName()
          << "', another member of the same fusion.foreach; its members run "
             "at the same time";
      diag.attachNote(producer->getLoc()) << "written here";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return success();
}

LogicalResult GroupOp::verify() {
  return verifyContainer(
      *this, 1,
      [](Operation *op) {
        return isa<SchedulerNodeOpInterface>(op) && !isa<GroupOp>(op);
      },
      "scheduler nodes other than fusion.group");
}

//===----------------------------------------------------------------------===//
// LoadOp
//===----------------------------------------------------------------------===//

/// %v = fusion.load %buffer[index] [attributes] : !fusion.buffer<...>
ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &state) {
  OpAsmParser::UnresolvedOperand buffer;
  SmallVector<OpAsmParser::UnresolvedOperand> indices;
  Type type;
  SMLoc typeLoc;
  if (parser.parseOperand(buffer) || parseIndex(parser, state, indices) ||
      parser.parseOptionalAttrDict(state.attributes) || parser.parseColon() ||
      parser.getCurrentLocation(&typeLoc) || parser.parseType(type))
    return failure();
  auto bufferType = dyn_cast<BufferType>(type);
  if (!bufferType)
    return parser.emitError(typeLoc, "expected a !fusion.buffer type, got ")
           << type;
  Type indexType = parser.getBuilder().getIndexType();
  if (parser.resolveOperand(buffer, bufferType, state.operands) ||
      parser.resolveOperands(indices, indexType, state.operands))
    return failure();
  state.addTypes(bufferType.getElementType());
  return success();
}

void LoadOp::print(OpAsmPrinter &p) {
  p << " " << getBuffer();
  printIndex(p, getMap(), getIndices());
  p.printOptionalAttrDict((*this)->getAttrs(), {getMapAttrName()});
  p << " : " << getBuffer().getType();
}

LogicalResult LoadOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  if (operands.empty())
    return failure();
  auto type = dyn_cast<BufferType>(operands.front().getType());
  if (!type)
    return emitOptionalError(loc, "expected a !fusion.buffer operand");
  inferredReturnTypes.push_back(type.getElementType());
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getBufferMutable());
}

LogicalResult LoadOp::verify() {
  if (failed(verifyIndexing(*this, getMap(), getIndices())))
    return failure();
  if (auto arg = dyn_cast<BlockArgument>(getBuffer()))
    if (isa<NodeOp>(arg.getOwner()->getParentOp()))
      return emitOpError("reads an output handle; read the buffer's previous "
                         "version (the value the node mutates) instead");
  return success();
}

//===----------------------------------------------------------------------===//
// StoreOp
//===----------------------------------------------------------------------===//

/// fusion.store %value, %handle[index] [atomic_add] [attributes] : T
ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &state) {
  OpAsmParser::UnresolvedOperand value, buffer;
  SmallVector<OpAsmParser::UnresolvedOperand> indices;
  Type type;
  SMLoc typeLoc;
  if (parser.parseOperand(value) || parser.parseComma() ||
      parser.parseOperand(buffer) || parseIndex(parser, state, indices))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("atomic_add")))
    state.addAttribute(getModeAttrName(state.name),
                       StoreModeAttr::get(parser.getContext(),
                                          StoreMode::AtomicAdd));
  if (parser.parseOptionalAttrDict(state.attributes) || parser.parseColon() ||
      parser.getCurrentLocation(&typeLoc) || parser.parseType(type))
    return failure();
  auto bufferType = dyn_cast<BufferType>(type);
  if (!bufferType)
    return parser.emitError(typeLoc, "expected a !fusion.buffer type, got ")
           << type;
  Type indexType = parser.getBuilder().getIndexType();
  if (parser.resolveOperand(value, bufferType.getElementType(),
                            state.operands) ||
      parser.resolveOperand(buffer, bufferType, state.operands) ||
      parser.resolveOperands(indices, indexType, state.operands))
    return failure();
  return success();
}

void StoreOp::print(OpAsmPrinter &p) {
  p << " " << getValue() << ", " << getBuffer();
  printIndex(p, getMap(), getIndices());
  if (getMode())
    p << " " << stringifyStoreMode(*getMode());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getMapAttrName(), getModeAttrName()});
  p << " : " << getBuffer().getType();
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getBufferMutable());
}

LogicalResult StoreOp::verify() {
  if (getValue().getType() != getBufferType().getElementType())
    return emitOpError("stores a value of type ")
           << getValue().getType() << " into a buffer of "
           << getBufferType().getElementType();
  if (failed(verifyIndexing(*this, getMap(), getIndices())))
    return failure();
  auto node = (*this)->getParentOfType<NodeOp>();
  auto handle = dyn_cast<BlockArgument>(getBuffer());
  if (!handle || handle.getOwner() != &node.getBodyBlock() ||
      handle.getArgNumber() < node.getNumLoops())
    return emitOpError("must store to an output handle of the enclosing "
                       "fusion.node");
  if ((*this)->getParentOp() != node)
    return emitOpError("must be directly in the body of a fusion.node, not "
                       "in a nested region");
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// The reduction kind as a bare keyword: `sum`, `welford_reduce`, ...
static ParseResult parseReduceKind(OpAsmParser &parser, ReduceKindAttr &kind) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ReduceKind> value = symbolizeReduceKind(keyword);
  if (!value)
    return parser.emitError(loc, "unknown reduction kind '") << keyword << "'";
  kind = ReduceKindAttr::get(parser.getContext(), *value);
  return success();
}

static void printReduceKind(OpAsmPrinter &p, Operation *, ReduceKindAttr kind) {
  p << stringifyReduceKind(kind.getValue());
}

LogicalResult ReduceOp::verify() {
  if (!(*this)->getParentOfType<NodeOp>())
    return emitOpError("must be nested in a fusion.node");
  if ((*this)->getParentOp() != (*this)->getParentOfType<NodeOp>())
    return emitOpError("must be directly in the body of a fusion.node");
  // Reductions combine numbers (Inductor's dtypes); a buffer or an index
  // has no identity or combiner.
  for (Value input : getInputs())
    if (!BufferType::isValidElementType(input.getType()))
      return emitOpError("reduces values of buffer element types only, got ")
             << input.getType();
  for (Type result : getResultTypes())
    if (!BufferType::isValidElementType(result))
      return emitOpError("returns values of buffer element types only, got ")
             << result;
  auto expectArity = [&](unsigned inputs, unsigned results) -> LogicalResult {
    if (getInputs().size() != inputs || getResults().size() != results)
      return emitOpError("'")
             << stringifyReduceKind(getKind()) << "' takes " << inputs
             << " inputs and returns " << results << " results";
    return success();
  };
  auto allTypesEqual = [&](TypeRange types, Type expected) {
    return llvm::all_of(types, [&](Type t) { return t == expected; });
  };
  Type input = getInputs().empty() ? Type() : getInputs().front().getType();
  switch (getKind()) {
  case ReduceKind::WelfordReduce:
    if (failed(expectArity(1, 3)))
      return failure();
    break;
  case ReduceKind::WelfordCombine:
    if (failed(expectArity(3, 3)))
      return failure();
    break;
  case ReduceKind::OnlineSoftmaxReduce:
    if (failed(expectArity(1, 2)))
      return failure();
    break;
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
    if (failed(expectArity(1, 1)))
      return failure();
    if (!getResult(0).getType().isInteger(64))
      return emitOpError("'") << stringifyReduceKind(getKind())
                              << "' returns an i64 position";
    return success();
  case ReduceKind::Any:
    if (failed(expectArity(1, 1)))
      return failure();
    if (!input.isInteger(1) || !getResult(0).getType().isInteger(1))
      return emitOpError("'any' reduces i1 values to i1");
    return success();
  default:
    if (failed(expectArity(1, 1)))
      return failure();
    break;
  }
  if (!allTypesEqual(getInputs().getTypes(), input) ||
      !allTypesEqual(getResultTypes(), input))
    return emitOpError("inputs and results must all have the same type");
  if (getKind() != ReduceKind::Sum && getKind() != ReduceKind::Prod &&
      getKind() != ReduceKind::Max && getKind() != ReduceKind::Min &&
      getKind() != ReduceKind::XorSum && !isa<FloatType>(input))
    return emitOpError("'") << stringifyReduceKind(getKind())
                            << "' needs floating-point values";
  if (getKind() == ReduceKind::XorSum && !isa<IntegerType>(input))
    return emitOpError("'xor_sum' needs integer values");
  return success();
}

//===----------------------------------------------------------------------===//
// IndexExprOp
//===----------------------------------------------------------------------===//

/// %v = fusion.index_expr [index] [attributes] : i64
ParseResult IndexExprOp::parse(OpAsmParser &parser, OperationState &state) {
  SmallVector<OpAsmParser::UnresolvedOperand> indices;
  Type type;
  if (parseIndex(parser, state, indices) ||
      parser.parseOptionalAttrDict(state.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(indices, parser.getBuilder().getIndexType(),
                             state.operands))
    return failure();
  state.addTypes(type);
  return success();
}

void IndexExprOp::print(OpAsmPrinter &p) {
  p << " ";
  printIndex(p, getMap(), getIndices());
  p.printOptionalAttrDict((*this)->getAttrs(), {getMapAttrName()});
  p << " : " << getType();
}

LogicalResult IndexExprOp::verify() {
  return verifyIndexing(*this, getMap(), getIndices());
}

//===----------------------------------------------------------------------===//
// MaskedOp
//===----------------------------------------------------------------------===//

LogicalResult MaskedOp::verify() {
  if (!(*this)->getParentOfType<NodeOp>())
    return emitOpError("must be nested in a fusion.node");
  auto yield = dyn_cast<YieldOp>(getBody().front().getTerminator());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValues().front().getType() != getType())
    return emitOpError("region must yield one value of type ") << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  if (!BufferType::isValidElementType(getInput().getType()) ||
      !BufferType::isValidElementType(getType()))
    return emitOpError("converts between buffer element types only, got ")
           << getInput().getType() << " to " << getType();
  return success();
}

void ReduceOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  switch (getKind()) {
  case ReduceKind::WelfordReduce:
  case ReduceKind::WelfordCombine:
    if (getNumResults() == 3) {
      setNameFn(getResult(0), "mean");
      setNameFn(getResult(1), "m2");
      setNameFn(getResult(2), "weight");
    }
    break;
  case ReduceKind::OnlineSoftmaxReduce:
    if (getNumResults() == 2) {
      setNameFn(getResult(0), "max");
      setNameFn(getResult(1), "sum");
    }
    break;
  default:
    break;
  }
}

#define GET_OP_CLASSES
#include "fusion/Dialect/Fusion/IR/FusionOps.cpp.inc"

std::optional<std::pair<AffineMap, OperandRange>>
mlir::fusion::getAccessMap(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return std::make_pair(load.getMap(), load.getIndices());
  if (auto store = dyn_cast<StoreOp>(op))
    return std::make_pair(store.getMap(), store.getIndices());
  if (auto index = dyn_cast<IndexExprOp>(op))
    return std::make_pair(index.getMap(), index.getIndices());
  return std::nullopt;
}

std::optional<int64_t> mlir::fusion::evaluateAffineExpr(
    AffineExpr expr, ArrayRef<int64_t> dims, ArrayRef<int64_t> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  if (auto d = dyn_cast<AffineDimExpr>(expr)) {
    if (d.getPosition() >= dims.size())
      return std::nullopt;
    return dims[d.getPosition()];
  }
  if (auto s = dyn_cast<AffineSymbolExpr>(expr)) {
    if (s.getPosition() >= symbols.size())
      return std::nullopt;
    return symbols[s.getPosition()];
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = evaluateAffineExpr(bin.getLHS(), dims, symbols);
  std::optional<int64_t> rhs = evaluateAffineExpr(bin.getRHS(), dims, symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  int64_t result;
  switch (bin.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(*lhs, *rhs, result))
      return std::nullopt;
    return result;
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(*lhs, *rhs, result))
      return std::nullopt;
    return result;
  case AffineExprKind::FloorDiv:
    if (*rhs <= 0)
      return std::nullopt;
    return llvm::divideFloorSigned(*lhs, *rhs);
  case AffineExprKind::CeilDiv:
    if (*rhs <= 0)
      return std::nullopt;
    return llvm::divideCeilSigned(*lhs, *rhs);
  case AffineExprKind::Mod:
    if (*rhs <= 0)
      return std::nullopt;
    return llvm::mod(*lhs, *rhs);
  default:
    return std::nullopt;
  }
}
