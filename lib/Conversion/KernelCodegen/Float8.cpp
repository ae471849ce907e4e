//===- Float8.cpp - float8 conversions as integer code --------------------===//
//
// Neither the CPU's LLVM backend nor NVPTX converts to or from the float8
// types (NVPTX's cvt covers e4m3/e5m2 only, saturating, where PyTorch
// gives NaN or infinity). The kernels therefore compute on float8 values
// in f32 (upstream's arith-emulate-unsupported-floats), and every
// conversion between a float8 type and f32 becomes integer code on the
// bits, with PyTorch's semantics (c10/util/Float8_*.h): decoding is exact;
// encoding rounds to nearest even, gives NaN (or infinity for e5m2) past
// the largest finite value, +0 for a negative value of the fnuz types that
// rounds to zero, and e8m0fnu keeps the exponent of the magnitude, rounded
// to nearest with ties away from the implied 1 (c10's
// fp8e8m0fnu_from_fp32_value).
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

namespace {
/// The encoding of a signed float8 type (not e8m0fnu).
struct Float8Format {
  unsigned mantissaBits;
  int bias;
  /// fnuz: no infinity, no negative zero, NaN is 0x80.
  bool fnuz;
  /// e5m2: exponent field all ones is infinity (mantissa 0) or NaN.
  bool ieee;
  /// The largest finite magnitude (the code without its sign).
  uint32_t maxMagnitude;
};
} // namespace

static std::optional<Float8Format> getFormat(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return Float8Format{3, 7, false, false, 0x7E};
  if (isa<Float8E5M2Type>(type))
    return Float8Format{2, 15, false, true, 0x7B};
  if (isa<Float8E4M3FNUZType>(type))
    return Float8Format{3, 8, true, false, 0x7F};
  if (isa<Float8E5M2FNUZType>(type))
    return Float8Format{2, 16, true, false, 0x7F};
  return std::nullopt;
}

static bool isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType, Float8E8M0FNUType>(getElementTypeOrSelf(type));
}

namespace {
/// Builds integer code on i32 (or vectors of i32) values.
struct Bits {
  OpBuilder &b;
  Location loc;
  Type i32, i8, f32;

  Bits(OpBuilder &b, Location loc, Type like)
      : b(b), loc(loc), i32(withShape(b.getI32Type(), like)),
        i8(withShape(b.getI8Type(), like)), f32(withShape(b.getF32Type(), like)) {}

