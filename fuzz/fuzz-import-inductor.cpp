//===- fuzz-import-inductor.cpp - The Inductor dump parser and importer ---===//
//
// Input: the text of an ir_pre_fusion.txt dump. The importer either fails
// with an error or returns a module that verifies; one in four imports
// (picked by the input's length) also goes through --fusion-schedule.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "FuzzTarget.h"

#include "scheduler-opt/Target/Inductor/ImportInductor.h"

#include "mlir/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::fuzz;

SCHEDULER_OPT_FUZZ_TARGET(import_inductor, "fuzz-import-inductor") {
  FuzzContext &ctx = FuzzContext::next();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "/nonexistent/fuzz/ir_pre_fusion.txt"),
      llvm::SMLoc());
  InductorImportOptions options;
  options.noFxGraphLookup = true;
  options.noForeachLists = true;
  OwningOpRef<ModuleOp> module =
      importInductorDump(sourceMgr, &ctx.get(), options);
  if (!module) {
    check(ctx.errors() > 0, "import failed without an error");
    return 0;
  }
  check(succeeded(verify(*module)), "an imported module does not verify");
  if (size % 4 == 0)
    (void)scheduleChecked(ctx, *module, static_cast<uint8_t>(size >> 2));
  return 0;
}
