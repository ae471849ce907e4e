//===- ImportInductor.cpp - Build a fusion.graph from an Inductor dump ----===//
//
// Walks the parsed dump in its order (a topological order of the nodes) and
// builds one op per scheduler node. Buffer names resolve to SSA values;
// a node that mutates a buffer produces its new version, and later loop
// bodies, which keep naming the original storage, are redirected to the
// newest version as Inductor's `mutation_renames` does. docs/Importer.md
// explains every mapping decision.
//
//===----------------------------------------------------------------------===//

#include "fusion/Target/Inductor/ImportInductor.h"

#include "ImportInductorImpl.h"
#include "IndexExpr.h"
#include "InductorDump.h"

#include "fusion/Dialect/Fusion/IR/FusionDialect.h"
#include "fusion/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

//===----------------------------------------------------------------------===//
// Names and types
//===----------------------------------------------------------------------===//

bool mlir::fusion::inductor::naturalLess(StringRef a, StringRef b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (llvm::isDigit(a[i]) && llvm::isDigit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && llvm::isDigit(a[ie]))
        ++ie;
      while (je < b.size() && llvm::isDigit(b[je]))
        ++je;
      StringRef na = a.slice(i, ie).ltrim('0'), nb = b.slice(j, je).ltrim('0');
      if (na.size() != nb.size())
        return na.size() < nb.size();
      if (int c = na.compare(nb))
        return c < 0;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j])
      return a[i] < b[j];
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j)
    return a.size() - i < b.size() - j;
  return a < b;
}

FailureOr<Type>
mlir::fusion::inductor::convertDtype(StringRef dtype, const char *loc,
                                     const DumpLocator &locator) {
  MLIRContext *ctx = locator.getContext();
  StringRef name = dtype;
  name.consume_front("torch.");
  Type type = llvm::StringSwitch<Type>(name)
                  .Case("float32", Float32Type::get(ctx))
                  .Case("float", Float32Type::get(ctx))
                  .Case("float16", Float16Type::get(ctx))
                  .Case("half", Float16Type::get(ctx))
                  .Case("bfloat16", BFloat16Type::get(ctx))
                  .Case("float64", Float64Type::get(ctx))
                  .Case("double", Float64Type::get(ctx))
                  .Case("bool", IntegerType::get(ctx, 1))
                  .Case("int8", IntegerType::get(ctx, 8))
                  .Case("int16", IntegerType::get(ctx, 16))
                  .Case("int32", IntegerType::get(ctx, 32))
                  .Case("int64", IntegerType::get(ctx, 64))
                  .Case("long", IntegerType::get(ctx, 64))
                  .Default(Type());
  if (type)
    return type;
  if (name == "uint8" || name == "uint16" || name == "uint32" ||
      name == "uint64")
    return locator.emitError(loc)
           << "unsupported dtype '" << dtype
           << "': the fusion dialect's integers are signless and the importer "
              "treats them as signed, so unsigned dtypes would change meaning "
              "(see docs/Importer.md)";
  return locator.emitError(loc)
         << "unsupported dtype '" << dtype
         << "' (expected torch.float32, float16, bfloat16, float64, bool, "
            "int8, int16, int32 or int64)";
}

//===----------------------------------------------------------------------===//
// fx_graph_readable.py
//===----------------------------------------------------------------------===//

/// Reads the placeholders of `def forward(self, name: "f32[4, 128]", ...)`.
/// Non-tensor placeholders (`Sym(s0)`) are skipped.
static LogicalResult
readFxPlaceholders(unsigned bufferId, const DumpLocator &locator,
                   llvm::StringMap<FxPlaceholder> &placeholders) {
  StringRef text =
      locator.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  size_t def = text.find("def forward(self");
  if (def == StringRef::npos)
    return locator.emitError(text.data())
           << "expected 'def forward(self, ...)' in the FX graph";
  StringRef rest = text.drop_front(def + strlen("def forward(self"));
  while (true) {
    rest = rest.ltrim(" \t\r\n");
    if (rest.consume_front(")"))
      return success();
    if (!rest.consume_front(","))
      return locator.emitError(rest.data())
             << "expected ',' or ')' in the parameters of forward()";
    rest = rest.ltrim(" \t\r\n");
    if (rest.starts_with(")")) {
      rest = rest.drop_front();
      return success();
    }
    StringRef name =
        rest.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
    if (name.empty())
      return locator.emitError(rest.data()) << "expected a parameter name";
    rest = rest.drop_front(name.size()).ltrim(' ');
    if (!rest.consume_front(":"))
      continue; // An unannotated parameter: nothing to learn from it.
    rest = rest.ltrim(' ');
    if (!rest.consume_front("\""))
      return locator.emitError(rest.data())
             << "expected a quoted annotation for '" << name << "'";
    size_t close = rest.find('"');
    if (close == StringRef::npos)
      return locator.emitError(rest.data()) << "unterminated annotation";
    StringRef annotation = rest.take_front(close);
    rest = rest.drop_front(close + 1);

    // `f32[4, 128]`, optionally followed by `[128, 1]` strides and a device.
    size_t open = annotation.find('[');
    if (open == StringRef::npos)
      continue;
    FxPlaceholder ph;
    ph.loc = annotation.data();
    ph.dtypeCode = annotation.take_front(open);
    auto readList = [&](StringRef &s, SmallVectorImpl<int64_t> &out) {
      if (!s.consume_front("["))
        return false;
      size_t end = s.find(']');
      if (end == StringRef::npos)
        return false;
      SmallVector<StringRef> items;
      s.take_front(end).split(items, ',', -1, /*KeepEmpty=*/false);
      for (StringRef item : items) {
        int64_t v;
        if (item.trim().getAsInteger(10, v))
          return false;
        out.push_back(v);
      }
      s = s.drop_front(end + 1);
      return true;
    };
    StringRef dims = annotation.drop_front(open);
    if (!readList(dims, ph.sizes))
      continue; // Symbolic shapes: not usable as a layout.
    if (dims.starts_with("[") && readList(dims, ph.strides))
      ph.hasStrides = ph.strides.size() == ph.sizes.size();
    placeholders.try_emplace(name, std::move(ph));
  }
}

/// Maps the dtype codes of FX annotations to torch dtype names.
static StringRef fxDtypeName(StringRef code) {
  return llvm::StringSwitch<StringRef>(code)
      .Case("f32", "torch.float32")
      .Case("f16", "torch.float16")
      .Case("bf16", "torch.bfloat16")
      .Case("f64", "torch.float64")
      .Case("b8", "torch.bool")
      .Case("i8", "torch.int8")
      .Case("i16", "torch.int16")
      .Case("i32", "torch.int32")
      .Case("i64", "torch.int64")
      .Case("u8", "torch.uint8")
      .Default(code);
}

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

namespace {
/// A value of a loop body: an SSA value, the results of a multi-result
/// reduction, a reference to an index expression, or nothing (stores).
struct BodyValue {
  enum Kind { Nothing, Scalar, Tuple, Index } kind = Nothing;
  Value value;
  SmallVector<Value, 3> tuple;
  unsigned index = 0;
};

class GraphImporter;

/// Translates the loop body of one SchedulerNode into a fusion.node body.
class BodyImporter {
public:
  BodyImporter(GraphImporter &graph, const DumpNode &node, NodeOp op);
  LogicalResult run();

private:
  InFlightDiagnostic error(const char *at);
  Location loc(const char *at);

  LogicalResult parseIndices();
  /// Translates `block`; sets `result` to the returned value.
  LogicalResult translateBlock(const DumpBlock &block, BodyValue &result);
  LogicalResult translateStmt(const DumpStmt &stmt,
                              llvm::StringMap<BodyValue> &env,
                              BodyValue &result);
  LogicalResult translateCall(const DumpStmt &stmt, const PyValue &call,
                              llvm::StringMap<BodyValue> &env,
                              BodyValue &result);
  LogicalResult translateOp(const DumpStmt &stmt, StringRef op,
                            const PyValue &call,
                            llvm::StringMap<BodyValue> &env, BodyValue &result);
  LogicalResult translateReduction(const DumpStmt &stmt, const PyValue &call,
                                   llvm::StringMap<BodyValue> &env,
                                   BodyValue &result);
  LogicalResult translateElementwise(const DumpStmt &stmt, StringRef name,
                                     const PyValue &call,
                                     llvm::StringMap<BodyValue> &env,
                                     BodyValue &result);
  LogicalResult translateMasked(const DumpStmt &stmt, const DumpBlock &block,
                                const PyValue &call,
                                llvm::StringMap<BodyValue> &env,
                                BodyValue &result);

