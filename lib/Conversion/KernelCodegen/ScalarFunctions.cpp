//===- ScalarFunctions.cpp - Inductor's special functions as calls -------===//
//
// Some operations the importer keeps as `fusion.opaque` are functions of
// the C math library on the CPU and of libdevice on the GPU (which the
// NVVM lowering links), as in Inductor's C++ and Triton code: the lowering
// calls them. They compute in f32 or f64; other operand types convert to
// f32 and back.
//
//===----------------------------------------------------------------------===//

#include "ScalarOpsImpl.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

namespace {
/// The f32 functions computing an Inductor operation (the f64 ones drop
/// the `f`); empty where the target has none.
struct ScalarFunction {
  StringRef op;
  StringRef cpu;
  StringRef gpu;
};
} // namespace

static const ScalarFunction kScalarFunctions[] = {
    {"bessel_j0", "j0f", "__nv_j0f"},
    {"bessel_j1", "j1f", "__nv_j1f"},
    {"bessel_y0", "y0f", "__nv_y0f"},
    {"bessel_y1", "y1f", "__nv_y1f"},
    {"erfcx", "", "__nv_erfcxf"},
    {"erfinv", "", "__nv_erfinvf"},
    // arith.remf: llvm.frem has no NVPTX lowering; Triton's fmod is
    // libdevice's too.
    {"fmod", "fmodf", "__nv_fmodf"},
    {"hypot", "hypotf", "__nv_hypotf"},
    {"i0", "", "__nv_cyl_bessel_i0f"},
    {"i1", "", "__nv_cyl_bessel_i1f"},
    {"lgamma", "lgammaf", "__nv_lgammaf"},
    {"modified_bessel_i0", "", "__nv_cyl_bessel_i0f"},
    {"modified_bessel_i1", "", "__nv_cyl_bessel_i1f"},
    {"ndtr", "", "__nv_normcdff"},
    {"ndtri", "", "__nv_normcdfinvf"},
    {"nextafter", "nextafterf", "__nv_nextafterf"},
};

StringRef codegen::getLibraryFunction(StringRef name, bool gpu) {
  for (const ScalarFunction &fn : kScalarFunctions)
    if (fn.op == name)
      return gpu ? fn.gpu : fn.cpu;
  return {};
}

Value codegen::emitFunctionCall(ScalarOpContext &ctx, StringRef callee,
                                ValueRange args, Type resultType) {
  OpBuilder &b = ctx.b;
  auto fnType = b.getFunctionType(TypeRange(args), resultType);
  if (!SymbolTable::lookupSymbolIn(ctx.symbolTable, callee)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ctx.symbolTable->getRegion(0).front());
    auto decl = func::FuncOp::create(b, ctx.loc, callee, fnType);
    decl.setPrivate();
  }
  return func::CallOp::create(b, ctx.loc, callee, TypeRange{resultType}, args)
      .getResult(0);
}

FailureOr<Value> codegen::emitLibraryFunction(ScalarOpContext &ctx,
                                              StringRef name,
                                              ValueRange operands,
                                              Type resultType) {
  StringRef f32Name = getLibraryFunction(name, ctx.gpu);
  if (f32Name.empty())
    return ctx.op->emitOpError("'")
           << name << "' (Inductor's ops." << name << ") has no lowering for "
           << ctx.targetName();
  Type type = resultType.isF64() ? resultType : Type(ctx.b.getF32Type());
  std::string callee =
      type.isF64() ? f32Name.drop_back().str() : f32Name.str();
  SmallVector<Value> args;
  for (Value v : operands)
    args.push_back(emitTorchCast(ctx.b, ctx.loc, v, type));
  Value result = emitFunctionCall(ctx, callee, args, type);
  return emitTorchCast(ctx.b, ctx.loc, result, resultType);
}
