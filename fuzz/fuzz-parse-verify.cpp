//===- fuzz-parse-verify.cpp - The fusion dialect's parser and verifier ---===//
//
// Input: MLIR text. Parses and verifies it; a module that verifies must
// print and parse back to the same module.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "FuzzTarget.h"

using namespace mlir;
using namespace mlir::fusion::fuzz;

SCHEDULER_OPT_FUZZ_TARGET(parse_verify, "fuzz-parse-verify") {
  FuzzContext &ctx = FuzzContext::next();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseAndVerify(ctx, text);
  if (!module)
    return 0;
  std::string printed = print(*module);
  OwningOpRef<ModuleOp> again = parseAndVerify(ctx, printed);
  check(bool(again), "a verified module does not parse back");
  check(print(*again) == printed, "a verified module prints differently");
  return 0;
}
