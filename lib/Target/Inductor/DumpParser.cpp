//===- DumpParser.cpp - Parse Inductor's scheduler dumps ------------------===//
//
// The line structure of a dump: node headers, the fields Inductor's
// `debug_str` methods print (`op0.writes = ...`, `op0.outputs = [`), values
// that continue over several lines, and the indented loop body. The values
// on the lines are parsed by PyValueParser.cpp and read by DumpFields.cpp.
//
//===----------------------------------------------------------------------===//

#include "DumpFields.h"
#include "InductorDump.h"
#include "TrimBlanks.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"

#include <array>
#include <atomic>
#include <cstring>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

//===----------------------------------------------------------------------===//
// Lines
//===----------------------------------------------------------------------===//

/// The scheduler node classes of scheduler.py that debug_str prints.
static const SchedulerNodeKind kSchedulerNodeKinds[] = {
    {"SchedulerNode", DumpNode::Kind::Scheduler},
    {"ExternKernelSchedulerNode", DumpNode::Kind::Extern},
    {"NopKernelSchedulerNode", DumpNode::Kind::Nop},
    {"FusedSchedulerNode", DumpNode::Kind::Fused},
    {"FusedMixOrderReductions", DumpNode::Kind::Fused},
    {"ForeachKernelSchedulerNode", DumpNode::Kind::Foreach},
    {"GroupedSchedulerNode", DumpNode::Kind::Grouped},
};

ArrayRef<SchedulerNodeKind> mlir::fusion::inductor::getSchedulerNodeKinds() {
  return kSchedulerNodeKinds;
}

/// The first character from `p` on before `end` that is not a space. A
/// statement's or a user's line starts with 8 spaces: eight at a time,
/// the first other one found by the lowest byte of the word that differs
/// from a space.
static const char *skipSpaces(const char *p, const char *end) {
  constexpr uint64_t kSpaces = 0x2020202020202020ULL;
  while (end - p >= 8) {
    uint64_t differ = llvm::support::endian::read64le(p) ^ kSpaces;
    if (differ)
      return p + llvm::countr_zero(differ) / 8;
    p += 8;
  }
  while (p != end && *p == ' ')
    ++p;
  return p;
}

namespace {
/// The key of a field line: `<owner>.<field>` (a node's or a buffer's
/// field) or `<field>` alone, matched against a line in its two pieces; only
/// a diagnostic spells it whole.
struct FieldKey {
  FieldKey(StringRef field) : field(field) {}
  FieldKey(StringRef owner, StringRef field) : owner(owner), field(field) {}
  size_t size() const {
    return owner.empty() ? field.size() : owner.size() + 1 + field.size();
  }
  /// Whether `text` starts with the key.
  bool prefixOf(StringRef text) const {
    if (owner.empty())
      return text.starts_with(field);
    return text.size() > owner.size() && text.starts_with(owner) &&
           text[owner.size()] == '.' &&
           text.drop_front(owner.size() + 1).starts_with(field);
  }
  /// Whether `text` is `<key> =...`.
  bool startsField(StringRef text) const {
    return prefixOf(text) && text.drop_front(size()).starts_with(" =");
  }
  std::string str() const {
    return owner.empty() ? field.str() : (owner + "." + field).str();
  }

  StringRef owner, field;
};
} // namespace

/// The first line after `from`'s line and before `limit` that follows an
/// empty line and starts with a name: where a node may start. Only a guess,
/// for where a thread starts parsing ahead: the sequential parse takes the
/// thread's nodes only if it finds a node starting there itself.
static const char *findNodeStart(const char *from, const char *limit) {
  StringRef text(from, limit - from);
  for (size_t gap = text.find("\n\n"); gap != StringRef::npos;
       gap = text.find("\n\n", gap + 1)) {
    size_t start = text.find_first_not_of('\n', gap);
    if (start == StringRef::npos)
      return nullptr;
    if (llvm::isAlpha(text[start]) || text[start] == '_')
      return text.data() + start;
  }
  return nullptr;
}

namespace {
/// Nodes a thread parsed ahead of the sequential parse (parseInductorDump),
/// one after the other from `begin`. Line numbers (the statements', these)
/// count from the first line of the part of the dump the thread parsed.
struct ParsedSpan {
  /// The start of the first node's header line.
  const char *begin = nullptr;
  unsigned beginLine = 0;
  /// Where the line after the last node and the blank lines after it
  /// starts (the next node's header), or the end of the dump.
  const char *end = nullptr;
  unsigned endLine = 0;
  std::vector<std::unique_ptr<DumpNode>> nodes;
};

/// Adds `offset` to the line of `node` and of every statement of it.
static void shiftLines(DumpNode &node, int offset) {
  node.line += offset;
  if (node.body)
    for (DumpBlock &block : node.body->blocks)
      for (DumpStmt &stmt : block.stmts)
        stmt.line += offset;
  for (auto &member : node.members)
    shiftLines(*member, offset);
}

/// The dump's line structure: nodes, their fields, the indented loop body.
class DumpParser {
public:
  /// A parser that numbers the size symbols it meets in `dump`; without
  /// `numberSymbols` (a thread parsing ahead), a size naming one fails.
  DumpParser(unsigned bufferId, const DumpLocator &locator, InductorDump &dump,
             bool numberSymbols = true)
      : locator(locator),
        reader(numberSymbols ? ValueReader(locator, dump.symbols)
                             : ValueReader(locator)),
        dump(dump) {
    buffer = locator.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  }

