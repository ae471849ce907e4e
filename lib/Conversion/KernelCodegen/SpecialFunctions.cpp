//===- SpecialFunctions.cpp - PyTorch's special functions, emitted --------===//
//
// Special functions that neither libm nor (for some) libdevice provides,
// emitted inline with the numerical method of PyTorch's
// aten/src/ATen/native/Math.h (which Inductor's C++ code calls), in f32
// for f32, f16 and bf16 operands (PyTorch upcasts those) and f64 for f64;
// and frexp, from the bits of the float.
//
//===----------------------------------------------------------------------===//

#include "ScalarOpsImpl.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

//===----------------------------------------------------------------------===//
// FloatMath
//===----------------------------------------------------------------------===//

Value FloatMath::c(double v) const { return createFloatConstant(b, loc, type, v); }
Value FloatMath::add(Value x, Value y) const {
  return arith::AddFOp::create(b, loc, x, y);
}
Value FloatMath::sub(Value x, Value y) const {
  return arith::SubFOp::create(b, loc, x, y);
}
Value FloatMath::mul(Value x, Value y) const {
  return arith::MulFOp::create(b, loc, x, y);
}
Value FloatMath::div(Value x, Value y) const {
  // IEEE division, as PyTorch's special functions and Inductor's code for
  // them (libdevice) divide.
  auto op = arith::DivFOp::create(b, loc, x, y);
  op->setAttr(kAccurateMathAttrName, b.getUnitAttr());
  return op;
}
Value FloatMath::neg(Value x) const { return arith::NegFOp::create(b, loc, x); }
Value FloatMath::abs(Value x) const { return math::AbsFOp::create(b, loc, x); }
Value FloatMath::exp(Value x) const {
  // PyTorch's special functions use an accurate exponential, and so does
  // Inductor's code for them (libdevice).
  auto op = math::ExpOp::create(b, loc, x);
  op->setAttr(kAccurateMathAttrName, b.getUnitAttr());
  return op;
}
Value FloatMath::log(Value x) const { return math::LogOp::create(b, loc, x); }
Value FloatMath::sqrt(Value x) const { return math::SqrtOp::create(b, loc, x); }
Value FloatMath::lt(Value x, Value y) const {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
}
Value FloatMath::le(Value x, Value y) const {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, y);
}
Value FloatMath::eq(Value x, Value y) const {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
}
Value FloatMath::select(Value cond, Value x, Value y) const {
  return arith::SelectOp::create(b, loc, cond, x, y);
}

Value FloatMath::polynomial(Value x, ArrayRef<double> coeffs) const {
  Value result = c(coeffs.front());
  for (double coeff : coeffs.drop_front())
    result = add(mul(result, x), c(coeff));
  return result;
}

Value FloatMath::chebyshev(Value x, ArrayRef<double> coeffs) const {
  Value b0 = c(coeffs.front()), b1 = c(0.0), b2 = c(0.0);
  for (double coeff : coeffs.drop_front()) {
    b2 = b1;
    b1 = b0;
    b0 = add(sub(mul(x, b1), b2), c(coeff));
  }
  return mul(c(0.5), sub(b0, b2));
}

/// The type a special function computes in: f64 for f64, else f32.
static Type computeType(ScalarOpContext &ctx, Type type) {
  return type.isF64() ? type : Type(ctx.b.getF32Type());
}

/// The single float operand of a unary special function, converted to the
/// type it computes in.
static FailureOr<Value> unaryOperand(ScalarOpContext &ctx) {
  if (ctx.operands.size() != 1 || ctx.op->getNumResults() != 1 ||
      !isa<FloatType>(ctx.op->getResult(0).getType()))
    return ctx.op->emitOpError("'")
           << ctx.name << "' takes one operand and has one float result";
  return emitTorchCast(ctx.b, ctx.loc, ctx.operands[0],
                       computeType(ctx, ctx.op->getResult(0).getType()));
}

static SmallVector<Value> result(ScalarOpContext &ctx, Value v) {
  return {emitTorchCast(ctx.b, ctx.loc, v, ctx.op->getResult(0).getType())};
}

//===----------------------------------------------------------------------===//
// erfinv
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> codegen::emitErfinv(ScalarOpContext &ctx) {
  FailureOr<Value> yOr = unaryOperand(ctx);
  if (failed(yOr))
    return failure();
  Value y = *yOr;
  FloatMath f{ctx.b, ctx.loc, y.getType()};
  // calc_erfinv: a rational initial approximation (central range
  // |y| <= 0.7, and the tails), then two Newton steps on erf(x) = y.
  Value yAbs = f.abs(y);
  Value z = f.mul(y, y);
  Value central =
      f.div(f.mul(y, f.polynomial(z, {-0.140543331, 0.914624893, -1.645349621,
                                      0.886226899})),
            f.polynomial(z, {0.012229801, -0.329097515, 1.442710462,
                             -2.118377725, 1.0}));
  Value t = f.sqrt(f.neg(f.log(f.div(f.sub(f.c(1.0), yAbs), f.c(2.0)))));
  Value tail = f.div(
      math::CopySignOp::create(
          ctx.b, ctx.loc,
          f.polynomial(t, {1.641345311, 3.429567803, -1.624906493,
                           -1.970840454}),
          y),
      f.polynomial(t, {1.637067800, 3.543889200, 1.0}));
  Value x = f.select(f.le(yAbs, f.c(0.7)), central, tail);
  Value twoOverSqrtPi = f.c(2.0 / std::sqrt(M_PI));
  for (int step = 0; step < 2; ++step) {
    Value err = f.sub(math::ErfOp::create(ctx.b, ctx.loc, x), y);
    Value slope = f.mul(twoOverSqrtPi, f.exp(f.neg(f.mul(x, x))));
    x = f.sub(x, f.div(err, slope));
  }
  // |y| == 1: +-inf; |y| > 1 (and NaN): NaN.
  Value inf = math::CopySignOp::create(ctx.b, ctx.loc, f.c(INFINITY), y);
  x = f.select(f.eq(yAbs, f.c(1.0)), inf, x);
  x = f.select(f.le(yAbs, f.c(1.0)), x, f.c(NAN));
  return result(ctx, x);
}

