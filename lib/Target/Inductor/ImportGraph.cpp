//===- ImportGraph.cpp - Graph-level assembly -----------------------------===//
//
// Walks the parsed dump in its order (a topological order of the nodes) and
// builds one op per scheduler node inside one fusion.graph: its inputs are
// the buffers no node writes, its outputs the buffers with an OUTPUT user.
// A large dump is built in one pass as it is parsed (runOnePass).
// docs/Importer.md explains every mapping decision.
//
//===----------------------------------------------------------------------===//

#include "CreateOp.h"
#include "ImportInductorImpl.h"

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

Location GraphImporter::nodeLoc(const DumpNode &node) {
  if (node.line && dumpFile) {
    // The locator is moved to the node all the same, as locating it would
    // (a body's thread starts from there: registerBody).
    locator.seek({dumpBufferId, node.loc, node.line});
    return FileLineColLoc::get(dumpFile, node.line, /*column=*/1);
  }
  Location l = loc(node.loc);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(l); fileLoc && node.line) {
    dumpFile = fileLoc.getFilename();
    dumpBufferId = locator.mark().id;
  }
  return l;
}

LogicalResult GraphImporter::indexNodes(const DumpNode &node) {
  unsigned index = nodesIndexed++;
  auto [it, inserted] = nodesByName.try_emplace(keepName(node.name), node.loc);
  if (!inserted) {
    InFlightDiagnostic diag = error(node.loc)
                              << "node '" << node.name << "' is defined twice";
    diag.attachNote(loc(it->second)) << "first defined here";
    return diag;
  }
  if (!node.members.empty()) {
    // A container lists its members' buffers as its outputs. Its members
    // are the nodes indexed after it so far.
    for (const auto &member : node.members)
      if (failed(indexNodes(*member)))
        return failure();
    for (const DumpBuffer &buffer : node.outputs) {
      auto produced = buffers.find(buffer.name);
      if (produced == buffers.end() || produced->second.nodeIndex <= index)
        return error(buffer.loc)
               << "'" << node.name << "' lists buffer '" << buffer.name
               << "', which none of its members writes";
    }
    return success();
  }
  for (const DumpBuffer &buffer : node.outputs) {
    auto [bit, binserted] = buffers.try_emplace(
        keepName(buffer.name),
        ProducedBuffer{&node,
                       onePass ? keepLayout(buffer.layout) : &buffer.layout,
                       buffer.loc, index});
    if (!binserted) {
      InFlightDiagnostic diag = error(buffer.loc) << "buffer '" << buffer.name
                                                  << "' is defined twice";
      diag.attachNote(loc(bit->second.loc)) << "first defined here";
      return diag;
    }
  }
  return success();
}

/// The number of nodes (containers and their members) in `node` and below,
/// and of the buffers they write (a container lists its members').
static void countNodes(const DumpNode &node, size_t &numNodes,
                       size_t &numBuffers) {
  ++numNodes;
  if (node.members.empty())
    numBuffers += node.outputs.size();
  for (const auto &member : node.members)
    countNodes(*member, numNodes, numBuffers);
}

