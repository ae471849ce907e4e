//===- ImportInductor.cpp - Import an Inductor dump -----------------------===//
//
// The entry points: parse the dump, read the FX graph next to it, build and
// verify the fusion.graph. ImportInductorImpl.h lists the files that do each
// part.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Target/Inductor/ImportInductor.h"

#include "ImportInductorImpl.h"
#include "ReductionTypes.h"
#include "InductorDump.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

FailureOr<std::optional<unsigned>> mlir::fusion::inductor::addCompanionFile(
    llvm::SourceMgr &sourceMgr, MLIRContext *context, StringRef path,
    StringRef siblingName, bool lookup, StringRef what) {
  std::string found = path.str();
  if (found.empty()) {
    if (!lookup)
      return std::optional<unsigned>();
    StringRef dumpPath = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                             ->getBufferIdentifier();
    if (dumpPath.empty() || dumpPath == "<stdin>")
      return std::optional<unsigned>();
    SmallString<256> candidate(llvm::sys::path::parent_path(dumpPath));
    llvm::sys::path::append(candidate, siblingName);
    auto file = llvm::MemoryBuffer::getFile(candidate, /*IsText=*/true);
    if (!file)
      return std::optional<unsigned>(); // Optional next to the dump.
    return std::optional<unsigned>(
        sourceMgr.AddNewSourceBuffer(std::move(*file), SMLoc()));
  }
  auto file = llvm::MemoryBuffer::getFile(found, /*IsText=*/true);
  if (!file)
    return emitError(UnknownLoc::get(context))
           << "cannot open the " << what << " '" << found
           << "': " << file.getError().message();
  return std::optional<unsigned>(
      sourceMgr.AddNewSourceBuffer(std::move(*file), SMLoc()));
}

/// Loads the FX graph given in the options, or the one next to the dump.
static LogicalResult loadFxGraph(llvm::SourceMgr &sourceMgr,
                                 const DumpLocator &locator,
                                 const InductorImportOptions &options,
                                 SizeSymbols &symbols,
                                 llvm::StringMap<FxPlaceholder> &fx) {
  FailureOr<std::optional<unsigned>> id = addCompanionFile(
      sourceMgr, locator.getContext(), options.fxGraphPath,
      "fx_graph_readable.py", !options.noFxGraphLookup, "FX graph");
  if (failed(id))
    return failure();
  if (!*id)
    return success(); // Optional: only needed for some inputs.
  return readFxPlaceholders(**id, locator, symbols, fx);
}

/// Loads the size hints given in the options, or `size_hints.json` next to
/// the dump (only graphs compiled with dynamic shapes have one).
static LogicalResult loadSizeHints(llvm::SourceMgr &sourceMgr,
                                   const DumpLocator &locator,
                                   const InductorImportOptions &options,
                                   llvm::StringMap<int64_t> &hints) {
  FailureOr<std::optional<unsigned>> id = addCompanionFile(
      sourceMgr, locator.getContext(), options.sizeHintsPath,
      "size_hints.json", !options.noSizeHintsLookup, "size hints");
  if (failed(id))
    return failure();
  if (!*id)
    return success();
  return readSizeHints(**id, locator, hints);
}

/// Loads the buffer views given in the options, or `buffer_views.json` next
/// to the dump (the torch.compile backend writes one for graphs with
/// NonOwningLayout buffers).
static LogicalResult loadBufferViews(llvm::SourceMgr &sourceMgr,
                                     const DumpLocator &locator,
                                     const InductorImportOptions &options,
                                     SizeSymbols &symbols, PyValueArena &arena,
                                     llvm::StringMap<BufferView> &views) {
  FailureOr<std::optional<unsigned>> id = addCompanionFile(
      sourceMgr, locator.getContext(), options.bufferViewsPath,
      "buffer_views.json", /*lookup=*/true, "buffer views");
  if (failed(id))
    return failure();
  if (!*id)
    return success();
  return readBufferViews(**id, locator, symbols, arena, views);
}

