//===-- scheduler-opt-c/Target/Inductor.h - Import Inductor dumps --------*- C -*-===//
//
// Imports PyTorch Inductor's ir_pre_fusion.txt debug dump into a module
// holding one verified fusion.graph (scheduler-opt/Target/Inductor/ImportInductor.h,
// docs/Importer.md). Errors are reported, located in the dump, through the
// context's diagnostic handlers (mlirContextAttachDiagnosticHandler), and
// the returned module is then null (mlirModuleIsNull). The importer loads
// the fusion, arith and math dialects into the context itself.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_C_TARGET_INDUCTOR_H
#define SCHEDULER_OPT_C_TARGET_INDUCTOR_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How to import a dump; get the defaults from
/// mlirFusionInductorImportOptionsGetDefault(). The strings are borrowed
/// for the duration of the call only.
typedef struct MlirFusionInductorImportOptions {
  /// Symbol name of the imported fusion.graph (default "graph").
  MlirStringRef graphName;
  /// fx_graph_readable.py of the same graph, giving the shapes of graph
  /// inputs that the dump prints no layout for. Empty (the default): the
  /// fx_graph_readable.py next to the dump, if any.
  MlirStringRef fxGraphPath;
  /// Never look for fx_graph_readable.py next to the dump.
  bool noFxGraphLookup;
  /// foreach_lists.json of the same graph (V.graph.lists), whose lists
  /// become fusion.foreach nodes. Empty (the default): the
  /// foreach_lists.json next to the dump, if any.
  MlirStringRef foreachListsPath;
  /// Make no fusion.foreach nodes from foreach lists.
  bool noForeachLists;
} MlirFusionInductorImportOptions;

/// Returns the default options.
MLIR_CAPI_EXPORTED MlirFusionInductorImportOptions
mlirFusionInductorImportOptionsGetDefault(void);

/// Imports the dump held in `dump`. `bufferName` names it in diagnostic
/// locations, and its directory is where fx_graph_readable.py is looked
/// for. Returns a null module on failure.
MLIR_CAPI_EXPORTED MlirModule mlirFusionImportInductorDump(
    MlirContext context, MlirStringRef dump, MlirStringRef bufferName,
    MlirFusionInductorImportOptions options);

/// Imports the dump in the file at `path`. Returns a null module on failure,
/// including when the file cannot be read.
MLIR_CAPI_EXPORTED MlirModule
mlirFusionImportInductorDumpFile(MlirContext context, MlirStringRef path,
                                 MlirFusionInductorImportOptions options);

#ifdef __cplusplus
}
#endif

#endif // SCHEDULER_OPT_C_TARGET_INDUCTOR_H
