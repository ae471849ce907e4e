//===- ImportMathOps.cpp - Math with PyTorch semantics --------------------===//
//
// Translators of the operation table whose PyTorch semantics differ from
// one upstream op: fma, sign, signbit, shifts, rounding to integers,
// bitcasts, ldexp, isnan/isinf.
//
//===----------------------------------------------------------------------===//

#include "CreateOp.h"
#include "ImportInductorImpl.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

LogicalResult BodyImporter::translateFma(const OpCall &c, const OpDef &def) {
  FailureOr<SmallVector<Value, 3>> args = scalarArgs(c, 3);
  if (failed(args))
    return failure();
  Location l = loc(c.stmt.loc);
  Type type = promote(promote(torchType((*args)[0]), torchType((*args)[1])),
                      torchType((*args)[2]));
  if (type.isInteger(1))
    return error(c.call.loc()) << "'ops.fma' on boolean operands is not "
                                  "supported";
  Value a = convert((*args)[0], type, l), b = convert((*args)[1], type, l),
        x = convert((*args)[2], type, l);
  if (isa<FloatType>(type))
    c.result.value = createOp<math::FmaOp>(builder, l, a, b, x);
  else
    c.result.value = setTorchType(
        createOp<arith::AddIOp>(builder, l,
                                createOp<arith::MulIOp>(builder, l, a, b), x),
        type);
  return success();
}

LogicalResult BodyImporter::translateFloatBinary(const OpCall &c,
                                                 const OpDef &def) {
  FailureOr<std::pair<Value, Value>> xy = binaryOperands(c);
  if (failed(xy))
    return failure();
  Location l = loc(c.stmt.loc);
  Type type = floatTypeFor(promote(xy->first.getType(), xy->second.getType()));
  c.result.value = def.buildFloat(
      builder, l, {convert(xy->first, type, l), convert(xy->second, type, l)});
  return success();
}

LogicalResult BodyImporter::translateSign(const OpCall &c, const OpDef &def) {
  FailureOr<Value> x = unaryOperand(c);
  if (failed(x))
    return failure();
  Type type = x->getType();
  if (type.isInteger(1)) {
    c.result.value = *x;
    return success();
  }
  // Inductor's sign: (0 < x) - (x < 0) in x's type (0 for NaN).
  Location l = loc(c.stmt.loc);
  Value zero = constant(type, 0, l);
  Value pos, neg;
  if (isa<FloatType>(type)) {
    pos = createOp<arith::CmpFOp>(builder, l, arith::CmpFPredicate::OLT, zero,
                                  *x);
    neg = createOp<arith::CmpFOp>(builder, l, arith::CmpFPredicate::OLT, *x,
                                  zero);
  } else if (isUnsigned(*x)) {
    pos =
        createOp<arith::CmpIOp>(builder, l, arith::CmpIPredicate::ne, *x, zero);
    neg = createOp<arith::ConstantOp>(builder, l, builder.getBoolAttr(false));
  } else {
    pos = createOp<arith::CmpIOp>(builder, l, arith::CmpIPredicate::slt, zero,
                                  *x);
    neg = createOp<arith::CmpIOp>(builder, l, arith::CmpIPredicate::slt, *x,
                                  zero);
  }
  Type i8 = builder.getI8Type();
  // Sequenced: the order of the ops must not depend on the compiler.
  Value posI8 = convert(pos, i8, l);
  Value negI8 = convert(neg, i8, l);
  Value diff = createOp<arith::SubIOp>(builder, l, posI8, negI8);
  c.result.value = convert(diff, torchType(*x), l);
  return success();
}

LogicalResult BodyImporter::translateSignbit(const OpCall &c,
                                             const OpDef &def) {
  FailureOr<Value> x = unaryOperand(c);
  if (failed(x))
    return failure();
  Location l = loc(c.stmt.loc);
  Type type = x->getType();
  if (type.isInteger(1) || isUnsigned(*x)) {
    c.result.value =
        createOp<arith::ConstantOp>(builder, l, builder.getBoolAttr(false));
    return success();
  }
  Value bits = *x;
  if (isa<FloatType>(type)) {
    // The sign bit itself, so -0.0 and negative NaNs count.
    bits = createOp<arith::BitcastOp>(
        builder, l, builder.getIntegerType(type.getIntOrFloatBitWidth()), *x);
  }
  c.result.value =
      createOp<arith::CmpIOp>(builder, l, arith::CmpIPredicate::slt, bits,
                              constant(bits.getType(), 0, l));
  return success();
}

LogicalResult BodyImporter::translateFloatClass(const OpCall &c,
                                                const OpDef &def) {
  FailureOr<Value> x = unaryOperand(c);
  if (failed(x))
    return failure();
  Location l = loc(c.stmt.loc);
  if (!isa<FloatType>(x->getType())) {
    // Integers are never NaN or infinite.
    c.result.value =
        createOp<arith::ConstantOp>(builder, l, builder.getBoolAttr(false));
    return success();
  }
  c.result.value = def.buildFloat(builder, l, *x);
  return success();
}