OwningOpRef<ModuleOp> GraphImporter::run() {
  // The name tables are sized once: filled key by key, the ones of a
  // million-node graph would rehash about twenty times each, every time
  // into a fresh table.
  size_t numNodes = 0, numBuffers = 0;
  for (const auto &node : dump.nodes)
    countNodes(*node, numNodes, numBuffers);
  if (nodesByName.empty() && buffers.empty()) {
    nodesByName = decltype(nodesByName)(numNodes);
    buffers = decltype(buffers)(numBuffers);
  }
  for (const auto &node : dump.nodes)
    if (failed(indexNodes(*node)))
      return nullptr;
  // The device of the first produced buffer is the graph's device.
  for (const auto &node : dump.nodes)
    for (const DumpBuffer &buffer : node->outputs)
      if (device.empty())
        device = buffer.layout.device;
  if (failed(collectInputs()))
    return nullptr;
  values.reserve(inputNames.size() + numBuffers);
  // What a node no longer needs is freed as the import goes: the layout
  // lines once the inputs are known (collectInputs), the whole node once
  // its op is built (what the graph's outputs need of it is kept aside). A
  // large dump's parsed form then never lives beside all of its IR.

  Location fileLoc =
      loc(locator.getSourceMgr()
              .getMemoryBuffer(locator.getSourceMgr().getMainFileID())
              ->getBufferStart());
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  GraphOp graph = GraphOp::create(builder, fileLoc, options.graphName,
                                  inputTypes, inputNames, {}, device);
  for (auto [name, arg] :
       llvm::zip(inputNames, graph.getBodyBlock().getArguments()))
    setValue(name, arg);
  builder.setInsertionPointToEnd(&graph.getBodyBlock());
  llvm::StringSet<> aliasClassMembers;
  if (signatureOutputs)
    for (auto &node : dump.nodes)
      collectAliasClassMembers(*node, aliasClassMembers);
  // The buffers with an OUTPUT user, in dump order; a container lists its
  // members' buffers, so the top-level nodes cover all.
  SmallVector<std::pair<StringRef, const char *>> outputBuffers;
  if (shouldBuildBodiesInParallel()) {
    if (failed(buildNodesInParallel(graph.getBodyBlock(), outputBuffers)))
      return nullptr;
    builder.setInsertionPointToEnd(&graph.getBodyBlock());
  } else {
    for (auto &node : dump.nodes) {
      if (failed(buildNode(*node)))
        return nullptr;
      collectOutputBuffers(*node, outputBuffers);
      // Later nodes look built buffers up by name only (`buffers` keeps its
      // keys; its pointers are followed for buffers not yet built).
      if (!keepParsed)
        node.reset();
    }
  }
  if (failed(finishGraph(graph, fileLoc, aliasClassMembers, outputBuffers)))
    return nullptr;
  return module;
}

/// Nodes the one-pass import reads before it builds them: their parsed
/// form (tens of KB a node at most) stays in the L2 cache.
static constexpr size_t kOnePassWindow = 32;

