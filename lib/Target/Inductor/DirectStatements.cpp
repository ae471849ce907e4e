//===- DirectStatements.cpp - Loop-body statements read from their text ---===//
//
// Nearly every statement of a loop body is `None`, a name, `name[k]`, or a
// call whose arguments are plain tokens: `ops.load('buf0', get_index)`,
// `ops.constant(-inf, torch.float32)`, `self.get_index('index0')`,
// `ops.to_dtype(x, torch.float32, src_dtype=torch.float16)`. These are
// built here as the Python values PyValueParser.cpp would build, in one
// pass over the text without its lexer and recursive descent. Anything
// else (subscripts, tuples, nested calls, arithmetic, unusual spacing,
// errors) makes the reader return null without a diagnostic, and the
// caller parses the text with parsePyValue, which reads it or reports it.
//
//===----------------------------------------------------------------------===//

#include "InductorDump.h"

#include "llvm/ADT/StringExtras.h"

#include <charconv>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

namespace {
/// A cursor over one statement's value with the token rules of
/// PyValueParser's lexer; each reader returns null where the value parser
/// could read something other than what it would build.
class StatementReader {
public:
  StatementReader(StringRef text, PyValueArena &arena)
      : p(text.begin()), end(text.end()), arena(arena) {}

  PyValue *value();
  /// An argument that ends the text.
  PyValue *lastArgument() {
    PyValue *v = argument();
    return v && p == end ? v : nullptr;
  }

private:
  void skipBlanks() { p = skipBlankChars(p, end); }
  /// The end of the identifier characters from `q` on. The scans run on
  /// locals: a `char` read may alias the cursor `p`, which the compiler
  /// would then store and load again at every character.
  const char *skipIdent(const char *q) const { return skipIdentChars(q, end); }
  /// Values are default-initialized (`kind` is set here; the other members
  /// initialize themselves): `PyValue()` would first zero all of it.
  PyValue *make(PyValue::Kind kind, const char *start) {
    PyValue &v = *new (arena.Allocate()) PyValue;
    v.kind = kind;
    v.text = StringRef(start, p - start);
    return &v;
  }
  /// An identifier or a dotted name without blanks around its dots (the
  /// value parser allows them, and keeps them in the name).
  bool name(StringRef &out);
  /// An argument of a call: a string, number, `inf`, `nan`, or name.
  PyValue *argument();
  /// The name `word` that ends here, starting at `start`, as an argument:
  /// `inf` and `nan` are numbers.
  PyValue *nameArgument(const char *start, StringRef word);
  PyValue *number(const char *start, bool negate);
  /// `base[<integer>]` (a result of a multi-result reduction), from `[`.
  PyValue *subscript(const char *start, StringRef base);
  /// The name `text` alone, as the value parser makes it.
  PyValue *makeName(StringRef text) {
    PyValue &v = *new (arena.Allocate()) PyValue;
    v.kind = PyValue::Kind::Name;
    v.text = text;
    v.str = text;
    return &v;
  }

  const char *p, *end;
  PyValueArena &arena;
};
} // namespace

bool StatementReader::name(StringRef &out) {
  const char *start = p;
  if (p == end || !(llvm::isAlpha(*p) || *p == '_'))
    return false;
  while (true) {
    p = skipIdent(p);
    if (p == end || *p != '.')
      break;
    ++p;
    if (p == end || !(llvm::isAlpha(*p) || *p == '_'))
      return false;
  }
  out = StringRef(start, p - start);
  return true;
}

