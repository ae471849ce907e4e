//===- IndexExpr.cpp - Sympy index expressions as AffineExpr --------------===//
//
// A recursive descent over the text of one expression. Integer values are
// kept affine as long as they are; a non-affine part becomes an index term
// (see IndexExpr.h) when the caller collects terms, or an error when it
// asks for an affine expression only.
//
//===----------------------------------------------------------------------===//

#include "IndexExpr.h"

#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

/// The sympy functions of torch/utils/_sympy/functions.py (and sympy's own)
/// that can appear in an index; arity 0 means one or more arguments.
static const IndexFunctionInfo kIndexFunctions[] = {
    {"Abs", 1, false},
    {"And", 0, false},
    {"BitwiseFn_bitwise_and", 2, false},
    {"BitwiseFn_bitwise_or", 2, false},
    {"CeilDiv", 2, false},
    {"CeilToInt", 1, false},
    {"CleanDiv", 2, false},
    {"Eq", 2, false},
    {"FloatPow", 2, true},
    {"FloatTrueDiv", 2, true},
    {"FloorDiv", 2, false},
    {"FloorToInt", 1, false},
    {"Identity", 1, false},
    {"IntTrueDiv", 2, true},
    {"IsNonOverlappingAndDenseIndicator", 0, false},
    {"LShift", 2, false},
    {"Max", 0, false},
    {"Min", 0, false},
    {"Mod", 2, false},
    {"ModularIndexing", 3, false},
    {"Ne", 2, false},
    {"Not", 1, false},
    {"OpaqueUnaryFn_acos", 1, true},
    {"OpaqueUnaryFn_asin", 1, true},
    {"OpaqueUnaryFn_asinh", 1, true},
    {"OpaqueUnaryFn_atan", 1, true},
    {"OpaqueUnaryFn_cos", 1, true},
    {"OpaqueUnaryFn_cosh", 1, true},
    {"OpaqueUnaryFn_exp", 1, true},
    {"OpaqueUnaryFn_log", 1, true},
    {"OpaqueUnaryFn_log2", 1, true},
    {"OpaqueUnaryFn_sin", 1, true},
    {"OpaqueUnaryFn_sinh", 1, true},
    {"OpaqueUnaryFn_sqrt", 1, true},
    {"OpaqueUnaryFn_tan", 1, true},
    {"OpaqueUnaryFn_tanh", 1, true},
    {"Or", 0, false},
    {"PowByNatural", 2, false},
    {"PythonMod", 2, false},
    {"RShift", 2, false},
    {"RoundDecimal", 2, true},
    {"RoundToInt", 1, false},
    {"ToFloat", 1, true},
    {"TruncToFloat", 1, true},
    {"TruncToInt", 1, false},
    {"Where", 3, false},
    {"ceiling", 1, false},
    {"floor", 1, false},
};

ArrayRef<IndexFunctionInfo> mlir::fusion::inductor::getIndexFunctions() {
  return kIndexFunctions;
}

static const IndexFunctionInfo *lookupIndexFunction(StringRef name) {
  for (const IndexFunctionInfo &info : kIndexFunctions)
    if (info.name == name)
      return &info;
  return nullptr;
}

namespace {
using Operand = IndexOperand;

/// Recursive descent over the text of one expression. Nesting is bounded so
/// that hostile input cannot exhaust the stack.
class IndexParser {
public:
  IndexParser(StringRef text, MLIRContext *context, IndexVarResolver resolve,
              ErrorEmitter emitError, SmallVectorImpl<IndexTerm> *terms,
              SizeSymbolPredicate isSizeSymbol,
              bool isStride = false)
      : cur(text.begin()), end(text.end()), context(context), resolve(resolve),
        emitError(emitError), terms(terms), isSizeSymbol(isSizeSymbol),
        isStride(isStride) {}

