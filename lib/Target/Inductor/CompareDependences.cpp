//===- CompareDependences.cpp - Check the analysis against a dump ---------===//
//
// Imports a dump, runs DependenceGraph on the graph and compares what it
// computes with the dependences and users Inductor printed for every node.
// A dependence matches exactly when both print the same text; otherwise it
// matches semantically when kind, buffer, sizes and mode agree and the two
// index expressions are the same function: equal once simplified, or equal
// on every point of the iteration space (sampled when it is large).
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Target/Inductor/ImportInductor.h"

#include "DumpFields.h"
#include "ImportInductorImpl.h"
#include "IndexExpr.h"
#include "InductorDump.h"

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Target/Inductor/InductorFormat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

namespace {
/// How one pair of dependences (or user lists) agreed.
enum class Agreement { Exact, Simplified, Exhaustive, Sampled, Different };

struct FieldStats {
  unsigned exact = 0, semantic = 0, different = 0;
};

class DependenceComparer {
public:
  DependenceComparer(const DumpLocator &locator, DependenceGraph &graph,
                     llvm::raw_ostream &os)
      : locator(locator), graph(graph), os(os), ctx(locator.getContext()) {}

  LogicalResult run(InductorDump &dump);

private:
  void compareDeps(const DumpNode &node, StringRef field,
                   const DumpDepList &expected, ArrayRef<Attribute> actual,
                   FieldStats &stats);
  Agreement compareDep(const DumpDep &expected, Attribute actual);
  Agreement compareIndex(const DumpDep &expected, ArrayRef<AffineExpr> sizes,
                         MemoryDepAttr actual);
  void compareUsers(const DumpBuffer &buffer);

  const DumpLocator &locator;
  DependenceGraph &graph;
  llvm::raw_ostream &os;
  MLIRContext *ctx;
  SizeSymbols *symbols = nullptr;
  FieldStats writes, unmet, met, users;
};
} // namespace

static StringRef describe(Agreement agreement) {
  switch (agreement) {
  case Agreement::Simplified:
    return "the same simplified expression";
  case Agreement::Exhaustive:
    return "equal on every point of the iteration space";
  case Agreement::Sampled:
    return "equal on sampled points of the iteration space";
  default:
    return "";
  }
}

Agreement DependenceComparer::compareIndex(const DumpDep &expected,
                                           ArrayRef<AffineExpr> expectedSizes,
                                           MemoryDepAttr actual) {
  // The dump names dimensions d<k> (c<k> after loop merging), size symbols
  // (s27) and indirect indices tmp<k>, which follow the size symbols.
  unsigned numDims = expectedSizes.size();
  unsigned numSizeSymbols = symbols->getNames().size();
  unsigned numSymbols =
      std::max(actual.getIndex().getNumSymbols(), numSizeSymbols);
  auto resolve = [&](StringRef name) -> AffineExpr {
    if (std::optional<unsigned> sym = symbols->lookup(name))
      return getAffineSymbolExpr(*sym, ctx);
    unsigned k;
    StringRef rest = name;
    if ((rest.consume_front("d") || rest.consume_front("c")) &&
        !rest.getAsInteger(10, k) && k < numDims)
      return getAffineDimExpr(k, ctx);
    rest = name;
    if (rest.consume_front("tmp") && !rest.getAsInteger(10, k) && k < 64) {
      numSymbols = std::max(numSymbols, numSizeSymbols + k + 1);
      return getAffineSymbolExpr(numSizeSymbols + k, ctx);
    }
    return AffineExpr();
  };
  FailureOr<AffineExpr> parsed =
      parseIndexExpr(
          expected.index, ctx, resolve,
          [&](const char *at) { return locator.emitError(at); },
          [&](unsigned position) { return position < numSizeSymbols; });
  if (failed(parsed))
    return Agreement::Different;
  AffineExpr lhs = simplifyAffineExpr(*parsed, numDims, numSymbols);
  AffineExpr rhs =
      simplifyAffineExpr(actual.getIndex().getResult(0), numDims, numSymbols);
  if (lhs == rhs)
    return Agreement::Simplified;

  // Evaluate both: every point when there are few, else corners and a
  // deterministic pseudo-random sample; indirect indices take a few values.
  // Size symbols take small distinct values (at least 2, as Inductor's).
  SmallVector<int64_t> sizeValues;
  for (unsigned i = 0; i < numSizeSymbols; ++i)
    sizeValues.push_back(5 + 2 * i);
  SmallVector<int64_t> sizes;
  for (AffineExpr size : expectedSizes)
    sizes.push_back(evaluateSizeExpr(size, sizeValues).value_or(1));
  uint64_t total = 1;
  bool small = true;
  for (int64_t s : sizes) {
    total *= static_cast<uint64_t>(std::max<int64_t>(s, 1));
    if (total > 4096)
      small = false;
  }
  static constexpr int64_t symbolValues[] = {0, 1, 3, 17, 1000};
  auto agrees = [&](ArrayRef<int64_t> point, unsigned variant) {
    SmallVector<int64_t> symbols(numSymbols);
    for (unsigned s = 0; s < numSymbols; ++s)
      symbols[s] = s < numSizeSymbols
                       ? sizeValues[s]
                       : symbolValues[(variant + s) % std::size(symbolValues)];
    std::optional<int64_t> a = evaluateAffineExpr(lhs, point, symbols);
    std::optional<int64_t> b = evaluateAffineExpr(rhs, point, symbols);
    return a && b && *a == *b;
  };
  SmallVector<int64_t> point(sizes.size(), 0);
  if (small) {
    for (uint64_t n = 0; n < total; ++n) {
      uint64_t rest = n;
      for (size_t d = sizes.size(); d-- > 0;) {
        uint64_t s = std::max<int64_t>(sizes[d], 1);
        point[d] = rest % s;
        rest /= s;
      }
      for (unsigned variant = 0; variant < (numSymbols ? 3u : 1u); ++variant)
        if (!agrees(point, variant))
          return Agreement::Different;
    }
    return Agreement::Exhaustive;
  }
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (unsigned sample = 0; sample < 512; ++sample) {
    for (size_t d = 0; d < sizes.size(); ++d) {
      int64_t s = std::max<int64_t>(sizes[d], 1);
      if (sample == 0)
        point[d] = 0;
      else if (sample == 1)
        point[d] = s - 1;
      else {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        point[d] = static_cast<int64_t>((state >> 33) % s);
      }
    }
    if (!agrees(point, sample))
      return Agreement::Different;
  }
  return Agreement::Sampled;
}