  // Operands.
  FailureOr<Value> scalar(const PyValue *arg, llvm::StringMap<BodyValue> &env);
  FailureOr<unsigned> indexRef(const PyValue *arg,
                               llvm::StringMap<BodyValue> &env);
  FailureOr<StringRef> stringArg(const PyValue *arg, StringRef what);
  FailureOr<Type> dtypeArg(const PyValue *arg);
  LogicalResult expectArgs(const PyValue &call, unsigned min, unsigned max,
                           ArrayRef<StringRef> keywords = {});

  // Typed arithmetic.
  Value convert(Value v, Type type, Location l);
  Value constant(Type type, double value, Location l);
  FailureOr<Value> literal(const PyValue *v, Type type);
  Type promote(Type a, Type b);
  Type floatTypeFor(Type t);

  /// The affine map and operands for index `index`.
  LogicalResult buildIndex(unsigned index, const char *at, AffineMap &map,
                           SmallVectorImpl<Value> &operands);

  GraphImporter &graph;
  const DumpNode &node;
  const DumpLoopBody &body;
  NodeOp op;
  OpBuilder builder;
  llvm::StringMap<const DumpBlock *> blocks;
  /// The blocks being translated; nesting is bounded so that a hostile
  /// dump cannot exhaust the stack.
  llvm::StringSet<> activeBlocks;
  static constexpr unsigned kMaxBlockNesting = 64;
  SmallVector<AffineExpr> indices;
  llvm::StringMap<unsigned> indexNames;
  SmallVector<Value> indirect;
  unsigned numIndirect = 0;
  llvm::StringSet<> depNames;
};

class GraphImporter {
public:
  GraphImporter(InductorDump &dump, const DumpLocator &locator,
                const InductorImportOptions &options,
                const llvm::StringMap<FxPlaceholder> &fx)
      : dump(dump), locator(locator), options(options), fx(fx),
        ctx(locator.getContext()), builder(ctx) {}

  OwningOpRef<ModuleOp> run();

private:
  friend class BodyImporter;

  InFlightDiagnostic error(const char *at) { return locator.emitError(at); }
  Location loc(const char *at) { return locator.get(at); }

  LogicalResult indexNodes(const DumpNode &node);
  LogicalResult collectInputs();
  FailureOr<Type> bufferType(const DumpLayout &layout);
  LogicalResult buildNode(const DumpNode &node);
  LogicalResult buildSchedulerNode(const DumpNode &node);
  LogicalResult buildExternOrNop(const DumpNode &node);
  LogicalResult buildContainer(const DumpNode &node);
  LogicalResult buildResultTypes(const DumpNode &node,
                                 SmallVectorImpl<Type> &types,
                                 SmallVectorImpl<StringRef> &names);

  /// Inductor's rename(): follows `mutation_renames` to the newest version.
  StringRef rename(StringRef name) const;
  /// The value of buffer `name` (after renaming for body loads).
  FailureOr<Value> lookupBuffer(StringRef name, const char *at);
  void recordMutation(StringRef mutated, StringRef newName);
  /// Binds the names of `node`'s output buffers to `results`, recording the
  /// buffers they mutate.
  void bindOutputs(const DumpNode &node, ValueRange results);

  InductorDump &dump;
  const DumpLocator &locator;
  const InductorImportOptions &options;
  const llvm::StringMap<FxPlaceholder> &fx;
  MLIRContext *ctx;
  OpBuilder builder;
  std::string device;

  /// Every node and buffer of the dump.
  llvm::StringMap<const DumpNode *> nodesByName;
  llvm::StringMap<std::pair<const DumpNode *, const DumpBuffer *>> buffers;
  /// Graph inputs, sorted, with their types.
  SmallVector<StringRef> inputNames;
  SmallVector<Type> inputTypes;

  llvm::StringMap<Value> values;
  llvm::StringMap<std::string> mutationRenames;
  /// MultiOutput externs seen per tuple buffer, for their `index`.
  llvm::StringMap<int64_t> multiOutputCount;
};
} // namespace

//===----------------------------------------------------------------------===//
// Graph level
//===----------------------------------------------------------------------===//

/// True when `leaf` is a member of `node`, directly or in a nested container.
static bool isDescendant(const DumpNode &node, const DumpNode *leaf) {
  return llvm::any_of(node.members, [&](const auto &member) {
    return member.get() == leaf || isDescendant(*member, leaf);
  });
}

LogicalResult GraphImporter::indexNodes(const DumpNode &node) {
  auto [it, inserted] = nodesByName.try_emplace(node.name, &node);
  if (!inserted) {
    InFlightDiagnostic diag = error(node.loc)
                              << "node '" << node.name << "' is defined twice";
    diag.attachNote(loc(it->second->loc)) << "first defined here";
    return diag;
  }
  if (!node.members.empty()) {
    // A container lists its members' buffers as its outputs.
    for (const auto &member : node.members)
      if (failed(indexNodes(*member)))
        return failure();
    for (const DumpBuffer &buffer : node.outputs) {
      const DumpNode *producer = buffers.lookup(buffer.name).first;
      if (!producer || !isDescendant(node, producer))
        return error(buffer.loc)
               << "'" << node.name << "' lists buffer '" << buffer.name
               << "', which none of its members writes";
    }
    return success();
  }
  for (const DumpBuffer &buffer : node.outputs) {
    auto [bit, binserted] =
        buffers.try_emplace(buffer.name, std::make_pair(&node, &buffer));
    if (!binserted) {
      InFlightDiagnostic diag = error(buffer.loc) << "buffer '" << buffer.name
                                                  << "' is defined twice";
      diag.attachNote(loc(bit->second.second->loc)) << "first defined here";
      return diag;
    }
  }
  return success();
}

FailureOr<Type> GraphImporter::bufferType(const DumpLayout &layout) {
  if (device.empty())
    device = layout.device;
  if (layout.device != device)
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
  for (int64_t s : layout.size)
    if (s < 0)
      return error(layout.loc) << "negative size in a layout";
  for (int64_t s : layout.stride)
    if (s < 0)
      return error(layout.loc) << "negative stride in a layout";
  if (layout.offset < 0)
    return error(layout.loc) << "negative offset in a layout";
  return Type(BufferType::get(ctx, layout.size, *element, layout.stride,
                              layout.offset));
}

