//===- IndexExpr.h - Sympy index expressions as AffineExpr ------*- C++ -*-===//
//
// Parses the index expressions Inductor prints with sympy (`4096*p0 + p1`,
// `ModularIndexing((p2 - 256), 1, 64)`, `129*((p0//128))`, `256*indirect0 +
// p1`) into affine expressions.
//
//===----------------------------------------------------------------------===//

#ifndef FUSION_LIB_TARGET_INDUCTOR_INDEXEXPR_H
#define FUSION_LIB_TARGET_INDUCTOR_INDEXEXPR_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
namespace fusion {
namespace inductor {

/// Maps a variable name of an index expression to the affine expression it
/// stands for (a dimension or a symbol); returns null for unknown names.
using IndexVarResolver = function_ref<AffineExpr(StringRef name)>;

/// Emits an error located at a character of the text being parsed.
using ErrorEmitter = function_ref<InFlightDiagnostic(const char *at)>;

/// Parses `text`, a sympy index expression over variables `resolve` knows.
/// Supports integers, `+`, `-`, `*` by a constant, `//` and `%` by a positive
/// constant, `FloorDiv(x, d)`, `CleanDiv(x, d)`, `ModularIndexing(x, d, m)`
/// (`(x floordiv d) mod m`), `Mod(x, m)` and `PythonMod(x, m)`. Anything
/// else (products of variables, `/`, other functions) is an error.
FailureOr<AffineExpr> parseIndexExpr(StringRef text, MLIRContext *context,
                                     IndexVarResolver resolve,
                                     ErrorEmitter emitError);

} // namespace inductor
} // namespace fusion
} // namespace mlir

#endif // FUSION_LIB_TARGET_INDUCTOR_INDEXEXPR_H
