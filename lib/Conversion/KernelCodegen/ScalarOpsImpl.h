//===- ScalarOpsImpl.h - Shared by the emitters of Inductor's ops -*- C++ -*-===//
//
// Internal to lib/Conversion/KernelCodegen: the context an emitter of one
// Inductor operation gets (InductorScalarOps.cpp dispatches), and the
// families of emitters, one file each.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_KERNELCODEGEN_SCALAROPSIMPL_H
#define LIB_CONVERSION_KERNELCODEGEN_SCALAROPSIMPL_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::fusion::codegen {

/// One operation being emitted: its operands (already emitted), and where.
struct ScalarOpContext {
  OpBuilder &b;
  Operation *op;
  /// Inductor's name of the operation (`fusion.opaque`'s, or the op's).
  StringRef name;
  Location loc;
  ValueRange operands;
  /// The nearest symbol table around the insertion point (a gpu.module on
  /// the GPU), where called functions are declared.
  Operation *symbolTable;
  bool gpu;

  StringRef targetName() const { return gpu ? "the GPU" : "the CPU"; }
};

using ScalarOpEmitter =
    FailureOr<SmallVector<Value>> (*)(ScalarOpContext &ctx);

/// Calls `callee(args) -> resultType`, declaring it in the symbol table.
Value emitFunctionCall(ScalarOpContext &ctx, StringRef callee, ValueRange args,
                       Type resultType);

/// The libm (CPU) or libdevice (GPU) function computing `name` in f32
/// (ScalarFunctions.cpp), or empty.
StringRef getLibraryFunction(StringRef name, bool gpu);
/// Calls the library function of the target for `name` on the context's
/// operands (in f32 or f64), converting to and from `resultType`.
FailureOr<Value> emitLibraryFunction(ScalarOpContext &ctx, StringRef name,
                                     ValueRange operands, Type resultType);

/// Floating-point arithmetic of one type, for writing numerical methods.
struct FloatMath {
  OpBuilder &b;
  Location loc;
  Type type;

  Value c(double v) const;
  Value add(Value x, Value y) const;
  Value sub(Value x, Value y) const;
  Value mul(Value x, Value y) const;
  Value div(Value x, Value y) const;
  Value neg(Value x) const;
  Value abs(Value x) const;
  Value exp(Value x) const;
  Value log(Value x) const;
  Value sqrt(Value x) const;
  Value lt(Value x, Value y) const;
  Value le(Value x, Value y) const;
  Value eq(Value x, Value y) const;
  Value select(Value cond, Value x, Value y) const;
  /// Horner: coeffs[0] * x^(n-1) + ... + coeffs[n-1].
  Value polynomial(Value x, ArrayRef<double> coeffs) const;
  /// Cephes' chbevl: the Chebyshev series of `coeffs` at x.
  Value chebyshev(Value x, ArrayRef<double> coeffs) const;
};

// Random numbers (RandomOps.cpp).
FailureOr<SmallVector<Value>> emitRandn(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitRandint64(ScalarOpContext &ctx);

// Special functions (SpecialFunctions.cpp).
FailureOr<SmallVector<Value>> emitErfinv(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitI0(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitI0e(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitNdtr(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitDigamma(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitFrexp(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitI1(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitI1e(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitK0(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitK1(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitK0e(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitK1e(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitSphericalBesselJ0(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitZeta(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitNdtri(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitErfcx(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitLogNdtr(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitPolygamma(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitAiryAi(ScalarOpContext &ctx);

// The regularized incomplete gamma functions (IncompleteGamma.cpp): P
// (igamma, gammainc) and Q (igammac, gammaincc).
FailureOr<SmallVector<Value>> emitIgamma(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitIgammac(ScalarOpContext &ctx);

// Operations of one Inductor backend (BackendOps.cpp): Triton's `dot`
// (native matmul) and `inline_asm_elementwise`, Halide's `halide_clamp`.
FailureOr<SmallVector<Value>> emitDot(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitInlineAsm(ScalarOpContext &ctx);
FailureOr<SmallVector<Value>> emitHalideClamp(ScalarOpContext &ctx);

// ops.bucketize (Bucketize.cpp): its buffer operands are memrefs.
FailureOr<SmallVector<Value>> emitBucketize(ScalarOpContext &ctx);

// Orthogonal polynomials (Polynomials.cpp), by their Inductor name.
FailureOr<SmallVector<Value>> emitPolynomial(ScalarOpContext &ctx);

} // namespace mlir::fusion::codegen

#endif // LIB_CONVERSION_KERNELCODEGEN_SCALAROPSIMPL_H