//===----------------------------------------------------------------------===//
// i0, i0e, i1, i1e (Cephes' Chebyshev series, as calc_i0 ... calc_i1e)
//===----------------------------------------------------------------------===//

static const double kI0eA[] = {
    -4.41534164647933937950E-18, 3.33079451882223809783E-17,
    -2.43127984654795469359E-16, 1.71539128555513303061E-15,
    -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12,
    -1.72682629144155570723E-11, 9.67580903537323691224E-11,
    -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8,  6.04699502254191894932E-8,
    -2.67079385394061173391E-7,  1.11738753912010371815E-6,
    -4.41673835845875056359E-6,  1.64484480707288970893E-5,
    -5.75419501008210370398E-5,  1.88502885095841655729E-4,
    -5.76375574538582365885E-4,  1.63947561694133579842E-3,
    -4.32430999505057594430E-3,  1.05464603945949983183E-2,
    -2.37374148058994688156E-2,  4.93052842396707084878E-2,
    -9.49010970480476444210E-2,  1.71620901522208775349E-1,
    -3.04682672343198398683E-1,  6.76795274409476084995E-1};

static const double kI0eB[] = {
    -7.23318048787475395456E-18, -4.83050448594418207126E-18,
    4.46562142029675999901E-17,  3.46122286769746109310E-17,
    -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15,  3.81168066935262242075E-15,
    -9.55484669882830764870E-15, -4.15056934728722208663E-14,
    1.54008621752140982691E-14,  3.85277838274214270114E-13,
    7.18012445138366623367E-13,  -1.79417853150680611778E-12,
    -1.32158118404477131188E-11, -3.14991652796324136454E-11,
    1.18891471078464383424E-11,  4.94060238822496958910E-10,
    3.39623202570838634515E-9,   2.26666899049817806459E-8,
    2.04891858946906374183E-7,   2.89137052083475648297E-6,
    6.88975834691682398426E-5,   3.36911647825569408990E-3,
    8.04490411014108831608E-1};

/// exp(-|x|) I0(x): one series on [0, 8], another on (8, inf).
static Value emitI0eOf(FloatMath &f, Value x) {
  Value ax = f.abs(x);
  Value near = f.chebyshev(f.sub(f.div(ax, f.c(2.0)), f.c(2.0)), kI0eA);
  Value far = f.div(f.chebyshev(f.sub(f.div(f.c(32.0), ax), f.c(2.0)), kI0eB),
                    f.sqrt(ax));
  return f.select(f.le(ax, f.c(8.0)), near, far);
}

FailureOr<SmallVector<Value>> codegen::emitI0e(ScalarOpContext &ctx) {
  FailureOr<Value> x = unaryOperand(ctx);
  if (failed(x))
    return failure();
  FloatMath f{ctx.b, ctx.loc, x->getType()};
  return result(ctx, emitI0eOf(f, *x));
}

FailureOr<SmallVector<Value>> codegen::emitI0(ScalarOpContext &ctx) {
  FailureOr<Value> x = unaryOperand(ctx);
  if (failed(x))
    return failure();
  FloatMath f{ctx.b, ctx.loc, x->getType()};
  return result(ctx, f.mul(f.exp(f.abs(*x)), emitI0eOf(f, *x)));
}

static const double kI1eA[] = {
    2.77791411276104639959E-18, -2.11142121435816608115E-17,
    1.55363195773620046921E-16, -1.10559694773538630805E-15,
    7.60068429473540693410E-15, -5.04218550472791168711E-14,
    3.22379336594557470981E-13, -1.98397439776494371520E-12,
    1.17361862988909016308E-11, -6.66348972350202774223E-11,
    3.62559028155211703701E-10, -1.88724975172282928790E-9,
    9.38153738649577178388E-9,  -4.44505912879632808065E-8,
    2.00329475355213526229E-7,  -8.56872026469545474066E-7,
    3.47025130813767847674E-6,  -1.32731636560394358279E-5,
    4.78156510755005422638E-5,  -1.61760815825896745588E-4,
    5.12285956168575772895E-4,  -1.51357245063125314899E-3,
    4.15642294431288815669E-3,  -1.05640848946261981558E-2,
    2.47264490306265168283E-2,  -5.29459812080949914269E-2,
    1.02643658689847095384E-1,  -1.76416518357834055153E-1,
    2.52587186443633654823E-1};

static const double kI1eB[] = {
    7.51729631084210481353E-18,  4.41434832307170791151E-18,
    -4.65030536848935832153E-17, -3.20952592199342395980E-17,
    2.96262899764595013876E-16,  3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15,
    1.04202769841288027642E-14,  4.27244001671195135429E-14,
    -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12,
    1.41258074366137813316E-11,  3.25260358301548823856E-11,
    -1.89749581235054123450E-11, -5.58974346219658380687E-10,
    -3.83538038596423702205E-9,  -2.63146884688951950684E-8,
    -2.51223623787020892529E-7,  -3.88256480887769039346E-6,
    -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
    7.78576235018280120474E-1};

/// exp(-|x|) I1(x), odd in x: Cephes' two series (calc_i1e).
static Value emitI1eOf(FloatMath &f, Value x) {
  Value ax = f.abs(x);
  Value near = f.mul(
      f.chebyshev(f.sub(f.div(ax, f.c(2.0)), f.c(2.0)), kI1eA), ax);
  Value far = f.div(f.chebyshev(f.sub(f.div(f.c(32.0), ax), f.c(2.0)), kI1eB),
                    f.sqrt(ax));
  Value v = f.select(f.le(ax, f.c(8.0)), near, far);
  return f.select(f.lt(x, f.c(0.0)), f.neg(v), v);
}

FailureOr<SmallVector<Value>> codegen::emitI1e(ScalarOpContext &ctx) {
  FailureOr<Value> x = unaryOperand(ctx);
  if (failed(x))
    return failure();
  FloatMath f{ctx.b, ctx.loc, x->getType()};
  return result(ctx, emitI1eOf(f, *x));
}

