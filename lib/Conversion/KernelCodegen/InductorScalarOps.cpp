//===- InductorScalarOps.cpp - Dispatching Inductor's scalar ops ----------===//
//
// One table row per `fusion.opaque` name with an emitter of its own and
// the targets it serves; other names fall back to a libm / libdevice call
// (ScalarFunctions.cpp). Also here: the device asserts and the upstream
// ops a target cannot lower as they are (arith.remf on the GPU,
// math.ipowi, math.fpowi with a 64-bit exponent).
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Conversion/KernelCodegen/InductorScalarOps.h"
#include "ScalarOpsImpl.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

//===----------------------------------------------------------------------===//
// Device asserts
//===----------------------------------------------------------------------===//

/// `check_bounds(index, size, syms...) {lower, upper}`: asserts
/// 0 <= index (lower) and index < size (upper), as Triton's
/// `tl.device_assert` in Inductor's `indirect_assert`; its results are the
/// indirect indices it guards, unchanged (the importer routes the loads
/// through them, so the check runs before they read).
static FailureOr<SmallVector<Value>> emitCheckBounds(ScalarOpContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  if (ctx.operands.size() < 2 ||
      ctx.op->getNumResults() != ctx.operands.size() - 2)
    return ctx.op->emitOpError("'check_bounds' takes an index, a size and "
                               "the indices it guards, which it returns");
  Type i64 = b.getI64Type();
  Value index = castIntegerLike(b, loc, ctx.operands[0], i64);
  Value size = castIntegerLike(b, loc, ctx.operands[1], i64);
  auto flag = [&](StringRef name) {
    auto attr = ctx.op->getAttrOfType<BoolAttr>(name);
    return attr && attr.getValue();
  };
  Value ok = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  if (flag("lower"))
    ok = arith::AndIOp::create(
        b, loc, ok,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index,
                              createIntConstant(b, loc, i64, 0)));
  if (flag("upper"))
    ok = arith::AndIOp::create(
        b, loc, ok,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, size));
  // Triton's message, with the dump location of the check.
  std::string message = "index out of bounds: ";
  message += flag("lower") ? "0 <= index" : "index";
  if (flag("upper"))
    message += " < size";
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    message += " (ops.check_bounds at " + fileLoc.getFilename().str() + ":" +
               std::to_string(fileLoc.getLine()) + ")";
  cf::AssertOp::create(b, loc, ok, message);
  return SmallVector<Value>(ctx.operands.drop_front(2));
}

/// `device_assert_async(cond) {msg}`: asserts cond; its result is cond
/// (Inductor stores the assertion's value in a boolean buffer).
static FailureOr<SmallVector<Value>> emitDeviceAssert(ScalarOpContext &ctx) {
  if (ctx.operands.size() != 1 || !ctx.operands[0].getType().isInteger(1) ||
      ctx.op->getNumResults() > 1)
    return ctx.op->emitOpError("'device_assert_async' takes one i1 condition");
  auto msg = ctx.op->getAttrOfType<StringAttr>("msg");
  cf::AssertOp::create(ctx.b, ctx.loc, ctx.operands[0],
                       msg ? msg.getValue() : "device assertion failed");
  SmallVector<Value> results;
  if (ctx.op->getNumResults() == 1)
    results.push_back(ctx.operands[0]);
  return results;
}

//===----------------------------------------------------------------------===//
// Upstream ops a target lacks
//===----------------------------------------------------------------------===//

/// arith.remf on the GPU: libdevice's fmod (llvm.frem has no NVPTX
/// lowering).
static FailureOr<SmallVector<Value>> emitRemF(ScalarOpContext &ctx) {
  FailureOr<Value> v = emitLibraryFunction(ctx, "fmod", ctx.operands,
                                           ctx.op->getResult(0).getType());
  if (failed(v))
    return failure();
  return SmallVector<Value>{*v};
}

