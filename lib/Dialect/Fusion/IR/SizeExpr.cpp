//===- SizeExpr.cpp - Symbolic sizes of the fusion dialect ----------------===//

#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <atomic>
#include <optional>

using namespace mlir;
using namespace mlir::fusion;

//===----------------------------------------------------------------------===//
// Constants without the uniquer
//===----------------------------------------------------------------------===//

/// Bumped whenever a context holding the fusion dialect is destroyed: a
/// table filled for an older generation may hold pointers into a dead
/// context (or into one a new context reuses the address of).
static std::atomic<uint64_t> constantTableGeneration{1};

namespace {
/// One thread's table: direct-mapped, a later constant overwriting an
/// earlier one of the same slot.
struct ConstantTable {
  struct Entry {
    int64_t value;
    const void *expr;
  };
  MLIRContext *ctx = nullptr;
  uint64_t generation = 0;
  std::array<Entry, 256> entries{};
};
} // namespace

static thread_local ConstantTable constantTable;

AffineExpr mlir::fusion::getCachedConstantExpr(int64_t value,
                                               MLIRContext *ctx) {
  ConstantTable &table = constantTable;
  uint64_t generation =
      constantTableGeneration.load(std::memory_order_acquire);
  if (table.ctx != ctx || table.generation != generation) {
    // Only a context whose destruction bumps the generation may fill it.
    if (!ctx->getLoadedDialect<FusionDialect>())
      return getAffineConstantExpr(value, ctx);
    table.ctx = ctx;
    table.generation = generation;
    table.entries.fill({0, nullptr});
  }
  ConstantTable::Entry &entry =
      table.entries[(static_cast<uint64_t>(value) * 0x9E3779B97F4A7C15ull) >>
                    56];
  if (entry.expr && entry.value == value)
    return AffineExpr::getFromOpaquePointer(entry.expr);
  AffineExpr expr = getAffineConstantExpr(value, ctx);
  entry = {value, expr.getAsOpaquePointer()};
  return expr;
}

ConstantExprCacheGuard::~ConstantExprCacheGuard() {
  constantTableGeneration.fetch_add(1, std::memory_order_acq_rel);
}

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

int64_t mlir::fusion::getStaticSize(AffineExpr expr) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  return kSymbolicSize;
}

bool mlir::fusion::isSizeExpr(AffineExpr expr) {
  return expr.isSymbolicOrConstant();
}

// These two recurse themselves rather than through AffineExpr::walk, whose
// callback is an indirect call for each subexpression: the verifier asks
// them of every index and buffer type.
bool mlir::fusion::hasNonPositiveDivisor(AffineExpr expr) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return false;
  if (bin.getKind() != AffineExprKind::Add &&
      bin.getKind() != AffineExprKind::Mul)
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
        c && c.getValue() <= 0)
      return true;
  return hasNonPositiveDivisor(bin.getLHS()) ||
         hasNonPositiveDivisor(bin.getRHS());
}

unsigned mlir::fusion::getNumSymbolsUsed(AffineExpr expr) {
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return s.getPosition() + 1;
  if (auto bin = dyn_cast<AffineBinaryOpExpr>(expr))
    return std::max(getNumSymbolsUsed(bin.getLHS()),
                    getNumSymbolsUsed(bin.getRHS()));
  return 0;
}

namespace {
/// Recursive descent over the affine expression grammar; sizes are small, so
/// the recursion depth is the nesting of parentheses in the input.
class IndexExprParser {
public:
  IndexExprParser(AsmParser &parser, unsigned base, IndexOperandParser operand)
      : parser(parser), ctx(parser.getContext()), base(base),
        operand(operand) {}

  /// expr := term (('+' | '-') term)*
  ParseResult parseExpr(AffineExpr &expr) {
    if (parseTerm(expr))
      return failure();
    while (true) {
      AffineExpr rhs;
      if (succeeded(parser.parseOptionalPlus())) {
        if (parseTerm(rhs))
          return failure();
        expr = expr + rhs;
      } else if (succeeded(parser.parseOptionalMinus())) {
        if (parseTerm(rhs))
          return failure();
        expr = expr - rhs;
      } else {
        return success();
      }
    }
  }

private:
  /// term := factor (('*' | 'floordiv' | 'ceildiv' | 'mod') factor)*
  ParseResult parseTerm(AffineExpr &expr) {
    if (parseFactor(expr))
      return failure();
    while (true) {
      SMLoc loc = parser.getCurrentLocation();
      AffineExpr rhs;
      if (succeeded(parser.parseOptionalStar())) {
        if (parseFactor(rhs))
          return failure();
        if (!expr.isSymbolicOrConstant() && !rhs.isSymbolicOrConstant())
          return parser.emitError(loc, "non-affine product: one factor must "
                                       "be a constant or use size symbols "
                                       "only");
        expr = expr * rhs;
        continue;
      }
      StringRef kw;
      if (succeeded(parser.parseOptionalKeyword("floordiv")))
        kw = "floordiv";
      else if (succeeded(parser.parseOptionalKeyword("ceildiv")))
        kw = "ceildiv";
      else if (succeeded(parser.parseOptionalKeyword("mod")))
        kw = "mod";
      else
        return success();
      if (parseFactor(rhs))
        return failure();
      if (!rhs.isSymbolicOrConstant())
        return parser.emitError(loc, "the right operand of '")
               << kw << "' must be a constant or use size symbols only";
      if (auto c = dyn_cast<AffineConstantExpr>(rhs); c && c.getValue() <= 0)
        return parser.emitError(loc, "the right operand of '")
               << kw << "' must be positive";
      expr = kw == "floordiv"  ? expr.floorDiv(rhs)
             : kw == "ceildiv" ? expr.ceilDiv(rhs)
                               : expr % rhs;
    }
  }

