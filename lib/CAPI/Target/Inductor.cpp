//===- Inductor.cpp - C API of the Inductor dump importer -----------------===//

#include "scheduler-opt-c/Target/Inductor.h"

#include "scheduler-opt/Target/Inductor/ImportInductor.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

/// The C++ options for `options`; empty strings keep the C++ defaults.
static fusion::InductorImportOptions
unwrapOptions(const MlirFusionInductorImportOptions &options) {
  fusion::InductorImportOptions result;
  if (options.graphName.length)
    result.graphName = unwrap(options.graphName).str();
  result.fxGraphPath = unwrap(options.fxGraphPath).str();
  result.noFxGraphLookup = options.noFxGraphLookup;
  result.foreachListsPath = unwrap(options.foreachListsPath).str();
  result.noForeachLists = options.noForeachLists;
  return result;
}

/// Imports the dump in `buffer`, reporting through the context's handlers.
static MlirModule importBuffer(MlirContext context,
                               std::unique_ptr<llvm::MemoryBuffer> buffer,
                               const MlirFusionInductorImportOptions &options) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = fusion::importInductorDump(
      sourceMgr, unwrap(context), unwrapOptions(options));
  return MlirModule{module.release().getOperation()};
}

MlirFusionInductorImportOptions mlirFusionInductorImportOptionsGetDefault(void) {
  return MlirFusionInductorImportOptions{mlirStringRefCreate(nullptr, 0),
                                         mlirStringRefCreate(nullptr, 0),
                                         /*noFxGraphLookup=*/false,
                                         mlirStringRefCreate(nullptr, 0),
                                         /*noForeachLists=*/false};
}

MlirModule mlirFusionImportInductorDump(MlirContext context, MlirStringRef dump,
                                        MlirStringRef bufferName,
                                        MlirFusionInductorImportOptions options) {
  return importBuffer(context,
                      llvm::MemoryBuffer::getMemBufferCopy(unwrap(dump),
                                                           unwrap(bufferName)),
                      options);
}

MlirModule
mlirFusionImportInductorDumpFile(MlirContext context, MlirStringRef path,
                                 MlirFusionInductorImportOptions options) {
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      openInputFile(unwrap(path), &errorMessage);
  if (!buffer) {
    MLIRContext *ctx = unwrap(context);
    emitError(FileLineColLoc::get(ctx, unwrap(path), 0, 0)) << errorMessage;
    return MlirModule{nullptr};
  }
  return importBuffer(context, std::move(buffer), options);
}
