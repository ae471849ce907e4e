//===- DirectFields.cpp - The common field shapes, read from their text ---===//
//
// Most of a dump's field text is dependence lists, node users, loop sizes
// and var_ranges in a few fixed shapes: `[MemoryDep('buf0', 64*d0 + d1,
// {d0: 8, d1: 64})]`, `[NodeUser(node=SchedulerNode(name='op4'),
// can_inplace=False, is_weak=False)]`, `([64], [4096])`, `{p0: 64}`. These
// are read here straight from the text, without building Python values.
// Only what the Python-value path (PyValueParser.cpp, then DumpFields.cpp)
// would read to the same result is accepted; anything else (sizes in size
// symbols, indices with `//`, `%` or `**`, unusual spacing of arguments,
// errors) makes a reader return false without a diagnostic, and the
// caller takes that path, which reads it or reports it.
//
//===----------------------------------------------------------------------===//

#include "DumpFields.h"

#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

namespace {
/// A cursor over one field's text with the token rules of PyValueParser's
/// lexer (blanks, identifiers, integers, strings without escapes).
class DirectReader {
public:
  DirectReader(StringRef text, MLIRContext *ctx)
      : p(text.begin()), end(text.end()), ctx(ctx) {}

  bool depList(SmallVectorImpl<DumpDep> &out);
  bool userList(SmallVectorImpl<DumpUser> &out);
  bool varSizes(SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out);
  bool sizePair(AffineExpr &first, AffineExpr &second);
  bool sizeListPair(SmallVectorImpl<AffineExpr> &first,
                    SmallVectorImpl<AffineExpr> &second);
  bool layout(DumpLayout &out);
  /// True once only blanks are left.
  bool atEnd() {
    skipBlanks();
    return p == end;
  }
  /// Where what was read ends, if only blanks (spaces, tabs, carriage
  /// returns) follow it up to the end of its line; else null.
  const char *endIfLineEnds() const {
    const char *q = p;
    while (q != end && (*q == ' ' || *q == '\t' || *q == '\r'))
      ++q;
    return q == end || *q == '\n' ? p : nullptr;
  }

private:
  /// On a local (skipBlankChars): a `char` read may alias the cursor `p`,
  /// which the compiler would then store and load again at every character.
  void skipBlanks() { p = skipBlankChars(p, end); }
  bool peek(char c) {
    skipBlanks();
    return p != end && *p == c;
  }
  /// The punctuation `c` (a single-character token).
  bool punct(char c) {
    if (!peek(c))
      return false;
    ++p;
    // `**` and `//` are tokens of their own.
    return !((c == '*' || c == '/') && p != end && *p == c);
  }
  /// An identifier that is a plain name to the value parser: not `inf` or
  /// `nan` (floats there), not followed by `.` (a dotted name).
  bool ident(StringRef &out, const char *&start) {
    skipBlanks();
    if (p == end || !(llvm::isAlpha(*p) || *p == '_'))
      return false;
    start = p;
    p = skipIdentChars(p, end);
    out = StringRef(start, p - start);
    if (out == "inf" || out == "nan")
      return false;
    // `a.b` and `a .b` are one dotted name to the value parser.
    const char *tokenEnd = p;
    skipBlanks();
    bool dotted = p != end && *p == '.';
    p = tokenEnd;
    return !dotted;
  }
  bool ident(StringRef &out) {
    const char *start;
    return ident(out, start);
  }
  /// `text` exactly as written there: the one spelling Inductor prints of
  /// tokens that the token readers would read one by one to the same end.
  /// `text` ends with punctuation, so no longer name can continue it.
  bool literal(StringRef text) {
    skipBlanks();
    if (!StringRef(p, end - p).starts_with(text))
      return false;
    p += text.size();
    return true;
  }
  /// The identifier `word` exactly.
  bool word(StringRef word) {
    StringRef name;
    return ident(name) && name == word;
  }
  /// `key=`.
  bool keyword(StringRef key) { return word(key) && punct('='); }
  /// A quoted string without escapes; `inner` is its text between quotes.
  bool string(StringRef &inner) {
    skipBlanks();
    if (p == end || (*p != '\'' && *p != '"'))
      return false;
    char quote = *p;
    const char *start = p + 1, *q = start;
    while (q != end && *q != quote) {
      if (*q == '\\' || *q == '\n')
        return false;
      ++q;
    }
    if (q == end)
      return false;
    inner = StringRef(start, q - start);
    p = q + 1;
    return true;
  }
  /// A non-negative decimal integer that the value parser reads as an Int.
  bool integer(int64_t &value, const char *&start) {
    skipBlanks();
    if (p == end || !llvm::isDigit(*p))
      return false;
    start = p;
    uint64_t v = 0;
    const char *q = p;
    for (; q != end && llvm::isDigit(*q); ++q)
      v = v * 10 + (*q - '0');
    p = q;
    // `1.5`, `1e5`, `12ab`: a float or another token follows.
    if (p != end && (*p == '.' || isIdentChar(*p)))
      return false;
    // No 18 digits exceed INT64_MAX; longer ones are read again as
    // StringRef::getAsInteger reads them (above INT64_MAX fails).
    if (p - start > 18)
      return !StringRef(start, p - start).getAsInteger(10, value);
    value = static_cast<int64_t>(v);
    return true;
  }
  bool size(AffineExpr &out) {
    int64_t value;
    const char *start;
    if (!integer(value, start))
      return false;
    out = getCachedConstantExpr(value, ctx);
    return true;
  }
  /// `{name: int, ...}`.
  bool nameSizeDict(SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out);
  /// The text of a `{name: int, ...}` that nameSizeDict would read,
  /// without making its sizes (a dependence's, which the import does not
  /// keep).
  bool sizeDictText(StringRef &text);
  /// `[int, ...]`.
  bool sizeList(SmallVectorImpl<AffineExpr> &out);
  /// A sum of products of names and integers (`256*d0 + d1`); its text.
  bool affineText(StringRef &text);
  /// A sum of products of names, integers, calls and parenthesized sums
  /// (`256*d0 + (ModularIndexing((d2 - 256), 1, 256))`); its text. Its
  /// recursion keeps the cursor in memory, so it is slower than affineText
  /// and taken only where that fails.
  bool indexText(StringRef &text);
  /// indexText from `p` on a reader of its own; the end of the text read,
  /// or null. Out of line, so that the caller's reader, whose address it
  /// never sees, keeps its cursor in a register.
  LLVM_ATTRIBUTE_NOINLINE static const char *indexTextAt(const char *p,
                                                         const char *end,
                                                         MLIRContext *ctx,
                                                         StringRef &text) {
    DirectReader reader(StringRef(p, end - p), ctx);
    return reader.indexText(text) ? reader.p : nullptr;
  }
  /// The sum of indexText; `last` is left at the end of the last factor
  /// read, `depth` counts the brackets open around it.
  bool indexSum(const char *&last, unsigned depth);
  /// A call's arguments (`call`) or a sum, in the parentheses at `p`.
  bool indexBrackets(const char *&last, unsigned depth, bool call);
  /// Far below the value parser's nesting limit.
  static constexpr unsigned kMaxIndexDepth = 16;
  bool memoryDep(DumpDep &dep);
  bool starDep(DumpDep &dep);
  bool weakDep(DumpDep &dep);
  bool boolean(bool &out) {
    StringRef name;
    if (!ident(name))
      return false;
    out = name == "True";
    return out || name == "False";
  }
  bool user(DumpUser &user);
  /// A dotted name written without blanks (`torch.float32`), which the
  /// value parser reads as one Name of the same text.
  bool dottedName(StringRef &out, const char *&start);

