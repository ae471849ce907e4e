//===- Dtypes.cpp - torch dtypes ------------------------------------------===//
//
// The element types of torch dtypes (scheduler-opt/Support/Dtypes.def) and the
// torch names of FX annotation codes.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "mlir/IR/BuiltinTypes.h"
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
  // torch's aliases of the dtypes (torch.float is torch.float32).
  name = llvm::StringSwitch<StringRef>(name)
             .Case("float", "float32")
             .Case("half", "float16")
             .Case("double", "float64")
             .Case("long", "int64")
             .Default(name);
  Type type;
#define FUSION_DTYPE(FX, TORCH, NAME, TYPE)                                   \
  if (!type && name == #TORCH)                                                 \
    type = TYPE;
#include "scheduler-opt/Support/Dtypes.def"
  if (type)
    return type;
  return locator.emitError(loc)
         << "unsupported dtype '" << dtype
         << "' (expected torch.float32, float16, bfloat16, float64, a float8 "
            "type, bool, int8 to int64, uint8 to uint64, complex32 to "
            "complex128, float4_e2m1fn_x2 or bits1x8 to bits16)";
}