  /// factor := int | '-' factor | '(' expr ')' | 'sN' | operand
  ParseResult parseFactor(AffineExpr &expr) {
    SMLoc loc = parser.getCurrentLocation();
    bool minus = succeeded(parser.parseOptionalMinus());
    bool paren = !minus && succeeded(parser.parseOptionalLParen());
    if (minus || paren) {
      // The recursion is as deep as the input nests: bounded, so that no
      // input exhausts the stack (a fuzzed index of 2,700 parentheses did).
      if (depth == kMaxDepth)
        return parser.emitError(loc, "index expression nested deeper than ")
               << kMaxDepth << " levels";
      ++depth;
      llvm::scope_exit leave([&] { --depth; });
      if (minus) {
        if (parseFactor(expr))
          return failure();
        expr = -expr;
        return success();
      }
      return failure(parseExpr(expr) || parser.parseRParen());
    }
    int64_t value = 0;
    OptionalParseResult integer = parser.parseOptionalInteger(value);
    if (integer.has_value()) {
      if (failed(*integer))
        return failure();
      expr = getCachedConstantExpr(value, ctx);
      return success();
    }
    if (operand) {
      OptionalParseResult parsed = operand(expr);
      if (parsed.has_value())
        return *parsed;
    }
    StringRef name;
    if (failed(parser.parseOptionalKeyword(&name)))
      return parser.emitError(loc, "expected an index expression");
    unsigned position;
    if (!name.consume_front("s") || name.empty() ||
        name.getAsInteger(10, position))
      return parser.emitError(loc, "expected a size symbol 's<N>', got '")
             << name << "'";
    if (position >= kMaxSizeSymbols)
      return parser.emitError(loc, "size symbol number ")
             << position << " is too large (at most "
             << kMaxSizeSymbols - 1 << ")";
    expr = getAffineSymbolExpr(base + position, ctx);
    return success();
  }

  static constexpr unsigned kMaxDepth = 64;
  unsigned depth = 0;
  AsmParser &parser;
  MLIRContext *ctx;
  unsigned base;
  IndexOperandParser operand;
};
} // namespace

ParseResult mlir::fusion::parseIndexExpr(AsmParser &parser, AffineExpr &expr,
                                         unsigned sizeSymbolBase,
                                         IndexOperandParser parseOperand) {
  return IndexExprParser(parser, sizeSymbolBase, parseOperand)
      .parseExpr(expr);
}

void mlir::fusion::printSizeExpr(raw_ostream &os, AffineExpr expr) {
  expr.print(os);
}

std::string mlir::fusion::sizeExprToString(AffineExpr expr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printSizeExpr(os, expr);
  return text;
}

ParseResult mlir::fusion::parseSizeList(AsmParser &parser,
                                        SmallVectorImpl<AffineExpr> &exprs) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        SMLoc loc = parser.getCurrentLocation();
        if (parseIndexExpr(parser, exprs.emplace_back()))
          return failure();
        if (!isSizeExpr(exprs.back()))
          return parser.emitError(loc, "sizes cannot use loop variables");
        return success();
      });
}

void mlir::fusion::printSizeList(raw_ostream &os, ArrayRef<AffineExpr> exprs) {
  os << "[";
  llvm::interleaveComma(exprs, os,
                        [&](AffineExpr e) { printSizeExpr(os, e); });
  os << "]";
}

std::optional<int64_t>
mlir::fusion::evaluateSizeExpr(AffineExpr expr, ArrayRef<int64_t> values) {
  if (findUnboundSymbol(expr, values))
    return std::nullopt;
  return evaluateAffineExpr(expr, {}, values);
}

std::optional<unsigned>
mlir::fusion::findUnboundSymbol(AffineExpr expr, ArrayRef<int64_t> values) {
  std::optional<unsigned> unbound;
  expr.walk([&](AffineExpr e) {
    auto s = dyn_cast<AffineSymbolExpr>(e);
    if (!s || unbound)
      return;
    if (s.getPosition() >= values.size() ||
        values[s.getPosition()] == kSymbolicSize)
      unbound = s.getPosition();
  });
  return unbound;
}

SmallVector<AffineExpr>
mlir::fusion::getContiguousStrideExprs(ArrayRef<AffineExpr> sizes) {
  SmallVector<AffineExpr> strides(sizes.size());
  if (sizes.empty())
    return strides;
  MLIRContext *ctx = sizes.front().getContext();
  // While the sizes are static the product is an integer: AffineExpr
  // folds a constant times a constant too, but after a look-up of the
  // factor and of the product in the context's uniquer. From the first
  // symbolic size, or a product past int64, on it is an AffineExpr.
  std::optional<int64_t> product = 1;
  AffineExpr running;
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
    strides[i] = product ? getCachedConstantExpr(*product, ctx) : running;
    // Inductor's contiguous strides treat a size-0 dimension as size 1.
    int64_t size = getStaticSize(sizes[i]);
    int64_t factor = std::max<int64_t>(size, 1);
    if (product && size != kSymbolicSize &&
        !llvm::MulOverflow(*product, factor, *product))
      continue;
    if (product) {
      running = strides[i];
      product.reset();
    }
    if (size != kSymbolicSize)
      running = running * factor;
    else
      running = running * sizes[i];
  }
  return strides;
}