  static Type withShape(Type element, Type like) {
    if (auto v = dyn_cast<VectorType>(like))
      return v.clone(element);
    return element;
  }
  Value c(uint32_t v, Type t) {
    Type element = getElementTypeOrSelf(t);
    TypedAttr attr;
    if (auto ft = dyn_cast<FloatType>(element))
      attr = b.getFloatAttr(ft, llvm::bit_cast<float>(v));
    else
      attr = b.getIntegerAttr(element, v);
    if (auto vt = dyn_cast<VectorType>(t))
      attr = DenseElementsAttr::get(vt, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value c(uint32_t v) { return c(v, i32); }
  Value f(float v) { return c(llvm::bit_cast<uint32_t>(v), f32); }
  Value andI(Value x, uint32_t m) { return arith::AndIOp::create(b, loc, x, c(m)); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value shl(Value x, uint32_t s) { return arith::ShLIOp::create(b, loc, x, c(s)); }
  Value shr(Value x, uint32_t s) { return arith::ShRUIOp::create(b, loc, x, c(s)); }
  Value cmp(arith::CmpIPredicate p, Value x, uint32_t y) {
    return arith::CmpIOp::create(b, loc, p, x, c(y));
  }
  Value sel(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value sel(Value cond, uint32_t x, Value y) { return sel(cond, c(x), y); }
  Value toF32(Value bits) { return arith::BitcastOp::create(b, loc, f32, bits); }
  Value fromF32(Value x) { return arith::BitcastOp::create(b, loc, i32, x); }
};
} // namespace

/// float8 bits (i8, zero-extended to i32) to f32, exactly.
static Value decode(Bits &k, Type type, Value code) {
  using P = arith::CmpIPredicate;
  if (isa<Float8E8M0FNUType>(getElementTypeOrSelf(type))) {
    // 2^(code - 127); code 0 is 2^-127 (an f32 subnormal), 0xFF NaN.
    Value bits = k.sel(k.cmp(P::eq, code, 0), 0x00400000u, k.shl(code, 23));
    return k.toF32(k.sel(k.cmp(P::eq, code, 0xFF), 0x7FC00000u, bits));
  }
  Float8Format fmt = *getFormat(getElementTypeOrSelf(type));
  unsigned m = fmt.mantissaBits;
  Value sign = k.shl(k.andI(code, 0x80), 24);
  Value mag = k.andI(code, 0x7F);
  Value exp = k.shr(mag, m);
  Value mant = k.andI(mag, (1u << m) - 1);
  // Normal: rebias the exponent, move the mantissa to the top.
  Value normal =
      k.orI(k.shl(k.add(exp, k.c(127 - fmt.bias)), 23), k.shl(mant, 23 - m));
  // Subnormal: mant * 2^(1 - bias - m), exact in f32.
  Value sub = arith::MulFOp::create(
      k.b, k.loc, arith::UIToFPOp::create(k.b, k.loc, k.f32, mant),
      k.f(std::ldexp(1.0f, 1 - fmt.bias - static_cast<int>(m))));
  Value bits = k.sel(k.cmp(P::eq, exp, 0), k.fromF32(sub), normal);
  bits = k.orI(bits, sign);
  Value nan = k.c(0x7FC00000u);
  if (fmt.fnuz)
    return k.toF32(k.sel(k.cmp(P::eq, code, 0x80), nan, bits));
  uint32_t expOnes = (0x7Fu >> m);
  if (fmt.ieee) {
    Value special = k.cmp(P::eq, exp, expOnes);
    Value inf = k.orI(k.c(0x7F800000u), sign);
    bits = k.sel(special, k.sel(k.cmp(P::eq, mant, 0), inf, nan), bits);
    return k.toF32(bits);
  }
  return k.toF32(k.sel(k.cmp(P::eq, mag, 0x7F), nan, bits));
}

/// f32 to float8 bits (in i32), as c10's fp8*_from_fp32_value.
static Value encode(Bits &k, Type type, Value x) {
  using P = arith::CmpIPredicate;
  Value bits = k.fromF32(x);
  if (isa<Float8E8M0FNUType>(getElementTypeOrSelf(type))) {
    // The exponent of |x|, rounded up when the mantissa is past half, or
    // exactly half of a normal number; NaN and infinity give NaN (0xFF).
    Value exp = k.andI(k.shr(bits, 23), 0xFF);
    Value mant = k.andI(bits, 0x7FFFFF);
    Value above = k.cmp(P::ugt, mant, 0x400000);
    Value half = arith::AndIOp::create(k.b, k.loc, k.cmp(P::eq, mant, 0x400000),
                                       k.cmp(P::ne, exp, 0));
    Value up = arith::OrIOp::create(k.b, k.loc, above, half);
    Value rounded = k.sel(up, k.add(exp, k.c(1)), exp);
    return k.sel(k.cmp(P::eq, exp, 0xFF), exp, rounded);
  }
  Float8Format fmt = *getFormat(getElementTypeOrSelf(type));
  unsigned m = fmt.mantissaBits;
  int bias = fmt.bias;
  Value sign = k.shr(k.andI(bits, 0x80000000u), 24);
  Value a = k.andI(bits, 0x7FFFFFFF);
  // Normal: rebias, round to nearest even at bit 23 - m.
  Value rebias = k.c(static_cast<uint32_t>(bias - 127) << 23);
  Value odd = k.andI(k.shr(a, 23 - m), 1);
  Value normal = k.shr(
      k.add(k.add(k.add(a, rebias), k.c((1u << (22 - m)) - 1)), odd), 23 - m);
  // Subnormal: adding 2^(24 - bias - m) rounds |x| at the subnormal step.
  uint32_t denormMask = static_cast<uint32_t>(127 + 24 - bias - m) << 23;
  Value sum = arith::AddFOp::create(k.b, k.loc, k.toF32(a),
                                    k.c(denormMask, k.f32));
  Value sub = arith::SubIOp::create(k.b, k.loc, k.fromF32(sum), k.c(denormMask));
  uint32_t minNormal = static_cast<uint32_t>(127 + 1 - bias) << 23;
  Value code = k.sel(k.cmp(P::ult, a, minNormal), sub, normal);
  // Past the largest finite value: the magnitude one code up.
  uint32_t past = fmt.maxMagnitude + 1;
  uint32_t pastBits = (static_cast<uint32_t>(static_cast<int>(past >> m) -
                                             bias + 127)
                       << 23) |
                      ((past & ((1u << m) - 1)) << (23 - m));
  Value over = k.cmp(P::uge, a, pastBits);
  Value isNaN = k.cmp(P::ugt, a, 0x7F800000u);
  if (fmt.fnuz) {
    // NaN, infinity and overflow are 0x80; a negative value rounding to
    // zero is +0 (0x80 would be NaN).
    Value signed_ = k.sel(k.cmp(P::eq, code, 0), code, k.orI(code, sign));
    return k.sel(over, 0x80u, signed_);
  }
  uint32_t nan = 0x7F;
  uint32_t overflow = fmt.ieee ? 0x7Cu : nan;
  code = k.sel(over, k.sel(isNaN, nan, k.c(overflow)), code);
  return k.orI(code, sign);
}

namespace {
/// arith.extf from a float8 type: decode, then extend or truncate the f32.
struct ExpandExtF final : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type from = op.getIn().getType();
    if (!isFloat8(from))
      return failure();
    Bits k(rewriter, op.getLoc(), from);
    Value code = arith::ExtUIOp::create(
        rewriter, op.getLoc(), k.i32,
        arith::BitcastOp::create(rewriter, op.getLoc(), k.i8, op.getIn()));
    Value f = decode(k, from, code);
    Type to = op.getType();
    if (getElementTypeOrSelf(to).isF32())
      rewriter.replaceOp(op, f);
    else if (getElementTypeOrSelf(to).getIntOrFloatBitWidth() > 32)
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, to, f);
    else
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, to, f);
    return success();
  }
};

/// arith.truncf to a float8 type: to f32 first (from f64 that rounds twice,
/// as PyTorch's conversions go through float), then encode.
struct ExpandTruncF final : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type to = op.getType();
    if (!isFloat8(to))
      return failure();
    Location loc = op.getLoc();
    Bits k(rewriter, loc, to);
    Value x = op.getIn();
    Type from = getElementTypeOrSelf(x.getType());
    if (isFloat8(from))
      x = arith::ExtFOp::create(rewriter, loc, k.f32, x);
    else if (from.getIntOrFloatBitWidth() > 32)
      x = arith::TruncFOp::create(rewriter, loc, k.f32, x);
    else if (!from.isF32())
      x = arith::ExtFOp::create(rewriter, loc, k.f32, x);
    Value code = encode(k, to, x);
    Value byte = arith::TruncIOp::create(rewriter, loc, k.i8, code);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, to, byte);
    return success();
  }
};
} // namespace

