//===- SchedulingPassesTest.cpp - Scheduling passes on generated graphs ---===//
//
// Randomized tests: on graphs from the generator (shuffled, so that the sort
// has work to do), every pass succeeds, topological sort satisfies every
// dependence, dead-node elimination removes exactly the nodes that reach no
// output and no side effect (computed here independently), loop reordering
// keeps the exact elements every node reads and writes, and running any pass
// a second time changes nothing.
//
//===----------------------------------------------------------------------===//

#include "GraphGenerator.h"

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"

#include "gtest/gtest.h"

#include <functional>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::fusion;

namespace {

using PassFactory = std::function<std::unique_ptr<Pass>()>;

class SchedulingPassesTest : public ::testing::Test {
protected:
  OwningOpRef<ModuleOp> generate(unsigned numNodes, uint64_t seed,
                                 int64_t maxDim = 32) {
    GraphGeneratorOptions options;
    options.numNodes = numNodes;
    options.seed = seed;
    options.maxDim = maxDim;
    options.shuffle = true;
    OwningOpRef<ModuleOp> module = generateGraphModule(&ctx, options);
    EXPECT_TRUE(succeeded(verify(*module)));
    return module;
  }

  static GraphOp graphOf(ModuleOp module) {
    return *module.getBody()->getOps<GraphOp>().begin();
  }

  LogicalResult run(ModuleOp module, const PassFactory &factory) {
    PassManager pm(&ctx);
    pm.addNestedPass<GraphOp>(factory());
    return pm.run(module);
  }

  static std::string print(Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os);
    return text;
  }

  static std::vector<std::string> nodeNames(GraphOp graph) {
    std::vector<std::string> names;
    for (Operation &op : graph.getBodyBlock().without_terminator())
      names.push_back(cast<SchedulerNodeOpInterface>(op).getNodeName());
    return names;
  }

  MLIRContext ctx;
};

const PassFactory kSort = [] { return createTopologicalSortPass(); };
const PassFactory kDNE = [] { return createDeadNodeEliminationPass(); };
const PassFactory kReorder = [] { return createReorderLoopsPass(); };

//===----------------------------------------------------------------------===//
// Topological sort
//===----------------------------------------------------------------------===//

/// The top-level op of `graph` holding `op`.
static Operation *topLevel(GraphOp graph, Operation *op) {
  return graph.getBodyBlock().findAncestorOpInBlock(*op);
}

TEST_F(SchedulingPassesTest, TopologicalSortSatisfiesEveryDependence) {
  for (unsigned numNodes : {40u, 300u}) {
    for (uint64_t seed = 0; seed < 12; ++seed) {
      OwningOpRef<ModuleOp> module = generate(numNodes, seed);
      GraphOp graph = graphOf(*module);
      std::multiset<std::string> before;
      for (const std::string &name : nodeNames(graph))
        before.insert(name);
      ASSERT_TRUE(succeeded(run(*module, kSort))) << "seed " << seed;
      ASSERT_TRUE(succeeded(verify(*module)));
      std::vector<std::string> after = nodeNames(graph);
      EXPECT_EQ(before, std::multiset<std::string>(after.begin(), after.end()));

      DenseMap<Operation *, unsigned> position;
      for (Operation &op : graph.getBodyBlock().without_terminator())
        position[&op] = position.size();

      // Every value a node uses is produced earlier.
      for (Operation &op : graph.getBodyBlock().without_terminator()) {
        op.walk([&](Operation *inner) {
          for (Value operand : inner->getOperands()) {
            Operation *def = operand.getDefiningOp();
            if (!def)
              continue;
            Operation *producer = topLevel(graph, def);
            if (producer && producer != &op) {
              EXPECT_LT(position.lookup(producer), position.lookup(&op))
                  << "seed " << seed;
            }
          }
        });
      }
      // Every reader of a buffer version (or of a view of it) runs before
      // the node that overwrites that version in place.
      for (Operation &op : graph.getBodyBlock().without_terminator()) {
        auto node = cast<SchedulerNodeOpInterface>(op);
        for (unsigned r = 0, e = op.getNumResults(); r < e; ++r) {
          Value old = node.getMutatedBuffer(r);
          if (!old)
            continue;
          SmallVector<Value> versions = {old};
          for (Operation *user : old.getUsers())
            if (auto nop = dyn_cast<NopOp>(user))
              llvm::append_range(versions, nop.getResults());
          for (Value version : versions)
            for (Operation *user : version.getUsers()) {
              Operation *reader = topLevel(graph, user);
              if (reader && reader != &op) {
                EXPECT_LT(position.lookup(reader), position.lookup(&op))
                    << "seed " << seed;
              }
            }
        }
      }
      // The analysis agrees: every predecessor comes first.
      DependenceGraph deps(graph);
      EXPECT_FALSE(deps.hasCycle());
      for (unsigned n = 0, e = deps.getNumNodes(); n < e; ++n)
        for (unsigned p : deps.getPredecessors(n))
          EXPECT_LT(p, n) << "seed " << seed;
    }
  }
}