FailureOr<SmallVector<Value>> codegen::emitI1(ScalarOpContext &ctx) {
  FailureOr<Value> x = unaryOperand(ctx);
  if (failed(x))
    return failure();
  FloatMath f{ctx.b, ctx.loc, x->getType()};
  return result(ctx, f.mul(f.exp(f.abs(*x)), emitI1eOf(f, *x)));
}

//===----------------------------------------------------------------------===//
// modified_bessel_k0, k1 and their scaled forms (Cephes, as ATen's
// modified_bessel_k0_forward ... scaled_modified_bessel_k1_forward)
//===----------------------------------------------------------------------===//

static const double kK0A[] = {
    1.37446543561352307156E-16, 4.25981614279661018399E-14,
    1.03496952576338420167E-11, 1.90451637722020886025E-9,
    2.53479107902614945675E-7,  2.28621210311945178607E-5,
    1.26461541144692592338E-3,  3.59799365153615016266E-2,
    3.44289899924628486886E-1,  -5.35327393233902768720E-1};

static const double kK0B[] = {
    5.30043377268626276149E-18, -1.64758043015242134646E-17,
    5.21039150503902756861E-17, -1.67823109680541210385E-16,
    5.51205597852431940784E-16, -1.84859337734377901440E-15,
    6.34007647740507060557E-15, -2.22751332699166985548E-14,
    8.03289077536357521100E-14, -2.98009692317273043925E-13,
    1.14034058820847496303E-12, -4.51459788337394416547E-12,
    1.85594911495471785253E-11, -7.95748924447710747776E-11,
    3.57739728140030116597E-10, -1.69753450938905987466E-9,
    8.57403401741422608519E-9,  -4.66048989768794782956E-8,
    2.76681363944501510342E-7,  -1.83175552271911948767E-6,
    1.39498137188764993662E-5,  -1.28495495816278026384E-4,
    1.56988388573005337491E-3,  -3.14481013119645005427E-2,
    2.44030308206595545468E0};

static const double kK1A[] = {
    -7.02386347938628759343E-18, -2.42744985051936593393E-15,
    -6.66690169419932900609E-13, -1.41148839263352776110E-10,
    -2.21338763073472585583E-8,  -2.43340614156596823496E-6,
    -1.73028895751305206302E-4,  -6.97572385963986435018E-3,
    -1.22611180822657148235E-1,  -3.53155960776544875667E-1,
    1.52530022733894777053E0};

static const double kK1B[] = {
    -5.75674448366501715755E-18, 1.79405087314755922667E-17,
    -5.68946255844285935196E-17, 1.83809354436663880070E-16,
    -6.05704724837331885336E-16, 2.03870316562433424052E-15,
    -7.01983709041831346144E-15, 2.47715442448130437068E-14,
    -8.97670518232499435011E-14, 3.34841966607842919884E-13,
    -1.28917396095102890680E-12, 5.13963967348173025100E-12,
    -2.12996783842756842877E-11, 9.21831518760500529508E-11,
    -4.19035475934189648750E-10, 2.01504975519703286596E-9,
    -1.03457624656780970260E-8,  5.74108412545004946722E-8,
    -3.50196060308781257119E-7,  2.40648494783721712015E-6,
    -1.93619797416608296024E-5,  1.95215518471351631108E-4,
    -2.85781685962277938680E-3,  1.03923736576817238437E-1,
    2.72062619048444266945E0};

/// K0 (order 0) or K1, times exp(x) when `scaled`: one series on (0, 2]
/// with the logarithmic term in I0 / I1, another on (2, inf); +inf at 0
/// and NaN below.
static Value emitBesselK(FloatMath &f, Value x, bool order1, bool scaled) {
  Value zero = f.c(0.0), two = f.c(2.0);
  Value near = f.chebyshev(f.sub(f.mul(x, x), two), order1 ? ArrayRef(kK1A)
                                                          : ArrayRef(kK0A));
  Value logHalf = f.log(f.mul(f.c(0.5), x));
  Value bessel = f.mul(f.exp(f.abs(x)),
                       order1 ? emitI1eOf(f, x) : emitI0eOf(f, x));
  near = order1 ? f.add(f.mul(logHalf, bessel), f.div(near, x))
                : f.sub(near, f.mul(logHalf, bessel));
  Value far = f.div(
      f.chebyshev(f.sub(f.div(f.c(8.0), x), two),
                  order1 ? ArrayRef(kK1B) : ArrayRef(kK0B)),
      f.sqrt(x));
  if (scaled)
    near = f.mul(near, f.exp(x));
  else
    far = f.mul(f.exp(f.neg(x)), far);
  Value v = f.select(f.le(x, two), near, far);
  v = f.select(f.lt(x, zero), f.c(NAN), v);
  return f.select(f.eq(x, zero), f.c(INFINITY), v);
}

template <bool Order1, bool Scaled>
static FailureOr<SmallVector<Value>> emitBesselKOp(ScalarOpContext &ctx) {
  FailureOr<Value> x = unaryOperand(ctx);
  if (failed(x))
    return failure();
  FloatMath f{ctx.b, ctx.loc, x->getType()};
  return result(ctx, emitBesselK(f, *x, Order1, Scaled));
}

FailureOr<SmallVector<Value>> codegen::emitK0(ScalarOpContext &ctx) {
  return emitBesselKOp<false, false>(ctx);
}
FailureOr<SmallVector<Value>> codegen::emitK1(ScalarOpContext &ctx) {
  return emitBesselKOp<true, false>(ctx);
}
FailureOr<SmallVector<Value>> codegen::emitK0e(ScalarOpContext &ctx) {
  return emitBesselKOp<false, true>(ctx);
}
FailureOr<SmallVector<Value>> codegen::emitK1e(ScalarOpContext &ctx) {
  return emitBesselKOp<true, true>(ctx);
}

