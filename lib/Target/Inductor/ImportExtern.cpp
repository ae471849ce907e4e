//===- ImportExtern.cpp - Extern, nop and MultiOutput nodes ---------------===//
//
// ExternKernelSchedulerNode becomes fusion.extern (whole-buffer reads and
// writes), NopKernelSchedulerNode fusion.nop (aliases, no computation); a
// MultiOutput node picks one element of a multi-output tuple.
//
//===----------------------------------------------------------------------===//

#include "CreateOp.h"
#include "ImportInductorImpl.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

FailureOr<AffineMapAttr>
GraphImporter::concatInputOffsets(const DumpNode &node,
                                  ArrayRef<StringRef> inputs) {
  auto isPart = [&](StringRef input) {
    auto it = concatInputOf.find(input);
    return it != concatInputOf.end() && node.outputs.size() == 1 &&
           it->second == node.outputs.front().name;
  };
  if (llvm::none_of(inputs, isPart))
    return AffineMapAttr(); // a view, not a concatenation
  StringRef result = node.outputs.front().name;
  for (StringRef input : inputs)
    if (!isPart(input))
      return error(node.loc)
             << "'" << node.name << "' concatenates '" << input
             << "', which is not a view of its result '" << result << "'";
  // Where each input lies: only the backend's buffer_views.json says. A
  // dump without it imports and schedules; its lowering reports the nop.
  if (!bufferViews)
    return AffineMapAttr();
  SmallVector<AffineExpr> offsets;
  for (StringRef input : inputs) {
    auto it = bufferViews->find(input);
    if (it == bufferViews->end())
      return AffineMapAttr();
    if (it->second.base != result)
      return error(it->second.loc)
             << "buffer views: '" << input << "' is a view of '" << result
             << "' in the dump, not of '" << it->second.base << "'";
    offsets.push_back(it->second.offset);
  }
  unsigned numSymbols = 0;
  for (AffineExpr offset : offsets)
    numSymbols = std::max(numSymbols, getNumSymbolsUsed(offset));
  return AffineMapAttr::get(AffineMap::get(0, numSymbols, offsets, ctx));
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
    SmallVector<StringRef> inputNames =
        llvm::map_to_vector(reads, [](auto &read) { return read.first; });
    FailureOr<AffineMapAttr> offsets = concatInputOffsets(node, inputNames);
    if (failed(offsets))
      return failure();
    NopOp op = createOp<NopOp>(
        builder, nodeLoc(node), types, builder.getStringAttr(node.name),
        builder.getStrArrayAttr(names), inputs, *offsets);
    bindOutputs(node, op->getResults());
    return success();
  }

  FailureOr<SmallVector<int64_t>> tied = tieMutations(node, inputs, types);
  if (failed(tied))
    return failure();
  // It survived dead-node elimination without a user: it has side effects.
  bool sideEffects = llvm::all_of(node.outputs, [](const DumpBuffer &b) {
    return llvm::all_of(b.users, [](const DumpUser &u) { return u.isWeak; });
  });
  // A template SchedulerNode names no kernel: its buffer class does.
  StringRef kernel = node.kind == DumpNode::Kind::Scheduler
                         ? node.innerClasses
                         : node.kernel;
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
  ExternOp op = createOp<ExternOp>(builder, nodeLoc(node), node.name, kernel,
                                   inputs, types, names, *tied, sideEffects);
  if (index)
    op->setAttr("index", builder.getI64IntegerAttr(*index));
  bindOutputs(node, op->getResults());
  return success();
}
