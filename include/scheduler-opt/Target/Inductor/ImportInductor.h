//===- ImportInductor.h - Import Inductor scheduler dumps -------*- C++ -*-===//
//
// Translates PyTorch Inductor's `ir_pre_fusion.txt` debug dump (the
// scheduler nodes after `compute_dependencies`, before `fuse_nodes`) into a
// `fusion.graph`, and checks the dependence analysis against the
// dependences Inductor recorded in the same dump.
//
// Everything the importer does not understand is reported as an error at
// the file, line and column of the dump; no input makes it crash or hang.
// docs/Importer.md describes the mapping and its decisions.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_TARGET_INDUCTOR_IMPORTINDUCTOR_H
#define SCHEDULER_OPT_TARGET_INDUCTOR_IMPORTINDUCTOR_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace mlir {
class MLIRContext;

namespace fusion {

struct InductorImportOptions {
  /// Symbol name of the imported `fusion.graph`.
  std::string graphName = "graph";
  /// `fx_graph_readable.py` of the same graph: it gives the dtype and shape
  /// of graph inputs for which the dump prints no layout (inputs that only
  /// extern kernels read). Empty: use `fx_graph_readable.py` next to the dump
  /// when there is one.
  std::string fxGraphPath;
  /// Never look for `fx_graph_readable.py` next to the dump.
  bool noFxGraphLookup = false;
  /// `foreach_lists.json` of the same graph (`V.graph.lists`): each list
  /// becomes one `fusion.foreach`, as Inductor's create_foreach_nodes does
  /// after writing the pre-fusion dump. Empty: use `foreach_lists.json` next
  /// to the dump when there is one.
  std::string foreachListsPath;
  /// Create no foreach nodes (the graph exactly as the dump shows it).
  bool noForeachLists = false;
  /// `extern_calls.json` of the same graph: each extern node's call,
  /// attached to its fusion.extern as `fusion.call`. Empty: use
  /// `extern_calls.json` next to the dump when there is one.
  std::string externCallsPath;
  /// `size_hints.json` of a graph compiled with dynamic shapes: the hint of
  /// each size symbol. Empty: use `size_hints.json` next to the dump when
  /// there is one.
  std::string sizeHintsPath;
  /// Never look for `size_hints.json` next to the dump.
  bool noSizeHintsLookup = false;
  /// `buffer_views.json` of the same graph: where each NonOwningLayout
  /// buffer (an input of a concatenation) lies in the storage it views,
  /// which the dump does not print; the lowering of a concatenation needs
  /// it. Empty: use `buffer_views.json` next to the dump when there is one.
  std::string bufferViewsPath;
  /// `signature.json` of the same graph (the torch.compile backend's): the
  /// buffers the graph returns. Inductor gives buffers that alias each
  /// other one list of users, so a dump alone shows a returned view's
  /// source with the `OUTPUT` user of the view; with the signature, such a
  /// buffer is a graph output only when the graph returns it. Empty: use
  /// `signature.json` next to the dump when there is one.
  std::string signaturePath;
  /// Never look for `signature.json` next to the dump.
  bool noSignatureLookup = false;
  /// Build the loop bodies on the context's threads when the dump has at
  /// least this many nodes (and the context has threads); the output is the
  /// same either way. Smaller graphs gain less than the threads cost.
  unsigned parallelMinNodes = kDefaultParallelMinNodes;
  static constexpr unsigned kDefaultParallelMinNodes = 1000;
  /// Parse the dump in parts on the context's threads first when it has at
  /// least this many bytes (and the context has threads); the output and
  /// the diagnostics are the same either way. Smaller dumps gain less than
  /// the threads cost.
  uint64_t parallelParseMinBytes = kDefaultParallelParseMinBytes;
  static constexpr uint64_t kDefaultParallelParseMinBytes = 1 << 20;
  /// Build each node as soon as it is parsed, in one pass over the dump,
  /// when the dump has at least this many bytes and is not parsed on the
  /// context's threads; the output and the diagnostics are the same either
  /// way. A smaller dump's parsed form stays in the caches between the
  /// passes of the other import, which costs fewer instructions.
  uint64_t onePassMinBytes = kDefaultOnePassMinBytes;
  static constexpr uint64_t kDefaultOnePassMinBytes = 1 << 20;
};

/// Imports the Inductor dump held by the main buffer of `sourceMgr` into a
/// module holding one verified `fusion.graph` (the graph and each scheduler
/// node with their verifiers; the loop-body ops, built valid by the
/// importer, are not checked op by op again). Returns null after emitting
/// located diagnostics through the context's diagnostic engine. Needs the
/// fusion, arith and math dialects; loads them into `context`.
OwningOpRef<ModuleOp>
importInductorDump(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                   const InductorImportOptions &options = {});

/// Imports the dump, runs the DependenceGraph analysis on the graph, and
/// compares every node's `.writes`, `.unmet_dependencies`,
/// `.met_dependencies`, buffer `.mutations` and `.users` with the lines of
/// the dump. Index expressions are compared as functions of their variables.
/// Prints a summary and every non-textual match to `os`; reports each
/// disagreement as an error located at the dump line. Fails when the import
/// fails or any disagreement was found.
LogicalResult
compareInductorDependences(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                           llvm::raw_ostream &os,
                           const InductorImportOptions &options = {});

/// Prints what the importer takes, one `<kind> <name>` per line, sorted:
/// every OpsHandler operation (`op`), reduction type (`reduction`), sympy
/// index function (`function`),
/// layout class (`layout`) and scheduler node class (`node`). A test checks
/// it against PyTorch's lists and the table of docs/Importer.md.
void printInductorImportTable(llvm::raw_ostream &os);

/// Registers the `import-inductor` and `compare-inductor-deps` translations
/// with their command-line options (for mlir-translate style tools).
void registerInductorTranslations();

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_TARGET_INDUCTOR_IMPORTINDUCTOR_H
