//===- ImportForeach.cpp - Foreach lists (create_foreach_nodes) -----------===//
//
// `foreach_lists.json` records `V.graph.lists`, the lists of node names that
// Inductor's `_foreach_*` lowerings register. Right after the pre-fusion
// dump is written, `Scheduler.create_foreach_nodes` turns each list into a
// ForeachKernelSchedulerNode and `topological_sort_schedule` orders the
// nodes again. The importer does the same to the parsed dump, so that the
// graph holds one `fusion.foreach` per list, in Inductor's order.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

/// Reads `{"list_name": ["op0", "op1", ...], ...}` (JSON, which is also a
/// Python literal) in buffer `bufferId`, in file order.
static LogicalResult readLists(unsigned bufferId, const DumpLocator &locator,
                               PyValueArena &arena,
                               SmallVectorImpl<ForeachList> &lists) {
  StringRef text =
      locator.getSourceMgr().getMemoryBuffer(bufferId)->getBuffer();
  const char *start = text.data();
  text = text.trim();
  if (text.empty())
    return locator.emitError(start)
           << "foreach lists: expected a JSON object of lists of node names";
  FailureOr<PyValue *> value = parsePyValue(text, locator, arena);
  if (failed(value))
    return failure();
  if ((*value)->kind != PyValue::Kind::Dict)
    return locator.emitError((*value)->loc())
           << "foreach lists: expected a JSON object of lists of node names";
  ArrayRef<PyValue *> entries = (*value)->elements;
  for (unsigned i = 0; i + 1 < entries.size(); i += 2) {
    const PyValue *key = entries[i], *names = entries[i + 1];
    if (key->kind != PyValue::Kind::String)
      return locator.emitError(key->loc())
             << "foreach lists: a list name must be a string";
    if (names->kind != PyValue::Kind::List)
      return locator.emitError(names->loc())
             << "foreach lists: '" << key->str
             << "' must be a list of node names";
    ForeachList &list = lists.emplace_back();
    list.name = key->str;
    list.loc = key->loc();
    for (const PyValue *name : names->elements) {
      if (name->kind != PyValue::Kind::String)
        return locator.emitError(name->loc())
               << "foreach lists: a node name must be a string";
      list.names.push_back({name->str, name->loc()});
    }
  }
  return success();
}

LogicalResult mlir::fusion::inductor::loadForeachLists(
    llvm::SourceMgr &sourceMgr, const DumpLocator &locator,
    const InductorImportOptions &options, PyValueArena &arena,
    SmallVectorImpl<ForeachList> &lists) {
  if (options.noForeachLists)
    return success();
  FailureOr<std::optional<unsigned>> id = addCompanionFile(
      sourceMgr, locator.getContext(), options.foreachListsPath,
      "foreach_lists.json", /*lookup=*/true, "foreach lists");
  if (failed(id))
    return failure();
  if (!*id)
    return success(); // Absent: the graph has no foreach lists.
  return readLists(**id, locator, arena, lists);
}

/// Calls `fn` on each buffer a top-level node writes (its members' for a
/// container, which lists them too, so a name may come twice).
static void forEachBufferName(const DumpNode &node,
                              function_ref<void(StringRef)> fn) {
  for (const DumpBuffer &buffer : node.outputs)
    fn(buffer.name);
  for (const auto &member : node.members)
    forEachBufferName(*member, fn);
}