/// spherical_bessel_j0: sin(x) / x, its Taylor series below 0.5, 0 at +-inf.
FailureOr<SmallVector<Value>>
codegen::emitSphericalBesselJ0(ScalarOpContext &ctx) {
  FailureOr<Value> xOr = unaryOperand(ctx);
  if (failed(xOr))
    return failure();
  Value x = *xOr;
  FloatMath f{ctx.b, ctx.loc, x.getType()};
  Value x2 = f.mul(x, x);
  Value series = f.add(
      f.c(1.0),
      f.mul(x2, f.polynomial(x2, {1.0 / 6227020800.0, -1.0 / 39916800.0,
                                  1.0 / 362880.0, -1.0 / 5040.0, 1.0 / 120.0,
                                  -1.0 / 6.0})));
  Value sinc = f.div(math::SinOp::create(ctx.b, ctx.loc, x), x);
  Value v = f.select(f.lt(f.abs(x), f.c(0.5)), series, sinc);
  return result(ctx, f.select(f.eq(f.abs(x), f.c(INFINITY)), f.c(0.0), v));
}

//===----------------------------------------------------------------------===//
// ndtr, digamma
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> codegen::emitNdtr(ScalarOpContext &ctx) {
  FailureOr<Value> x = unaryOperand(ctx);
  if (failed(x))
    return failure();
  FloatMath f{ctx.b, ctx.loc, x->getType()};
  // (1 + erf(x / sqrt(2))) / 2, as calc_ndtr.
  Value erf = math::ErfOp::create(ctx.b, ctx.loc, f.mul(*x, f.c(M_SQRT1_2)));
  return result(ctx, f.mul(f.add(f.c(1.0), erf), f.c(0.5)));
}

/// digamma of x > 0: the recurrence up to 10, then the asymptotic series
/// (calc_digamma's branch for positive x).
static Value emitDigammaPositive(FloatMath &f, Value x) {
  // psi(x) = psi(x + 1) - 1 / x; from x > 0, ten steps reach 10.
  Value acc = f.c(0.0);
  for (int step = 0; step < 10; ++step) {
    Value below = f.lt(x, f.c(10.0));
    acc = f.select(below, f.sub(acc, f.div(f.c(1.0), x)), acc);
    x = f.select(below, f.add(x, f.c(1.0)), x);
  }
  Value z = f.div(f.c(1.0), f.mul(x, x));
  Value y = f.mul(z, f.polynomial(z, {8.33333333333333333333E-2,
                                      -2.10927960927960927961E-2,
                                      7.57575757575757575758E-3,
                                      -4.16666666666666666667E-3,
                                      3.96825396825396825397E-3,
                                      -8.33333333333333333333E-3,
                                      8.33333333333333333333E-2}));
  y = f.select(f.lt(x, f.c(1.0e17)), y, f.c(0.0));
  Value asymptotic =
      f.sub(f.sub(f.add(acc, f.log(x)), f.div(f.c(0.5), x)), y);
  // Exactly 10 takes the tabulated psi(10).
  return f.select(f.eq(x, f.c(10.0)), f.add(acc, f.c(2.25175258906672110764)),
                  asymptotic);
}

/// digamma(x) in x's type, with ATen's poles.
static Value emitDigammaOf(FloatMath &f, Value x) {
  OpBuilder &b = f.b;
  Location loc = f.loc;
  // x < 0: the reflection psi(x) = psi(1 - x) - pi / tan(pi * r), r the
  // fractional part of x (tan(pi * r) is more accurate than tan(pi * x)).
  Value one = f.c(1.0);
  Value negative = f.lt(x, f.c(0.0));
  Value reflected = f.sub(one, x);
  Value positive = emitDigammaPositive(f, f.select(negative, reflected, x));
  // In f64, as calc_digamma computes it for floats too.
  FloatMath d{b, loc, b.getF64Type()};
  Value x64 = emitTorchCast(b, loc, x, d.type);
  Value frac = d.sub(x64, math::TruncOp::create(b, loc, x64));
  Value cot = emitTorchCast(
      b, loc,
      d.div(d.c(M_PI), math::TanOp::create(b, loc, d.mul(d.c(M_PI), frac))),
      x.getType());
  Value value = f.select(negative, f.sub(positive, cot), positive);
  // Poles: +-0 gives -+inf, negative integers NaN.
  Value zero = f.c(0.0);
  Value isZero = f.eq(x, zero);
  Value isNegInt = arith::AndIOp::create(
      b, loc, f.lt(x, zero), f.eq(x, math::TruncOp::create(b, loc, x)));
  value = f.select(isNegInt, f.c(NAN), value);
  return f.select(isZero,
                  math::CopySignOp::create(b, loc, f.c(INFINITY), f.neg(x)),
                  value);
}

FailureOr<SmallVector<Value>> codegen::emitDigamma(ScalarOpContext &ctx) {
  FailureOr<Value> x = unaryOperand(ctx);
  if (failed(x))
    return failure();
  FloatMath f{ctx.b, ctx.loc, x->getType()};
  return result(ctx, emitDigammaOf(f, *x));
}

//===----------------------------------------------------------------------===//
// zeta, polygamma (Cephes' zeta, as ATen's zeta and calc_polygamma)
//===----------------------------------------------------------------------===//

