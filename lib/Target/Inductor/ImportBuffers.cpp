//===- ImportBuffers.cpp - Layouts, graph inputs, mutations ---------------===//
//
// Buffer names resolve to SSA values. A layout becomes a buffer type; the
// graph inputs are the buffers nodes refer to that no node writes. A node
// that mutates a buffer produces its new version, and later loop bodies,
// which keep naming the original storage, are redirected to the newest
// version as Inductor's `mutation_renames` does.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

/// A zero-dimensional tensor on the host: a graph input of this kind in a
/// GPU graph (a Python float that Dynamo passes as a tensor, as with
/// dynamic=True, or an optimizer's step count) is read by the device's
/// kernels as a value; the backend's runtime copies it to the device.
static bool isHostScalar(const DumpLayout &layout) {
  StringRef device = layout.device;
  return layout.kind == DumpLayout::Kind::Fixed && layout.size.empty() &&
         (device == "cpu" || device.starts_with("cpu:"));
}

FailureOr<Type> GraphImporter::bufferType(const DumpLayout &layout,
                                          bool graphInput) {
  bool hostScalar = graphInput && isHostScalar(layout);
  if (device.empty() && !hostScalar)
    device = layout.device;
  if (layout.device != device && !hostScalar)
    return error(layout.loc)
           << "buffer on device '" << layout.device << "' in a graph on '"
           << device << "': graphs spanning several devices are not supported";
  switch (layout.kind) {
  case DumpLayout::Kind::MultiOutput:
    return Type(MultiOutputType::get(ctx));
  case DumpLayout::Kind::None:
    // No storage: a buffer of zero elements, as NoneLayout's size=[0].
    return Type(BufferType::get(ctx, {0}, IntegerType::get(ctx, 8), {0}, 0));
  case DumpLayout::Kind::Fixed:
    break;
  }
  FailureOr<Type> element =
      convertDtype(layout.dtype, layout.dtypeLoc, locator);
  if (failed(element))
    return failure();
  auto isNegative = [](AffineExpr e) { return getStaticSize(e) < 0 &&
                                               getStaticSize(e) != kSymbolicSize; };
  if (llvm::any_of(layout.size, isNegative))
    return error(layout.loc) << "negative size in a layout";
  if (llvm::any_of(layout.stride, isNegative))
    return error(layout.loc) << "negative stride in a layout";
  AffineExpr offset =
      layout.offset ? layout.offset : getAffineConstantExpr(0, ctx);
  if (isNegative(offset))
    return error(layout.loc) << "negative offset in a layout";
  // Layouts repeat (every buffer of a shape has the same one): the type of
  // one is built once.
  SmallVector<const void *, 16> key = {element->getAsOpaquePointer(),
                                       offset.getAsOpaquePointer(),
                                       reinterpret_cast<const void *>(
                                           layout.size.size())};
  for (ArrayRef<AffineExpr> exprs : {ArrayRef(layout.size),
                                     ArrayRef(layout.stride)})
    for (AffineExpr e : exprs)
      key.push_back(e.getAsOpaquePointer());
  auto [cached, inserted] = layoutTypes.try_emplace(
      StringRef(reinterpret_cast<const char *>(key.data()),
                key.size() * sizeof(const void *)));
  if (!inserted)
    return cached->second;
  // Symbolic sizes in sympy's canonical form, so that equal sizes give
  // equal types.
  auto canonical = [](ArrayRef<AffineExpr> exprs) {
    return llvm::map_to_vector(exprs, canonicalizeIndexExpr);
  };
  SmallVector<AffineExpr> sizes = canonical(layout.size);
  SmallVector<AffineExpr> strides = canonical(layout.stride);
  // Contiguous strides as the dialect builds them: the canonical form
  // expands a product of sums (`4*(s53 + 4)**2`), the dialect's contiguous
  // strides keep the products of the sizes.
  SmallVector<AffineExpr> contiguous = getContiguousStrideExprs(sizes);
  if (strides == canonical(contiguous))
    strides = contiguous;
  cached->second =
      BufferType::get(sizes, *element, strides, canonicalizeIndexExpr(offset));
  return cached->second;
}