/// The double nearest the decimal `token` (digits, an optional fraction
/// and exponent, as scanNumberToken reads them) when it is a significand
/// below 2^53 times a power of ten up to 10^22 either way: both are exact
/// doubles, so one multiplication or division rounds once, to the value
/// from_chars gives (Clinger's fast path; the constants of loop bodies,
/// 0.999, 1e-08, are such). None otherwise.
static std::optional<double> exactDecimal(StringRef token) {
  static constexpr double kPowersOfTen[] = {
      1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr uint64_t kMaxExact = uint64_t(1) << 53;
  const char *p = token.begin(), *end = token.end();
  uint64_t significand = 0;
  int exponent = 0;
  auto digits = [&](bool fraction) {
    for (; p != end && llvm::isDigit(*p); ++p) {
      significand = significand * 10 + (*p - '0');
      if (significand > kMaxExact)
        return false;
      exponent -= fraction;
    }
    return true;
  };
  if (!digits(false))
    return std::nullopt;
  if (p != end && *p == '.') {
    ++p;
    if (!digits(true))
      return std::nullopt;
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool negative = p != end && *p == '-';
    if (p != end && (*p == '+' || *p == '-'))
      ++p;
    int written = 0;
    for (; p != end && llvm::isDigit(*p); ++p)
      if ((written = written * 10 + (*p - '0')) > 1000)
        return std::nullopt;
    exponent += negative ? -written : written;
  }
  if (p != end || exponent < -22 || exponent > 22)
    return std::nullopt;
  double value = static_cast<double>(significand);
  return exponent < 0 ? value / kPowersOfTen[-exponent]
                      : value * kPowersOfTen[exponent];
}

PyValue *StatementReader::number(const char *start, bool negate) {
  const char *digits = p;
  bool isFloat;
  p = scanNumberToken(p, end, isFloat);
  // A letter or `.` right after the number is another token.
  if (p != end && (isIdentChar(*p) || *p == '.'))
    return nullptr;
  StringRef token(digits, p - digits);
  if (!isFloat) {
    int64_t value;
    if (token.getAsInteger(10, value))
      return nullptr;
    PyValue *v = make(PyValue::Kind::Int, start);
    v->intValue = negate ? -value : value;
    return v;
  }
  double value;
  if (std::optional<double> exact = exactDecimal(token)) {
    value = *exact;
  } else {
    auto [last, status] = std::from_chars(token.begin(), token.end(), value);
    if (status != std::errc() || last != token.end())
      return nullptr;
  }
  PyValue *v = make(PyValue::Kind::Float, start);
  v->floatValue = negate ? -value : value;
  return v;
}

PyValue *StatementReader::argument() {
  const char *start = p;
  if (p == end)
    return nullptr;
  char c = *p;
  if (c == '\'' || c == '"') {
    const char *q = p + 1;
    while (q != end && *q != c) {
      if (*q == '\\' || *q == '\n')
        return nullptr;
      ++q;
    }
    if (q == end)
      return nullptr;
    p = q + 1;
    PyValue *v = make(PyValue::Kind::String, start);
    v->str = v->text.drop_front().drop_back();
    return v;
  }
  if (llvm::isDigit(c))
    return number(start, /*negate=*/false);
  if (c == '-') {
    // `-5`, `-0.5`, `-inf`, `-nan` with nothing between the sign and the
    // number: the value parser folds the sign into the literal.
    ++p;
    if (p != end && llvm::isDigit(*p))
      return number(start, /*negate=*/true);
    StringRef word;
    if (!name(word) || (word != "inf" && word != "nan"))
      return nullptr;
    PyValue *v = make(PyValue::Kind::Float, start);
    v->floatValue = -(word == "inf" ? std::numeric_limits<double>::infinity()
                                    : std::numeric_limits<double>::quiet_NaN());
    return v;
  }
  StringRef word;
  if (!name(word))
    return nullptr;
  return nameArgument(start, word);
}

PyValue *StatementReader::nameArgument(const char *start, StringRef word) {
  PyValue *v = make(PyValue::Kind::Name, start);
  v->str = word;
  if (word == "inf" || word == "nan") {
    v->kind = PyValue::Kind::Float;
    v->floatValue = word == "inf" ? std::numeric_limits<double>::infinity()
                                  : std::numeric_limits<double>::quiet_NaN();
  }
  return v;
}

PyValue *StatementReader::subscript(const char *start, StringRef base) {
  ++p;
  skipBlanks();
  if (p == end || !llvm::isDigit(*p))
    return nullptr;
  PyValue *index = number(p, /*negate=*/false);
  if (!index || index->kind != PyValue::Kind::Int)
    return nullptr;
  skipBlanks();
  if (p == end || *p != ']')
    return nullptr;
  ++p;
  PyValue *v = make(PyValue::Kind::Subscript, start);
  v->elements = {makeName(base), index};
  skipBlanks();
  return p == end ? v : nullptr;
}

PyValue *StatementReader::value() {
  skipBlanks();
  const char *start = p;
  StringRef callee;
  // `inf` and `nan` are numbers to the value parser, not names.
  if (!name(callee) || callee == "inf" || callee == "nan")
    return nullptr;
  skipBlanks();
  if (p == end) {
    // A name alone: `None`, `return add`.
    return makeName(callee);
  }
  if (*p == '[')
    return subscript(start, callee);
  if (*p != '(')
    return nullptr;
  ++p;
  // The arguments go straight into the call; its text is set at the end.
  PyValue *call = make(PyValue::Kind::Call, start);
  call->str = callee;
  SmallVectorImpl<PyValue *> &elements = call->elements;
  SmallVectorImpl<std::pair<StringRef, PyValue *>> &keywords = call->keywords;
  skipBlanks();
  while (p == end || *p != ')') {
    // `key=value`: an identifier directly followed (after blanks) by `=`.
    StringRef key;
    const char *argStart = p;
    // An identifier that is no key and not followed by `.` is a name
    // argument, read here instead of scanned again by argument().
    PyValue *arg = nullptr;
    if (p != end && (llvm::isAlpha(*p) || *p == '_')) {
      p = skipIdent(p);
      const char *keyEnd = p;
      skipBlanks();
      if (p != end && *p == '=') {
        key = StringRef(argStart, keyEnd - argStart);
        ++p;
        skipBlanks();
      } else if (keyEnd == end || *keyEnd != '.') {
        p = keyEnd;
        arg = nameArgument(argStart, StringRef(argStart, keyEnd - argStart));
      } else {
        p = argStart;
      }
    }
    if (key.empty() && !keywords.empty())
      return nullptr;
    if (!arg)
      arg = argument();
    if (!arg)
      return nullptr;
    if (key.empty())
      elements.push_back(arg);
    else
      keywords.push_back({key, arg});
    // After an argument only `,` or `)` may follow: anything else
    // (arithmetic, a call, a subscript) is the value parser's.
    skipBlanks();
    if (p != end && *p == ',') {
      ++p;
      skipBlanks();
      continue;
    }
    if (p == end || *p != ')')
      return nullptr;
  }
  ++p;
  call->text = StringRef(start, p - start);
  skipBlanks();
  return p == end ? call : nullptr;
}

PyValue *mlir::fusion::inductor::parseStatementValueDirect(
    StringRef text, PyValueArena &arena) {
  return StatementReader(text, arena).value();
}

PyValue *mlir::fusion::inductor::parseArgumentDirect(StringRef text,
                                                     PyValueArena &arena) {
  return StatementReader(text, arena).lastArgument();
}
