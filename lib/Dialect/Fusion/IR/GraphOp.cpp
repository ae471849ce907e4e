//===- GraphOp.cpp - fusion.graph and fusion.output -------------------------===

#include "FusionOpsInternal.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/GraphOpsWalk.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"
#include "scheduler-opt/Support/TopologicalOrder.h"
#include "scheduler-opt/Support/WalkPostOrder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::detail;

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

/// Calls `fn` on `op` if it is a leaf scheduler node, or on the leaf
/// scheduler nodes inside it if it is a container, in order, until it
/// interrupts. Loop bodies, most of a graph's ops, are not entered:
/// scheduler nodes only have a graph or a container as parent (HasParent,
/// verified on each node).
static WalkResult
walkLeafNodes(Operation &op,
              function_ref<WalkResult(SchedulerNodeOpInterface)> fn) {
  auto node = dyn_cast<SchedulerNodeOpInterface>(op);
  if (!node)
    return WalkResult::advance();
  if (!isContainerNode(op))
    return fn(node);
  for (Region &region : op.getRegions())
    for (Block &block : region)
      for (Operation &member : block)
        if (walkLeafNodes(member, fn).wasInterrupted())
          return WalkResult::interrupt();
  return WalkResult::advance();
}

/// walkLeafNodes over each of `members`.
static WalkResult
walkLeafNodes(Block &members,
              function_ref<WalkResult(SchedulerNodeOpInterface)> fn) {
  for (Operation &op : members)
    if (walkLeafNodes(op, fn).wasInterrupted())
      return WalkResult::interrupt();
  return WalkResult::advance();
}

/// The name of a leaf scheduler node, as getNodeName spells it.
static StringAttr leafName(SchedulerNodeOpInterface node) {
  if (auto op = dyn_cast<NodeOp>(*node))
    return op.getNameAttr();
  if (auto op = dyn_cast<ExternOp>(*node))
    return op.getNameAttr();
  if (auto op = dyn_cast<NopOp>(*node))
    return op.getNameAttr();
  return StringAttr::get(node->getContext(), node.getNodeName());
}