/// Calls `fn(name, location)` for every buffer name a node refers to:
/// loads in its body, its dependences and the buffers it mutates.
static void forEachReference(const DumpNode &node,
                             function_ref<void(StringRef, const char *)> fn) {
  if (node.body)
    for (const DumpBlock &block : node.body->blocks)
      for (const DumpStmt &stmt : block.stmts) {
        const PyValue *v = stmt.value;
        if (v->kind == PyValue::Kind::Call &&
            (v->str == "ops.load" || v->str == "ops.load_seed") &&
            !v->elements.empty() &&
            v->elements[0]->kind == PyValue::Kind::String)
          fn(v->elements[0]->str, v->elements[0]->loc());
      }
  for (const DumpDepList *list : {&node.unmet, &node.met})
    for (const DumpDep &dep : list->deps)
      fn(dep.name, dep.loc());
  for (const DumpBuffer &buffer : node.outputs)
    for (auto &[name, at] : buffer.mutations)
      fn(name, at);
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

/// True when two layouts describe the same storage (FixedLayout and
/// MutationLayoutSHOULDREMOVE print the same fields).
static bool sameLayout(const DumpLayout &a, const DumpLayout &b) {
  return a.kind == b.kind && a.device == b.device && a.dtype == b.dtype &&
         a.size == b.size && a.stride == b.stride && a.offset == b.offset;
}

LogicalResult GraphImporter::collectInputs() {
  // A graph input is a buffer the nodes refer to that no node produces.
  // Names point into the dump, which outlives the importer.
  llvm::StringMap<std::pair<StringRef, const char *>> firstReference;
  for (const auto &node : dump.nodes)
    forEachReference(*node, [&](StringRef name, const char *at) {
      if (!buffers.count(name))
        firstReference.try_emplace(name, name, at);
    });
  // `<name>_layout` lines repeat what the dump says elsewhere about a
  // buffer; they must all agree, with the buffer's own layout line for
  // produced buffers, and with each other for graph inputs.
  llvm::StringMap<const DumpLayout *> layouts;
  for (const auto &[name, entry] : buffers)
    layouts.try_emplace(name, &entry.second->layout);
  LogicalResult consistent = success();
  for (const auto &node : dump.nodes)
    forEachLayoutLine(*node, [&](StringRef name, const DumpLayout &layout) {
      auto [it, inserted] = layouts.try_emplace(name, &layout);
      if (inserted || failed(consistent) || sameLayout(*it->second, layout))
        return;
      InFlightDiagnostic diag = error(layout.loc)
                                << "layout of '" << name
                                << "' differs from its layout given before";
      diag.attachNote(loc(it->second->loc)) << "given here";
      consistent = failure();
    });
  if (failed(consistent))
    return failure();

  for (auto &entry : firstReference)
    inputNames.push_back(entry.second.first);
  llvm::sort(inputNames, naturalLess);
  for (StringRef name : inputNames) {
    const char *at = firstReference.lookup(name).second;
    if (const DumpLayout *layout = layouts.lookup(name)) {
      if (layout->kind != DumpLayout::Kind::Fixed)
        return error(layout->loc)
               << "graph input '" << name << "' must have a FixedLayout";
      FailureOr<Type> type = bufferType(*layout);
      if (failed(type))
        return failure();
      inputTypes.push_back(*type);
      continue;
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
      layout.stride = BufferType::getContiguousStrides(layout.size);
    FailureOr<Type> type = bufferType(layout);
    if (failed(type))
      return failure();
    inputTypes.push_back(*type);
  }
  return success();
}

StringRef GraphImporter::rename(StringRef name) const {
  // Each rename points to a buffer produced later, so the chain is finite;
  // the bound only guards against inconsistent input.
  for (unsigned steps = 0; steps <= mutationRenames.size(); ++steps) {
    auto it = mutationRenames.find(name);
    if (it == mutationRenames.end())
      return name;
    name = it->second;
  }
  return name;
}

void GraphImporter::recordMutation(StringRef mutated, StringRef newName) {
  std::string renamed = rename(mutated).str();
  mutationRenames[renamed] = newName.str();
  mutationRenames[mutated] = newName.str();
}

void GraphImporter::bindOutputs(const DumpNode &node, ValueRange results) {
  for (auto [buffer, result] : llvm::zip_equal(node.outputs, results)) {
    values[buffer.name] = result;
    if (!buffer.mutations.empty())
      recordMutation(buffer.mutations.front().first, buffer.name);
  }
}

FailureOr<Value> GraphImporter::lookupBuffer(StringRef name, const char *at) {
  if (Value v = values.lookup(name))
    return v;
  if (buffers.count(name))
    return error(at) << "buffer '" << name
                     << "' is used before the node that writes it ("
                     << buffers.lookup(name).first->name
                     << "); the dump must list nodes in a topological order";
  return error(at) << "buffer '" << name << "' is never defined";
}

OwningOpRef<ModuleOp> GraphImporter::run() {
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
    values[name] = arg;
  builder.setInsertionPointToEnd(&graph.getBodyBlock());
  for (const auto &node : dump.nodes)
    if (failed(buildNode(*node)))
      return nullptr;

  // Graph outputs: buffers with an OUTPUT user, except the final version of
  // a mutated graph input, which the dependence analysis keeps alive itself.
  llvm::DenseSet<Value> implicitOutputs;
  for (StringRef input : inputNames)
    if (mutationRenames.count(input))
      implicitOutputs.insert(values.lookup(rename(input)));
  // A container lists its members' buffers: top-level nodes cover all.
  SmallVector<Value> outputs;
  SmallVector<Type> outputTypes;
  for (const auto &node : dump.nodes) {
    for (const DumpBuffer &buffer : node->outputs) {
      if (llvm::none_of(buffer.users,
                        [](const DumpUser &u) { return u.isOutput(); }))
        continue;
      Value value = values.lookup(buffer.name);
      if (implicitOutputs.contains(value))
        continue;
      if (!isa<BufferType>(value.getType())) {
        error(buffer.loc) << "graph output '" << buffer.name
                          << "' must be a buffer, not a multi-output tuple";
        return nullptr;
      }
      outputs.push_back(value);
      outputTypes.push_back(value.getType());
    }
  }
  OutputOp::create(builder, fileLoc, outputs);
  graph.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(ctx, inputTypes, outputTypes)));
  if (failed(verify(*module)))
    return nullptr;
  return module;
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

LogicalResult GraphImporter::buildNode(const DumpNode &node) {
  for (const DumpBuffer &buffer : node.outputs) {
    if (!buffer.aliases.empty() && node.kind != DumpNode::Kind::Nop)
      return error(buffer.aliases.front().second)
             << "buffer '" << buffer.name
             << "' aliases another buffer; only NopKernelSchedulerNode "
                "results may alias their inputs in the fusion dialect";
    if (buffer.mutations.size() > 1)
      return error(buffer.mutations[1].second)
             << "a buffer mutates at most one buffer (Inductor asserts it)";
  }
  // Unmet dependences name buffers that nodes produce, met ones graph
  // inputs; a name that is neither is a reference to nothing.
  for (const DumpDep &dep : node.unmet.deps)
    if (!buffers.count(dep.name))
      return error(dep.loc()) << "unmet dependence on buffer '" << dep.name
                              << "', which no node of the dump writes";
  switch (node.kind) {
  case DumpNode::Kind::Scheduler:
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
  int64_t numel = 1, rnumel = 1;
  for (int64_t s : node.ranges)
    numel *= s;
  for (int64_t s : node.reductionRanges)
    rnumel *= s;
  if (numel != node.numel || rnumel != node.reductionNumel)
    return error(node.iterationLoc)
           << "group.iteration (" << node.numel << ", " << node.reductionNumel
           << ") does not match the sizes, which give (" << numel << ", "
           << rnumel << ")";

  SmallVector<Type> types;
  SmallVector<StringRef> names;
  if (failed(buildResultTypes(node, types, names)))
    return failure();
  SmallVector<Value> mutated;
  SmallVector<int64_t> tied;
  for (const DumpBuffer &buffer : node.outputs) {
    if (!isa<BufferType>(types[tied.size()]))
      return error(buffer.layout.loc)
             << "the output of a SchedulerNode needs a FixedLayout";
    if (buffer.mutations.empty()) {
      tied.push_back(-1);
      continue;
    }
    auto [name, at] = buffer.mutations.front();
    FailureOr<Value> old = lookupBuffer(rename(name), at);
    if (failed(old))
      return failure();
    tied.push_back(mutated.size());
    mutated.push_back(*old);
  }
  NodeOp op = NodeOp::create(builder, loc(node.loc), node.name, node.ranges,
                             node.reductionRanges, types, names, mutated, tied);
  if (failed(BodyImporter(*this, node, op).run()))
    return failure();
  bindOutputs(node, op->getResults());
  return success();
}

LogicalResult GraphImporter::buildExternOrNop(const DumpNode &node) {
  bool isNop = node.kind == DumpNode::Kind::Nop;
  // Inputs: every buffer it reads (they are whole-buffer reads), in natural
  // order of their names; the fake WeakDeps of mutations are not reads.
  SmallVector<std::pair<StringRef, const char *>> reads;
  llvm::StringSet<> seen;
  for (const DumpDepList *list : {&node.unmet, &node.met})
    for (const DumpDep &dep : list->deps)
      if (dep.kind != DumpDep::Kind::Weak && seen.insert(dep.name).second)
        reads.push_back({dep.name, dep.loc()});
  llvm::sort(reads,
             [](auto &a, auto &b) { return naturalLess(a.first, b.first); });

  SmallVector<Value> inputs;
  for (auto [name, at] : reads) {
    FailureOr<Value> v = lookupBuffer(name, at);
    if (failed(v))
      return failure();
    inputs.push_back(*v);
  }
  SmallVector<Type> types;
  SmallVector<StringRef> names;
  if (failed(buildResultTypes(node, types, names)))
    return failure();

  if (isNop) {
    for (const DumpBuffer &buffer : node.outputs) {
      if (!buffer.mutations.empty())
        return error(buffer.mutations.front().second)
               << "a NopKernelSchedulerNode cannot mutate a buffer";
      // The results of fusion.nop alias its operands; an alias the dump
      // names must be one of them.
      for (auto [alias, at] : buffer.aliases)
        if (!seen.contains(alias))
          return error(at) << "'" << buffer.name << "' aliases '" << alias
                           << "', which '" << node.name << "' does not read";
    }
    for (auto [buffer, type] : llvm::zip(node.outputs, types))
      if (!isa<BufferType>(type))
        return error(buffer.layout.loc)
               << "the output of a NopKernelSchedulerNode needs a FixedLayout";
    NopOp op = NopOp::create(builder, loc(node.loc), types,
                             builder.getStringAttr(node.name),
                             builder.getStrArrayAttr(names), inputs);
    bindOutputs(node, op->getResults());
    return success();
  }

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
    // Inductor's MutationOutput has a NoneLayout: it is the new version of
    // the buffer it mutates, with that buffer's layout.
    if (buffer.layout.kind == DumpLayout::Kind::None)
      types[i] = old->getType();
    auto *it = llvm::find(inputs, *old);
    if (it == inputs.end()) {
      inputs.push_back(*old);
      it = std::prev(inputs.end());
    }
    tied.push_back(it - inputs.begin());
  }
  // It survived dead-node elimination without a user: it has side effects.
  bool sideEffects = llvm::all_of(node.outputs, [](const DumpBuffer &b) {
    return llvm::all_of(b.users, [](const DumpUser &u) { return u.isWeak; });
  });
  StringRef kernel = node.kernel;
  std::optional<int64_t> index;
  if (node.innerClasses == "MultiOutput") {
    if (inputs.size() != 1 || !isa<MultiOutputType>(inputs[0].getType()))
      return error(node.loc)
             << "a MultiOutput node reads exactly one multi-output tuple";
    kernel = "multi_output";
    // Dump order is the order of the tuple's elements (Inductor creates the
    // MultiOutput nodes in index order); see docs/Importer.md.
    index = multiOutputCount[reads.front().first]++;
  }
  ExternOp op = ExternOp::create(builder, loc(node.loc), node.name, kernel,
                                 inputs, types, names, tied, sideEffects);
  if (index)
    op->setAttr("index", builder.getI64IntegerAttr(*index));
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
  Location l = loc(node.loc);
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
      yielded.push_back({buffer.name, values.lookup(buffer.name)});
  }
  SmallVector<Value> yieldValues;
  for (auto &[name, value] : yielded)
    yieldValues.push_back(value);
  YieldOp::create(builder, l, yieldValues);
  // Outside the container, its results stand for the members' buffers.
  for (auto [entry, result] : llvm::zip(yielded, container->getResults()))
    values[entry.first] = result;
  return success();
}