/// Calls `fn(name, location, unmet)` for every buffer name a node refers
/// to: loads in its body, its dependences (`unmet` for its unmet ones) and
/// the buffers it mutates.
static void
forEachReference(const DumpNode &node,
                 function_ref<void(StringRef, const char *, bool)> fn) {
  if (node.body)
    for (auto [name, at] : node.body->loads)
      fn(name, at, false);
  for (const DumpDepList *list : {&node.unmet, &node.met})
    for (const DumpDep &dep : list->deps)
      fn(dep.name, dep.loc(), list == &node.unmet);
  for (const DumpBuffer &buffer : node.outputs)
    for (auto &[name, at] : buffer.mutations)
      fn(name, at, false);
  for (const auto &member : node.members)
    forEachReference(*member, fn);
}

/// Calls `fn` on every `<name>_layout` line of the node and its members.
static void
forEachLayoutLine(const DumpNode &node,
                  function_ref<void(StringRef, const DumpLayout &)> fn) {
  for (auto &[name, layout] : node.layouts)
    fn(name, layout);
  for (const auto &member : node.members)
    forEachLayoutLine(*member, fn);
}

/// Frees the `<name>_layout` lines of the node and its members.
static void releaseLayoutLines(DumpNode &node) {
  node.layouts = {};
  for (const auto &member : node.members)
    releaseLayoutLines(*member);
}

/// True when two layouts describe the same storage (FixedLayout and
/// MutationLayoutSHOULDREMOVE print the same fields). Layouts of the same
/// text, as the parser knows them, are: their fields are not read (those
/// of a buffer produced far back in the dump are no longer in any cache).
static bool sameLayout(const DumpLayout &a, const DumpLayout &b) {
  if (a.firstText && a.firstText == b.firstText)
    return true;
  return a.kind == b.kind && a.device == b.device && a.dtype == b.dtype &&
         a.size == b.size && a.stride == b.stride && a.offset == b.offset;
}

/// Appends to `key` bytes whose order (memcmp's) is naturalLess's order of
/// the names: each run of digits becomes '0', the run's length and its
/// digits, so that a longer number sorts after a shorter one, numbers of one
/// length sort by their digits, and a number sorts against any other byte
/// as its digits would (no byte but a digit lies between '0' and '9').
/// False for a run of more than 255 digits, which one byte cannot count.
static bool appendNaturalKey(StringRef name, std::string &key) {
  for (size_t i = 0, e = name.size(); i < e;) {
    if (!llvm::isDigit(name[i])) {
      key.push_back(name[i++]);
      continue;
    }
    size_t end = i;
    while (end < e && llvm::isDigit(name[end]))
      ++end;
    if (end - i > 255)
      return false;
    key.push_back('0');
    key.push_back(static_cast<char>(end - i));
    key.append(name.data() + i, end - i);
    i = end;
  }
  return true;
}

void mlir::fusion::inductor::sortNatural(SmallVectorImpl<StringRef> &names) {
  std::string keys;
  SmallVector<size_t> ends;
  ends.reserve(names.size());
  for (StringRef name : names) {
    if (!appendNaturalKey(name, keys)) {
      llvm::sort(names, naturalLess);
      return;
    }
    ends.push_back(keys.size());
  }
  SmallVector<std::pair<StringRef, StringRef>> keyed;
  keyed.reserve(names.size());
  for (auto [i, name] : llvm::enumerate(names)) {
    size_t begin = i ? ends[i - 1] : 0;
    keyed.push_back({StringRef(keys).slice(begin, ends[i]), name});
  }
  // Keys are equal only for equal names, which are not repeated.
  llvm::sort(keyed, llvm::less_first());
  for (auto [i, entry] : llvm::enumerate(keyed))
    names[i] = entry.second;
}

const DumpLayout *GraphImporter::keepLayout(const DumpLayout &layout) {
  if (!layout.firstText)
    return new (layoutCopies.Allocate()) DumpLayout(layout);
  auto [it, inserted] = layoutsByText.try_emplace(layout.firstText, nullptr);
  if (inserted)
    it->second = new (layoutCopies.Allocate()) DumpLayout(layout);
  return it->second;
}