/// Hurwitz zeta(x, q) in f64 (ATen's accumulation type on the CPU): the
/// direct sum until a term is negligible (at least 9 terms and a > 9),
/// then the Euler-Maclaurin tail of at most 12 terms.
static Value emitZetaF64(OpBuilder &b, Location loc, Value x, Value q) {
  FloatMath f{b, loc, b.getF64Type()};
  constexpr double kMachEp = 1.11022302462515654042E-16;
  static const double kA[] = {12.0,
                              -720.0,
                              30240.0,
                              -1209600.0,
                              47900160.0,
                              -1.8924375803183791606e9,
                              7.47242496e10,
                              -2.950130727918164224e12,
                              1.1646782814350067249e14,
                              -4.5979787224074726105e15,
                              1.8152105401943546773e17,
                              -7.1661652561756670113e18};
  Value one = f.c(1.0), zero = f.c(0.0);
  auto pow = [&](Value base, Value e) -> Value {
    return math::PowFOp::create(b, loc, base, e);
  };
  Value negX = f.neg(x);
  Value s0 = pow(q, negX);
  Type i32 = b.getI32Type();
  Value i0 = createIntConstant(b, loc, i32, 0);
  Value fFalse = createIntConstant(b, loc, b.getI1Type(), 0);
  // (i, a, b, s, done): the direct sum.
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{i32, f.type, f.type, f.type, b.getI1Type()},
      ValueRange{i0, q, zero, s0, fFalse},
      [&](OpBuilder &cb, Location l, ValueRange args) {
        FloatMath g{cb, l, f.type};
        Value few = arith::CmpIOp::create(cb, l, arith::CmpIPredicate::slt,
                                          args[0],
                                          createIntConstant(cb, l, i32, 9));
        Value small = g.le(args[1], g.c(9.0));
        Value more = arith::AndIOp::create(
            cb, l, arith::OrIOp::create(cb, l, few, small),
            arith::XOrIOp::create(cb, l, args[4],
                                  createIntConstant(cb, l, cb.getI1Type(), 1)));
        scf::ConditionOp::create(cb, l, more, args);
      },
      [&](OpBuilder &lb, Location l, ValueRange args) {
        FloatMath g{lb, l, f.type};
        Value i = arith::AddIOp::create(lb, l, args[0],
                                        createIntConstant(lb, l, i32, 1));
        Value a = g.add(args[1], g.c(1.0));
        Value term = math::PowFOp::create(lb, l, a, negX);
        Value s = g.add(args[3], term);
        Value eps = g.mul(g.c(kMachEp), s);
        Value done = arith::AndIOp::create(lb, l, g.lt(g.neg(eps), term),
                                           g.lt(term, eps));
        scf::YieldOp::create(lb, l, ValueRange{i, a, term, s, done});
      });
  Value a = loop.getResult(1), bb = loop.getResult(2), s = loop.getResult(3);
  Value done = loop.getResult(4);
  // Euler-Maclaurin: unrolled, each step kept only while not converged.
  Value w = a;
  Value tail = f.sub(f.add(s, f.div(f.mul(bb, w), f.sub(x, one))),
                     f.mul(f.c(0.5), bb));
  Value acc = one, k = zero, bk = bb;
  Value converged = done;
  Value result = f.select(done, s, tail);
  Value running = tail;
  for (double coeff : kA) {
    acc = f.mul(acc, f.add(x, k));
    bk = f.div(bk, w);
    Value t = f.div(f.mul(acc, bk), f.c(coeff));
    running = f.add(running, t);
    Value small = f.lt(f.abs(f.div(t, running)), f.c(kMachEp));
    Value stop = arith::AndIOp::create(
        b, loc, small,
        arith::XOrIOp::create(b, loc, converged,
                              createIntConstant(b, loc, b.getI1Type(), 1)));
    result = f.select(converged, result, running);
    converged = arith::OrIOp::create(b, loc, converged, stop);
    k = f.add(k, one);
    acc = f.mul(acc, f.add(x, k));
    bk = f.div(bk, w);
    k = f.add(k, one);
  }
  result = f.select(converged, result, running);
  // Domain: x == 1 gives inf, x < 1 NaN; q <= 0 an integer inf, else NaN
  // unless x is an integer.
  Value inf = f.c(INFINITY), nan = f.c(NAN);
  Value qInt = f.eq(q, math::FloorOp::create(b, loc, q));
  Value xInt = f.eq(x, math::FloorOp::create(b, loc, x));
  Value qNonPositive = f.le(q, zero);
  Value v = result;
  v = f.select(arith::AndIOp::create(
                   b, loc, qNonPositive,
                   arith::XOrIOp::create(b, loc, xInt,
                                         createIntConstant(b, loc,
                                                           b.getI1Type(), 1))),
               nan, v);
  v = f.select(arith::AndIOp::create(b, loc, qNonPositive, qInt), inf, v);
  v = f.select(f.lt(x, one), nan, v);
  return f.select(f.eq(x, one), inf, v);
}

/// The float operands of a binary special function, in f64, and the type
/// of the result.
static FailureOr<std::pair<Value, Value>> binaryF64(ScalarOpContext &ctx) {
  if (ctx.operands.size() != 2 || ctx.op->getNumResults() != 1 ||
      !isa<FloatType>(ctx.op->getResult(0).getType()))
    return ctx.op->emitOpError("'")
           << ctx.name << "' takes two operands and has one float result";
  Type f64 = ctx.b.getF64Type();
  return std::make_pair(emitTorchCast(ctx.b, ctx.loc, ctx.operands[0], f64),
                        emitTorchCast(ctx.b, ctx.loc, ctx.operands[1], f64));
}

FailureOr<SmallVector<Value>> codegen::emitZeta(ScalarOpContext &ctx) {
  FailureOr<std::pair<Value, Value>> xq = binaryF64(ctx);
  if (failed(xq))
    return failure();
  return result(ctx, emitZetaF64(ctx.b, ctx.loc, xq->first, xq->second));
}

/// trigamma(x), ATen's: the reflection below 0.5, six steps of the
/// recurrence, then the asymptotic series.
static Value emitTrigamma(FloatMath &f, Value x) {
  Value one = f.c(1.0);
  Value reflect = f.lt(x, f.c(0.5));
  Value sinPiX = math::SinOp::create(f.b, f.loc, f.mul(f.c(M_PI), x));
  Value acc = f.select(reflect,
                       f.neg(f.div(f.c(M_PI * M_PI), f.mul(sinPiX, sinPiX))),
                       f.c(0.0));
  Value sign = f.select(reflect, f.c(-1.0), one);
  x = f.select(reflect, f.sub(one, x), x);
  for (int i = 0; i < 6; ++i) {
    acc = f.add(acc, f.div(one, f.mul(x, x)));
    x = f.add(x, one);
  }
  Value ixx = f.div(one, f.mul(x, x));
  Value series = f.sub(f.c(1.0 / 6), f.mul(ixx, f.sub(f.c(1.0 / 30),
                                                      f.mul(ixx, f.c(1.0 / 42)))));
  Value tail = f.div(f.add(f.add(one, f.div(one, f.mul(f.c(2.0), x))),
                           f.mul(ixx, series)),
                     x);
  return f.mul(sign, f.add(acc, tail));
}