OwningOpRef<ModuleOp> GraphImporter::runOnePass(DumpNodeStream &stream,
                                                size_t maxNodes) {
  onePass = true;
  Location fileLoc =
      loc(locator.getSourceMgr()
              .getMemoryBuffer(locator.getSourceMgr().getMainFileID())
              ->getBufferStart());
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  // The name tables are sized once, for a node every kilobyte of dump
  // (Inductor prints 1.4 to 2.1 KB a node; more nodes only rehash).
  size_t expected = locator.getSourceMgr()
                        .getMemoryBuffer(locator.getSourceMgr().getMainFileID())
                        ->getBufferSize() /
                    1024;
  nodesByName = decltype(nodesByName)(expected);
  buffers = decltype(buffers)(expected);
  values.reserve(expected);
  llvm::StringSet<> aliasClassMembers;
  SmallVector<std::pair<StringRef, const char *>> outputBuffers;
  // Size symbols are numbered by the parse of the whole dump first, then
  // the FX graph, the buffer views and the loop bodies: in one pass, the
  // order would differ.
  auto hasSymbols = [&] { return !dump.symbols.getNames().empty(); };
  if (hasSymbols() || failed(stream.start()))
    return nullptr;
  // The nodes are read and built a window at a time: the window's parsed
  // form stays in the caches until its ops are built and verified, and
  // the code of each step (parse, build, verify) until the window's last
  // node has gone through it, which node by node it would not (the three
  // do not fit in the instruction cache together).
  std::vector<std::unique_ptr<DumpNode>> window;
  SmallVector<NodeOp> built;
  size_t numNodes = 0;
  for (bool more = true; more;) {
    window.clear();
    while (window.size() < kOnePassWindow) {
      std::unique_ptr<DumpNode> node;
      if (failed(stream.next(node)))
        return nullptr;
      if (!node) {
        more = false;
        break;
      }
      window.push_back(std::move(node));
    }
    if (hasSymbols())
      return nullptr;
    built.clear();
    for (const auto &node : window) {
      if (++numNodes >= maxNodes || failed(indexNodes(*node)))
        return nullptr;
      // The device of the first produced buffer is the graph's device, and
      // the graph is made at the first node that names one.
      for (const DumpBuffer &buffer : node->outputs)
        if (device.empty())
          device = buffer.layout.device;
      if (device.empty())
        return nullptr;
      if (!onePassGraph) {
        builder.setInsertionPointToEnd(module->getBody());
        onePassGraph = GraphOp::create(builder, fileLoc, options.graphName,
                                       {}, {}, {}, device);
        onePassWalk.emplace(onePassGraph);
        builder.setInsertionPointToEnd(&onePassGraph.getBodyBlock());
      }
      if (failed(noteInputs(*node)))
        return nullptr;
      if (signatureOutputs)
        collectAliasClassMembers(*node, aliasClassMembers);
      if (failed(buildNode(*node)))
        return nullptr;
      if (auto op = dyn_cast<NodeOp>(onePassGraph.getBodyBlock().back()))
        built.push_back(op);
      collectOutputBuffers(*node, outputBuffers);
    }
    if (hasSymbols())
      return nullptr;
    // A fusion.node is verified while its body is in the caches; the other
    // ops with the graph (importInductorDump).
    for (NodeOp op : built)
      if (failed(verifyImportedOp(*op)))
        return nullptr;
    // So is the graph verifier's walk over the window's ops (its total
    // bytes and size symbols), which at the end would find them cold.
    if (onePassGraph)
      onePassWalk->visitNewOps();
  }
  if (failed(finishInputs(onePassGraph, fileLoc)) ||
      failed(finishGraph(onePassGraph, fileLoc, aliasClassMembers,
                         outputBuffers)))
    return nullptr;
  return module;
}

void GraphImporter::collectAliasClassMembers(const DumpNode &node,
                                             llvm::StringSet<> &members) {
  // Buffers that alias another or that another aliases (an extern's view
  // and its source, a nop and its inputs): Inductor gives each such class
  // one list of users (Scheduler.compute_dependencies), so all of it lists
  // the OUTPUT user of any member the graph returns.
  for (const DumpBuffer &buffer : node.outputs)
    for (auto [alias, at] : buffer.aliases) {
      members.insert(alias);
      members.insert(buffer.name);
    }
}

LogicalResult GraphImporter::finishGraph(
    GraphOp graph, Location fileLoc, const llvm::StringSet<> &aliasClassMembers,
    ArrayRef<std::pair<StringRef, const char *>> outputBuffers) {
  builder.setInsertionPointToEnd(&graph.getBodyBlock());
  // Graph outputs: buffers with an OUTPUT user, except the final version of
  // a mutated graph input, which the dependence analysis keeps alive itself.
  llvm::DenseSet<Value> implicitOutputs;
  for (StringRef input : inputNames)
    if (mutationRenames.find(input))
      implicitOutputs.insert(lookupValue(rename(input)));
  // With the signature, a member of an alias class is an output only when
  // the graph returns it (Inductor's get_output_names, whose OUTPUT user
  // went to the newest version of the name: rename()). A returned view's
  // source is not: Inductor only keeps it from being freed
  // (SchedulerBuffer.can_free), as the plan keeps a view's storages.
  llvm::StringSet<> returned;
  if (signatureOutputs)
    for (const auto &entry : *signatureOutputs)
      returned.insert(rename(entry.getKey()));
  SmallVector<Value> outputs;
  SmallVector<Type> outputTypes;
  for (auto [name, at] : outputBuffers) {
    if (aliasClassMembers.contains(name) && !returned.contains(name))
      continue;
    Value value = lookupValue(name);
    if (implicitOutputs.contains(value))
      continue;
    if (!isa<BufferType>(value.getType())) {
      return error(at) << "graph output '" << name
                       << "' must be a buffer, not a multi-output tuple";
    }
    outputs.push_back(value);
    outputTypes.push_back(value.getType());
  }
  OutputOp::create(builder, fileLoc, outputs);
  if (ArrayRef<std::string> symbols = dump.symbols.getNames();
      !symbols.empty()) {
    SmallVector<int64_t> hints;
    SmallVector<StringRef> names;
    for (const std::string &name : symbols) {
      auto it = sizeHints.find(name);
      hints.push_back(it == sizeHints.end() ? kSymbolicSize : it->second);
      names.push_back(name);
    }
    graph.setSymbolHints(hints);
    graph.setSymbolNamesAttr(builder.getStrArrayAttr(names));
  }
  graph.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(ctx, inputTypes, outputTypes)));
  return success();
}