  /// Elements of a sequence up to `close` (an optional trailing comma, as
  /// Python and the value parser allow), each read by `element`.
  template <typename Fn>
  bool sequence(char close, Fn element) {
    while (!peek(close)) {
      if (!element())
        return false;
      if (punct(','))
        continue;
      if (!peek(close))
        return false;
    }
    ++p;
    return true;
  }

  const char *p, *end;
  MLIRContext *ctx;
};
} // namespace

bool DirectReader::nameSizeDict(
    SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out) {
  if (!punct('{'))
    return false;
  return sequence('}', [&] {
    StringRef name;
    AffineExpr value;
    if (!ident(name) || !punct(':') || !size(value))
      return false;
    out.push_back({name, value});
    return true;
  });
}

bool DirectReader::sizeDictText(StringRef &text) {
  skipBlanks();
  const char *start = p;
  if (!punct('{') || !sequence('}', [&] {
        StringRef name;
        int64_t value;
        const char *at;
        return ident(name) && punct(':') && integer(value, at);
      }))
    return false;
  text = StringRef(start, p - start);
  return true;
}

bool DirectReader::sizeList(SmallVectorImpl<AffineExpr> &out) {
  if (!punct('['))
    return false;
  return sequence(']', [&] {
    AffineExpr value;
    if (!size(value))
      return false;
    out.push_back(value);
    return true;
  });
}

