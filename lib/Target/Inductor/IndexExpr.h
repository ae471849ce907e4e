//===- IndexExpr.h - Sympy index expressions as AffineExpr ------*- C++ -*-===//
//
// Parses the index expressions Inductor prints with sympy (`4096*p0 + p1`,
// `ModularIndexing((p2 - 256), 1, 64)`, `129*((p0//128))`, `256*indirect0 +
// p1`) into affine expressions.
//
// Parts that affine maps cannot say (`Abs(p0 - 4)`, `Min(p0, 7)`,
// `Where(p0 < 5, p0, 4)`, `p0*p1`, `PowByNatural(p0, 2)`, ...) become
// *index terms*: each is computed in the loop body and bound to a map
// symbol, as indirect indices are. Analyses treat such a symbol as unknown,
// so they stay exact on the affine rest and are conservative on the term.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_INDEXEXPR_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_INDEXEXPR_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace fusion {
namespace inductor {

/// Maps a variable name of an index expression to the affine expression it
/// stands for (a dimension or a symbol); returns null for unknown names.
using IndexVarResolver = function_ref<AffineExpr(StringRef name)>;

/// Emits an error located at a character of the text being parsed.
using ErrorEmitter = function_ref<InFlightDiagnostic(const char *at)>;

/// Tells which symbol positions the resolver gives size symbols (`s27`).
/// An expression in size symbols and constants is a size: products,
/// divisions, modulos and small powers by sizes stay affine (semi-affine)
/// instead of becoming index terms.
using SizeSymbolPredicate = function_ref<bool(unsigned position)>;

/// One operand of an index term: an integer (affine, possibly using the
/// symbols of other terms) or a float (another term or a literal).
struct IndexOperand {
  AffineExpr affine;
  /// Float operands: the term computing it, or a literal.
  int floatTerm = -1;
  std::optional<double> floatLiteral;
  bool isFloat() const { return !affine; }
};

/// A non-affine part of an index, computed in the loop body.
struct IndexTerm {
  /// A sympy function (`Abs`, `Min`, `Max`, `Where`, `PowByNatural`,
  /// `TruncToInt`, `ToFloat`, `OpaqueUnaryFn_sqrt`, ...) or an operator
  /// (`*`, `//`, `%`, `**`, `/`, `+`, `-`, `<`, `<=`, `>`, `>=`, `==`, `!=`).
  StringRef fn;
  SmallVector<IndexOperand, 3> args;
  /// Float terms compute in f64; integer terms in `index` and are bound to
  /// the map symbol `symbolBase + position in the term list`.
  bool isFloat = false;
  const char *loc = nullptr;
};

/// An index expression: the affine form and the terms its symbols at and
/// above `kIndexTermSymbolBase` stand for.
struct ParsedIndex {
  AffineExpr expr;
  SmallVector<IndexTerm, 1> terms;
};

/// Symbols of index terms start here; lower symbols are the resolver's
/// (indirect indices).
constexpr unsigned kIndexTermSymbolBase = 1u << 16;

/// Parses `text`, a sympy index expression over variables `resolve` knows,
/// into an affine expression. Supports integers, `+`, `-`, `*` by a
/// constant, `//` and `%` by a positive constant, `FloorDiv(x, d)`,
/// `CleanDiv(x, d)`, `ModularIndexing(x, d, m)` (`(x floordiv d) mod m`),
/// `Mod(x, m)` and `PythonMod(x, m)`. Anything else is an error.
/// With `isStride` (the text is a layout's stride), `Max(1, e)` is `e`. Torch's contiguous strides
/// (`make_contiguous_strides_for`) are products of `Max(1, size)` over the
/// later dimensions, so `e` is one of their sizes: usually in the form the
/// layout prints it, but Inductor may simplify the size and not the stride
/// (after `view(-1, 64)` under dynamic=True: size 64, stride
/// `Max(1, ((s27*s77)//(((s27*s77)//64))))`). The two differ only when `e`
/// is 0, and then a later dimension is empty and the tensor has no element
/// that a stride places; `e` stays as printed (a floordiv by a symbol
/// expression where it is one), computed from the symbols at run time.
FailureOr<AffineExpr> parseIndexExpr(StringRef text, MLIRContext *context,
                                     IndexVarResolver resolve,
                                     ErrorEmitter emitError,
                                     SizeSymbolPredicate isSizeSymbol = {},
                                     bool isStride = false);

/// Parses `text` as parseIndexExpr does, and also every function of
/// torch/utils/_sympy/functions.py and sympy that Inductor prints in
/// indices, turning non-affine parts into index terms.
FailureOr<ParsedIndex> parseIndex(StringRef text, MLIRContext *context,
                                  IndexVarResolver resolve,
                                  ErrorEmitter emitError,
                                  SizeSymbolPredicate isSizeSymbol = {});

/// The index functions parseIndex takes, with their arity (0: any number,
/// at least one) and whether they compute a float.
struct IndexFunctionInfo {
  StringRef name;
  unsigned arity;
  bool isFloat;
};
ArrayRef<IndexFunctionInfo> getIndexFunctions();

} // namespace inductor
} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_INDEXEXPR_H