/// Loads the graph outputs of the signature given in the options, or of
/// `signature.json` next to the dump (the torch.compile backend writes
/// one); `found` says whether there was one.
static LogicalResult loadSignatureOutputs(llvm::SourceMgr &sourceMgr,
                                          const DumpLocator &locator,
                                          const InductorImportOptions &options,
                                          llvm::StringSet<> &outputs,
                                          bool &found) {
  FailureOr<std::optional<unsigned>> id = addCompanionFile(
      sourceMgr, locator.getContext(), options.signaturePath, "signature.json",
      !options.noSignatureLookup, "graph signature");
  if (failed(id))
    return failure();
  found = id->has_value();
  if (!found)
    return success();
  return readSignatureOutputs(**id, locator, outputs);
}

/// Attaches the extern calls given in the options, or those next to the
/// dump.
static LogicalResult loadExternCalls(llvm::SourceMgr &sourceMgr,
                                     ModuleOp module,
                                     const InductorImportOptions &options) {
  std::string path = options.externCallsPath;
  bool required = !path.empty();
  if (!required) {
    StringRef dumpPath = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                             ->getBufferIdentifier();
    if (dumpPath.empty() || dumpPath == "<stdin>")
      return success();
    SmallString<256> candidate(llvm::sys::path::parent_path(dumpPath));
    llvm::sys::path::append(candidate, "extern_calls.json");
    path = std::string(candidate);
  }
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file) {
    if (!required)
      return success(); // Optional: graphs dumped by Inductor have none.
    return emitError(module.getLoc())
           << "cannot open the extern calls '" << path
           << "': " << file.getError().message();
  }
  return attachExternCalls(module, (*file)->getMemBufferRef());
}

/// Verifies the ops of `block` (a graph's body or a container's) as MLIR's
/// verifier does, with their region verifiers, entering containers but not
/// the loop bodies of the nodes (verifyImportedOp). Without `nodes`, skips
/// the fusion.node ops of `block` (verified as they were built).
static LogicalResult verifyNodes(Block &block, bool nodes = true) {
  for (Operation &op : block) {
    if (!nodes && isa<NodeOp>(op))
      continue;
    if (failed(verifyImportedOp(op)))
      return failure();
    if (isContainerNode(op))
      for (Region &region : op.getRegions())
        for (Block &members : region)
          if (failed(verifyNodes(members)))
            return failure();
  }
  return success();
}

/// The imported module's verification: the graph and every scheduler node,
/// with the graph's own checks (names, sizes, size symbols of every op,
/// acyclicity) and each node's (reduction phases, loop sizes), but not MLIR's
/// per-op checks of every loop-body op, most of the ops of a graph (about
/// 8 a node) and a quarter of the import's time at 100k nodes: the importer
/// builds them with their ODS builders from types it has checked. The module
/// (one graph, no symbol uses) is valid by construction. That the result
/// verifies in full is what the import fuzzer checks on every input
/// (fuzz/fuzz-import-inductor.cpp) and every lit test that reads an imported
/// graph back (scheduler-opt verifies what it parses). With `nodesVerified`,
/// the graph's own fusion.node ops were verified as they were built; the
/// ops `walk` visited are not walked again (the module's one graph).
static LogicalResult verifyImported(ModuleOp module, bool nodesVerified,
                                    GraphOpsWalk *walk) {
  for (Operation &op : *module.getBody()) {
    if (failed(verifyImportedOp(op, walk)))
      return failure();
    if (auto graph = dyn_cast<GraphOp>(op))
      if (failed(verifyNodes(graph.getBodyBlock(), !nodesVerified)))
        return failure();
  }
  return success();
}

namespace {
/// The files that come with a dump, read (loadCompanions).
struct Companions {
  llvm::StringMap<FxPlaceholder> fx;
  llvm::StringMap<int64_t> sizeHints;
  llvm::StringMap<BufferView> views;
  PyValueArena viewValues;
  llvm::StringSet<> signatureOutputs;
  bool haveSignature = false;