//===----------------------------------------------------------------------===//
// Loop bodies
//===----------------------------------------------------------------------===//

BodyImporter::BodyImporter(GraphImporter &graph, const DumpNode &node,
                           NodeOp op)
    : graph(graph), node(node), body(*node.body), op(op),
      builder(op.getContext()) {
  for (const DumpDepList *list : {&node.unmet, &node.met})
    for (const DumpDep &dep : list->deps)
      depNames.insert(dep.name);
}

InFlightDiagnostic BodyImporter::error(const char *at) {
  return graph.error(at);
}
Location BodyImporter::loc(const char *at) { return graph.loc(at); }

LogicalResult BodyImporter::parseIndices() {
  // var_ranges name the loop variables: pointwise loops, then reduction.
  SmallVector<int64_t> sizes(node.ranges.begin(), node.ranges.end());
  llvm::append_range(sizes, node.reductionRanges);
  SmallVector<int64_t> varSizes;
  for (auto &[name, size] : body.varRanges)
    varSizes.push_back(size);
  if (varSizes != sizes) {
    std::string expected, found;
    llvm::raw_string_ostream es(expected), fs(found);
    llvm::interleaveComma(sizes, es);
    llvm::interleaveComma(varSizes, fs);
    return error(body.varRangesLoc)
           << "var_ranges [" << found << "] do not match the node sizes ["
           << expected << "]";
  }
  llvm::StringMap<unsigned> loopVars;
  for (auto [i, range] : llvm::enumerate(body.varRanges))
    if (!loopVars.try_emplace(range.first, i).second)
      return error(body.varRangesLoc)
             << "loop variable '" << range.first << "' appears twice";
  MLIRContext *ctx = op.getContext();
  for (auto &[name, text] : body.indices) {
    auto resolve = [&](StringRef var) -> AffineExpr {
      if (auto it = loopVars.find(var); it != loopVars.end())
        return getAffineDimExpr(it->second, ctx);
      unsigned k;
      if (var.consume_front("indirect") && !var.getAsInteger(10, k) &&
          k < 1024) {
        numIndirect = std::max(numIndirect, k + 1);
        return getAffineSymbolExpr(k, ctx);
      }
      return AffineExpr();
    };
    FailureOr<AffineExpr> expr = parseIndexExpr(
        text, ctx, resolve,
        [&](const char *at) -> InFlightDiagnostic { return error(at); });
    if (failed(expr))
      return failure();
    if (!indexNames.try_emplace(name, indices.size()).second)
      return error(name.data()) << "index '" << name << "' is defined twice";
    indices.push_back(*expr);
  }
  indirect.assign(numIndirect, Value());
  return success();
}

LogicalResult BodyImporter::run() {
  if (failed(parseIndices()))
    return failure();
  for (const DumpBlock &block : body.blocks)
    if (!blocks.try_emplace(block.name, &block).second)
      return error(block.loc)
             << "block '" << block.name << "' is defined twice";
  Block &entry = op.getBodyBlock();
  builder.setInsertionPoint(entry.getTerminator());
  BodyValue result;
  return translateBlock(body.blocks.front(), result);
}

LogicalResult BodyImporter::translateBlock(const DumpBlock &block,
                                           BodyValue &result) {
  if (!activeBlocks.insert(block.name).second)
    return error(block.loc) << "block '" << block.name << "' invokes itself";
  if (activeBlocks.size() > kMaxBlockNesting)
    return error(block.loc)
           << "masked blocks nested more than " << kMaxBlockNesting << " deep";
  llvm::StringMap<BodyValue> env;
  for (const DumpStmt &stmt : block.stmts)
    if (failed(translateStmt(stmt, env, result)))
      return failure();
  activeBlocks.erase(block.name);
  return success();
}

LogicalResult BodyImporter::translateStmt(const DumpStmt &stmt,
                                          llvm::StringMap<BodyValue> &env,
                                          BodyValue &result) {
  const PyValue &value = *stmt.value;
  if (stmt.target.empty()) {
    // `return x`: the value a masked subblock yields; `return store` and
    // `return None` end the main body.
    if (value.isNone()) {
      result = BodyValue();
      return success();
    }
    if (value.kind != PyValue::Kind::Name || !env.count(value.str))
      return error(value.loc()) << "'return' needs a name defined in the "
                                   "block, found "
                                << value.text;
    result = env.lookup(value.str);
    return success();
  }
  if (env.count(stmt.target))
    return error(stmt.loc) << "'" << stmt.target
                           << "' is assigned twice in the block";
  BodyValue out;
  if (value.kind == PyValue::Kind::Subscript) {
    // `getitem = reduction[0]`
    const PyValue *base = value.elements[0], *index = value.elements[1];
    if (base->kind != PyValue::Kind::Name || index->kind != PyValue::Kind::Int)
      return error(value.loc()) << "expected '<name>[<integer>]'";
    auto it = env.find(base->str);
    if (it == env.end() || it->second.kind != BodyValue::Tuple)
      return error(base->loc())
             << "'" << base->str << "' is not a multi-result reduction";
    if (index->intValue < 0 ||
        index->intValue >= static_cast<int64_t>(it->second.tuple.size()))
      return error(index->loc())
             << "index " << index->intValue << " is out of range: '"
             << base->str << "' has " << it->second.tuple.size() << " results";
    out.kind = BodyValue::Scalar;
    out.value = it->second.tuple[index->intValue];
  } else if (value.kind == PyValue::Kind::Call) {
    if (failed(translateCall(stmt, value, env, out)))
      return failure();
  } else {
    return error(value.loc()) << "expected an operation such as "
                                 "'ops.load(...)', found "
                              << value.text;
  }
  env[stmt.target] = out;
  return success();
}

LogicalResult BodyImporter::expectArgs(const PyValue &call, unsigned min,
                                       unsigned max,
                                       ArrayRef<StringRef> keywords) {
  unsigned n = call.elements.size();
  if (n < min || n > max) {
    InFlightDiagnostic diag = error(call.loc())
                              << "'" << call.str << "' takes ";
    if (min == max)
      diag << min;
    else
      diag << min << " to " << max;
    return diag << " positional arguments, got " << n;
  }
  for (auto &[key, value] : call.keywords)
    if (!llvm::is_contained(keywords, key))
      return error(value->loc())
             << "'" << call.str << "' has no argument '" << key << "'";
  return success();
}