  /// A tab in the indentation of any line is reported before anything
  /// else, as a whole-file check.
  LogicalResult checkTabs() {
    for (size_t tab = buffer.find('\t'); tab != StringRef::npos;
         tab = buffer.find('\t', tab + 1)) {
      size_t start = buffer.rfind('\n', tab);
      start = start == StringRef::npos ? 0 : start + 1;
      if (buffer.slice(start, tab).find_first_not_of(' ') == StringRef::npos)
        return error(buffer.data() + tab)
               << "tab in indentation; the dump is indented with spaces";
    }
    return success();
  }

  /// Parses the nodes that start in `[begin, limit)`, `begin` being the
  /// start of a line, into `out`, without reporting anything: a node that
  /// fails (or needs what this parser may not do, such as numbering a size
  /// symbol) is left to the sequential parse, and parsing goes on from the
  /// next place a node may start (findNodeStart).
  void parseAhead(const char *begin, const char *limit,
                  SmallVectorImpl<ParsedSpan> &out) {
    restartAt(begin, 1);
    skipBlankLines();
    std::optional<size_t> span;
    while (!atEnd() && line().full.data() < limit) {
      const char *start = line().full.data();
      unsigned startLine = line().number;
      std::unique_ptr<DumpNode> node;
      bool parsed =
          succeeded(parseNode(node)) && (atEnd() || line().text.empty());
      scratch.DestroyAll();
      if (!parsed) {
        span.reset();
        const char *next = findNodeStart(start, limit);
        if (!next)
          return;
        restartAt(next, startLine + countNewlines(start, next));
        continue;
      }
      if (!span) {
        span = out.size();
        out.emplace_back();
        out.back().begin = start;
        out.back().beginLine = startLine;
      }
      ParsedSpan &s = out[*span];
      s.nodes.push_back(std::move(node));
      skipBlankLines();
      s.end = atEnd() ? buffer.end() : line().full.data();
      s.endLine = atEnd() ? 0 : line().number;
    }
  }

  /// Parses the dump, taking the nodes of `ahead` (sorted by position)
  /// where it finds one of them starting: those are the nodes this parse
  /// would read there.
  LogicalResult parse(MutableArrayRef<ParsedSpan> ahead = {}) {
    if (failed(begin()))
      return failure();
    auto span = ahead.begin();
    while (!atEnd()) {
      const char *here = line().full.data();
      while (span != ahead.end() && span->begin < here)
        ++span;
      if (span != ahead.end() && span->begin == here) {
        take(*span++);
        continue;
      }
      std::unique_ptr<DumpNode> node;
      if (failed(parseNext(node)))
        return failure();
      dump.nodes.push_back(std::move(node));
    }
    return success();
  }

  /// Moves to the first node of the dump; fails on a dump without one.
  LogicalResult begin() {
    restartAt(buffer.begin(), 1);
    skipBlankLines();
    if (atEnd())
      return error(buffer.begin())
             << "empty dump: expected a scheduler node such as 'op0: "
                "SchedulerNode(ComputedBuffer)'";
    return success();
  }

  /// Parses the node at the current line and moves past the blank lines
  /// after it, to the next node or the end of the dump (atEnd).
  LogicalResult parseNext(std::unique_ptr<DumpNode> &node) {
    if (failed(parseNode(node)))
      return failure();
    // Field values are read into the node; none outlives it.
    scratch.DestroyAll();
    if (!atEnd() && !line().text.empty())
      return error(line().textBegin())
             << "expected a blank line or the next scheduler node after "
                "node '"
             << node->name << "', found " << quoteSource(line().text);
    skipBlankLines();
    return success();
  }

  bool atEnd() const { return ended; }

private:
  struct Line {
    /// The line without its newline, indentation included.
    StringRef full;
    /// The line after its indentation.
    StringRef text;
    unsigned indent;
    /// The line's number in the dump (from 1).
    unsigned number;
    const char *textBegin() const { return text.data(); }
  };

  InFlightDiagnostic error(const char *at) { return locator.emitError(at); }
  MLIRContext *ctx() const { return locator.getContext(); }