/// The names of a node's unmet dependences (for a container, its members'
/// on buffers it does not write itself), sorted as Python sorts strings.
static SmallVector<StringRef> sortedUnmetNames(const DumpNode &node) {
  SmallVector<const DumpNode *> leaves = {&node};
  SmallVector<StringRef> names;
  while (!leaves.empty()) {
    const DumpNode *leaf = leaves.pop_back_val();
    for (const auto &member : leaf->members)
      leaves.push_back(member.get());
    if (leaf->members.empty())
      for (const DumpDep &dep : leaf->unmet.deps)
        names.push_back(dep.name);
  }
  // A dense set keeps a node's buffer or two inline (a StringSet would
  // allocate a table and each name).
  llvm::SmallDenseSet<StringRef, 8> own;
  forEachBufferName(node, [&](StringRef name) { own.insert(name); });
  llvm::erase_if(names, [&](StringRef name) { return own.contains(name); });
  llvm::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

/// Inductor's topological_sort_schedule: a depth-first search that places
/// every node after the producers of its unmet dependences, visited in the
/// order of the dependences' names; other nodes keep their order.
static void topologicalSortSchedule(
    std::vector<std::unique_ptr<DumpNode>> &nodes) {
  llvm::DenseMap<StringRef, unsigned> producerOf;
  for (auto [index, node] : llvm::enumerate(nodes))
    forEachBufferName(*node,
                      [&, index = index](StringRef name) {
                        producerOf[name] = index;
                      });
  std::vector<SmallVector<StringRef>> unmet;
  for (const auto &node : nodes)
    unmet.push_back(sortedUnmetNames(*node));
  std::vector<bool> seen(nodes.size(), false);
  std::vector<unsigned> order;
  struct Frame {
    unsigned node;
    unsigned next = 0;
  };
  for (unsigned root = 0; root < nodes.size(); ++root) {
    if (seen[root])
      continue;
    seen[root] = true;
    SmallVector<Frame> stack = {{root}};
    while (!stack.empty()) {
      Frame &top = stack.back();
      if (top.next < unmet[top.node].size()) {
        auto it = producerOf.find(unmet[top.node][top.next++]);
        if (it != producerOf.end() && !seen[it->second]) {
          seen[it->second] = true;
          stack.push_back({it->second});
        }
        continue;
      }
      order.push_back(top.node);
      stack.pop_back();
    }
  }
  std::vector<std::unique_ptr<DumpNode>> sorted;
  for (unsigned index : order)
    sorted.push_back(std::move(nodes[index]));
  nodes = std::move(sorted);
}

LogicalResult mlir::fusion::inductor::createForeachNodes(
    InductorDump &dump, ArrayRef<ForeachList> lists,
    const DumpLocator &locator) {
  if (lists.empty())
    return success();
  llvm::DenseMap<StringRef, unsigned> topLevel;
  for (auto [index, node] : llvm::enumerate(dump.nodes))
    topLevel[node->name] = index;
  llvm::DenseMap<StringRef, const char *> listed;
  std::vector<std::unique_ptr<DumpNode>> foreachNodes;
  for (const ForeachList &list : lists) {
    // Names of nodes that dead-node elimination removed are skipped, and
    // so are nops.
    SmallVector<unsigned> members;
    for (auto [name, at] : list.names) {
      auto it = topLevel.find(name);
      if (it == topLevel.end())
        continue;
      auto [prev, inserted] = listed.try_emplace(name, at);
      if (!inserted) {
        InFlightDiagnostic diag = locator.emitError(at)
                                  << "node '" << name
                                  << "' is in two foreach lists";
        diag.attachNote(locator.get(prev->second)) << "first listed here";
        return diag;
      }
      DumpNode &node = *dump.nodes[it->second];
      if (node.kind == DumpNode::Kind::Nop)
        continue;
      if (node.kind != DumpNode::Kind::Scheduler &&
          node.kind != DumpNode::Kind::Fused)
        return locator.emitError(at)
               << "foreach list '" << list.name << "' names '" << name
               << "', a " << node.kindName
               << "; a foreach kernel holds SchedulerNodes and "
                  "FusedSchedulerNodes";
      members.push_back(it->second);
    }
    if (members.empty())
      continue;
    // The parts of a foreach kernel run at the same time.
    llvm::DenseMap<StringRef, const DumpNode *> writer;
    for (unsigned index : members) {
      const DumpNode *node = dump.nodes[index].get();
      forEachBufferName(*node,
                        [&](StringRef name) { writer[name] = node; });
    }
    for (unsigned index : members) {
      const DumpNode &node = *dump.nodes[index];
      for (StringRef dep : sortedUnmetNames(node)) {
        auto it = writer.find(dep);
        if (it != writer.end())
          return locator.emitError(listed.lookup(node.name))
                 << "foreach list '" << list.name << "': '" << node.name
                 << "' reads '" << dep << "', which '" << it->second->name
                 << "' of the same list writes; the parts of a foreach "
                    "kernel do not depend on each other";
      }
    }
    auto foreach = std::make_unique<DumpNode>();
    foreach->kind = DumpNode::Kind::Foreach;
    foreach->name = list.name;
    foreach->loc = list.loc;
    foreach->kindName = "ForeachKernelSchedulerNode";
    for (unsigned index : members) {
      llvm::append_range(foreach->outputs, dump.nodes[index]->outputs);
      foreach->members.push_back(std::move(dump.nodes[index]));
    }
    foreachNodes.push_back(std::move(foreach));
  }
  // The nodes left, then the foreach nodes, then Inductor's sort.
  llvm::erase_if(dump.nodes, [](const auto &node) { return !node; });
  for (auto &foreach : foreachNodes)
    dump.nodes.push_back(std::move(foreach));
  topologicalSortSchedule(dump.nodes);
  return success();
}