FailureOr<Value> BodyImporter::scalar(const PyValue *arg,
                                      llvm::StringMap<BodyValue> &env) {
  if (arg->kind != PyValue::Kind::Name)
    return error(arg->loc())
           << "expected the name of a value, found " << arg->text;
  auto it = env.find(arg->str);
  if (it == env.end())
    return error(arg->loc()) << "'" << arg->str << "' is not defined";
  if (it->second.kind != BodyValue::Scalar)
    return error(arg->loc()) << "'" << arg->str << "' is not a value"
                             << (it->second.kind == BodyValue::Tuple
                                     ? " (it has several results; use "
                                       "'x[i]')"
                                     : "");
  return it->second.value;
}

FailureOr<unsigned> BodyImporter::indexRef(const PyValue *arg,
                                           llvm::StringMap<BodyValue> &env) {
  if (arg->kind == PyValue::Kind::Name)
    if (auto it = env.find(arg->str);
        it != env.end() && it->second.kind == BodyValue::Index)
      return it->second.index;
  return error(arg->loc()) << "expected an index from self.get_index(...), "
                              "found "
                           << arg->text;
}

FailureOr<StringRef> BodyImporter::stringArg(const PyValue *arg,
                                             StringRef what) {
  if (arg->kind != PyValue::Kind::String)
    return error(arg->loc())
           << "expected " << what << " in quotes, found " << arg->text;
  return arg->str;
}

FailureOr<Type> BodyImporter::dtypeArg(const PyValue *arg) {
  if (arg->kind != PyValue::Kind::Name)
    return error(arg->loc()) << "expected a dtype such as torch.float32, "
                                "found "
                             << arg->text;
  return convertDtype(arg->str, arg->loc(), graph.locator);
}

Value BodyImporter::convert(Value v, Type type, Location l) {
  if (v.getType() == type)
    return v;
  return CastOp::create(builder, l, type, v);
}

Value BodyImporter::constant(Type type, double value, Location l) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(builder, l,
                                     builder.getFloatAttr(ft, value));
  return arith::ConstantOp::create(
      builder, l, builder.getIntegerAttr(type, static_cast<int64_t>(value)));
}

FailureOr<Value> BodyImporter::literal(const PyValue *v, Type type) {
  Location l = loc(v->loc());
  if (v->isName("True") || v->isName("False")) {
    bool b = v->isName("True");
    if (isa<FloatType>(type))
      return constant(type, b ? 1.0 : 0.0, l);
    return Value(arith::ConstantOp::create(
        builder, l, builder.getIntegerAttr(type, b ? 1 : 0)));
  }
  if (v->kind == PyValue::Kind::Int) {
    if (auto ft = dyn_cast<FloatType>(type))
      return Value(arith::ConstantOp::create(
          builder, l,
          builder.getFloatAttr(ft, static_cast<double>(v->intValue))));
    auto it = llvm::cast<IntegerType>(type);
    if (it.getWidth() < 64 && !llvm::isIntN(it.getWidth(), v->intValue) &&
        !(it.getWidth() == 1 && (v->intValue == 0 || v->intValue == 1)))
      return error(v->loc())
             << "constant " << v->intValue << " does not fit in " << type;
    int64_t value = it.getWidth() == 1 ? (v->intValue != 0) : v->intValue;
    return Value(arith::ConstantOp::create(
        builder, l, builder.getIntegerAttr(type, value)));
  }
  if (v->kind == PyValue::Kind::Float) {
    if (auto ft = dyn_cast<FloatType>(type))
      return Value(arith::ConstantOp::create(
          builder, l, builder.getFloatAttr(ft, v->floatValue)));
    double integral;
    if (std::isfinite(v->floatValue) &&
        std::modf(v->floatValue, &integral) == 0.0 &&
        std::abs(integral) < 9.0e18)
      return Value(arith::ConstantOp::create(
          builder, l,
          builder.getIntegerAttr(type, static_cast<int64_t>(integral))));
    return error(v->loc()) << "constant " << v->text
                           << " is not a value of integer type " << type;
  }
  return error(v->loc()) << "expected a number, True or False, found "
                         << v->text;
}

Type BodyImporter::promote(Type a, Type b) {
  if (a == b)
    return a;
  bool fa = isa<FloatType>(a), fb = isa<FloatType>(b);
  if (fa && fb) {
    unsigned wa = a.getIntOrFloatBitWidth(), wb = b.getIntOrFloatBitWidth();
    if (wa == wb) // float16 with bfloat16: torch promotes to float32.
      return Float32Type::get(a.getContext());
    return wa > wb ? a : b;
  }
  if (fa)
    return a;
  if (fb)
    return b;
  return a.getIntOrFloatBitWidth() >= b.getIntOrFloatBitWidth() ? a : b;
}

Type BodyImporter::floatTypeFor(Type t) {
  return isa<FloatType>(t) ? t : Float32Type::get(t.getContext());
}

LogicalResult BodyImporter::buildIndex(unsigned index, const char *at,
                                       AffineMap &map,
                                       SmallVectorImpl<Value> &operands) {
  AffineExpr expr = indices[index];
  MLIRContext *ctx = op.getContext();
  unsigned numLoops = op.getNumLoops();
  SmallVector<AffineExpr> dimRepl, symRepl;
  SmallVector<Value> dimOperands, symOperands;
  for (unsigned d = 0; d < numLoops; ++d) {
    if (expr.isFunctionOfDim(d)) {
      dimRepl.push_back(getAffineDimExpr(dimOperands.size(), ctx));
      dimOperands.push_back(op.getLoopVars()[d]);
    } else {
      dimRepl.push_back(getAffineConstantExpr(0, ctx));
    }
  }
  for (unsigned s = 0; s < numIndirect; ++s) {
    if (expr.isFunctionOfSymbol(s)) {
      if (!indirect[s])
        return error(at) << "index uses indirect" << s
                         << " before self.set_indirect" << s << "(...)";
      symRepl.push_back(getAffineSymbolExpr(symOperands.size(), ctx));
      symOperands.push_back(indirect[s]);
    } else {
      symRepl.push_back(getAffineConstantExpr(0, ctx));
    }
  }
  AffineExpr result = expr.replaceDimsAndSymbols(dimRepl, symRepl);
  map = AffineMap::get(dimOperands.size(), symOperands.size(), result);
  operands.append(dimOperands);
  operands.append(symOperands);
  return success();
}

LogicalResult BodyImporter::translateCall(const DumpStmt &stmt,
                                          const PyValue &call,
                                          llvm::StringMap<BodyValue> &env,
                                          BodyValue &result) {
  StringRef callee = call.str;
  if (callee == "self.get_index") {
    if (failed(expectArgs(call, 1, 1)))
      return failure();
    FailureOr<StringRef> name = stringArg(call.elements[0], "an index name");
    if (failed(name))
      return failure();
    auto it = indexNames.find(*name);
    if (it == indexNames.end())
      return error(call.elements[0]->loc())
             << "index '" << *name << "' is not defined in the loop body";
    result.kind = BodyValue::Index;
    result.index = it->second;
    return success();
  }
  if (callee.consume_front("self.set_indirect")) {
    unsigned k;
    if (callee.getAsInteger(10, k) || k >= indirect.size())
      return error(call.loc()) << "'" << call.str
                               << "' sets an indirect index that no index "
                                  "expression uses";
    if (failed(expectArgs(call, 1, 1)))
      return failure();
    FailureOr<Value> v = scalar(call.elements[0], env);
    if (failed(v))
      return failure();
    if (!isa<IntegerType>(v->getType()) || v->getType().isInteger(1))
      return error(call.elements[0]->loc())
             << "an indirect index needs an integer value, got "
             << v->getType();
    indirect[k] = arith::IndexCastOp::create(builder, loc(stmt.loc),
                                             builder.getIndexType(), *v);
    return success();
  }
  if (callee.consume_front("self.")) {
    const DumpBlock *block = blocks.lookup(callee);
    if (!block || callee == "body")
      return error(call.loc())
             << "unknown loop body method 'self." << callee << "'";
    return translateMasked(stmt, *block, call, env, result);
  }
  if (callee.consume_front("ops."))
    return translateOp(stmt, callee, call, env, result);
  return error(call.loc())
         << "unknown call '" << call.str
         << "' (expected ops.*, self.get_index, "
            "self.set_indirect<k> or self.masked_subblock<k>)";
}