FailureOr<SmallVector<Value>> codegen::emitPolygamma(ScalarOpContext &ctx) {
  // polygamma(n, x), as Inductor's C++: digamma for n = 0, trigamma for 1,
  // else (-1)^(n + 1) n! zeta(n + 1, x).
  FailureOr<std::pair<Value, Value>> nx = binaryF64(ctx);
  if (failed(nx))
    return failure();
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  FloatMath f{b, loc, b.getF64Type()};
  Value n = nx->first, x = nx->second;
  Value n64 = arith::FPToSIOp::create(b, loc, b.getI64Type(), n);
  // n!, by a loop of n steps (n is small: n! overflows f64 past 170).
  Value lb = createIntConstant(b, loc, b.getIndexType(), 1);
  Value ub = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      arith::AddIOp::create(b, loc, n64,
                            createIntConstant(b, loc, b.getI64Type(), 1)));
  ub = arith::MaxSIOp::create(b, loc, ub, lb);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, lb, ValueRange{f.c(1.0)},
      [&](OpBuilder &fb, Location l, Value iv, ValueRange args) {
        Value k = arith::SIToFPOp::create(
            fb, l, fb.getF64Type(),
            arith::IndexCastOp::create(fb, l, fb.getI64Type(), iv));
        scf::YieldOp::create(fb, l,
                             ValueRange{arith::MulFOp::create(fb, l, args[0], k)});
      });
  Value factorial = loop.getResult(0);
  Value odd = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemSIOp::create(b, loc, n64,
                             createIntConstant(b, loc, b.getI64Type(), 2)),
      createIntConstant(b, loc, b.getI64Type(), 0));
  Value sign = f.select(odd, f.c(1.0), f.c(-1.0));
  Value general = f.mul(f.mul(sign, factorial),
                        emitZetaF64(b, loc, f.add(n, f.c(1.0)), x));
  Value v = f.select(f.eq(n, f.c(1.0)), emitTrigamma(f, x), general);
  v = f.select(f.eq(n, f.c(0.0)), emitDigammaOf(f, x), v);
  return result(ctx, v);
}

//===----------------------------------------------------------------------===//
// ndtri (Cephes, as calc_ndtri), erfcx and log_ndtr
//===----------------------------------------------------------------------===//

static const double kNdtriP0[] = {
    -5.99633501014107895267E1, 9.80010754185999661536E1,
    -5.66762857469070293439E1, 1.39312609387279679503E1,
    -1.23916583867381258016E0};
static const double kNdtriQ0[] = {
    1.00000000000000000000E0,  1.95448858338141759834E0,
    4.67627912898881538453E0,  8.63602421390890590575E1,
    -2.25462687854119370527E2, 2.00260212380060660359E2,
    -8.20372256168333339912E1, 1.59056225126211695515E1,
    -1.18331621121330003142E0};
static const double kNdtriP1[] = {
    4.05544892305962419923E0,   3.15251094599893866154E1,
    5.71628192246421288162E1,   4.40805073893200834700E1,
    1.46849561928858024014E1,   2.18663306850790267539E0,
    -1.40256079171354495875E-1, -3.50424626827848203418E-2,
    -8.57456785154685413611E-4};
static const double kNdtriQ1[] = {
    1.00000000000000000000E0,   1.57799883256466749731E1,
    4.53907635128879210584E1,   4.13172038254672030440E1,
    1.50425385692907503408E1,   2.50464946208309415979E0,
    -1.42182922854787788574E-1, -3.80806407691578277194E-2,
    -9.33259480895457427372E-4};
static const double kNdtriP2[] = {
    3.23774891776946035970E0,  6.91522889068984211695E0,
    3.93881025292474443415E0,  1.33303460815807542389E0,
    2.01485389549179081538E-1, 1.23716634817820021358E-2,
    3.01581553508235416007E-4, 2.65806974686737550832E-6,
    6.23974539184983293730E-9};
static const double kNdtriQ2[] = {
    1.00000000000000000000E0,  6.02427039364742014255E0,
    3.67983563856160859403E0,  1.37702099489081330271E0,
    2.16236993594496635890E-1, 1.34204006088543189037E-2,
    3.28014464682127739104E-4, 2.89247864745380683936E-6,
    6.79019408009981274425E-9};

FailureOr<SmallVector<Value>> codegen::emitNdtri(ScalarOpContext &ctx) {
  FailureOr<Value> yOr = unaryOperand(ctx);
  if (failed(yOr))
    return failure();
  Value y0 = *yOr;
  FloatMath f{ctx.b, ctx.loc, y0.getType()};
  Value one = f.c(1.0), zero = f.c(0.0);
  constexpr double kExpMinus2 = 0.13533528323661269189;
  // The upper tail mirrors the lower one.
  Value upper = f.lt(f.c(1.0 - kExpMinus2), y0);
  Value y = f.select(upper, f.sub(one, y0), y0);
  // Central: |y - 0.5| <= 3/8.
  Value yc = f.sub(y, f.c(0.5));
  Value y2 = f.mul(yc, yc);
  Value central = f.mul(
      f.add(yc, f.mul(yc, f.div(f.mul(y2, f.polynomial(y2, kNdtriP0)),
                                f.polynomial(y2, kNdtriQ0)))),
      f.c(2.50662827463100050242));
  // Tails: x = sqrt(-2 log y), two rational corrections by range.
  Value x = f.sqrt(f.mul(f.c(-2.0), f.log(y)));
  Value x0 = f.sub(x, f.div(f.log(x), x));
  Value z = f.div(one, x);
  Value x1 = f.select(
      f.lt(x, f.c(8.0)),
      f.div(f.mul(z, f.polynomial(z, kNdtriP1)), f.polynomial(z, kNdtriQ1)),
      f.div(f.mul(z, f.polynomial(z, kNdtriP2)), f.polynomial(z, kNdtriQ2)));
  Value tail = f.sub(x0, x1);
  tail = f.select(upper, tail, f.neg(tail));
  Value v = f.select(f.lt(f.c(kExpMinus2), y), central, tail);
  Value outside = arith::OrIOp::create(ctx.b, ctx.loc, f.lt(y0, zero),
                                       f.lt(one, y0));
  v = f.select(outside, f.c(NAN), v);
  v = f.select(f.eq(y0, one), f.c(INFINITY), v);
  return result(ctx, f.select(f.eq(y0, zero), f.c(-INFINITY), v));
}