LogicalResult GraphImporter::noteInputs(const DumpNode &node) {
  // A graph input is a buffer the nodes refer to that no node produces.
  // Names point into the dump, which outlives the importer.
  size_t known = inputNames.size();
  forEachReference(node, [&](StringRef name, const char *at, bool unmet) {
    if (buffers.count(name))
      return;
    if (firstReference.try_emplace(name, name, at).second && onePass)
      inputNames.push_back(name);
    unmetOfUnwritten |= unmet;
  });
  // `<name>_layout` lines repeat what the dump says elsewhere about a
  // buffer; they must all agree, with the buffer's own layout line for
  // produced buffers, and with each other for graph inputs. Only the
  // inputs' first lines are kept aside: the produced buffers' layouts are
  // found through `buffers` (a copy of that table would hold every buffer
  // of the graph again).
  LogicalResult consistent = success();
  SmallVector<std::pair<StringRef, const DumpLayout *>> firstLines;
  forEachLayoutLine(node, [&](StringRef name, const DumpLayout &layout) {
    const DumpLayout *given;
    if (auto produced = buffers.find(name); produced != buffers.end()) {
      given = produced->second.layout;
    } else {
      auto [it, inserted] = inputLayouts.try_emplace(name, &layout);
      if (inserted) {
        if (onePass) {
          it->second = keepLayout(layout);
          firstLines.push_back({name, it->second});
        }
        return;
      }
      given = it->second;
    }
    if (failed(consistent) || sameLayout(*given, layout))
      return;
    InFlightDiagnostic diag = error(layout.loc)
                              << "layout of '" << name
                              << "' differs from its layout given before";
    diag.attachNote(loc(given->loc)) << "given here";
    consistent = failure();
  });
  if (failed(consistent) || !onePass)
    return consistent;

  // The one-pass import: an unmet dependence on a buffer no node has
  // written yet is refused by run() when no later node writes it either.
  if (unmetOfUnwritten)
    return failure();
  // An input typed from the FX graph before its first layout line: run()
  // types it from that line.
  for (auto [name, layout] : firstLines) {
    Value standIn = lookupValue(name);
    if (!standIn)
      continue;
    FailureOr<Type> type = inputType(name, layout->loc);
    if (failed(type) || *type != standIn.getType())
      return failure();
  }
  for (StringRef name : ArrayRef(inputNames).drop_front(known)) {
    FailureOr<Type> type =
        inputType(name, firstReference.lookup(name).second);
    if (failed(type))
      return failure();
    setValue(name, onePassGraph.getBodyBlock().addArgument(
                       *type, onePassGraph.getLoc()));
  }
  return success();
}

FailureOr<Type> GraphImporter::inputType(StringRef name, const char *at) {
  if (const DumpLayout *layout = inputLayouts.lookup(name)) {
    if (layout->kind != DumpLayout::Kind::Fixed)
      return error(layout->loc)
             << "graph input '" << name << "' must have a FixedLayout";
    return bufferType(*layout, /*graphInput=*/true);
  }
  auto ph = fx.find(name);
  if (ph == fx.end())
    return error(at)
           << "buffer '" << name
           << "' is never defined: no node of the dump writes it, and "
              "neither the dump nor an FX graph (fx_graph_readable.py) gives "
              "a layout for it as a graph input";
  DumpLayout layout;
  layout.loc = ph->second.loc;
  layout.dtype = fxDtypeName(ph->second.dtypeCode);
  layout.dtypeLoc = ph->second.loc;
  layout.device = device.empty() ? std::string("cuda:0") : device;
  layout.size = ph->second.sizes;
  if (ph->second.hasStrides)
    layout.stride = ph->second.strides;
  else
    layout.stride = getContiguousStrideExprs(layout.size);
  return bufferType(layout);
}

LogicalResult GraphImporter::collectInputs() {
  // One walk over the nodes, which frees each node's layout lines as it
  // leaves the node, while they are still in the caches (freed later, each
  // line would be read from memory again), unless one of them is an
  // input's first: those stay until the inputs' types are made.
  SmallVector<DumpNode *> keptLayouts;
  llvm::scope_exit releaseKept([&] {
    for (DumpNode *node : keptLayouts)
      releaseLayoutLines(*node);
  });
  for (const auto &node : dump.nodes) {
    size_t inputsBefore = inputLayouts.size();
    if (failed(noteInputs(*node)))
      return failure();
    if (keepParsed)
      continue;
    if (inputLayouts.size() == inputsBefore)
      releaseLayoutLines(*node);
    else
      keptLayouts.push_back(node.get());
  }

  for (auto &entry : firstReference)
    inputNames.push_back(entry.second.first);
  sortNatural(inputNames);
  for (StringRef name : inputNames) {
    FailureOr<Type> type =
        inputType(name, firstReference.lookup(name).second);
    if (failed(type))
      return failure();
    inputTypes.push_back(*type);
  }
  return success();
}

