//===- ImportInductorImpl.h - Pieces shared by the importer -----*- C++ -*-===//
//
// Internal to SchedulerOptInductorImport. The importer is split by concern:
//
//   ImportInductor.cpp   entry points (dump + FX graph -> verified module)
//   FxGraph.cpp          placeholders of fx_graph_readable.py
//   ImportForeach.cpp    foreach_lists.json: create_foreach_nodes
//   BufferViews.cpp      buffer_views.json: offsets of NonOwningLayout views
//   GraphSignature.cpp   signature.json: the buffers the graph returns
//   ExternCalls.cpp      extern_calls.json onto the fusion.extern ops
//   Dtypes.cpp           torch dtypes, name order
//   ImportGraph.cpp      graph-level assembly: nodes in order, containers,
//                        graph inputs and outputs
//   ImportBuffers.cpp    layouts -> buffer types, graph inputs, mutations
//   ImportExtern.cpp     extern, nop and MultiOutput nodes
//   ImportLoopBody.cpp   loop bodies: blocks, statements, operands, indices
//   ParallelBodies.cpp   loop bodies of a large graph on the context's threads
//   ImportOps.cpp        the operation table: one row per `ops.<name>`
//   ImportMathOps.cpp    rows whose PyTorch semantics need several ops
//   ImportOpaqueOps.cpp  rows kept by name (fusion.opaque)
//   ImportIndexTerms.cpp non-affine parts of indices
//   IndexExpr.cpp        sympy index and size expressions
//
// The dump itself is read by DumpParser.cpp (lines), DumpFields.cpp (the
// values on them) and PyValueParser.cpp (Python literals).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_IMPORTINDUCTORIMPL_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_IMPORTINDUCTORIMPL_H

#include "CreateOp.h"
#include "IndexExpr.h"
#include "InductorDump.h"
#include "VersionedStringMap.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/GraphOpsWalk.h"
#include "scheduler-opt/Target/Inductor/ImportInductor.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstring>
#include <memory>
#include <optional>

