//===- InductorFormat.cpp - Print dependences as Inductor does ------------===//

#include "scheduler-opt/Target/Inductor/InductorFormat.h"
#include "scheduler-opt/Dialect/Fusion/IR/AffineSum.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fusion;

/// The terms of `expr`, equal factors merged into their first term (the
/// constant terms stay apart).
static SmallVector<SumTerm> collectTerms(AffineExpr expr) {
  SmallVector<SumTerm> flat, terms;
  (void)flattenSum(expr, flat);
  for (const SumTerm &term : flat) {
    auto same = llvm::find_if(terms, [&](const SumTerm &t) {
      return term.factor && t.factor == term.factor;
    });
    if (same != terms.end())
      same->coefficient += term.coefficient;
    else
      terms.push_back(term);
  }
  return terms;
}

static bool isSum(AffineExpr expr) {
  return expr.getKind() == AffineExprKind::Add;
}

/// An argument of FloorDiv / ModularIndexing: sums are parenthesized.
static std::string formatArgument(AffineExpr expr, unsigned g) {
  std::string text = formatInductorIndex(expr, g);
  return isSum(expr) ? "(" + text + ")" : text;
}

/// Formats a non-constant factor on its own.
static std::string formatFactor(AffineExpr factor, unsigned g) {
  if (auto dim = dyn_cast<AffineDimExpr>(factor))
    return ("d" + Twine(dim.getPosition())).str();
  if (auto sym = dyn_cast<AffineSymbolExpr>(factor)) {
    if (sym.getPosition() < g)
      return ("s" + Twine(sym.getPosition())).str();
    return ("tmp" + Twine(sym.getPosition() - g)).str();
  }
  auto bin = cast<AffineBinaryOpExpr>(factor);
  std::string rhs = formatInductorIndex(bin.getRHS(), g);
  // A product of non-constant factors (`d0*s1`, `s0*s1`).
  if (bin.getKind() == AffineExprKind::Mul)
    return formatFactor(bin.getLHS(), g) + "*" + formatFactor(bin.getRHS(), g);
  switch (bin.getKind()) {
  case AffineExprKind::FloorDiv:
    return "(" + formatArgument(bin.getLHS(), g) + "//" + rhs + ")";
  case AffineExprKind::Mod: {
    // (x floordiv d) mod m is ModularIndexing(x, d, m).
    auto lhs = dyn_cast<AffineBinaryOpExpr>(bin.getLHS());
    if (lhs && lhs.getKind() == AffineExprKind::FloorDiv)
      return "ModularIndexing(" + formatArgument(lhs.getLHS(), g) + ", " +
             formatInductorIndex(lhs.getRHS(), g) + ", " + rhs + ")";
    return "ModularIndexing(" + formatArgument(bin.getLHS(), g) + ", 1, " + rhs +
           ")";
  }
  case AffineExprKind::CeilDiv:
    return "CeilDiv(" + formatArgument(bin.getLHS(), g) + ", " + rhs + ")";
  default:
    return "(" + formatInductorIndex(factor, g) + ")";
  }
}

std::string mlir::fusion::formatInductorIndex(AffineExpr expr, unsigned g) {
  SmallVector<SumTerm> terms = collectTerms(expr);
  int64_t constant = 0;
  struct Printed {
    bool linear;
    std::string key;
    std::string text; // without sign
    bool negative;
  };
  SmallVector<Printed> printed;
  for (const SumTerm &term : terms) {
    if (!term.factor) {
      constant += term.coefficient;
      continue;
    }
    if (term.coefficient == 0)
      continue;
    bool linear = isa<AffineDimExpr, AffineSymbolExpr>(term.factor);
    std::string factor = formatFactor(term.factor, g);
    // Inductor wraps FloorDiv and ModularIndexing terms in parentheses.
    std::string shown = linear ? factor : "(" + factor + ")";
    int64_t magnitude = std::abs(term.coefficient);
    std::string text =
        magnitude == 1 ? shown : (Twine(magnitude) + "*" + shown).str();
    printed.push_back({linear, factor, text, term.coefficient < 0});
  }
  llvm::stable_sort(printed, [](const Printed &a, const Printed &b) {
    if (a.linear != b.linear)
      return a.linear;
    return a.key < b.key;
  });
  if (constant != 0 || printed.empty())
    printed.push_back({false, "", std::to_string(std::abs(constant)),
                       constant < 0});
  std::string result;
  for (auto [i, p] : llvm::enumerate(printed)) {
    if (i == 0)
      result += (p.negative ? "-" : "") + p.text;
    else
      result += (p.negative ? " - " : " + ") + p.text;
  }
  return result;
}

static std::string formatMode(StoreModeAttr mode) {
  return mode ? stringifyStoreMode(mode.getValue()).str() : "None";
}

std::string mlir::fusion::formatInductorDep(Attribute dep, unsigned g) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto memory = dyn_cast<MemoryDepAttr>(dep)) {
    os << "MemoryDep('" << memory.getName().getValue() << "', "
       << formatInductorIndex(memory.getIndex().getResult(0), g) << ", {";
    llvm::interleaveComma(llvm::enumerate(memory.getSizes()), os,
                          [&](auto it) {
                            os << "d" << it.index() << ": "
                               << formatInductorIndex(it.value(), g);
                          });
    os << "}";
    if (memory.getMode())
      os << ", " << formatMode(memory.getMode());
    os << ")";
  } else if (auto star = dyn_cast<StarDepAttr>(dep)) {
    os << "StarDep(name='" << star.getName().getValue() << "', mode=";
    if (star.getMode())
      os << "'" << formatMode(star.getMode()) << "'";
    else
      os << "None";
    os << ")";
  } else if (auto weak = dyn_cast<WeakDepAttr>(dep)) {
    os << "WeakDep(name='" << weak.getName().getValue() << "', mutating_buf='"
       << weak.getMutating().getValue() << "', is_fake=True)";
  } else {
    os << dep;
  }
  return text;
}

std::string mlir::fusion::formatInductorDepSet(ArrayRef<Attribute> deps,
                                               unsigned g) {
  SmallVector<std::string> items;
  for (Attribute dep : deps)
    items.push_back(formatInductorDep(dep, g));
  llvm::sort(items);
  std::string flat = "[" + llvm::join(items, ", ") + "]";
  // pprint.pformat(width=80, indent=4), then Inductor's pformat moves a
  // multi-line result to its own indented line.
  if (flat.size() <= 80)
    return flat;
  if (items.size() == 1)
    return "[   " + items.front() + "]";
  return "\n    [   " + llvm::join(items, ",\n        ") + "]";
}

static std::string formatUser(const NodeUser &user) {
  std::string node = "OUTPUT";
  if (!user.isOutput()) {
    auto leaf = cast<SchedulerNodeOpInterface>(user.leaf);
    node = (leaf.getInductorClassName() + "(name='" + leaf.getNodeName() +
            "')")
               .str();
  }
  return "NodeUser(node=" + node +
         ", can_inplace=" + (user.canInplace ? "True" : "False") +
         ", is_weak=" + (user.isWeak ? "True" : "False") + ")";
}

std::string mlir::fusion::formatInductorUsers(StringRef bufferName,
                                              ArrayRef<NodeUser> users) {
  std::string text = (bufferName + ".users = ").str();
  if (users.size() <= 1) {
    text += "[";
    if (!users.empty())
      text += formatUser(users.front());
    return text + "]";
  }
  text += "[\n";
  for (const NodeUser &user : users)
    text += "    " + formatUser(user) + ",\n";
  return text + "]";
}