/// erfcx(x) = exp(x^2) erfc(x), in f64: the product below 25 (erfc does
/// not underflow there), the asymptotic series above (relative error below
/// 1e-12 at 25). Not ATen's method (Faddeeva's Chebyshev tables), the same
/// function to f32's precision and about 1e-13 relative in f64.
static Value emitErfcxF64(FloatMath &f, Value x) {
  Value x2 = f.mul(x, x);
  Value direct =
      f.mul(f.exp(x2), math::ErfcOp::create(f.b, f.loc, x));
  Value inv2 = f.div(f.c(1.0), f.mul(f.c(2.0), x2));
  // 1 - 1/(2x^2) + 3/(2x^2)^2 - 15/(2x^2)^3 + 105/(2x^2)^4 - 945/(2x^2)^5
  Value series = f.polynomial(inv2, {-945.0, 105.0, -15.0, 3.0, -1.0, 1.0});
  Value asymptotic =
      f.div(series, f.mul(x, f.c(std::sqrt(M_PI))));
  return f.select(f.lt(x, f.c(25.0)), direct, asymptotic);
}

FailureOr<SmallVector<Value>> codegen::emitErfcx(ScalarOpContext &ctx) {
  FailureOr<Value> x = unaryOperand(ctx);
  if (failed(x))
    return failure();
  FloatMath d{ctx.b, ctx.loc, ctx.b.getF64Type()};
  Value x64 = emitTorchCast(ctx.b, ctx.loc, *x, d.type);
  return result(ctx, emitErfcxF64(d, x64));
}

FailureOr<SmallVector<Value>> codegen::emitLogNdtr(ScalarOpContext &ctx) {
  FailureOr<Value> xOr = unaryOperand(ctx);
  if (failed(xOr))
    return failure();
  // calc_log_ndtr: t = x / sqrt(2); below -1, log(erfcx(-t) / 2) - t^2,
  // else log1p(-erfc(t) / 2); in f64.
  FloatMath d{ctx.b, ctx.loc, ctx.b.getF64Type()};
  Value x = emitTorchCast(ctx.b, ctx.loc, *xOr, d.type);
  Value t = d.mul(x, d.c(M_SQRT1_2));
  Value low = d.sub(d.log(d.div(emitErfcxF64(d, d.neg(t)), d.c(2.0))),
                    d.mul(t, t));
  Value high = math::Log1pOp::create(
      ctx.b, ctx.loc,
      d.neg(d.div(math::ErfcOp::create(ctx.b, ctx.loc, t), d.c(2.0))));
  return result(ctx, d.select(d.lt(x, d.c(-1.0)), low, high));
}

//===----------------------------------------------------------------------===//
// airy_ai (Cephes, as airy_ai_forward)
//===----------------------------------------------------------------------===//

static const double kAiryAN[] = {
    3.46538101525629032477e-01, 1.20075952739645805542e+01,
    7.62796053615234516538e+01, 1.68089224934630576269e+02,
    1.59756391350164413639e+02, 7.05360906840444183113e+01,
    1.40264691163389668864e+01, 9.99999999999999995305e-01};
static const double kAiryAD[] = {
    5.67594532638770212846e-01, 1.47562562584847203173e+01,
    8.45138970141474626562e+01, 1.77318088145400459522e+02,
    1.64234692871529701831e+02, 7.14778400825575695274e+01,
    1.40959135607834029598e+01, 1.00000000000000000470e+00};
static const double kAiryAFN[] = {
    -1.31696323418331795333e-01, -6.26456544431912369773e-01,
    -6.93158036036933542233e-01, -2.79779981545119124951e-01,
    -4.91900132609500318020e-02, -4.06265923594885404393e-03,
    -1.59276496239262096340e-04, -2.77649108155232920844e-06,
    -1.67787698489114633780e-08};
static const double kAiryAFD[] = {
    1.33560420706553243746e+01, 3.26825032795224613948e+01,
    2.67367040941499554804e+01, 9.18707402907259625840e+00,
    1.47529146771666414581e+00, 1.15687173795188044134e-01,
    4.40291641615211203805e-03, 7.54720348287414296618e-05,
    4.51850092970580378464e-07};
static const double kAiryAGN[] = {
    1.97339932091685679179e-02, 3.91103029615688277255e-01,
    1.06579897599595591108e+00, 9.39169229816650230044e-01,
    3.51465656105547619242e-01, 6.33888919628925490927e-02,
    5.85804113048388458567e-03, 2.82851600836737019778e-04,
    6.98793669997260967291e-06, 8.11789239554389293311e-08,
    3.41551784765923618484e-10};
static const double kAiryAGD[] = {
    9.30892908077441974853e+00, 1.98352928718312140417e+01,
    1.55646628932864612953e+01, 5.47686069422975497931e+00,
    9.54293611618961883998e-01, 8.64580826352392193095e-02,
    4.12656523824222607191e-03, 1.01259085116509135510e-04,
    1.17166733214413521882e-06, 4.91834570062930015649e-09};