namespace mlir {
namespace fusion {
namespace inductor {

/// A placeholder of `fx_graph_readable.py`: `primals_1: "f32[4, 128]"`.
struct FxPlaceholder {
  const char *loc;
  StringRef dtypeCode;
  SmallVector<AffineExpr, 4> sizes, strides;
  bool hasStrides = false;
};

struct ForeachListFile;

/// Builds and verifies the graph of a parsed dump. Unless `keepParsed`,
/// frees each node's layout lines, body and dependences once they are
/// used, leaving the nodes' outputs. With `threads`, builds the loop bodies
/// of a large graph on the context's threads (enabling them for that time).
/// Takes the foreach lists from `foreachLists` when it holds them already
/// read.
OwningOpRef<ModuleOp> importParsedDump(InductorDump &dump,
                                       llvm::SourceMgr &sourceMgr,
                                       const DumpLocator &locator,
                                       const InductorImportOptions &options,
                                       bool keepParsed, bool threads,
                                       ForeachListFile *foreachLists = nullptr);

/// What verify(&op, /*verifyRecursively=*/false) checks of an op the
/// importer built, with the same diagnostics, except MLIR's dominance check
/// of the operands of a fusion.node's body ops and the IsolatedFromAbove
/// walk of the fusion.graph (ImportGraph.cpp says why the import needs
/// neither). A fusion.graph's ops that `walk` visited are not walked again
/// (verifyGraphRegions).
LogicalResult verifyImportedOp(Operation &op, GraphOpsWalk *walk = nullptr);

/// Whether `context` has threads to build loop bodies on: multithreading
/// enabled, with a pool of more than one thread (ParallelBodies.cpp).
bool hasBodyThreads(MLIRContext *context);

/// Adds a file that comes with the dump to `sourceMgr` and returns its
/// buffer: `path` when given (an error naming the `what` when it cannot be
/// opened), else, with `lookup`, the file named `siblingName` next to the
/// dump when there is one (none otherwise).
FailureOr<std::optional<unsigned>>
addCompanionFile(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                 StringRef path, StringRef siblingName, bool lookup,
                 StringRef what);

/// One list of `foreach_lists.json`: its name and the node names, each with
/// its location in the file.
struct ForeachList {
  StringRef name;
  const char *loc;
  SmallVector<std::pair<StringRef, const char *>, 16> names;
};

/// The foreach lists of a dump and the values they were read into.
struct ForeachListFile {
  SmallVector<ForeachList, 0> lists;
  PyValueArena values;
  /// Whether they were read (none when there is no file) without an error:
  /// reading them again would give the same lists and report nothing.
  bool read = false;
};

/// Reads the foreach lists given in the options, or `foreach_lists.json`
/// next to the dump; none when there is no such file (ImportForeach.cpp).
LogicalResult loadForeachLists(llvm::SourceMgr &sourceMgr,
                               const DumpLocator &locator,
                               const InductorImportOptions &options,
                               PyValueArena &arena,
                               SmallVectorImpl<ForeachList> &lists);

/// Inductor's create_foreach_nodes on the parsed dump, then its
/// topological_sort_schedule: each list's nodes become the members of one
/// ForeachKernelSchedulerNode, placed after the other nodes before the sort.
LogicalResult createForeachNodes(InductorDump &dump,
                                 ArrayRef<ForeachList> lists,
                                 const DumpLocator &locator);

/// Natural order of names: numbers compare by value (arg2_1 < arg10_1).
/// This is StringRef::compare_numeric's order, decided where the names first
/// differ: the common prefix compares equal, except a run of digits that
/// reaches the difference, which is compared whole (the shorter number is
/// less, numbers of one length compare by their digits).
inline bool naturalLess(StringRef a, StringRef b) {
  size_t n = std::min(a.size(), b.size()), at = 0;
  while (at < n && a[at] == b[at])
    ++at;
  size_t run = at;
  while (run > 0 && llvm::isDigit(a[run - 1]))
    --run;
  if (run < n && llvm::isDigit(a[run]) && llvm::isDigit(b[run])) {
    auto digitsEnd = [](StringRef s, size_t i) {
      while (i < s.size() && llvm::isDigit(s[i]))
        ++i;
      return i;
    };
    size_t endA = digitsEnd(a, run), endB = digitsEnd(b, run);
    if (endA != endB)
      return endA < endB;
    if (at < endA)
      return static_cast<unsigned char>(a[at]) <
             static_cast<unsigned char>(b[at]);
  }
  if (at == n)
    return a.size() < b.size();
  return static_cast<unsigned char>(a[at]) < static_cast<unsigned char>(b[at]);
}

/// Sorts distinct names by naturalLess. The graph inputs are many (one every
/// few nodes) and point into the dump: compared pairwise with naturalLess,
/// 50k of them took 180M instructions to sort, each comparison reading two
/// names far apart in memory. Their keys, made once and side by side in
/// one buffer, compare with memcmp instead (ImportBuffers.cpp).
void sortNatural(SmallVectorImpl<StringRef> &names);

/// torch dtype name (`torch.float32`) to element type (`ui8` for
/// torch.uint8, `f8E4M3FN` for torch.float8_e4m3fn, ...); a located error
/// for anything else.
FailureOr<Type> convertDtype(StringRef dtype, const char *loc,
                             const DumpLocator &locator);

/// Where a NonOwningLayout buffer lies in the storage of `base`: `offset`
/// elements in, in the dump's size symbols (buffer_views.json).
struct BufferView {
  StringRef base;
  AffineExpr offset;
  const char *loc;
};

/// Reads `buffer_views.json` (`{"buf1": {"base": "buf5", "offset": 1}}`)
/// in buffer `bufferId` (BufferViews.cpp).
LogicalResult readBufferViews(unsigned bufferId, const DumpLocator &locator,
                              SizeSymbols &symbols, PyValueArena &arena,
                              llvm::StringMap<BufferView> &views);

/// Reads the buffers the graph returns from `signature.json`'s `outputs`
/// in buffer `bufferId` (GraphSignature.cpp).
LogicalResult readSignatureOutputs(unsigned bufferId,
                                   const DumpLocator &locator,
                                   llvm::StringSet<> &outputs);

/// Reads `size_hints.json` (`{"s27": 1024, ...}`) in buffer `bufferId`.
LogicalResult readSizeHints(unsigned bufferId, const DumpLocator &locator,
                            llvm::StringMap<int64_t> &hints);

/// Reads the placeholders of `def forward(self, name: "f32[4, 128]", ...)`
/// in buffer `bufferId`. Non-tensor placeholders (`Sym(s0)`) are skipped.
LogicalResult readFxPlaceholders(unsigned bufferId, const DumpLocator &locator,
                                 SizeSymbols &symbols,
                                 llvm::StringMap<FxPlaceholder> &placeholders);

/// Maps the dtype codes of FX annotations (`f32`) to torch dtype names.
StringRef fxDtypeName(StringRef code);

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

class BodyImporter;
class OrderedDiagnostics;

/// Stand-ins for the graph's values in a loop body built apart from the
/// graph (in parallel with other bodies): arguments of a block of their
/// own, one per graph value the body reads, so that building the body
/// touches no use list of the graph. They are replaced by the graph's
/// values later, in node order (ParallelBodies.cpp).
struct BodyPlaceholders {
  Block block;
  /// The graph value each argument of `block` stands for.
  SmallVector<Value, 4> real;
  /// The argument standing for a graph value.
  llvm::SmallDenseMap<Value, Value, 4> byValue;
  /// Set when the body needs a size symbol that had no number yet: the
  /// body is then built again in node order, which numbers it as the
  /// sequential import does.
  bool deferred = false;

  /// The stand-in for `value`.
  Value get(Value value);
};

/// Where a loop body is built: the locator and statement arena of the
/// thread building it, the version of the graph's maps it reads (the bodies
/// started before it), and, for a body built apart from the graph, the
/// placeholders of the graph's values (null: the graph's values).
struct BodySite {
  const DumpLocator &locator;
  PyValueArena &values;
  unsigned version;
  BodyPlaceholders *placeholders = nullptr;
};

/// Builds the fusion.graph of a parsed dump: one op per scheduler node.
/// Attaches each call of an `extern_calls.json` to the fusion.extern of
/// that node name as its `fusion.call` (ExternCalls.cpp).
LogicalResult attachExternCalls(ModuleOp module, llvm::MemoryBufferRef file);

class GraphImporter {
public:
  GraphImporter(InductorDump &dump, const DumpLocator &locator,
                const InductorImportOptions &options,
                const llvm::StringMap<FxPlaceholder> &fx,
                const llvm::StringMap<int64_t> &sizeHints, bool keepParsed,
                bool threads)
      : dump(dump), locator(locator), options(options), fx(fx),
        sizeHints(sizeHints), keepParsed(keepParsed), threads(threads),
        ctx(locator.getContext()), builder(ctx),
        bodyFlags(BodyBuilder::Flags::get(ctx)) {}

  /// Where the NonOwningLayout buffers lie (buffer_views.json), if known.
  void setBufferViews(const llvm::StringMap<BufferView> *views) {
    bufferViews = views;
  }

  /// The buffers the graph returns (signature.json), if known.
  void setSignatureOutputs(const llvm::StringSet<> *outputs) {
    signatureOutputs = outputs;
  }

  /// Builds the graph of the parsed dump: indexes its nodes, collects the
  /// graph inputs, then builds the nodes in order.
  OwningOpRef<ModuleOp> run();