//===----------------------------------------------------------------------===//
// Dead-node elimination
//===----------------------------------------------------------------------===//

/// True when overwriting `buffer` writes the storage of a graph input:
/// walks back through views and earlier in-place versions.
static bool isGraphInputStorage(Value buffer) {
  SmallVector<Value> worklist = {buffer};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value))
      if (isa<GraphOp>(arg.getOwner()->getParentOp()))
        return true;
    auto result = dyn_cast<OpResult>(value);
    if (!result)
      continue;
    if (auto nop = dyn_cast<NopOp>(result.getOwner()))
      llvm::append_range(worklist, nop.getInputs());
    else if (auto leaf = dyn_cast<SchedulerNodeOpInterface>(result.getOwner()))
      if (Value old = leaf.getMutatedBuffer(result.getResultNumber()))
        worklist.push_back(old);
  }
  return false;
}

/// Names of the nodes that reach an output, a side-effecting extern or a
/// write into a graph input, by a naive fixpoint over the whole graph.
static std::set<std::string> expectedLiveNodes(GraphOp graph) {
  Block &block = graph.getBodyBlock();
  std::set<Operation *> live;
  for (Operation &op : block.without_terminator()) {
    auto node = cast<SchedulerNodeOpInterface>(op);
    bool root = node.hasSideEffects();
    for (unsigned r = 0, e = op.getNumResults(); r < e; ++r)
      if (Value old = node.getMutatedBuffer(r))
        root |= isGraphInputStorage(old);
    for (Operation *user : op.getUsers())
      root |= isa<OutputOp>(user);
    if (root)
      live.insert(&op);
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation &op : block.without_terminator()) {
      if (live.count(&op))
        continue;
      for (Operation *user : op.getUsers()) {
        Operation *top = block.findAncestorOpInBlock(*user);
        if (top != &op && live.count(top)) {
          live.insert(&op);
          changed = true;
          break;
        }
      }
    }
  }
  std::set<std::string> names;
  for (Operation *op : live)
    names.insert(cast<SchedulerNodeOpInterface>(op).getNodeName());
  return names;
}

TEST_F(SchedulingPassesTest, DeadNodeEliminationRemovesExactlyDeadNodes) {
  unsigned totalRemoved = 0;
  for (unsigned numNodes : {40u, 300u}) {
    for (uint64_t seed = 0; seed < 12; ++seed) {
      OwningOpRef<ModuleOp> module = generate(numNodes, seed);
      GraphOp graph = graphOf(*module);
      std::set<std::string> expected = expectedLiveNodes(graph);
      unsigned before = nodeNames(graph).size();
      ASSERT_TRUE(succeeded(run(*module, kDNE)));
      ASSERT_TRUE(succeeded(verify(*module)));
      std::vector<std::string> after = nodeNames(graph);
      EXPECT_EQ(std::set<std::string>(after.begin(), after.end()), expected)
          << "seed " << seed;
      totalRemoved += before - after.size();
    }
  }
  // The generator leaves some dead code; the test must exercise removal.
  EXPECT_GT(totalRemoved, 0u);
}

//===----------------------------------------------------------------------===//
// Loop reordering
//===----------------------------------------------------------------------===//