LogicalResult codegen::expandFloat8Ops(Operation *root) {
  bool any = false;
  root->walk([&](Operation *op) {
    auto hasF8 = [](TypeRange types) {
      return llvm::any_of(types, [](Type t) { return isFloat8(t); });
    };
    if (hasF8(op->getOperandTypes()) || hasF8(op->getResultTypes()))
      any = true;
    return any ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!any)
    return success();
  MLIRContext *ctx = root->getContext();
  // Arithmetic on float8 values computes in f32.
  SmallVector<Type> f8Types = {
      Float8E4M3FNType::get(ctx), Float8E5M2Type::get(ctx),
      Float8E4M3FNUZType::get(ctx), Float8E5M2FNUZType::get(ctx),
      Float8E8M0FNUType::get(ctx)};
  TypeConverter converter;
  arith::populateEmulateUnsupportedFloatsConversions(converter, f8Types,
                                                     Float32Type::get(ctx));
  ConversionTarget target(*ctx);
  arith::populateEmulateUnsupportedFloatsLegality(target, converter);
  target.addDynamicallyLegalDialect<math::MathDialect>(
      [&](Operation *op) { return converter.isLegal(op); });
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet emulate(ctx);
  arith::populateEmulateUnsupportedFloatsPatterns(emulate, converter);
  if (failed(applyPartialConversion(root, target, std::move(emulate))))
    return failure();
  // The conversions left at the boundaries become integer code.
  RewritePatternSet expand(ctx);
  expand.add<ExpandExtF, ExpandTruncF>(ctx);
  return applyPatternsGreedily(root, std::move(expand));
}