bool DirectReader::affineText(StringRef &text) {
  skipBlanks();
  const char *start = p, *last = p;
  auto factor = [&] {
    StringRef name;
    const char *at;
    int64_t value;
    skipBlanks();
    if (p != end && llvm::isDigit(*p) ? !integer(value, at) : !ident(name, at))
      return false;
    last = p;
    // Names followed by `(` or `[` are calls and subscripts.
    skipBlanks();
    return p == end || (*p != '(' && *p != '[');
  };
  do {
    do {
      if (!factor())
        return false;
    } while (punct('*'));
  } while (punct('+') || punct('-'));
  // The value ends here: the caller expects `,` or a closing bracket, so
  // anything else (`/`, `%`, `**`) makes it fail.
  text = StringRef(start, last - start);
  return true;
}

bool DirectReader::indexText(StringRef &text) {
  skipBlanks();
  const char *start = p, *last = p;
  // The value parser's text of `(x)` alone is x's unless x is a sum.
  if (p == end || *p == '(' || !indexSum(last, 0))
    return false;
  // The value ends here: the caller expects `,` or a closing bracket, so
  // anything else (`/`, `%`, `**`) makes it fail.
  text = StringRef(start, last - start);
  return true;
}

bool DirectReader::indexSum(const char *&last, unsigned depth) {
  do {
    do {
      skipBlanks();
      if (p == end)
        return false;
      if (*p == '(') {
        // A sum in parentheses (the value parser's `(x)`, x widened).
        if (!indexBrackets(last, depth, /*call=*/false))
          return false;
      } else {
        StringRef name;
        const char *at;
        int64_t value;
        if (llvm::isDigit(*p) ? !integer(value, at) : !ident(name, at))
          return false;
        last = p;
        if (!name.empty() && peek('(') &&
            !indexBrackets(last, depth, /*call=*/true))
          return false;
      }
      // A factor followed by `(` or `[` is called or subscripted.
      skipBlanks();
      if (p != end && (*p == '(' || *p == '['))
        return false;
    } while (punct('*'));
  } while (punct('+') || punct('-'));
  return true;
}

bool DirectReader::indexBrackets(const char *&last, unsigned depth,
                                 bool call) {
  if (depth == kMaxIndexDepth)
    return false;
  ++p;
  // A call has one or more arguments, each a sum.
  do {
    if (!indexSum(last, depth + 1))
      return false;
  } while (call && punct(','));
  if (!punct(')'))
    return false;
  last = p;
  return true;
}

bool DirectReader::memoryDep(DumpDep &dep) {
  dep.kind = DumpDep::Kind::Memory;
  if (!punct('(') || !string(dep.name) || !punct(','))
    return false;
  const char *index = p;
  if (!affineText(dep.index)) {
    p = indexTextAt(index, end, ctx, dep.index);
    if (!p)
      return false;
  }
  if (!punct(',') || !sizeDictText(dep.sizes))
    return false;
  if (punct(',')) {
    // The store mode: None or a name.
    StringRef mode;
    if (!ident(mode))
      return false;
    if (mode != "None")
      dep.mode = mode;
  }
  return punct(')');
}

