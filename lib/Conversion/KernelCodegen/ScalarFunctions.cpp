//===- ScalarFunctions.cpp - Inductor's special functions as calls -------===//
//
// Some operations the importer keeps as `fusion.opaque` are functions of
// the C math library on the CPU and of libdevice on the GPU (which the
// NVVM lowering links): the lowering calls them. They compute in f32 or
// f64; other operand types convert to f32 and back.
//
//===----------------------------------------------------------------------===//

#include "fusion/Conversion/KernelCodegen/ScalarCodegen.h"

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

static const ScalarFunction *lookup(StringRef name) {
  for (const ScalarFunction &fn : kScalarFunctions)
    if (fn.op == name)
      return &fn;
  return nullptr;
}

bool codegen::hasScalarFunction(StringRef name) { return lookup(name); }

FailureOr<Value> codegen::emitScalarFunctionCall(OpBuilder &b, Operation *op,
                                                 StringRef name,
                                                 ValueRange operands,
                                                 Type resultType) {
  Location loc = op->getLoc();
  // The kernel being built may not be attached to its module yet: then the
  // module of the graph (the CPU lowering puts kernels there).
  Operation *table = b.getInsertionBlock()->getParentOp();
  while (table && !table->hasTrait<OpTrait::SymbolTable>())
    table = table->getParentOp();
  if (!table)
    table = op->getParentOfType<ModuleOp>();
  bool gpu = table && table->getName().getStringRef() == "gpu.module";
  const ScalarFunction *fn = lookup(name);
  StringRef f32Name = fn ? (gpu ? fn->gpu : fn->cpu) : StringRef();
  if (f32Name.empty())
    return op->emitOpError("'")
           << name << "' (Inductor's ops." << name << ") has no lowering for "
           << (gpu ? "the GPU" : "the CPU");
  Type type = resultType.isF64() ? resultType : Type(b.getF32Type());
  std::string callee = type.isF64() ? f32Name.drop_back().str() : f32Name.str();
  SmallVector<Value> args;
  for (Value v : operands)
    args.push_back(emitTorchCast(b, loc, v, type));
  SmallVector<Type> argTypes(args.size(), type);
  auto fnType = b.getFunctionType(argTypes, type);
  if (!SymbolTable::lookupSymbolIn(table, callee)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&table->getRegion(0).front());
    auto decl = func::FuncOp::create(b, loc, callee, fnType);
    decl.setPrivate();
  }
  Value result =
      func::CallOp::create(b, loc, callee, TypeRange{type}, args).getResult(0);
  return emitTorchCast(b, loc, result, resultType);
}
