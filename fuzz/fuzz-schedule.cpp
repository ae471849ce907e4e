//===- fuzz-schedule.cpp - --fusion-schedule on verified graphs -----------===//
//
// Input: one selector byte (the pipeline's options) and MLIR text. Inputs
// that verify go through --fusion-schedule twice: the output must verify
// and be the same both times; a failure must come with an error.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "FuzzTarget.h"

using namespace mlir;
using namespace mlir::fusion::fuzz;

SCHEDULER_OPT_FUZZ_TARGET(schedule, "fuzz-schedule") {
  FuzzContext &ctx = FuzzContext::next();
  OwningOpRef<ModuleOp> module = parseAfterSelector(ctx, data, size);
  if (!module)
    return 0;
  (void)scheduleChecked(ctx, *module, data[0]);
  return 0;
}
