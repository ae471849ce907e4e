//===- SchedulerNodeOps.cpp - fusion.node, fusion.extern, fusion.nop --------===

#include "FusionOpsInternal.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::detail;

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

static Value tiedOperand(ArrayRef<int64_t> tied, OperandRange operands,
                         unsigned resultNumber) {
  if (resultNumber >= tied.size() || tied[resultNumber] < 0 ||
      tied[resultNumber] >= static_cast<int64_t>(operands.size()))
    return nullptr;
  return operands[tied[resultNumber]];
}

/// `tied_operands` for a builder: `tied`, or no result overwriting an
/// operand when it is empty.
static DenseI64ArrayAttr
tiedOperandsAttr(Builder &builder, ArrayRef<int64_t> tied, size_t numResults) {
  if (!tied.empty())
    return builder.getDenseI64ArrayAttr(tied);
  return builder.getDenseI64ArrayAttr(SmallVector<int64_t>(numResults, -1));
}

//===----------------------------------------------------------------------===//
// NodeOp
//===----------------------------------------------------------------------===//

void NodeOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   ArrayRef<int64_t> ranges, ArrayRef<int64_t> reductionRanges,
                   ArrayRef<Type> resultTypes, ArrayRef<StringRef> bufferNames,
                   ValueRange mutated, ArrayRef<int64_t> tiedOperands) {
  build(builder, state, builder.getStringAttr(name),
        builder.getDenseI64ArrayAttr(ranges),
        builder.getDenseI64ArrayAttr(reductionRanges), resultTypes,
        builder.getStrArrayAttr(bufferNames), mutated,
        tiedOperandsAttr(builder, tiedOperands, resultTypes.size()));
}

void NodeOp::build(OpBuilder &builder, OperationState &state, StringAttr name,
                   DenseI64ArrayAttr ranges, DenseI64ArrayAttr reductionRanges,
                   ArrayRef<Type> resultTypes, ArrayAttr bufferNames,
                   ValueRange mutated, DenseI64ArrayAttr tiedOperands) {
  // Straight into the properties, as ODS's own builders do: attributes
  // added to `state.attributes` would be sorted into a DictionaryAttr,
  // uniqued, and then split back into the properties by Operation::create.
  Properties &props = state.getOrAddProperties<Properties>();
  props.setName(name);
  props.setRanges(ranges);
  props.setReductionRanges(reductionRanges);
  props.setBufferNames(bufferNames);
  props.setTiedOperands(tiedOperands);
  state.addOperands(mutated);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block &block = body->emplaceBlock();
  // All at once: one allocation of the block's argument list.
  SmallVector<Type, 8> argTypes(ranges.size() + reductionRanges.size(),
                                builder.getIndexType());
  llvm::append_range(argTypes, resultTypes);
  SmallVector<Location, 8> argLocs(argTypes.size(), state.location);
  block.addArguments(argTypes, argLocs);
  // The terminator, named by its TypeID (YieldOp::create would look its
  // name up by string, a probe of the context's table for every node).
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&block);
  MLIRContext *ctx = builder.getContext();
  std::optional<RegisteredOperationName> yield =
      RegisteredOperationName::lookup(TypeID::get<YieldOp>(), ctx);
  assert(yield && "the fusion dialect registers fusion.yield");
  builder.insert(Operation::create(
      state.location, *yield, /*resultTypes=*/{}, /*operands=*/{},
      DictionaryAttr::get(ctx), /*properties=*/nullptr, /*successors=*/{},
      /*numRegions=*/0));
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
    return getCachedConstantExpr(size, getContext());
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
  AffineExpr n = getCachedConstantExpr(1, ctx);
  for (AffineExpr size : sizes)
    n = n * size;
  return n;
}

int64_t NodeOp::getNumel() { return staticProduct(getRanges()); }
int64_t NodeOp::getReductionNumel() {
  return staticProduct(getReductionRanges());
}
/// Product of static `sizes` as a constant, wrapping as the folding of
/// AffineExpr's `*` does (the verifier keeps it within int64).
static AffineExpr staticProductExpr(MLIRContext *ctx, ArrayRef<int64_t> sizes) {
  uint64_t n = 1;
  for (int64_t size : sizes)
    n *= static_cast<uint64_t>(size);
  return getCachedConstantExpr(static_cast<int64_t>(n), ctx);
}