  /// Gives `importer` the buffer views and the signature's outputs.
  void configure(GraphImporter &importer) const {
    importer.setBufferViews(&views);
    if (haveSignature)
      importer.setSignatureOutputs(&signatureOutputs);
  }
};
} // namespace

/// Reads the foreach lists into `file` unless it holds them already.
static LogicalResult readForeachLists(llvm::SourceMgr &sourceMgr,
                                      const DumpLocator &locator,
                                      const InductorImportOptions &options,
                                      ForeachListFile &file) {
  if (file.read)
    return success();
  file.read = succeeded(
      loadForeachLists(sourceMgr, locator, options, file.values, file.lists));
  return success(file.read);
}

/// Reads the files that come with the dump, in this order: the FX graph,
/// the size hints, the foreach lists (unless `foreachLists` holds them;
/// then given to `takeLists`), the buffer views and the signature.
static LogicalResult
loadCompanions(llvm::SourceMgr &sourceMgr, const DumpLocator &locator,
               const InductorImportOptions &options, InductorDump &dump,
               ForeachListFile &foreachLists, Companions &files,
               function_ref<LogicalResult(ArrayRef<ForeachList>)> takeLists) {
  if (failed(loadFxGraph(sourceMgr, locator, options, dump.symbols,
                         files.fx)) ||
      failed(loadSizeHints(sourceMgr, locator, options, files.sizeHints)) ||
      failed(readForeachLists(sourceMgr, locator, options, foreachLists)) ||
      failed(takeLists(foreachLists.lists)))
    return failure();
  if (failed(loadBufferViews(sourceMgr, locator, options, dump.symbols,
                             files.viewValues, files.views)))
    return failure();
  return loadSignatureOutputs(sourceMgr, locator, options,
                              files.signatureOutputs, files.haveSignature);
}

/// Attaches the extern calls to the built module and verifies it once.
static LogicalResult finishModule(llvm::SourceMgr &sourceMgr, ModuleOp module,
                                  const InductorImportOptions &options,
                                  bool nodesVerified,
                                  GraphOpsWalk *walk = nullptr) {
  if (failed(loadExternCalls(sourceMgr, module, options)))
    return failure();
  return verifyImported(module, nodesVerified, walk);
}

OwningOpRef<ModuleOp> mlir::fusion::inductor::importParsedDump(
    InductorDump &dump, llvm::SourceMgr &sourceMgr, const DumpLocator &locator,
    const InductorImportOptions &options, bool keepParsed, bool threads,
    ForeachListFile *foreachLists) {
  ForeachListFile ownLists;
  Companions files;
  if (failed(loadCompanions(sourceMgr, locator, options, dump,
                            foreachLists ? *foreachLists : ownLists, files,
                            [&](ArrayRef<ForeachList> lists) {
                              return createForeachNodes(dump, lists, locator);
                            })))
    return nullptr;
  GraphImporter importer(dump, locator, options, files.fx, files.sizeHints,
                         keepParsed, threads);
  files.configure(importer);
  OwningOpRef<ModuleOp> module = importer.run();
  if (module && failed(finishModule(sourceMgr, *module, options,
                                    /*nodesVerified=*/false)))
    return nullptr;
  return module;
}

