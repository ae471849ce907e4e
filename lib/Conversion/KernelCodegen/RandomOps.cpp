//===- RandomOps.cpp - Triton's random numbers ----------------------------===//
//
// Inductor's random operations as its Triton code computes them, on both
// targets (the CPU lowering is the reference run of GPU graphs):
// `fusion.rand` is `tl.rand`, `randn` is `tl.randn`, `randint64` is
// `triton_helpers.randint64`, all on Philox4x32-10 with counter
// (offset, 0, 0, 0) and key (seed low, seed high), offsets taken as uint32.
//
//===----------------------------------------------------------------------===//

#include "ScalarOpsImpl.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"

#include <array>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

/// The four words of Philox4x32-10 (triton/language/random.py's
/// philox_impl for 32-bit counters) on counter (offset, 0, 0, 0).
static std::array<Value, 4> emitPhilox(OpBuilder &b, Location loc, Value seed,
                                       Value offset) {
  constexpr uint32_t kRoundA = 0xD2511F53, kRoundB = 0xCD9E8D57;
  constexpr uint32_t kKeyA = 0x9E3779B9, kKeyB = 0xBB67AE85;
  constexpr int kRounds = 10;
  Type i32 = b.getI32Type();
  auto c32 = [&](uint32_t v) {
    return createIntConstant(b, loc, i32, static_cast<int32_t>(v));
  };
  Value k0 = arith::TruncIOp::create(b, loc, i32, seed);
  Value hi = arith::ShRUIOp::create(
      b, loc, seed, createIntConstant(b, loc, seed.getType(), 32));
  Value k1 = arith::TruncIOp::create(b, loc, i32, hi);
  Value zero = c32(0);
  Value c0 = offset, c1 = zero, c2 = zero, c3 = zero;
  Value roundA = c32(kRoundA), roundB = c32(kRoundB);
  Value keyA = c32(kKeyA), keyB = c32(kKeyB);
  for (int round = 0; round < kRounds; ++round) {
    auto prodB = arith::MulUIExtendedOp::create(b, loc, roundB, c2);
    auto prodA = arith::MulUIExtendedOp::create(b, loc, roundA, c0);
    Value n0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, prodB.getHigh(), c1), k0);
    Value n2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, prodA.getHigh(), c3), k1);
    c1 = prodB.getLow();
    c3 = prodA.getLow();
    c0 = n0;
    c2 = n2;
    k0 = arith::AddIOp::create(b, loc, k0, keyA);
    k1 = arith::AddIOp::create(b, loc, k1, keyB);
  }
  return {c0, c1, c2, c3};
}

/// uint_to_uniform_float: the word as int32, negatives folded to -x - 1,
/// scaled so that INT32_MAX maps below 1.0.
static Value uintToUniformFloat(OpBuilder &b, Location loc, Value word) {
  Type i32 = b.getI32Type();
  Value zero = createIntConstant(b, loc, i32, 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, word, zero);
  Value folded = arith::SubIOp::create(
      b, loc, arith::SubIOp::create(b, loc, zero, word),
      createIntConstant(b, loc, i32, 1));
  Value nonNegative = arith::SelectOp::create(b, loc, negative, folded, word);
  Type f32 = b.getF32Type();
  Value asFloat = arith::SIToFPOp::create(b, loc, f32, nonNegative);
  return arith::MulFOp::create(b, loc, asFloat,
                               createFloatConstant(b, loc, f32, 4.6566127342e-10));
}

Value codegen::emitPhiloxRand(OpBuilder &b, Location loc, Value seed,
                              Value offset) {
  return uintToUniformFloat(b, loc, emitPhilox(b, loc, seed, offset)[0]);
}

/// Inductor passes offsets as `(offset).to(tl.uint32)`: the low 32 bits.
static Value offsetWord(ScalarOpContext &ctx, Value offset) {
  if (offset.getType().isInteger(32))
    return offset;
  return arith::TruncIOp::create(ctx.b, ctx.loc, ctx.b.getI32Type(), offset);
}

/// Checks `seed, offset, ...` operands: an i64 seed and integer offsets.
static LogicalResult checkRandomOperands(ScalarOpContext &ctx,
                                         unsigned numOperands) {
  if (ctx.operands.size() != numOperands ||
      !ctx.operands[0].getType().isInteger(64))
    return ctx.op->emitOpError("'")
           << ctx.name << "' takes an i64 seed and an integer offset"
           << (numOperands == 4 ? ", low and high" : "");
  for (Value v : ctx.operands.drop_front())
    if (!isa<IntegerType>(v.getType()) || v.getType().isInteger(1))
      return ctx.op->emitOpError("takes integer offsets and bounds, got ")
             << v.getType();
  return success();
}

/// The Philox words of a random op's (seed, offset, ...) operands.
static FailureOr<std::array<Value, 4>> philoxWords(ScalarOpContext &ctx,
                                                   unsigned numOperands) {
  if (failed(checkRandomOperands(ctx, numOperands)))
    return failure();
  return emitPhilox(ctx.b, ctx.loc, ctx.operands[0],
                    offsetWord(ctx, ctx.operands[1]));
}

FailureOr<SmallVector<Value>> codegen::emitRandn(ScalarOpContext &ctx) {
  FailureOr<std::array<Value, 4>> words = philoxWords(ctx, 2);
  if (failed(words))
    return failure();
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  // tl.randn: the first of pair_uniform_to_normal (Box-Muller) on the
  // first two words.
  FloatMath f{b, loc, b.getF32Type()};
  Value u1 = arith::MaximumFOp::create(b, loc, f.c(1.0e-7),
                                       uintToUniformFloat(b, loc, (*words)[0]));
  Value u2 = uintToUniformFloat(b, loc, (*words)[1]);
  Value theta = f.mul(f.c(6.283185307179586), u2);
  Value r = f.sqrt(f.mul(f.c(-2.0), f.log(u1)));
  Value n = f.mul(r, math::CosOp::create(b, loc, theta));
  return SmallVector<Value>{emitTorchCast(b, loc, n,
                                          ctx.op->getResult(0).getType())};
}

FailureOr<SmallVector<Value>> codegen::emitRandint64(ScalarOpContext &ctx) {
  FailureOr<std::array<Value, 4>> words = philoxWords(ctx, 4);
  if (failed(words))
    return failure();
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Type i64 = b.getI64Type();
  // (r0 | r1 << 32) % (high - low), unsigned, plus low.
  Value lo = arith::ExtUIOp::create(b, loc, i64, (*words)[0]);
  Value hi = arith::ShLIOp::create(b, loc,
                                   arith::ExtUIOp::create(b, loc, i64, (*words)[1]),
                                   createIntConstant(b, loc, i64, 32));
  Value bits = arith::OrIOp::create(b, loc, lo, hi);
  Value low = emitTorchCast(b, loc, ctx.operands[2], i64);
  Value high = emitTorchCast(b, loc, ctx.operands[3], i64);
  Value size = arith::SubIOp::create(b, loc, high, low);
  Value r = arith::RemUIOp::create(b, loc, bits, size);
  Value result = arith::AddIOp::create(b, loc, r, low);
  return SmallVector<Value>{
      emitTorchCast(b, loc, result, ctx.op->getResult(0).getType())};
}
