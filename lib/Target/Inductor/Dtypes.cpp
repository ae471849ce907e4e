//===- Dtypes.cpp - torch dtypes ------------------------------------------===//
//
// The element types of torch dtypes.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

FailureOr<Type>
mlir::fusion::inductor::convertDtype(StringRef dtype, const char *loc,
                                     const DumpLocator &locator) {
  MLIRContext *ctx = locator.getContext();
  StringRef name = dtype;
  name.consume_front("torch.");
  Type type = llvm::StringSwitch<Type>(name)
                  .Case("float32", Float32Type::get(ctx))
                  .Case("float", Float32Type::get(ctx))
                  .Case("float16", Float16Type::get(ctx))
                  .Case("half", Float16Type::get(ctx))
                  .Case("bfloat16", BFloat16Type::get(ctx))
                  .Case("float64", Float64Type::get(ctx))
                  .Case("double", Float64Type::get(ctx))
                  .Case("bool", IntegerType::get(ctx, 1))
                  .Case("int8", IntegerType::get(ctx, 8))
                  .Case("int16", IntegerType::get(ctx, 16))
                  .Case("int32", IntegerType::get(ctx, 32))
                  .Case("int64", IntegerType::get(ctx, 64))
                  .Case("long", IntegerType::get(ctx, 64))
                  .Default(Type());
  if (type)
    return type;
  if (name == "uint8" || name == "uint16" || name == "uint32" ||
      name == "uint64")
    return locator.emitError(loc)
           << "unsupported dtype '" << dtype
           << "': the fusion dialect's integers are signless and the importer "
              "treats them as signed, so unsigned dtypes would change meaning "
              "(see docs/Importer.md)";
  return locator.emitError(loc)
         << "unsupported dtype '" << dtype
         << "' (expected torch.float32, float16, bfloat16, float64, bool, "
            "int8, int16, int32 or int64)";
}