/// The import in one pass over the dump (GraphImporter::runOnePass), with
/// the files that come with it read first. Reports nothing: null when it
/// fails or meets what only the import of the parsed dump handles (foreach
/// lists, size symbols, a buffer referenced before a node writes it, ...;
/// runOnePass lists them), whenever anything was diagnosed, and, with
/// `threads`, at the node from which the loop bodies are built on them.
/// The foreach lists are read first, into `foreachLists`: a dump with
/// lists is left to the other import (createForeachNodes regroups and
/// sorts the whole dump), which takes them from there.
static OwningOpRef<ModuleOp>
importInOnePass(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                const InductorImportOptions &options, bool threads,
                ForeachListFile &foreachLists) {
  bool diagnosed = false;
  ScopedDiagnosticHandler silence(context, [&](Diagnostic &) {
    diagnosed = true;
    return success();
  });
  DumpLocator locator(sourceMgr, context);
  if (failed(readForeachLists(sourceMgr, locator, options, foreachLists)) ||
      !foreachLists.lists.empty())
    return nullptr;
  InductorDump dump;
  Companions files;
  if (failed(loadCompanions(
          sourceMgr, locator, options, dump, foreachLists, files,
          [](ArrayRef<ForeachList>) { return success(); })))
    return nullptr;
  GraphImporter importer(dump, locator, options, files.fx, files.sizeHints,
                         /*keepParsed=*/false, /*threads=*/false);
  files.configure(importer);
  DumpNodeStream stream(sourceMgr.getMainFileID(), locator, dump);
  OwningOpRef<ModuleOp> module = importer.runOnePass(
      stream, threads ? options.parallelMinNodes : ~size_t(0));
  if (!module ||
      failed(finishModule(sourceMgr, *module, options, /*nodesVerified=*/true,
                          importer.getOnePassWalk())) ||
      diagnosed)
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp>
mlir::fusion::importInductorDump(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context,
                                 const InductorImportOptions &options) {
  context->loadDialect<FusionDialect, arith::ArithDialect, math::MathDialect>();
  // The import runs on this thread with the uniquers unlocked (they take a
  // lock and look in a thread-local cache for every attribute, type and
  // location while threads may run), except while a large dump is parsed
  // ahead and while the loop bodies of a large graph are built on the
  // context's threads, if it has them.
  bool threaded = context->isMultithreadingEnabled();
  bool threads = hasBodyThreads(context);
  context->disableMultithreading();
  llvm::scope_exit restore(
      [&] { context->disableMultithreading(!threaded); });
  // A large dump's nodes are built as they are parsed, unless the dump is
  // parsed and built on the context's threads. The dumps that import
  // cannot take, and every dump with an error, are parsed whole and then
  // imported, which reports the errors in their order.
  size_t dumpBytes =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferSize();
  ForeachListFile foreachLists;
  if (dumpBytes >= options.onePassMinBytes &&
      (!threads || dumpBytes < options.parallelParseMinBytes))
    if (OwningOpRef<ModuleOp> module = importInOnePass(
            sourceMgr, context, options, threads, foreachLists))
      return module;
  DumpLocator locator(sourceMgr, context);
  InductorDump dump;
  if (failed(parseInductorDump(sourceMgr.getMainFileID(), locator, dump,
                               threads, options.parallelParseMinBytes)))
    return nullptr;
  return importParsedDump(dump, sourceMgr, locator, options,
                          /*keepParsed=*/false, threads, &foreachLists);
}

void mlir::fusion::printInductorImportTable(llvm::raw_ostream &os) {
  SmallVector<std::string> lines;
  for (const OpDef &def : getOpTable())
    lines.push_back(("op " + def.name).str());
  for (const LoopBodyForm &form : getLoopBodyForms())
    lines.push_back(("op " + form.op).str());
  for (uint32_t k = 0; k <= getMaxEnumValForReduceKind(); ++k)
    lines.push_back(
        ("reduction " + stringifyReduceKind(static_cast<ReduceKind>(k))).str());
  for (const ReductionAlias &alias : getReductionAliases())
    lines.push_back(("reduction " + alias.name).str());
  for (const IndexFunctionInfo &fn : getIndexFunctions())
    lines.push_back(("function " + fn.name).str());
  for (StringRef layout : getLayoutClasses())
    lines.push_back(("layout " + layout).str());
  for (const SchedulerNodeKind &kind : getSchedulerNodeKinds())
    lines.push_back(("node " + kind.name).str());
  llvm::sort(lines);
  for (const std::string &line : lines)
    os << line << "\n";
}