  /// Builds the graph while `stream` reads the dump, a window of nodes at a
  /// time: each node is indexed, its references noted, its op built and,
  /// for a fusion.node, verified while its parsed form is still in the
  /// caches; then the window is freed. What the
  /// whole dump decides is gathered as the nodes come or settled at the
  /// end: the graph inputs get stand-in arguments at their first reference
  /// and their place in natural order at the end. Fails (not always with a
  /// diagnostic) on any error, and wherever a later node could change what
  /// run() builds for an earlier one: a buffer referenced before a node
  /// writes it, a graph input whose layout line comes after the FX graph
  /// typed it differently, a concatenation's part (built before the
  /// concatenation), a size symbol (numbered in another order than the
  /// parse of the whole dump numbers them), a graph device no node up to
  /// the current one names, and at the `maxNodes`-th node. The caller then
  /// imports with run(), which reports what is wrong.
  OwningOpRef<ModuleOp> runOnePass(DumpNodeStream &stream, size_t maxNodes);
  /// The graph verifier's walk over the ops runOnePass built, which it took
  /// a window at a time (verifyImportedOp takes it).
  GraphOpsWalk *getOnePassWalk() {
    return onePassWalk ? &*onePassWalk : nullptr;
  }

private:
  friend class BodyImporter;

  InFlightDiagnostic error(const char *at) { return locator.emitError(at); }
  Location loc(const char *at) { return locator.get(at); }
  /// loc(node.loc), made from the line the parser counted once the dump's
  /// file name is known (the locator would count the lines of the node
  /// before it again).
  Location nodeLoc(const DumpNode &node);

  // ImportGraph.cpp
  /// Adds the buffers of `node` that the graph returns to `outputBuffers`.
  void collectOutputBuffers(
      const DumpNode &node,
      SmallVectorImpl<std::pair<StringRef, const char *>> &outputBuffers);
  LogicalResult indexNodes(const DumpNode &node);
  /// What run() and runOnePass() do once the nodes are built: the graph's
  /// outputs (`outputBuffers`, less the alias classes' members the graph
  /// does not return), its size symbols and its function type.
  LogicalResult
  finishGraph(GraphOp graph, Location fileLoc,
              const llvm::StringSet<> &aliasClassMembers,
              ArrayRef<std::pair<StringRef, const char *>> outputBuffers);
  /// Adds the buffers of `node` that alias another or that another aliases
  /// to `members` (with a signature, the graph returns only those of them
  /// it names).
  static void collectAliasClassMembers(const DumpNode &node,
                                       llvm::StringSet<> &members);
  LogicalResult buildNode(const DumpNode &node);
  LogicalResult buildSchedulerNode(const DumpNode &node);
  LogicalResult buildContainer(const DumpNode &node);
  /// Records `buffer` of `node`, which aliases another buffer, as an input
  /// of the concatenation producing that buffer; anything else is an error.
  LogicalResult recordConcatInput(const DumpNode &node,
                                  const DumpBuffer &buffer);

  // ParallelBodies.cpp
  /// Whether the loop bodies are built in parallel: with the context's
  /// threads (when `threads`), on a graph large enough to gain from them.
  bool shouldBuildBodiesInParallel() const;
  /// Builds the dump's nodes (as buildNode in dump order would), their loop
  /// bodies in parallel: in runs of nodes, the graph-level ops first, then
  /// the bodies on the context's threads, then, in node order, the bodies'
  /// placeholders replaced by the graph's values so that every use list
  /// ends in the sequential import's order. Diagnostics are those of the
  /// sequential import.
  LogicalResult buildNodesInParallel(
      Block &graphBlock,
      SmallVectorImpl<std::pair<StringRef, const char *>> &outputBuffers);
  /// Registers the body of `op`, which body `version` builds later.
  void registerBody(const DumpNode &node, NodeOp op, unsigned version);
  LogicalResult
  buildRun(size_t begin, size_t end, Block &graphBlock,
           OrderedDiagnostics &diags,
           SmallVectorImpl<std::pair<StringRef, const char *>> &outputBuffers);
  /// A loop body to build: the scheduler node, its op, the version of the
  /// graph's maps at its place, and what building it gave.
  struct BodyJob {
    const DumpNode *node;
    NodeOp op;
    unsigned version;
    /// Where the locator was at the node, for the thread building its body.
    DumpLocator::Mark mark;
    std::unique_ptr<BodyPlaceholders> placeholders;
    bool failed = false;
  };
  /// The loop bodies of the current run, in node order (when built in
  /// parallel); bodies are then only registered by buildSchedulerNode.
  SmallVector<BodyJob, 0> bodyJobs;
  bool deferBodies = false;
  OrderedDiagnostics *orderedDiags = nullptr;
  /// Loop bodies started so far: the version of assignments to `values`
  /// and `mutationRenames`.
  unsigned bodiesStarted = 0;

  // ImportExtern.cpp
  LogicalResult buildExternOrNop(const DumpNode &node);
  /// The offsets of a concatenation's inputs in its storage, from the
  /// buffer views; null when they are not known.
  FailureOr<AffineMapAttr> concatInputOffsets(const DumpNode &node,
                                              ArrayRef<StringRef> inputs);