Agreement DependenceComparer::compareDep(const DumpDep &expected,
                                         Attribute actual) {
  auto modeName = [](StoreModeAttr mode) -> StringRef {
    return mode ? stringifyStoreMode(mode.getValue()) : StringRef();
  };
  switch (expected.kind) {
  case DumpDep::Kind::Star: {
    auto star = dyn_cast<StarDepAttr>(actual);
    if (star && star.getName() == expected.name &&
        modeName(star.getMode()) == expected.mode)
      return Agreement::Simplified;
    return Agreement::Different;
  }
  case DumpDep::Kind::Weak: {
    auto weak = dyn_cast<WeakDepAttr>(actual);
    if (weak && weak.getName() == expected.name &&
        weak.getMutating() == expected.mutatingBuf)
      return Agreement::Simplified;
    return Agreement::Different;
  }
  case DumpDep::Kind::Memory:
    break;
  }
  auto memory = dyn_cast<MemoryDepAttr>(actual);
  if (!memory || memory.getName() != expected.name ||
      modeName(memory.getMode()) != expected.mode)
    return Agreement::Different;
  SmallVector<std::pair<StringRef, AffineExpr>, 4> namedSizes;
  if (failed(readDepSizes(expected, locator, *symbols, namedSizes)))
    return Agreement::Different;
  SmallVector<AffineExpr, 4> sizes =
      llvm::to_vector<4>(llvm::make_second_range(namedSizes));
  if (memory.getSizes().size() != sizes.size())
    return Agreement::Different;
  for (auto [size, expectedSize] : llvm::zip(memory.getSizes(), sizes))
    if (canonicalizeIndexExpr(size) != canonicalizeIndexExpr(expectedSize))
      return Agreement::Different;
  return compareIndex(expected, sizes, memory);
}

void DependenceComparer::compareDeps(const DumpNode &node, StringRef field,
                                     const DumpDepList &expected,
                                     ArrayRef<Attribute> actual,
                                     FieldStats &stats) {
  SmallVector<std::string> texts;
  for (Attribute dep : actual)
    texts.push_back(formatInductorDep(dep, symbols->getNames().size()));
  SmallVector<bool> used(actual.size(), false);
  SmallVector<const DumpDep *> pending;
  for (const DumpDep &dep : expected.deps) {
    auto it = llvm::find_if(llvm::seq<size_t>(0, actual.size()), [&](size_t i) {
      return !used[i] && texts[i] == dep.text;
    });
    if (it != llvm::seq<size_t>(0, actual.size()).end()) {
      used[*it] = true;
      ++stats.exact;
      continue;
    }
    pending.push_back(&dep);
  }
  for (const DumpDep *dep : pending) {
    bool found = false;
    for (size_t i = 0; i < actual.size() && !found; ++i) {
      if (used[i])
        continue;
      Agreement agreement = compareDep(*dep, actual[i]);
      if (agreement == Agreement::Different)
        continue;
      used[i] = found = true;
      ++stats.semantic;
      os << node.name << "." << field << ": " << dep->text << " ~ " << texts[i]
         << " (" << describe(agreement) << ")\n";
    }
    if (found)
      continue;
    ++stats.different;
    locator.emitError(dep->loc())
        << node.name << "." << field << ": Inductor lists " << dep->text
        << ", which the dependence analysis does not compute";
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    if (used[i])
      continue;
    ++stats.different;
    locator.emitError(expected.loc)
        << node.name << "." << field << ": the dependence analysis computes "
        << texts[i] << ", which Inductor does not list";
  }
}

