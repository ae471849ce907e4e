//===- fuzz-lower.cpp - Lowering to loops and to GPU ----------------------===//
//
// Input: one selector byte and MLIR text. Inputs that verify are scheduled
// (options from the selector) and lowered to loops and the LLVM dialect,
// and when the selector's top bit is set, through convert-fusion-to-gpu and
// the NVVM lowering to PTX text (no ptxas, no libdevice).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "FuzzTarget.h"

using namespace mlir;
using namespace mlir::fusion::fuzz;

SCHEDULER_OPT_FUZZ_TARGET(lower, "fuzz-lower") {
  FuzzContext &ctx = FuzzContext::next();
  OwningOpRef<ModuleOp> module = parseAfterSelector(ctx, data, size);
  if (!module)
    return 0;
  OwningOpRef<ModuleOp> scheduled = scheduleChecked(ctx, *module, data[0]);
  if (!scheduled)
    return 0;
  lowerChecked(ctx, *scheduled, /*toLLVM=*/true, /*gpu=*/data[0] & 0x80);
  return 0;
}