  // ImportBuffers.cpp
  /// The graph inputs (inputNames, inputTypes), from the buffers the nodes
  /// refer to and the `<name>_layout` lines, which it checks against each
  /// other; then frees those lines unless the parsed dump is kept.
  LogicalResult collectInputs();
  /// Notes the buffers `node` refers to that no node indexed so far writes
  /// (graph inputs, in order of first reference) and checks its
  /// `<name>_layout` lines against the layouts known so far. In the
  /// one-pass import, also gives each new input a stand-in argument of its
  /// type.
  LogicalResult noteInputs(const DumpNode &node);
  /// The type of graph input `name`, first referenced at `at`: from its
  /// first `<name>_layout` line, else from the FX graph.
  FailureOr<Type> inputType(StringRef name, const char *at);
  /// The one-pass import's graph inputs in natural order: real arguments
  /// of `graph` in place of the stand-ins, each taking its stand-in's uses
  /// in the order they were made. Fails when a node wrote a buffer after
  /// an earlier node's reference or layout line took it for an input.
  LogicalResult finishInputs(GraphOp graph, Location fileLoc);
  /// A copy of `layout` that outlives its node (the one-pass import frees
  /// each node once built): one for each layout text the parser knows.
  const DumpLayout *keepLayout(const DumpLayout &layout);
  /// The buffer type of a layout on the graph's device; `graphInput`
  /// also accepts a zero-dimensional CPU tensor, which Inductor passes to
  /// the device's kernels by value (`GraphLowering.is_unspec_arg`).
  FailureOr<Type> bufferType(const DumpLayout &layout,
                             bool graphInput = false);
  LogicalResult buildResultTypes(const DumpNode &node,
                                 SmallVectorImpl<Type> &types,
                                 SmallVectorImpl<StringRef> &names);
  /// Inductor's rename(): follows `mutation_renames` to the newest version.
  StringRef rename(StringRef name) const { return renameAt(name, ~0u); }
  /// rename() as it was when loop body `version` started.
  StringRef renameAt(StringRef name, unsigned version) const;
  /// The value of buffer `name` (after renaming for body loads).
  FailureOr<Value> lookupBuffer(StringRef name, const char *at) {
    return lookupBufferAt(name, at, ~0u, locator);
  }
  /// lookupBuffer() as it was when loop body `version` started, with
  /// errors located by `bodyLocator`.
  FailureOr<Value> lookupBufferAt(StringRef name, const char *at,
                                  unsigned version,
                                  const DumpLocator &bodyLocator);
  /// Binds buffer `name` to `value` from now on.
  void setValue(StringRef name, Value value) {
    values.set(name, value, bodiesStarted);
  }
  Value lookupValue(StringRef name) const {
    const Value *v = values.find(name);
    return v ? *v : Value();
  }
  void recordMutation(StringRef mutated, StringRef newName);
  /// Binds the names of `node`'s output buffers to `results`, recording the
  /// buffers they mutate.
  void bindOutputs(const DumpNode &node, ValueRange results);
  /// The operand each output of `node` updates in place (the buffer its
  /// `.mutations` names, found in `operands` or appended), or -1; an output
  /// with a NoneLayout (Inductor's MutationOutput) gets the type of the
  /// buffer it mutates.
  FailureOr<SmallVector<int64_t>> tieMutations(const DumpNode &node,
                                               SmallVectorImpl<Value> &operands,
                                               MutableArrayRef<Type> types);

  InductorDump &dump;
  const DumpLocator &locator;
  const InductorImportOptions &options;
  const llvm::StringMap<FxPlaceholder> &fx;
  /// size_hints.json: the hint of each size symbol.
  const llvm::StringMap<int64_t> &sizeHints;
  const llvm::StringMap<BufferView> *bufferViews = nullptr;
  const llvm::StringSet<> *signatureOutputs = nullptr;
  /// The concatenation inputs (NonOwningLayout buffers) built so far, and
  /// the buffer each is part of.
  llvm::StringMap<std::string> concatInputOf;
  bool keepParsed;
  /// Whether the loop bodies may use the context's threads.
  bool threads;
  MLIRContext *ctx;
  OpBuilder builder;
  /// The flags every loop body's arith and math ops take (BodyBuilder).
  BodyBuilder::Flags bodyFlags;
  std::string device;
  /// The dump's file name, as its nodes' locations carry it, and its
  /// buffer (nodeLoc).
  StringAttr dumpFile;
  unsigned dumpBufferId = 0;

  /// A buffer some node writes: the node (parsed until it is built, so
  /// followed only for a node not built yet: the index is at least
  /// nodesBuilt), the buffer's layout and place, and the node's number in
  /// the order of indexNodes (a container before its members).
  struct ProducedBuffer {
    const DumpNode *node;
    const DumpLayout *layout;
    const char *loc;
    unsigned nodeIndex;
  };
  /// Every node (its place) and buffer of the dump, keyed by their names
  /// in the dump's text (which outlives the importer): dense maps keep the
  /// key in the bucket, where a StringMap allocates an entry for each key
  /// and a lookup reads it (a million of each, and a cache miss more per
  /// lookup, at 1M nodes).
  llvm::DenseMap<StringRef, const char *> nodesByName;
  llvm::DenseMap<StringRef, ProducedBuffer> buffers;
  /// Nodes indexed and nodes whose build has started, in the same order.
  unsigned nodesIndexed = 0, nodesBuilt = 0;
  /// Whether this is the one-pass import (runOnePass), and its graph,
  /// whose arguments are the inputs' stand-ins until finishInputs.
  bool onePass = false;
  GraphOp onePassGraph;
  std::optional<GraphOpsWalk> onePassWalk;
  /// The graph inputs met so far: the first reference of each, and the
  /// first `<name>_layout` line of each that has one (in the one-pass
  /// import, copies: keepLayout).
  llvm::StringMap<std::pair<StringRef, const char *>> firstReference;
  llvm::StringMap<const DumpLayout *> inputLayouts;
  /// keepLayout's copies, by the text the parser first read them at.
  llvm::SpecificBumpPtrAllocator<DumpLayout> layoutCopies;
  llvm::DenseMap<const char *, const DumpLayout *> layoutsByText;
  /// The text of those keys, copied side by side (keepName): a lookup
  /// compares the name it is given with the text of every key of that
  /// length it probes, which in the dump lies where the node or buffer was
  /// written, long gone from the caches; copied, the names of a 100k-node
  /// graph take a megabyte.
  llvm::BumpPtrAllocator nameArena;
  StringRef keepName(StringRef name) {
    char *copy = nameArena.Allocate<char>(name.size());
    std::copy(name.begin(), name.end(), copy);
    return StringRef(copy, name.size());
  }
  /// Whether an unmet dependence of some node names a buffer no node
  /// writes (collectInputs sees every reference): only then does buildNode
  /// look each node's unmet dependences up, to report the first such one.
  bool unmetOfUnwritten = false;
  /// Graph inputs, sorted, with their types.
  SmallVector<StringRef> inputNames;
  SmallVector<Type> inputTypes;