LogicalResult BodyImporter::translateMasked(const DumpStmt &stmt,
                                            const DumpBlock &block,
                                            const PyValue &call,
                                            llvm::StringMap<BodyValue> &env,
                                            BodyValue &result) {
  if (failed(expectArgs(call, 2, 2)))
    return failure();
  FailureOr<Value> mask = scalar(call.elements[0], env);
  if (failed(mask))
    return failure();
  Location l = loc(stmt.loc);
  Value maskBit = convert(*mask, builder.getI1Type(), l);

  // Translate the subblock into a detached block, then wrap it.
  auto region = std::make_unique<Block>();
  BodyValue yielded;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(region.get());
    if (failed(translateBlock(block, yielded)))
      return failure();
    if (yielded.kind != BodyValue::Scalar)
      return error(block.loc)
             << "masked block '" << block.name << "' must return one value";
    YieldOp::create(builder, l, ValueRange{yielded.value});
  }
  Type type = yielded.value.getType();
  const PyValue *otherArg = call.elements[1];
  Value other;
  if (otherArg->kind == PyValue::Kind::Name && env.count(otherArg->str)) {
    FailureOr<Value> v = scalar(otherArg, env);
    if (failed(v))
      return failure();
    other = convert(*v, type, l);
  } else {
    FailureOr<Value> v = literal(otherArg, type);
    if (failed(v))
      return failure();
    other = *v;
  }
  auto masked = MaskedOp::create(builder, l, type, maskBit, other);
  masked.getBody().push_back(region.release());
  result.kind = BodyValue::Scalar;
  result.value = masked.getResult();
  return success();
}

/// Creates the float math op `name` (one of OpClass::FloatUnary) on `v`.
static Value createFloatUnary(OpBuilder &b, Location l, StringRef name,
                              Value v) {
  if (name == "exp")
    return math::ExpOp::create(b, l, v);
  if (name == "exp2")
    return math::Exp2Op::create(b, l, v);
  if (name == "expm1")
    return math::ExpM1Op::create(b, l, v);
  if (name == "log")
    return math::LogOp::create(b, l, v);
  if (name == "log2")
    return math::Log2Op::create(b, l, v);
  if (name == "log1p")
    return math::Log1pOp::create(b, l, v);
  if (name == "sqrt")
    return math::SqrtOp::create(b, l, v);
  if (name == "rsqrt")
    return math::RsqrtOp::create(b, l, v);
  if (name == "tanh")
    return math::TanhOp::create(b, l, v);
  if (name == "erf")
    return math::ErfOp::create(b, l, v);
  if (name == "sin")
    return math::SinOp::create(b, l, v);
  if (name == "cos")
    return math::CosOp::create(b, l, v);
  if (name == "floor")
    return math::FloorOp::create(b, l, v);
  if (name == "ceil")
    return math::CeilOp::create(b, l, v);
  if (name == "trunc")
    return math::TruncOp::create(b, l, v);
  auto one = [&] {
    return arith::ConstantOp::create(
        b, l, b.getFloatAttr(cast<FloatType>(v.getType()), 1.0));
  };
  if (name == "reciprocal")
    return arith::DivFOp::create(b, l, one(), v);
  assert(name == "sigmoid" && "not a float unary op");
  // 1 / (1 + exp(-x))
  Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, v));
  Value c1 = one();
  return arith::DivFOp::create(b, l, c1, arith::AddFOp::create(b, l, c1, e));
}

namespace {
/// How an elementwise op of the dump maps to arith/math.
enum class OpClass {
  Binary,     // add, sub, mul, ... on promoted operands
  Compare,    // eq, ne, lt, ...
  Bitwise,    // and_, or_, xor on integers or booleans
  Logical,    // logical_and/or/xor: operands converted to booleans
  FloatUnary, // exp, sqrt, ...: integer operands converted to f32
  Unary,      // neg, abs, relu, ...: integer or float
};
} // namespace

LogicalResult BodyImporter::translateOp(const DumpStmt &stmt, StringRef name,
                                        const PyValue &call,
                                        llvm::StringMap<BodyValue> &env,
                                        BodyValue &result) {
  Location l = loc(stmt.loc);
  result.kind = BodyValue::Scalar;
  auto operand = [&](unsigned i) { return scalar(call.elements[i], env); };
  // All arguments as scalars, once their number is checked.
  auto operands = [&]() -> FailureOr<SmallVector<Value, 3>> {
    SmallVector<Value, 3> values;
    for (unsigned i = 0, e = call.elements.size(); i < e; ++i) {
      FailureOr<Value> v = operand(i);
      if (failed(v))
        return failure();
      values.push_back(*v);
    }
    return values;
  };

  // Memory.
  if (name == "load" || name == "load_seed") {
    if (failed(expectArgs(call, 2, 2)))
      return failure();
    FailureOr<StringRef> buf = stringArg(call.elements[0], "a buffer name");
    if (failed(buf))
      return failure();
    StringRef renamed = graph.rename(*buf);
    if (!depNames.contains(renamed))
      return error(call.elements[0]->loc())
             << "'ops." << name << "' of '" << *buf << "' reads buffer '"
             << renamed << "', but the dependences of '" << node.name
             << "' do not mention '" << renamed << "'";
    FailureOr<Value> buffer =
        graph.lookupBuffer(renamed, call.elements[0]->loc());
    if (failed(buffer))
      return failure();
    if (!isa<BufferType>(buffer->getType()))
      return error(call.elements[0]->loc())
             << "cannot load from '" << renamed << "', a multi-output tuple";
    AffineMap map;
    SmallVector<Value> operands;
    if (name == "load") {
      FailureOr<unsigned> index = indexRef(call.elements[1], env);
      if (failed(index) ||
          failed(buildIndex(*index, call.elements[1]->loc(), map, operands)))
        return failure();
    } else {
      const PyValue *offset = call.elements[1];
      if (offset->kind != PyValue::Kind::Int || offset->intValue < 0)
        return error(offset->loc())
               << "expected a non-negative seed offset, found " << offset->text;
      map = AffineMap::get(
          0, 0, getAffineConstantExpr(offset->intValue, op.getContext()));
    }
    result.value = LoadOp::create(builder, l, *buffer, operands, map);
    return success();
  }
  if (name == "store" || name == "store_reduction") {
    bool isStore = name == "store";
    if (failed(expectArgs(call, 3, isStore ? 4 : 3, {"mode"})))
      return failure();
    FailureOr<StringRef> buf = stringArg(call.elements[0], "a buffer name");
    if (failed(buf))
      return failure();
    auto *output = llvm::find_if(
        node.outputs, [&](const DumpBuffer &b) { return b.name == *buf; });
    if (output == node.outputs.end())
      return error(call.elements[0]->loc())
             << "'" << node.name << "' stores to '" << *buf
             << "', which is not one of its outputs";
    BlockArgument handle = op.getOutputHandles()[output - node.outputs.begin()];
    FailureOr<unsigned> index = indexRef(call.elements[1], env);
    if (failed(index))
      return failure();
    FailureOr<Value> value = operand(2);
    if (failed(value))
      return failure();
    const PyValue *modeArg =
        call.elements.size() == 4 ? call.elements[3] : nullptr;
    for (auto &[key, v] : call.keywords)
      modeArg = v;
    StoreModeAttr mode;
    if (modeArg && !modeArg->isNone()) {
      if (modeArg->kind != PyValue::Kind::String ||
          modeArg->str != "atomic_add")
        return error(modeArg->loc())
               << "unsupported store mode " << modeArg->text
               << " (expected None or 'atomic_add')";
      mode = StoreModeAttr::get(op.getContext(), StoreMode::AtomicAdd);
    }
    AffineMap map;
    SmallVector<Value> operands;
    if (failed(buildIndex(*index, call.elements[1]->loc(), map, operands)))
      return failure();
    Type element = llvm::cast<BufferType>(handle.getType()).getElementType();
    StoreOp::create(builder, l, convert(*value, element, l), handle, operands,
                    map, mode);
    result.kind = BodyValue::Nothing;
    return success();
  }
  if (name == "index_expr") {
    if (failed(expectArgs(call, 2, 2)))
      return failure();
    FailureOr<unsigned> index = indexRef(call.elements[0], env);
    if (failed(index))
      return failure();
    FailureOr<Type> type = dtypeArg(call.elements[1]);
    if (failed(type))
      return failure();
    if (!type->isInteger(32) && !type->isInteger(64))
      return error(call.elements[1]->loc())
             << "ops.index_expr produces int32 or int64, not " << *type;
    AffineMap map;
    SmallVector<Value> operands;
    if (failed(buildIndex(*index, call.elements[0]->loc(), map, operands)))
      return failure();
    result.value = IndexExprOp::create(builder, l, *type, operands, map);
    return success();
  }

  // Values.
  if (name == "constant") {
    if (failed(expectArgs(call, 2, 2)))
      return failure();
    FailureOr<Type> type = dtypeArg(call.elements[1]);
    if (failed(type))
      return failure();
    FailureOr<Value> v = literal(call.elements[0], *type);
    if (failed(v))
      return failure();
    result.value = *v;
    return success();
  }
  if (name == "to_dtype") {
    if (failed(expectArgs(call, 2, 2, {"src_dtype", "use_compute_types"})))
      return failure();
    FailureOr<Value> v = operand(0);
    if (failed(v))
      return failure();
    FailureOr<Type> type = dtypeArg(call.elements[1]);
    if (failed(type))
      return failure();
    for (auto &[key, arg] : call.keywords) {
      if (key != "src_dtype")
        continue;
      FailureOr<Type> src = dtypeArg(arg);
      if (failed(src))
        return failure();
      if (*src != v->getType())
        return error(arg->loc())
               << "src_dtype " << arg->text
               << " does not match the operand's type " << v->getType();
    }
    result.value = convert(*v, *type, l);
    return success();
  }
  if (name == "identity") {
    if (failed(expectArgs(call, 1, 1)))
      return failure();
    FailureOr<SmallVector<Value, 3>> args = operands();
    if (failed(args))
      return failure();
    result.value = (*args)[0];
    return success();
  }
  if (name == "where") {
    if (failed(expectArgs(call, 3, 3)))
      return failure();
    FailureOr<SmallVector<Value, 3>> args = operands();
    if (failed(args))
      return failure();
    auto [c, a, b] = std::tie((*args)[0], (*args)[1], (*args)[2]);
    Type type = promote(a.getType(), b.getType());
    result.value =
        arith::SelectOp::create(builder, l, convert(c, builder.getI1Type(), l),
                                convert(a, type, l), convert(b, type, l));
    return success();
  }
  if (name == "rand") {
    if (failed(expectArgs(call, 2, 2)))
      return failure();
    FailureOr<SmallVector<Value, 3>> args = operands();
    if (failed(args))
      return failure();
    Value seed = (*args)[0], offset = (*args)[1];
    Type offsetType = offset.getType();
    if (!offsetType.isInteger(32) && !offsetType.isInteger(64))
      return error(call.elements[1]->loc())
             << "ops.rand needs an int32 or int64 offset, got " << offsetType;
    result.value =
        RandOp::create(builder, l, builder.getF32Type(),
                       convert(seed, builder.getI64Type(), l), offset);
    return success();
  }
  if (name == "reduction")
    return translateReduction(stmt, call, env, result);
  return translateElementwise(stmt, name, call, env, result);
}

