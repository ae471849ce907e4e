//===- TranslateRegistration.cpp - Inductor translations ------------------===//

#include "scheduler-opt/Target/Inductor/ImportInductor.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;

void mlir::fusion::registerInductorTranslations() {
  static llvm::cl::OptionCategory category("Inductor import options");
  static llvm::cl::opt<std::string> graphName(
      "inductor-graph-name",
      llvm::cl::desc("Symbol name of the imported fusion.graph"),
      llvm::cl::init("graph"), llvm::cl::cat(category));
  static llvm::cl::opt<std::string> fxGraph(
      "inductor-fx-graph",
      llvm::cl::desc("fx_graph_readable.py giving the shapes of graph inputs "
                     "the dump prints no layout for (default: the one next "
                     "to the dump, if any)"),
      llvm::cl::init(""), llvm::cl::cat(category));
  static llvm::cl::opt<bool> noFxLookup(
      "inductor-no-fx-lookup",
      llvm::cl::desc("Do not look for fx_graph_readable.py next to the dump"),
      llvm::cl::init(false), llvm::cl::cat(category));

  static llvm::cl::opt<std::string> foreachLists(
      "inductor-foreach-lists",
      llvm::cl::desc("foreach_lists.json (V.graph.lists) whose lists become "
                     "fusion.foreach nodes (default: the one next to the "
                     "dump, if any)"),
      llvm::cl::init(""), llvm::cl::cat(category));
  static llvm::cl::opt<bool> noForeachLists(
      "inductor-no-foreach-lists",
      llvm::cl::desc("Create no fusion.foreach nodes from foreach lists"),
      llvm::cl::init(false), llvm::cl::cat(category));
  static llvm::cl::opt<std::string> externCalls(
      "inductor-extern-calls",
      llvm::cl::desc("extern_calls.json giving each extern node's call "
                     "(default: the one next to the dump, if any)"),
      llvm::cl::init(""), llvm::cl::cat(category));
  static llvm::cl::opt<std::string> sizeHints(
      "inductor-size-hints",
      llvm::cl::desc("size_hints.json giving the hint of each size symbol "
                     "(default: the one next to the dump, if any)"),
      llvm::cl::init(""), llvm::cl::cat(category));
  static llvm::cl::opt<bool> noSizeHintsLookup(
      "inductor-no-size-hints-lookup",
      llvm::cl::desc("Do not look for size_hints.json next to the dump"),
      llvm::cl::init(false), llvm::cl::cat(category));

  static llvm::cl::opt<std::string> bufferViews(
      "inductor-buffer-views",
      llvm::cl::desc("buffer_views.json giving where each NonOwningLayout "
                     "buffer lies in the storage it views (default: the one "
                     "next to the dump, if any)"),
      llvm::cl::init(""), llvm::cl::cat(category));

  static llvm::cl::opt<std::string> signature(
      "inductor-signature",
      llvm::cl::desc("signature.json naming the buffers the graph returns "
                     "(default: the one next to the dump, if any)"),
      llvm::cl::init(""), llvm::cl::cat(category));
  static llvm::cl::opt<bool> noSignatureLookup(
      "inductor-no-signature-lookup",
      llvm::cl::desc("Do not look for signature.json next to the dump"),
      llvm::cl::init(false), llvm::cl::cat(category));
  static llvm::cl::opt<unsigned> parallelMinNodes(
      "inductor-parallel-min-nodes",
      llvm::cl::desc("Build the loop bodies on the context's threads (none "
                     "with --mlir-disable-threading) when the dump has at "
                     "least this many nodes; the output is the same either "
                     "way"),
      llvm::cl::init(InductorImportOptions::kDefaultParallelMinNodes),
      llvm::cl::cat(category));
  static llvm::cl::opt<uint64_t> parallelParseMinBytes(
      "inductor-parallel-parse-min-bytes",
      llvm::cl::desc("Parse the dump in parts on the context's threads (none "
                     "with --mlir-disable-threading) first when it has at "
                     "least this many bytes; the output is the same either "
                     "way"),
      llvm::cl::init(InductorImportOptions::kDefaultParallelParseMinBytes),
      llvm::cl::cat(category));
  static llvm::cl::opt<uint64_t> onePassMinBytes(
      "inductor-one-pass-min-bytes",
      llvm::cl::desc("Build each node as soon as it is parsed, in one pass "
                     "over the dump, when the dump has at least this many "
                     "bytes and is not parsed on the context's threads; the "
                     "output is the same either way"),
      llvm::cl::init(InductorImportOptions::kDefaultOnePassMinBytes),
      llvm::cl::cat(category));

  static llvm::cl::opt<bool> emitBytecode(
      "emit-bytecode",
      llvm::cl::desc("Write the imported graph as MLIR bytecode (as "
                     "mlir-opt's --emit-bytecode does) instead of text"),
      llvm::cl::init(false), llvm::cl::cat(category));

  auto options = [] {
    InductorImportOptions opts;
    opts.externCallsPath = externCalls;
    opts.graphName = graphName;
    opts.fxGraphPath = fxGraph;
    opts.noFxGraphLookup = noFxLookup;
    opts.foreachListsPath = foreachLists;
    opts.noForeachLists = noForeachLists;
    opts.sizeHintsPath = sizeHints;
    opts.noSizeHintsLookup = noSizeHintsLookup;
    opts.bufferViewsPath = bufferViews;
    opts.signaturePath = signature;
    opts.noSignatureLookup = noSignatureLookup;
    opts.parallelMinNodes = parallelMinNodes;
    opts.parallelParseMinBytes = parallelParseMinBytes;
    opts.onePassMinBytes = onePassMinBytes;
    return opts;
  };
  auto registerDialects = [](DialectRegistry &registry) {
    registry.insert<FusionDialect, arith::ArithDialect, math::MathDialect>();
  };

  // What TranslateToMLIRRegistration does (load the dialects, import,
  // print), with bytecode on request; importInductorDump verifies what it
  // returns.
  static TranslateRegistration importRegistration(
      "import-inductor",
      "Import an Inductor ir_pre_fusion.txt dump as a fusion.graph",
      [options, registerDialects](
          const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
          llvm::raw_ostream &os, MLIRContext *context) -> LogicalResult {
        DialectRegistry registry;
        registerDialects(registry);
        context->appendDialectRegistry(registry);
        // The import uses the context's threads for the loop bodies of a
        // large graph, and only then; the printing runs on this thread
        // alone: without this the context's uniquers would take a lock and
        // look in a thread-local cache for every attribute, type and
        // location.
        OwningOpRef<ModuleOp> module =
            importInductorDump(*sourceMgr, context, options());
        context->disableMultithreading();
        if (!module)
          return failure();
        if (emitBytecode)
          return writeBytecodeToFile(*module, os);
        // The printer would verify the whole module again, every loop-body
        // op included (a tenth of this tool's time): importInductorDump has
        // verified the graph and its nodes, and builds the body ops valid
        // (ImportInductor.cpp, verifyImported).
        module->print(os, OpPrintingFlags().assumeVerified());
        return success();
      });

  static TranslateRegistration compareRegistration(
      "compare-inductor-deps",
      "Import an Inductor dump and compare the dependence analysis with the "
      "dependences the dump records",
      [options](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                llvm::raw_ostream &os, MLIRContext *context) {
        return compareInductorDependences(*sourceMgr, context, os, options());
      });

  static TranslateRegistration tableRegistration(
      "print-inductor-import-table",
      "Print every operation, index function, layout and node class the "
      "Inductor importer takes (the input is ignored)",
      [](const std::shared_ptr<llvm::SourceMgr> &, llvm::raw_ostream &os,
         MLIRContext *) {
        printInductorImportTable(os);
        return success();
      });
}
