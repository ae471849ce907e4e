//===- LoopBodyOps.cpp - Operations of a node body --------------------------===
//
// load, store, reduce, index_expr, masked, cast (opaque: OpaqueOp.cpp).
//
//===----------------------------------------------------------------------===//

#include "FusionOpsInternal.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::detail;

//===----------------------------------------------------------------------===//
// The index of load, store and index_expr
//===----------------------------------------------------------------------===//

/// Checks an index map and its operands: one flat result, one operand per
/// dimension and per leading (indirect) symbol, dimensions bound to loop
/// variables of the enclosing node and indirect symbols to indices computed
/// in its body. The symbols after the indirect ones are size symbols, which
/// the enclosing graph checks.
LogicalResult mlir::fusion::detail::verifyIndexing(IndexedOpInterface op) {
  AffineMap map = op.getIndexMap();
  OperandRange indices = op.getIndexOperands();
  if (map.getNumResults() != 1)
    return op->emitOpError("expects a single flat index, got ")
           << map.getNumResults() << " index results";
  if (hasNonPositiveDivisor(map.getResult(0)))
    return op->emitOpError("index divides by a non-positive constant");
  unsigned numDims = map.getNumDims(), numSymbols = map.getNumSymbols();
  if (indices.size() < numDims || indices.size() > numDims + numSymbols)
    return op->emitOpError("index map takes ")
           << numDims << " loop variables and up to " << numSymbols
           << " indirect indices but " << indices.size()
           << " operands were given";
  auto node = op->getParentOfType<NodeOp>();
  if (!node)
    return op->emitOpError("must be nested in a fusion.node");
  Block *body = &node.getBodyBlock();
  // The loop sizes in place: pointwise ranges, then reduction ranges.
  ArrayRef<int64_t> ranges = node.getRanges();
  ArrayRef<int64_t> reductionRanges = node.getReductionRanges();
  unsigned numLoops = ranges.size() + reductionRanges.size();
  SmallVector<int64_t, 8> dimSizes;
  for (auto [i, index] : llvm::enumerate(indices)) {
    auto arg = dyn_cast<BlockArgument>(index);
    bool isLoopVar = arg && arg.getOwner() == body &&
                     arg.getArgNumber() < numLoops;
    if (i < numDims && !isLoopVar)
      return op->emitOpError("index dimension #")
             << i << " must be a loop variable of the enclosing fusion.node";
    if (i >= numDims && isLoopVar)
      return op->emitOpError("indirect index #")
             << (i - numDims)
             << " is a loop variable; use it as a dimension instead";
    if (i < numDims) {
      unsigned loop = arg.getArgNumber();
      dimSizes.push_back(loop < ranges.size()
                             ? ranges[loop]
                             : reductionRanges[loop - ranges.size()]);
    }
  }
  return verifyIndexRange(op, map, dimSizes);
}

//===----------------------------------------------------------------------===//
// LoadOp
//===----------------------------------------------------------------------===//

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getBufferMutable());
}

/// Loop bodies compute with the buffers' value types; complex buffers
/// are read and written by externs only (Inductor falls back to ATen for
/// complex tensors).
static LogicalResult verifyValueType(Operation *op, Type type) {
  if (BufferType::isValidValueType(type))
    return success();
  return op->emitOpError("moves a value of ")
         << type << ", which loop bodies do not compute with (complex "
         << "buffers are read and written by externs only)";
}

LogicalResult LoadOp::verify() {
  if (failed(verifyIndexing(*this)))
    return failure();
  if (auto arg = dyn_cast<BlockArgument>(getBuffer()))
    if (isa<NodeOp>(arg.getOwner()->getParentOp()))
      return emitOpError("reads an output handle; read the buffer's previous "
                         "version (the value the node mutates) instead");
  return verifyValueType(*this, getType());
}

//===----------------------------------------------------------------------===//
// StoreOp
//===----------------------------------------------------------------------===//

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getBufferMutable());
}

LogicalResult StoreOp::verify() {
  if (failed(verifyIndexing(*this)))
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
  return verifyValueType(*this, getValue().getType());
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  if (!(*this)->getParentOfType<NodeOp>())
    return emitOpError("must be nested in a fusion.node");
  if ((*this)->getParentOp() != (*this)->getParentOfType<NodeOp>())
    return emitOpError("must be directly in the body of a fusion.node");
  // Reductions combine numbers (Inductor's dtypes); a buffer or an index
  // has no identity or combiner.
  for (Value input : getInputs())
    if (!BufferType::isValidValueType(input.getType()))
      return emitOpError("reduces values of buffer element types only, got ")
             << input.getType();
  for (Type result : getResultTypes())
    if (!BufferType::isValidValueType(result))
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

LogicalResult IndexExprOp::verify() {
  return verifyIndexing(*this);
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
  if (!BufferType::isValidValueType(getInput().getType()) ||
      !BufferType::isValidValueType(getType()))
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