/// math.ipowi: PyTorch's integer pow (powi in ATen's CUDA and CPU
/// kernels): square and multiply over the exponent's bits; a negative
/// exponent gives 1 for base 1, +-1 for base -1 and 0 otherwise.
static FailureOr<SmallVector<Value>> emitIPowI(ScalarOpContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value base = ctx.operands[0], exp = ctx.operands[1];
  Type type = base.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  auto cst = [&](int64_t v) { return createIntConstant(b, loc, type, v); };
  Value lb = createIntConstant(b, loc, b.getIndexType(), 0);
  Value ub = createIntConstant(b, loc, b.getIndexType(), width);
  Value step = createIntConstant(b, loc, b.getIndexType(), 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, step, ValueRange{cst(1), base, exp},
      [&](OpBuilder &lb, Location l, Value, ValueRange args) {
        Value bit = arith::AndIOp::create(lb, l, args[2], cst(1));
        Value odd =
            arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ne, bit, cst(0));
        Value times = arith::MulIOp::create(lb, l, args[0], args[1]);
        Value acc = arith::SelectOp::create(lb, l, odd, times, args[0]);
        Value square = arith::MulIOp::create(lb, l, args[1], args[1]);
        Value rest = arith::ShRUIOp::create(lb, l, args[2], cst(1));
        scf::YieldOp::create(lb, l, ValueRange{acc, square, rest});
      });
  Value positive = loop.getResult(0);
  // Negative exponents.
  Value isOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, cst(1));
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, cst(-1));
  // One op per statement: the order of a call's arguments is unspecified,
  // and the printed IR must not depend on the compiler that built the tool.
  Value lowBit = arith::AndIOp::create(b, loc, exp, cst(1));
  Value oddExp =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, lowBit, cst(0));
  Value minusOne = cst(-1);
  Value minusOnePow = arith::SelectOp::create(b, loc, oddExp, minusOne, cst(1));
  Value zero = cst(0);
  Value ofMinusOne =
      arith::SelectOp::create(b, loc, isMinusOne, minusOnePow, zero);
  Value one = cst(1);
  Value negative = arith::SelectOp::create(b, loc, isOne, one, ofMinusOne);
  Value expNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exp, cst(0));
  return SmallVector<Value>{
      arith::SelectOp::create(b, loc, expNegative, negative, positive)};
}

/// math.fpowi with an exponent other than i32 (Inductor's float ** int64):
/// LLVM's powi takes a C int. The exponent is clamped into i32 keeping its
/// parity, which leaves every result unchanged: beyond 2^31 in magnitude,
/// |x| != 1 gives inf or 0 and +-1 gives +-1, signed by the parity.
static FailureOr<SmallVector<Value>> emitFPowI(ScalarOpContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value base = ctx.operands[0], exp = ctx.operands[1];
  Type i32 = b.getI32Type();
  Type type = exp.getType();
  if (type.getIntOrFloatBitWidth() > 32) {
    auto cst = [&](int64_t v) { return createIntConstant(b, loc, type, v); };
    Value odd = arith::AndIOp::create(b, loc, exp, cst(1));
    // INT32_MAX - 1 + odd and INT32_MIN + odd have exp's parity.
    Value hi = arith::AddIOp::create(b, loc, cst(INT32_MAX - 1), odd);
    Value lo = arith::AddIOp::create(b, loc, cst(INT32_MIN), odd);
    exp = arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, exp, lo),
                                 hi);
  }
  exp = castIntegerLike(b, loc, exp, i32);
  return SmallVector<Value>{math::FPowIOp::create(b, loc, base, exp)};
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

namespace {
enum TargetMask : unsigned { kCPU = 1, kGPU = 2, kBoth = 3 };

struct OpaqueRow {
  StringRef name;
  ScalarOpEmitter emit;
  unsigned targets;
};
} // namespace