  FailureOr<AffineExpr> parse() {
    const char *start = cur;
    FailureOr<Operand> expr = parseOr();
    if (failed(expr))
      return failure();
    skipSpace();
    if (cur != end)
      return error(cur) << "unexpected '" << *cur
                        << "' after the end of the index expression";
    if (expr->isFloat())
      return error(start) << "an index is an integer, not a float";
    return expr->affine;
  }

private:
  static constexpr unsigned kMaxDepth = 200;
  /// Inductor's indices have a few dozen terms; a bound keeps the affine
  /// expression shallow enough for MLIR's recursive walks.
  static constexpr unsigned kMaxOperators = 1000;

  LogicalResult countOperator(const char *at) {
    if (++numOperators <= kMaxOperators)
      return success();
    return error(at) << "index expression has more than " << kMaxOperators
                     << " operations";
  }

  InFlightDiagnostic error(const char *at) { return emitError(at); }

  void skipSpace() {
    while (cur != end &&
           (*cur == ' ' || *cur == '\t' || *cur == '\n' || *cur == '\r'))
      ++cur;
  }

  /// Consumes `token` after optional spaces.
  bool consume(StringRef token) {
    skipSpace();
    if (StringRef(cur, end - cur).starts_with(token)) {
      cur += token.size();
      return true;
    }
    return false;
  }

  bool peek(StringRef token) {
    skipSpace();
    return StringRef(cur, end - cur).starts_with(token);
  }

  /// Describes the next character for error messages.
  std::string describeNext() {
    skipSpace();
    if (cur == end)
      return "the end of the expression";
    if (llvm::isPrint(*cur))
      return ("'" + Twine(*cur) + "'").str();
    return ("byte 0x" + Twine(llvm::utohexstr(static_cast<uint8_t>(*cur))))
        .str();
  }

  static Operand affine(AffineExpr e) {
    Operand o;
    o.affine = e;
    return o;
  }

  /// A new term over `args`: an integer term is a fresh symbol, a float term
  /// an operand referring to it. Fails (with `why`) when the caller wants
  /// affine expressions only.
  FailureOr<Operand> term(StringRef fn, ArrayRef<Operand> args, bool isFloat,
                          const char *at, const Twine &why) {
    if (!terms)
      return error(at) << why;
    IndexTerm t;
    t.fn = fn;
    t.args.assign(args.begin(), args.end());
    t.isFloat = isFloat;
    t.loc = at;
    unsigned position = terms->size();
    terms->push_back(std::move(t));
    if (isFloat) {
      Operand o;
      o.floatTerm = position;
      return o;
    }
    return affine(
        getAffineSymbolExpr(kIndexTermSymbolBase + position, context));
  }

  static bool anyFloat(ArrayRef<Operand> args) {
    return llvm::any_of(args, [](const Operand &o) { return o.isFloat(); });
  }

  static std::optional<int64_t> constantOf(const Operand &o) {
    if (auto c = dyn_cast_if_present<AffineConstantExpr>(o.affine))
      return c.getValue();
    return std::nullopt;
  }

  FailureOr<Operand> parseOr() {
    FailureOr<Operand> lhs = parseAnd();
    if (failed(lhs))
      return failure();
    while (true) {
      const char *at = cur;
      if (peek("||") || !consume("|"))
        return lhs;
      FailureOr<Operand> rhs = parseAnd();
      if (failed(rhs))
        return failure();
      lhs =
          term("Or", {*lhs, *rhs}, false, at, "'|' is not an index operation");
      if (failed(lhs))
        return failure();
    }
  }

  FailureOr<Operand> parseAnd() {
    FailureOr<Operand> lhs = parseComparison();
    if (failed(lhs))
      return failure();
    while (true) {
      const char *at = cur;
      if (peek("&&") || !consume("&"))
        return lhs;
      FailureOr<Operand> rhs = parseComparison();
      if (failed(rhs))
        return failure();
      lhs =
          term("And", {*lhs, *rhs}, false, at, "'&' is not an index operation");
      if (failed(lhs))
        return failure();
    }
  }

