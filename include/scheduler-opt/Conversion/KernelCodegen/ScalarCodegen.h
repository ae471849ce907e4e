//===- ScalarCodegen.h - Scalar semantics of fusion body ops ----*- C++ -*-===//
//
// Emits the scalar arithmetic that the GPU and CPU lowerings share: flat
// index expressions (affine maps with floor semantics), PyTorch's dtype
// conversions (`fusion.cast`) and Triton's Philox random numbers
// (`fusion.rand`, RandomOps.cpp). Inductor's other operations are in
// InductorScalarOps.h.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_SCALARCODEGEN_H
#define SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_SCALARCODEGEN_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <utility>

namespace mlir::fusion::codegen {

/// Marks a `math.exp` that must stay accurate on the GPU: one inside a
/// special function that Inductor computes with accurate library code,
/// which convert-fusion-to-gpu's `approx-exp` (Triton's exponential, for
/// Inductor's own `exp`) leaves alone.
constexpr llvm::StringLiteral kAccurateMathAttrName = "fusion.accurate";

/// An integer (or index) constant of `type`.
Value createIntConstant(OpBuilder &b, Location loc, Type type, int64_t value);
/// A floating-point constant of `type`.
Value createFloatConstant(OpBuilder &b, Location loc, Type type, double value);

/// Converts between integer types and `index` (sign-extending).
Value castIntegerLike(OpBuilder &b, Location loc, Value value, Type type);

/// simplifyAffineExpr for pure affine expressions. Others (products and
/// divisions by size symbols) are returned as they are: MLIR's semi-affine
/// simplification rewrites some of them wrongly (a transpose's index
/// `((d0 floordiv s0) mod 64) + (d0 mod s0) * 1536 + ...` loses its
/// `d0 mod s0` term; test/Conversion/FusionToLoops/dynamic-jit.test).
AffineExpr simplifyIndexExpr(AffineExpr expr, unsigned numDims,
                             unsigned numSymbols);

/// Inclusive bounds [lo, hi] that `expr` and every subexpression of it stay
/// within when dimension i ranges over [0, dimSizes[i]); nullopt when a
/// subexpression depends on a symbol or its bounds do not fit in 64 bits.
/// The bounds of `expr` itself are returned.
std::optional<std::pair<int64_t, int64_t>>
getAffineExprBounds(AffineExpr expr, ArrayRef<int64_t> dimSizes);

/// Returns the narrowest of i32 and i64 that holds every subexpression of
/// `expr`; i64 when the bounds are unknown.
Type getAffineEvaluationType(MLIRContext *context, AffineExpr expr,
                             ArrayRef<int64_t> dimSizes);

/// Emits `expr` in integer type `type` (or index), binding dimension i to
/// dims[i] (which ranges over [0, dimSizes[i])) and symbol j to symbols[j].
/// floordiv and mod round toward negative infinity as in affine maps;
/// unsigned division is used where the dividend is known non-negative.
Value emitAffineExpr(OpBuilder &b, Location loc, AffineExpr expr,
                     ValueRange dims, ArrayRef<int64_t> dimSizes,
                     ValueRange symbols, Type type);

/// PyTorch's `to_dtype` (`fusion.cast`): floats truncate toward zero when
/// converted to integers, conversions to i1 test for non-zero, i1 converts
/// to 0 or 1, integers sign-extend or truncate.
Value emitTorchCast(OpBuilder &b, Location loc, Value value, Type to);

/// Rewrites the float8 values under `root` for targets without float8
/// arithmetic or conversions: arithmetic computes in f32, conversions
/// between float8 and f32 become integer code with PyTorch's rounding
/// (Float8.cpp). A no-op without float8 types.
LogicalResult expandFloat8Ops(Operation *root);

/// Triton's `tl.rand(seed, offset)` for a 32-bit offset: the first word of
/// Philox4x32-10 on counter (offset, 0, 0, 0) and key (seed low, seed
/// high), mapped to a float in [0, 1).
Value emitPhiloxRand(OpBuilder &b, Location loc, Value seed, Value offset);

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_SCALARCODEGEN_H
