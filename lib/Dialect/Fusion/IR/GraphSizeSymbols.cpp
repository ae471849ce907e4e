//===- GraphSizeSymbols.cpp - Size symbols of a graph -----------------------===
//
// The graph verifier's checks of size symbols: every symbol used in a
// type, a loop size or an index is declared, and with the symbols at their
// hints no access leaves a static buffer and no size leaves int64.
//
//===----------------------------------------------------------------------===//

#include "FusionOpsInternal.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::detail;

/// Checks that `used` size symbols are declared by `graph`.
static LogicalResult checkSymbolsDeclared(Operation *op, unsigned declared,
                                          unsigned used, StringRef where) {
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
static LogicalResult checkAccessAtHints(AccessOpInterface access,
                                        GraphOp graph, NodeOp node) {
  if (node.hasStaticLoopSizes() || access->getParentOfType<MaskedOp>())
    return success();
  AffineMap map = access.getIndexMap();
  OperandRange indices = access.getIndexOperands();
  BufferType type = access.getAccessedBuffer().getType();
  if (!type.hasStaticLayout() || access.getNumIndirectSymbols() != 0 ||
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
  InFlightDiagnostic diag = access->emitOpError("reaches element ")
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
LogicalResult mlir::fusion::detail::verifySizesAtHints(GraphOp graph) {
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
LogicalResult mlir::fusion::detail::verifySizeSymbols(GraphOp graph) {
  // Read once: the walk below checks every operation of the graph.
  unsigned declared = graph.getNumSizeSymbols();
  for (Type type : graph.getFunctionType().getInputs())
    if (failed(checkSymbolsDeclared(graph, declared, sizeSymbolsOf(type),
                                    "an input type")))
      return failure();
  for (Type type : graph.getFunctionType().getResults())
    if (failed(checkSymbolsDeclared(graph, declared, sizeSymbolsOf(type),
                                    "a result type")))
      return failure();
  // Without hints every access passes checkAccessAtHints: a node's loop
  // sizes are static, or one has a symbol without a value there.
  bool checkHints = !graph.getSizeHints().empty();
  WalkResult result = graph.getBody().walk([&](Operation *op) -> WalkResult {
    for (Type type : op->getResultTypes())
      if (failed(checkSymbolsDeclared(op, declared, sizeSymbolsOf(type),
                                      "a result type")))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(checkSymbolsDeclared(op, declared,
                                          sizeSymbolsOf(arg.getType()),
                                          "a block argument type")))
            return WalkResult::interrupt();
    if (auto node = dyn_cast<NodeOp>(op)) {
      // Static loop sizes use no symbol; symbolic ones are a map's results.
      unsigned used = 0;
      if (AffineMapAttr symbolic = node.getSymbolicLoopSizesAttr())
        for (AffineExpr size : symbolic.getValue().getResults())
          used = std::max(used, getNumSymbolsUsed(size));
      if (failed(checkSymbolsDeclared(op, declared, used, "its loop sizes")))
        return WalkResult::interrupt();
    }
    if (auto nop = dyn_cast<NopOp>(op))
      if (AffineMapAttr offsets = nop.getInputOffsetsAttr())
        if (failed(checkSymbolsDeclared(op, declared,
                                        offsets.getValue().getNumSymbols(),
                                        "its input offsets")))
          return WalkResult::interrupt();
    if (auto indexed = dyn_cast<IndexedOpInterface>(op))
      if (failed(checkSymbolsDeclared(op, declared,
                                      indexed.getIndexMap().getNumSymbols() -
                                          indexed.getNumIndirectSymbols(),
                                      "its index")))
        return WalkResult::interrupt();
    if (auto access = checkHints ? dyn_cast<AccessOpInterface>(op) : nullptr)
      if (failed(checkAccessAtHints(access, graph,
                                    op->getParentOfType<NodeOp>())))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