  FailureOr<Operand> parseComparison() {
    FailureOr<Operand> lhs = parseSum();
    if (failed(lhs))
      return failure();
    skipSpace();
    const char *at = cur;
    StringRef op;
    for (StringRef candidate : {"<=", ">=", "==", "!=", "<", ">"})
      if (consume(candidate)) {
        op = candidate;
        break;
      }
    if (op.empty())
      return lhs;
    FailureOr<Operand> rhs = parseSum();
    if (failed(rhs))
      return failure();
    return term(op, {*lhs, *rhs}, false, at,
                "a comparison is not an index operation");
  }

  FailureOr<Operand> parseSum() {
    FailureOr<Operand> lhs = parseProduct();
    if (failed(lhs))
      return failure();
    while (true) {
      skipSpace();
      if (cur == end || (*cur != '+' && *cur != '-'))
        return lhs;
      const char *at = cur;
      bool minus = *cur == '-';
      if (failed(countOperator(cur)))
        return failure();
      ++cur;
      FailureOr<Operand> rhs = parseProduct();
      if (failed(rhs))
        return failure();
      if (!lhs->isFloat() && !rhs->isFloat()) {
        lhs = affine(minus ? lhs->affine - rhs->affine
                           : lhs->affine + rhs->affine);
        continue;
      }
      lhs = term(minus ? "-" : "+", {*lhs, *rhs}, true, at,
                 "float arithmetic is not affine");
      if (failed(lhs))
        return failure();
    }
  }

  FailureOr<Operand> parseProduct() {
    FailureOr<Operand> lhs = parseUnary();
    if (failed(lhs))
      return failure();
    while (true) {
      skipSpace();
      const char *opLoc = cur;
      StringRef op;
      // `**` binds tighter: parseUnary takes it (parsePower).
      if (consume("*"))
        op = "*";
      else if (consume("//"))
        op = "//";
      else if (consume("%"))
        op = "%";
      else if (consume("/"))
        op = "/";
      else
        return lhs;
      if (failed(countOperator(opLoc)))
        return failure();
      FailureOr<Operand> rhs = parseUnary();
      if (failed(rhs))
        return failure();
      FailureOr<Operand> result;
      if (op == "*")
        result = multiply(*lhs, *rhs, opLoc);
      else if (op == "/")
        result = term("/", {*lhs, *rhs}, true, opLoc,
                      "true division '/' is not an index operation; "
                      "expected '//'");
      else
        result = divide(*lhs, *rhs, op == "%", opLoc);
      if (failed(result))
        return failure();
      lhs = *result;
    }
  }

  /// True for an integer operand in size symbols and constants only.
  bool isSize(const Operand &operand) const {
    if (operand.isFloat() || !operand.affine.isSymbolicOrConstant())
      return false;
    bool size = true;
    operand.affine.walk([&](AffineExpr e) {
      if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        size &= isSizeSymbol && sym.getPosition() < kIndexTermSymbolBase &&
                isSizeSymbol(sym.getPosition());
    });
    return size;
  }

  /// `base ** exponent` after a primary (sympy's `**` binds tighter than
  /// `*` and associates to the right).
  FailureOr<Operand> parsePower(const Operand &base) {
    skipSpace();
    const char *opLoc = cur;
    if (!consume("**"))
      return base;
    if (failed(countOperator(opLoc)))
      return failure();
    FailureOr<Operand> exponent = parseUnary();
    if (failed(exponent))
      return failure();
    return power("**", base, *exponent, opLoc);
  }

