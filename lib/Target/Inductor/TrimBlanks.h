//===- TrimBlanks.h - StringRef::trim without a table -----------*- C++ -*-===//
//
// Internal to SchedulerOptInductorImport: the dump parser trims every
// field's value and the FX graph reader every size, where StringRef::trim
// builds a table of the characters to drop on each call.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_TRIMBLANKS_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_TRIMBLANKS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::fusion::inductor {

/// `text.trim()`: without the blanks StringRef takes (space, \t, \n, \v,
/// \f, \r) at either end.
inline llvm::StringRef trimBlanks(llvm::StringRef text) {
  auto isBlank = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
           c == '\r';
  };
  size_t begin = 0, end = text.size();
  while (begin < end && isBlank(text[begin]))
    ++begin;
  while (end > begin && isBlank(text[end - 1]))
    --end;
  return text.slice(begin, end);
}

} // namespace mlir::fusion::inductor

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_TRIMBLANKS_H