static std::string formatUser(StringRef nodeClass, StringRef nodeName,
                              bool canInplace, bool isWeak) {
  std::string node = nodeName.empty()
                         ? "OUTPUT"
                         : (nodeClass + "(name='" + nodeName + "')").str();
  return "NodeUser(node=" + node +
         ", can_inplace=" + (canInplace ? "True" : "False") +
         ", is_weak=" + (isWeak ? "True" : "False") + ")";
}

void DependenceComparer::compareUsers(const DumpBuffer &buffer) {
  Value value = graph.lookupBuffer(StringAttr::get(ctx, buffer.name));
  SmallVector<std::string> expected, actual;
  for (const DumpUser &user : buffer.users)
    expected.push_back(formatUser(user.nodeClass, user.nodeName,
                                  user.canInplace, user.isWeak));
  if (value)
    for (const NodeUser &user : graph.getUsers(value)) {
      if (user.isOutput()) {
        actual.push_back(formatUser("", "", user.canInplace, user.isWeak));
        continue;
      }
      auto leaf = cast<SchedulerNodeOpInterface>(user.leaf);
      actual.push_back(formatUser(leaf.getInductorClassName(),
                                  leaf.getNodeName(), user.canInplace,
                                  user.isWeak));
    }
  if (expected == actual) {
    ++users.exact;
    return;
  }
  ++users.different;
  locator.emitError(buffer.usersLoc)
      << buffer.name << ".users: Inductor lists [" << llvm::join(expected, ", ")
      << "], the dependence analysis computes [" << llvm::join(actual, ", ")
      << "]";
}

LogicalResult DependenceComparer::run(InductorDump &dump) {
  symbols = &dump.symbols;
  llvm::StringMap<unsigned> indexOf;
  for (unsigned n = 0, e = graph.getNumNodes(); n < e; ++n)
    indexOf[graph.getNode(n).getNodeName()] = n;
  unsigned numBuffers = 0;
  for (const auto &nodePtr : dump.nodes) {
    const DumpNode &node = *nodePtr;
    auto it = indexOf.find(node.name);
    if (it == indexOf.end()) {
      locator.emitError(node.loc)
          << "node '" << node.name << "' has no counterpart in the graph";
      ++writes.different;
      continue;
    }
    unsigned n = it->second;
    compareDeps(node, "writes", node.writes, graph.getWrites(n), writes);
    compareDeps(node, "unmet_dependencies", node.unmet,
                graph.getUnmetDependencies(n), unmet);
    compareDeps(node, "met_dependencies", node.met, graph.getMetDependencies(n),
                met);
    for (const DumpBuffer &buffer : node.outputs) {
      compareUsers(buffer);
      ++numBuffers;
    }
  }
  os << "compare-inductor-deps: " << dump.nodes.size() << " nodes, "
     << numBuffers << " buffers\n";
  for (auto [name, stats] :
       {std::pair<StringRef, FieldStats *>{"writes", &writes},
        {"unmet_dependencies", &unmet},
        {"met_dependencies", &met}})
    os << "  " << name << ": " << stats->exact << " exact, " << stats->semantic
       << " semantic, " << stats->different << " different\n";
  os << "  users: " << users.exact << " exact, " << users.different
     << " different\n";
  unsigned different =
      writes.different + unmet.different + met.different + users.different;
  return success(different == 0);
}

LogicalResult mlir::fusion::compareInductorDependences(
    llvm::SourceMgr &sourceMgr, MLIRContext *context, llvm::raw_ostream &os,
    const InductorImportOptions &options) {
  context->loadDialect<FusionDialect, arith::ArithDialect, math::MathDialect>();
  DumpLocator locator(sourceMgr, context);
  InductorDump dump;
  if (failed(parseInductorDump(sourceMgr.getMainFileID(), locator, dump)))
    return failure();
  // The dump's nodes, before create_foreach_nodes groups any of them.
  InductorImportOptions asDumped = options;
  asDumped.noForeachLists = true;
  OwningOpRef<ModuleOp> module =
      importParsedDump(dump, sourceMgr, locator, asDumped, /*keepParsed=*/true,
                       hasBodyThreads(context));
  if (!module)
    return failure();
  GraphOp graphOp = *module->getOps<GraphOp>().begin();
  DependenceGraph graph(graphOp);
  if (graph.hasCycle()) {
    graph.emitCycleError();
    return failure();
  }
  return DependenceComparer(locator, graph, os).run(dump);
}
