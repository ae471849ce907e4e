//===- PyValueParser.cpp - Python literals of the dump --------------------===//
//
// A small parser for the Python values Inductor prints: literals, names,
// calls with keyword arguments, lists, tuples, dicts, subscripts, and sympy
// arithmetic (kept as text, for the index expression parser).
//
//===----------------------------------------------------------------------===//

#include "InductorDump.h"

#include "llvm/ADT/StringExtras.h"

#include <charconv>
#include <limits>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

namespace {
enum class Tok {
  Eof,
  Error,
  Ident,
  Int,
  Float,
  String,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Equal,
  Dot,
  // Binary operators, each precedence level a contiguous range of kinds
  // (PyParser::parseBinary): + -, then * ** / // %, then the relations.
  Plus,
  Minus,
  Star,
  StarStar,
  Slash,
  SlashSlash,
  Percent,
  /// Sympy's relations and boolean operators: `<`, `<=`, `>`, `>=`, `==`,
  /// `!=`, `&`, `|`, `~` (`Where(s53 - 1 < 0, ...)` in a MemoryDep).
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  EqualEqual,
  NotEqual,
  Amp,
  Pipe,
  Tilde,
};

struct Token {
  Tok kind;
  StringRef text;
};

/// Tokens of Python literals over [cur, end); newlines are blanks.
class PyLexer {
public:
  PyLexer(const char *begin, const char *end) : cur(begin), end(end) {}

  Token next() {
    cur = skipBlankChars(cur, end);
    const char *start = cur;
    if (cur == end)
      return {Tok::Eof, StringRef(cur, 0)};
    char c = *cur++;
    auto make = [&](Tok kind) {
      return Token{kind, StringRef(start, cur - start)};
    };
    switch (c) {
    case '(':
      return make(Tok::LParen);
    case ')':
      return make(Tok::RParen);
    case '[':
      return make(Tok::LBracket);
    case ']':
      return make(Tok::RBracket);
    case '{':
      return make(Tok::LBrace);
    case '}':
      return make(Tok::RBrace);
    case ',':
      return make(Tok::Comma);
    case ':':
      return make(Tok::Colon);
    case '=':
      if (cur != end && *cur == '=') {
        ++cur;
        return make(Tok::EqualEqual);
      }
      return make(Tok::Equal);
    case '<':
    case '>': {
      bool orEqual = cur != end && *cur == '=';
      cur += orEqual;
      if (c == '<')
        return make(orEqual ? Tok::LessEqual : Tok::Less);
      return make(orEqual ? Tok::GreaterEqual : Tok::Greater);
    }
    case '!':
      if (cur != end && *cur == '=') {
        ++cur;
        return make(Tok::NotEqual);
      }
      break;
    case '&':
      return make(Tok::Amp);
    case '|':
      return make(Tok::Pipe);
    case '~':
      return make(Tok::Tilde);
    case '.':
      return make(Tok::Dot);
    case '+':
      return make(Tok::Plus);
    case '-':
      return make(Tok::Minus);
    case '%':
      return make(Tok::Percent);
    case '*':
      if (cur != end && *cur == '*') {
        ++cur;
        return make(Tok::StarStar);
      }
      return make(Tok::Star);
    case '/':
      if (cur != end && *cur == '/') {
        ++cur;
        return make(Tok::SlashSlash);
      }
      return make(Tok::Slash);
    case '\'':
    case '"':
      while (cur != end && *cur != c && *cur != '\n') {
        if (*cur == '\\' && cur + 1 != end)
          ++cur;
        ++cur;
      }
      if (cur == end || *cur != c) {
        cur = start + 1;
        return {Tok::Error, StringRef(start, 1)};
      }
      ++cur;
      return make(Tok::String);
    default:
      break;
    }
    if (llvm::isAlpha(c) || c == '_') {
      while (cur != end && isIdentChar(*cur))
        ++cur;
      return make(Tok::Ident);
    }
    if (llvm::isDigit(c)) {
      bool isFloat;
      cur = scanNumberToken(start, end, isFloat);
      return make(isFloat ? Tok::Float : Tok::Int);
    }
    return {Tok::Error, StringRef(start, 1)};
  }