  VersionedStringMap<Value> values;
  VersionedStringMap<std::string> mutationRenames;
  /// Buffers that share memory with a view an extern returned (the view
  /// and what its `.aliases` names), in dump order so far.
  llvm::StringSet<> externViews;
  /// MultiOutput externs seen per tuple buffer, for their `index`.
  llvm::StringMap<int64_t> multiOutputCount;
  /// The buffer type of each layout seen (bufferType), keyed by the bytes
  /// of its element type, offset, rank, sizes and strides (all uniqued).
  llvm::StringMap<Type> layoutTypes;
  /// The parsed statements of the loop body being built, freed after each
  /// body; its first slab serves every body.
  PyValueArena bodyValues;
  /// Attributes the loop bodies make over and over, by their value: float
  /// constants and index maps, each a probe of the context's uniquer (and,
  /// for a float, a conversion) when made again; and the names of the ops
  /// they make. Only bodies built on the importing thread use them
  /// (BodyImporter::floatAttr, indexMap, createOp); those built on the
  /// context's threads ask the context each time.
  FloatAttrCache floatAttrs;
  OpNameCache opNames;
  llvm::DenseMap<std::tuple<unsigned, unsigned, AffineExpr>, AffineMap>
      indexMaps;
  /// The attributes of those maps, which the accesses hold.
  llvm::DenseMap<AffineMap, AffineMapAttr> indexMapAttrs;
  /// The nodes' loop sizes and tied operands, keyed by the attributes' own
  /// storage: most nodes of a graph repeat a few.
  llvm::DenseMap<ArrayRef<int64_t>, DenseI64ArrayAttr> i64ArrayAttrs;
  DenseI64ArrayAttr i64ArrayAttr(ArrayRef<int64_t> values) {
    if (auto it = i64ArrayAttrs.find(values); it != i64ArrayAttrs.end())
      return it->second;
    auto attr = DenseI64ArrayAttr::get(ctx, values);
    i64ArrayAttrs.try_emplace(attr.asArrayRef(), attr);
    return attr;
  }
  /// Index expressions parsed on the importing thread that name only loop
  /// variables, by the loop variables' names and the text
  /// (BodyImporter::parseIndices).
  llvm::StringMap<AffineExpr> parsedIndices;
};

//===----------------------------------------------------------------------===//
// BodyImporter
//===----------------------------------------------------------------------===//

/// A value of a loop body: an SSA value, the results of a multi-result
/// reduction, a reference to an index expression, or nothing (stores).
struct BodyValue {
  enum Kind { Nothing, Scalar, Tuple, Index } kind = Nothing;
  Value value;
  SmallVector<Value, 3> tuple;
  unsigned index = 0;
};

/// The hash of a loop body's names (`load_12`, `index0`, `p1`): their
/// length and first and last eight bytes, mixed as MurmurHash3's
/// finalizer does. The names are short and differ mostly in their last
/// digits; DenseMapInfo<StringRef>'s hash of every byte (an out-of-line
/// call) cost about as much as the rest of a lookup.
struct BodyNameInfo : llvm::DenseMapInfo<StringRef> {
  static unsigned getHashValue(StringRef name) {
    const char *p = name.data();
    size_t n = name.size();
    uint64_t first = 0, last = 0;
    if (n >= 8) {
      std::memcpy(&first, p, 8);
      std::memcpy(&last, p + n - 8, 8);
    } else if (n >= 4) {
      uint32_t a, b;
      std::memcpy(&a, p, 4);
      std::memcpy(&b, p + n - 4, 4);
      first = a;
      last = b;
    } else {
      for (size_t i = 0; i < n; ++i)
        first = first << 8 | static_cast<unsigned char>(p[i]);
    }
    uint64_t h = first ^ llvm::rotl(last, 29) ^ n;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return static_cast<unsigned>(h);
  }
  static bool isEqual(StringRef a, StringRef b) {
    // As DenseMapInfo<StringRef>::isEqual, inline: `b` may be the empty or
    // the tombstone key, which only the same pointer equals.
    const char *empty = getEmptyKey().data(), *tomb = getTombstoneKey().data();
    if (b.data() == empty || b.data() == tomb)
      return a.data() == b.data();
    return a == b;
  }
};

/// Helpers of the statements read straight from their text
/// (BodyImporter::translateDirect).
/// Whether `name` is all of an identifier that the value parser reads as a
/// name (not a number, `inf`, `nan`, `True` or `False`).
inline bool isValueName(StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         identLength(name) == name.size() && name != "True" &&
         name != "False" && name != "inf" && name != "nan";
}
/// Whether `text`, between quotes, is read by the value parser as itself:
/// no escape, newline or quote in it.
inline bool isPlainQuoted(StringRef text) {
  for (char c : text)
    if (c == '\'' || c == '"' || c == '\\' || c == '\n')
      return false;
  return true;
}

/// The names a block has bound so far. Names are keys into the dump's
/// text, which outlives the import; a typical block binds a dozen, held
/// inline (a StringMap would allocate every entry).
using BodyEnv = llvm::SmallDenseMap<StringRef, BodyValue, 16, BodyNameInfo>;

/// One `target = ops.<name>(...)` statement being translated.
struct OpCall {
  const DumpStmt &stmt;
  /// The name after `ops.`.
  StringRef name;
  const PyValue &call;
  BodyEnv &env;
  BodyValue &result;
};

struct OpDef;

/// Translates the loop body of one SchedulerNode into a fusion.node body.
class BodyImporter {
public:
  BodyImporter(GraphImporter &graph, const DumpNode &node, NodeOp op,
               const BodySite &site);
  LogicalResult run();

