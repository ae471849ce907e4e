//===- NestingDepth.cpp - Bound the bracket nesting of textual input ------===//

#include "scheduler-opt/Support/NestingDepth.h"

using namespace mlir;
using namespace mlir::fusion;

const char *mlir::fusion::findExcessiveNesting(llvm::StringRef text,
                                               unsigned limit) {
  unsigned depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') {
      // A string literal: up to the closing quote, past escapes.
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      while (i < e && text[i] != '\n')
        ++i;
    } else if (c == '(' || c == '[' || c == '{') {
      if (++depth > limit)
        return text.data() + i;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return nullptr;
}
