//===- IndexExpr.cpp - Sympy index expressions as AffineExpr --------------===//

#include "IndexExpr.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

namespace {
/// Recursive descent over the text of one expression. Nesting is bounded so
/// that hostile input cannot exhaust the stack.
class IndexParser {
public:
  IndexParser(StringRef text, MLIRContext *context, IndexVarResolver resolve,
              ErrorEmitter emitError)
      : cur(text.begin()), end(text.end()), context(context), resolve(resolve),
        emitError(emitError) {}

  FailureOr<AffineExpr> parse() {
    FailureOr<AffineExpr> expr = parseSum();
    if (failed(expr))
      return failure();
    skipSpace();
    if (cur != end)
      return error(cur) << "unexpected '" << *cur
                        << "' after the end of the index expression";
    return expr;
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

  FailureOr<AffineExpr> parseSum() {
    FailureOr<AffineExpr> lhs = parseProduct();
    if (failed(lhs))
      return failure();
    while (true) {
      skipSpace();
      if (cur == end || (*cur != '+' && *cur != '-'))
        return lhs;
      bool minus = *cur == '-';
      if (failed(countOperator(cur)))
        return failure();
      ++cur;
      FailureOr<AffineExpr> rhs = parseProduct();
      if (failed(rhs))
        return failure();
      lhs = minus ? *lhs - *rhs : *lhs + *rhs;
    }
  }

  FailureOr<AffineExpr> parseProduct() {
    FailureOr<AffineExpr> lhs = parseUnary();
    if (failed(lhs))
      return failure();
    while (true) {
      skipSpace();
      const char *opLoc = cur;
      if (consume("**"))
        return error(opLoc) << "'**' is not affine";
      enum { Mul, FloorDiv, Mod } kind;
      if (consume("*"))
        kind = Mul;
      else if (consume("//"))
        kind = FloorDiv;
      else if (consume("%"))
        kind = Mod;
      else if (consume("/"))
        return error(opLoc) << "true division '/' is not an index operation; "
                               "expected '//'";
      else
        return lhs;
      if (failed(countOperator(opLoc)))
        return failure();
      FailureOr<AffineExpr> rhs = parseUnary();
      if (failed(rhs))
        return failure();
      FailureOr<AffineExpr> result =
          kind == Mul ? multiply(*lhs, *rhs, opLoc)
                      : divide(*lhs, *rhs, kind == Mod, opLoc);
      if (failed(result))
        return failure();
      lhs = *result;
    }
  }

  FailureOr<AffineExpr> multiply(AffineExpr lhs, AffineExpr rhs,
                                 const char *loc) {
    auto lc = dyn_cast<AffineConstantExpr>(lhs);
    auto rc = dyn_cast<AffineConstantExpr>(rhs);
    if (lc && rc) {
      int64_t product;
      if (llvm::MulOverflow(lc.getValue(), rc.getValue(), product))
        return error(loc) << "integer overflow in the index expression";
      return getAffineConstantExpr(product, context);
    }
    if (rc)
      return lhs * rc.getValue();
    if (lc)
      return rhs * lc.getValue();
    return error(loc) << "product of two non-constant expressions is not "
                         "affine";
  }

  FailureOr<AffineExpr> divide(AffineExpr lhs, AffineExpr rhs, bool mod,
                               const char *loc) {
    auto divisor = dyn_cast<AffineConstantExpr>(rhs);
    if (!divisor || divisor.getValue() <= 0)
      return error(loc) << (mod ? "modulus" : "divisor")
                        << " must be a positive integer constant";
    return mod ? lhs % divisor.getValue() : lhs.floorDiv(divisor.getValue());
  }

  FailureOr<AffineExpr> parseUnary() {
    if (++depth > kMaxDepth)
      return error(cur) << "index expression nested too deeply";
    FailureOr<AffineExpr> result;
    if (consume("-")) {
      result = parseUnary();
      if (succeeded(result))
        result = -*result;
    } else if (consume("+")) {
      result = parseUnary();
    } else {
      result = parsePrimary();
    }
    --depth;
    return result;
  }

  FailureOr<AffineExpr> parsePrimary() {
    skipSpace();
    const char *start = cur;
    if (cur != end && llvm::isDigit(*cur)) {
      while (cur != end && llvm::isDigit(*cur))
        ++cur;
      if (cur != end && (*cur == '.' || *cur == 'e' || *cur == 'E'))
        return error(start) << "expected an integer in the index expression";
      int64_t value;
      if (StringRef(start, cur - start).getAsInteger(10, value))
        return error(start) << "integer '" << StringRef(start, cur - start)
                            << "' does not fit in 64 bits";
      return getAffineConstantExpr(value, context);
    }
    if (consume("(")) {
      FailureOr<AffineExpr> inner = parseSum();
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
        return var;
      return error(start) << "unknown variable '" << name
                          << "' in the index expression";
    }
    return error(start) << "expected an index expression, found "
                        << describeNext();
  }

  /// `Name(args)` after the name; `cur` is at the '('.
  FailureOr<AffineExpr> parseCall(StringRef name, const char *nameLoc) {
    unsigned arity;
    if (name == "ModularIndexing")
      arity = 3;
    else if (name == "FloorDiv" || name == "CleanDiv" || name == "Mod" ||
             name == "PythonMod")
      arity = 2;
    else
      return error(nameLoc) << "unsupported function '" << name
                            << "' in the index expression (expected "
                               "ModularIndexing, FloorDiv, CleanDiv, Mod or "
                               "PythonMod)";
    consume("(");
    SmallVector<AffineExpr, 3> args;
    SmallVector<const char *, 3> argLocs;
    while (true) {
      skipSpace();
      argLocs.push_back(cur);
      FailureOr<AffineExpr> arg = parseSum();
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
    if (args.size() != arity)
      return error(nameLoc) << "'" << name << "' takes " << arity
                            << " arguments, got " << args.size();
    if (name == "ModularIndexing") {
      FailureOr<AffineExpr> quotient =
          divide(args[0], args[1], /*mod=*/false, argLocs[1]);
      if (failed(quotient))
        return failure();
      return divide(*quotient, args[2], /*mod=*/true, argLocs[2]);
    }
    bool mod = name == "Mod" || name == "PythonMod";
    return divide(args[0], args[1], mod, argLocs[1]);
  }

  const char *cur, *end;
  MLIRContext *context;
  IndexVarResolver resolve;
  ErrorEmitter emitError;
  unsigned depth = 0;
  unsigned numOperators = 0;
};
} // namespace

FailureOr<AffineExpr>
mlir::fusion::inductor::parseIndexExpr(StringRef text, MLIRContext *context,
                                       IndexVarResolver resolve,
                                       ErrorEmitter emitError) {
  return IndexParser(text, context, resolve, emitError).parse();
}
