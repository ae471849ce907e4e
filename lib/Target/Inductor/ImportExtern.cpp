//===- ImportExtern.cpp - Extern, nop and MultiOutput nodes ---------------===//
//
// ExternKernelSchedulerNode becomes fusion.extern (whole-buffer reads and
// writes), NopKernelSchedulerNode fusion.nop (aliases, no computation); a
// MultiOutput node picks one element of a multi-output tuple.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

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
  ExternOp op = ExternOp::create(builder, loc(node.loc), node.name, kernel,
                                 inputs, types, names, *tied, sideEffects);
  if (index)
    op->setAttr("index", builder.getI64IntegerAttr(*index));
  bindOutputs(node, op->getResults());
  return success();
}