  /// Lines are read one at a time as the parser advances (a dump of a
  /// million nodes has tens of millions). Makes the line starting at `p`
  /// (or the first line after it that is not a comment) the current one,
  /// `p`'s line being line `number`.
  void restartAt(const char *p, unsigned number) {
    nextLine = p;
    lineNumber = number - 1;
    ended = false;
    advance();
  }

  /// Takes the nodes of `span`, which starts at the current line, and
  /// moves to its end.
  void take(ParsedSpan &span) {
    int offset = static_cast<int>(line().number) -
                 static_cast<int>(span.beginLine);
    for (auto &node : span.nodes) {
      shiftLines(*node, offset);
      dump.nodes.push_back(std::move(node));
    }
    if (span.end == buffer.end())
      ended = true;
    else
      restartAt(span.end, span.endLine + offset);
  }

  /// Moves to the next line that is not a comment. Inductor prints no
  /// comments; a line whose text starts with `#` is one (tests annotate
  /// dumps with expected diagnostics and lit directives that way).
  void advance() {
    do {
      const char *p = nextLine, *end = buffer.end();
      if (p == end) {
        ended = true;
        return;
      }
      const char *start = p;
      ++lineNumber;
      p = static_cast<const char *>(memchr(p, '\n', end - p));
      if (!p)
        p = end;
      nextLine = p == end ? p : p + 1;
      if (p != start && p[-1] == '\r')
        --p;
      // The indentation (all of a blank line), then the text without the
      // spaces after it.
      const char *text = skipSpaces(start, p);
      const char *textEnd = p;
      while (textEnd != text && textEnd[-1] == ' ')
        --textEnd;
      current = {StringRef(start, p - start), StringRef(text, textEnd - text),
                 static_cast<unsigned>(text - start), lineNumber};
    } while (!current.text.empty() && current.text.front() == '#');
  }

  /// The current line (a copy: it stays valid after advance()).
  Line line() const { return current; }
  void skipBlankLines() {
    while (!atEnd() && line().text.empty())
      advance();
  }
  const char *endOfFile() const { return buffer.end(); }

  /// Error at the end of the file for a dump that stops early.
  InFlightDiagnostic truncated(StringRef expected) {
    return error(endOfFile()) << "unexpected end of the dump: expected "
                              << expected << " (is the dump truncated?)";
  }

  /// Checks that the current line is `<key> = ...` at `indent` and returns
  /// a pointer to the start of the value.
  FailureOr<const char *> expectField(const FieldKey &key, unsigned indent) {
    auto expected = [&] { return "'" + key.str() + " = ...'"; };
    if (atEnd())
      return truncated(expected());
    const Line &l = line();
    bool matches = key.startsField(l.text);
    if (matches && l.indent != indent)
      return error(l.full.data())
             << "wrong indentation: expected " << indent << " spaces before '"
             << key.str() << "', found " << l.indent;
    if (!matches)
      return error(l.textBegin())
             << "expected " << expected() << ", found "
             << (l.text.empty() ? std::string("an empty line")
                                : quoteSource(l.text));
    return l.text.data() + key.size() + 2;
  }

  /// Parses the value starting at `start` on the current line: it ends
  /// with the line unless brackets remain open, in which case it continues
  /// on the following (indented) lines. A value that starts on the next line
  /// (`op0.met_dependencies = ` then `    [   ...`) is supported too.
  /// Leaves the current line after the value.
  FailureOr<PyValue *> parseFieldValue(const char *start, unsigned indent) {
    FailureOr<StringRef> text = parseFieldText(start, indent);
    if (failed(text))
      return failure();
    return parsePyValue(*text, locator, scratch);
  }