  /// True when the next token is the single character `c` (a bracket or
  /// `=`, `,`, `:`), without lexing it; `=` is not the start of `==`.
  bool nextIs(char c) const {
    const char *p = skipBlankChars(cur, end);
    return p != end && *p == c && !(c == '=' && p + 1 != end && p[1] == '=');
  }

private:
  const char *cur;
  const char *end;
};

/// Describes a token for error messages.
static std::string describe(const Token &tok) {
  if (tok.kind == Tok::Eof)
    return "the end of the value";
  if (tok.kind == Tok::Error && tok.text.size() == 1 &&
      (tok.text[0] == '\'' || tok.text[0] == '"'))
    return "an unterminated string";
  return quoteSource(tok.text);
}

//===----------------------------------------------------------------------===//
// Python values
//===----------------------------------------------------------------------===//

class PyParser {
public:
  PyParser(StringRef text, const DumpLocator &locator, PyValueArena &arena)
      : lexer(text.begin(), text.end()), locator(locator), arena(arena) {
    advance();
  }

  FailureOr<PyValue *> parseValue() { return parseOr(); }

  /// Fails unless the whole text was consumed.
  LogicalResult expectEnd() {
    if (tok.kind == Tok::Eof)
      return success();
    return error(tok.text.data())
           << "unexpected " << describe(tok) << " after the value";
  }

private:
  static constexpr unsigned kMaxDepth = 100;

  InFlightDiagnostic error(const char *at) { return locator.emitError(at); }

  void advance() {
    lastEnd = tok.text.empty() ? lastEnd : tok.text.end();
    tok = lexer.next();
  }

  /// Default-initialized, as StatementReader's (DirectStatements.cpp).
  PyValue *make(PyValue::Kind kind, const char *start) {
    PyValue &value = *new (arena.Allocate()) PyValue;
    value.kind = kind;
    value.text = StringRef(start, lastEnd - start);
    return &value;
  }

  LogicalResult expect(Tok kind, StringRef what) {
    if (tok.kind != kind)
      return error(tok.text.data())
             << "expected " << what << ", found " << describe(tok);
    advance();
    return success();
  }

  /// Wraps `value` and what follows into an `Expr` spanning from `start`.
  PyValue *compound(const char *start) {
    return make(PyValue::Kind::Expr, start);
  }

  /// Sympy's boolean expressions (`(p0 < 3) | (p0 > 5)`, `a & b`) and
  /// relations (`s53 - 1 < 0`), kept as text like arithmetic: only the
  /// index expression parser gives them meaning.
  FailureOr<PyValue *> parseOr() {
    return parseBinary(Tok::Pipe, Tok::Pipe, &PyParser::parseAnd);
  }
  FailureOr<PyValue *> parseAnd() {
    return parseBinary(Tok::Amp, Tok::Amp, &PyParser::parseComparison);
  }
  FailureOr<PyValue *> parseComparison() {
    return parseBinary(Tok::Less, Tok::NotEqual, &PyParser::parseAdditive);
  }

  /// `operand (op operand)*` for the operators of kinds [first, last]
  /// (one precedence level), kept as text: an `Expr` when an operator
  /// came, else the operand itself.
  FailureOr<PyValue *> parseBinary(Tok first, Tok last,
                                   FailureOr<PyValue *> (PyParser::*operand)()) {
    const char *start = tok.text.data();
    FailureOr<PyValue *> lhs = (this->*operand)();
    if (failed(lhs))
      return failure();
    bool isCompound = false;
    while (tok.kind >= first && tok.kind <= last) {
      advance();
      if (failed((this->*operand)()))
        return failure();
      isCompound = true;
    }
    return isCompound ? compound(start) : *lhs;
  }

  FailureOr<PyValue *> parseAdditive() {
    return parseBinary(Tok::Plus, Tok::Minus, &PyParser::parseMultiplicative);
  }
  FailureOr<PyValue *> parseMultiplicative() {
    return parseBinary(Tok::Star, Tok::Percent, &PyParser::parseUnary);
  }

  FailureOr<PyValue *> parseUnary() {
    if (++depth > kMaxDepth)
      return error(tok.text.data()) << "value nested too deeply";
    FailureOr<PyValue *> result = parseUnaryImpl();
    --depth;
    return result;
  }

