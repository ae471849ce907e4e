//===- Dtypes.cpp - torch dtypes and name order ---------------------------===//
//
// The element types of torch dtypes, and the natural order of buffer
// names that fixes the order of graph inputs and extern operands.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

bool mlir::fusion::inductor::naturalLess(StringRef a, StringRef b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (llvm::isDigit(a[i]) && llvm::isDigit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && llvm::isDigit(a[ie]))
        ++ie;
      while (je < b.size() && llvm::isDigit(b[je]))
        ++je;
      StringRef na = a.slice(i, ie).ltrim('0'), nb = b.slice(j, je).ltrim('0');
      if (na.size() != nb.size())
        return na.size() < nb.size();
      if (int c = na.compare(nb))
        return c < 0;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j])
      return a[i] < b[j];
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j)
    return a.size() - i < b.size() - j;
  return a < b;
}

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
