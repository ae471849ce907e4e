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
  auto unsignedInt = [&](unsigned width) {
    return IntegerType::get(ctx, width, IntegerType::Unsigned);
  };
  Type type = llvm::StringSwitch<Type>(name)
                  .Case("float32", Float32Type::get(ctx))
                  .Case("float", Float32Type::get(ctx))
                  .Case("float16", Float16Type::get(ctx))
                  .Case("half", Float16Type::get(ctx))
                  .Case("bfloat16", BFloat16Type::get(ctx))
                  .Case("float64", Float64Type::get(ctx))
                  .Case("double", Float64Type::get(ctx))
                  .Case("float8_e4m3fn", Float8E4M3FNType::get(ctx))
                  .Case("float8_e5m2", Float8E5M2Type::get(ctx))
                  .Case("float8_e4m3fnuz", Float8E4M3FNUZType::get(ctx))
                  .Case("float8_e5m2fnuz", Float8E5M2FNUZType::get(ctx))
                  .Case("float8_e8m0fnu", Float8E8M0FNUType::get(ctx))
                  .Case("bool", IntegerType::get(ctx, 1))
                  .Case("int8", IntegerType::get(ctx, 8))
                  .Case("int16", IntegerType::get(ctx, 16))
                  .Case("int32", IntegerType::get(ctx, 32))
                  .Case("int64", IntegerType::get(ctx, 64))
                  .Case("long", IntegerType::get(ctx, 64))
                  .Case("uint8", unsignedInt(8))
                  .Case("uint16", unsignedInt(16))
                  .Case("uint32", unsignedInt(32))
                  .Case("uint64", unsignedInt(64))
                  .Default(Type());
  if (type)
    return type;
  return locator.emitError(loc)
         << "unsupported dtype '" << dtype
         << "' (expected torch.float32, float16, bfloat16, float64, a float8 "
            "type, bool, int8 to int64 or uint8 to uint64)";
}