  /// The text of the value starting at `start` (see parseFieldValue), its
  /// brackets and quotes checked. Leaves the current line after the value.
  FailureOr<StringRef> parseFieldText(const char *start, unsigned indent) {
    StringRef rest(start, line().full.end() - start);
    if (trimBlanks(rest).empty()) {
      advance();
      if (atEnd())
        return truncated("a value");
      if (line().indent <= indent || line().text.empty())
        return error(line().full.data())
               << "expected the value on an indented line, found "
               << (line().text.empty() ? std::string("an empty line")
                                       : quoteSource(line().text));
      start = line().textBegin();
    }
    const char *valueStart = start;
    SmallVector<const char *, 8> open;
    while (true) {
      const char *p = start, *lineEnd = line().full.end();
      while (p < lineEnd) {
        char c = *p;
        if (!kBracketOrQuote[static_cast<unsigned char>(c)]) {
          ++p;
          continue;
        }
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
      advance();
      if (open.empty())
        return StringRef(valueStart, valueEnd - valueStart);
      if (atEnd())
        return error(open.back())
               << "'" << *open.back()
               << "' is never closed: unexpected end of the dump (is the dump "
                  "truncated?)";
      if (line().indent == 0 || line().text.empty())
        return error(open.back())
               << "'" << *open.back() << "' is never closed before "
               << (line().text.empty() ? std::string("an empty line")
                                       : quoteSource(line().text));
      start = line().full.data();
    }
  }

  /// Parses `key = <layout>` at `indent` into `layout`. A layout whose
  /// text was read before is that layout again, located here; a new one
  /// in the common shape is read from its text (readLayoutDirect).
  LogicalResult parseLayoutField(const FieldKey &key, unsigned indent,
                                 DumpLayout &layout) {
    FailureOr<const char *> start = expectField(key, indent);
    if (failed(start))
      return failure();
    StringRef text = trimBlanks(StringRef(*start, line().full.end() - *start));
    if (!text.empty() && text.back() == ')') {
      auto it = layouts.find(text);
      if (it != layouts.end()) {
        // The same text: the same pieces at the same offsets from here.
        layout = it->second;
        auto here = [&](const char *p) {
          return text.data() + (p - it->second.loc);
        };
        layout.loc = here(layout.loc);
        layout.dtypeLoc = here(layout.dtypeLoc);
        layout.className =
            StringRef(here(layout.className.data()), layout.className.size());
        layout.dtype = StringRef(here(layout.dtype.data()), layout.dtype.size());
        advance();
        return success();
      }
      // Read whole from its line, the text is the whole value (readField).
      if (readLayoutDirect(text, ctx(), layout)) {
        layout.firstText = text.data();
        layouts.try_emplace(text, layout);
        advance();
        return success();
      }
    }
    FailureOr<PyValue *> value = parseFieldValue(*start, indent);
    if (failed(value))
      return failure();
    FailureOr<DumpLayout> read = reader.readLayout(*value);
    if (failed(read))
      return failure();
    layout = std::move(*read);
    if ((*value)->text == text && layout.loc && layout.dtypeLoc) {
      layout.firstText = text.data();
      layouts.try_emplace(text, layout);
    }
    return success();
  }

  /// Parses `key = <value>` at `indent` and returns the value.
  FailureOr<PyValue *> parseField(const FieldKey &key, unsigned indent) {
    FailureOr<const char *> start = expectField(key, indent);
    if (failed(start))
      return failure();
    return parseFieldValue(*start, indent);
  }

  /// Reads the field `key` at `indent` with `direct` (DirectFields.cpp)
  /// when its text has one of the common shapes, else parses it as a
  /// Python value and reads that with `generic`.
  template <typename Direct, typename Generic>
  LogicalResult readField(const FieldKey &key, unsigned indent, Direct direct,
                          Generic generic) {
    FailureOr<const char *> start = expectField(key, indent);
    if (failed(start))
      return failure();
    // A value that a direct reader reads whole from the rest of its line
    // has its brackets and quotes balanced there, so it is that whole
    // value: parseFieldText's scan would find the same text.
    StringRef rest(*start, line().full.end() - *start);
    bool restTried = !trimBlanks(rest).empty();
    if (restTried && direct(rest)) {
      advance();
      return success();
    }
    FailureOr<StringRef> text = parseFieldText(*start, indent);
    if (failed(text))
      return failure();
    bool sameText = restTried && text->data() == rest.data() &&
                    text->size() == rest.size();
    if (!sameText && direct(*text))
      return success();
    FailureOr<PyValue *> value = parsePyValue(*text, locator, scratch);
    if (failed(value))
      return failure();
    return generic(*value);
  }

  /// readField for a list that Inductor prints on one line or one element
  /// a line (dependences, users; `out` is what its readers append to):
  /// `across` reads it from the rest of the dump through the newlines in
  /// it and returns its end (readDepListAcrossLines), and skipValueLines
  /// checks the lines it spans as parseFieldText would check them. The
  /// list's text is scanned once, not once for its brackets and quotes and
  /// again for its tokens. Anything else, read or reported, goes through
  /// readField.
  template <typename Vector, typename Across, typename Direct,
            typename Generic>
  LogicalResult readListField(const FieldKey &key, unsigned indent,
                              Vector &out, Across across, Direct direct,
                              Generic generic) {
    if (!atEnd() && line().indent == indent &&
        key.startsField(line().text)) {
      const char *start = line().text.data() + key.size() + 2;
      size_t size = out.size();
      if (const char *valueEnd =
              across(StringRef(start, endOfFile() - start))) {
        if (skipValueLines(start, valueEnd, indent))
          return success();
        out.truncate(size);
      }
    }
    return readField(key, indent, direct, generic);
  }

  /// Moves past the value from `start` (on the current line, a field's at
  /// `indent`) to `valueEnd`, read by a direct reader through newlines, if
  /// its lines are those parseFieldText would take: the value starts on
  /// the field's line, or (that line blank after `=`) at the text of the
  /// next line, indented deeper; every line after its first is indented
  /// and not empty; and it ends on the line where its brackets close,
  /// which a direct reader's value (bracketed, its strings on one line)
  /// does. Otherwise stays on the field's line and returns false.
  bool skipValueLines(const char *start, const char *valueEnd,
                      unsigned indent) {
    Line saved = current;
    const char *savedNext = nextLine;
    unsigned savedNumber = lineNumber;
    bool savedEnded = ended;
    auto restore = [&] {
      current = saved;
      nextLine = savedNext;
      lineNumber = savedNumber;
      ended = savedEnded;
      return false;
    };
    const char *first = skipBlankChars(start, valueEnd);
    if (trimBlanks(StringRef(start, current.full.end() - start)).empty()) {
      advance();
      if (atEnd() || current.indent <= indent || current.text.empty() ||
          first != current.text.data())
        return restore();
    } else if (first >= current.full.end()) {
      return restore();
    }
    while (valueEnd > current.full.end()) {
      advance();
      if (atEnd() || current.indent == 0 || current.text.empty())
        return restore();
    }
    advance();
    return true;
  }

  /// The characters parseFieldText stops at: quotes and brackets.
  static constexpr auto kBracketOrQuote = [] {
    std::array<bool, 256> table{};
    for (char c : {'\'', '"', '(', ')', '[', ']', '{', '}'})
      table[static_cast<unsigned char>(c)] = true;
    return table;
  }();

  LogicalResult parseNode(std::unique_ptr<DumpNode> &out);
  LogicalResult parseOutputs(DumpNode &node);
  LogicalResult parseBuffer(DumpNode &node);
  LogicalResult parseSchedulerExtras(DumpNode &node);
  LogicalResult parseLoopBody(DumpNode &node);
  LogicalResult parseMembers(DumpNode &node);

  const DumpLocator &locator;
  ValueReader reader;
  InductorDump &dump;
  /// The values of the current node's fields, read into the node.
  PyValueArena scratch;
  /// Layouts already read, by their text: nodes repeat the layouts of the
  /// buffers they touch, most of them many times over.
  llvm::StringMap<DumpLayout> layouts;
  StringRef buffer;
  Line current;
  const char *nextLine = nullptr;
  /// The number of the last line read (from 1).
  unsigned lineNumber = 0;
  bool ended = false;
  unsigned containerDepth = 0;
  static constexpr unsigned kMaxContainerDepth = 8;
};
} // namespace

/// A DumpNodeStream's parser.
struct DumpNodeStream::Impl {
  DumpParser parser;
};

static bool isIdentifier(StringRef name) {
  return !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
         llvm::all_of(name, isIdentChar);
}

/// The position of `sep` in `text` when what precedes it is an identifier,
/// or npos: `text.find(sep)` checked with isIdentifier, in one scan of the
/// identifier (`sep` starts with a character no identifier has, or with
/// `suffix` identifier characters that the identifier ends with).
static size_t findAfterIdentifier(StringRef text, StringRef sep,
                                  size_t suffix = 0) {
  size_t n = identLength(text);
  // The first `n` characters continue a name: the part before `sep` is
  // an identifier if it is not empty and does not start with a digit.
  if (n <= suffix || !text.drop_front(n - suffix).starts_with(sep) ||
      llvm::isDigit(text[0]))
    return StringRef::npos;
  return n - suffix;
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
           << quoteSource(header.text);
  if (header.indent != 0)
    return error(header.full.data())
           << "wrong indentation: a scheduler node header starts in column "
              "1, found "
           << header.indent << " spaces";
  auto [name, kindName, inner] = *pieces;
  std::optional<DumpNode::Kind> kind;
  for (const SchedulerNodeKind &entry : getSchedulerNodeKinds())
    if (entry.name == kindName)
      kind = entry.kind;
  if (!kind)
    return error(kindName.data())
           << "unknown scheduler node kind '" << kindName
           << "' (expected SchedulerNode, ExternKernelSchedulerNode, "
              "NopKernelSchedulerNode, FusedSchedulerNode, "
              "FusedMixOrderReductions, ForeachKernelSchedulerNode or "
              "GroupedSchedulerNode)";
  out = std::make_unique<DumpNode>();
  DumpNode &node = *out;
  node.kind = *kind;
  node.name = name;
  node.loc = header.textBegin();
  node.line = header.number;
  node.kindName = kindName;
  node.innerClasses = inner;
  advance();

  for (auto [field, depList] :
       {std::pair<StringRef, DumpDepList *>{"writes", &node.writes},
        {"unmet_dependencies", &node.unmet},
        {"met_dependencies", &node.met}}) {
    // A structured binding is not captured by a lambda before C++20.
    DumpDepList *list = depList;
    list->loc = atEnd() ? endOfFile() : line().textBegin();
    if (failed(readListField(
            FieldKey(name, field), 0, list->deps,
            [&](StringRef text) {
              return readDepListAcrossLines(text, ctx(), *list);
            },
            [&](StringRef text) {
              return readDepListDirect(text, ctx(), *list);
            },
            [&](PyValue *v) { return reader.readDepList(v, *list); })))
      return failure();
  }
  if (failed(parseOutputs(node)))
    return failure();

  switch (node.kind) {
  case DumpNode::Kind::Scheduler:
    return parseSchedulerExtras(node);
  case DumpNode::Kind::Extern: {
    FailureOr<const char *> start = expectField(FieldKey(name, "node.kernel"), 0);
    if (failed(start))
      return failure();
    node.kernelLoc = *start;
    node.kernel = trimBlanks(StringRef(*start, line().full.end() - *start));
    if (node.kernel.empty())
      return error(*start) << "expected the kernel name";
    node.kernelLoc = node.kernel.data();
    advance();
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
  FieldKey key(node.name, "outputs");
  FailureOr<const char *> start = expectField(key, 0);
  if (failed(start))
    return failure();
  if (trimBlanks(StringRef(*start, line().full.end() - *start)) != "[")
    return error(*start) << "expected '[' after '" << key.str() << " ='";
  advance();
  while (true) {
    if (atEnd())
      return truncated("']' closing '" + key.str() + "'");
    const Line &l = line();
    if (l.indent == 0 && l.text == "]") {
      advance();
      return success();
    }
    if (l.indent == 0 || l.text.empty())
      return error(l.full.data())
             << "expected a buffer ('bufN: Class', indented by 4 spaces) or "
                "']' closing '"
             << key.str() << "', found "
             << (l.text.empty() ? std::string("an empty line")
                                : quoteSource(l.text));
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
           << quoteSource(header.text);
  if (header.indent != 4)
    return error(header.full.data())
           << "wrong indentation: expected 4 spaces before buffer '" << name
           << "', found " << header.indent;
  DumpBuffer &buffer = node.outputs.emplace_back();
  buffer.name = name;
  buffer.loc = header.textBegin();
  buffer.className = trimBlanks(header.text.drop_front(colon + 2));
  advance();

  if (failed(parseLayoutField(FieldKey(name, "layout"), 4, buffer.layout)))
    return failure();
  for (auto [field, list] : {std::pair<StringRef, decltype(&buffer.aliases)>{
                                 "aliases", &buffer.aliases},
                             {"mutations", &buffer.mutations}}) {
    FieldKey key(name, field);
    if (atEnd() || !key.startsField(line().text))
      continue;
    FailureOr<PyValue *> value = parseField(key, 4);
    if (failed(value) || failed(reader.readStringList(*value, *list)))
      return failure();
  }
  buffer.usersLoc = atEnd() ? endOfFile() : line().textBegin();
  return readListField(
      FieldKey(name, "users"), 4, buffer.users,
      [&](StringRef text) {
        return readUserListAcrossLines(text, ctx(), buffer.users);
      },
      [&](StringRef text) {
        return readUserListDirect(text, ctx(), buffer.users);
      },
      [&](PyValue *users) -> LogicalResult {
        if (failed(reader.expectKind(users, PyValue::Kind::List,
                                     "a list of NodeUser")))
          return failure();
        for (const PyValue *u : users->elements) {
          FailureOr<DumpUser> user = reader.readUser(u);
          if (failed(user))
            return failure();
          buffer.users.push_back(*user);
        }
        return success();
      });
}

LogicalResult DumpParser::parseSchedulerExtras(DumpNode &node) {
  FailureOr<const char *> device =
      expectField(FieldKey(node.name, "group.device"), 0);
  if (failed(device))
    return failure();
  node.groupDevice =
      trimBlanks(StringRef(*device, line().full.end() - *device));
  node.groupDeviceLoc = node.groupDevice.data();
  advance();

  node.iterationLoc = atEnd() ? endOfFile() : line().textBegin();
  if (failed(readField(
          FieldKey(node.name, "group.iteration"), 0,
          [&](StringRef text) {
            return readSizePairDirect(text, ctx(), node.numel,
                                      node.reductionNumel);
          },
          [&](const PyValue *it) -> LogicalResult {
            if (it->kind != PyValue::Kind::Tuple || it->elements.size() != 2)
              return error(it->loc()) << "expected the iteration as (numel, "
                                         "reduction numel), found "
                                      << quoteSource(it->text);
            FailureOr<AffineExpr> numel =
                reader.readSize(it->elements[0], "the numel");
            if (failed(numel))
              return failure();
            FailureOr<AffineExpr> rnumel =
                reader.readSize(it->elements[1], "the reduction numel");
            if (failed(rnumel))
              return failure();
            node.numel = *numel;
            node.reductionNumel = *rnumel;
            return success();
          })))
    return failure();

  node.sizesLoc = atEnd() ? endOfFile() : line().textBegin();
  if (failed(readField(
          FieldKey(node.name, "sizes"), 0,
          [&](StringRef text) {
            return readSizeListPairDirect(text, ctx(), node.ranges,
                                          node.reductionRanges);
          },
          [&](const PyValue *sz) -> LogicalResult {
            if (sz->kind != PyValue::Kind::Tuple || sz->elements.size() != 2)
              return error(sz->loc())
                     << "expected the sizes as ([pointwise sizes], "
                        "[reduction sizes]), found "
                     << quoteSource(sz->text);
            if (failed(reader.readSizeList(sz->elements[0], node.ranges,
                                           "the pointwise sizes")) ||
                failed(reader.readSizeList(sz->elements[1],
                                           node.reductionRanges,
                                           "the reduction sizes")))
              return failure();
            return success();
          })))
    return failure();

  // `<buffer>_layout = ...` lines.
  while (!atEnd() && line().indent == 0) {
    StringRef text = line().text;
    size_t eq = findAfterIdentifier(text, "_layout = ", strlen("_layout"));
    if (eq == StringRef::npos)
      break;
    auto &[name, layout] = node.layouts.emplace_back();
    name = text.take_front(eq);
    if (failed(parseLayoutField(
            text.take_front(eq + StringRef("_layout").size()), 0, layout)))
      return failure();
  }
  if (!atEnd() && line().indent == 0 && line().text.starts_with("class "))
    return parseLoopBody(node);
  return success();
}

LogicalResult DumpParser::parseLoopBody(DumpNode &node) {
  StringRef header = line().text;
  if (!header.consume_front("class ") || !header.consume_front(node.name) ||
      header != "_loop_body:")
    return error(line().textBegin())
           << "expected 'class " << node.name << "_loop_body:', found "
           << quoteSource(line().text);
  DumpLoopBody &body = node.body.emplace();
  body.loc = line().textBegin();
  advance();

  body.varRangesLoc = atEnd() ? endOfFile() : line().textBegin();
  if (failed(readField(
          FieldKey("var_ranges"), 4,
          [&](StringRef text) {
            return readVarSizesDirect(text, ctx(), body.varRanges);
          },
          [&](const PyValue *ranges) {
            return reader.readVarSizes(ranges, body.varRanges, "var_ranges");
          })))
    return failure();

  // `indexK = <sympy expression>` lines.
  while (!atEnd() && line().indent == 4 && !line().text.starts_with("def ")) {
    StringRef text = line().text;
    size_t eq = findAfterIdentifier(text, " = ");
    if (eq == StringRef::npos)
      return error(line().textBegin())
             << "expected an index ('index0 = ...') or 'def body(self, ops):' "
                "in the loop body of '"
             << node.name << "', found " << quoteSource(text);
    StringRef expr = trimBlanks(text.drop_front(eq + 3));
    if (expr.empty())
      return error(text.data() + eq + 3) << "expected an index expression";
    body.indices.push_back({text.take_front(eq), expr});
    advance();
  }

  while (!atEnd() && !line().text.empty() && line().indent != 0) {
    const Line &def = line();
    if (def.indent != 4 || !def.text.starts_with("def "))
      return error(def.full.data())
             << "wrong indentation in the loop body of '" << node.name
             << "': expected 'def <block>(self, ops):' indented by 4 spaces, "
                "found "
             << quoteSource(def.full);
    // `def <block>(self, ops):`, or with parameters after `ops` (a scan's
    // combine function).
    StringRef signature = def.text.drop_front(4);
    size_t open = signature.find('(');
    StringRef blockName = signature.take_front(open);
    StringRef paramText = open == StringRef::npos
                              ? StringRef()
                              : signature.drop_front(open + 1);
    SmallVector<StringRef, 6> params;
    if (paramText.consume_back("):"))
      paramText.split(params, ", ");
    if (!isIdentifier(blockName) || params.size() < 2 ||
        params[0] != "self" || params[1] != "ops" ||
        !llvm::all_of(params, isIdentifier))
      return error(def.textBegin())
             << "expected 'def <block>(self, ops):', found "
             << quoteSource(def.text);
    DumpBlock &block = body.blocks.emplace_back();
    block.name = blockName;
    block.loc = def.textBegin();
    block.params.append(params.begin() + 2, params.end());
    advance();
    while (!atEnd() && line().indent == 8 && !line().text.empty()) {
      const Line &l = line();
      DumpStmt &stmt = block.stmts.emplace_back();
      stmt.loc = l.textBegin();
      // SourceMgr's line and column: the indentation holds only spaces.
      stmt.line = l.number;
      stmt.column = l.indent + 1;
      StringRef valueText;
      if (l.text == "return" || l.text.starts_with("return ")) {
        valueText = l.text.drop_front(6);
      } else {
        size_t eq = findAfterIdentifier(l.text, " = ");
        if (eq == StringRef::npos)
          return error(l.textBegin())
                 << "expected '<name> = <operation>' or 'return <name>', "
                    "found "
                 << quoteSource(l.text);
        stmt.target = l.text.take_front(eq);
        valueText = l.text.drop_front(eq + 3);
      }
      stmt.valueText = valueText;
      if (auto loaded = getLoadedBuffer(stmt))
        body.loads.push_back(*loaded);
      advance();
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
    advance();
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

std::optional<std::pair<StringRef, const char *>>
mlir::fusion::inductor::getLoadedBuffer(const DumpStmt &stmt) {
  StringRef text = stmt.valueText;
  if (!text.consume_front("ops.load(") && !text.consume_front("ops.load_seed("))
    return std::nullopt;
  text = text.ltrim(' ');
  if (text.empty() || (text.front() != '\'' && text.front() != '"'))
    return std::nullopt;
  const char *quote = text.data();
  size_t end = text.find(text.front(), 1);
  StringRef name = text.slice(1, end);
  if (end == StringRef::npos || name.contains('\\'))
    return std::nullopt;
  return std::make_pair(name, quote);
}

/// Dump parts per thread: a few, so that a thread that finishes first takes
/// another part instead of waiting for the slowest.
static constexpr size_t kPartsPerThread = 4;

/// Parses the dump in parts on the context's threads (this one among
/// them), each part with a parser of its own that reports nothing and
/// touches the context only for the affine constants its thread's
/// getCachedConstantExpr table does not hold (under the context's locks,
/// which are on only meanwhile).
static SmallVector<ParsedSpan, 0> parseAheadOnThreads(unsigned bufferId,
                                                      const DumpLocator &locator,
                                                      StringRef buffer) {
  MLIRContext *ctx = locator.getContext();
  ctx->disableMultithreading(false);
  llvm::ThreadPoolInterface &pool = ctx->getThreadPool();
  size_t threads = pool.getMaxConcurrency();
  size_t parts = threads * kPartsPerThread;
  // The parts start where a node may start, after equal shares of bytes.
  SmallVector<const char *> bounds = {buffer.begin()};
  for (size_t k = 1; k < parts; ++k) {
    const char *share = buffer.begin() + buffer.size() * k / parts;
    if (share <= bounds.back())
      continue;
    if (const char *start = findNodeStart(share, buffer.end()))
      bounds.push_back(start);
  }
  bounds.push_back(buffer.end());
  std::vector<SmallVector<ParsedSpan, 1>> spans(bounds.size() - 1);
  {
    llvm::ThreadPoolTaskGroup group(pool);
    std::atomic<size_t> next(0);
    auto work = [&] {
      DumpLocator quiet = locator.copyForQuietThread();
      InductorDump own;
      DumpParser parser(bufferId, quiet, own, /*numberSymbols=*/false);
      for (size_t i; (i = next++) < spans.size();)
        parser.parseAhead(bounds[i], bounds[i + 1], spans[i]);
    };
    for (size_t t = 1; t < std::min(threads, spans.size()); ++t)
      group.async(work);
    work();
    group.wait();
  }
  ctx->disableMultithreading(true);
  SmallVector<ParsedSpan, 0> all;
  for (auto &part : spans)
    for (ParsedSpan &span : part)
      all.push_back(std::move(span));
  return all;
}

DumpNodeStream::DumpNodeStream(unsigned bufferId, const DumpLocator &locator,
                               InductorDump &dump)
    : impl(new Impl{DumpParser(bufferId, locator, dump)}) {}

DumpNodeStream::~DumpNodeStream() = default;

LogicalResult DumpNodeStream::start() {
  if (failed(impl->parser.checkTabs()))
    return failure();
  return impl->parser.begin();
}

LogicalResult DumpNodeStream::next(std::unique_ptr<DumpNode> &node) {
  node.reset();
  if (impl->parser.atEnd())
    return success();
  return impl->parser.parseNext(node);
}

LogicalResult mlir::fusion::inductor::parseInductorDump(
    unsigned bufferId, const DumpLocator &locator, InductorDump &dump,
    bool threads, size_t parallelMinBytes) {
  DumpParser parser(bufferId, locator, dump);
  if (failed(parser.checkTabs()))
    return failure();
  StringRef buffer =
      locator.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  if (!threads || buffer.size() < parallelMinBytes)
    return parser.parse();
  SmallVector<ParsedSpan, 0> ahead =
      parseAheadOnThreads(bufferId, locator, buffer);
  return parser.parse(ahead);
}