// Static sizes make a constant without building the product term by term.
AffineExpr NodeOp::getNumelExpr() {
  if (!getSymbolicLoopSizesAttr())
    return staticProductExpr(getContext(), getRanges());
  return productExpr(getContext(), getRangeExprs());
}
AffineExpr NodeOp::getReductionNumelExpr() {
  if (!getSymbolicLoopSizesAttr())
    return staticProductExpr(getContext(), getReductionRanges());
  return productExpr(getContext(), getReductionRangeExprs());
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

Value NodeOp::getMutatedBuffer(unsigned resultNumber) {
  return tiedOperand(getTiedOperands(), getMutated(), resultNumber);
}

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
  SmallVector<int64_t> loopSizes = getLoopSizes();
  AffineMapAttr symbolic = getSymbolicLoopSizesAttr();
  if (symbolic) {
    AffineMap sizes = symbolic.getValue();
    if (sizes.getNumDims() != 0)
      return emitOpError("loop sizes cannot use loop variables");
    if (sizes.getNumResults() != getNumLoops())
      return emitOpError("has ")
             << getNumLoops() << " loops but " << sizes.getNumResults()
             << " symbolic loop sizes";
    for (auto [size, expr] : llvm::zip(loopSizes, sizes.getResults())) {
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
  for (int64_t size : loopSizes)
    if (size < 1 && (size != kSymbolicSize || !symbolic))
      return emitOpError("loop sizes must be positive, got ") << size;
  if (failed(verifyIterationCount(*this, loopSizes)))
    return failure();
  return verifyLeafResults(*this, getBufferNames(), getTiedOperands(),
                           getMutated(), /*everyOperandTied=*/true);
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
  // Into the properties, as NodeOp::build.
  Properties &props = state.getOrAddProperties<Properties>();
  props.setName(builder.getStringAttr(name));
  props.setKernel(builder.getStringAttr(kernel));
  props.setBufferNames(builder.getStrArrayAttr(bufferNames));
  props.setTiedOperands(
      tiedOperandsAttr(builder, tiedOperands, resultTypes.size()));
  if (sideEffects)
    props.setSideEffects(builder.getUnitAttr());
  state.addOperands(inputs);
  state.addTypes(resultTypes);
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

Value ExternOp::getMutatedBuffer(unsigned resultNumber) {
  return tiedOperand(getTiedOperands(), getInputs(), resultNumber);
}
bool ExternOp::hasSideEffects() { return getSideEffects(); }

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

/// Checks a concatenation's `input_offsets`: one offset per input into the
/// storage of its one result, of the same element type, where each input
/// fits when the sizes are static.
static LogicalResult verifyInputOffsets(NopOp op, AffineMap offsets) {
  if (op->getNumResults() != 1)
    return op.emitOpError("with input offsets has one result, not ")
           << op->getNumResults();
  if (offsets.getNumDims() != 0)
    return op.emitOpError("input offsets cannot use loop variables");
  if (offsets.getNumResults() != op.getInputs().size())
    return op.emitOpError("has ")
           << op.getInputs().size() << " inputs but "
           << offsets.getNumResults() << " input offsets";
  auto result = cast<BufferType>(op->getResult(0).getType());
  std::optional<int64_t> available = result.getStorageSize();
  for (auto [input, offset] :
       llvm::zip(op.getInputs(), offsets.getResults())) {
    auto type = cast<BufferType>(input.getType());
    if (type.getElementType() != result.getElementType())
      return op.emitOpError("concatenates ")
             << type.getElementType() << " into "
             << result.getElementType() << " storage";
    if (hasNonPositiveDivisor(offset) ||
        getNumSymbolsUsed(offset) > kMaxSizeSymbols)
      return op.emitOpError("input offset ")
             << sizeExprToString(offset)
             << " divides by a non-positive constant or uses a size symbol "
                "beyond s"
             << kMaxSizeSymbols - 1;
    std::optional<int64_t> at = getStaticSize(offset) == kSymbolicSize
                                    ? std::nullopt
                                    : std::optional(getStaticSize(offset));
    if (at && *at < 0)
      return op.emitOpError("input offsets must be non-negative, got ") << *at;
    std::optional<int64_t> needed = type.getStorageSize();
    if (at && needed && available &&
        (*needed > *available || *at > *available - *needed))
      return op.emitOpError("places an input of ")
             << *needed << " elements at offset " << *at
             << " in a storage of " << *available << " elements";
  }
  return success();
}

LogicalResult NopOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  if (AffineMapAttr offsets = getInputOffsetsAttr())
    if (failed(verifyInputOffsets(*this, offsets.getValue())))
      return failure();
  return verifyLeafResults(*this, getBufferNames(),
                           SmallVector<int64_t>(getNumResults(), -1),
                           getInputs(), /*everyOperandTied=*/false);
}
