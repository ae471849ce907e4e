//===- InductorDump.h - Inductor's scheduler dump, parsed -------*- C++ -*-===//
//
// The content of an `ir_pre_fusion.txt` / `ir_post_fusion.txt` dump
// (`BaseSchedulerNode.debug_str` of every node) as plain data, and the
// parser that reads it. Strings point into the source buffer, so every
// piece keeps its location. The parser checks the layout of the dump
// (fields, indentation, brackets); the meaning of the pieces (types, ops,
// buffers) is checked by the IR builder.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_INDUCTORDUMP_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_INDUCTORDUMP_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
namespace fusion {
namespace inductor {

/// Whether `c` continues a Python name as the value parser's lexer reads
/// one (an ASCII letter, digit or `_`): a table, since the dump's readers
/// test every character of every name with it.
inline bool isIdentChar(char c) {
  static constexpr auto table = [] {
    std::array<bool, 256> t{};
    for (int i = 0; i < 256; ++i)
      t[i] = (i >= 'a' && i <= 'z') || (i >= 'A' && i <= 'Z') ||
             (i >= '0' && i <= '9') || i == '_';
    return t;
  }();
  return table[static_cast<unsigned char>(c)];
}

/// The end of the identifier characters (isIdentChar) from `p` on.
inline const char *skipIdentChars(const char *p, const char *end) {
  while (p != end && isIdentChar(*p))
    ++p;
  return p;
}

/// The number of identifier characters (isIdentChar) at the front of
/// `text`.
inline size_t identLength(StringRef text) {
  return skipIdentChars(text.begin(), text.end()) - text.begin();
}

/// The end of the blanks (spaces, tabs, newlines) from `p` on, for the
/// value parser's lexer and the direct readers of fields and statements.
/// Nearly every call stops at once, on a character above the blanks,
/// after one compare.
inline const char *skipBlankChars(const char *p, const char *end) {
  while (p != end && static_cast<unsigned char>(*p) <= ' ' &&
         (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    ++p;
  return p;
}

//===----------------------------------------------------------------------===//
// Python values
//===----------------------------------------------------------------------===//

/// A Python literal or call as the dump prints it. `text` is the source
/// range of the whole value; compound arithmetic (a sympy index inside a
/// MemoryDep) is kept as text only.
struct PyValue {
  enum class Kind {
    Int,       // 64, -1
    Float,     // 0.5, 1e-05, -inf, nan
    String,    // 'buf0' (str holds the unquoted text)
    Name,      // p0, None, True, torch.float32 (dotted)
    Call,      // callee(args, key = value)
    List,      // [a, b]
    Tuple,     // (a, b), (a,)
    Dict,      // {k: v}
    Subscript, // reduction[0]: elements = {base, index}
    Expr,      // 4096*d0 + d1
  };
  Kind kind;
  StringRef text;
  int64_t intValue = 0;
  double floatValue = 0;
  /// Unquoted string, identifier, or callee name.
  StringRef str;
  /// Call arguments, list/tuple elements, or dict keys and values
  /// interleaved (k0, v0, k1, v1, ...).
  SmallVector<PyValue *, 4> elements;
  /// Keyword arguments of a call.
  SmallVector<std::pair<StringRef, PyValue *>, 1> keywords;

  const char *loc() const { return text.data(); }
  bool isName(StringRef name) const {
    return kind == Kind::Name && str == name;
  }
  bool isNone() const { return isName("None"); }
};

//===----------------------------------------------------------------------===//
// Dump pieces
//===----------------------------------------------------------------------===//

/// One dependence: `MemoryDep('buf0', d0, {d0: 64})`,
/// `StarDep(name='buf7', mode=None)`,
/// `WeakDep(name='buf65', mutating_buf='buf97', is_fake=True)`.
struct DumpDep {
  enum class Kind { Memory, Star, Weak };
  Kind kind;
  StringRef text;
  StringRef name;
  /// MemoryDep: the index (sympy text) and the text of its variables'
  /// sizes, `{d0: 64}`. The import validates the sizes (and numbers the
  /// size symbols they name) but keeps only their text: only
  /// compare-inductor-deps reads them, with readDepSizes (DumpFields.h).
  StringRef index;
  StringRef sizes;
  /// MemoryDep / StarDep store mode (`atomic_add`); empty for None.
  StringRef mode;
  /// WeakDep.
  StringRef mutatingBuf;
  bool isFake = false;

  const char *loc() const { return text.data(); }
};

/// A field holding dependences, with the location of its line. A node
/// writes one buffer and most read one they wait for: one dependence is
/// kept in place, where the heap's first allocation of each list cost
/// more than the reading of it.
struct DumpDepList {
  const char *loc = nullptr;
  SmallVector<DumpDep, 1> deps;
};

/// `FixedLayout('cuda:0', torch.float32, size=[64], stride=[1])` and the
/// other layouts Inductor prints.
struct DumpLayout {
  enum class Kind { Fixed, MultiOutput, None };
  Kind kind = Kind::Fixed;
  /// FixedLayout, FlexibleLayout, MutationLayoutSHOULDREMOVE, ...
  StringRef className;
  const char *loc = nullptr;
  /// "cuda:0"
  std::string device;
  /// "torch.float32"; empty for MultiOutputLayout and NoneLayout.
  StringRef dtype;
  const char *dtypeLoc = nullptr;
  /// Sizes, strides and offset: integers, or expressions in the size
  /// symbols (SizeSymbols) for graphs compiled with dynamic shapes.
  SmallVector<AffineExpr, 4> size, stride;
  AffineExpr offset;
  /// Where the parser that read this layout first read its text, when it
  /// kept it to reuse for the same text (null otherwise): two layouts with
  /// the same one are the same layout, which the importer's check of the
  /// `<name>_layout` lines then need not compare field by field.
  const char *firstText = nullptr;
};

/// `NodeUser(node=SchedulerNode(name='op4'), can_inplace=False, is_weak=False)`
/// or `NodeUser(node=OUTPUT, ...)`.
struct DumpUser {
  const char *loc;
  /// Empty for OUTPUT.
  StringRef nodeClass;
  StringRef nodeName;
  bool canInplace = false;
  bool isWeak = false;
  bool isOutput() const { return nodeName.empty(); }
};

/// One entry of `opN.outputs`.
struct DumpBuffer {
  StringRef name;
  const char *loc;
  /// ComputedBuffer, ExternKernelOut, MultiOutput, ...
  StringRef className;
  DumpLayout layout;
  SmallVector<std::pair<StringRef, const char *>, 1> aliases;
  SmallVector<std::pair<StringRef, const char *>, 1> mutations;
  SmallVector<DumpUser, 2> users;
  const char *usersLoc = nullptr;
};

/// One line of a loop body block: `target = value` or `return value`.
/// The parser checks the line's shape; the value is parsed when the
/// importer translates the statement (parsePyValue), into an arena it
/// frees node by node, so that the values of a large dump never all live
/// at once.
struct DumpStmt {
  const char *loc;
  /// Where `loc` is, as the location the statement's ops carry: the parser
  /// counts the lines it reads, so the importer need not count them again.
  unsigned line = 0, column = 0;
  /// Empty for `return`.
  StringRef target;
  /// The value's text (`ops.load('buf0', get_index)`, `None`, ...).
  StringRef valueText;
};

/// `def body(self, ops):` or `def masked_subblock1(self, ops):`, or the
/// combine function of a scan that the torch.compile backend adds (Inductor
/// does not print it): `def scan1_combine_fn(self, ops, arg0_0, arg1_0):`,
/// whose parameters follow `self, ops`.
struct DumpBlock {
  StringRef name;
  const char *loc;
  SmallVector<StringRef, 4> params;
  SmallVector<DumpStmt, 8> stmts;
};

/// `class op0_loop_body:` (Inductor's LoopBody.debug_str).
struct DumpLoopBody {
  const char *loc;
  /// `var_ranges = {p0: 64, p1: 4096}`.
  SmallVector<std::pair<StringRef, AffineExpr>, 4> varRanges;
  const char *varRangesLoc;
  /// `index0 = 4096*p0 + p1`: name and expression text.
  SmallVector<std::pair<StringRef, StringRef>, 4> indices;
  SmallVector<DumpBlock, 1> blocks;
  /// What getLoadedBuffer gives for each statement that loads, in block
  /// and statement order: noted by the parser, which reads the statement
  /// anyway, so that the importer's search for graph inputs does not read
  /// the text of every statement a second time (a cache miss a line on a
  /// large dump, whose text is long gone from the caches by then).
  SmallVector<std::pair<StringRef, const char *>, 4> loads;
};

/// One scheduler node.
struct DumpNode {
  enum class Kind { Scheduler, Extern, Nop, Fused, Foreach, Grouped };
  Kind kind;
  StringRef name;
  const char *loc;
  /// The line of `loc` (its column is 1), counted by the parser as a
  /// statement's is; 0 for a node the importer makes (a foreach kernel).
  unsigned line = 0;
  /// SchedulerNode, ExternKernelSchedulerNode, ...
  StringRef kindName;
  /// The classes in parentheses: ComputedBuffer; SchedulerNode,SchedulerNode.
  StringRef innerClasses;
  DumpDepList writes, unmet, met;
  SmallVector<DumpBuffer, 1> outputs;

  // SchedulerNode.
  StringRef groupDevice;
  const char *groupDeviceLoc = nullptr;
  AffineExpr numel, reductionNumel;
  const char *iterationLoc = nullptr;
  SmallVector<AffineExpr, 4> ranges, reductionRanges;
  const char *sizesLoc = nullptr;
  /// `primals_3_layout = FixedLayout(...)` lines, in order.
  SmallVector<std::pair<StringRef, DumpLayout>, 0> layouts;
  std::optional<DumpLoopBody> body;

  // ExternKernelSchedulerNode: `opN.node.kernel = extern_kernels.mm`.
  StringRef kernel;
  const char *kernelLoc = nullptr;

  // Fused, Foreach and Grouped nodes: the members (`.snodes[i]`).
  std::vector<std::unique_ptr<DumpNode>> members;
};

/// Owns parsed Python values: a dump holds tens of thousands, allocated
/// together and freed together.
using PyValueArena = llvm::SpecificBumpPtrAllocator<PyValue>;

/// The size symbols of a dump compiled with dynamic shapes (Inductor's
/// `s27`, unbacked `u0`, precomputed `ps0`), numbered in order of first
/// appearance: symbol `i` of the imported graph is `names[i]`.
class SizeSymbols {
public:
  /// True for the names Inductor gives size symbols.
  static bool isSizeSymbolName(StringRef name);
  /// The symbol expression of `name` (numbered on first use), at position
  /// `base + number`.
  AffineExpr get(StringRef name, MLIRContext *context, unsigned base = 0);
  ArrayRef<std::string> getNames() const { return names; }
  /// The number of `name`, if it has one.
  std::optional<unsigned> lookup(StringRef name) const;

private:
  SmallVector<std::string> names;
  llvm::StringMap<unsigned> positions;
};

/// A parsed dump: its nodes in dump order.
struct InductorDump {
  std::vector<std::unique_ptr<DumpNode>> nodes;
  SizeSymbols symbols;
};

/// The buffer a loop body statement loads from, if its value is
/// `ops.load('<name>', ...)` or `ops.load_seed('<name>', ...)`: the name
/// and the location of its opening quote. Reads only the text.
std::optional<std::pair<StringRef, const char *>>
getLoadedBuffer(const DumpStmt &stmt);

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

/// The newlines in `[from, to)`.
unsigned countNewlines(const char *from, const char *to);

/// Turns pointers into the buffers of a SourceMgr into FileLineColLocs,
/// counting lines from its last place or from a checkpoint it left (never
/// through the SourceMgr's table of line offsets). Every op the importer
/// builds gets one, so each buffer's file name attribute is made once, on
/// first use.
class DumpLocator {
public:
  DumpLocator(llvm::SourceMgr &sourceMgr, MLIRContext *context)
      : sourceMgr(sourceMgr), context(context) {}
  Location get(const char *ptr) const;
  InFlightDiagnostic emitError(const char *ptr) const {
    if (quiet)
      return quietError();
    return mlir::emitError(get(ptr));
  }
  MLIRContext *getContext() const { return context; }
  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }
  /// A copy for another thread, placed where this one is (a locator never
  /// asks the SourceMgr for a line, whose table of line offsets two threads
  /// must not build).
  DumpLocator copyForThread() const { return *this; }
  /// A copy for a thread that parses part of the dump ahead of the
  /// sequential parse (parseInductorDump's threads): it locates nothing
  /// (every location is unknown) and the errors made through it are never
  /// reported; the sequential parse meets them again, in order, and
  /// reports them.
  DumpLocator copyForQuietThread() const {
    DumpLocator copy = copyForThread();
    copy.quiet = true;
    return copy;
  }

  /// The line of the last pointer located: its buffer, start and number.
  struct Mark {
    unsigned id = 0;
    const char *lineStart = nullptr;
    unsigned line = 1;
  };
  Mark mark() const;
  /// Places the cursor of the buffer of `mark` at its line, so that this
  /// locator counts lines from there (a thread's copy, sent to the node
  /// it builds a body of, counts the lines of that node only).
  void seek(const Mark &mark) const;

private:
  /// What the locator keeps of each buffer it has located a pointer in:
  /// its extent, id and file name, and a line start with its line number,
  /// moved to each located pointer. The importer asks for locations mostly
  /// in dump order, so counting the newlines from the previous one is
  /// cheaper than SourceMgr's search of all line offsets (which it would
  /// first build); each buffer keeps its own place, so that going to
  /// another file and back does not count from the start again, and the
  /// places it has passed, for pointers far behind (lineAndColumn).
  struct BufferCursor {
    const char *start = nullptr, *end = nullptr;
    unsigned id = 0;
    StringAttr file;
    const char *lineStart = nullptr;
    unsigned line = 1;
    /// A place every 64 KB up to the furthest one located, and its line.
    SmallVector<std::pair<const char *, unsigned>, 0> checkpoints;
  };

  /// Line and column of `ptr` in the buffer of `cursor`, as
  /// SourceMgr::getLineAndColumn gives them.
  std::pair<unsigned, unsigned> lineAndColumn(BufferCursor &cursor,
                                              const char *ptr) const;

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  /// Every buffer located in, by SourceMgr buffer id, and the last one.
  mutable llvm::DenseMap<unsigned, BufferCursor> buffers;
  mutable unsigned lastId = 0;
  /// The last location made, for repeated requests at the same pointer.
  mutable const char *lastPtr = nullptr;
  mutable LocationAttr lastLoc;
  /// Locates nothing and reports no error (copyForQuietThread).
  bool quiet = false;
  /// An error that is never reported.
  InFlightDiagnostic quietError() const;
};

/// Parses the dump in buffer `bufferId` of the locator's SourceMgr. Emits
/// a located error and fails on anything that is not a well-formed dump.
/// With `threads` (the context has a thread pool of more than one thread;
/// its threading is off while this runs) and a dump of at least
/// `parallelMinBytes` bytes, parts of the dump are first parsed on the
/// context's threads; the result, and the first error reported, are the
/// same either way.
LogicalResult parseInductorDump(unsigned bufferId, const DumpLocator &locator,
                                InductorDump &dump, bool threads = false,
                                size_t parallelMinBytes = 0);

/// Reads the dump in buffer `bufferId` one node at a time, as
/// parseInductorDump does without threads, numbering the size symbols in
/// `dump`: the one-pass import (importInductorDump) builds each node while
/// its parsed form is still in the caches, then frees it.
class DumpNodeStream {
public:
  DumpNodeStream(unsigned bufferId, const DumpLocator &locator,
                 InductorDump &dump);
  ~DumpNodeStream();
  /// The checks of the whole file, then the first node's place: fails as
  /// parseInductorDump does before it reads a node.
  LogicalResult start();
  /// The next node, null after the last one; fails on a malformed node as
  /// parseInductorDump does there.
  LogicalResult next(std::unique_ptr<DumpNode> &node);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// A scheduler node class the dump prints (`op0: SchedulerNode(...)`).
struct SchedulerNodeKind {
  StringRef name;
  DumpNode::Kind kind;
};
ArrayRef<SchedulerNodeKind> getSchedulerNodeKinds();

/// The layout classes the dump prints: those with storage, then
/// MultiOutputLayout and NoneLayout.
ArrayRef<StringRef> getLayoutClasses();
/// True for the layout classes with storage (all but MultiOutputLayout and
/// NoneLayout), which print a device, a dtype, sizes and strides.
bool isStorageLayoutClass(StringRef className);

/// Shows a piece of source text in a message: at most `limit` characters of
/// its first line, in quotes, non-printable bytes escaped.
std::string quoteSource(StringRef text, size_t limit = 60);

/// Parses a Python value (as printed in the dump) in `text`; used for the
/// annotations of `fx_graph_readable.py` too.
FailureOr<PyValue *> parsePyValue(StringRef text, const DumpLocator &locator,
                                  PyValueArena &arena);

/// The end of the number token starting at the digit `p`, as the value
/// parser's lexer reads it: digits, an optional fraction, an optional
/// exponent with at least one digit; `isFloat` when it has either.
const char *scanNumberToken(const char *p, const char *end, bool &isFloat);

/// The value of a loop-body statement in the common shapes (`None`, a
/// name, `name[k]`, a call whose arguments are strings, numbers and
/// names) read
/// straight from its text (DirectStatements.cpp): the value parsePyValue
/// would build from `text`, or null, without a diagnostic, for any other
/// text, which the caller then gives to parsePyValue.
PyValue *parseStatementValueDirect(StringRef text, PyValueArena &arena);

/// One argument of such a call (a string, number or name) that is all of
/// `text`, as parseStatementValueDirect builds it, or null.
PyValue *parseArgumentDirect(StringRef text, PyValueArena &arena);

} // namespace inductor
} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_INDUCTORDUMP_H