LogicalResult BodyImporter::translateReduction(const DumpStmt &stmt,
                                               const PyValue &call,
                                               llvm::StringMap<BodyValue> &env,
                                               BodyValue &result) {
  Location l = loc(stmt.loc);
  result.kind = BodyValue::Scalar;
  if (failed(expectArgs(call, 4, 4)))
    return failure();
  FailureOr<Type> dtype = dtypeArg(call.elements[0]);
  if (failed(dtype))
    return failure();
  FailureOr<Type> srcType = dtypeArg(call.elements[1]);
  if (failed(srcType))
    return failure();
  FailureOr<StringRef> kindName =
      stringArg(call.elements[2], "a reduction type");
  if (failed(kindName))
    return failure();
  std::optional<ReduceKind> kind = symbolizeReduceKind(*kindName);
  if (!kind)
    return error(call.elements[2]->loc())
           << "unsupported reduction type '" << *kindName << "'";
  SmallVector<Value, 3> inputs;
  const PyValue *arg = call.elements[3];
  if (*kind == ReduceKind::WelfordCombine) {
    // A (mean, m2, weight) triple: a tuple of names, or a name bound to
    // the results of another Welford reduction.
    SmallVector<Value, 3> triple;
    if (arg->kind == PyValue::Kind::Tuple) {
      for (const PyValue *element : arg->elements) {
        FailureOr<Value> v = scalar(element, env);
        if (failed(v))
          return failure();
        triple.push_back(*v);
      }
    } else if (arg->kind == PyValue::Kind::Name) {
      auto it = env.find(arg->str);
      if (it != env.end() && it->second.kind == BodyValue::Tuple)
        triple.assign(it->second.tuple.begin(), it->second.tuple.end());
    }
    if (triple.size() != 3)
      return error(arg->loc()) << "welford_combine needs a (mean, m2, "
                                  "weight) triple, found "
                               << arg->text;
    for (Value v : triple)
      inputs.push_back(convert(v, *dtype, l));
  } else {
    FailureOr<Value> v = scalar(arg, env);
    if (failed(v))
      return failure();
    Value input = convert(*v, *srcType, l);
    switch (*kind) {
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin:
      break;
    case ReduceKind::Any:
      input = convert(input, builder.getI1Type(), l);
      break;
    default:
      input = convert(input, *dtype, l);
      break;
    }
    inputs.push_back(input);
  }
  SmallVector<Type, 3> resultTypes;
  switch (*kind) {
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
    resultTypes.push_back(builder.getI64Type());
    break;
  case ReduceKind::Any:
    resultTypes.push_back(builder.getI1Type());
    break;
  case ReduceKind::WelfordReduce:
  case ReduceKind::WelfordCombine:
    resultTypes.assign(3, *dtype);
    break;
  case ReduceKind::OnlineSoftmaxReduce:
    resultTypes.assign(2, *dtype);
    break;
  default:
    resultTypes.push_back(*dtype);
    break;
  }
  auto reduce = ReduceOp::create(builder, l, resultTypes, *kind, inputs);
  if (resultTypes.size() == 1) {
    result.value = reduce.getResult(0);
  } else {
    result.kind = BodyValue::Tuple;
    result.tuple.assign(reduce.getResults().begin(), reduce.getResults().end());
  }
  return success();
}