  /// How one row of the operation table is translated (ImportOps.cpp).
  using Translator = LogicalResult (BodyImporter::*)(const OpCall &,
                                                     const OpDef &);

  // Translators of the operation table (ImportOps.cpp).
  LogicalResult translateLoad(const OpCall &c, const OpDef &def);
  LogicalResult translateStore(const OpCall &c, const OpDef &def);
  LogicalResult translateIndexExpr(const OpCall &c, const OpDef &def);
  LogicalResult translateConstant(const OpCall &c, const OpDef &def);
  LogicalResult translateToDtype(const OpCall &c, const OpDef &def);
  LogicalResult translateIdentity(const OpCall &c, const OpDef &def);
  LogicalResult translateWhere(const OpCall &c, const OpDef &def);
  LogicalResult translateRand(const OpCall &c, const OpDef &def);
  LogicalResult translateReduction(const OpCall &c, const OpDef &def);
  LogicalResult translateFloatUnary(const OpCall &c, const OpDef &def);
  LogicalResult translateUnary(const OpCall &c, const OpDef &def);
  LogicalResult translateLogicalNot(const OpCall &c, const OpDef &def);
  LogicalResult translateBitwiseNot(const OpCall &c, const OpDef &def);
  LogicalResult translateArithmetic(const OpCall &c, const OpDef &def);
  LogicalResult translateFma(const OpCall &c, const OpDef &def);
  LogicalResult translateCompare(const OpCall &c, const OpDef &def);
  LogicalResult translateBitwise(const OpCall &c, const OpDef &def);
  LogicalResult translateLogical(const OpCall &c, const OpDef &def);
  LogicalResult translateFloatBinary(const OpCall &c, const OpDef &def);
  LogicalResult translateSign(const OpCall &c, const OpDef &def);
  LogicalResult translateSignbit(const OpCall &c, const OpDef &def);
  LogicalResult translateFloatClass(const OpCall &c, const OpDef &def);
  LogicalResult translateShift(const OpCall &c, const OpDef &def);
  LogicalResult translateToInt(const OpCall &c, const OpDef &def);
  LogicalResult translateBitcast(const OpCall &c, const OpDef &def);
  LogicalResult translateLdexp(const OpCall &c, const OpDef &def);
  LogicalResult translateSpecial(const OpCall &c, const OpDef &def);
  LogicalResult translateFrexp(const OpCall &c, const OpDef &def);
  LogicalResult translateRandom(const OpCall &c, const OpDef &def);
  LogicalResult translateDot(const OpCall &c, const OpDef &def);
  LogicalResult translateSort(const OpCall &c, const OpDef &def);
  LogicalResult translateBucketize(const OpCall &c, const OpDef &def);
  LogicalResult translateCheckBounds(const OpCall &c, const OpDef &def);
  LogicalResult translateDeviceAssert(const OpCall &c, const OpDef &def);
  LogicalResult translateInlineAsm(const OpCall &c, const OpDef &def);
  LogicalResult translateHalideClamp(const OpCall &c, const OpDef &def);

private:
  InFlightDiagnostic error(const char *at);
  Location loc(const char *at);
  /// builder.getFloatAttr(type, value) and AffineMap::get(...), through
  /// the graph importer's caches when this body is built on its thread.
  FloatAttr floatAttr(FloatType type, double value);
  AffineMap indexMap(unsigned numDims, unsigned numSymbols, AffineExpr expr);
  /// AffineMapAttr::get(map), likewise.
  AffineMapAttr indexMapAttr(AffineMap map);

  // ImportLoopBody.cpp
  LogicalResult parseIndices();
  /// Translates `block`; sets `result` to the returned value.
  /// Translates `block` at the insertion point; `params` are the values
  /// of its parameters after `self, ops` (a scan's combine function).
  LogicalResult translateBlock(const DumpBlock &block, BodyValue &result,
                               ValueRange params = {});
  LogicalResult translateStmt(const DumpStmt &stmt, BodyEnv &env,
                              BodyValue &result);
  /// Translates statement `stmt` of a common form without building its
  /// Python value, setting `result`; false, having done nothing, for
  /// anything else (ImportLoopBody.cpp says which).
  bool translateDirect(const DumpStmt &stmt, BodyEnv &env,
                       LogicalResult &result);
  LogicalResult translateCall(const DumpStmt &stmt, const PyValue &call,
                              BodyEnv &env, BodyValue &result);
  LogicalResult translateMasked(const DumpStmt &stmt, const DumpBlock &block,
                                const PyValue &call, BodyEnv &env,
                                BodyValue &result);
  /// `self.scan<k>(dtypes, values)`: a scan whose combine function the dump
  /// does not print.
  LogicalResult translateScan(const DumpStmt &stmt, StringRef module,
                              const PyValue &call, BodyEnv &env,
                              BodyValue &result);
  /// Looks `ops.<name>` up in the operation table and translates it.
  LogicalResult translateOp(const DumpStmt &stmt, StringRef name,
                            const PyValue &call, BodyEnv &env,
                            BodyValue &result);

