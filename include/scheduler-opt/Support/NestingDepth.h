//===- NestingDepth.h - Bound the bracket nesting of textual input -*- C++ -*-===//
//
// MLIR's parser is recursive descent with no bound on nesting: input that
// opens a few thousand brackets ([[[[..., ((((...) exhausts the stack
// (SIGSEGV in mlir::detail::Parser::parseAttribute, found by fuzzing). The
// tools check their input against a bound first and reject deeper input
// with a located error.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_SUPPORT_NESTINGDEPTH_H
#define SCHEDULER_OPT_SUPPORT_NESTINGDEPTH_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace fusion {

/// The deepest bracket nesting the tools accept: far beyond what any graph
/// needs, far below what exhausts the parser's stack.
constexpr unsigned kMaxInputNesting = 256;

/// The bracket of `text` ('(', '[' or '{') that opens nesting level
/// `limit` + 1, skipping string literals and `//` comments; nullptr when
/// the nesting stays within `limit`.
const char *findExcessiveNesting(llvm::StringRef text,
                                 unsigned limit = kMaxInputNesting);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_SUPPORT_NESTINGDEPTH_H