bool DirectReader::starDep(DumpDep &dep) {
  dep.kind = DumpDep::Kind::Star;
  if (!punct('(') || !keyword("name") || !string(dep.name))
    return false;
  if (punct(',')) {
    if (!keyword("mode"))
      return false;
    skipBlanks();
    if (p != end && (*p == '\'' || *p == '"')) {
      if (!string(dep.mode))
        return false;
    } else if (!word("None")) {
      return false;
    }
  }
  return punct(')');
}

bool DirectReader::weakDep(DumpDep &dep) {
  dep.kind = DumpDep::Kind::Weak;
  if (!punct('(') || !keyword("name") || !string(dep.name) || !punct(',') ||
      !keyword("mutating_buf") || !string(dep.mutatingBuf))
    return false;
  if (punct(',') && (!keyword("is_fake") || !boolean(dep.isFake)))
    return false;
  return punct(')');
}

bool DirectReader::depList(SmallVectorImpl<DumpDep> &out) {
  if (!punct('['))
    return false;
  return sequence(']', [&] {
    StringRef kind;
    const char *start;
    if (!ident(kind, start))
      return false;
    // Read in place: a list that fails is cut back whole (readWhole).
    DumpDep &dep = out.emplace_back();
    bool read = kind == "MemoryDep"  ? memoryDep(dep)
                : kind == "StarDep" ? starDep(dep)
                : kind == "WeakDep" ? weakDep(dep)
                                    : false;
    if (!read)
      return false;
    dep.text = StringRef(start, p - start);
    return true;
  });
}

bool DirectReader::user(DumpUser &user) {
  // Each fixed run of tokens is first matched as Inductor spells it.
  skipBlanks();
  user.loc = p;
  if (!literal("NodeUser(node=")) {
    StringRef name;
    if (!ident(name, user.loc) || name != "NodeUser" || !punct('(') ||
        !keyword("node"))
      return false;
  }
  StringRef node;
  if (!ident(node))
    return false;
  if (peek('(')) {
    user.nodeClass = node;
    if (!literal("(name=") && (++p, !keyword("name")))
      return false;
    if (!string(user.nodeName) || user.nodeName.empty() || !punct(')'))
      return false;
  } else if (node != "OUTPUT") {
    return false;
  }
  return (literal(", can_inplace=") ||
          (punct(',') && keyword("can_inplace"))) &&
         boolean(user.canInplace) &&
         (literal(", is_weak=") || (punct(',') && keyword("is_weak"))) &&
         boolean(user.isWeak) && punct(')');
}

bool DirectReader::userList(SmallVectorImpl<DumpUser> &out) {
  if (!punct('['))
    return false;
  return sequence(']', [&] {
    DumpUser u;
    if (!user(u))
      return false;
    out.push_back(u);
    return true;
  });
}

bool DirectReader::varSizes(
    SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out) {
  return nameSizeDict(out);
}

bool DirectReader::sizePair(AffineExpr &first, AffineExpr &second) {
  return punct('(') && size(first) && punct(',') && size(second) &&
         punct(')');
}

bool DirectReader::sizeListPair(SmallVectorImpl<AffineExpr> &first,
                                SmallVectorImpl<AffineExpr> &second) {
  return punct('(') && sizeList(first) && punct(',') && sizeList(second) &&
         punct(')');
}

bool DirectReader::dottedName(StringRef &out, const char *&start) {
  skipBlanks();
  start = p;
  while (true) {
    if (p == end || !(llvm::isAlpha(*p) || *p == '_'))
      return false;
    p = skipIdentChars(p, end);
    if (p == end || *p != '.')
      break;
    ++p;
  }
  out = StringRef(start, p - start);
  // `inf` and `nan` are floats; a following `.` or `(` makes another value.
  return out != "inf" && out != "nan" && !peek('.') && !peek('(');
}