LogicalResult BodyImporter::translateElementwise(
    const DumpStmt &stmt, StringRef name, const PyValue &call,
    llvm::StringMap<BodyValue> &env, BodyValue &result) {
  Location l = loc(stmt.loc);
  result.kind = BodyValue::Scalar;
  auto operand = [&](unsigned i) { return scalar(call.elements[i], env); };
  std::optional<OpClass> opClass =
      llvm::StringSwitch<std::optional<OpClass>>(name)
          .Cases({"add", "sub", "mul", "truediv", "floordiv", "mod", "maximum",
                  "minimum", "pow"},
                 OpClass::Binary)
          .Cases({"eq", "ne", "lt", "le", "gt", "ge"}, OpClass::Compare)
          .Cases({"and_", "or_", "xor", "bitwise_and", "bitwise_or",
                  "bitwise_xor"},
                 OpClass::Bitwise)
          .Cases({"logical_and", "logical_or", "logical_xor"}, OpClass::Logical)
          .Cases({"exp", "exp2", "expm1", "log", "log2", "log1p", "sqrt",
                  "rsqrt", "tanh", "erf", "sin", "cos", "sigmoid", "reciprocal",
                  "floor", "ceil", "trunc"},
                 OpClass::FloatUnary)
          .Cases({"neg", "abs", "relu", "square", "logical_not", "bitwise_not"},
                 OpClass::Unary)
          .Default(std::nullopt);
  if (!opClass)
    return error(call.loc()) << "unsupported operation 'ops." << name
                             << "' (docs/Importer.md lists the supported "
                                "operations)";
  bool binary = *opClass == OpClass::Binary || *opClass == OpClass::Compare ||
                *opClass == OpClass::Bitwise || *opClass == OpClass::Logical;
  if (failed(expectArgs(call, binary ? 2 : 1, binary ? 2 : 1)))
    return failure();
  FailureOr<Value> x = operand(0);
  if (failed(x))
    return failure();
  Type i1 = builder.getI1Type();

  if (!binary) {
    Type type = x->getType();
    if (*opClass == OpClass::FloatUnary) {
      Value v = convert(*x, floatTypeFor(type), l);
      result.value = createFloatUnary(builder, l, name, v);
      return success();
    }
    bool isFloat = isa<FloatType>(type);
    if (name == "logical_not") {
      Value b = convert(*x, i1, l);
      result.value = arith::XOrIOp::create(
          builder, l, b,
          arith::ConstantOp::create(builder, l, builder.getBoolAttr(true)));
      return success();
    }
    if (name == "bitwise_not") {
      if (isFloat)
        return error(call.loc()) << "ops.bitwise_not needs an integer operand";
      result.value = arith::XOrIOp::create(
          builder, l, *x,
          arith::ConstantOp::create(builder, l,
                                    builder.getIntegerAttr(type, -1)));
      return success();
    }
    if (type.isInteger(1))
      return error(call.loc())
             << "'ops." << name << "' on a boolean operand is not supported";
    if (name == "neg") {
      result.value = isFloat ? Value(arith::NegFOp::create(builder, l, *x))
                             : Value(arith::SubIOp::create(
                                   builder, l, constant(type, 0, l), *x));
    } else if (name == "abs") {
      result.value = isFloat ? Value(math::AbsFOp::create(builder, l, *x))
                             : Value(math::AbsIOp::create(builder, l, *x));
    } else if (name == "relu") {
      Value zero = constant(type, 0, l);
      result.value =
          isFloat ? Value(arith::MaximumFOp::create(builder, l, *x, zero))
                  : Value(arith::MaxSIOp::create(builder, l, *x, zero));
    } else { // square
      result.value = isFloat ? Value(arith::MulFOp::create(builder, l, *x, *x))
                             : Value(arith::MulIOp::create(builder, l, *x, *x));
    }
    return success();
  }

  FailureOr<Value> y = operand(1);
  if (failed(y))
    return failure();
  if (*opClass == OpClass::Logical) {
    Value a = convert(*x, i1, l), b = convert(*y, i1, l);
    if (name == "logical_and")
      result.value = arith::AndIOp::create(builder, l, a, b);
    else if (name == "logical_or")
      result.value = arith::OrIOp::create(builder, l, a, b);
    else
      result.value = arith::XOrIOp::create(builder, l, a, b);
    return success();
  }
  Type type = promote(x->getType(), y->getType());
  if (name == "truediv")
    type = floatTypeFor(type);
  if (name == "pow" && isa<FloatType>(x->getType()) &&
      isa<IntegerType>(y->getType()) && !y->getType().isInteger(1)) {
    // float ** int keeps the integer exponent.
    result.value = math::FPowIOp::create(builder, l, *x, *y);
    return success();
  }
  Value a = convert(*x, type, l), b = convert(*y, type, l);
  bool isFloat = isa<FloatType>(type);
  bool isBool = type.isInteger(1);

  if (*opClass == OpClass::Bitwise) {
    if (isFloat)
      return error(call.loc())
             << "'ops." << name << "' needs integer or boolean operands, got "
             << type;
    if (name == "and_" || name == "bitwise_and")
      result.value = arith::AndIOp::create(builder, l, a, b);
    else if (name == "or_" || name == "bitwise_or")
      result.value = arith::OrIOp::create(builder, l, a, b);
    else
      result.value = arith::XOrIOp::create(builder, l, a, b);
    return success();
  }
  if (*opClass == OpClass::Compare) {
    if (isFloat) {
      auto pred = llvm::StringSwitch<arith::CmpFPredicate>(name)
                      .Case("eq", arith::CmpFPredicate::OEQ)
                      .Case("ne", arith::CmpFPredicate::UNE)
                      .Case("lt", arith::CmpFPredicate::OLT)
                      .Case("le", arith::CmpFPredicate::OLE)
                      .Case("gt", arith::CmpFPredicate::OGT)
                      .Default(arith::CmpFPredicate::OGE);
      result.value = arith::CmpFOp::create(builder, l, pred, a, b);
    } else {
      // Booleans compare as 0 < 1, so unsigned.
      auto pred = llvm::StringSwitch<arith::CmpIPredicate>(name)
                      .Case("eq", arith::CmpIPredicate::eq)
                      .Case("ne", arith::CmpIPredicate::ne)
                      .Case("lt", isBool ? arith::CmpIPredicate::ult
                                         : arith::CmpIPredicate::slt)
                      .Case("le", isBool ? arith::CmpIPredicate::ule
                                         : arith::CmpIPredicate::sle)
                      .Case("gt", isBool ? arith::CmpIPredicate::ugt
                                         : arith::CmpIPredicate::sgt)
                      .Default(isBool ? arith::CmpIPredicate::uge
                                      : arith::CmpIPredicate::sge);
      result.value = arith::CmpIOp::create(builder, l, pred, a, b);
    }
    return success();
  }
  // Arithmetic.
  if (isBool)
    return error(call.loc())
           << "'ops." << name << "' on boolean operands is not supported";
  if (name == "maximum" || name == "minimum") {
    bool max = name == "maximum";
    if (isFloat)
      result.value = max ? Value(arith::MaximumFOp::create(builder, l, a, b))
                         : Value(arith::MinimumFOp::create(builder, l, a, b));
    else
      result.value = max ? Value(arith::MaxSIOp::create(builder, l, a, b))
                         : Value(arith::MinSIOp::create(builder, l, a, b));
    return success();
  }
  if (name == "pow") {
    result.value = isFloat ? Value(math::PowFOp::create(builder, l, a, b))
                           : Value(math::IPowIOp::create(builder, l, a, b));
    return success();
  }
  if (name == "floordiv") {
    result.value =
        isFloat ? Value(math::FloorOp::create(
                      builder, l, arith::DivFOp::create(builder, l, a, b)))
                : Value(arith::FloorDivSIOp::create(builder, l, a, b));
    return success();
  }
  if (name == "mod") {
    result.value = isFloat ? Value(arith::RemFOp::create(builder, l, a, b))
                           : Value(arith::RemSIOp::create(builder, l, a, b));
    return success();
  }
  if (name == "truediv") {
    result.value = arith::DivFOp::create(builder, l, a, b);
    return success();
  }
  if (isFloat) {
    if (name == "add")
      result.value = arith::AddFOp::create(builder, l, a, b);
    else if (name == "sub")
      result.value = arith::SubFOp::create(builder, l, a, b);
    else
      result.value = arith::MulFOp::create(builder, l, a, b);
  } else {
    if (name == "add")
      result.value = arith::AddIOp::create(builder, l, a, b);
    else if (name == "sub")
      result.value = arith::SubIOp::create(builder, l, a, b);
    else
      result.value = arith::MulIOp::create(builder, l, a, b);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Loads the FX graph given in the options, or the one next to the dump.
static LogicalResult loadFxGraph(llvm::SourceMgr &sourceMgr,
                                 const DumpLocator &locator,
                                 const InductorImportOptions &options,
                                 llvm::StringMap<FxPlaceholder> &fx) {
  std::string path = options.fxGraphPath;
  if (path.empty()) {
    if (options.noFxGraphLookup)
      return success();
    StringRef dumpPath = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                             ->getBufferIdentifier();
    if (dumpPath.empty() || dumpPath == "<stdin>")
      return success();
    SmallString<256> candidate(llvm::sys::path::parent_path(dumpPath));
    llvm::sys::path::append(candidate, "fx_graph_readable.py");
    auto file = llvm::MemoryBuffer::getFile(candidate, /*IsText=*/true);
    if (!file)
      return success(); // Optional: only needed for some inputs.
    unsigned id = sourceMgr.AddNewSourceBuffer(std::move(*file), SMLoc());
    return readFxPlaceholders(id, locator, fx);
  }
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return emitError(UnknownLoc::get(locator.getContext()))
           << "cannot open the FX graph '" << path
           << "': " << file.getError().message();
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(*file), SMLoc());
  return readFxPlaceholders(id, locator, fx);
}

OwningOpRef<ModuleOp> mlir::fusion::inductor::importParsedDump(
    InductorDump &dump, llvm::SourceMgr &sourceMgr, const DumpLocator &locator,
    const InductorImportOptions &options) {
  llvm::StringMap<FxPlaceholder> fx;
  if (failed(loadFxGraph(sourceMgr, locator, options, fx)))
    return nullptr;
  return GraphImporter(dump, locator, options, fx).run();
}

OwningOpRef<ModuleOp>
mlir::fusion::importInductorDump(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context,
                                 const InductorImportOptions &options) {
  context->loadDialect<FusionDialect, arith::ArithDialect, math::MathDialect>();
  DumpLocator locator(sourceMgr, context);
  InductorDump dump;
  if (failed(parseInductorDump(sourceMgr.getMainFileID(), locator, dump)))
    return nullptr;
  return importParsedDump(dump, sourceMgr, locator, options);
}