void GraphImporter::collectOutputBuffers(
    const DumpNode &node,
    SmallVectorImpl<std::pair<StringRef, const char *>> &outputBuffers) {
  for (const DumpBuffer &buffer : node.outputs) {
    // Inductor gives buffers that alias each other one list of users
    // (Scheduler.compute_dependencies), so the tuple of an extern that
    // returns a view of a graph output lists OUTPUT too; its element
    // (a MultiOutput) is the buffer the graph returns.
    if (!buffer.aliases.empty() &&
        buffer.layout.kind == DumpLayout::Kind::MultiOutput)
      continue;
    // Likewise a concatenation's input has the OUTPUT user of the
    // concatenation, which is the graph's output (a view of it when the
    // program returns the input itself).
    if (concatInputOf.count(buffer.name))
      continue;
    if (llvm::any_of(buffer.users,
                     [](const DumpUser &u) { return u.isOutput(); }))
      outputBuffers.push_back({buffer.name, buffer.loc});
  }
}

LogicalResult GraphImporter::recordConcatInput(const DumpNode &node,
                                               const DumpBuffer &buffer) {
  auto [alias, at] = buffer.aliases.front();
  // A NonOwningLayout buffer: Inductor's ConcatKernel computes its inputs
  // into parts of its own buffer, which a later nop produces from them
  // (still parsed: not built yet).
  auto produced = buffers.find(alias);
  const DumpNode *concat =
      produced != buffers.end() && produced->second.nodeIndex >= nodesBuilt
          ? produced->second.node
          : nullptr;
  bool isPart =
      buffer.aliases.size() == 1 && node.kind == DumpNode::Kind::Scheduler &&
      node.body && concat && concat->kind == DumpNode::Kind::Nop &&
      llvm::any_of(concat->unmet.deps,
                   [&](const DumpDep &dep) { return dep.name == buffer.name; });
  if (!isPart)
    return error(at) << "buffer '" << buffer.name << "' aliases '" << alias
                     << "'; only the inputs a concatenation "
                        "(NopKernelSchedulerNode) reads may alias its "
                        "result, and only NopKernelSchedulerNode and "
                        "ExternKernelSchedulerNode results their inputs";
  concatInputOf[buffer.name] = alias;
  return success();
}

