//===- SizeVars.h - Inductor's V.graph.sizevars -----------------*- C++ -*-===//
//
// Reasoning on symbolic sizes as Inductor's SizeVarAllocator does it: exact
// symbolic facts (`statically_known_equals`, `statically_known_multiple_of`,
// `statically_known_gt`) where they are decidable from the expressions alone,
// `false` (unknown) otherwise, and size hints for heuristics. Sizes are
// affine expressions over a graph's size symbols (SizeExpr.h). A decision
// that needs a hint the graph does not declare records the symbol; the pass
// reports it.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_ANALYSIS_SIZEVARS_H
#define SCHEDULER_OPT_ANALYSIS_SIZEVARS_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/AffineExpr.h"

#include <optional>

namespace mlir {
namespace fusion {

class SizeVars {
public:
  SizeVars() = default;
  explicit SizeVars(GraphOp graph);
  /// The hints of symbols s0, s1, ... (kSymbolicSize: no hint).
  explicit SizeVars(ArrayRef<int64_t> hints) : hints(hints) {}

  /// Canonical form of a size or index expression (canonicalizeIndexExpr):
  /// equal sums and products of symbols compare equal.
  static AffineExpr simplify(AffineExpr expr);
  /// The product of `sizes`, canonical.
  static AffineExpr product(MLIRContext *ctx, ArrayRef<AffineExpr> sizes);

  /// `a == b` for every value of the symbols.
  static bool staticallyKnownEquals(AffineExpr a, AffineExpr b);
  /// `num / den` when `num` is a multiple of `den` for every value of the
  /// symbols (`s0 * s1 * 512` by `s1 * 8` gives `s0 * 64`), else nullopt.
  static std::optional<AffineExpr> exactQuotient(AffineExpr num,
                                                 AffineExpr den);
  static bool staticallyKnownMultipleOf(AffineExpr num, AffineExpr den) {
    return exactQuotient(num, den).has_value();
  }
  /// `a > b` for every value of the symbols, with sizes positive and size
  /// symbols at least 2 (Inductor's range of a dynamic size): decided for
  /// constants and for `a = q * b` with `q` a product of symbols.
  static bool staticallyKnownGt(AffineExpr a, AffineExpr b);

  /// Inductor's size_hint: the value of `expr` with every symbol at its
  /// hint. A symbol without a hint is recorded (see getMissingHint) and
  /// `fallback` returned. A value that leaves int64 (Inductor's Python
  /// integers have no bound) is INT64_MAX: sizes and strides are
  /// non-negative, so it is larger than any int64; the verifier keeps
  /// buffer bytes and iteration counts at the hints inside int64.
  int64_t sizeHint(AffineExpr expr, int64_t fallback = 8192);
  /// The first symbol a decision needed a hint for and found none.
  std::optional<unsigned> getMissingHint() const { return missingHint; }
  ArrayRef<int64_t> getHints() const { return hints; }

  /// Emits the error for a missing hint on `graph`, if one was needed.
  LogicalResult checkHints(GraphOp graph, StringRef decision) const;

private:
  SmallVector<int64_t> hints;
  std::optional<unsigned> missingHint;
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_ANALYSIS_SIZEVARS_H
