//===- FusionOpsInternal.h - Shared by the fusion op files ------*- C++ -*-===//
//
// What the op definitions of the dialect share across their files
// (lib/Dialect/Fusion/IR); not part of the dialect's interface.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_FUSION_IR_FUSIONOPSINTERNAL_H
#define LIB_DIALECT_FUSION_IR_FUSIONOPSINTERNAL_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace fusion {
namespace detail {

//===----------------------------------------------------------------------===//
// Buffer names from SSA names (FusionOps.cpp)
//
// Buffers are named by their SSA names, as in CIRCT: the parser takes
// `buffer_names` from the result names when the attribute is not written,
// and the printer elides it when the SSA names it prints say the same.
//===----------------------------------------------------------------------===//

/// Returns true when `name` can serve as a buffer name inferred from SSA.
bool isUsableSSAName(StringRef name);

/// Fills `attrName` from the SSA names of the results being parsed unless the
/// attribute dictionary already provides it.
ParseResult inferNamesFromResults(OpAsmParser &parser, OperationState &state,
                                  StringRef attrName, SMLoc loc);

/// Returns true when every value prints as `%<name>` for its name in `names`.
bool namesMatchSSA(OpAsmPrinter &p, ValueRange values, ArrayAttr names);

/// Strips the leading `%` of an SSA name as the parser reports it.
StringRef stripPercent(StringRef name);

//===----------------------------------------------------------------------===//
// Verifiers shared by several ops
//===----------------------------------------------------------------------===//

/// Checks the index of a load, store or index_expr (LoopBodyOps.cpp).
LogicalResult verifyIndexing(IndexedOpInterface op);

/// Checks that a node body does not mix values from inside the reduction
/// loops with reduced values (ReductionPhases.cpp).
LogicalResult verifyReductionPhases(NodeOp node);

/// Checks that every size symbol a graph uses is declared, and that no
/// access leaves a static buffer at the symbols' hints (GraphSizeSymbols.cpp).
/// The ops are visited in the walk of another graph-wide check (the graph's
/// total bytes) and the first failure reported later, after the checks
/// that come before it, as a walk of its own at that point would.
class SizeSymbolChecker {
public:
  explicit SizeSymbolChecker(GraphOp graph);
  /// Checks `op` without a diagnostic, remembering the first that fails;
  /// `hasBufferResult` says whether a result of `op` is a buffer. Most ops
  /// of a graph are loop-body arithmetic, which checkOp passes for its
  /// kind alone (no regions, no buffer results): those are passed here,
  /// without the call.
  void visit(Operation *op, bool hasBufferResult) {
    if (firstFailure)
      return;
    if (!hasBufferResult && op->getNumRegions() == 0 &&
        getKind(op) == Kind::Other)
      return;
    if (failed(checkOp(op, /*emit=*/false)))
      firstFailure = op;
  }
  /// Checks the graph's own types, then reports the first op that failed.
  LogicalResult verify();

private:
  /// What checkOp checks beyond types, decided once an op name: a graph
  /// has a few dozen names and about ten ops a node, and an interface
  /// lookup costs more than a probe of this map.
  enum class Kind : uint8_t { Other, Node, Nop, Indexed, Access };
  Kind getKind(Operation *op) {
    auto [it, inserted] = kinds.try_emplace(op->getName(), Kind::Other);
    if (inserted)
      it->second = computeKind(op);
    return it->second;
  }
  static Kind computeKind(Operation *op);
  LogicalResult checkOp(Operation *op, bool emit);

  GraphOp graph;
  unsigned declared;
  bool checkHints;
  Operation *firstFailure = nullptr;
  llvm::SmallDenseMap<OperationName, Kind, 32> kinds;
};

/// Checks the graph's sizes at the symbols' hints (GraphSizeSymbols.cpp).
LogicalResult verifySizesAtHints(GraphOp graph);

} // namespace detail
} // namespace fusion
} // namespace mlir

#endif // LIB_DIALECT_FUSION_IR_FUSIONOPSINTERNAL_H