  FailureOr<Operand> power(StringRef fn, const Operand &base,
                           const Operand &exp, const char *loc) {
    // A small power of a size (`s27**2`) is a product of symbols.
    std::optional<int64_t> n = constantOf(exp);
    if (fn == "**" && isSize(base) && !exp.isFloat() && n && *n >= 1 &&
        *n <= 16) {
      AffineExpr product = base.affine;
      for (int64_t i = 1; i < *n; ++i)
        product = product * base.affine;
      return affine(product);
    }
    bool isFloat = fn == "FloatPow" || anyFloat({base, exp});
    return term(isFloat ? "FloatPow" : "PowByNatural", {base, exp}, isFloat,
                loc, "'**' is not affine");
  }

  FailureOr<Operand> multiply(const Operand &lhs, const Operand &rhs,
                              const char *loc) {
    if (lhs.isFloat() || rhs.isFloat())
      return term("*", {lhs, rhs}, true, loc, "float arithmetic is not affine");
    std::optional<int64_t> lc = constantOf(lhs), rc = constantOf(rhs);
    if (lc && rc) {
      int64_t product;
      if (llvm::MulOverflow(*lc, *rc, product))
        return error(loc) << "integer overflow in the index expression";
      return affine(getCachedConstantExpr(product, context));
    }
    // As AffineExpr's `* int64_t`, with the constant from the cache.
    if (rc)
      return affine(lhs.affine * getCachedConstantExpr(*rc, context));
    if (lc)
      return affine(rhs.affine * getCachedConstantExpr(*lc, context));
    // A product with a size (`p0*s27`) is semi-affine.
    if (isSize(lhs) || isSize(rhs))
      return affine(lhs.affine * rhs.affine);
    return term("*", {lhs, rhs}, false, loc,
                "product of two non-constant expressions is not affine");
  }

  /// `lhs // rhs` (floor) or `lhs % rhs` (Python's modulus).
  FailureOr<Operand> divide(const Operand &lhs, const Operand &rhs, bool mod,
                            const char *loc) {
    StringRef fn = mod ? "%" : "//";
    if (lhs.isFloat() || rhs.isFloat())
      return term(fn, {lhs, rhs}, true, loc, "float arithmetic is not affine");
    std::optional<int64_t> divisor = constantOf(rhs);
    if (divisor && *divisor <= 0)
      return error(loc) << (mod ? "modulus" : "divisor")
                        << " must be a positive integer constant";
    // Division and modulo by a size (`ModularIndexing(x, 1, s27*s77)`).
    if (!divisor && isSize(rhs))
      return affine(mod ? lhs.affine % rhs.affine
                        : lhs.affine.floorDiv(rhs.affine));
    if (!divisor)
      return term(fn, {lhs, rhs}, false, loc,
                  Twine(mod ? "modulus" : "divisor") +
                      " must be a positive integer constant");
    return affine(mod ? lhs.affine % *divisor : lhs.affine.floorDiv(*divisor));
  }

  FailureOr<Operand> parseUnary() {
    if (++depth > kMaxDepth)
      return error(cur) << "index expression nested too deeply";
    FailureOr<Operand> result;
    const char *at = cur;
    if (consume("-")) {
      result = parseUnary();
      if (succeeded(result)) {
        if (!result->isFloat())
          result = affine(-result->affine);
        else if (result->floatLiteral)
          result->floatLiteral = -*result->floatLiteral;
        else
          result =
              term("-", {affine(getCachedConstantExpr(0, context)), *result},
                   true, at, "float arithmetic is not affine");
      }
    } else if (consume("+")) {
      result = parseUnary();
    } else if (consume("~")) {
      result = parseUnary();
      if (succeeded(result))
        result =
            term("Not", {*result}, false, at, "'~' is not an index operation");
    } else {
      result = parsePrimary();
      if (succeeded(result))
        result = parsePower(*result);
    }
    --depth;
    return result;
  }

