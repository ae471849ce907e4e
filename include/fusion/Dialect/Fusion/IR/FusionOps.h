//===- FusionOps.h - Operations of the fusion dialect -----------*- C++ -*-===//

#ifndef FUSION_DIALECT_FUSION_IR_FUSIONOPS_H
#define FUSION_DIALECT_FUSION_IR_FUSIONOPS_H

#include "fusion/Dialect/Fusion/IR/FusionAttrs.h"
#include "fusion/Dialect/Fusion/IR/FusionDialect.h"
#include "fusion/Dialect/Fusion/IR/FusionInterfaces.h"
#include "fusion/Dialect/Fusion/IR/FusionTypes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "fusion/Dialect/Fusion/IR/FusionOps.h.inc"

namespace mlir {
namespace fusion {

/// The affine map and index operands of a memory access (`fusion.load`,
/// `fusion.store`) or `fusion.index_expr`; nullopt for any other op.
std::optional<std::pair<AffineMap, OperandRange>>
getAccessMap(Operation *op);

/// Number of indirect symbols of an index map with operands `indices`: the
/// leading symbols, bound to operands. The symbols after them are the
/// graph's size symbols (symbol `k + i` is size symbol `i`).
unsigned getNumIndirectSymbols(AffineMap map, ValueRange indices);

/// The value of the index expression `expr` with dimension `i` set to
/// `dims[i]` and symbol `j` to `symbols[j]` (floor division, non-negative
/// modulo, as the dialect's indices mean them). Returns nullopt for a
/// dimension or symbol without a value, a division or modulo by a
/// non-positive value, or an overflow.
std::optional<int64_t> evaluateAffineExpr(AffineExpr expr,
                                          ArrayRef<int64_t> dims,
                                          ArrayRef<int64_t> symbols = {});

} // namespace fusion
} // namespace mlir

#endif // FUSION_DIALECT_FUSION_IR_FUSIONOPS_H