/// Where a row serves only one target, the other calls the library
/// function of ScalarFunctions.cpp (libdevice's erfinv, i0 and normcdf on
/// the GPU, as Inductor's Triton code does).
static const OpaqueRow kOpaqueRows[] = {
    {"airy_ai", emitAiryAi, kBoth},
    {"bucketize", emitBucketize, kBoth},
    {"chebyshev_polynomial_t", emitPolynomial, kBoth},
    {"chebyshev_polynomial_u", emitPolynomial, kBoth},
    {"chebyshev_polynomial_v", emitPolynomial, kBoth},
    {"chebyshev_polynomial_w", emitPolynomial, kBoth},
    {"check_bounds", emitCheckBounds, kBoth},
    {"device_assert_async", emitDeviceAssert, kBoth},
    {"digamma", emitDigamma, kBoth},
    {"dot", emitDot, kBoth},
    {"erfcx", emitErfcx, kCPU},
    {"erfinv", emitErfinv, kCPU},
    {"frexp", emitFrexp, kBoth},
    {"gammainc", emitIgamma, kBoth},
    {"gammaincc", emitIgammac, kBoth},
    {"halide_clamp", emitHalideClamp, kBoth},
    {"i0", emitI0, kCPU},
    {"hermite_polynomial_h", emitPolynomial, kBoth},
    {"hermite_polynomial_he", emitPolynomial, kBoth},
    {"i0e", emitI0e, kBoth},
    {"i1", emitI1, kCPU},
    {"i1e", emitI1e, kBoth},
    {"igamma", emitIgamma, kBoth},
    {"igammac", emitIgammac, kBoth},
    // PTX text: the CPU row only reports that it cannot run it.
    {"inline_asm_elementwise", emitInlineAsm, kBoth},
    {"laguerre_polynomial_l", emitPolynomial, kBoth},
    {"log_ndtr", emitLogNdtr, kBoth},
    {"legendre_polynomial_p", emitPolynomial, kBoth},
    {"modified_bessel_i0", emitI0, kCPU},
    {"modified_bessel_i1", emitI1, kCPU},
    {"modified_bessel_k0", emitK0, kBoth},
    {"modified_bessel_k1", emitK1, kBoth},
    {"ndtr", emitNdtr, kCPU},
    {"ndtri", emitNdtri, kCPU},
    {"polygamma", emitPolygamma, kBoth},
    {"randint64", emitRandint64, kBoth},
    {"randn", emitRandn, kBoth},
    {"scaled_modified_bessel_k0", emitK0e, kBoth},
    {"scaled_modified_bessel_k1", emitK1e, kBoth},
    {"shifted_chebyshev_polynomial_t", emitPolynomial, kBoth},
    {"shifted_chebyshev_polynomial_u", emitPolynomial, kBoth},
    {"shifted_chebyshev_polynomial_v", emitPolynomial, kBoth},
    {"shifted_chebyshev_polynomial_w", emitPolynomial, kBoth},
    {"spherical_bessel_j0", emitSphericalBesselJ0, kBoth},
    {"zeta", emitZeta, kBoth},
};

static const OpaqueRow *lookupRow(StringRef name, bool gpu) {
  for (const OpaqueRow &row : kOpaqueRows)
    if (row.name == name && (row.targets & (gpu ? kGPU : kCPU)))
      return &row;
  return nullptr;
}

bool codegen::isInductorScalarOp(Operation *op) {
  return isa<OpaqueOp, arith::RemFOp, math::IPowIOp, math::FPowIOp>(op);
}

LogicalResult codegen::checkInductorScalarOp(Operation *op) {
  auto opaque = dyn_cast<OpaqueOp>(op);
  if (!opaque)
    return success();
  StringRef name = opaque.getOpName();
  for (bool gpu : {false, true})
    if (lookupRow(name, gpu) || !getLibraryFunction(name, gpu).empty())
      return success();
  return opaque.emitOpError("'")
         << name << "' (Inductor's ops." << name << ") has no lowering";
}

FailureOr<SmallVector<Value>>
codegen::emitInductorScalarOp(OpBuilder &b, Operation *op,
                              ValueRange operands) {
  // The kernel being built may not be attached to its module yet: then the
  // module of the graph (the CPU lowering puts kernels there).
  Operation *table = b.getInsertionBlock()->getParentOp();
  while (table && !table->hasTrait<OpTrait::SymbolTable>())
    table = table->getParentOp();
  if (!table)
    table = op->getParentOfType<ModuleOp>();
  bool gpu = table && table->getName().getStringRef() == "gpu.module";
  auto opaque = dyn_cast<OpaqueOp>(op);
  StringRef name =
      opaque ? opaque.getOpName() : op->getName().getStringRef();
  ScalarOpContext ctx{b, op, name, op->getLoc(), operands, table, gpu};
  if (isa<arith::RemFOp>(op)) {
    if (gpu)
      return emitRemF(ctx);
    return SmallVector<Value>{
        arith::RemFOp::create(b, ctx.loc, operands[0], operands[1])};
  }
  if (isa<math::IPowIOp>(op))
    return emitIPowI(ctx);
  if (isa<math::FPowIOp>(op))
    return emitFPowI(ctx);
  if (const OpaqueRow *row = lookupRow(name, gpu))
    return row->emit(ctx);
  if (op->getNumResults() != 1)
    return op->emitOpError("'")
           << name << "' (Inductor's ops." << name << ") has no lowering for "
           << ctx.targetName();
  FailureOr<Value> v =
      emitLibraryFunction(ctx, name, operands, op->getResult(0).getType());
  if (failed(v))
    return failure();
  return SmallVector<Value>{*v};
}