  // Operands.
  FailureOr<Value> scalar(const PyValue *arg, BodyEnv &env);
  /// All arguments of `call` as scalars. A number or True/False in place of
  /// a value (`ops.truediv(mul_6, 4)`, which avg_pool2d's backward prints)
  /// is a weakly typed literal, as Inductor's dtype propagation treats a
  /// Python number: it takes the type the named operands promote to when
  /// that is of its kind or higher (an int literal becomes float32 beside a
  /// float32 value), else its own default (int64, float32, bool).
  FailureOr<SmallVector<Value, 3>> scalars(const PyValue &call, BodyEnv &env);
  /// Exactly `n` arguments of the call, as scalars.
  FailureOr<SmallVector<Value, 3>> scalarArgs(const OpCall &c, unsigned n);
  /// The argument of a unary operation as a scalar.
  FailureOr<Value> unaryOperand(const OpCall &c);
  /// The two arguments of a binary operation as scalars.
  FailureOr<std::pair<Value, Value>> binaryOperands(const OpCall &c);
  FailureOr<unsigned> indexRef(const PyValue *arg, BodyEnv &env);
  FailureOr<StringRef> stringArg(const PyValue *arg, StringRef what);
  FailureOr<bool> boolArg(const PyValue *arg);
  FailureOr<SmallVector<Type>> dtypeTuple(const PyValue *arg);
  FailureOr<SmallVector<Value>> valueTuple(const PyValue *arg, BodyEnv &env,
                                           TypeRange types, Location l);
  /// The buffer named by `arg` (after renaming), which the node's
  /// dependences must mention.
  FailureOr<Value> readBuffer(const PyValue *arg, StringRef opName);
  /// The same for the buffer name `buf` at `at`.
  FailureOr<Value> readBuffer(StringRef buf, const char *at, StringRef opName);
  /// `ops.load` of `buffer` at index `index` (written at `indexAt`).
  FailureOr<Value> load(const DumpStmt &stmt, Value buffer, unsigned index,
                        const char *indexAt);
  /// translateDirect's forms, given the text `args` between the call's
  /// parentheses: `ops.load('<buffer>', <index>)`;
  bool loadDirect(const DumpStmt &stmt, StringRef args, BodyEnv &env,
                  LogicalResult &result);
  /// `ops.<name>(a)`, `ops.<name>(a, b)` and `ops.where(c, a, b)` of named
  /// values for the rows of translateArithmetic, translateFloatUnary,
  /// translateUnary, translateCompare, translateBitwise, translateLogical
  /// and translateWhere;
  bool elementwiseDirect(const DumpStmt &stmt, const OpDef &def, StringRef args,
                         BodyEnv &env, LogicalResult &result);
  /// `ops.constant(<literal>, torch.<dtype>)`;
  bool constantDirect(const DumpStmt &stmt, StringRef args, BodyEnv &env,
                      LogicalResult &result);
  /// `ops.store('<buffer>', <index>, <value>, None)` and
  /// `ops.store_reduction('<buffer>', <index>, <value>)`;
  bool storeDirect(const DumpStmt &stmt, const OpDef &def, StringRef args,
                   BodyEnv &env, LogicalResult &result);
  /// `ops.index_expr(<index>, torch.<dtype>)`.
  bool indexExprDirect(const DumpStmt &stmt, StringRef args, BodyEnv &env,
                       LogicalResult &result);
  /// The value of index `index` (written at `indexAt`) as `type`.
  FailureOr<Value> indexExpr(const DumpStmt &stmt, unsigned index,
                             const char *indexAt, Type type);
  /// The node's output handle of buffer `buf`, written at `at`.
  FailureOr<BlockArgument> outputHandle(StringRef buf, const char *at);
  /// The store of `value` to `handle` at index `index` (written at
  /// `indexAt`) of statement `stmt`.
  LogicalResult store(const DumpStmt &stmt, BlockArgument handle,
                      unsigned index, const char *indexAt, Value value,
                      StoreModeAttr mode);
  /// The ops of those rows' statement `stmt` (whose call starts at
  /// `callAt`) on its operands.
  FailureOr<Value> arithmetic(const DumpStmt &stmt, const char *callAt,
                              const OpDef &def, Value x, Value y);
  Value floatUnary(const DumpStmt &stmt, const OpDef &def, Value x);
  Value compare(const DumpStmt &stmt, const OpDef &def, Value x, Value y);
  FailureOr<Value> bitwise(const DumpStmt &stmt, const char *callAt,
                           const OpDef &def, Value x, Value y);
  Value logical(const DumpStmt &stmt, const OpDef &def, Value x, Value y);
  Value where(const DumpStmt &stmt, Value cond, Value a, Value b);
  FailureOr<Value> unary(const DumpStmt &stmt, const char *callAt,
                         const OpDef &def, Value x);
  /// `('buf0', get_index_1, ...)`: the buffer and the index values.
  LogicalResult bufferAndIndices(const PyValue *arg, BodyEnv &env,
                                 unsigned numIndices,
                                 SmallVectorImpl<Value> &out);
  /// Index `index` as a value of `type` (fusion.index_expr).
  FailureOr<Value> indexValue(unsigned index, const char *at, Type type,
                              Location l);
  /// A fusion.opaque named after the call, bound to `c.result`.
  OpaqueOp createOpaque(const OpCall &c, ValueRange operands, TypeRange results,
                        ArrayRef<NamedAttribute> attrs = {});
  /// Binds `values` to `result`: one value, or a tuple indexed by `x[i]`.
  void setResults(BodyValue &result, ValueRange values, bool tuple = false);
  FailureOr<Type> dtypeArg(const PyValue *arg);
  /// The dtype named `name` (`torch.float32`), written at `at`.
  FailureOr<Type> dtypeArg(StringRef name, const char *at);
  /// The error for a complex dtype (`type`) in a loop body, or for a load
  /// or store of the complex buffer `buffer` (empty for a dtype argument).
  InFlightDiagnostic complexInBody(const char *at, StringRef buffer, Type type);
  LogicalResult expectArgs(const PyValue &call, unsigned min, unsigned max,
                           ArrayRef<StringRef> keywords = {});

