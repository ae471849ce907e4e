//===- DumpFields.h - The values on a dump's lines --------------*- C++ -*-===//
//
// Internal to SchedulerOptInductorImport: reads dependences, layouts, users
// and sizes out of the Python values the dump prints on its field lines.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_DUMPFIELDS_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_DUMPFIELDS_H

#include "InductorDump.h"

#include <string>

namespace mlir {
namespace fusion {
namespace inductor {

/// Reads the pieces of a dump out of parsed Python values. Every check
/// fails with a located error.
class ValueReader {
public:
  ValueReader(const DumpLocator &locator, SizeSymbols &symbols)
      : locator(locator), symbols(&symbols) {}
  /// A reader that numbers no size symbol (a thread parsing ahead, whose
  /// numbering would not be the dump's order): a size naming one fails.
  explicit ValueReader(const DumpLocator &locator) : locator(locator) {}

  InFlightDiagnostic error(const PyValue *at) {
    return locator.emitError(at->loc());
  }

  LogicalResult expectKind(const PyValue *v, PyValue::Kind kind,
                           StringRef what);
  /// A keyword argument of a call, or null.
  static const PyValue *keyword(const PyValue *call, StringRef key);
  /// Fails on positional arguments beyond `maxPositional` and on keywords
  /// not in `keywords`: nothing the dump says is ignored.
  LogicalResult checkArguments(const PyValue *call, unsigned maxPositional,
                               ArrayRef<StringRef> keywords);
  FailureOr<const PyValue *> requireKeyword(const PyValue *call, StringRef key);
  FailureOr<bool> readBool(const PyValue *v);
  FailureOr<StringRef> readString(const PyValue *v, StringRef what);
  /// A size: an integer or an expression in the size symbols (`s77`,
  /// `s27*s77`, `((s77 + 7)//8)`).
  /// `isStride`: a layout's stride, where `Max(1, e)` is `e`
  /// (parseIndexExpr).
  FailureOr<AffineExpr> readSize(const PyValue *v, StringRef what,
                                 bool isStride = false);
  /// The size expression `text` (in the dump or a file beside it, which
  /// locates its errors), in the size symbols only.
  FailureOr<AffineExpr> readSizeText(StringRef text, bool isStride = false);
  LogicalResult readSizeList(const PyValue *v, SmallVectorImpl<AffineExpr> &out,
                             StringRef what, bool isStride = false);
  /// `{d0: 64, d1: 4096}` or `{p0: s77}`.
  LogicalResult
  readVarSizes(const PyValue *v,
               SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out,
               StringRef what);
  FailureOr<DumpDep> readDep(const PyValue *v);
  LogicalResult readDepList(const PyValue *v, DumpDepList &out);
  /// `device(type='cuda', index=0)` -> "cuda:0".
  FailureOr<std::string> readDevice(const PyValue *v);
  FailureOr<DumpLayout> readLayout(const PyValue *v);
  FailureOr<DumpUser> readUser(const PyValue *v);
  LogicalResult
  readStringList(const PyValue *v,
                 SmallVectorImpl<std::pair<StringRef, const char *>> &out);

private:
  const DumpLocator &locator;
  /// Null for a reader that numbers none.
  SizeSymbols *symbols = nullptr;
};

/// The sizes of a MemoryDep's variables (DumpDep::sizes), read from the
/// dump's text with the size symbols `symbols` numbered when the import
/// read the dependence: the import checks them but does not keep them.
LogicalResult
readDepSizes(const DumpDep &dep, const DumpLocator &locator,
             SizeSymbols &symbols,
             SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out);

/// The most common field shapes read straight from a field's text
/// (DirectFields.cpp): dependence lists, node user lists, `{p0: 64}`,
/// `(numel, reduction numel)`, `([sizes], [reduction sizes])` and layouts
/// with storage, in integers. Each appends to (or sets) its output and
/// returns true only when ValueReader would read the same from the parsed
/// text; otherwise it leaves the output as it was and returns false,
/// without a diagnostic, and the caller parses the text as a Python value.
/// Their integers are getCachedConstantExpr's: a dump repeats a few sizes
/// (a dependence's `{c0: 1024}`, a node's `(numel, rnumel)`) tens of
/// thousands of times, and the table answers them without the uniquer.
bool readDepListDirect(StringRef text, MLIRContext *ctx, DumpDepList &out);
bool readUserListDirect(StringRef text, MLIRContext *ctx,
                        SmallVectorImpl<DumpUser> &out);
bool readVarSizesDirect(StringRef text, MLIRContext *ctx,
                        SmallVectorImpl<std::pair<StringRef, AffineExpr>> &out);
bool readSizePairDirect(StringRef text, MLIRContext *ctx, AffineExpr &first,
                        AffineExpr &second);
bool readSizeListPairDirect(StringRef text, MLIRContext *ctx,
                            SmallVectorImpl<AffineExpr> &first,
                            SmallVectorImpl<AffineExpr> &second);
bool readLayoutDirect(StringRef text, MLIRContext *ctx, DumpLayout &out);
/// readDepListDirect and readUserListDirect for a list that Inductor prints
/// on one line or one element a line: `text` is the rest of the dump from
/// the field's value on, and the list is read from its `[` to its `]`
/// through the newlines between its tokens (blanks to the value parser's
/// lexer). Returns the end of the list if only blanks follow it on its
/// line, else null with the output as it was. The caller checks that the
/// lines the list spans are those parseFieldText would take for the value.
const char *readDepListAcrossLines(StringRef text, MLIRContext *ctx,
                                   DumpDepList &out);
const char *readUserListAcrossLines(StringRef text, MLIRContext *ctx,
                                    SmallVectorImpl<DumpUser> &out);

} // namespace inductor
} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_DUMPFIELDS_H
