//===- SizeExpr.h - Symbolic sizes of the fusion dialect --------*- C++ -*-===//
//
// Sizes, strides, offsets and loop ranges are affine expressions over the
// graph's size symbols (Inductor's `s27`, `s77`), written `s0`, `s1`, ... in
// the order the graph declares them. A static entry of an int64 array
// (buffer shapes, loop ranges) that holds a symbolic size is
// `ShapedType::kDynamic`, as upstream's dynamic dimensions; the expressions
// are kept beside it. docs/DynamicShapes.md gives the rationale.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_SIZEEXPR_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_SIZEEXPR_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/OpImplementation.h"

#include <optional>

namespace mlir {
namespace fusion {

/// An int64 array entry standing for a symbolic size.
constexpr int64_t kSymbolicSize = INT64_MIN;

/// The static value of a size expression, or kSymbolicSize.
int64_t getStaticSize(AffineExpr expr);

/// True if `expr` uses only constants and symbols (no dimensions).
bool isSizeExpr(AffineExpr expr);

/// The most size symbols a graph may declare: `s0` to `s<kMaxSizeSymbols-1>`.
constexpr unsigned kMaxSizeSymbols = 1u << 15;

/// True if `expr` divides or takes a modulo by a constant that is not
/// positive (which has no value).
bool hasNonPositiveDivisor(AffineExpr expr);

/// One past the highest symbol position used in `expr` (0 if none).
unsigned getNumSymbolsUsed(AffineExpr expr);

/// Operands of an index expression other than integers and size symbols:
/// SSA values of an op's custom form. The callback parses one if present and
/// returns its expression (a dimension or a bound symbol).
using IndexOperandParser = function_ref<OptionalParseResult(AffineExpr &)>;

/// Parses an index expression: integers, size symbols `sN`, parentheses,
/// unary `-`, `+ - *`, `floordiv`, `ceildiv`, `mod`, with the precedence of
/// MLIR's affine expressions. Size symbol `sN` becomes the symbol at position
/// `sizeSymbolBase + N`. `parseOperand`, if given, parses other atoms.
ParseResult parseIndexExpr(AsmParser &parser, AffineExpr &expr,
                           unsigned sizeSymbolBase = 0,
                           IndexOperandParser parseOperand = {});

/// Prints a size expression as MLIR prints affine expressions (`s0 * 512`).
void printSizeExpr(raw_ostream &os, AffineExpr expr);

/// `expr` as printSizeExpr prints it, for diagnostics.
std::string sizeExprToString(AffineExpr expr);

/// Parses `[expr, ...]` of size expressions.
ParseResult parseSizeList(AsmParser &parser,
                          SmallVectorImpl<AffineExpr> &exprs);
void printSizeList(raw_ostream &os, ArrayRef<AffineExpr> exprs);

/// The value of a size expression with symbol `i` set to `values[i]`;
/// nullopt when a symbol has no value (kSymbolicSize) or on overflow.
std::optional<int64_t> evaluateSizeExpr(AffineExpr expr,
                                        ArrayRef<int64_t> values);

/// The first symbol `expr` uses that has no value in `values`, if any.
std::optional<unsigned> findUnboundSymbol(AffineExpr expr,
                                          ArrayRef<int64_t> values);

/// Row-major contiguous strides of `sizes`, as expressions.
SmallVector<AffineExpr> getContiguousStrideExprs(ArrayRef<AffineExpr> sizes);

/// getAffineConstantExpr(value, ctx), answered from a small table per thread
/// for a context that has loaded the fusion dialect. The scheduler asks for
/// the same few constants (loop ranges, numels, 0 and 1) hundreds of
/// thousands of times on a large graph, and each question to the context's
/// uniquer costs about 200 instructions; the table answers in a few. The
/// table holds plain pointers into the context, so the fusion dialect
/// empties every thread's table when its context is destroyed
/// (ConstantExprCacheGuard).
AffineExpr getCachedConstantExpr(int64_t value, MLIRContext *ctx);

/// Held by the fusion dialect: its destruction (the context's) invalidates
/// every thread's getCachedConstantExpr table.
class ConstantExprCacheGuard {
public:
  ConstantExprCacheGuard() = default;
  ConstantExprCacheGuard(const ConstantExprCacheGuard &) = delete;
  ConstantExprCacheGuard &operator=(const ConstantExprCacheGuard &) = delete;
  ~ConstantExprCacheGuard();
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_SIZEEXPR_H