/// Unique node and buffer names, each version mutated at most once, checked
/// over the whole graph; fills `mutatedBy` with each mutated version's node.
/// Names are uniqued StringAttrs of one context: equal names are one pointer.
static LogicalResult verifyNames(GraphOp graph,
                                 DenseMap<Value, Operation *> &mutatedBy) {
  Block &block = graph.getBodyBlock();
  unsigned numOps = block.getOperations().size();
  DenseMap<StringAttr, Operation *> nodeNames;
  DenseMap<StringAttr, Location> bufferNames;
  nodeNames.reserve(numOps);
  bufferNames.reserve(block.getNumArguments() + numOps);
  for (auto [i, arg] : llvm::enumerate(block.getArguments()))
    if (!bufferNames.try_emplace(graph.getInputName(i), arg.getLoc()).second)
      return graph.emitOpError("input name '")
             << graph.getInputName(i).getValue() << "' is used twice";
  auto checkNames = [&](SchedulerNodeOpInterface node) -> WalkResult {
    StringAttr name = leafName(node);
    auto [it, inserted] = nodeNames.try_emplace(name, node);
    if (!inserted) {
      InFlightDiagnostic diag = node->emitOpError("node name '")
                                << name.getValue() << "' is already used";
      diag.attachNote(it->second->getLoc()) << "first used here";
      return WalkResult::interrupt();
    }
    for (unsigned r = 0, e = node->getNumResults(); r < e; ++r) {
      StringAttr buffer = node.getBufferName(r);
      auto [bit, binserted] = bufferNames.try_emplace(buffer, node->getLoc());
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
  return failure(walkLeafNodes(block, checkNames).wasInterrupted());
}

//===----------------------------------------------------------------------===//
// GraphOpsWalk
//===----------------------------------------------------------------------===//

/// The bytes of all the buffers with a static layout made or taken in the
/// graph (arguments and results of every op, nested ones too) must fit in
/// int64 together; then no sum of buffer sizes a pass computes (live bytes,
/// peak memory, bytes a kernel moves) can overflow. The size symbols'
/// checker visits every op in the same walk, which looks at the op's result
/// types once for both.
///
/// The walk also takes the checks of the top-level ops that need only the
/// op and its users, as passes that say whether they hold: every op a
/// scheduler node, the names unique and each buffer version mutated once
/// (the graph's input names are added at the end), and each def-use edge
/// between top-level ops going forward in the block, which makes the graph
/// acyclic. The ops visited in one call are the ones after the last visited,
/// so an op's users then are the ops visited before it (a backward edge),
/// itself, or the ops after it in the same call, the ops numbered in
/// `window`; an op built later uses it from after it. Where a pass fails,
/// verifyGraphRegions runs the whole graph's check, which reports the error
/// as GraphOp::verifyRegions does.
struct GraphOpsWalk::State {
  explicit State(GraphOp graph)
      : graph(graph), sizeSymbols(graph), declared(graph.getNumSizeSymbols()),
        hinted(!graph.getSizeHints().empty()) {
    // A graph verified whole: the names' tables as the whole check sizes
    // them. The import's graph starts empty and grows its tables.
    unsigned numOps = graph.getBodyBlock().getOperations().size();
    nodeNames.reserve(numOps);
    bufferNames.reserve(graph.getBodyBlock().getNumArguments() + numOps);
  }

  /// Adds the bytes of `op`'s results and visits it; false when the sum no
  /// longer fits.
  bool add(Operation *op) {
    bool hasBufferResult = false;
    for (unsigned i = 0, e = op->getNumResults(); i != e; ++i) {
      auto type = dyn_cast<BufferType>(op->getResult(i).getType());
      if (!type)
        continue;
      hasBufferResult = true;
      if (!addStaticBufferBytes(type, total))
        return false;
    }
    sizeSymbols.visit(op, hasBufferResult);
    return true;
  }
  /// Visits `op` and the ops nested in it, in walk order.
  void visit(Operation &op) {
    if (overflow)
      return;
    auto stop = [&](Operation *nested) { return !add(nested); };
    overflow = walkNestedPostOrderUntil(&op, stop) || stop(&op);
  }
  /// Notes a leaf node's name, buffer names and mutated versions; false on
  /// one seen before.
  bool noteNames(SchedulerNodeOpInterface node) {
    if (!nodeNames.insert(leafName(node)).second)
      return false;
    for (unsigned r = 0, e = node->getNumResults(); r < e; ++r) {
      if (!bufferNames.insert(node.getBufferName(r)).second)
        return false;
      if (Value old = node.getMutatedBuffer(r))
        if (!mutatedBy.try_emplace(old, node).second)
          return false;
    }
    return true;
  }
  /// Whether every top-level node using a result of `op`, the op numbered
  /// `position` in `window`, comes after it in the window.
  bool usersFollow(Operation &op, unsigned position) {
    Block &block = graph.getBodyBlock();
    for (Value result : op.getResults())
      for (Operation *user : result.getUsers()) {
        Operation *top = block.findAncestorOpInBlock(*user);
        if (!top || !isa<SchedulerNodeOpInterface>(top))
          continue;
        auto it = window.find(top);
        if (it == window.end() || it->second <= position)
          return false;
      }
    return true;
  }
  /// The checks of a top-level op other than the terminator.
  void checkTopLevel(Operation &op, unsigned position) {
    if (!isa<SchedulerNodeOpInterface>(op)) {
      nodesOnly = false;
      return;
    }
    if (namesUnique)
      namesUnique = !walkLeafNodes(op, [&](SchedulerNodeOpInterface node) {
                       return noteNames(node) ? WalkResult::advance()
                                              : WalkResult::interrupt();
                     }).wasInterrupted();
    if (forward)
      forward = usersFollow(op, position);
  }
  /// Visits the top-level ops after the last one visited (all of them at
  /// first), each with its nested ops.
  void visitNewOps() {
    Block &block = graph.getBodyBlock();
    auto rest = last ? std::next(Block::iterator(last)) : block.begin();
    auto ops = llvm::make_range(rest, block.end());
    window.clear();
    if (forward)
      for (Operation &op : ops)
        window.try_emplace(&op, window.size());
    unsigned position = 0;
    for (Operation &op : ops) {
      visit(op);
      bool terminator =
          &op == &block.back() && op.mightHaveTrait<OpTrait::IsTerminator>();
      if (!terminator)
        checkTopLevel(op, position);
      ++position;
      last = &op;
    }
  }
  /// Adds the graph's arguments and visits the ops after the last visited;
  /// fails, with an error on the graph, when the sum does not fit. Once.
  LogicalResult finish() {
    finished = true;
    for (BlockArgument arg : graph.getBodyBlock().getArguments())
      if (auto type = dyn_cast<BufferType>(arg.getType());
          type && !addStaticBufferBytes(type, total))
        return emitTotalBytesError(graph);
    visitNewOps();
    if (overflow)
      return emitTotalBytesError(graph);
    return success();
  }

  GraphOp graph;
  SizeSymbolChecker sizeSymbols;
  /// The graph's size symbols and whether it has hints, which the checks
  /// of the visited ops assumed.
  unsigned declared;
  bool hinted;
  int64_t total = 0;
  bool overflow = false;
  /// The last top-level op visited.
  Operation *last = nullptr;
  bool finished = false;
  /// The passes of the top-level checks, true while nothing failed.
  bool nodesOnly = true;
  bool namesUnique = true;
  bool forward = true;
  /// The names seen and the mutated versions with their node, while
  /// `namesUnique`.
  DenseSet<StringAttr> nodeNames;
  DenseSet<StringAttr> bufferNames;
  DenseMap<Value, Operation *> mutatedBy;
  /// The top-level ops of the current call, numbered in block order.
  DenseMap<Operation *, unsigned> window;
};

GraphOpsWalk::GraphOpsWalk(GraphOp graph)
    : state(std::make_unique<State>(graph)) {}
GraphOpsWalk::~GraphOpsWalk() = default;
GraphOpsWalk::GraphOpsWalk(GraphOpsWalk &&) noexcept = default;
GraphOpsWalk &GraphOpsWalk::operator=(GraphOpsWalk &&) noexcept = default;

void GraphOpsWalk::visitNewOps() { state->visitNewOps(); }

LogicalResult GraphOp::verifyRegions() {
  GraphOpsWalk walk(*this);
  return verifyGraphRegions(*this, walk);
}

LogicalResult mlir::fusion::verifyGraphRegions(GraphOp graph,
                                               GraphOpsWalk &walk) {
  Block &block = graph.getBodyBlock();
  FunctionType type = graph.getFunctionType();
  if (block.getNumArguments() != type.getNumInputs())
    return graph.emitOpError("body has ")
           << block.getNumArguments() << " arguments but the graph has "
           << type.getNumInputs() << " inputs";
  for (auto [arg, input] : llvm::zip(block.getArguments(), type.getInputs()))
    if (arg.getType() != input)
      return graph.emitOpError("body argument type ")
             << arg.getType() << " does not match input type " << input;
  OutputOp output = graph.getOutputOp();
  if (!output)
    return graph.emitOpError("body must end with fusion.output");
  if (output.getBuffers().getTypes() != type.getResults())
    return output.emitOpError("types do not match the graph result types");
  // One walk over every op for the total bytes, the size symbols and the
  // top-level checks, less the ops `walk` visited as they were built.
  GraphOpsWalk::State *walked = walk.state.get();
  if (walked->finished || walked->graph != graph ||
      walked->declared != graph.getNumSizeSymbols() ||
      walked->hinted != !graph.getSizeHints().empty()) {
    walk = GraphOpsWalk(graph);
    walked = walk.state.get();
  }
  if (failed(walked->finish()))
    return failure();
  SizeSymbolChecker &sizeSymbols = walked->sizeSymbols;

  if (!walked->nodesOnly)
    for (Operation &op : block.without_terminator())
      if (!isa<SchedulerNodeOpInterface>(op))
        return op.emitOpError("cannot appear at graph level; only scheduler "
                              "nodes (fusion.node, fusion.extern, fusion.nop, "
                              "fusion.fused, fusion.foreach, fusion.group) "
                              "can");

  bool namesUnique = walked->namesUnique;
  for (unsigned i = 0, e = block.getNumArguments(); i < e && namesUnique; ++i)
    namesUnique = walked->bufferNames.insert(graph.getInputName(i)).second;
  DenseMap<Value, Operation *> wholeMutatedBy;
  DenseMap<Value, Operation *> *mutatedBy = &walked->mutatedBy;
  if (!namesUnique) {
    if (failed(verifyNames(graph, wholeMutatedBy)))
      return failure();
    mutatedBy = &wholeMutatedBy;
  }

  for (Value buffer : output.getBuffers())
    if (Operation *mutator = mutatedBy->lookup(buffer))
      return output.emitOpError("returns a buffer version that '")
             << cast<SchedulerNodeOpInterface>(mutator).getNodeName()
             << "' overwrites in place; return that node's result instead";

  if (failed(sizeSymbols.verify()) || failed(verifySizesAtHints(graph)))
    return failure();
  if (walked->forward)
    return success();
  return verifyAcyclic(graph);
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