  FailureOr<Operand> parsePrimary() {
    skipSpace();
    const char *start = cur;
    if (cur != end && llvm::isDigit(*cur)) {
      while (cur != end && llvm::isDigit(*cur))
        ++cur;
      if (cur != end && (*cur == '.' || *cur == 'e' || *cur == 'E')) {
        if (!terms)
          return error(start) << "expected an integer in the index expression";
        // A float literal (FloatTrueDiv(x, 2.0)).
        char *parsedEnd = nullptr;
        std::string text(start, end - start);
        double value = std::strtod(text.c_str(), &parsedEnd);
        cur = start + (parsedEnd - text.c_str());
        Operand o;
        o.floatLiteral = value;
        return o;
      }
      int64_t value;
      if (StringRef(start, cur - start).getAsInteger(10, value))
        return error(start) << "integer '" << StringRef(start, cur - start)
                            << "' does not fit in 64 bits";
      return affine(getCachedConstantExpr(value, context));
    }
    if (consume("(")) {
      FailureOr<Operand> inner = parseOr();
      if (failed(inner))
        return failure();
      if (!consume(")"))
        return error(cur) << "expected ')' to close the '(', found "
                          << describeNext();
      return inner;
    }
    if (cur != end && (llvm::isAlpha(*cur) || *cur == '_')) {
      while (cur != end && (llvm::isAlnum(*cur) || *cur == '_'))
        ++cur;
      StringRef name(start, cur - start);
      skipSpace();
      if (cur != end && *cur == '(')
        return parseCall(name, start);
      if (AffineExpr var = resolve(name))
        return affine(var);
      if (terms && (name == "True" || name == "False"))
        return affine(getCachedConstantExpr(name == "True", context));
      return error(start) << "unknown variable '" << name
                          << "' in the index expression";
    }
    return error(start) << "expected an index expression, found "
                        << describeNext();
  }

  /// `Name(args)` after the name; `cur` is at the '('.
  FailureOr<Operand> parseCall(StringRef name, const char *nameLoc) {
    const IndexFunctionInfo *info = lookupIndexFunction(name);
    bool affineOnly = name == "ModularIndexing" || name == "FloorDiv" ||
                      name == "CleanDiv" || name == "Mod" ||
                      name == "PythonMod" ||
                      (name == "Max" && isStride);
    if (!info || (!terms && !affineOnly))
      return error(nameLoc) << "unsupported function '" << name
                            << "' in the index expression (expected "
                            << (terms ? "a function of "
                                        "torch/utils/_sympy/functions.py"
                                      : "ModularIndexing, FloorDiv, CleanDiv, "
                                        "Mod or PythonMod")
                            << ")";
    consume("(");
    SmallVector<Operand, 3> args;
    SmallVector<const char *, 3> argLocs;
    while (true) {
      skipSpace();
      argLocs.push_back(cur);
      FailureOr<Operand> arg = parseOr();
      if (failed(arg))
        return failure();
      args.push_back(*arg);
      if (consume(","))
        continue;
      if (consume(")"))
        break;
      return error(cur) << "expected ',' or ')' in the arguments of '" << name
                        << "', found " << describeNext();
    }
    if (info->arity ? args.size() != info->arity : args.empty()) {
      if (info->arity)
        return error(nameLoc) << "'" << name << "' takes " << info->arity
                              << " arguments, got " << args.size();
      return error(nameLoc) << "'" << name << "' takes arguments";
    }
    return apply(*info, args, argLocs, nameLoc);
  }

