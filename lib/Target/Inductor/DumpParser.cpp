//===- DumpParser.cpp - Parse Inductor's scheduler dumps ------------------===//
//
// Two levels: a line-structured reader for the fields Inductor's
// `debug_str` methods print (`op0.writes = ...`, `op0.outputs = [`, the
// indented loop body), and a small Python-literal parser for the values on
// those lines (lists of dependences, layouts, `ops.load('buf0', get_index)`).
//
//===----------------------------------------------------------------------===//

#include "InductorDump.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

const DumpLocator::BufferLines &
DumpLocator::getLines(const char *ptr) const {
  if (last && ptr >= last->begin && ptr <= last->end)
    return *last;
  unsigned id = sourceMgr.FindBufferContainingLoc(SMLoc::getFromPointer(ptr));
  if (id == 0)
    id = sourceMgr.getMainFileID();
  std::unique_ptr<BufferLines> &entry = lines[id];
  if (!entry) {
    const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
    entry = std::make_unique<BufferLines>();
    entry->begin = buffer->getBufferStart();
    entry->end = buffer->getBufferEnd();
    entry->file = StringAttr::get(context, buffer->getBufferIdentifier());
    StringRef text = buffer->getBuffer();
    entry->lineStarts.push_back(0);
    for (size_t i = text.find('\n'); i != StringRef::npos;
         i = text.find('\n', i + 1))
      entry->lineStarts.push_back(i + 1);
  }
  last = entry.get();
  return *last;
}

Location DumpLocator::get(const char *ptr) const {
  const BufferLines &buffer = getLines(ptr);
  // A pointer outside every buffer (none is made by the parser) is placed
  // at the start of the main file.
  size_t offset =
      ptr >= buffer.begin && ptr <= buffer.end ? ptr - buffer.begin : 0;
  auto next = llvm::upper_bound(buffer.lineStarts, offset);
  unsigned line = next - buffer.lineStarts.begin();
  unsigned col = offset - *(next - 1) + 1;
  return FileLineColLoc::get(buffer.file, line, col);
}

/// Shows a piece of source text in a message: at most `limit` characters of
/// the first line, non-printable bytes escaped.
static std::string quote(StringRef text, size_t limit = 60) {
  text = text.take_until([](char c) { return c == '\n' || c == '\r'; });
  std::string result = "'";
  for (char c : text.take_front(limit)) {
    if (llvm::isPrint(c))
      result += c;
    else
      result += "\\x" + llvm::utohexstr(static_cast<uint8_t>(c), true, 2);
  }
  if (text.size() > limit)
    result += "...";
  return result + "'";
}

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
  Plus,
  Minus,
  Star,
  StarStar,
  Slash,
  SlashSlash,
  Percent,
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
    while (cur != end &&
           (*cur == ' ' || *cur == '\t' || *cur == '\n' || *cur == '\r'))
      ++cur;
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
      return make(Tok::Equal);
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
      while (cur != end && (llvm::isAlnum(*cur) || *cur == '_'))
        ++cur;
      return make(Tok::Ident);
    }
    if (llvm::isDigit(c)) {
      bool isFloat = false;
      while (cur != end && llvm::isDigit(*cur))
        ++cur;
      if (cur != end && *cur == '.') {
        isFloat = true;
        ++cur;
        while (cur != end && llvm::isDigit(*cur))
          ++cur;
      }
      if (cur != end && (*cur == 'e' || *cur == 'E')) {
        const char *save = cur++;
        if (cur != end && (*cur == '+' || *cur == '-'))
          ++cur;
        if (cur != end && llvm::isDigit(*cur)) {
          isFloat = true;
          while (cur != end && llvm::isDigit(*cur))
            ++cur;
        } else {
          cur = save;
        }
      }
      return make(isFloat ? Tok::Float : Tok::Int);
    }
    return {Tok::Error, StringRef(start, 1)};
  }

  const char *getPosition() const { return cur; }
  void setPosition(const char *pos) { cur = pos; }

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
  return quote(tok.text);
}

//===----------------------------------------------------------------------===//
// Python values
//===----------------------------------------------------------------------===//

class PyParser {
public:
  PyParser(StringRef text, const DumpLocator &locator,
           PyValueArena &arena)
      : lexer(text.begin(), text.end()), locator(locator), arena(arena) {
    advance();
  }

  FailureOr<PyValue *> parseValue() { return parseAdditive(); }

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

  /// The token after the current one.
  Token peek() {
    const char *save = lexer.getPosition();
    Token next = lexer.next();
    lexer.setPosition(save);
    return next;
  }

