//===- BackendOps.cpp - Operations only one Inductor backend emits --------===//
//
// Triton's `dot` (native matmul: the product of one (i, k) and one (k, j)
// element, which the `dot` reduction sums over k) and
// `inline_asm_elementwise` (PTX text, which only the GPU can run), and
// Halide's `halide_clamp` (an indirect index clamped into its range).
//
//===----------------------------------------------------------------------===//

#include "ScalarOpsImpl.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

FailureOr<SmallVector<Value>> codegen::emitDot(ScalarOpContext &ctx) {
  if (ctx.operands.size() != 2 || ctx.op->getNumResults() != 1)
    return ctx.op->emitOpError("'dot' takes two operands and has one result");
  // One term of tl.dot: the operands in the result's type, multiplied
  // (booleans: and).
  Type type = ctx.op->getResult(0).getType();
  Value x = emitTorchCast(ctx.b, ctx.loc, ctx.operands[0], type);
  Value y = emitTorchCast(ctx.b, ctx.loc, ctx.operands[1], type);
  if (isa<FloatType>(type))
    return SmallVector<Value>{arith::MulFOp::create(ctx.b, ctx.loc, x, y)};
  if (type.isInteger(1))
    return SmallVector<Value>{arith::AndIOp::create(ctx.b, ctx.loc, x, y)};
  if (type.isInteger())
    return SmallVector<Value>{arith::MulIOp::create(ctx.b, ctx.loc, x, y)};
  return ctx.op->emitOpError("'dot' of ") << type << " has no lowering";
}

FailureOr<SmallVector<Value>> codegen::emitHalideClamp(ScalarOpContext &ctx) {
  // hl.clamp(value, 0, size - 1); `check` changes nothing in Halide's code.
  if (ctx.operands.size() != 1 || ctx.op->getNumResults() != 1 ||
      !ctx.operands[0].getType().isSignlessInteger() ||
      ctx.operands[0].getType().isInteger(1))
    return ctx.op->emitOpError("'halide_clamp' takes one integer value");
  auto sizeAttr = ctx.op->getAttrOfType<StringAttr>("size");
  int64_t size = 0;
  if (!sizeAttr || sizeAttr.getValue().trim().getAsInteger(10, size) ||
      size < 1)
    return ctx.op->emitOpError("'halide_clamp' with size '")
           << (sizeAttr ? sizeAttr.getValue() : StringRef("<none>"))
           << "' has no lowering (sizes of graphs with size symbols are not "
              "lowered)";
  Value v = ctx.operands[0];
  Type type = v.getType();
  Value lo = createIntConstant(ctx.b, ctx.loc, type, 0);
  Value hi = createIntConstant(ctx.b, ctx.loc, type, size - 1);
  Value clamped = arith::MaxSIOp::create(ctx.b, ctx.loc, v, lo);
  return SmallVector<Value>{
      arith::MinSIOp::create(ctx.b, ctx.loc, clamped, hi)};
}

/// The register type of one inline-assembly constraint (`r`, `=r`, `l`,
/// ...), or null for one the lowering does not know.
static Type constraintType(MLIRContext *context, StringRef constraint) {
  constraint = constraint.trim().ltrim("=");
  if (constraint == "h")
    return IntegerType::get(context, 16);
  if (constraint == "r")
    return IntegerType::get(context, 32);
  if (constraint == "l")
    return IntegerType::get(context, 64);
  if (constraint == "f")
    return Float32Type::get(context);
  if (constraint == "d")
    return Float64Type::get(context);
  return {};
}

/// `value` reinterpreted (floats of the same width) or converted (integers)
/// to the register type `type`; null where neither applies.
static Value toRegister(OpBuilder &b, Location loc, Value value, Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = type.getIntOrFloatBitWidth();
  if (isa<FloatType>(from) || isa<FloatType>(type))
    return fromWidth == toWidth ? arith::BitcastOp::create(b, loc, type, value)
                                : Value();
  if (from.isInteger(1))
    return arith::ExtUIOp::create(b, loc, type, value);
  return castIntegerLike(b, loc, value, type);
}

FailureOr<SmallVector<Value>> codegen::emitInlineAsm(ScalarOpContext &ctx) {
  Operation *op = ctx.op;
  if (!ctx.gpu)
    return op->emitOpError("'inline_asm_elementwise' (Inductor's "
                           "ops.inline_asm_elementwise) carries PTX assembly, "
                           "which the CPU cannot run: it has no lowering for "
                           "the CPU");
  auto text = [&](StringRef name) -> StringRef {
    auto attr = op->getAttrOfType<StringAttr>(name);
    return attr ? attr.getValue() : StringRef();
  };
  auto asmString = op->getAttrOfType<StringAttr>("asm");
  if (!asmString || op->getNumResults() != 1)
    return op->emitOpError(
        "'inline_asm_elementwise' needs its assembly text and one result");
  // Triton packs `pack` elements into one call; one element per call is
  // all Inductor's own code asks for.
  StringRef pack = text("pack");
  if (!pack.empty() && pack != "1")
    return op->emitOpError("'inline_asm_elementwise' with pack=")
           << pack << " has no lowering (only pack=1)";
  // Triton's default constraints: one 32-bit output, 32-bit inputs.
  std::string constraints = text("constraints").str();
  if (constraints.empty() || constraints == "None") {
    constraints = "=r";
    for (size_t i = 0; i < ctx.operands.size(); ++i)
      constraints += ",r";
  }
  SmallVector<StringRef> parts;
  StringRef(constraints).split(parts, ',');
  if (parts.size() != ctx.operands.size() + 1)
    return op->emitOpError("'inline_asm_elementwise' constraints '")
           << constraints << "' do not name one output and "
           << ctx.operands.size() << " inputs";
  MLIRContext *context = op->getContext();
  Type resultType = op->getResult(0).getType();
  Type outType = constraintType(context, parts[0]);
  if (!outType ||
      outType.getIntOrFloatBitWidth() != resultType.getIntOrFloatBitWidth())
    return op->emitOpError("'inline_asm_elementwise' output constraint '")
           << parts[0] << "' does not hold a " << resultType;
  SmallVector<Value> inputs;
  for (auto [value, constraint] :
       llvm::zip(ctx.operands, ArrayRef(parts).drop_front())) {
    Type type = constraintType(context, constraint);
    Value reg = type ? toRegister(ctx.b, ctx.loc, value, type) : Value();
    if (!reg)
      return op->emitOpError("'inline_asm_elementwise' input constraint '")
             << constraint << "' does not hold a " << value.getType();
    inputs.push_back(reg);
  }
  bool sideEffects = text("is_pure") == "False";
  Value out = LLVM::InlineAsmOp::create(
                  ctx.b, ctx.loc, outType, inputs, asmString.getValue(),
                  constraints, sideEffects, /*is_align_stack=*/false,
                  LLVM::tailcallkind::TailCallKind::None,
                  /*asm_dialect=*/LLVM::AsmDialectAttr(),
                  /*operand_attrs=*/ArrayAttr())
                  .getResult(0);
  if (outType != resultType)
    out = arith::BitcastOp::create(ctx.b, ctx.loc, resultType, out);
  return SmallVector<Value>{out};
}