  FailureOr<Operand> apply(const IndexFunctionInfo &info,
                           ArrayRef<Operand> args,
                           ArrayRef<const char *> argLocs,
                           const char *nameLoc) {
    StringRef name = info.name;
    if (name == "ModularIndexing") {
      FailureOr<Operand> quotient =
          divide(args[0], args[1], /*mod=*/false, argLocs[1]);
      if (failed(quotient))
        return failure();
      return divide(*quotient, args[2], /*mod=*/true, argLocs[2]);
    }
    if (name == "FloorDiv" || name == "CleanDiv")
      return divide(args[0], args[1], /*mod=*/false, argLocs[1]);
    if (name == "Mod" || name == "PythonMod")
      return divide(args[0], args[1], /*mod=*/true, argLocs[1]);
    if (name == "CeilDiv") {
      // (a + b - 1) // b
      if (!args[0].isFloat() && !args[1].isFloat()) {
        Operand num = affine(args[0].affine + args[1].affine - 1);
        return divide(num, args[1], /*mod=*/false, argLocs[1]);
      }
    }
    if (name == "Identity")
      return args[0];
    if (name == "PowByNatural" || name == "FloatPow")
      return power(name, args[0], args[1], nameLoc);
    if (name == "LShift" || name == "RShift") {
      // Shifts by a constant are affine: a * 2**s, a // 2**s.
      std::optional<int64_t> shift = constantOf(args[1]);
      if (shift && *shift >= 0 && *shift < 62 && !args[0].isFloat()) {
        Operand scale =
            affine(getCachedConstantExpr(int64_t(1) << *shift, context));
        return name == "LShift" ? multiply(args[0], scale, nameLoc)
                                : divide(args[0], scale, false, nameLoc);
      }
    }
    if (!info.isFloat && !anyFloat(args) &&
        llvm::all_of(args, [](auto &a) { return constantOf(a).has_value(); })) {
      // Constant integer functions fold.
      if (std::optional<int64_t> folded = fold(name, args))
        return affine(getCachedConstantExpr(*folded, context));
    }
    if (name == "Max" && !terms) {
      // A stride's Max(1, size): see parseIndexExpr.
      if (args.size() == 2 && !anyFloat(args))
        for (unsigned i = 0; i < 2; ++i)
          if (constantOf(args[i]) == 1)
            return args[1 - i];
      return error(nameLoc) << "unsupported 'Max' in a stride (expected "
                               "Max(1, size), torch's contiguous stride of "
                               "a size)";
    }
    bool isFloat = info.isFloat;
    if (name == "Where" || name == "Min" || name == "Max" || name == "Abs")
      isFloat = anyFloat(name == "Where" ? args.drop_front() : args);
    return term(name, args, isFloat, nameLoc,
                "unsupported function '" + name + "' in the index expression");
  }

  static std::optional<int64_t> fold(StringRef name, ArrayRef<Operand> args) {
    SmallVector<int64_t, 3> v;
    for (const Operand &a : args)
      v.push_back(*constantOf(a));
    if (name == "Abs" && v[0] != INT64_MIN)
      return v[0] < 0 ? -v[0] : v[0];
    if (name == "Min")
      return *llvm::min_element(v);
    if (name == "Max")
      return *llvm::max_element(v);
    if (name == "Where")
      return v[0] ? v[1] : v[2];
    return std::nullopt;
  }

  const char *cur, *end;
  MLIRContext *context;
  IndexVarResolver resolve;
  ErrorEmitter emitError;
  SmallVectorImpl<IndexTerm> *terms;
  SizeSymbolPredicate isSizeSymbol;
  bool isStride;
  unsigned depth = 0;
  unsigned numOperators = 0;
};
} // namespace

FailureOr<AffineExpr>
mlir::fusion::inductor::parseIndexExpr(StringRef text, MLIRContext *context,
                                       IndexVarResolver resolve,
                                       ErrorEmitter emitError,
                                       SizeSymbolPredicate isSizeSymbol,
                                       bool isStride) {
  return IndexParser(text, context, resolve, emitError, nullptr, isSizeSymbol,
                     isStride)
      .parse();
}

FailureOr<ParsedIndex>
mlir::fusion::inductor::parseIndex(StringRef text, MLIRContext *context,
                                   IndexVarResolver resolve,
                                   ErrorEmitter emitError,
                                   SizeSymbolPredicate isSizeSymbol) {
  ParsedIndex parsed;
  FailureOr<AffineExpr> expr =
      IndexParser(text, context, resolve, emitError, &parsed.terms,
                  isSizeSymbol)
          .parse();
  if (failed(expr))
    return failure();
  parsed.expr = *expr;
  return parsed;
}