LogicalResult GraphImporter::finishInputs(GraphOp graph, Location fileLoc) {
  // A buffer taken for a graph input at its first reference or layout line
  // that a later node writes after all: run() decides what that is.
  for (const auto &entry : firstReference)
    if (buffers.count(entry.getKey()))
      return failure();
  for (const auto &entry : inputLayouts)
    if (buffers.count(entry.getKey()))
      return failure();
  Block &block = graph.getBodyBlock();
  unsigned numStandIns = block.getNumArguments();
  sortNatural(inputNames);
  SmallVector<OpOperand *> uses;
  for (StringRef name : inputNames) {
    Value standIn = lookupValue(name);
    BlockArgument arg = block.addArgument(standIn.getType(), fileLoc);
    // A use list holds the newest use first: moved oldest first, the uses
    // end in the order they were made, as on an argument made up front.
    uses.clear();
    for (OpOperand &use : standIn.getUses())
      uses.push_back(&use);
    for (OpOperand *use : llvm::reverse(uses))
      use->set(arg);
    setValue(name, arg);
    inputTypes.push_back(arg.getType());
  }
  block.eraseArguments(0, numStandIns);
  graph.setInputNamesAttr(builder.getStrArrayAttr(inputNames));
  return success();
}

StringRef GraphImporter::renameAt(StringRef name, unsigned version) const {
  // Each rename points to a buffer produced later, so the chain is finite;
  // the bound only guards against inconsistent input.
  for (unsigned steps = 0; steps <= mutationRenames.size(); ++steps) {
    const std::string *next = mutationRenames.findAt(name, version);
    if (!next)
      return name;
    name = *next;
  }
  return name;
}

void GraphImporter::recordMutation(StringRef mutated, StringRef newName) {
  std::string renamed = rename(mutated).str();
  mutationRenames.set(renamed, newName.str(), bodiesStarted);
  mutationRenames.set(mutated, newName.str(), bodiesStarted);
}

void GraphImporter::bindOutputs(const DumpNode &node, ValueRange results) {
  for (auto [buffer, result] : llvm::zip_equal(node.outputs, results)) {
    setValue(buffer.name, result);
    if (!buffer.mutations.empty())
      recordMutation(buffer.mutations.front().first, buffer.name);
  }
}

FailureOr<Value> GraphImporter::lookupBufferAt(StringRef name, const char *at,
                                               unsigned version,
                                               const DumpLocator &bodyLocator) {
  if (const Value *v = values.findAt(name, version); v && *v)
    return *v;
  auto error = [&](const char *at) { return bodyLocator.emitError(at); };
  if (auto produced = buffers.find(name); produced != buffers.end())
    return error(at) << "buffer '" << name
                     << "' is used before the node that writes it ("
                     << produced->second.node->name
                     << "); the dump must list nodes in a topological order";
  return error(at) << "buffer '" << name << "' is never defined";
}

LogicalResult
GraphImporter::buildResultTypes(const DumpNode &node,
                                SmallVectorImpl<Type> &types,
                                SmallVectorImpl<StringRef> &names) {
  for (const DumpBuffer &buffer : node.outputs) {
    FailureOr<Type> type = bufferType(buffer.layout);
    if (failed(type))
      return failure();
    types.push_back(*type);
    names.push_back(buffer.name);
  }
  return success();
}

FailureOr<SmallVector<int64_t>>
GraphImporter::tieMutations(const DumpNode &node,
                            SmallVectorImpl<Value> &operands,
                            MutableArrayRef<Type> types) {
  SmallVector<int64_t> tied;
  for (auto [i, buffer] : llvm::enumerate(node.outputs)) {
    if (buffer.mutations.empty()) {
      tied.push_back(-1);
      continue;
    }
    auto [name, at] = buffer.mutations.front();
    FailureOr<Value> old = lookupBuffer(rename(name), at);
    if (failed(old))
      return failure();
    if (buffer.layout.kind == DumpLayout::Kind::None)
      types[i] = old->getType();
    auto *it = llvm::find(operands, *old);
    if (it == operands.end()) {
      operands.push_back(*old);
      it = std::prev(operands.end());
    }
    tied.push_back(it - operands.begin());
  }
  return tied;
}
