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

/// The error of checkSymbolsDeclared on `op`, if `emit`.
static LogicalResult reportUndeclaredSymbol(Operation *op, unsigned declared,
                                            unsigned used, StringRef where,
                                            bool emit) {
  if (!emit)
    return failure();
  return op->emitOpError("uses size symbol s")
         << (used - 1) << " in " << where << " but the graph declares "
         << (declared == 0 ? std::string("no size symbols")
                           : std::to_string(declared) + " (s0..s" +
                                 std::to_string(declared - 1) + ")");
}

/// Checks that `used` size symbols are declared by the graph (`declared`);
/// reports it on `op` if `emit`. Inline: it passes for nearly every op.
static inline LogicalResult checkSymbolsDeclared(Operation *op,
                                                 unsigned declared,
                                                 unsigned used, StringRef where,
                                                 bool emit = true) {
  if (used <= declared)
    return success();
  return reportUndeclaredSymbol(op, declared, used, where, emit);
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
                                        GraphOp graph, NodeOp node,
                                        bool emit) {
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
  if (!emit)
    return failure();
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

SizeSymbolChecker::SizeSymbolChecker(GraphOp graph)
    : graph(graph), declared(graph.getNumSizeSymbols()),
      checkHints(!graph.getSizeHints().empty()) {}

LogicalResult SizeSymbolChecker::verify() {
  for (Type type : graph.getFunctionType().getInputs())
    if (failed(checkSymbolsDeclared(graph, declared, sizeSymbolsOf(type),
                                    "an input type")))
      return failure();
  for (Type type : graph.getFunctionType().getResults())
    if (failed(checkSymbolsDeclared(graph, declared, sizeSymbolsOf(type),
                                    "a result type")))
      return failure();
  // The first op that failed, checked again to report why.
  if (firstFailure)
    return checkOp(firstFailure, /*emit=*/true);
  return success();
}

SizeSymbolChecker::Kind SizeSymbolChecker::computeKind(Operation *op) {
  if (isa<NodeOp>(op))
    return Kind::Node;
  if (isa<NopOp>(op))
    return Kind::Nop;
  if (isa<AccessOpInterface>(op))
    return Kind::Access;
  if (isa<IndexedOpInterface>(op))
    return Kind::Indexed;
  return Kind::Other;
}

LogicalResult SizeSymbolChecker::checkOp(Operation *op, bool emit) {
  for (unsigned i = 0, e = op->getNumResults(); i != e; ++i)
    if (failed(checkSymbolsDeclared(op, declared,
                                    sizeSymbolsOf(op->getResult(i).getType()),
                                    "a result type", emit)))
      return failure();
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (failed(checkSymbolsDeclared(op, declared,
                                        sizeSymbolsOf(arg.getType()),
                                        "a block argument type", emit)))
          return failure();
  switch (Kind kind = getKind(op)) {
  case Kind::Other:
    return success();
  case Kind::Node: {
    // Static loop sizes use no symbol; symbolic ones are a map's results.
    unsigned used = 0;
    if (AffineMapAttr symbolic = cast<NodeOp>(op).getSymbolicLoopSizesAttr())
      for (AffineExpr size : symbolic.getValue().getResults())
        used = std::max(used, getNumSymbolsUsed(size));
    return checkSymbolsDeclared(op, declared, used, "its loop sizes", emit);
  }
  case Kind::Nop:
    if (AffineMapAttr offsets = cast<NopOp>(op).getInputOffsetsAttr())
      return checkSymbolsDeclared(op, declared,
                                  offsets.getValue().getNumSymbols(),
                                  "its input offsets", emit);
    return success();
  case Kind::Indexed:
  case Kind::Access: {
    auto indexed = cast<IndexedOpInterface>(op);
    // The indirect symbols are some of the map's (verifyIndexing checks
    // it before the graph's region verifier runs; the importer, which
    // skips that, builds them so): a map within the declared symbols
    // passes without counting them.
    unsigned numSymbols = indexed.getIndexMap().getNumSymbols();
    if (numSymbols > declared &&
        failed(checkSymbolsDeclared(
            op, declared, numSymbols - indexed.getNumIndirectSymbols(),
            "its index", emit)))
      return failure();
    // Without hints every access passes checkAccessAtHints: a node's loop
    // sizes are static, or one has a symbol without a value there.
    if (!checkHints || kind != Kind::Access)
      return success();
    return checkAccessAtHints(cast<AccessOpInterface>(op), graph,
                              op->getParentOfType<NodeOp>(), emit);
  }
  }
  llvm_unreachable("every kind is handled");
}