  FailureOr<PyValue *> parseUnaryImpl() {
    const char *start = tok.text.data();
    if (tok.kind == Tok::Tilde) {
      advance();
      if (failed(parseUnary()))
        return failure();
      return compound(start);
    }
    if (tok.kind != Tok::Minus)
      return parsePostfix();
    advance();
    FailureOr<PyValue *> operand = parseUnary();
    if (failed(operand))
      return failure();
    PyValue *v = *operand;
    if (v->kind == PyValue::Kind::Int && v->intValue != INT64_MIN) {
      PyValue *neg = make(PyValue::Kind::Int, start);
      neg->intValue = -v->intValue;
      return neg;
    }
    if (v->kind == PyValue::Kind::Float) {
      PyValue *neg = make(PyValue::Kind::Float, start);
      neg->floatValue = -v->floatValue;
      return neg;
    }
    if (v->isName("inf") || v->isName("nan")) {
      PyValue *neg = make(PyValue::Kind::Float, start);
      neg->floatValue = v->isName("inf")
                            ? -std::numeric_limits<double>::infinity()
                            : std::numeric_limits<double>::quiet_NaN();
      return neg;
    }
    return compound(start);
  }

  FailureOr<PyValue *> parsePostfix() {
    const char *start = tok.text.data();
    FailureOr<PyValue *> base = parsePrimary();
    if (failed(base))
      return failure();
    PyValue *value = *base;
    while (true) {
      if (tok.kind == Tok::LParen) {
        if (value->kind != PyValue::Kind::Name)
          return error(tok.text.data()) << "only names can be called";
        advance();
        PyValue *call = make(PyValue::Kind::Call, start);
        call->str = value->str;
        if (failed(parseArguments(*call)))
          return failure();
        call->text = StringRef(start, lastEnd - start);
        value = call;
        continue;
      }
      if (tok.kind == Tok::LBracket) {
        advance();
        FailureOr<PyValue *> index = parseValue();
        if (failed(index) || failed(expect(Tok::RBracket, "']'")))
          return failure();
        PyValue *sub = make(PyValue::Kind::Subscript, start);
        sub->elements = {value, *index};
        value = sub;
        continue;
      }
      return value;
    }
  }

  /// `(` already consumed: positional and keyword arguments, then `)`.
  LogicalResult parseArguments(PyValue &call) {
    while (tok.kind != Tok::RParen) {
      if (tok.kind == Tok::Ident && lexer.nextIs('=')) {
        StringRef key = tok.text;
        advance();
        advance();
        FailureOr<PyValue *> value = parseValue();
        if (failed(value))
          return failure();
        call.keywords.push_back({key, *value});
      } else {
        if (!call.keywords.empty())
          return error(tok.text.data())
                 << "positional argument after keyword arguments";
        FailureOr<PyValue *> value = parseValue();
        if (failed(value))
          return failure();
        call.elements.push_back(*value);
      }
      if (tok.kind == Tok::Comma) {
        advance();
        continue;
      }
      if (tok.kind != Tok::RParen)
        return error(tok.text.data())
               << "expected ',' or ')' in the "
                  "arguments of '"
               << call.str << "', found " << describe(tok);
    }
    advance();
    return success();
  }

  /// Elements up to `close`, separated by commas (a trailing comma is
  /// allowed). Sets `sawComma` when there was at least one comma.
  LogicalResult parseSequence(Tok close, StringRef closeText, PyValue &seq,
                              bool &sawComma, bool isDict = false) {
    sawComma = false;
    while (tok.kind != close) {
      FailureOr<PyValue *> value = parseValue();
      if (failed(value))
        return failure();
      seq.elements.push_back(*value);
      if (isDict) {
        if (failed(expect(Tok::Colon, "':' in a dict")))
          return failure();
        FailureOr<PyValue *> item = parseValue();
        if (failed(item))
          return failure();
        seq.elements.push_back(*item);
      }
      if (tok.kind == Tok::Comma) {
        sawComma = true;
        advance();
        continue;
      }
      if (tok.kind != close)
        return error(tok.text.data()) << "expected ',' or '" << closeText
                                      << "', found " << describe(tok);
    }
    advance();
    return success();
  }

