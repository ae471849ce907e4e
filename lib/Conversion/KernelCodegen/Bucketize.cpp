//===- Bucketize.cpp - Inductor's ops.bucketize ---------------------------===//
//
// `ops.bucketize(values, (name, size, numel, stride), boundary_indices,
// indexing_dtype, right, sorter, sorter_indices)` as Inductor's Triton
// helper `bucketize_binary_search` computes it: a binary search over the
// `size` boundaries at boundary_indices + stride * mid (through the sorter
// when there is one), ceil(log2(size + 1)) halvings; positions at or past
// `numel` in the boundaries' storage are never read.
//
//===----------------------------------------------------------------------===//

#include "ScalarOpsImpl.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

/// The boundary at `position` (index) of `memref`, 0 where `mask` is
/// false (the load itself reads element 0 there, as Triton's masked load
/// reads nothing).
static Value maskedLoad(OpBuilder &b, Location loc, Value memref,
                        Value position, Value mask) {
  Value zero = createIntConstant(b, loc, b.getIndexType(), 0);
  Value safe = arith::SelectOp::create(b, loc, mask, position, zero);
  Value v = memref::LoadOp::create(b, loc, memref, ValueRange{safe});
  Value other = isa<FloatType>(v.getType())
                    ? createFloatConstant(b, loc, v.getType(), 0.0)
                    : createIntConstant(b, loc, v.getType(), 0);
  return arith::SelectOp::create(b, loc, mask, v, other);
}

FailureOr<SmallVector<Value>> codegen::emitBucketize(ScalarOpContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  auto sorterAttr = ctx.op->getAttrOfType<BoolAttr>("sorter");
  auto rightAttr = ctx.op->getAttrOfType<BoolAttr>("right");
  bool sorter = sorterAttr && sorterAttr.getValue();
  unsigned expected = sorter ? 9 : 6;
  if (ctx.operands.size() != expected || !rightAttr ||
      ctx.op->getNumResults() != 1 ||
      !isa<IntegerType>(ctx.op->getResult(0).getType()) ||
      !isa<MemRefType>(ctx.operands[1].getType()))
    return ctx.op->emitOpError("'bucketize' takes values, the boundaries "
                               "(buffer, size, numel, stride), the boundary "
                               "indices and, with a sorter, (buffer, "
                               "stride) and sorter indices");
  Type index = b.getIndexType();
  auto asIndex = [&](Value v) { return castIntegerLike(b, loc, v, index); };
  Value values = ctx.operands[0];
  Value boundaries = ctx.operands[1];
  Value size = asIndex(ctx.operands[2]);
  Value numel = asIndex(ctx.operands[3]);
  Value stride = asIndex(ctx.operands[4]);
  Value base = asIndex(ctx.operands[5]);
  Value sorterMemref, sorterStride, sorterBase;
  if (sorter) {
    sorterMemref = ctx.operands[6];
    sorterStride = asIndex(ctx.operands[7]);
    sorterBase = asIndex(ctx.operands[8]);
  }
  bool right = rightAttr.getValue();
  // Values and boundaries compare in their promoted type.
  Type boundaryType = cast<MemRefType>(boundaries.getType()).getElementType();
  Type cmpType = values.getType();
  if (isa<FloatType>(boundaryType) && !isa<FloatType>(cmpType))
    cmpType = boundaryType;
  else if (isa<FloatType>(boundaryType) == isa<FloatType>(cmpType) &&
           boundaryType.getIntOrFloatBitWidth() > cmpType.getIntOrFloatBitWidth())
    cmpType = boundaryType;
  values = emitTorchCast(b, loc, values, cmpType);

  Value c0 = createIntConstant(b, loc, index, 0);
  Value c1 = createIntConstant(b, loc, index, 1);
  Value c2 = createIntConstant(b, loc, index, 2);
  Value fullRange = arith::AddIOp::create(b, loc, size, c1);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{index, index, index}, ValueRange{c0, size, fullRange},
      [&](OpBuilder &cb, Location l, ValueRange args) {
        Value more =
            arith::CmpIOp::create(cb, l, arith::CmpIPredicate::ugt, args[2], c1);
        scf::ConditionOp::create(cb, l, more, args);
      },
      [&](OpBuilder &lb, Location l, ValueRange args) {
        Value low = args[0], high = args[1], range = args[2];
        Value mid = arith::DivUIOp::create(
            lb, l, arith::AddIOp::create(lb, l, low, high), c2);
        Value inStorage = arith::CmpIOp::create(
            lb, l, arith::CmpIPredicate::ult,
            arith::AddIOp::create(lb, l,
                                  arith::MulIOp::create(lb, l, mid, stride),
                                  base),
            numel);
        Value inRange =
            arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ult, mid, size);
        Value mask = arith::AndIOp::create(lb, l, inStorage, inRange);
        Value position = mid;
        if (sorter) {
          Value at = arith::AddIOp::create(
              lb, l, sorterBase,
              arith::MulIOp::create(lb, l, sorterStride, mid));
          position = asIndex(maskedLoad(lb, l, sorterMemref, at, mask));
        }
        Value at = arith::AddIOp::create(
            lb, l, base, arith::MulIOp::create(lb, l, stride, position));
        Value bound =
            emitTorchCast(lb, l, maskedLoad(lb, l, boundaries, at, mask),
                          cmpType);
        Value above;
        if (isa<FloatType>(cmpType))
          above = arith::CmpFOp::create(
              lb, l, right ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT,
              values, bound);
        else
          above = arith::CmpIOp::create(
              lb, l, right ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sgt,
              values, bound);
        Value goRight = arith::AndIOp::create(lb, l, above, mask);
        Value pastMid = arith::AddIOp::create(lb, l, mid, c1);
        Value newLow = arith::SelectOp::create(lb, l, goRight, pastMid, low);
        Value newHigh = arith::SelectOp::create(lb, l, above, high, mid);
        Value newRange = arith::DivUIOp::create(
            lb, l, arith::AddIOp::create(lb, l, range, c1), c2);
        scf::YieldOp::create(lb, l, ValueRange{newLow, newHigh, newRange});
      });
  return SmallVector<Value>{castIntegerLike(
      b, loc, loop.getResult(0), ctx.op->getResult(0).getType())};
}