LogicalResult GraphImporter::buildNode(const DumpNode &node) {
  ++nodesBuilt;
  for (const DumpBuffer &buffer : node.outputs) {
    // An extern may return a view of its input (a FallbackKernel of an
    // ATen view op: view_as_complex, view_as_real, view.dtype, _conj). It
    // stays an extern: the runtime calls the op and adopts the view it
    // returns, and keeps the viewed storage alive as long as the view
    // (plan.py, from the dump's `aliases`). A computed buffer may alias
    // only the concatenation it is an input of.
    if (!buffer.aliases.empty() && node.kind != DumpNode::Kind::Nop &&
        node.kind != DumpNode::Kind::Extern &&
        failed(recordConcatInput(node, buffer)))
      return failure();
    if (buffer.mutations.size() > 1)
      return error(buffer.mutations[1].second)
             << "a buffer mutates at most one buffer (Inductor asserts it)";
    // The dialect does not know that such a view shares its source's
    // memory, so it would not order the view's readers before an in-place
    // update of the source (Inductor does, through their shared user
    // list): refused rather than scheduled wrong.
    if (!buffer.mutations.empty() &&
        externViews.contains(buffer.mutations.front().first))
      return error(buffer.mutations.front().second)
             << "'" << buffer.name << "' updates '"
             << buffer.mutations.front().first
             << "' in place, whose memory a view returned by an extern "
                "shares; the fusion dialect does not order the view's "
                "readers before the update";
    if (!buffer.aliases.empty() && node.kind == DumpNode::Kind::Extern) {
      externViews.insert(buffer.name);
      for (auto &[alias, at] : buffer.aliases)
        externViews.insert(alias);
    }
  }
  // Unmet dependences name buffers that nodes produce, met ones graph
  // inputs; a name that is neither is a reference to nothing. Looked up
  // again only when collectInputs has seen such a name.
  if (unmetOfUnwritten)
    for (const DumpDep &dep : node.unmet.deps)
      if (!buffers.count(dep.name))
        return error(dep.loc()) << "unmet dependence on buffer '" << dep.name
                                << "', which no node of the dump writes";
  switch (node.kind) {
  case DumpNode::Kind::Scheduler:
    // A template (TritonTemplateBuffer, CUDATemplateBuffer, ...) has no
    // loop body: its kernel is generated from a template. It is scheduled
    // as an extern that reads and writes whole buffers.
    if (!node.body && node.innerClasses != "ComputedBuffer")
      return buildExternOrNop(node);
    return buildSchedulerNode(node);
  case DumpNode::Kind::Extern:
  case DumpNode::Kind::Nop:
    return buildExternOrNop(node);
  case DumpNode::Kind::Fused:
  case DumpNode::Kind::Foreach:
  case DumpNode::Kind::Grouped:
    return buildContainer(node);
  }
  llvm_unreachable("unknown node kind");
}

/// Whether `sizes` and `numel` are constants, `numel` their product, in
/// int64: what multiplying and canonicalizing them as AffineExprs would
/// find (a product that leaves int64 is left to those).
static bool isStaticProduct(ArrayRef<AffineExpr> sizes, AffineExpr numel) {
  auto expected = dyn_cast<AffineConstantExpr>(numel);
  if (!expected)
    return false;
  int64_t product = 1;
  for (AffineExpr size : sizes) {
    auto c = dyn_cast<AffineConstantExpr>(size);
    if (!c || llvm::MulOverflow(product, c.getValue(), product))
      return false;
  }
  return product == expected.getValue();
}