LogicalResult BodyImporter::translateShift(const OpCall &c, const OpDef &def) {
  FailureOr<std::pair<Value, Value>> xy = binaryOperands(c);
  if (failed(xy))
    return failure();
  Location l = loc(c.stmt.loc);
  Type type = promote(torchType(xy->first), torchType(xy->second));
  if (!isa<IntegerType>(type) || type.isInteger(1))
    return error(c.call.loc())
           << "'ops." << c.name << "' needs integer operands, got " << type;
  Value a = convert(xy->first, type, l), b = convert(xy->second, type, l);
  // PyTorch: a shift by a negative amount or by the width or more gives 0
  // (left) or the sign (right; 0 for unsigned); arith's shifts are poison
  // there.
  unsigned width = type.getIntOrFloatBitWidth();
  bool isUnsignedType = type.isUnsignedInteger();
  Value inRange = createOp<arith::CmpIOp>(builder, l, arith::CmpIPredicate::ult,
                                          b, constant(type, width, l));
  bool left = c.name == "lshift" || c.name == "bitwise_left_shift";
  Value shifted, saturated;
  if (left) {
    shifted = createOp<arith::ShLIOp>(builder, l, a, b);
    saturated = constant(type, 0, l);
  } else if (isUnsignedType) {
    shifted = createOp<arith::ShRUIOp>(builder, l, a, b);
    saturated = constant(type, 0, l);
  } else {
    shifted = createOp<arith::ShRSIOp>(builder, l, a, b);
    saturated =
        createOp<arith::ShRSIOp>(builder, l, a, constant(type, width - 1, l));
  }
  c.result.value = setTorchType(
      createOp<arith::SelectOp>(builder, l, inRange, shifted, saturated), type);
  return success();
}

LogicalResult BodyImporter::translateToInt(const OpCall &c, const OpDef &def) {
  if (failed(expectArgs(c.call, 2, 2)))
    return failure();
  FailureOr<Value> x = scalar(c.call.elements[0], c.env);
  if (failed(x))
    return failure();
  FailureOr<Type> type = dtypeArg(c.call.elements[1]);
  if (failed(type))
    return failure();
  if (!isa<IntegerType>(*type) || type->isInteger(1))
    return error(c.call.elements[1]->loc())
           << "'ops." << c.name << "' converts to an integer dtype, not "
           << *type;
  Location l = loc(c.stmt.loc);
  Value v = *x;
  if (isa<FloatType>(v.getType()))
    v = def.buildFloat(builder, l, v); // Rounded: the cast is then exact.
  c.result.value = convert(v, *type, l);
  return success();
}

LogicalResult BodyImporter::translateBitcast(const OpCall &c,
                                             const OpDef &def) {
  if (failed(expectArgs(c.call, 3, 3)))
    return failure();
  FailureOr<Value> x = scalar(c.call.elements[0], c.env);
  if (failed(x))
    return failure();
  FailureOr<Type> type = dtypeArg(c.call.elements[1]);
  if (failed(type))
    return failure();
  FailureOr<Type> src = dtypeArg(c.call.elements[2]);
  if (failed(src))
    return failure();
  Location l = loc(c.stmt.loc);
  Value v = convert(*x, *src, l);
  if (src->getIntOrFloatBitWidth() != type->getIntOrFloatBitWidth() ||
      src->isInteger(1) || type->isInteger(1))
    return error(c.call.loc())
           << "'ops.to_dtype_bitcast' reinterprets between types of one "
              "width (not bool), got "
           << c.call.elements[2]->text << " ("
           << src->getIntOrFloatBitWidth() << " bits) to "
           << c.call.elements[1]->text << " ("
           << type->getIntOrFloatBitWidth() << " bits)";
  c.result.value =
      *src == *type
          ? v
          : setTorchType(createOp<arith::BitcastOp>(
                             builder, l, BufferType::getValueTypeOf(*type), v),
                         *type);
  return success();
}

LogicalResult BodyImporter::translateLdexp(const OpCall &c, const OpDef &def) {
  FailureOr<std::pair<Value, Value>> xy = binaryOperands(c);
  if (failed(xy))
    return failure();
  Location l = loc(c.stmt.loc);
  Type type = floatTypeFor(xy->first.getType());
  if (!isa<IntegerType>(xy->second.getType()))
    return error(c.call.elements[1]->loc())
           << "'ops.ldexp' needs an integer exponent, got "
           << xy->second.getType();
  // x * 2^n: exact while 2^n is a finite value of the type.
  Value scale =
      createOp<math::Exp2Op>(builder, l, convert(xy->second, type, l));
  c.result.value =
      createOp<arith::MulFOp>(builder, l, convert(xy->first, type, l), scale);
  return success();
}