  PyValue *make(PyValue::Kind kind, const char *start) {
    PyValue &value = *new (arena.Allocate()) PyValue();
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

  FailureOr<PyValue *> parseAdditive() {
    const char *start = tok.text.data();
    FailureOr<PyValue *> lhs = parseMultiplicative();
    if (failed(lhs))
      return failure();
    bool isCompound = false;
    while (tok.kind == Tok::Plus || tok.kind == Tok::Minus) {
      advance();
      if (failed(parseMultiplicative()))
        return failure();
      isCompound = true;
    }
    return isCompound ? compound(start) : *lhs;
  }

  FailureOr<PyValue *> parseMultiplicative() {
    const char *start = tok.text.data();
    FailureOr<PyValue *> lhs = parseUnary();
    if (failed(lhs))
      return failure();
    bool isCompound = false;
    while (tok.kind == Tok::Star || tok.kind == Tok::StarStar ||
           tok.kind == Tok::Slash || tok.kind == Tok::SlashSlash ||
           tok.kind == Tok::Percent) {
      advance();
      if (failed(parseUnary()))
        return failure();
      isCompound = true;
    }
    return isCompound ? compound(start) : *lhs;
  }

  FailureOr<PyValue *> parseUnary() {
    if (++depth > kMaxDepth)
      return error(tok.text.data()) << "value nested too deeply";
    FailureOr<PyValue *> result = parseUnaryImpl();
    --depth;
    return result;
  }

  FailureOr<PyValue *> parseUnaryImpl() {
    if (tok.kind != Tok::Minus)
      return parsePostfix();
    const char *start = tok.text.data();
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
      if (tok.kind == Tok::Ident && peek().kind == Tok::Equal) {
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
        return error(start)
               << "integer " << quote(tok.text) << " does not fit in 64 bits";
      advance();
      PyValue *v = make(PyValue::Kind::Int, start);
      v->intValue = value;
      return v;
    }
    case Tok::Float: {
      double value;
      if (tok.text.getAsDouble(value))
        return error(start) << "invalid number " << quote(tok.text);
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

FailureOr<PyValue *>
mlir::fusion::inductor::parsePyValue(StringRef text, const DumpLocator &locator,
                                     PyValueArena &arena) {
  PyParser parser(text, locator, arena);
  FailureOr<PyValue *> value = parser.parseValue();
  if (failed(value) || failed(parser.expectEnd()))
    return failure();
  return value;
}

//===----------------------------------------------------------------------===//
// Interpreting values
//===----------------------------------------------------------------------===//

namespace {
/// Reads the pieces of a dump out of parsed Python values.
class ValueReader {
public:
  explicit ValueReader(const DumpLocator &locator) : locator(locator) {}

  InFlightDiagnostic error(const PyValue *at) {
    return locator.emitError(at->loc());
  }

  LogicalResult expectKind(const PyValue *v, PyValue::Kind kind,
                           StringRef what) {
    if (v->kind == kind)
      return success();
    return error(v) << "expected " << what << ", found " << quote(v->text);
  }

  /// A keyword argument of a call, or null.
  static const PyValue *keyword(const PyValue *call, StringRef key) {
    for (auto &[name, value] : call->keywords)
      if (name == key)
        return value;
    return nullptr;
  }

  /// Fails on positional arguments beyond `maxPositional` and on keywords
  /// not in `keywords`: nothing the dump says is ignored.
  LogicalResult checkArguments(const PyValue *call, unsigned maxPositional,
                               ArrayRef<StringRef> keywords) {
    if (call->elements.size() > maxPositional)
      return error(call->elements[maxPositional])
             << "unexpected argument "
             << quote(call->elements[maxPositional]->text) << " of '"
             << call->str << "'";
    for (auto &[key, value] : call->keywords)
      if (!llvm::is_contained(keywords, key))
        return error(value) << "unexpected argument '" << key << "' of '"
                            << call->str << "'";
    return success();
  }

  FailureOr<const PyValue *> requireKeyword(const PyValue *call,
                                            StringRef key) {
    if (const PyValue *v = keyword(call, key))
      return v;
    return error(call) << "'" << call->str << "' needs the argument '" << key
                       << "'";
  }

  FailureOr<bool> readBool(const PyValue *v) {
    if (v->isName("True"))
      return true;
    if (v->isName("False"))
      return false;
    return error(v) << "expected True or False, found " << quote(v->text);
  }

  FailureOr<StringRef> readString(const PyValue *v, StringRef what) {
    if (failed(expectKind(v, PyValue::Kind::String, what)))
      return failure();
    return v->str;
  }

  LogicalResult readIntList(const PyValue *v, SmallVectorImpl<int64_t> &out,
                            StringRef what) {
    if (v->kind != PyValue::Kind::List && v->kind != PyValue::Kind::Tuple)
      return error(v) << "expected " << what << " (a list of integers), found "
                      << quote(v->text);
    for (const PyValue *e : v->elements) {
      if (e->kind != PyValue::Kind::Int)
        return error(e) << "expected an integer in " << what << ", found "
                        << quote(e->text)
                        << (e->kind == PyValue::Kind::Name ||
                                    e->kind == PyValue::Kind::Expr
                                ? " (symbolic sizes are not supported)"
                                : "");
      out.push_back(e->intValue);
    }
    return success();
  }

  /// `{d0: 64, d1: 4096}` or `{p0: 64}`.
  LogicalResult
  readVarSizes(const PyValue *v,
               SmallVectorImpl<std::pair<StringRef, int64_t>> &out,
               StringRef what) {
    if (failed(expectKind(v, PyValue::Kind::Dict, what)))
      return failure();
    for (size_t i = 0; i + 1 < v->elements.size(); i += 2) {
      const PyValue *key = v->elements[i], *size = v->elements[i + 1];
      if (failed(expectKind(key, PyValue::Kind::Name, "a variable name")))
        return failure();
      if (size->kind != PyValue::Kind::Int)
        return error(size) << "expected an integer size, found "
                           << quote(size->text)
                           << " (symbolic sizes are not supported)";
      out.push_back({key->str, size->intValue});
    }
    return success();
  }

  FailureOr<DumpDep> readDep(const PyValue *v) {
    DumpDep dep;
    dep.text = v->text;
    if (v->kind != PyValue::Kind::Call)
      return error(v) << "expected MemoryDep, StarDep or WeakDep, found "
                      << quote(v->text);
    if (v->str == "MemoryDep") {
      dep.kind = DumpDep::Kind::Memory;
      if (v->elements.size() != 3 && v->elements.size() != 4)
        return error(v) << "MemoryDep takes a name, an index, sizes and an "
                           "optional mode";
      FailureOr<StringRef> name =
          readString(v->elements[0], "a buffer name in quotes");
      if (failed(name))
        return failure();
      dep.name = *name;
      if (failed(checkArguments(v, 4, {})))
        return failure();
      dep.index = v->elements[1]->text;
      if (failed(readVarSizes(v->elements[2], dep.sizes,
                              "the sizes of the index variables")))
        return failure();
      if (v->elements.size() == 4 && !v->elements[3]->isNone()) {
        if (failed(expectKind(v->elements[3], PyValue::Kind::Name,
                              "a store mode")))
          return failure();
        dep.mode = v->elements[3]->str;
      }
      return dep;
    }
    if (v->str == "StarDep") {
      dep.kind = DumpDep::Kind::Star;
      if (failed(checkArguments(v, 0, {"name", "mode"})))
        return failure();
      FailureOr<const PyValue *> name = requireKeyword(v, "name");
      if (failed(name))
        return failure();
      FailureOr<StringRef> str = readString(*name, "a buffer name in quotes");
      if (failed(str))
        return failure();
      dep.name = *str;
      if (const PyValue *mode = keyword(v, "mode"); mode && !mode->isNone()) {
        FailureOr<StringRef> m = readString(mode, "a store mode in quotes");
        if (failed(m))
          return failure();
        dep.mode = *m;
      }
      return dep;
    }
    if (v->str == "WeakDep") {
      dep.kind = DumpDep::Kind::Weak;
      if (failed(checkArguments(v, 0, {"name", "mutating_buf", "is_fake"})))
        return failure();
      FailureOr<const PyValue *> name = requireKeyword(v, "name");
      if (failed(name))
        return failure();
      FailureOr<const PyValue *> mutating = requireKeyword(v, "mutating_buf");
      if (failed(mutating))
        return failure();
      FailureOr<StringRef> n = readString(*name, "a buffer name in quotes");
      if (failed(n))
        return failure();
      FailureOr<StringRef> m = readString(*mutating, "a buffer name in quotes");
      if (failed(m))
        return failure();
      dep.name = *n;
      dep.mutatingBuf = *m;
      if (const PyValue *fake = keyword(v, "is_fake")) {
        FailureOr<bool> b = readBool(fake);
        if (failed(b))
          return failure();
        dep.isFake = *b;
      }
      return dep;
    }
    return error(v) << "unknown dependence kind '" << v->str
                    << "' (expected MemoryDep, StarDep or WeakDep)";
  }

  LogicalResult readDepList(const PyValue *v, DumpDepList &out) {
    if (failed(expectKind(v, PyValue::Kind::List, "a list of dependences")))
      return failure();
    for (const PyValue *e : v->elements) {
      FailureOr<DumpDep> dep = readDep(e);
      if (failed(dep))
        return failure();
      out.deps.push_back(std::move(*dep));
    }
    return success();
  }

  /// `device(type='cuda', index=0)` -> "cuda:0".
  FailureOr<std::string> readDevice(const PyValue *v) {
    if (v->kind == PyValue::Kind::String)
      return v->str.str();
    if (v->kind != PyValue::Kind::Call || v->str != "device")
      return error(v) << "expected a device, found " << quote(v->text);
    if (failed(checkArguments(v, 0, {"type", "index"})))
      return failure();
    FailureOr<const PyValue *> type = requireKeyword(v, "type");
    if (failed(type))
      return failure();
    FailureOr<StringRef> str = readString(*type, "a device type in quotes");
    if (failed(str))
      return failure();
    std::string device = str->str();
    if (const PyValue *index = keyword(v, "index"); index && !index->isNone()) {
      if (failed(expectKind(index, PyValue::Kind::Int, "a device index")))
        return failure();
      device += ":" + std::to_string(index->intValue);
    }
    return device;
  }

  FailureOr<DumpLayout> readLayout(const PyValue *v) {
    DumpLayout layout;
    layout.loc = v->loc();
    if (v->kind != PyValue::Kind::Call)
      return error(v) << "expected a layout, found " << quote(v->text);
    layout.className = v->str;
    if (v->str == "MultiOutputLayout" || v->str == "NoneLayout") {
      layout.kind = v->str == "NoneLayout" ? DumpLayout::Kind::None
                                           : DumpLayout::Kind::MultiOutput;
      // NoneLayout also prints size=[0], stride=[0]: it has no storage.
      if (failed(checkArguments(v, 0, {"device", "size", "stride"})))
        return failure();
      FailureOr<const PyValue *> device = requireKeyword(v, "device");
      if (failed(device))
        return failure();
      FailureOr<std::string> dev = readDevice(*device);
      if (failed(dev))
        return failure();
      layout.device = *dev;
      return layout;
    }
    if (v->str != "FixedLayout" && v->str != "FlexibleLayout" &&
        v->str != "MutationLayoutSHOULDREMOVE")
      return error(v) << "unsupported layout '" << v->str
                      << "' (expected FixedLayout, FlexibleLayout, "
                         "MutationLayoutSHOULDREMOVE, MultiOutputLayout or "
                         "NoneLayout)";
    layout.kind = DumpLayout::Kind::Fixed;
    if (failed(checkArguments(v, 2, {"size", "stride", "offset"})))
      return failure();
    if (v->elements.size() != 2)
      return error(v) << "'" << v->str
                      << "' takes a device and a dtype before size= and "
                         "stride=";
    FailureOr<std::string> dev = readDevice(v->elements[0]);
    if (failed(dev) || failed(expectKind(v->elements[1], PyValue::Kind::Name,
                                         "a dtype such as torch.float32")))
      return failure();
    layout.device = *dev;
    layout.dtype = v->elements[1]->str;
    layout.dtypeLoc = v->elements[1]->loc();
    FailureOr<const PyValue *> size = requireKeyword(v, "size");
    if (failed(size))
      return failure();
    FailureOr<const PyValue *> stride = requireKeyword(v, "stride");
    if (failed(stride) ||
        failed(readIntList(*size, layout.size, "the layout size")) ||
        failed(readIntList(*stride, layout.stride, "the layout stride")))
      return failure();
    if (layout.size.size() != layout.stride.size())
      return error(*stride)
             << "layout has " << layout.size.size() << " sizes but "
             << layout.stride.size() << " strides";
    if (const PyValue *offset = keyword(v, "offset")) {
      if (offset->kind != PyValue::Kind::Int)
        return error(offset)
               << "expected an integer offset, found " << quote(offset->text);
      layout.offset = offset->intValue;
    }
    return layout;
  }

  FailureOr<DumpUser> readUser(const PyValue *v) {
    if (v->kind != PyValue::Kind::Call || v->str != "NodeUser")
      return error(v) << "expected NodeUser(...), found " << quote(v->text);
    DumpUser user;
    user.loc = v->loc();
    if (failed(checkArguments(v, 0, {"node", "can_inplace", "is_weak"})))
      return failure();
    FailureOr<const PyValue *> node = requireKeyword(v, "node");
    if (failed(node))
      return failure();
    if ((*node)->isName("OUTPUT")) {
      // nodeName stays empty.
    } else if ((*node)->kind == PyValue::Kind::Call) {
      user.nodeClass = (*node)->str;
      if (failed(checkArguments(*node, 0, {"name"})))
        return failure();
      FailureOr<const PyValue *> name = requireKeyword(*node, "name");
      if (failed(name))
        return failure();
      FailureOr<StringRef> str = readString(*name, "a node name in quotes");
      if (failed(str))
        return failure();
      user.nodeName = *str;
    } else {
      return error(*node) << "expected OUTPUT or a scheduler node, found "
                          << quote((*node)->text);
    }
    for (auto [key, field] :
         {std::pair<StringRef, bool *>{"can_inplace", &user.canInplace},
          {"is_weak", &user.isWeak}}) {
      FailureOr<const PyValue *> flag = requireKeyword(v, key);
      if (failed(flag))
        return failure();
      FailureOr<bool> b = readBool(*flag);
      if (failed(b))
        return failure();
      *field = *b;
    }
    return user;
  }

  LogicalResult
  readStringList(const PyValue *v,
                 SmallVectorImpl<std::pair<StringRef, const char *>> &out) {
    if (failed(expectKind(v, PyValue::Kind::List, "a list of names")))
      return failure();
    for (const PyValue *e : v->elements) {
      FailureOr<StringRef> s = readString(e, "a buffer name in quotes");
      if (failed(s))
        return failure();
      out.push_back({*s, e->loc()});
    }
    return success();
  }

private:
  const DumpLocator &locator;
};

//===----------------------------------------------------------------------===//
// Lines
//===----------------------------------------------------------------------===//

/// The dump's line structure: nodes, their fields, the indented loop body.
class DumpParser {
public:
  DumpParser(unsigned bufferId, const DumpLocator &locator, InductorDump &dump)
      : locator(locator), reader(locator), dump(dump) {
    buffer = locator.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  }

  LogicalResult parse() {
    if (failed(splitLines()))
      return failure();
    skipBlankLines();
    if (atEnd())
      return error(buffer.begin())
             << "empty dump: expected a scheduler node such as 'op0: "
                "SchedulerNode(ComputedBuffer)'";
    while (!atEnd()) {
      std::unique_ptr<DumpNode> node;
      if (failed(parseNode(node)))
        return failure();
      dump.nodes.push_back(std::move(node));
      if (!atEnd() && !line().text.empty())
        return error(line().textBegin())
               << "expected a blank line or the next scheduler node after "
                  "node '"
               << dump.nodes.back()->name << "', found " << quote(line().text);
      skipBlankLines();
    }
    return success();
  }

private:
  struct Line {
    /// The line without its newline, indentation included.
    StringRef full;
    /// The line after its indentation.
    StringRef text;
    unsigned indent;
    const char *textBegin() const { return text.data(); }
  };

  InFlightDiagnostic error(const char *at) { return locator.emitError(at); }

  LogicalResult splitLines() {
    const char *p = buffer.begin(), *end = buffer.end();
    while (p != end) {
      const char *start = p;
      while (p != end && *p != '\n')
        ++p;
      StringRef full(start, p - start);
      if (p != end)
        ++p;
      if (full.ends_with("\r"))
        full = full.drop_back();
      size_t indent = full.find_first_not_of(' ');
      if (indent == StringRef::npos)
        indent = full.size();
      if (indent < full.size() && full[indent] == '\t')
        return error(full.data() + indent)
               << "tab in indentation; the dump is indented with spaces";
      StringRef text = full.drop_front(indent).rtrim(' ');
      lines.push_back({full, text, static_cast<unsigned>(indent)});
    }
    return success();
  }

  bool atEnd() const { return pos >= lines.size(); }
  const Line &line() const { return lines[pos]; }
  void skipBlankLines() {
    while (!atEnd() && line().text.empty())
      ++pos;
  }
  const char *endOfFile() const { return buffer.end(); }

  /// Error at the end of the file for a dump that stops early.
  InFlightDiagnostic truncated(StringRef expected) {
    return error(endOfFile()) << "unexpected end of the dump: expected "
                              << expected << " (is the dump truncated?)";
  }

  /// Checks that the current line is `<key> = ...` at `indent` and returns
  /// a pointer to the start of the value.
  FailureOr<const char *> expectField(StringRef key, unsigned indent) {
    auto expected = [&] { return ("'" + key + " = ...'").str(); };
    if (atEnd())
      return truncated(expected());
    const Line &l = line();
    bool matches = l.text.starts_with(key) &&
                   l.text.drop_front(key.size()).starts_with(" =");
    if (matches && l.indent != indent)
      return error(l.full.data())
             << "wrong indentation: expected " << indent << " spaces before '"
             << key << "', found " << l.indent;
    if (!matches)
      return error(l.textBegin())
             << "expected " << expected() << ", found "
             << (l.text.empty() ? std::string("an empty line") : quote(l.text));
    return l.text.data() + key.size() + 2;
  }

  /// Parses the value starting at `start` on the current line: it ends
  /// with the line unless brackets remain open, in which case it continues
  /// on the following (indented) lines. A value that starts on the next line
  /// (`op0.met_dependencies = ` then `    [   ...`) is supported too.
  /// Leaves the current line after the value.
  FailureOr<PyValue *> parseFieldValue(const char *start, unsigned indent) {
    StringRef rest(start, line().full.end() - start);
    if (rest.trim().empty()) {
      ++pos;
      if (atEnd())
        return truncated("a value");
      if (line().indent <= indent || line().text.empty())
        return error(line().full.data())
               << "expected the value on an indented line, found "
               << (line().text.empty() ? std::string("an empty line")
                                       : quote(line().text));
      start = line().textBegin();
    }
    const char *valueStart = start;
    SmallVector<const char *, 8> open;
    while (true) {
      const char *p = start, *lineEnd = line().full.end();
      while (p < lineEnd) {
        char c = *p;
        if (c == '\'' || c == '"') {
          const char *q = p + 1;
          while (q < lineEnd && *q != c)
            q += (*q == '\\' && q + 1 < lineEnd) ? 2 : 1;
          if (q >= lineEnd)
            return error(p) << "unterminated string";
          p = q + 1;
          continue;
        }
        if (c == '(' || c == '[' || c == '{') {
          open.push_back(p);
        } else if (c == ')' || c == ']' || c == '}') {
          if (open.empty())
            return error(p) << "unbalanced '" << c << "'";
          char o = *open.back();
          if ((o == '(') != (c == ')') || (o == '[') != (c == ']')) {
            InFlightDiagnostic diag = error(p)
                                      << "'" << c << "' does not match the '"
                                      << o << "' before it";
            diag.attachNote(locator.get(open.back()))
                << "'" << o << "' opened here";
            return diag;
          }
          open.pop_back();
        }
        ++p;
      }
      const char *valueEnd = lineEnd;
      ++pos;
      if (open.empty())
        return parsePyValue(StringRef(valueStart, valueEnd - valueStart),
                            locator, dump.values);
      if (atEnd())
        return error(open.back())
               << "'" << *open.back()
               << "' is never closed: unexpected end of the dump (is the dump "
                  "truncated?)";
      if (line().indent == 0 || line().text.empty())
        return error(open.back())
               << "'" << *open.back() << "' is never closed before "
               << (line().text.empty() ? std::string("an empty line")
                                       : quote(line().text));
      start = line().full.data();
    }
  }

  /// Parses `key = <value>` at `indent` and returns the value.
  FailureOr<PyValue *> parseField(StringRef key, unsigned indent) {
    FailureOr<const char *> start = expectField(key, indent);
    if (failed(start))
      return failure();
    return parseFieldValue(*start, indent);
  }

  LogicalResult parseNode(std::unique_ptr<DumpNode> &out);
  LogicalResult parseOutputs(DumpNode &node);
  LogicalResult parseBuffer(DumpNode &node);
  LogicalResult parseSchedulerExtras(DumpNode &node);
  LogicalResult parseLoopBody(DumpNode &node);
  LogicalResult parseMembers(DumpNode &node);

  const DumpLocator &locator;
  ValueReader reader;
  InductorDump &dump;
  StringRef buffer;
  std::vector<Line> lines;
  size_t pos = 0;
  unsigned containerDepth = 0;
  static constexpr unsigned kMaxContainerDepth = 8;
};
} // namespace

static bool isIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// `NAME: KIND(INNER)` -> the three pieces, or nothing.
static std::optional<std::tuple<StringRef, StringRef, StringRef>>
splitHeader(StringRef text) {
  size_t colon = text.find(": ");
  if (colon == StringRef::npos)
    return std::nullopt;
  StringRef name = text.take_front(colon);
  StringRef rest = text.drop_front(colon + 2);
  size_t paren = rest.find('(');
  if (!isIdentifier(name) || paren == StringRef::npos || !rest.ends_with(")"))
    return std::nullopt;
  return std::make_tuple(name, rest.take_front(paren),
                         rest.slice(paren + 1, rest.size() - 1));
}

LogicalResult DumpParser::parseNode(std::unique_ptr<DumpNode> &out) {
  const Line &header = line();
  auto pieces = splitHeader(header.text);
  if (!pieces)
    return error(header.textBegin())
           << "expected a scheduler node header such as 'op0: "
              "SchedulerNode(ComputedBuffer)', found "
           << quote(header.text);
  if (header.indent != 0)
    return error(header.full.data())
           << "wrong indentation: a scheduler node header starts in column "
              "1, found "
           << header.indent << " spaces";
  auto [name, kindName, inner] = *pieces;
  std::optional<DumpNode::Kind> kind =
      llvm::StringSwitch<std::optional<DumpNode::Kind>>(kindName)
          .Case("SchedulerNode", DumpNode::Kind::Scheduler)
          .Case("ExternKernelSchedulerNode", DumpNode::Kind::Extern)
          .Case("NopKernelSchedulerNode", DumpNode::Kind::Nop)
          .Case("FusedSchedulerNode", DumpNode::Kind::Fused)
          .Case("ForeachKernelSchedulerNode", DumpNode::Kind::Foreach)
          .Case("GroupedSchedulerNode", DumpNode::Kind::Grouped)
          .Default(std::nullopt);
  if (!kind)
    return error(kindName.data())
           << "unknown scheduler node kind '" << kindName
           << "' (expected SchedulerNode, ExternKernelSchedulerNode, "
              "NopKernelSchedulerNode, FusedSchedulerNode, "
              "ForeachKernelSchedulerNode or GroupedSchedulerNode)";
  out = std::make_unique<DumpNode>();
  DumpNode &node = *out;
  node.kind = *kind;
  node.name = name;
  node.loc = header.textBegin();
  node.kindName = kindName;
  node.innerClasses = inner;
  ++pos;

  std::string prefix = name.str() + ".";
  for (auto [field, list] :
       {std::pair<StringRef, DumpDepList *>{"writes", &node.writes},
        {"unmet_dependencies", &node.unmet},
        {"met_dependencies", &node.met}}) {
    list->loc = atEnd() ? endOfFile() : line().textBegin();
    FailureOr<PyValue *> value = parseField(prefix + field.str(), 0);
    if (failed(value) || failed(reader.readDepList(*value, *list)))
      return failure();
  }
  if (failed(parseOutputs(node)))
    return failure();

  switch (node.kind) {
  case DumpNode::Kind::Scheduler:
    return parseSchedulerExtras(node);
  case DumpNode::Kind::Extern: {
    FailureOr<const char *> start = expectField(prefix + "node.kernel", 0);
    if (failed(start))
      return failure();
    node.kernelLoc = *start;
    node.kernel = StringRef(*start, line().full.end() - *start).trim();
    if (node.kernel.empty())
      return error(*start) << "expected the kernel name";
    node.kernelLoc = node.kernel.data();
    ++pos;
    return success();
  }
  case DumpNode::Kind::Nop:
    return success();
  case DumpNode::Kind::Fused:
  case DumpNode::Kind::Foreach:
  case DumpNode::Kind::Grouped:
    return parseMembers(node);
  }
  llvm_unreachable("unknown node kind");
}

LogicalResult DumpParser::parseOutputs(DumpNode &node) {
  std::string key = (node.name + ".outputs").str();
  FailureOr<const char *> start = expectField(key, 0);
  if (failed(start))
    return failure();
  if (StringRef(*start, line().full.end() - *start).trim() != "[")
    return error(*start) << "expected '[' after '" << key << " ='";
  ++pos;
  while (true) {
    if (atEnd())
      return truncated("']' closing '" + key + "'");
    const Line &l = line();
    if (l.indent == 0 && l.text == "]") {
      ++pos;
      return success();
    }
    if (l.indent == 0 || l.text.empty())
      return error(l.full.data())
             << "expected a buffer ('bufN: Class', indented by 4 spaces) or "
                "']' closing '"
             << key << "', found "
             << (l.text.empty() ? std::string("an empty line") : quote(l.text));
    if (failed(parseBuffer(node)))
      return failure();
  }
}

LogicalResult DumpParser::parseBuffer(DumpNode &node) {
  const Line &header = line();
  size_t colon = header.text.find(": ");
  StringRef name =
      colon == StringRef::npos ? StringRef() : header.text.take_front(colon);
  if (!isIdentifier(name))
    return error(header.textBegin())
           << "expected a buffer such as 'buf0: ComputedBuffer', found "
           << quote(header.text);
  if (header.indent != 4)
    return error(header.full.data())
           << "wrong indentation: expected 4 spaces before buffer '" << name
           << "', found " << header.indent;
  DumpBuffer &buffer = node.outputs.emplace_back();
  buffer.name = name;
  buffer.loc = header.textBegin();
  buffer.className = header.text.drop_front(colon + 2).trim();
  ++pos;

  std::string prefix = name.str() + ".";
  FailureOr<PyValue *> layout = parseField(prefix + "layout", 4);
  if (failed(layout))
    return failure();
  FailureOr<DumpLayout> parsed = reader.readLayout(*layout);
  if (failed(parsed))
    return failure();
  buffer.layout = std::move(*parsed);
  for (auto [field, list] : {std::pair<StringRef, decltype(&buffer.aliases)>{
                                 "aliases", &buffer.aliases},
                             {"mutations", &buffer.mutations}}) {
    if (atEnd() || !line().text.starts_with(prefix + field.str() + " ="))
      continue;
    FailureOr<PyValue *> value = parseField(prefix + field.str(), 4);
    if (failed(value) || failed(reader.readStringList(*value, *list)))
      return failure();
  }
  buffer.usersLoc = atEnd() ? endOfFile() : line().textBegin();
  FailureOr<PyValue *> users = parseField(prefix + "users", 4);
  if (failed(users) || failed(reader.expectKind(*users, PyValue::Kind::List,
                                                "a list of NodeUser")))
    return failure();
  for (const PyValue *u : (*users)->elements) {
    FailureOr<DumpUser> user = reader.readUser(u);
    if (failed(user))
      return failure();
    buffer.users.push_back(*user);
  }
  return success();
}

LogicalResult DumpParser::parseSchedulerExtras(DumpNode &node) {
  std::string prefix = node.name.str() + ".";
  FailureOr<const char *> device = expectField(prefix + "group.device", 0);
  if (failed(device))
    return failure();
  node.groupDevice = StringRef(*device, line().full.end() - *device).trim();
  node.groupDeviceLoc = node.groupDevice.data();
  ++pos;

  node.iterationLoc = atEnd() ? endOfFile() : line().textBegin();
  FailureOr<PyValue *> iteration = parseField(prefix + "group.iteration", 0);
  if (failed(iteration))
    return failure();
  const PyValue *it = *iteration;
  if (it->kind != PyValue::Kind::Tuple || it->elements.size() != 2 ||
      it->elements[0]->kind != PyValue::Kind::Int ||
      it->elements[1]->kind != PyValue::Kind::Int)
    return error(it->loc())
           << "expected the iteration as (numel, reduction numel), found "
           << quote(it->text);
  node.numel = it->elements[0]->intValue;
  node.reductionNumel = it->elements[1]->intValue;

  node.sizesLoc = atEnd() ? endOfFile() : line().textBegin();
  FailureOr<PyValue *> sizes = parseField(prefix + "sizes", 0);
  if (failed(sizes))
    return failure();
  const PyValue *sz = *sizes;
  if (sz->kind != PyValue::Kind::Tuple || sz->elements.size() != 2)
    return error(sz->loc())
           << "expected the sizes as ([pointwise sizes], [reduction sizes]), "
              "found "
           << quote(sz->text);
  if (failed(reader.readIntList(sz->elements[0], node.ranges,
                                "the pointwise sizes")) ||
      failed(reader.readIntList(sz->elements[1], node.reductionRanges,
                                "the reduction sizes")))
    return failure();

  // `<buffer>_layout = ...` lines.
  while (!atEnd() && line().indent == 0) {
    StringRef text = line().text;
    size_t eq = text.find("_layout = ");
    if (eq == StringRef::npos || !isIdentifier(text.take_front(eq)))
      break;
    StringRef name = text.take_front(eq);
    FailureOr<PyValue *> value = parseField((name + "_layout").str(), 0);
    if (failed(value))
      return failure();
    FailureOr<DumpLayout> layout = reader.readLayout(*value);
    if (failed(layout))
      return failure();
    node.layouts.push_back({name, std::move(*layout)});
  }
  if (!atEnd() && line().indent == 0 && line().text.starts_with("class "))
    return parseLoopBody(node);
  return success();
}

LogicalResult DumpParser::parseLoopBody(DumpNode &node) {
  std::string expected = ("class " + node.name + "_loop_body:").str();
  if (line().text != expected)
    return error(line().textBegin())
           << "expected '" << expected << "', found " << quote(line().text);
  DumpLoopBody &body = node.body.emplace();
  body.loc = line().textBegin();
  ++pos;

  body.varRangesLoc = atEnd() ? endOfFile() : line().textBegin();
  FailureOr<PyValue *> ranges = parseField("var_ranges", 4);
  if (failed(ranges) ||
      failed(reader.readVarSizes(*ranges, body.varRanges, "var_ranges")))
    return failure();

  // `indexK = <sympy expression>` lines.
  while (!atEnd() && line().indent == 4 && !line().text.starts_with("def ")) {
    StringRef text = line().text;
    size_t eq = text.find(" = ");
    if (eq == StringRef::npos || !isIdentifier(text.take_front(eq)))
      return error(line().textBegin())
             << "expected an index ('index0 = ...') or 'def body(self, ops):' "
                "in the loop body of '"
             << node.name << "', found " << quote(text);
    StringRef expr = text.drop_front(eq + 3).trim();
    if (expr.empty())
      return error(text.data() + eq + 3) << "expected an index expression";
    body.indices.push_back({text.take_front(eq), expr});
    ++pos;
  }

  while (!atEnd() && !line().text.empty() && line().indent != 0) {
    const Line &def = line();
    if (def.indent != 4 || !def.text.starts_with("def "))
      return error(def.full.data())
             << "wrong indentation in the loop body of '" << node.name
             << "': expected 'def <block>(self, ops):' indented by 4 spaces, "
                "found "
             << quote(def.full);
    StringRef blockName = def.text.drop_front(4);
    if (!blockName.consume_back("(self, ops):") || !isIdentifier(blockName))
      return error(def.textBegin())
             << "expected 'def <block>(self, ops):', found " << quote(def.text);
    DumpBlock &block = body.blocks.emplace_back();
    block.name = blockName;
    block.loc = def.textBegin();
    ++pos;
    while (!atEnd() && line().indent == 8 && !line().text.empty()) {
      const Line &l = line();
      DumpStmt &stmt = block.stmts.emplace_back();
      stmt.loc = l.textBegin();
      StringRef valueText;
      if (l.text == "return" || l.text.starts_with("return ")) {
        valueText = l.text.drop_front(6);
      } else {
        size_t eq = l.text.find(" = ");
        if (eq == StringRef::npos || !isIdentifier(l.text.take_front(eq)))
          return error(l.textBegin())
                 << "expected '<name> = <operation>' or 'return <name>', "
                    "found "
                 << quote(l.text);
        stmt.target = l.text.take_front(eq);
        valueText = l.text.drop_front(eq + 3);
      }
      FailureOr<PyValue *> value =
          parsePyValue(valueText, locator, dump.values);
      if (failed(value))
        return failure();
      stmt.value = *value;
      ++pos;
    }
    if (!atEnd() && !line().text.empty() && line().indent != 0 &&
        line().indent != 4)
      return error(line().full.data())
             << "wrong indentation in block '" << block.name << "' of '"
             << node.name
             << "': expected 8 spaces (a statement), 4 (the next 'def') or "
                "the end of the loop body, found "
             << line().indent;
    if (block.stmts.empty() || !block.stmts.back().target.empty()) {
      if (atEnd())
        return truncated(("'return' ending block '" + block.name + "' of '" +
                          node.name + "'")
                             .str());
      return error(block.loc) << "block '" << block.name << "' of '"
                              << node.name << "' does not end with 'return'";
    }
  }
  if (body.blocks.empty())
    return error(atEnd() ? endOfFile() : line().full.data())
           << "the loop body of '" << node.name
           << "' has no 'def body(self, ops):'"
           << (atEnd() ? " (is the dump truncated?)" : "");
  if (body.blocks.front().name != "body")
    return error(body.blocks.front().loc)
           << "the first block of a loop body must be 'body', found '"
           << body.blocks.front().name << "'";
  return success();
}

LogicalResult DumpParser::parseMembers(DumpNode &node) {
  while (true) {
    std::string key =
        (node.name + ".snodes[" + Twine(node.members.size()) + "] =").str();
    if (atEnd() || line().indent != 0 || line().text != key)
      break;
    ++pos;
    if (atEnd())
      return truncated("the member node after '" + key + "'");
    // Inductor nests at most a foreach of fused nodes; the bound keeps a
    // hostile dump from exhausting the stack.
    if (containerDepth == kMaxContainerDepth)
      return error(line().textBegin()) << "scheduler nodes nested more than "
                                       << kMaxContainerDepth << " deep";
    ++containerDepth;
    std::unique_ptr<DumpNode> member;
    LogicalResult parsed = parseNode(member);
    --containerDepth;
    if (failed(parsed))
      return failure();
    node.members.push_back(std::move(member));
  }
  if (node.members.empty())
    return error(atEnd() ? endOfFile() : line().textBegin())
           << "expected '" << node.name << ".snodes[0] =' and the members of '"
           << node.name << "'";
  return success();
}

LogicalResult mlir::fusion::inductor::parseInductorDump(
    unsigned bufferId, const DumpLocator &locator, InductorDump &dump) {
  return DumpParser(bufferId, locator, dump).parse();
}
