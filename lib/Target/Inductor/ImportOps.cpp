//===- ImportOps.cpp - The operation table --------------------------------===//
//
// One row per `ops.<name>` of Inductor's OpsHandler that a loop body can
// call: the row names the translator and, for elementwise operations, the
// op it builds on float and on integer operands. Adding an operation is
// adding a row. docs/Importer.md lists the rows with their status.
//
//===----------------------------------------------------------------------===//

#include "CreateOp.h"
#include "ImportInductorImpl.h"
#include "ReductionTypes.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

//===----------------------------------------------------------------------===//
// Builders of elementwise rows
//===----------------------------------------------------------------------===//

template <typename OpTy>
static Value unary(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<OpTy>(b, l, v[0]);
}

template <typename OpTy>
static Value binary(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<OpTy>(b, l, v[0], v[1]);
}

/// A zero of `type` (an integer or float type).
static Value zero(BodyBuilder &b, Location l, Type type) {
  if (auto ft = dyn_cast<FloatType>(type))
    return createOp<arith::ConstantOp>(b, l, b.floatAttr(ft, 0.0));
  return createOp<arith::ConstantOp>(b, l, b.getIntegerAttr(type, 0));
}

static Value floatOne(BodyBuilder &b, Location l, Type type) {
  return createOp<arith::ConstantOp>(b, l, b.floatAttr(type, 1.0));
}

static Value reciprocal(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<arith::DivFOp>(b, l, floatOne(b, l, v[0].getType()), v[0]);
}

/// 1 / (1 + exp(-x))
static Value sigmoid(BodyBuilder &b, Location l, ValueRange v) {
  Value e = createOp<math::ExpOp>(b, l, createOp<arith::NegFOp>(b, l, v[0]));
  Value c1 = floatOne(b, l, v[0].getType());
  return createOp<arith::DivFOp>(b, l, c1,
                                 createOp<arith::AddFOp>(b, l, c1, e));
}

static Value negInt(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<arith::SubIOp>(b, l, zero(b, l, v[0].getType()), v[0]);
}

static Value reluFloat(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<arith::MaximumFOp>(b, l, v[0], zero(b, l, v[0].getType()));
}

static Value reluInt(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<arith::MaxSIOp>(b, l, v[0], zero(b, l, v[0].getType()));
}

static Value squareFloat(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<arith::MulFOp>(b, l, v[0], v[0]);
}

static Value squareInt(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<arith::MulIOp>(b, l, v[0], v[0]);
}

/// Python's float `//`: floor of the quotient.
static Value floorDivFloat(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<math::FloorOp>(b, l,
                                 createOp<arith::DivFOp>(b, l, v[0], v[1]));
}

/// |x| == inf (math.isinf has no lowering in the CPU pipeline).
static Value isInf(BodyBuilder &b, Location l, ValueRange v) {
  auto type = cast<FloatType>(v[0].getType());
  Value inf = createOp<arith::ConstantOp>(
      b, l, b.getFloatAttr(type, APFloat::getInf(type.getFloatSemantics())));
  Value abs = createOp<math::AbsFOp>(b, l, v[0]);
  return createOp<arith::CmpFOp>(b, l, arith::CmpFPredicate::OEQ, abs, inf);
}

/// C's truncating division of floats: trunc(a / b).
static Value truncDivFloat(BodyBuilder &b, Location l, ValueRange v) {
  return createOp<math::TruncOp>(b, l,
                                 createOp<arith::DivFOp>(b, l, v[0], v[1]));
}

Value mlir::fusion::inductor::buildPythonMod(BodyBuilder &b, Location l,
                                             Value a, Value d) {
  bool isFloat = isa<FloatType>(a.getType());
  Value r = isFloat ? Value(createOp<arith::RemFOp>(b, l, a, d))
                    : Value(createOp<arith::RemSIOp>(b, l, a, d));
  Value zero = createOp<arith::ConstantOp>(b, l, b.getZeroAttr(a.getType()));
  Value nonZero, rNeg, dNeg;
  if (isFloat) {
    nonZero = createOp<arith::CmpFOp>(b, l, arith::CmpFPredicate::UNE, r, zero);
    rNeg = createOp<arith::CmpFOp>(b, l, arith::CmpFPredicate::OLT, r, zero);
    dNeg = createOp<arith::CmpFOp>(b, l, arith::CmpFPredicate::OLT, d, zero);
  } else {
    nonZero = createOp<arith::CmpIOp>(b, l, arith::CmpIPredicate::ne, r, zero);
    rNeg = createOp<arith::CmpIOp>(b, l, arith::CmpIPredicate::slt, r, zero);
    dNeg = createOp<arith::CmpIOp>(b, l, arith::CmpIPredicate::slt, d, zero);
  }
  Value fix = createOp<arith::AndIOp>(
      b, l, nonZero, createOp<arith::XOrIOp>(b, l, rNeg, dNeg));
  Value adjusted = isFloat ? Value(createOp<arith::AddFOp>(b, l, r, d))
                           : Value(createOp<arith::AddIOp>(b, l, r, d));
  return createOp<arith::SelectOp>(b, l, fix, adjusted, r);
}

static Value pythonMod(BodyBuilder &b, Location l, ValueRange v) {
  return buildPythonMod(b, l, v[0], v[1]);
}

/// a ** b of unsigned integers: modulo 2^N, so computed on the zero-extended
/// values (math.ipowi reads its exponent as signed).
static Value powUnsigned(BodyBuilder &b, Location l, ValueRange v) {
  Type type = v[0].getType(), i64 = b.getI64Type();
  if (type.isInteger(64))
    return createOp<math::IPowIOp>(b, l, v[0], v[1]);
  Value base = createOp<arith::ExtUIOp>(b, l, i64, v[0]);
  Value exponent = createOp<arith::ExtUIOp>(b, l, i64, v[1]);
  Value p = createOp<math::IPowIOp>(b, l, base, exponent);
  return createOp<arith::TruncIOp>(b, l, type, p);
}

Value mlir::fusion::inductor::flipSignBit(BodyBuilder &b, Location l, Value x) {
  auto type = cast<IntegerType>(x.getType());
  Value bit = createOp<arith::ConstantOp>(
      b, l, b.getIntegerAttr(type, APInt::getSignMask(type.getWidth())));
  return createOp<arith::XOrIOp>(b, l, x, bit);
}