LogicalResult GraphImporter::buildSchedulerNode(const DumpNode &node) {
  if (!node.body)
    return error(node.loc) << "SchedulerNode '" << node.name
                           << "' has no loop body ('class " << node.name
                           << "_loop_body:')";
  if (node.outputs.empty())
    return error(node.loc) << "SchedulerNode '" << node.name
                           << "' has no output buffer";
  if (!node.groupDevice.empty() && node.groupDevice != device)
    return error(node.groupDeviceLoc) << "node on device '" << node.groupDevice
                                      << "' in a graph on '" << device << "'";
  // Static sizes (nearly every node's) are multiplied as integers: as
  // AffineExprs each product would be uniqued in the context.
  if (!isStaticProduct(node.ranges, node.numel) ||
      !isStaticProduct(node.reductionRanges, node.reductionNumel)) {
    AffineExpr numel = getAffineConstantExpr(1, ctx);
    AffineExpr rnumel = numel;
    for (AffineExpr s : node.ranges)
      numel = numel * s;
    for (AffineExpr s : node.reductionRanges)
      rnumel = rnumel * s;
    numel = canonicalizeIndexExpr(numel);
    rnumel = canonicalizeIndexExpr(rnumel);
    if (numel != canonicalizeIndexExpr(node.numel) ||
        rnumel != canonicalizeIndexExpr(node.reductionNumel))
      return error(node.iterationLoc)
             << "group.iteration (" << sizeExprToString(node.numel) << ", "
             << sizeExprToString(node.reductionNumel)
             << ") does not match the sizes, which give ("
             << sizeExprToString(numel) << ", " << sizeExprToString(rnumel)
             << ")";
  }

  SmallVector<Type> types;
  SmallVector<StringRef> names;
  if (failed(buildResultTypes(node, types, names)))
    return failure();
  for (auto [buffer, type] : llvm::zip(node.outputs, types))
    if (!isa<BufferType>(type))
      return error(buffer.layout.loc)
             << "the output of a SchedulerNode needs a FixedLayout";
  SmallVector<Value> mutated;
  FailureOr<SmallVector<int64_t>> tied = tieMutations(node, mutated, types);
  if (failed(tied))
    return failure();
  SmallVector<AffineExpr> loopSizes;
  for (AffineExpr s : node.ranges)
    loopSizes.push_back(canonicalizeIndexExpr(s));
  for (AffineExpr s : node.reductionRanges)
    loopSizes.push_back(canonicalizeIndexExpr(s));
  auto staticSizes = [](ArrayRef<AffineExpr> exprs) {
    return llvm::map_to_vector(exprs,
                               [](AffineExpr e) { return getStaticSize(e); });
  };
  if (tied->empty())
    tied->assign(types.size(), -1); // No result overwrites an operand.
  NodeOp op = createOp<NodeOp>(
      builder, nodeLoc(node), builder.getStringAttr(node.name),
      i64ArrayAttr(
          staticSizes(ArrayRef(loopSizes).take_front(node.ranges.size()))),
      i64ArrayAttr(
          staticSizes(ArrayRef(loopSizes).drop_front(node.ranges.size()))),
      ArrayRef<Type>(types), builder.getStrArrayAttr(names),
      ValueRange(mutated), i64ArrayAttr(*tied));
  // The builder has set the static sizes; symbolic ones need the map too.
  if (llvm::any_of(loopSizes,
                   [](AffineExpr e) { return getStaticSize(e) == kSymbolicSize; }))
    op.setLoopSizeExprs(loopSizes, node.ranges.size());
  unsigned version = bodiesStarted++;
  if (deferBodies) {
    // Built later with the other bodies of the run (ParallelBodies.cpp).
    registerBody(node, op, version);
  } else {
    LogicalResult built =
        BodyImporter(*this, node, op, {locator, bodyValues, version}).run();
    bodyValues.DestroyAll();
    if (failed(built))
      return failure();
  }
  bindOutputs(node, op->getResults());
  return success();
}

LogicalResult GraphImporter::buildContainer(const DumpNode &node) {
  SmallVector<Type> types;
  for (const auto &member : node.members)
    for (const DumpBuffer &buffer : member->outputs) {
      FailureOr<Type> type = bufferType(buffer.layout);
      if (failed(type))
        return failure();
      types.push_back(*type);
    }
  Operation *container;
  Location l = nodeLoc(node);
  switch (node.kind) {
  case DumpNode::Kind::Fused:
    container = FusedOp::create(builder, l, types);
    break;
  case DumpNode::Kind::Foreach:
    container = ForeachOp::create(builder, l, types);
    break;
  default:
    container = GroupOp::create(builder, l, types);
    break;
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&container->getRegion(0).front());
  SmallVector<std::pair<StringRef, Value>> yielded;
  for (const auto &member : node.members) {
    if (failed(buildNode(*member)))
      return failure();
    for (const DumpBuffer &buffer : member->outputs)
      yielded.push_back({buffer.name, lookupValue(buffer.name)});
  }
  SmallVector<Value> yieldValues;
  for (auto &[name, value] : yielded)
    yieldValues.push_back(value);
  YieldOp::create(builder, l, yieldValues);
  // Outside the container, its results stand for the members' buffers.
  for (auto [entry, result] : llvm::zip(yielded, container->getResults()))
    setValue(entry.first, result);
  return success();
}

