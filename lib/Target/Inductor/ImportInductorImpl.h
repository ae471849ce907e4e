//===- ImportInductorImpl.h - Pieces shared by the importer -----*- C++ -*-===//
//
// Internal to MLIRFusionInductorImport: the IR builder entry point on a
// parsed dump (the dependence comparison needs the dump and the graph) and
// small helpers.
//
//===----------------------------------------------------------------------===//

#ifndef FUSION_LIB_TARGET_INDUCTOR_IMPORTINDUCTORIMPL_H
#define FUSION_LIB_TARGET_INDUCTOR_IMPORTINDUCTORIMPL_H

#include "InductorDump.h"

#include "fusion/Target/Inductor/ImportInductor.h"

namespace mlir {
namespace fusion {
namespace inductor {

/// A placeholder of `fx_graph_readable.py`: `primals_1: "f32[4, 128]"`.
struct FxPlaceholder {
  const char *loc;
  StringRef dtypeCode;
  SmallVector<int64_t, 4> sizes, strides;
  bool hasStrides = false;
};

/// Builds and verifies the graph of a parsed dump.
OwningOpRef<ModuleOp> importParsedDump(InductorDump &dump,
                                       llvm::SourceMgr &sourceMgr,
                                       const DumpLocator &locator,
                                       const InductorImportOptions &options);

/// Natural order of names: numbers compare by value (arg2_1 < arg10_1).
bool naturalLess(StringRef a, StringRef b);

/// torch dtype name (`torch.float32`) to element type; a located error for
/// anything else (unsigned dtypes are rejected, see docs/Importer.md).
FailureOr<Type> convertDtype(StringRef dtype, const char *loc,
                             const DumpLocator &locator);

} // namespace inductor
} // namespace fusion
} // namespace mlir

#endif // FUSION_LIB_TARGET_INDUCTOR_IMPORTINDUCTORIMPL_H