FailureOr<SmallVector<Value>> codegen::emitAiryAi(ScalarOpContext &ctx) {
  FailureOr<Value> xOr = unaryOperand(ctx);
  if (failed(xOr))
    return failure();
  OpBuilder &b = ctx.b;
  Value x = *xOr;
  FloatMath f{b, ctx.loc, x.getType()};
  double eps = x.getType().isF64() ? 2.220446049250313e-16 : 1.1920928955078125e-07;
  constexpr double kInvSqrtPi = 5.64189583547756286948e-01;
  // Below -2.09: the oscillating asymptotic form.
  Value negX = f.neg(x);
  Value zetaNeg = f.div(f.mul(f.mul(f.c(-2.0), x), f.sqrt(negX)), f.c(3.0));
  Value zn = f.div(f.c(1.0), zetaNeg);
  Value zz = f.mul(zn, zn);
  Value t = f.add(zetaNeg, f.c(0.25 * M_PI));
  Value negative = f.mul(
      f.div(f.c(kInvSqrtPi), f.sqrt(f.sqrt(negX))),
      f.sub(f.mul(math::SinOp::create(b, ctx.loc, t),
                  f.add(f.c(1.0), f.div(f.mul(zz, f.polynomial(zz, kAiryAFN)),
                                        f.polynomial(zz, kAiryAFD)))),
            f.mul(math::CosOp::create(b, ctx.loc, t),
                  f.div(f.mul(zn, f.polynomial(zz, kAiryAGN)),
                        f.polynomial(zz, kAiryAGD)))));
  // From 2.09: the decaying asymptotic form.
  Value zeta = f.div(f.mul(f.mul(f.c(2.0), x), f.sqrt(x)), f.c(3.0));
  Value invZeta = f.div(f.c(1.0), zeta);
  Value positive = f.div(
      f.mul(f.c(kInvSqrtPi), f.div(f.polynomial(invZeta, kAiryAN),
                                   f.polynomial(invZeta, kAiryAD))),
      f.mul(f.mul(f.c(2.0), f.sqrt(f.sqrt(x))), f.exp(zeta)));
  // Between: the Maclaurin series, summed while the last term of f is
  // above epsilon relative (no term elsewhere: the loop starts done).
  Value series = arith::AndIOp::create(b, ctx.loc, f.lt(x, f.c(2.09)),
                                      f.le(f.c(-2.09), x));
  Value z = f.mul(f.mul(x, x), x);
  // (f, g, k, m, n, t)
  SmallVector<Type> types(6, f.type);
  auto loop = scf::WhileOp::create(
      b, ctx.loc, types,
      ValueRange{f.c(1.0), x, f.c(1.0), f.c(1.0), x,
                 f.select(series, f.c(1.0), f.c(0.0))},
      [&](OpBuilder &cb, Location l, ValueRange args) {
        FloatMath g{cb, l, f.type};
        scf::ConditionOp::create(cb, l, g.lt(g.c(eps), args[5]), args);
      },
      [&](OpBuilder &lb, Location l, ValueRange args) {
        FloatMath g{lb, l, f.type};
        Value one = g.c(1.0);
        Value k = g.add(args[2], one);
        Value m = g.div(g.mul(args[3], z), k);
        Value n = g.mul(args[4], z);
        k = g.add(k, one);
        n = g.div(n, k);
        m = g.div(m, k);
        Value fv = g.add(args[0], m);
        k = g.add(k, one);
        n = g.div(n, k);
        Value gv = g.add(args[1], n);
        scf::YieldOp::create(
            lb, l, ValueRange{fv, gv, k, m, n, g.abs(g.div(m, fv))});
      });
  Value v = f.sub(f.mul(f.c(0.355028053887817239260), loop.getResult(0)),
                  f.mul(f.c(0.258819403792806798405), loop.getResult(1)));
  v = f.select(series, v, positive);
  v = f.select(f.lt(x, f.c(-2.09)), negative, v);
  v = f.select(f.lt(f.c(103.892), x), f.c(0.0), v);
  v = f.select(f.eq(f.abs(x), f.c(INFINITY)), f.c(NAN), v);
  return result(ctx, v);
}

//===----------------------------------------------------------------------===//
// frexp
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> codegen::emitFrexp(ScalarOpContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  if (ctx.operands.size() != 1 || ctx.op->getNumResults() != 2 ||
      !isa<FloatType>(ctx.operands[0].getType()) ||
      !ctx.op->getResult(1).getType().isInteger(32))
    return ctx.op->emitOpError("'frexp' takes a float and returns the "
                               "mantissa and an i32 exponent");
  // C's frexp: x = m * 2^e with 0.5 <= |m| < 1; zero, inf and NaN give
  // (x, 0). f16 and bf16 are exact in f32.
  Type type = computeType(ctx, ctx.operands[0].getType());
  Value x = emitTorchCast(b, loc, ctx.operands[0], type);
  bool f64 = type.isF64();
  unsigned width = f64 ? 64 : 32, mantissaBits = f64 ? 52 : 23;
  int64_t bias = f64 ? 1022 : 126, expMask = f64 ? 0x7ff : 0xff;
  Type intType = b.getIntegerType(width);
  FloatMath f{b, loc, type};
  auto cst = [&](int64_t v) { return createIntConstant(b, loc, intType, v); };
  // Subnormals: scaled into the normal range first.
  constexpr int kScale = 64;
  Value subnormal =
      f.lt(f.abs(x), f.c(f64 ? 2.2250738585072014e-308 : 1.17549435e-38));
  Value scaled = f.select(subnormal, f.mul(x, f.c(std::ldexp(1.0, kScale))), x);
  Value bits = arith::BitcastOp::create(b, loc, intType, scaled);
  Value biased = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, cst(mantissaBits)),
      cst(expMask));
  Value exponent = arith::SubIOp::create(b, loc, biased, cst(bias));
  exponent = arith::SelectOp::create(
      b, loc, subnormal, arith::SubIOp::create(b, loc, exponent, cst(kScale)),
      exponent);
  // Keep sign and fraction, set the exponent field to that of 0.5.
  int64_t keep = ~(expMask << mantissaBits);
  Value mantissaBitsV = arith::OrIOp::create(
      b, loc, arith::AndIOp::create(b, loc, bits, cst(keep)),
      cst(bias << mantissaBits));
  Value mantissa = arith::BitcastOp::create(b, loc, type, mantissaBitsV);
  // Zero, inf and NaN: x itself, exponent 0.
  Value special = arith::OrIOp::create(
      b, loc, f.eq(x, f.c(0.0)),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UEQ, f.abs(x),
                            f.c(INFINITY)));
  mantissa = f.select(special, x, mantissa);
  exponent = arith::SelectOp::create(b, loc, special, cst(0), exponent);
  Type i32 = b.getI32Type();
  Value exponent32 =
      f64 ? Value(arith::TruncIOp::create(b, loc, i32, exponent)) : exponent;
  return SmallVector<Value>{
      emitTorchCast(b, loc, mantissa, ctx.op->getResult(0).getType()),
      exponent32};
}