/// Op<ConcreteOp, Traits...>::verifyRegionInvariants without the
/// IsolatedFromAbove trait's walk: the region verifiers of the other traits,
/// in their order, then the op's own.
template <typename ConcreteOp, template <typename T> class... Traits>
static LogicalResult verifyRegionsButIsolation(Operation *op,
                                               Op<ConcreteOp, Traits...> *,
                                               GraphOpsWalk *walk) {
  auto verifyTrait = [op](auto *trait) {
    using Trait = std::remove_pointer_t<decltype(trait)>;
    if constexpr (std::is_same_v<Trait,
                                 OpTrait::IsIsolatedFromAbove<ConcreteOp>>)
      return true;
    else
      return succeeded(op_definition_impl::verifyRegionTrait<Trait>(op));
  };
  if (!(verifyTrait(static_cast<Traits<ConcreteOp> *>(nullptr)) && ...))
    return failure();
  if (walk)
    return verifyGraphRegions(cast<ConcreteOp>(op), *walk);
  return cast<ConcreteOp>(op).verifyRegions();
}

// What MLIR's verifier checks that the import holds by construction:
//
// - Dominance inside a node's body. A body refers to the results of its
//   earlier statements (translated in order, each into its block's end, a
//   masked subblock's into its region), its block's parameters, its node's
//   block arguments and graph values; MLIR checks only the first kind (a
//   graph value is defined in the graph's region, a graph region, where
//   every op dominates), which hold by construction, for a DominanceInfo a
//   node and a `properlyDominates` an operand (3 to 6% of the import). The
//   graph's own verifier orders the nodes (acyclicity).
// - IsolatedFromAbove of the graph: the module holds the graph alone, so no
//   value its ops use is defined outside it; MLIR walks every op of the
//   graph and each operand to check it (1 to 2% of the import).
//
// Both are left to the verifiers that read the IR back (the import fuzzer,
// scheduler-opt). Everything else runs as verify(&op, false) runs it, in its
// order, with its diagnostics.
LogicalResult mlir::fusion::inductor::verifyImportedOp(Operation &op,
                                                      GraphOpsWalk *walk) {
  if (!isa<NodeOp, GraphOp>(op))
    return verify(&op, /*verifyRecursively=*/false);
  // MLIR's OperationVerifier on an op, in its order, without recursion.
  for (Value operand : op.getOperands())
    if (!operand)
      return op.emitError("null operand found");
  for (NamedAttribute attr : op.getDiscardableAttrDictionary())
    if (Dialect *dialect = attr.getNameDialect())
      if (failed(dialect->verifyOperationAttribute(&op, attr)))
        return failure();
  RegisteredOperationName name = *op.getRegisteredInfo();
  if (failed(name.verifyInvariants(&op)))
    return failure();
  auto kindInterface = dyn_cast<RegionKindInterface>(&op);
  for (auto [i, region] : llvm::enumerate(op.getRegions())) {
    RegionKind kind =
        kindInterface ? kindInterface.getRegionKind(i) : RegionKind::SSACFG;
    if (kind == RegionKind::Graph && !region.empty() && !region.hasOneBlock())
      return op.emitOpError("expects graph region #")
             << i << " to have 0 or 1 blocks";
    if (!region.empty() && !region.front().hasNoPredecessors())
      return emitError(op.getLoc(),
                       "entry block of region may not have predecessors");
  }
  if (isa<NodeOp>(op))
    return name.verifyRegionInvariants(&op);
  return verifyRegionsButIsolation(&op, static_cast<GraphOp *>(nullptr), walk);
}