/// Evaluates an affine expression at integer dims and symbols.
static int64_t evaluate(AffineExpr expr, ArrayRef<int64_t> dims,
                        ArrayRef<int64_t> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return c.getValue();
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[s.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(expr);
  int64_t l = evaluate(bin.getLHS(), dims, symbols);
  int64_t r = evaluate(bin.getRHS(), dims, symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::FloorDiv:
    return l / r - ((l % r != 0) && ((l < 0) != (r < 0)));
  case AffineExprKind::CeilDiv:
    return l / r + ((l % r != 0) && ((l < 0) == (r < 0)));
  case AffineExprKind::Mod: {
    int64_t m = l % r;
    return m < 0 ? m + r : m;
  }
  default:
    return 0;
  }
}

/// For every iteration of `node`, the flat index of each of its accesses
/// (loads, stores, index_exprs in body order; indirect indices fixed to
/// arbitrary values), sorted: what the node reads and writes, and which
/// reads feed which write, independently of its loop order.
static std::vector<std::vector<int64_t>> accessTable(NodeOp node) {
  std::vector<std::pair<AffineMap, SmallVector<int64_t>>> accesses;
  node.getBodyBlock().walk([&](Operation *op) {
    AffineMap map;
    OperandRange indices = op->getOperands();
    if (auto load = dyn_cast<LoadOp>(op)) {
      map = load.getMap();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      map = store.getMap();
      indices = store.getIndices();
    } else if (auto index = dyn_cast<IndexExprOp>(op)) {
      map = index.getMap();
      indices = index.getIndices();
    } else {
      return;
    }
    SmallVector<int64_t> loops;
    for (Value v : indices.take_front(map.getNumDims()))
      loops.push_back(cast<BlockArgument>(v).getArgNumber());
    accesses.emplace_back(map, loops);
  });
  SmallVector<int64_t> sizes = node.getLoopSizes();
  SmallVector<int64_t> point(sizes.size(), 0);
  SmallVector<int64_t> symbols = {3, 5, 7, 11};
  std::vector<std::vector<int64_t>> table;
  while (true) {
    std::vector<int64_t> row;
    for (auto &[map, loops] : accesses) {
      SmallVector<int64_t> dims;
      for (int64_t loop : loops)
        dims.push_back(point[loop]);
      row.push_back(evaluate(map.getResult(0), dims, symbols));
    }
    table.push_back(std::move(row));
    unsigned i = sizes.size();
    while (i > 0 && ++point[i - 1] == sizes[i - 1])
      point[--i] = 0;
    if (i == 0)
      break;
  }
  std::sort(table.begin(), table.end());
  return table;
}

static std::map<std::string, std::vector<std::vector<int64_t>>>
accessTables(GraphOp graph) {
  std::map<std::string, std::vector<std::vector<int64_t>>> tables;
  graph.walk([&](NodeOp node) { tables[node.getName().str()] = accessTable(node); });
  return tables;
}

TEST_F(SchedulingPassesTest, ReorderLoopsKeepsEveryAccess) {
  unsigned numChanged = 0;
  for (uint64_t seed = 0; seed < 12; ++seed) {
    OwningOpRef<ModuleOp> module = generate(150, seed, /*maxDim=*/8);
    GraphOp graph = graphOf(*module);
    auto before = accessTables(graph);
    std::string printedBefore = print(graph);
    ASSERT_TRUE(succeeded(run(*module, kReorder)));
    ASSERT_TRUE(succeeded(verify(*module)));
    EXPECT_EQ(accessTables(graph), before) << "seed " << seed;
    numChanged += print(graph) != printedBefore;
  }
  // Generated graphs have transposed accesses and contiguous loops.
  EXPECT_GT(numChanged, 0u);
}

//===----------------------------------------------------------------------===//
// Idempotence
//===----------------------------------------------------------------------===//

TEST_F(SchedulingPassesTest, EveryPassChangesNothingTheSecondTime) {
  for (const PassFactory *factory : {&kSort, &kDNE, &kReorder}) {
    for (uint64_t seed = 0; seed < 8; ++seed) {
      OwningOpRef<ModuleOp> module = generate(200, seed);
      ASSERT_TRUE(succeeded(run(*module, *factory)));
      std::string once = print(*module);
      ASSERT_TRUE(succeeded(run(*module, *factory)));
      EXPECT_EQ(print(*module), once) << "seed " << seed;
    }
  }
}

TEST_F(SchedulingPassesTest, SameInputSameOutput) {
  // Determinism: two contexts, same seed, byte-identical results.
  auto schedule = [](uint64_t seed) {
    MLIRContext context;
    GraphGeneratorOptions options;
    options.numNodes = 300;
    options.seed = seed;
    options.shuffle = true;
    OwningOpRef<ModuleOp> module = generateGraphModule(&context, options);
    PassManager pm(&context);
    OpPassManager &graphPm = pm.nest<GraphOp>();
    graphPm.addPass(createTopologicalSortPass());
    graphPm.addPass(createDeadNodeEliminationPass());
    graphPm.addPass(createReorderLoopsPass());
    EXPECT_TRUE(succeeded(pm.run(*module)));
    return print(*module);
  };
  for (uint64_t seed = 0; seed < 4; ++seed)
    EXPECT_EQ(schedule(seed), schedule(seed));
}

} // namespace