/// The rows whose integer op differs for unsigned operands (the others
/// compute the same bits either way).
static OpBuilderFn unsignedBuilder(StringRef name) {
  return llvm::StringSwitch<OpBuilderFn>(name)
      .Cases({"floordiv", "truncdiv"}, binary<arith::DivUIOp>)
      .Cases({"mod", "fmod", "remainder"}, binary<arith::RemUIOp>)
      .Case("maximum", binary<arith::MaxUIOp>)
      .Case("minimum", binary<arith::MinUIOp>)
      .Case("pow", powUnsigned)
      .Default(nullptr);
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

using BI = BodyImporter;

static const OpDef kOpTable[] = {
    {"abs", &BI::translateUnary, unary<math::AbsFOp>, unary<math::AbsIOp>},
    {"acos", &BI::translateFloatUnary, unary<math::AcosOp>},
    {"acosh", &BI::translateFloatUnary, unary<math::AcoshOp>},
    {"add", &BI::translateArithmetic, binary<arith::AddFOp>,
     binary<arith::AddIOp>},
    {"airy_ai", &BI::translateSpecial, nullptr, nullptr, 1},
    {"and_", &BI::translateBitwise, nullptr, binary<arith::AndIOp>},
    {"asin", &BI::translateFloatUnary, unary<math::AsinOp>},
    {"asinh", &BI::translateFloatUnary, unary<math::AsinhOp>},
    {"atan", &BI::translateFloatUnary, unary<math::AtanOp>},
    {"atan2", &BI::translateFloatBinary, binary<math::Atan2Op>},
    {"atanh", &BI::translateFloatUnary, unary<math::AtanhOp>},
    {"bessel_j0", &BI::translateSpecial, nullptr, nullptr, 1},
    {"bessel_j1", &BI::translateSpecial, nullptr, nullptr, 1},
    {"bessel_y0", &BI::translateSpecial, nullptr, nullptr, 1},
    {"bessel_y1", &BI::translateSpecial, nullptr, nullptr, 1},
    {"bitwise_and", &BI::translateBitwise, nullptr, binary<arith::AndIOp>},
    {"bitwise_left_shift", &BI::translateShift},
    {"bitwise_not", &BI::translateBitwiseNot},
    {"bitwise_or", &BI::translateBitwise, nullptr, binary<arith::OrIOp>},
    {"bitwise_right_shift", &BI::translateShift},
    {"bitwise_xor", &BI::translateBitwise, nullptr, binary<arith::XOrIOp>},
    {"bucketize", &BI::translateBucketize},
    {"ceil", &BI::translateFloatUnary, unary<math::CeilOp>},
    {"ceil_to_int", &BI::translateToInt, unary<math::CeilOp>},
    {"chebyshev_polynomial_t", &BI::translateSpecial, nullptr, nullptr, 2},
    {"chebyshev_polynomial_u", &BI::translateSpecial, nullptr, nullptr, 2},
    {"chebyshev_polynomial_v", &BI::translateSpecial, nullptr, nullptr, 2},
    {"chebyshev_polynomial_w", &BI::translateSpecial, nullptr, nullptr, 2},
    {"check_bounds", &BI::translateCheckBounds},
    {"constant", &BI::translateConstant},
    {"copysign", &BI::translateFloatBinary, binary<math::CopySignOp>},
    {"cos", &BI::translateFloatUnary, unary<math::CosOp>},
    {"cosh", &BI::translateFloatUnary, unary<math::CoshOp>},
    {"device_assert_async", &BI::translateDeviceAssert},
    {"digamma", &BI::translateSpecial, nullptr, nullptr, 1},
    {"div_rn", &BI::translateArithmetic, binary<arith::DivFOp>},
    {"dot", &BI::translateDot},
    {"eq", &BI::translateCompare},
    {"erf", &BI::translateFloatUnary, unary<math::ErfOp>},
    {"erfc", &BI::translateFloatUnary, unary<math::ErfcOp>},
    {"erfcx", &BI::translateSpecial, nullptr, nullptr, 1},
    {"erfinv", &BI::translateSpecial, nullptr, nullptr, 1},
    {"exp", &BI::translateFloatUnary, unary<math::ExpOp>},
    {"exp2", &BI::translateFloatUnary, unary<math::Exp2Op>},
    {"expm1", &BI::translateFloatUnary, unary<math::ExpM1Op>},
    {"floor", &BI::translateFloatUnary, unary<math::FloorOp>},
    {"floor_to_int", &BI::translateToInt, unary<math::FloorOp>},
    {"floordiv", &BI::translateArithmetic, floorDivFloat,
     binary<arith::FloorDivSIOp>},
    {"fma", &BI::translateFma},
    {"fmod", &BI::translateArithmetic, binary<arith::RemFOp>,
     binary<arith::RemSIOp>},
    {"frexp", &BI::translateFrexp},
    {"gammainc", &BI::translateSpecial, nullptr, nullptr, 2},
    {"gammaincc", &BI::translateSpecial, nullptr, nullptr, 2},
    {"ge", &BI::translateCompare},
    {"gt", &BI::translateCompare},
    {"halide_clamp", &BI::translateHalideClamp},
    {"hermite_polynomial_h", &BI::translateSpecial, nullptr, nullptr, 2},
    {"hermite_polynomial_he", &BI::translateSpecial, nullptr, nullptr, 2},
    {"hypot", &BI::translateSpecial, nullptr, nullptr, 2},
    {"i0", &BI::translateSpecial, nullptr, nullptr, 1},
    {"i0e", &BI::translateSpecial, nullptr, nullptr, 1},
    {"i1", &BI::translateSpecial, nullptr, nullptr, 1},
    {"i1e", &BI::translateSpecial, nullptr, nullptr, 1},
    {"identity", &BI::translateIdentity},
    {"igamma", &BI::translateSpecial, nullptr, nullptr, 2},
    {"igammac", &BI::translateSpecial, nullptr, nullptr, 2},
    {"index_expr", &BI::translateIndexExpr},
    {"inline_asm_elementwise", &BI::translateInlineAsm},
    {"int_truediv", &BI::translateArithmetic, binary<arith::DivFOp>},
    {"isinf", &BI::translateFloatClass, isInf},
    {"isnan", &BI::translateFloatClass, unary<math::IsNaNOp>},
    {"laguerre_polynomial_l", &BI::translateSpecial, nullptr, nullptr, 2},
    {"ldexp", &BI::translateLdexp},
    {"le", &BI::translateCompare},
    {"legendre_polynomial_p", &BI::translateSpecial, nullptr, nullptr, 2},
    {"lgamma", &BI::translateSpecial, nullptr, nullptr, 1},
    {"load", &BI::translateLoad},
    {"load_seed", &BI::translateLoad},
    {"log", &BI::translateFloatUnary, unary<math::LogOp>},
    {"log10", &BI::translateFloatUnary, unary<math::Log10Op>},
    {"log1p", &BI::translateFloatUnary, unary<math::Log1pOp>},
    {"log2", &BI::translateFloatUnary, unary<math::Log2Op>},
    {"log_ndtr", &BI::translateSpecial, nullptr, nullptr, 1},
    {"logical_and", &BI::translateLogical, nullptr, binary<arith::AndIOp>},
    {"logical_not", &BI::translateLogicalNot},
    {"logical_or", &BI::translateLogical, nullptr, binary<arith::OrIOp>},
    {"logical_xor", &BI::translateLogical, nullptr, binary<arith::XOrIOp>},
    {"lshift", &BI::translateShift},
    {"lt", &BI::translateCompare},
    {"maximum", &BI::translateArithmetic, binary<arith::MaximumFOp>,
     binary<arith::MaxSIOp>},
    {"minimum", &BI::translateArithmetic, binary<arith::MinimumFOp>,
     binary<arith::MinSIOp>},
    {"mod", &BI::translateArithmetic, binary<arith::RemFOp>,
     binary<arith::RemSIOp>},
    {"modified_bessel_i0", &BI::translateSpecial, nullptr, nullptr, 1},
    {"modified_bessel_i1", &BI::translateSpecial, nullptr, nullptr, 1},
    {"modified_bessel_k0", &BI::translateSpecial, nullptr, nullptr, 1},
    {"modified_bessel_k1", &BI::translateSpecial, nullptr, nullptr, 1},
    {"mul", &BI::translateArithmetic, binary<arith::MulFOp>,
     binary<arith::MulIOp>},
    {"mul_rn", &BI::translateArithmetic, binary<arith::MulFOp>,
     binary<arith::MulIOp>},
    {"ndtr", &BI::translateSpecial, nullptr, nullptr, 1},
    {"ndtri", &BI::translateSpecial, nullptr, nullptr, 1},
    {"ne", &BI::translateCompare},
    {"neg", &BI::translateUnary, unary<arith::NegFOp>, negInt},
    {"nextafter", &BI::translateSpecial, nullptr, nullptr, 2},
    {"or_", &BI::translateBitwise, nullptr, binary<arith::OrIOp>},
    {"polygamma", &BI::translateSpecial, nullptr, nullptr, 2},
    {"pow", &BI::translateArithmetic, binary<math::PowFOp>,
     binary<math::IPowIOp>},
    {"rand", &BI::translateRand},
    {"rand_eager", &BI::translateRandom},
    {"randint64", &BI::translateRandom},
    {"randn", &BI::translateRandom},
    {"reciprocal", &BI::translateFloatUnary, reciprocal},
    {"reduction", &BI::translateReduction},
    {"relu", &BI::translateUnary, reluFloat, reluInt},
    {"remainder", &BI::translateArithmetic, pythonMod, pythonMod},
    {"round", &BI::translateFloatUnary, unary<math::RoundEvenOp>},
    {"round_to_int", &BI::translateToInt, unary<math::RoundEvenOp>},
    {"rshift", &BI::translateShift},
    {"rsqrt", &BI::translateFloatUnary, unary<math::RsqrtOp>},
    {"scaled_modified_bessel_k0", &BI::translateSpecial, nullptr, nullptr, 1},
    {"scaled_modified_bessel_k1", &BI::translateSpecial, nullptr, nullptr, 1},
    {"shifted_chebyshev_polynomial_t", &BI::translateSpecial, nullptr, nullptr,
     2},
    {"shifted_chebyshev_polynomial_u", &BI::translateSpecial, nullptr, nullptr,
     2},
    {"shifted_chebyshev_polynomial_v", &BI::translateSpecial, nullptr, nullptr,
     2},
    {"shifted_chebyshev_polynomial_w", &BI::translateSpecial, nullptr, nullptr,
     2},
    {"sigmoid", &BI::translateFloatUnary, sigmoid},
    {"sign", &BI::translateSign},
    {"signbit", &BI::translateSignbit},
    {"sin", &BI::translateFloatUnary, unary<math::SinOp>},
    {"sinh", &BI::translateFloatUnary, unary<math::SinhOp>},
    {"sort", &BI::translateSort},
    {"spherical_bessel_j0", &BI::translateSpecial, nullptr, nullptr, 1},
    {"sqrt", &BI::translateFloatUnary, unary<math::SqrtOp>},
    {"square", &BI::translateUnary, squareFloat, squareInt},
    {"store", &BI::translateStore},
    {"store_reduction", &BI::translateStore},
    {"sub", &BI::translateArithmetic, binary<arith::SubFOp>,
     binary<arith::SubIOp>},
    {"tan", &BI::translateFloatUnary, unary<math::TanOp>},
    {"tanh", &BI::translateFloatUnary, unary<math::TanhOp>},
    {"to_dtype", &BI::translateToDtype},
    {"to_dtype_bitcast", &BI::translateBitcast},
    {"truediv", &BI::translateArithmetic, binary<arith::DivFOp>},
    {"trunc", &BI::translateFloatUnary, unary<math::TruncOp>},
    {"trunc_to_int", &BI::translateToInt, unary<math::TruncOp>},
    {"truncdiv", &BI::translateArithmetic, truncDivFloat,
     binary<arith::DivSIOp>},
    {"where", &BI::translateWhere},
    {"xor", &BI::translateBitwise, nullptr, binary<arith::XOrIOp>},
    {"zeta", &BI::translateSpecial, nullptr, nullptr, 2},
};

ArrayRef<OpDef> mlir::fusion::inductor::getOpTable() { return kOpTable; }

/// Inductor's reduction types that are a fusion.reduce kind of another
/// name: `dot`, the reduction of a native matmul
/// (config.triton.native_matmul), sums the `ops.dot` products along the
/// reduction loops (Triton accumulates tl.dot tiles; the scheduler only asks
/// whether a node's reduction type is "dot", is_native_matmul).
static const ReductionAlias kReductionAliases[] = {
    {"dot", ReduceKind::Sum},
};

ArrayRef<ReductionAlias> mlir::fusion::inductor::getReductionAliases() {
  return kReductionAliases;
}

std::optional<ReduceKind>
mlir::fusion::inductor::lookupReductionType(StringRef name) {
  for (const ReductionAlias &alias : kReductionAliases)
    if (alias.name == name)
      return alias.kind;
  return symbolizeReduceKind(name);
}

/// The bucket of lookupOp's table that a name falls in: its first and last
/// characters and its length, which the table's names mostly differ in.
static unsigned opBucket(StringRef name) {
  return (static_cast<unsigned char>(name.front()) * 31u +
          static_cast<unsigned char>(name.back()) * 7u + name.size()) &
         255u;
}

const OpDef *mlir::fusion::inductor::lookupOp(StringRef name) {
  // The rows by a cheap hash of the name, then compared whole: a
  // statement's operation is looked up once, and hashing the whole name
  // for a StringMap cost more than this; the 256 buckets leave about one
  // row in each.
  struct Buckets {
    SmallVector<const OpDef *, 2> rows[256];
  };
  static const Buckets table = [] {
    Buckets t;
    for (const OpDef &def : kOpTable)
      t.rows[opBucket(def.name)].push_back(&def);
    return t;
  }();
  if (name.empty())
    return nullptr;
  for (const OpDef *def : table.rows[opBucket(name)])
    if (def->name == name)
      return def;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Translators
//===----------------------------------------------------------------------===//

/// fusion.load, fusion.store and fusion.index_expr as their ODS builders
/// make them (operands in order, result type, `map` and a store's `mode`,
/// and nothing else: the static_asserts catch a property added to them),
/// created directly (createDirect) rather than through an OperationState.
/// They are about a third of a body's ops.
template <typename OpTy>
static OpTy createAccess(BodyBuilder &b, Location l, TypeRange types,
                         ArrayRef<Value> leading, ValueRange indices,
                         typename OpTy::Properties &properties) {
  SmallVector<Value, 8> operands(leading);
  operands.append(indices.begin(), indices.end());
  return createDirect<OpTy>(b, l, types, operands, properties);
}

static LoadOp createLoad(BodyBuilder &b, Location l, Type type, Value buffer,
                         ValueRange indices, AffineMapAttr map) {
  static_assert(sizeof(LoadOp::Properties) == sizeof(AffineMapAttr));
  LoadOp::Properties properties{};
  properties.map = map;
  if (LoadOp op =
          createAccess<LoadOp>(b, l, type, buffer, indices, properties))
    return op;
  return createOp<LoadOp>(b, l, type, buffer, indices, map);
}

static StoreOp createStore(BodyBuilder &b, Location l, Value value,
                           Value buffer, ValueRange indices, AffineMapAttr map,
                           StoreModeAttr mode) {
  static_assert(sizeof(StoreOp::Properties) ==
                sizeof(AffineMapAttr) + sizeof(StoreModeAttr));
  StoreOp::Properties properties{};
  properties.map = map;
  properties.mode = mode;
  Value leading[] = {value, buffer};
  if (StoreOp op =
          createAccess<StoreOp>(b, l, {}, leading, indices, properties))
    return op;
  return createOp<StoreOp>(b, l, value, buffer, indices, map, mode);
}

static IndexExprOp createIndexExpr(BodyBuilder &b, Location l, Type type,
                                   ValueRange indices, AffineMapAttr map) {
  static_assert(sizeof(IndexExprOp::Properties) == sizeof(AffineMapAttr));
  IndexExprOp::Properties properties{};
  properties.map = map;
  if (IndexExprOp op =
          createAccess<IndexExprOp>(b, l, type, {}, indices, properties))
    return op;
  return createOp<IndexExprOp>(b, l, type, indices, map);
}

/// The entry of `target` in `env` for a statement translated directly (its
/// kind Nothing until bound): one probe of the table where looking the
/// target up and binding it would make two. Null where `target` is bound
/// already, which the general path reports. The direct translations bind
/// no other name, so the entry stays where it is.
static BodyValue *claimTarget(BodyEnv &env, StringRef target) {
  auto [it, inserted] = env.try_emplace(target);
  return inserted ? &it->second : nullptr;
}

/// The loop-index entry `name` is bound to in `env`, if it is one.
static std::optional<unsigned> boundIndex(const BodyEnv &env, StringRef name) {
  auto it = env.find(name);
  if (it == env.end() || it->second.kind != BodyValue::Index)
    return std::nullopt;
  return it->second.index;
}

/// Ends the direct translation of a statement that binds `bound` (claimed
/// by claimTarget) to a scalar: to `value`, or, where that failed (its
/// error reported), to nothing, with `result` failed. True: the statement
/// is taken either way.
static bool bindDirect(BodyValue &bound, FailureOr<Value> value,
                       LogicalResult &result) {
  result = success(succeeded(value));
  if (succeeded(value)) {
    bound.kind = BodyValue::Scalar;
    bound.value = *value;
  }
  return true;
}

/// Reads `'<text>'` off the front of `args` into `text` when the value
/// parser would read it as that string: no escape, newline or other quote
/// inside.
static bool consumeQuoted(StringRef &args, StringRef &text) {
  if (args.empty() || args.front() != '\'')
    return false;
  size_t close = args.find('\'', 1);
  if (close == StringRef::npos || !isPlainQuoted(args.slice(1, close)))
    return false;
  text = args.slice(1, close);
  args = args.drop_front(close + 1);
  return true;
}

/// Whether `name` (`torch.float32`) is a dtype name as the value parser
/// reads one.
static bool isDtypeName(StringRef name) {
  if (!name.consume_front("torch.") || name.empty())
    return false;
  for (char c : name)
    if (!isIdentChar(c) && c != '.')
      return false;
  return true;
}

FailureOr<Value> BodyImporter::readBuffer(const PyValue *arg,
                                          StringRef opName) {
  FailureOr<StringRef> buf = stringArg(arg, "a buffer name");
  if (failed(buf))
    return failure();
  return readBuffer(*buf, arg->loc(), opName);
}

FailureOr<Value> BodyImporter::readBuffer(StringRef buf, const char *at,
                                          StringRef opName) {
  StringRef renamed = graph.renameAt(buf, version);
  if (!depNames.contains(renamed))
    return error(at) << "'ops." << opName << "' of '" << buf
                     << "' reads buffer '" << renamed
                     << "', but the dependences of '" << node.name
                     << "' do not mention '" << renamed << "'";
  FailureOr<Value> buffer = graph.lookupBufferAt(renamed, at, version, locator);
  if (failed(buffer))
    return failure();
  auto type = dyn_cast<BufferType>(buffer->getType());
  if (!type)
    return error(at) << "cannot load from '" << renamed
                     << "', a multi-output tuple";
  if (!BufferType::isValidValueType(type.getValueType()))
    return complexInBody(at, renamed, type.getElementType());
  return placeholders ? placeholders->get(*buffer) : *buffer;
}

FailureOr<Value> BodyImporter::indexValue(unsigned index, const char *at,
                                          Type type, Location l) {
  AffineMap map;
  SmallVector<Value> operands;
  if (failed(buildIndex(index, at, map, operands)))
    return failure();
  return Value(
      createIndexExpr(builder, l, type, operands, indexMapAttr(map)));
}

LogicalResult BodyImporter::translateLoad(const OpCall &c, const OpDef &def) {
  const PyValue &call = c.call;
  if (failed(expectArgs(call, 2, 2)))
    return failure();
  if (c.name == "load") {
    FailureOr<StringRef> buf = stringArg(call.elements[0], "a buffer name");
    if (failed(buf))
      return failure();
    FailureOr<Value> buffer = readBuffer(*buf, call.elements[0]->loc(), c.name);
    if (failed(buffer))
      return failure();
    FailureOr<unsigned> index = indexRef(call.elements[1], c.env);
    if (failed(index))
      return failure();
    FailureOr<Value> loaded =
        load(c.stmt, *buffer, *index, call.elements[1]->loc());
    if (failed(loaded))
      return failure();
    c.result.value = *loaded;
    return success();
  }
  FailureOr<Value> buffer = readBuffer(call.elements[0], c.name);
  if (failed(buffer))
    return failure();
  const PyValue *offset = call.elements[1];
  if (offset->kind != PyValue::Kind::Int || offset->intValue < 0)
    return error(offset->loc())
           << "expected a non-negative seed offset, found " << offset->text;
  AffineMap map = AffineMap::get(
      0, 0, getAffineConstantExpr(offset->intValue, op.getContext()));
  auto bufferType = cast<BufferType>(buffer->getType());
  c.result.value = setTorchType(createLoad(builder, loc(c.stmt.loc),
                                           bufferType.getValueType(), *buffer,
                                           {}, indexMapAttr(map)),
                                bodyDtypeOf(bufferType.getElementType()));
  return success();
}

FailureOr<Value> BodyImporter::load(const DumpStmt &stmt, Value buffer,
                                    unsigned index, const char *indexAt) {
  AffineMap map;
  SmallVector<Value> operands;
  if (failed(buildIndex(index, indexAt, map, operands)))
    return failure();
  auto bufferType = cast<BufferType>(buffer.getType());
  return setTorchType(createLoad(builder, loc(stmt.loc),
                                 bufferType.getValueType(), buffer, operands,
                                 indexMapAttr(map)),
                      bodyDtypeOf(bufferType.getElementType()));
}

bool BodyImporter::loadDirect(const DumpStmt &stmt, StringRef args,
                              BodyEnv &env, LogicalResult &result) {
  // `'<buffer>', <index>`
  const char *bufferAt = args.data();
  StringRef buf;
  if (!consumeQuoted(args, buf) || !args.consume_front(", "))
    return false;
  StringRef text = args;
  if (!isValueName(text))
    return false;
  std::optional<unsigned> index = boundIndex(env, text);
  if (!index)
    return false;
  BodyValue *bound = claimTarget(env, stmt.target);
  if (!bound)
    return false;
  FailureOr<Value> buffer = readBuffer(buf, bufferAt, "load");
  if (failed(buffer))
    return bindDirect(*bound, failure(), result);
  return bindDirect(*bound, load(stmt, *buffer, *index, text.data()), result);
}

LogicalResult BodyImporter::translateStore(const OpCall &c, const OpDef &def) {
  const PyValue &call = c.call;
  BodyEnv &env = c.env;
  BodyValue &result = c.result;
  auto operand = [&](unsigned i) { return scalar(call.elements[i], env); };
  bool isStore = c.name == "store";
  if (failed(expectArgs(call, 3, isStore ? 4 : 3, {"mode"})))
    return failure();
  FailureOr<StringRef> buf = stringArg(call.elements[0], "a buffer name");
  if (failed(buf))
    return failure();
  FailureOr<BlockArgument> handle = outputHandle(*buf, call.elements[0]->loc());
  if (failed(handle))
    return failure();
  FailureOr<unsigned> index = indexRef(call.elements[1], env);
  if (failed(index))
    return failure();
  FailureOr<Value> value = operand(2);
  if (failed(value))
    return failure();
  const PyValue *modeArg =
      call.elements.size() == 4 ? call.elements[3] : nullptr;
  for (auto &[key, v] : call.keywords)
    modeArg = v;
  // Inductor's StoreMode: None, 'atomic_add', or 'tma' (a store through a
  // tensor descriptor: the same elements get the same values, a plain
  // store for the scheduler and the lowerings).
  StoreModeAttr mode;
  if (modeArg && !modeArg->isNone()) {
    bool known = modeArg->kind == PyValue::Kind::String &&
                 (modeArg->str == "atomic_add" || modeArg->str == "tma");
    if (!known)
      return error(modeArg->loc()) << "unsupported store mode " << modeArg->text
                                   << " (expected None, 'atomic_add' or 'tma')";
    if (modeArg->str == "atomic_add")
      mode = StoreModeAttr::get(op.getContext(), StoreMode::AtomicAdd);
  }
  if (failed(store(c.stmt, *handle, *index, call.elements[1]->loc(), *value,
                   mode)))
    return failure();
  result.kind = BodyValue::Nothing;
  return success();
}

FailureOr<BlockArgument> BodyImporter::outputHandle(StringRef buf,
                                                    const char *at) {
  auto *output = llvm::find_if(
      node.outputs, [&](const DumpBuffer &b) { return b.name == buf; });
  if (output == node.outputs.end())
    return error(at) << "'" << node.name << "' stores to '" << buf
                     << "', which is not one of its outputs";
  BlockArgument handle = op.getOutputHandles()[output - node.outputs.begin()];
  if (auto type = dyn_cast<BufferType>(handle.getType());
      type && !BufferType::isValidValueType(type.getValueType()))
    return complexInBody(at, buf, type.getElementType());
  return handle;
}

LogicalResult BodyImporter::store(const DumpStmt &stmt, BlockArgument handle,
                                  unsigned index, const char *indexAt,
                                  Value value, StoreModeAttr mode) {
  Location l = loc(stmt.loc);
  AffineMap map;
  SmallVector<Value> operands;
  if (failed(buildIndex(index, indexAt, map, operands)))
    return failure();
  Type element =
      bodyDtypeOf(llvm::cast<BufferType>(handle.getType()).getElementType());
  createStore(builder, l, convert(value, element, l), handle, operands,
              indexMapAttr(map), mode);
  return success();
}

bool BodyImporter::storeDirect(const DumpStmt &stmt, const OpDef &def,
                               StringRef args, BodyEnv &env,
                               LogicalResult &result) {
  // `'<buffer>', <index>, <value>, None` (ops.store) or `'<buffer>',
  // <index>, <value>` (ops.store_reduction).
  if (def.name == "store" ? !args.consume_back(", None")
                          : def.name != "store_reduction")
    return false;
  const char *bufferAt = args.data();
  StringRef buf;
  if (!consumeQuoted(args, buf))
    return false;
  StringRef text = args;
  // `, <index>, <value>`: two names the block bound.
  const char *at[2];
  BodyValue *bound[2];
  for (unsigned i = 0; i < 2; ++i) {
    if (!text.consume_front(", "))
      return false;
    size_t end = identLength(text);
    StringRef name = text.take_front(end);
    if (!isValueName(name))
      return false;
    auto it = env.find(name);
    if (it == env.end())
      return false;
    at[i] = name.data();
    bound[i] = &it->second;
    text = text.drop_front(end);
  }
  if (!text.empty() || bound[0]->kind != BodyValue::Index ||
      bound[1]->kind != BodyValue::Scalar)
    return false;
  unsigned index = bound[0]->index;
  Value value = bound[1]->value;
  BodyValue *target = claimTarget(env, stmt.target);
  if (!target)
    return false;
  result = failure();
  FailureOr<BlockArgument> handle = outputHandle(buf, bufferAt);
  if (failed(handle) ||
      failed(store(stmt, *handle, index, at[0], value, StoreModeAttr())))
    return true;
  result = success();
  return true;
}

LogicalResult BodyImporter::translateIndexExpr(const OpCall &c,
                                               const OpDef &def) {
  const PyValue &call = c.call;
  if (failed(expectArgs(call, 2, 2)))
    return failure();
  FailureOr<unsigned> index = indexRef(call.elements[0], c.env);
  if (failed(index))
    return failure();
  FailureOr<Type> type = dtypeArg(call.elements[1]);
  if (failed(type))
    return failure();
  FailureOr<Value> value =
      indexExpr(c.stmt, *index, call.elements[0]->loc(), *type);
  if (failed(value))
    return failure();
  c.result.value = *value;
  return success();
}

FailureOr<Value> BodyImporter::indexExpr(const DumpStmt &stmt, unsigned index,
                                         const char *indexAt, Type type) {
  // fusion.index_expr computes in int32 or int64; other dtypes (float
  // positions of rotary embeddings) convert the int64 value.
  bool direct = type.isSignlessInteger(32) || type.isSignlessInteger(64);
  FailureOr<Value> value =
      indexValue(index, indexAt, direct ? type : Type(builder.getI64Type()),
                 loc(stmt.loc));
  if (failed(value))
    return failure();
  return convert(*value, type, loc(stmt.loc));
}

bool BodyImporter::indexExprDirect(const DumpStmt &stmt, StringRef args,
                                   BodyEnv &env, LogicalResult &result) {
  // `<index>, torch.<dtype>`
  auto [name, dtype] = args.split(", ");
  if (!isDtypeName(dtype))
    return false;
  std::optional<unsigned> index = boundIndex(env, name);
  if (!index)
    return false;
  BodyValue *bound = claimTarget(env, stmt.target);
  if (!bound)
    return false;
  FailureOr<Type> type = dtypeArg(dtype, dtype.data());
  if (failed(type))
    return bindDirect(*bound, failure(), result);
  return bindDirect(*bound, indexExpr(stmt, *index, name.data(), *type),
                    result);
}

LogicalResult BodyImporter::translateConstant(const OpCall &c,
                                              const OpDef &def) {
  const PyValue &call = c.call;
  BodyValue &result = c.result;
  if (failed(expectArgs(call, 2, 2)))
    return failure();
  FailureOr<Type> type = dtypeArg(call.elements[1]);
  if (failed(type))
    return failure();
  FailureOr<Value> v = literal(call.elements[0], *type);
  if (failed(v))
    return failure();
  result.value = *v;
  return success();
}

bool BodyImporter::constantDirect(const DumpStmt &stmt, StringRef args,
                                  BodyEnv &env, LogicalResult &result) {
  // `<literal>, torch.<dtype>`
  auto [literalText, dtype] = args.split(", ");
  if (!isDtypeName(dtype))
    return false;
  PyValue *value = parseArgumentDirect(literalText, values);
  if (!value)
    return false;
  BodyValue *bound = claimTarget(env, stmt.target);
  if (!bound)
    return false;
  FailureOr<Type> type = dtypeArg(dtype, dtype.data());
  if (failed(type))
    return bindDirect(*bound, failure(), result);
  return bindDirect(*bound, literal(value, *type), result);
}

LogicalResult BodyImporter::translateToDtype(const OpCall &c,
                                             const OpDef &def) {
  const PyValue &call = c.call;
  BodyEnv &env = c.env;
  BodyValue &result = c.result;
  Location l = loc(c.stmt.loc);
  auto operand = [&](unsigned i) { return scalar(call.elements[i], env); };
  if (failed(expectArgs(call, 2, 2, {"src_dtype", "use_compute_types"})))
    return failure();
  FailureOr<Value> v = operand(0);
  if (failed(v))
    return failure();
  FailureOr<Type> type = dtypeArg(call.elements[1]);
  if (failed(type))
    return failure();
  for (auto &[key, arg] : call.keywords) {
    if (key != "src_dtype")
      continue;
    FailureOr<Type> src = dtypeArg(arg);
    if (failed(src))
      return failure();
    if (*src != torchType(*v))
      return error(arg->loc())
             << "src_dtype " << arg->text
             << " does not match the operand's type " << torchType(*v);
  }
  result.value = convert(*v, *type, l);
  return success();
}

LogicalResult BodyImporter::translateIdentity(const OpCall &c,
                                              const OpDef &def) {
  FailureOr<SmallVector<Value, 3>> args = scalarArgs(c, 1);
  if (failed(args))
    return failure();
  c.result.value = (*args)[0];
  return success();
}

/// `ops.check_bounds(index, size, lower, upper)` asserts that an indirect
/// index lies in [0, size) (Triton's device_assert, on by default):
/// `fusion.opaque "check_bounds"(index, size, guarded...)`, whose results
/// are the indirect indices the index uses, unchanged; the loads after it
/// use them, so the check runs before they read. A check of an index
/// without indirect indices (never generated by Inductor, whose checks come
/// from `indirect_indexing`) guards no access and imports to nothing, as
/// does one with neither bound (Inductor then checks nothing).
LogicalResult BodyImporter::translateCheckBounds(const OpCall &c,
                                                 const OpDef &def) {
  if (failed(expectArgs(c.call, 4, 4)))
    return failure();
  FailureOr<unsigned> index = indexRef(c.call.elements[0], c.env);
  FailureOr<unsigned> size = indexRef(c.call.elements[1], c.env);
  if (failed(index) || failed(size))
    return failure();
  FailureOr<bool> lower = boolArg(c.call.elements[2]);
  FailureOr<bool> upper = boolArg(c.call.elements[3]);
  if (failed(lower) || failed(upper))
    return failure();
  if (!*lower && !*upper)
    return success();
  SmallVector<unsigned> guarded;
  for (unsigned s = 0; s < numIndirect; ++s)
    if (indirect[s] && indices[*index].isFunctionOfSymbol(s))
      guarded.push_back(s);
  if (guarded.empty())
    return success();
  Location l = loc(c.stmt.loc);
  Type i64 = builder.getI64Type();
  // Inductor checks the indirect index itself (`indirect_indexing`'s
  // variable): then it is the operand, and no index_expr makes it a second
  // use (which would shift the dependences' tmp numbers).
  Value indexV;
  if (auto sym = dyn_cast<AffineSymbolExpr>(indices[*index]);
      sym && sym.getPosition() < numIndirect)
    indexV = indirect[sym.getPosition()];
  else if (FailureOr<Value> v =
               indexValue(*index, c.call.elements[0]->loc(), i64, l);
           succeeded(v))
    indexV = *v;
  else
    return failure();
  FailureOr<Value> sizeV =
      indexValue(*size, c.call.elements[1]->loc(), i64, l);
  if (failed(sizeV))
    return failure();
  SmallVector<Value> operands = {indexV, *sizeV};
  for (unsigned s : guarded)
    operands.push_back(indirect[s]);
  SmallVector<Type> types(guarded.size(), builder.getIndexType());
  auto op = createOp<OpaqueOp>(builder, l, types,
                               builder.getStringAttr("check_bounds"), operands);
  op->setAttr("lower", builder.getBoolAttr(*lower));
  op->setAttr("upper", builder.getBoolAttr(*upper));
  for (auto [s, result] : llvm::zip(guarded, op.getResults()))
    indirect[s] = result;
  return success();
}

LogicalResult BodyImporter::translateWhere(const OpCall &c, const OpDef &def) {
  FailureOr<SmallVector<Value, 3>> args = scalarArgs(c, 3);
  if (failed(args))
    return failure();
  c.result.value = where(c.stmt, (*args)[0], (*args)[1], (*args)[2]);
  return success();
}

Value BodyImporter::where(const DumpStmt &stmt, Value cond, Value a, Value b) {
  Location l = loc(stmt.loc);
  Type type = promote(torchType(a), torchType(b));
  return setTorchType(createOp<arith::SelectOp>(
                          builder, l, convert(cond, builder.getI1Type(), l),
                          convert(a, type, l), convert(b, type, l)),
                      type);
}

LogicalResult BodyImporter::translateRand(const OpCall &c, const OpDef &def) {
  const PyValue &call = c.call;
  BodyValue &result = c.result;
  Location l = loc(c.stmt.loc);
  FailureOr<SmallVector<Value, 3>> args = scalarArgs(c, 2);
  if (failed(args))
    return failure();
  Value seed = (*args)[0], offset = (*args)[1];
  Type offsetType = offset.getType();
  if (!offsetType.isInteger(32) && !offsetType.isInteger(64))
    return error(call.elements[1]->loc())
           << "ops.rand needs an int32 or int64 offset, got " << offsetType;
  result.value =
      createOp<RandOp>(builder, l, builder.getF32Type(),
                       convert(seed, builder.getI64Type(), l), offset);
  return success();
}

LogicalResult BodyImporter::translateReduction(const OpCall &c,
                                               const OpDef &def) {
  const PyValue &call = c.call;
  BodyEnv &env = c.env;
  BodyValue &result = c.result;
  Location l = loc(c.stmt.loc);
  if (failed(expectArgs(call, 4, 4)))
    return failure();
  FailureOr<Type> dtype = dtypeArg(call.elements[0]);
  if (failed(dtype))
    return failure();
  FailureOr<Type> srcType = dtypeArg(call.elements[1]);
  if (failed(srcType))
    return failure();
  FailureOr<StringRef> kindName =
      stringArg(call.elements[2], "a reduction type");
  if (failed(kindName))
    return failure();
  std::optional<ReduceKind> kind = lookupReductionType(*kindName);
  if (!kind)
    return error(call.elements[2]->loc())
           << "unsupported reduction type '" << *kindName << "'";
  SmallVector<Value, 3> inputs;
  const PyValue *arg = call.elements[3];
  if (*kind == ReduceKind::WelfordCombine) {
    // A (mean, m2, weight) triple: a tuple of names, or a name bound to
    // the results of another Welford reduction.
    SmallVector<Value, 3> triple;
    if (arg->kind == PyValue::Kind::Tuple) {
      for (const PyValue *element : arg->elements) {
        FailureOr<Value> v = scalar(element, env);
        if (failed(v))
          return failure();
        triple.push_back(*v);
      }
    } else if (arg->kind == PyValue::Kind::Name) {
      auto it = env.find(arg->str);
      if (it != env.end() && it->second.kind == BodyValue::Tuple)
        triple.assign(it->second.tuple.begin(), it->second.tuple.end());
    }
    if (triple.size() != 3)
      return error(arg->loc()) << "welford_combine needs a (mean, m2, "
                                  "weight) triple, found "
                               << arg->text;
    for (Value v : triple)
      inputs.push_back(convert(v, *dtype, l));
  } else {
    FailureOr<Value> v = scalar(arg, env);
    if (failed(v))
      return failure();
    Value input = convert(*v, *srcType, l);
    switch (*kind) {
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin:
      if (isUnsigned(input))
        input = flipSignBit(builder, l, input);
      break;
    case ReduceKind::Any:
      input = convert(input, builder.getI1Type(), l);
      break;
    case ReduceKind::Max:
    case ReduceKind::Min:
      input = convert(input, *dtype, l);
      if (isUnsigned(input))
        input = flipSignBit(builder, l, input);
      break;
    default:
      input = convert(input, *dtype, l);
      break;
    }
    inputs.push_back(input);
  }
  Type valueType = BufferType::getValueTypeOf(*dtype);
  SmallVector<Type, 3> resultTypes;
  switch (*kind) {
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
    resultTypes.push_back(builder.getI64Type());
    break;
  case ReduceKind::Any:
    resultTypes.push_back(builder.getI1Type());
    break;
  case ReduceKind::WelfordReduce:
  case ReduceKind::WelfordCombine:
    resultTypes.assign(3, valueType);
    break;
  case ReduceKind::OnlineSoftmaxReduce:
    resultTypes.assign(2, valueType);
    break;
  default:
    resultTypes.push_back(valueType);
    break;
  }
  auto reduce = createOp<ReduceOp>(builder, l, resultTypes, *kind, inputs);
  if (resultTypes.size() == 1) {
    result.value = reduce.getResult(0);
    bool isMinMax = *kind == ReduceKind::Max || *kind == ReduceKind::Min;
    if (isMinMax && dtype->isUnsignedInteger())
      result.value = flipSignBit(builder, l, result.value);
    if (*kind != ReduceKind::ArgMax && *kind != ReduceKind::ArgMin)
      result.value = setTorchType(result.value, *dtype);
  } else {
    result.kind = BodyValue::Tuple;
    result.tuple.assign(reduce.getResults().begin(), reduce.getResults().end());
  }
  return success();
}

LogicalResult BodyImporter::translateFloatUnary(const OpCall &c,
                                                const OpDef &def) {
  FailureOr<Value> x = unaryOperand(c);
  if (failed(x))
    return failure();
  c.result.value = floatUnary(c.stmt, def, *x);
  return success();
}

Value BodyImporter::floatUnary(const DumpStmt &stmt, const OpDef &def,
                               Value x) {
  Location l = loc(stmt.loc);
  Value v = convert(x, floatTypeFor(x.getType()), l);
  return def.buildFloat(builder, l, v);
}

LogicalResult BodyImporter::translateLogicalNot(const OpCall &c,
                                                const OpDef &def) {
  FailureOr<Value> x = unaryOperand(c);
  if (failed(x))
    return failure();
  Location l = loc(c.stmt.loc);
  Value b = convert(*x, builder.getI1Type(), l);
  c.result.value = createOp<arith::XOrIOp>(
      builder, l, b,
      createOp<arith::ConstantOp>(builder, l, builder.getBoolAttr(true)));
  return success();
}

LogicalResult BodyImporter::translateBitwiseNot(const OpCall &c,
                                                const OpDef &def) {
  FailureOr<Value> x = unaryOperand(c);
  if (failed(x))
    return failure();
  Type type = x->getType();
  if (isa<FloatType>(type))
    return error(c.call.loc()) << "ops.bitwise_not needs an integer operand";
  Location l = loc(c.stmt.loc);
  c.result.value =
      setTorchType(createOp<arith::XOrIOp>(
                       builder, l, *x,
                       createOp<arith::ConstantOp>(
                           builder, l, builder.getIntegerAttr(type, -1))),
                   torchType(*x));
  return success();
}

LogicalResult BodyImporter::translateUnary(const OpCall &c, const OpDef &def) {
  FailureOr<Value> x = unaryOperand(c);
  if (failed(x))
    return failure();
  FailureOr<Value> v = unary(c.stmt, c.call.loc(), def, *x);
  if (failed(v))
    return failure();
  c.result.value = *v;
  return success();
}

FailureOr<Value> BodyImporter::unary(const DumpStmt &stmt, const char *callAt,
                                     const OpDef &def, Value x) {
  Type type = x.getType();
  StringRef name = def.name;
  if (type.isInteger(1))
    return error(callAt) << "'ops." << name
                         << "' on a boolean operand is not supported";
  Location l = loc(stmt.loc);
  if (isUnsigned(x) && (name == "abs" || name == "relu"))
    return x; // Never negative.
  OpBuilderFn build = isa<FloatType>(type) ? def.buildFloat : def.buildInt;
  return setTorchType(build(builder, l, x), torchType(x));
}

FailureOr<Value> BodyImporter::unaryOperand(const OpCall &c) {
  FailureOr<SmallVector<Value, 3>> x = scalarArgs(c, 1);
  if (failed(x))
    return failure();
  return (*x)[0];
}

/// The two operands of a binary row, once their number is checked.
FailureOr<std::pair<Value, Value>>
BodyImporter::binaryOperands(const OpCall &c) {
  FailureOr<SmallVector<Value, 3>> xy = scalarArgs(c, 2);
  if (failed(xy))
    return failure();
  return std::make_pair((*xy)[0], (*xy)[1]);
}

/// A translator of a binary row as a call of `core` on its operands.
template <typename Core>
static LogicalResult translateBinary(const OpCall &c,
                                     FailureOr<std::pair<Value, Value>> xy,
                                     Core core) {
  if (failed(xy))
    return failure();
  FailureOr<Value> v = core(xy->first, xy->second);
  if (failed(v))
    return failure();
  c.result.value = *v;
  return success();
}

LogicalResult BodyImporter::translateLogical(const OpCall &c,
                                             const OpDef &def) {
  return translateBinary(c, binaryOperands(c), [&](Value x, Value y) {
    return FailureOr<Value>(logical(c.stmt, def, x, y));
  });
}

Value BodyImporter::logical(const DumpStmt &stmt, const OpDef &def, Value x,
                            Value y) {
  Location l = loc(stmt.loc);
  Type i1 = builder.getI1Type();
  Value a = convert(x, i1, l), b = convert(y, i1, l);
  return def.buildInt(builder, l, {a, b});
}

LogicalResult BodyImporter::translateBitwise(const OpCall &c,
                                             const OpDef &def) {
  return translateBinary(c, binaryOperands(c), [&](Value x, Value y) {
    return bitwise(c.stmt, c.call.loc(), def, x, y);
  });
}

FailureOr<Value> BodyImporter::bitwise(const DumpStmt &stmt, const char *callAt,
                                       const OpDef &def, Value x, Value y) {
  Location l = loc(stmt.loc);
  Type type = promote(torchType(x), torchType(y));
  Value a = convert(x, type, l), b = convert(y, type, l);
  if (isa<FloatType>(type))
    return error(callAt) << "'ops." << def.name
                         << "' needs integer or boolean operands, got " << type;
  return setTorchType(def.buildInt(builder, l, {a, b}), type);
}

LogicalResult BodyImporter::translateCompare(const OpCall &c,
                                             const OpDef &def) {
  return translateBinary(c, binaryOperands(c), [&](Value x, Value y) {
    return FailureOr<Value>(compare(c.stmt, def, x, y));
  });
}

Value BodyImporter::compare(const DumpStmt &stmt, const OpDef &def, Value x,
                            Value y) {
  Location l = loc(stmt.loc);
  Type type = promote(torchType(x), torchType(y));
  Value a = convert(x, type, l), b = convert(y, type, l);
  StringRef name = def.name;
  if (isa<FloatType>(type)) {
    auto pred = llvm::StringSwitch<arith::CmpFPredicate>(name)
                    .Case("eq", arith::CmpFPredicate::OEQ)
                    .Case("ne", arith::CmpFPredicate::UNE)
                    .Case("lt", arith::CmpFPredicate::OLT)
                    .Case("le", arith::CmpFPredicate::OLE)
                    .Case("gt", arith::CmpFPredicate::OGT)
                    .Default(arith::CmpFPredicate::OGE);
    return createOp<arith::CmpFOp>(builder, l, pred, a, b);
  }
  // Booleans compare as 0 < 1, so unsigned.
  bool isBool = type.isInteger(1) || type.isUnsignedInteger();
  auto pred = llvm::StringSwitch<arith::CmpIPredicate>(name)
                  .Case("eq", arith::CmpIPredicate::eq)
                  .Case("ne", arith::CmpIPredicate::ne)
                  .Case("lt", isBool ? arith::CmpIPredicate::ult
                                     : arith::CmpIPredicate::slt)
                  .Case("le", isBool ? arith::CmpIPredicate::ule
                                     : arith::CmpIPredicate::sle)
                  .Case("gt", isBool ? arith::CmpIPredicate::ugt
                                     : arith::CmpIPredicate::sgt)
                  .Default(isBool ? arith::CmpIPredicate::uge
                                  : arith::CmpIPredicate::sge);
  return createOp<arith::CmpIOp>(builder, l, pred, a, b);
}

LogicalResult BodyImporter::translateArithmetic(const OpCall &c,
                                                const OpDef &def) {
  FailureOr<std::pair<Value, Value>> xy = binaryOperands(c);
  if (failed(xy))
    return failure();
  FailureOr<Value> v =
      arithmetic(c.stmt, c.call.loc(), def, xy->first, xy->second);
  if (failed(v))
    return failure();
  c.result.value = *v;
  return success();
}

FailureOr<Value> BodyImporter::arithmetic(const DumpStmt &stmt,
                                          const char *callAt, const OpDef &def,
                                          Value x, Value y) {
  StringRef name = def.name;
  Location l = loc(stmt.loc);
  Type type = promote(torchType(x), torchType(y));
  if (!def.buildInt) // truediv: integers divide as floats.
    type = floatTypeFor(type);
  if (name == "pow" && isa<FloatType>(x.getType()) &&
      isa<IntegerType>(y.getType()) && !y.getType().isInteger(1)) {
    // float ** int keeps the integer exponent (an unsigned one widened).
    if (isUnsigned(y))
      y = convert(y, builder.getI64Type(), l);
    return Value(createOp<math::FPowIOp>(builder, l, x, y));
  }
  Value a = convert(x, type, l), b = convert(y, type, l);
  if (type.isInteger(1))
    return error(callAt) << "'ops." << name
                         << "' on boolean operands is not supported";
  OpBuilderFn build = isa<FloatType>(type) ? def.buildFloat : def.buildInt;
  if (type.isUnsignedInteger())
    if (OpBuilderFn u = unsignedBuilder(name))
      build = u;
  return setTorchType(build(builder, l, {a, b}), type);
}

bool BodyImporter::elementwiseDirect(const DumpStmt &stmt, const OpDef &def,
                                     StringRef args, BodyEnv &env,
                                     LogicalResult &result) {
  // `a`, `a, b` or `c, a, b`: values the block bound.
  StringRef text = args;
  Value operands[3];
  unsigned n = 0;
  while (true) {
    size_t end = identLength(text);
    StringRef arg = text.take_front(end);
    if (n == 3 || !isValueName(arg))
      return false;
    auto it = env.find(arg);
    if (it == env.end() || it->second.kind != BodyValue::Scalar)
      return false;
    operands[n++] = it->second.value;
    text = text.drop_front(end);
    if (text.empty())
      break;
    if (!text.consume_front(", "))
      return false;
  }
  const char *callAt = stmt.valueText.data();
  auto translate = def.translate;
  Value x = operands[0], y = operands[1];
  auto is = [&](BodyImporter::Translator row, unsigned arity) {
    return translate == row && n == arity;
  };
  if (!is(&BodyImporter::translateArithmetic, 2) &&
      !is(&BodyImporter::translateFloatUnary, 1) &&
      !is(&BodyImporter::translateUnary, 1) &&
      !is(&BodyImporter::translateCompare, 2) &&
      !is(&BodyImporter::translateBitwise, 2) &&
      !is(&BodyImporter::translateLogical, 2) &&
      !is(&BodyImporter::translateWhere, 3))
    return false;
  BodyValue *bound = claimTarget(env, stmt.target);
  if (!bound)
    return false;
  FailureOr<Value> value;
  if (translate == &BodyImporter::translateArithmetic)
    value = arithmetic(stmt, callAt, def, x, y);
  else if (translate == &BodyImporter::translateFloatUnary)
    value = floatUnary(stmt, def, x);
  else if (translate == &BodyImporter::translateUnary)
    value = unary(stmt, callAt, def, x);
  else if (translate == &BodyImporter::translateCompare)
    value = compare(stmt, def, x, y);
  else if (translate == &BodyImporter::translateBitwise)
    value = bitwise(stmt, callAt, def, x, y);
  else if (translate == &BodyImporter::translateLogical)
    value = logical(stmt, def, x, y);
  else
    value = where(stmt, x, y, operands[2]);
  return bindDirect(*bound, value, result);
}