/// `FixedLayout('cuda:0', torch.float32, size=[64, 4096], stride=[4096, 1])`
/// with an optional `offset=` in integers, for the layout classes with
/// storage (ValueReader::readLayout reads every other shape).
bool DirectReader::layout(DumpLayout &out) {
  StringRef className, device;
  const char *classStart;
  if (!ident(className, classStart) ||
      !isStorageLayoutClass(className) ||
      !punct('(') || !string(device) || !punct(','))
    return false;
  out.kind = DumpLayout::Kind::Fixed;
  out.className = className;
  out.loc = classStart;
  out.device = device.str();
  if (!dottedName(out.dtype, out.dtypeLoc) || !punct(',') ||
      !keyword("size") || !sizeList(out.size) || !punct(',') ||
      !keyword("stride") || !sizeList(out.stride) ||
      out.size.size() != out.stride.size())
    return false;
  out.offset = getCachedConstantExpr(0, ctx);
  if (punct(',') && (!keyword("offset") || !size(out.offset)))
    return false;
  return punct(')');
}

/// Runs `read` on a reader over `text`; keeps what it read only if it
/// succeeded and consumed the whole text, else restores `out`.
template <typename Vector, typename Fn>
static bool readWhole(StringRef text, MLIRContext *ctx, Vector &out, Fn read) {
  size_t size = out.size();
  DirectReader reader(text, ctx);
  if (read(reader) && reader.atEnd())
    return true;
  out.truncate(size);
  return false;
}

/// Runs `read` on a reader over `text` (the rest of the dump from a
/// value on); returns the end of what it read if it succeeded and only
/// blanks follow on that line, else restores `out` and returns null.
template <typename Vector, typename Fn>
static const char *readToLineEnd(StringRef text, MLIRContext *ctx,
                                 Vector &out, Fn read) {
  size_t size = out.size();
  DirectReader reader(text, ctx);
  if (read(reader))
    if (const char *valueEnd = reader.endIfLineEnds())
      return valueEnd;
  out.truncate(size);
  return nullptr;
}

const char *mlir::fusion::inductor::readDepListAcrossLines(StringRef text,
                                                           MLIRContext *ctx,
                                                           DumpDepList &out) {
  return readToLineEnd(text, ctx, out.deps,
                       [&](DirectReader &r) { return r.depList(out.deps); });
}

const char *mlir::fusion::inductor::readUserListAcrossLines(
    StringRef text, MLIRContext *ctx, SmallVectorImpl<DumpUser> &out) {
  return readToLineEnd(text, ctx, out,
                       [&](DirectReader &r) { return r.userList(out); });
}

bool mlir::fusion::inductor::readDepListDirect(StringRef text, MLIRContext *ctx,
                                               DumpDepList &out) {
  return readWhole(text, ctx, out.deps,
                   [&](DirectReader &r) { return r.depList(out.deps); });
}

bool mlir::fusion::inductor::readUserListDirect(
    StringRef text, MLIRContext *ctx, SmallVectorImpl<DumpUser> &out) {
  return readWhole(text, ctx, out,
                   [&](DirectReader &r) { return r.userList(out); });
}

bool mlir::fusion::inductor::readVarSizesDirect(
    StringRef text, MLIRContext *ctx,
    SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out) {
  return readWhole(text, ctx, out,
                   [&](DirectReader &r) { return r.varSizes(out); });
}

bool mlir::fusion::inductor::readSizePairDirect(StringRef text,
                                                MLIRContext *ctx,
                                                AffineExpr &first,
                                                AffineExpr &second) {
  DirectReader reader(text, ctx);
  return reader.sizePair(first, second) && reader.atEnd();
}

bool mlir::fusion::inductor::readSizeListPairDirect(
    StringRef text, MLIRContext *ctx, SmallVectorImpl<AffineExpr> &first,
    SmallVectorImpl<AffineExpr> &second) {
  size_t firstSize = first.size(), secondSize = second.size();
  DirectReader reader(text, ctx);
  if (reader.sizeListPair(first, second) && reader.atEnd())
    return true;
  first.truncate(firstSize);
  second.truncate(secondSize);
  return false;
}

bool mlir::fusion::inductor::readLayoutDirect(StringRef text, MLIRContext *ctx,
                                              DumpLayout &out) {
  DumpLayout layout;
  DirectReader reader(text, ctx);
  if (!reader.layout(layout) || !reader.atEnd())
    return false;
  out = std::move(layout);
  return true;
}