  FailureOr<PyValue *> parsePrimary() {
    const char *start = tok.text.data();
    switch (tok.kind) {
    case Tok::Int: {
      int64_t value;
      if (tok.text.getAsInteger(10, value))
        return error(start) << "integer " << quoteSource(tok.text)
                            << " does not fit in 64 bits";
      advance();
      PyValue *v = make(PyValue::Kind::Int, start);
      v->intValue = value;
      return v;
    }
    case Tok::Float: {
      // from_chars rounds correctly, as APFloat does, at a fraction of the
      // cost; what it does not take (out of range) goes to APFloat.
      double value;
      auto [end, status] =
          std::from_chars(tok.text.begin(), tok.text.end(), value);
      if ((status != std::errc() || end != tok.text.end()) &&
          tok.text.getAsDouble(value))
        return error(start) << "invalid number " << quoteSource(tok.text);
      advance();
      PyValue *v = make(PyValue::Kind::Float, start);
      v->floatValue = value;
      return v;
    }
    case Tok::String: {
      StringRef inner = tok.text.drop_front().drop_back();
      advance();
      PyValue *v = make(PyValue::Kind::String, start);
      v->str = inner;
      return v;
    }
    case Tok::Ident: {
      advance();
      while (tok.kind == Tok::Dot) {
        advance();
        if (tok.kind != Tok::Ident)
          return error(tok.text.data())
                 << "expected a name after '.', found " << describe(tok);
        advance();
      }
      PyValue *v = make(PyValue::Kind::Name, start);
      v->str = v->text;
      if (v->str == "inf" || v->str == "nan") {
        v->kind = PyValue::Kind::Float;
        v->floatValue = v->str == "inf"
                            ? std::numeric_limits<double>::infinity()
                            : std::numeric_limits<double>::quiet_NaN();
      }
      return v;
    }
    case Tok::LParen: {
      advance();
      PyValue tuple;
      tuple.kind = PyValue::Kind::Tuple;
      bool sawComma;
      if (++depth > kMaxDepth)
        return error(start) << "value nested too deeply";
      if (failed(parseSequence(Tok::RParen, ")", tuple, sawComma)))
        return failure();
      --depth;
      // `(x)` is x in parentheses: keep its kind, widen its text.
      if (tuple.elements.size() == 1 && !sawComma) {
        PyValue *inner = tuple.elements.front();
        if (inner->kind == PyValue::Kind::Expr)
          inner->text = StringRef(start, lastEnd - start);
        return inner;
      }
      PyValue *v = make(PyValue::Kind::Tuple, start);
      v->elements = std::move(tuple.elements);
      return v;
    }
    case Tok::LBracket:
    case Tok::LBrace: {
      bool isDict = tok.kind == Tok::LBrace;
      advance();
      if (++depth > kMaxDepth)
        return error(start) << "value nested too deeply";
      PyValue seq;
      bool sawComma;
      if (failed(parseSequence(isDict ? Tok::RBrace : Tok::RBracket,
                               isDict ? "}" : "]", seq, sawComma, isDict)))
        return failure();
      --depth;
      PyValue *v =
          make(isDict ? PyValue::Kind::Dict : PyValue::Kind::List, start);
      v->elements = std::move(seq.elements);
      return v;
    }
    default:
      return error(start) << "expected a value, found " << describe(tok);
    }
  }

  PyLexer lexer;
  const DumpLocator &locator;
  PyValueArena &arena;
  Token tok{Tok::Eof, StringRef()};
  const char *lastEnd = nullptr;
  unsigned depth = 0;
};
} // namespace

const char *mlir::fusion::inductor::scanNumberToken(const char *p,
                                                    const char *end,
                                                    bool &isFloat) {
  isFloat = false;
  while (p != end && llvm::isDigit(*p))
    ++p;
  if (p != end && *p == '.') {
    isFloat = true;
    ++p;
    while (p != end && llvm::isDigit(*p))
      ++p;
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    const char *save = p++;
    if (p != end && (*p == '+' || *p == '-'))
      ++p;
    if (p != end && llvm::isDigit(*p)) {
      isFloat = true;
      while (p != end && llvm::isDigit(*p))
        ++p;
    } else {
      p = save;
    }
  }
  return p;
}

FailureOr<PyValue *>
mlir::fusion::inductor::parsePyValue(StringRef text, const DumpLocator &locator,
                                     PyValueArena &arena) {
  PyParser parser(text, locator, arena);
  FailureOr<PyValue *> value = parser.parseValue();
  if (failed(value) || failed(parser.expectEnd()))
    return failure();
  return value;
}
