//===- SizeVars.cpp - Inductor's V.graph.sizevars -------------------------===//

#include "scheduler-opt/Analysis/SizeVars.h"
#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/IR/AffineSum.h"

#include <limits>

using namespace mlir;
using namespace mlir::fusion;

SizeVars::SizeVars(GraphOp graph) : hints(graph.getSizeHints()) {}

AffineExpr SizeVars::simplify(AffineExpr expr) {
  return canonicalizeIndexExpr(expr);
}

AffineExpr SizeVars::product(MLIRContext *ctx, ArrayRef<AffineExpr> sizes) {
  AffineExpr n = getCachedConstantExpr(1, ctx);
  for (AffineExpr size : sizes)
    n = n * size;
  return simplify(n);
}

bool SizeVars::staticallyKnownEquals(AffineExpr a, AffineExpr b) {
  return a == b || simplify(a) == simplify(b);
}

namespace {
/// `coefficient * factors...`: a term of a canonical sum.
struct Monomial {
  int64_t coefficient = 1;
  SmallVector<AffineExpr, 4> factors;
};
} // namespace

/// The terms of a canonical sum; each term's non-constant factors sorted
/// (canonicalizeIndexExpr sorts them), the constant as a term without
/// factors.
static SmallVector<Monomial> getMonomials(AffineExpr expr) {
  SmallVector<SumTerm> sum;
  (void)flattenSum(SizeVars::simplify(expr), sum);
  SmallVector<Monomial> terms;
  for (const SumTerm &t : sum) {
    Monomial &term = terms.emplace_back();
    term.coefficient = t.coefficient;
    if (t.factor)
      (void)flattenProduct(t.factor, term.factors, term.coefficient);
  }
  return terms;
}

std::optional<AffineExpr> SizeVars::exactQuotient(AffineExpr num,
                                                  AffineExpr den) {
  MLIRContext *ctx = num.getContext();
  if (staticallyKnownEquals(num, den))
    return getCachedConstantExpr(1, ctx);
  SmallVector<Monomial> denTerms = getMonomials(den);
  if (denTerms.size() != 1 || denTerms.front().coefficient == 0)
    return std::nullopt;
  const Monomial &d = denTerms.front();
  AffineExpr quotient = getCachedConstantExpr(0, ctx);
  for (Monomial &term : getMonomials(num)) {
    if (term.coefficient % d.coefficient != 0)
      return std::nullopt;
    SmallVector<AffineExpr, 4> rest(term.factors);
    for (AffineExpr factor : d.factors) {
      auto it = llvm::find(rest, factor);
      if (it == rest.end())
        return std::nullopt;
      rest.erase(it);
    }
    AffineExpr q = getCachedConstantExpr(term.coefficient / d.coefficient, ctx);
    for (AffineExpr factor : rest)
      q = q * factor;
    quotient = quotient + q;
  }
  return simplify(quotient);
}

bool SizeVars::staticallyKnownGt(AffineExpr a, AffineExpr b) {
  auto ca = dyn_cast<AffineConstantExpr>(a);
  auto cb = dyn_cast<AffineConstantExpr>(b);
  if (ca && cb)
    return ca.getValue() > cb.getValue();
  // a = q * b with q a positive product of symbols (each >= 2): a >= 2b > b.
  std::optional<AffineExpr> q = exactQuotient(a, b);
  if (!q)
    return false;
  SmallVector<Monomial> terms = getMonomials(*q);
  return terms.size() == 1 && terms.front().coefficient >= 1 &&
         !terms.front().factors.empty() &&
         llvm::all_of(terms.front().factors,
                      [](AffineExpr f) { return isa<AffineSymbolExpr>(f); });
}

int64_t SizeVars::sizeHint(AffineExpr expr, int64_t fallback) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  if (std::optional<unsigned> unbound = findUnboundSymbol(expr, hints)) {
    if (!missingHint)
      missingHint = *unbound;
    return fallback;
  }
  return evaluateSizeExpr(expr, hints)
      .value_or(std::numeric_limits<int64_t>::max());
}

LogicalResult SizeVars::checkHints(GraphOp graph, StringRef decision) const {
  if (!missingHint)
    return success();
  return graph.emitOpError() << decision << " needs a hint for size symbol "
                             << graph.getSizeSymbolDisplayName(*missingHint)
                             << "; declare it as symbols(s" << *missingHint
                             << " = <hint>)";
}