  // Typed arithmetic. Types here are torch dtypes as element types
  // (`ui8` for torch.uint8); the values built are signless, and the
  // importer remembers which integers are unsigned (docs/Importer.md).
  /// `v` converted to torch dtype `type` with PyTorch's C semantics.
  Value convert(Value v, Type type, Location l);
  Value constant(Type type, double value, Location l);
  FailureOr<Value> literal(const PyValue *v, Type type);
  FailureOr<Value> indexOperand(const PyValue *arg,
                                BodyEnv &env);
  /// The dtype a loop body computes a buffer element of type `elementType`
  /// in: the element type, except that a packed storage dtype
  /// (float4_e2m1fn_x2, bits*) is its bits, an unsigned integer of its
  /// width (Inductor's Triton code holds a float4_e2m1fn_x2 in a tl.uint8).
  static Type bodyDtypeOf(Type elementType);
  /// torch's type promotion of two dtypes.
  Type promote(Type a, Type b);
  Type floatTypeFor(Type t);
  /// The torch dtype of `v`: its type, or `ui<N>` for an unsigned integer.
  Type torchType(Value v) const;
  /// Records that `v` has torch dtype `type`; returns `v`.
  Value setTorchType(Value v, Type type);
  bool isUnsigned(Value v) const { return unsignedValues.contains(v); }

  /// The affine map and operands for index `index`.
  LogicalResult buildIndex(unsigned index, const char *at, AffineMap &map,
                           SmallVectorImpl<Value> &operands);
  /// The map and operands of `expr`, whose term symbols stand for `terms`.
  LogicalResult buildMap(AffineExpr expr, ArrayRef<IndexTerm> terms,
                         const char *at, AffineMap &map,
                         SmallVectorImpl<Value> &operands);

  // ImportIndexTerms.cpp: the non-affine parts of indices, computed in the
  // body (`index` for integer terms, f64 for float ones).
  FailureOr<Value> termValue(ArrayRef<IndexTerm> terms, unsigned t);
  FailureOr<Value> termOperand(ArrayRef<IndexTerm> terms,
                               const IndexOperand &operand, bool asFloat,
                               const char *at);

  GraphImporter &graph;
  const DumpNode &node;
  const DumpLoopBody &body;
  NodeOp op;
  BodyBuilder builder;
  // The names below are keys into the dump's text, held inline for the
  // few a body has (StringMap and StringSet would allocate each entry).
  llvm::SmallDenseMap<StringRef, const DumpBlock *, 4> blocks;
  /// The blocks being translated; nesting is bounded so that a hostile
  /// dump cannot exhaust the stack.
  llvm::SmallDenseSet<StringRef, 4> activeBlocks;
  /// The scans (`scan1`) whose combine function was translated.
  llvm::SmallDenseSet<StringRef, 4> usedCombineFns;
  static constexpr unsigned kMaxBlockNesting = 64;
  /// Indirect indices are symbols below this position while the indices
  /// are parsed; size symbol `i` is at `kSizeSymbolBase + i`.
  static constexpr unsigned kSizeSymbolBase = 1024;
  SmallVector<AffineExpr> indices;
  /// The index terms of each index.
  SmallVector<SmallVector<IndexTerm, 1>> indexTerms;
  /// buildIndex's map and operands of each index, once built, where the
  /// operands are loop variables only: nothing the body does changes them.
  SmallVector<std::pair<AffineMap, SmallVector<Value, 4>>> builtIndices;
  llvm::SmallDenseMap<StringRef, unsigned, 8, BodyNameInfo> indexNames;
  SmallVector<Value> indirect;
  unsigned numIndirect = 0;
  llvm::SmallDenseSet<StringRef, 8> depNames;
  /// The body's integer values that are unsigned (MLIR's integers are
  /// signless; the ops built on these use unsigned semantics).
  llvm::DenseSet<Value> unsignedValues;
  /// The statements' parsed values (the building thread's arena, emptied
  /// after each body).
  PyValueArena &values;
  const DumpLocator &locator;
  /// The statement being translated, and the location its ops carry (built
  /// from the line and column the parser recorded), once made; `file` is
  /// the dump's name, taken from the node's location.
  const DumpStmt *currentStmt = nullptr;
  LocationAttr currentStmtLoc;
  StringAttr file;
  /// The version of the graph's maps the body reads (BodySite).
  unsigned version;
  BodyPlaceholders *placeholders;
};

//===----------------------------------------------------------------------===//
// The operation table
//===----------------------------------------------------------------------===//

/// Builds an op on operands already converted to one type.
using OpBuilderFn = Value (*)(BodyBuilder &, Location, ValueRange);

/// One row of the operation table: `ops.<name>` of Inductor's OpsHandler.
struct OpDef {
  StringLiteral name;
  BodyImporter::Translator translate;
  /// For elementwise rows: the op on float operands and on integer ones
  /// (null where the row does not take that kind).
  OpBuilderFn buildFloat = nullptr;
  OpBuilderFn buildInt = nullptr;
  /// For rows kept by name (fusion.opaque): the number of value operands.
  unsigned arity = 0;
};

/// Python's modulus (the remainder takes the divisor's sign) of integers or
/// floats.
Value buildPythonMod(BodyBuilder &b, Location l, Value a, Value d);

/// OpsHandler operations a loop body prints in a form of their own
/// (ImportLoopBody.cpp): `masked` as `self.masked_subblock<k>(...)`, ...
struct LoopBodyForm {
  StringRef op;
  StringRef form;
};
ArrayRef<LoopBodyForm> getLoopBodyForms();

/// x xor 2^(N-1): maps the unsigned order of N-bit integers onto the
/// signed order (and back), so that the dialect's signed max, min, argmax,
/// argmin and sort order unsigned values.
Value flipSignBit(BodyBuilder &b, Location l, Value x);

/// The operation table, sorted by name.
ArrayRef<OpDef> getOpTable();

/// The row of `ops.<name>`, or null.
const OpDef *lookupOp(StringRef name);

} // namespace inductor
} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_IMPORTINDUCTORIMPL_H
