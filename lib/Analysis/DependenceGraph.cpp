//===- DependenceGraph.cpp - Inductor's compute_dependencies --------------===//

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/IR/AffineSum.h"
#include "scheduler-opt/Support/ParallelSlices.h"
#include "scheduler-opt/Support/TopologicalOrder.h"
#include "scheduler-opt/Support/WalkPostOrder.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;

//===----------------------------------------------------------------------===//
// Buffer names
//===----------------------------------------------------------------------===//

StringAttr mlir::fusion::getBufferName(Value buffer) {
  if (auto arg = dyn_cast<BlockArgument>(buffer)) {
    if (auto graph = dyn_cast<GraphOp>(arg.getOwner()->getParentOp()))
      return graph.getInputName(arg.getArgNumber());
    return nullptr;
  }
  auto result = cast<OpResult>(buffer);
  if (auto node = dyn_cast<SchedulerNodeOpInterface>(result.getOwner()))
    return node.getBufferName(result.getResultNumber());
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Canonical index expressions
//===----------------------------------------------------------------------===//

static bool factorLess(AffineExpr a, AffineExpr b);

/// The product of `factors` in factorLess order, so that equal products
/// are one expression (`d0 * s1 * s0`, as sympy multiplies, is `d0 * s0 *
/// s1`). `factors` is not empty.
static AffineExpr sortedProduct(SmallVectorImpl<AffineExpr> &factors) {
  llvm::stable_sort(factors, factorLess);
  AffineExpr product = factors.front();
  for (AffineExpr factor : ArrayRef(factors).drop_front())
    product = getAffineBinaryOpExpr(AffineExprKind::Mul, product, factor);
  return product;
}

/// The most terms distributing a product over sums may give; a product
/// that would give more stays a single term.
static constexpr size_t kMaxDistributedTerms = 64;

/// Appends the terms of `coefficient * factors[0] * factors[1] * ...` to
/// `terms`, distributing the product over every factor that is a sum
/// (`(s1 + 5) * (s1 + 5)` is `s1 * s1 + 10 * s1 + 25`, as sympy expands
/// it), with sorted factors in each product. Returns false (appending
/// nothing) when that would give more than kMaxDistributedTerms terms.
static bool distributeProduct(int64_t coefficient,
                              SmallVectorImpl<AffineExpr> &factors,
                              SmallVectorImpl<SumTerm> &terms,
                              bool &overflow) {
  auto sum = llvm::find_if(factors, [](AffineExpr f) {
    return f.getKind() == AffineExprKind::Add;
  });
  if (sum == factors.end()) {
    terms.push_back(
        {coefficient, factors.empty() ? AffineExpr() : sortedProduct(factors)});
    return true;
  }
  SmallVector<SumTerm, 4> addends;
  overflow |= !flattenSum(*sum, addends);
  SmallVector<AffineExpr, 4> rest(factors.begin(), sum);
  rest.append(std::next(sum), factors.end());
  size_t start = terms.size();
  for (const SumTerm &addend : addends) {
    int64_t scaled;
    overflow |= llvm::MulOverflow(coefficient, addend.coefficient, scaled);
    SmallVector<AffineExpr, 4> product(rest);
    if (addend.factor)
      overflow |= !flattenProduct(addend.factor, product, scaled);
    if (!distributeProduct(scaled, product, terms, overflow) ||
        terms.size() > kMaxDistributedTerms) {
      terms.truncate(start);
      return false;
    }
  }
  return true;
}

/// Flattens `expr` into terms (flattenSum), canonicalizing the factors;
/// the factors of a product (`d0 * s1 * s0`, size symbols as sympy
/// multiplies them) are sorted, so that equal products compare equal, and
/// a product of sums is distributed (distributeProduct). Sets `overflow`
/// when a coefficient leaves int64.
static void collectSumTerms(AffineExpr expr, SmallVectorImpl<SumTerm> &terms,
                            bool &overflow) {
  SmallVector<SumTerm, 4> flat;
  overflow |= !flattenSum(expr, flat);
  for (SumTerm term : flat) {
    auto bin = dyn_cast_if_present<AffineBinaryOpExpr>(term.factor);
    if (bin && bin.getKind() == AffineExprKind::Mul) {
      SmallVector<AffineExpr, 4> factors;
      int64_t coefficient = term.coefficient;
      overflow |= !flattenProduct(bin, factors, coefficient);
      for (AffineExpr &factor : factors)
        factor = canonicalizeIndexExpr(factor);
      // Too many terms once distributed: the product stays one term (it
      // has a sum among its factors, so it is not empty).
      if (!distributeProduct(coefficient, factors, terms, overflow))
        terms.push_back({coefficient, sortedProduct(factors)});
      continue;
    }
    if (bin)
      term.factor = getAffineBinaryOpExpr(bin.getKind(),
                                          canonicalizeIndexExpr(bin.getLHS()),
                                          canonicalizeIndexExpr(bin.getRHS()));
    terms.push_back(term);
  }
}

/// Orders factors: dimensions by position, then symbols by position, then
/// other expressions by their printed form.
static bool factorLess(AffineExpr a, AffineExpr b) {
  auto rank = [](AffineExpr e) {
    return isa<AffineDimExpr>(e) ? 0 : isa<AffineSymbolExpr>(e) ? 1 : 2;
  };
  if (rank(a) != rank(b))
    return rank(a) < rank(b);
  if (auto da = dyn_cast<AffineDimExpr>(a))
    return da.getPosition() < cast<AffineDimExpr>(b).getPosition();
  if (auto sa = dyn_cast<AffineSymbolExpr>(a))
    return sa.getPosition() < cast<AffineSymbolExpr>(b).getPosition();
  std::string sa, sb;
  llvm::raw_string_ostream(sa) << a;
  llvm::raw_string_ostream(sb) << b;
  return sa < sb;
}

AffineExpr mlir::fusion::canonicalizeIndexExpr(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineSymbolExpr, AffineConstantExpr>(expr))
    return expr;
  // Coefficients are computed in checked arithmetic; an expression whose
  // coefficients leave int64 stays as it is (equal, not canonical).
  SmallVector<SumTerm, 4> terms;
  bool overflow = false;
  collectSumTerms(expr, terms, overflow);
  int64_t constant = 0;
  SmallVector<SumTerm, 4> merged;
  for (const SumTerm &term : terms) {
    if (!term.factor) {
      overflow |= llvm::AddOverflow(constant, term.coefficient, constant);
      continue;
    }
    auto it = llvm::find_if(
        merged, [&](const SumTerm &m) { return m.factor == term.factor; });
    if (it != merged.end())
      overflow |=
          llvm::AddOverflow(it->coefficient, term.coefficient, it->coefficient);
    else
      merged.push_back(term);
  }
  if (overflow)
    return expr;
  llvm::stable_sort(merged, [](const SumTerm &a, const SumTerm &b) {
    return factorLess(a.factor, b.factor);
  });
  AffineExpr result;
  for (const SumTerm &term : merged) {
    if (term.coefficient == 0)
      continue;
    AffineExpr scaled = term.coefficient == 1 ? term.factor
                                              : term.factor * term.coefficient;
    result = result ? result + scaled : scaled;
  }
  AffineExpr c = getCachedConstantExpr(constant, expr.getContext());
  if (!result)
    return c;
  return constant ? result + c : result;
}

//===----------------------------------------------------------------------===//
// Reads and writes of a leaf (Inductor's extract_read_writes)
//===----------------------------------------------------------------------===//

namespace {
/// Maps a node's loop variables and indirect indices to the variables of its
/// dependences: `d<k>` numbers the loops whose size is not 1 (size-1 loops
/// become 0, as Inductor's index_vars_squeeze does), `tmp<k>` numbers the
/// indirect indices in the order the body defines them.
class DepIndexer {
public:
  DepIndexer(NodeOp node, ArrayRef<IndexedOpInterface> indexed,
             DepMapCache *cache)
      : ctx(node.getContext()), cache(cache) {
    if (auto graph = node->getParentOfType<GraphOp>())
      numSizeSymbols = graph.getNumSizeSymbols();
    AffineExpr one = getCachedConstantExpr(1, ctx);
    for (AffineExpr size : node.getLoopSizeExprs()) {
      dimIndex.push_back(size == one ? -1 : static_cast<int>(sizes.size()));
      if (size != one)
        sizes.push_back(size);
    }
    llvm::SmallDenseSet<Value, 4> indirect;
    for (IndexedOpInterface op : indexed)
      indirect.insert_range(op.getIndirectIndices());
    if (indirect.empty())
      return;
    node.getBodyBlock().walk([&](Operation *op) {
      for (Value result : op->getResults())
        if (indirect.contains(result))
          tmpFor.try_emplace(result, tmpFor.size());
    });
  }

  /// Builds `#fusion.memory_dep` for an access through `map(indices)`.
  MemoryDepAttr getDep(StringAttr name, AffineMap map, OperandRange indices,
                       StoreModeAttr mode) {
    // What each operand becomes: dependence dim k (k), 0 (-1) or tmp k
    // (-2 - k); packed 8 bits per operand as the cache key when it fits.
    SmallVector<int, 8> images;
    unsigned numDims = map.getNumDims();
    for (Value index : indices.take_front(numDims))
      images.push_back(dimIndex[cast<BlockArgument>(index).getArgNumber()]);
    for (Value index : indices.drop_front(numDims))
      images.push_back(-2 - static_cast<int>(tmpFor.lookup(index)));
    std::optional<uint64_t> code = encode(images);
    std::pair<AffineMap, unsigned> dep;
    if (cache && code) {
      auto [it, inserted] = cache->entries.try_emplace({map, *code});
      if (inserted)
        it->second = translate(map, images);
      dep = it->second;
    } else {
      dep = translate(map, images);
    }
    return MemoryDepAttr::get(ctx, name, dep.first,
                              ArrayRef<AffineExpr>(sizes).take_front(dep.second),
                              mode);
  }

private:
  /// Packs operand images into a cache key, or nullopt when they do not fit.
  static std::optional<uint64_t> encode(ArrayRef<int> images) {
    if (images.size() > 8)
      return std::nullopt;
    uint64_t code = 0;
    for (int image : images) {
      if (image >= 127 || image < -128)
        return std::nullopt;
      code = (code << 8) | static_cast<uint8_t>(image);
    }
    return code | (uint64_t(images.size()) << 60);
  }

  /// The dependence map of `map` whose operands become `images`, in
  /// canonical form, and the
  /// number of its dimensions (trailing dimensions it does not use are
  /// dropped, as Inductor does: a reduction's stores omit the reduction dim).
  std::pair<AffineMap, unsigned> translate(AffineMap map,
                                           ArrayRef<int> images) {
    SmallVector<AffineExpr> dims, syms;
    unsigned numDims = map.getNumDims();
    for (int image : images.take_front(numDims))
      dims.push_back(image < 0 ? getCachedConstantExpr(0, ctx)
                               : getAffineDimExpr(image, ctx));
    // Indirect indices become tmp symbols after the graph's size symbols;
    // the map's size symbols (after its indirect ones) keep their number.
    for (int image : images.drop_front(numDims))
      syms.push_back(getAffineSymbolExpr(numSizeSymbols - 2 - image, ctx));
    for (unsigned i = 0, e = map.getNumSymbols() - (images.size() - numDims);
         i < e; ++i)
      syms.push_back(getAffineSymbolExpr(i, ctx));
    AffineExpr expr = map.getResult(0).replaceDimsAndSymbols(dims, syms);
    unsigned keptDims = 0, numSymbols = 0;
    expr.walk([&](AffineExpr e) {
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        keptDims = std::max(keptDims, dim.getPosition() + 1);
      else if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        numSymbols = std::max(numSymbols, sym.getPosition() + 1);
    });
    // Canonical form, as sympy keeps Inductor's indices: two accesses to
    // the same elements in the same order get the same dependence.
    expr = canonicalizeIndexExpr(expr);
    return {AffineMap::get(keptDims, numSymbols, expr), keptDims};
  }

  MLIRContext *ctx;
  DepMapCache *cache;
  unsigned numSizeSymbols = 0;
  SmallVector<int, 4> dimIndex;
  SmallVector<AffineExpr, 4> sizes;
  DenseMap<Value, unsigned> tmpFor;
};
} // namespace

/// Appends `dep` unless an equal dependence is already there.
static bool addUnique(SmallVectorImpl<Attribute> &deps, Attribute dep) {
  if (llvm::is_contained(deps, dep))
    return false;
  deps.push_back(dep);
  return true;
}

namespace {
/// The dependences of a container, merged from its leaves' lists (each
/// without duplicates) in order, without duplicates: a set from the second
/// list on, as a container may hold a hundred dependences.
struct MergedDeps {
  SmallVector<Attribute, 8> list;
  DenseSet<Attribute> seen;

  void merge(ArrayRef<Attribute> deps) {
    if (list.empty()) {
      list.append(deps.begin(), deps.end());
      return;
    }
    if (seen.empty())
      seen.insert_range(list);
    for (Attribute dep : deps)
      if (seen.insert(dep).second)
        list.push_back(dep);
  }
  bool contains(Attribute dep) const {
    return seen.empty() ? llvm::is_contained(list, dep) : seen.contains(dep);
  }
};
} // namespace

/// Computes the reads and writes of `leaf`, memoizing index translations in
/// `cache` when given.
static ReadWrites computeReadWritesImpl(SchedulerNodeOpInterface leaf,
                                        DepMapCache *cache) {
  ReadWrites rw;
  MLIRContext *ctx = leaf->getContext();
  auto addRead = [&](Attribute dep, Value buffer) {
    if (addUnique(rw.reads, dep))
      rw.readBuffers.push_back(buffer);
  };

  if (auto node = dyn_cast<NodeOp>(leaf.getOperation())) {
    // One walk of the body finds both kinds of ops.
    SmallVector<IndexedOpInterface, 8> indexed;
    SmallVector<OpaqueOp, 1> opaques;
    // Only the fusion dialect's ops index buffers or read them whole: the
    // arith and math ops of a body are not asked for the interface.
    Dialect *fusionDialect = node->getDialect();
    auto collect = [&](Operation *op) {
      if (op->getDialect() != fusionDialect)
        return false;
      if (auto access = dyn_cast<IndexedOpInterface>(op))
        indexed.push_back(access);
      if (auto opaque = dyn_cast<OpaqueOp>(op))
        opaques.push_back(opaque);
      return false;
    };
    walkPostOrderUntil(node.getBodyBlock(), collect);
    // An opaque operation (bucketize's boundaries) reads whole buffers.
    for (OpaqueOp opaque : opaques) {
      for (Value operand : opaque.getOperands())
        if (isa<BufferType>(operand.getType()))
          addRead(StarDepAttr::get(ctx, getBufferName(operand), nullptr),
                  operand);
    }
    DepIndexer indexer(node, indexed, cache);
    // Loads already translated: a body often loads the same element twice
    // (`x * x`), and an equal load gives an equal dependence, which addRead
    // would drop.
    SmallVector<std::tuple<Value, AffineMap, OperandRange>, 8> loaded;
    for (IndexedOpInterface op : indexed) {
      auto access = dyn_cast<AccessOpInterface>(op.getOperation());
      if (!access)
        continue;
      Value buffer = access.getAccessedBuffer();
      if (!access.isWrite()) {
        AffineMap map = access.getIndexMap();
        OperandRange indices = access.getIndexOperands();
        if (llvm::any_of(loaded, [&](const auto &load) {
              auto [b, m, i] = load;
              return b == buffer && m == map && llvm::equal(i, indices);
            }))
          continue;
        loaded.emplace_back(buffer, map, indices);
        addRead(indexer.getDep(getBufferName(buffer), map, indices, nullptr),
                buffer);
        continue;
      }
      StringAttr name = node.getBufferName(
          cast<BlockArgument>(buffer).getArgNumber() - node.getNumLoops());
      addUnique(rw.writes,
                indexer.getDep(name, access.getIndexMap(),
                               access.getIndexOperands(),
                               cast<StoreOp>(access).getModeAttr()));
    }
    return rw;
  }
  // Externs and nops access whole buffers.
  for (Value input : leaf->getOperands())
    addRead(StarDepAttr::get(ctx, getBufferName(input), nullptr), input);
  for (unsigned r = 0, e = leaf->getNumResults(); r < e; ++r)
    addUnique(rw.writes, StarDepAttr::get(ctx, leaf.getBufferName(r), nullptr));
  return rw;
}

ReadWrites mlir::fusion::computeReadWrites(SchedulerNodeOpInterface leaf,
                                           DepMapCache *cache) {
  if (cache)
    return computeReadWritesImpl(leaf, cache);
  // The leaf's own memo: its accesses often share a map and loop pattern
  // (a reduction reading several buffers by the same index).
  DepMapCache own;
  return computeReadWritesImpl(leaf, &own);
}

/// Inductor's SchedulerNode.can_inplace: the read has exactly the index and
/// sizes of the node's only write.
static bool canInplace(SchedulerNodeOpInterface leaf, const ReadWrites &rw,
                       Attribute read) {
  if (!isa<NodeOp>(leaf.getOperation()) || rw.writes.size() != 1)
    return false;
  auto readDep = dyn_cast<MemoryDepAttr>(read);
  auto writeDep = dyn_cast<MemoryDepAttr>(rw.writes.front());
  return readDep && writeDep && readDep.getIndex() == writeDep.getIndex() &&
         readDep.getSizes() == writeDep.getSizes();
}

StringAttr mlir::fusion::getDepName(Attribute dep) {
  if (auto memory = dyn_cast<MemoryDepAttr>(dep))
    return memory.getName();
  if (auto star = dyn_cast<StarDepAttr>(dep))
    return star.getName();
  return cast<WeakDepAttr>(dep).getName();
}

//===----------------------------------------------------------------------===//
// DependenceGraph
//===----------------------------------------------------------------------===//

DependenceGraph::DependenceGraph(Operation *op) : graph(cast<GraphOp>(op)) {
  build(/*before=*/nullptr);
  findCycle();
}

DependenceGraph::DependenceGraph(Operation *op, const DependenceGraph &before)
    : graph(cast<GraphOp>(op)) {
  build(&before);
  findCycle();
}

std::optional<unsigned> DependenceGraph::lookupNode(Operation *op) const {
  auto it = nodeIndex.find(op);
  if (it == nodeIndex.end())
    return std::nullopt;
  return it->second;
}

std::optional<unsigned> DependenceGraph::getProducer(Value buffer) const {
  auto it = producers.find(buffer);
  if (it == producers.end())
    return std::nullopt;
  return it->second;
}

Value DependenceGraph::aliasRoot(Value buffer) const {
  while (true) {
    auto it = aliasParent.find(buffer);
    if (it == aliasParent.end() || it->second == buffer)
      return buffer;
    buffer = it->second;
  }
}

ArrayRef<NodeUser> DependenceGraph::getUsers(Value buffer) const {
  auto it = users.find(aliasRoot(buffer));
  if (it == users.end())
    return {};
  return it->second;
}

void DependenceGraph::build(const DependenceGraph *before) {
  Block &block = graph.getBodyBlock();
  MLIRContext *ctx = graph.getContext();
  size_t numBuffers = block.getNumArguments();
  for (Operation &op : block.without_terminator()) {
    auto node = cast<SchedulerNodeOpInterface>(op);
    nodes.push_back(node);
    numBuffers += op.getNumResults();
  }
  unsigned numNodes = nodes.size();
  // Sized once (the results of fused containers' members come on top):
  // growing tables of a 100k-node graph rehash them several times.
  nodeIndex.reserve(numNodes);
  for (auto [n, node] : llvm::enumerate(nodes))
    nodeIndex[node.getOperation()] = n;
  buffersByName.reserve(numBuffers);
  producers.reserve(numBuffers);
  users.reserve(numBuffers);
  deps.resize(numNodes);
  preds.resize(numNodes);
  succs.resize(numNodes);

  // Buffers: names, producers, aliases (nop results alias their inputs, a
  // container result is the member result it yields).
  for (auto [i, arg] : llvm::enumerate(block.getArguments()))
    buffersByName[graph.getInputName(i)] = {arg, kNoProducer};
  auto unionAliases = [&](Value a, Value b) {
    Value ra = aliasRoot(a), rb = aliasRoot(b);
    if (ra != rb)
      aliasParent[ra] = rb;
  };
  SmallVector<SmallVector<SchedulerNodeOpInterface, 1>> leavesOf(numNodes);
  // (overwritten version, new version) of every leaf result that mutates,
  // leaf by leaf: leaf `i`'s are overwrites[firstOverwrite[i] ..
  // firstOverwrite[i + 1]), asked of the leaf once.
  SmallVector<std::pair<Value, OpResult>> overwrites;
  SmallVector<unsigned> firstOverwrite;
  for (unsigned n = 0; n < numNodes; ++n) {
    SchedulerNodeOpInterface node = nodes[n];
    // A container lists its leaves; any other node is its own leaf, whose
    // results are recorded below.
    bool isContainer = isContainerNode(node.getOperation());
    if (isContainer) {
      node.getLeafNodes(leavesOf[n]);
      for (Value result : node->getResults())
        producers[result] = n;
    } else {
      leavesOf[n].push_back(node);
    }
    for (SchedulerNodeOpInterface leaf : leavesOf[n]) {
      firstOverwrite.push_back(overwrites.size());
      for (OpResult result : leaf->getResults()) {
        producers[result] = n;
        buffersByName[leaf.getBufferName(result.getResultNumber())] = {result,
                                                                       n};
        if (Value old = leaf.getMutatedBuffer(result.getResultNumber()))
          overwrites.push_back({old, result});
      }
      if (auto nop = dyn_cast<NopOp>(leaf.getOperation()))
        for (Value result : nop.getResults())
          for (Value input : nop.getInputs())
            unionAliases(result, input);
    }
    if (isContainer) {
      auto yield = cast<YieldOp>(
          node->getRegion(0).front().getTerminator());
      for (auto [result, inner] :
           llvm::zip(node->getResults(), yield.getValues())) {
        unionAliases(result, inner);
        yieldedBy[result] = inner;
      }
    }
  }
  firstOverwrite.push_back(overwrites.size());
  auto overwritesOf = [&](unsigned leafId) {
    return ArrayRef(overwrites).slice(
        firstOverwrite[leafId],
        firstOverwrite[leafId + 1] - firstOverwrite[leafId]);
  };
  // Keyed once every container result is known.
  for (auto [old, result] : overwrites)
    mutatedBy[memberValue(old)] = result;

  // Leaf reads and writes, and the readers of every alias class (Inductor
  // knows only the readers it has seen so far; SSA names every reader of a
  // version, so all of them must run before its mutation).
  SmallVector<LeafInfo> leaves;
  size_t numLeaves = 0;
  for (const auto &list : leavesOf)
    numLeaves += list.size();
  leaves.reserve(numLeaves);
  for (unsigned n = 0; n < numNodes; ++n)
    for (SchedulerNodeOpInterface leaf : leavesOf[n]) {
      LeafInfo &info = leaves.emplace_back();
      info.op = leaf;
      info.node = n;
    }
  if (before)
    reuseLeafAccesses(*before, leaves);
  // Each leaf's accesses are its own: with the context's threads, slices of
  // the leaves are computed in parallel, each memoizing index translations
  // in its own cache. The cache only saves work, so the result is the same
  // for any number of threads.
  parallelForSlices(ctx, leaves.size(), /*minPerSlice=*/64,
                    [&](size_t begin, size_t end) {
                      DepMapCache cache;
                      for (size_t i = begin; i < end; ++i)
                        if (!leaves[i].reused)
                          leaves[i].rw =
                              computeReadWritesImpl(leaves[i].op, &cache);
                    });
  // alias root -> leaves
  DenseMap<Value, SmallVector<unsigned, 2>, MixedPointerInfo<Value>> readersOf;
  readersOf.reserve(numBuffers);
  for (auto [id, info] : llvm::enumerate(leaves)) {
    llvm::SmallSetVector<Value, 4> read;
    for (Value buffer : info.rw.readBuffers)
      read.insert(aliasRoot(buffer));
    for (auto [old, result] : overwritesOf(id))
      read.insert(aliasRoot(old));
    for (Value root : read)
      readersOf[root].push_back(id);
  }

  auto addUser = [&](Value buffer, unsigned node, Operation *leaf,
                     bool inplace, bool weak) {
    SmallVector<NodeUser, 2> &list = users[aliasRoot(buffer)];
    // Users are added in leaf order, so a repeated user is the last one.
    if (!list.empty() && list.back().leaf == leaf &&
        list.back().node == node) {
      list.back().canInplace &= inplace;
      list.back().isWeak &= weak;
      return;
    }
    list.push_back({leaf, node, inplace, weak});
  };
  auto addEdge = [&](unsigned from, unsigned to) {
    if (from != to)
      preds[to].push_back(from);
  };

  unsigned leafId = 0;
  for (unsigned n = 0; n < numNodes; ++n) {
    NodeDeps &nd = deps[n];
    // A node that is its own leaf takes the leaf's lists as they are; a
    // container merges its leaves' lists.
    bool isLeaf = leavesOf[n].size() == 1 &&
                  leavesOf[n].front().getOperation() == nodes[n].getOperation();
    MergedDeps nodeReads, nodeWrites, nodeUnmet;
    for (unsigned l = 0, e = leavesOf[n].size(); l < e; ++l, ++leafId) {
      LeafInfo &info = leaves[leafId];
      SchedulerNodeOpInterface leaf = info.op;
      SmallVector<Attribute, 4> reads(info.rw.reads);
      SmallVector<Value, 4> readBuffers(info.rw.readBuffers);

      // Mutation: run after the previous writer (a StarDep on the version
      // overwritten) and after every other reader of that version (WeakDeps
      // on their buffers).
      StoreModeAttr mode;
      if (info.rw.writes.size() == 1)
        if (auto write = dyn_cast<MemoryDepAttr>(info.rw.writes.front()))
          mode = write.getMode();
      // The StarDeps on the overwritten versions depend on the leaf alone:
      // a graph built from an earlier one takes them from it.
      if (!info.reused)
        for (auto [old, result] : overwritesOf(leafId))
          info.overwriteDeps.push_back(
              StarDepAttr::get(ctx, getBufferName(old), mode));
      for (auto [o, entry] : llvm::enumerate(overwritesOf(leafId))) {
        auto [old, result] = entry;
        addUser(old, n, leaf, /*inplace=*/false, /*weak=*/false);
        if (addUnique(reads, info.overwriteDeps[o]))
          readBuffers.push_back(old);
        StringAttr mutating = leaf.getBufferName(result.getResultNumber());
        auto readers = readersOf.find(aliasRoot(old));
        if (readers == readersOf.end())
          continue;
        for (unsigned readerId : readers->second) {
          LeafInfo &reader = leaves[readerId];
          if (reader.node == n)
            continue;
          addEdge(reader.node, n);
          for (Value buffer : reader.op->getResults()) {
            if (addUnique(reads, WeakDepAttr::get(ctx, getBufferName(buffer),
                                                  mutating)))
              readBuffers.push_back(buffer);
            addUser(buffer, n, leaf, /*inplace=*/false, /*weak=*/true);
          }
        }
      }
      for (auto [dep, buffer] : llvm::zip(info.rw.reads, info.rw.readBuffers))
        addUser(buffer, n, leaf, canInplace(leaf, info.rw, dep),
                /*weak=*/false);

      SmallVector<Attribute, 4> unmet;
      for (auto [dep, buffer] : llvm::zip(reads, readBuffers)) {
        if (isa<BlockArgument>(buffer))
          continue;
        unmet.push_back(dep);
        if (std::optional<unsigned> producer = getProducer(buffer))
          addEdge(*producer, n);
      }
      if (isLeaf) {
        nd.reads.assign(reads.begin(), reads.end());
        nd.writes.assign(info.rw.writes.begin(), info.rw.writes.end());
        nd.unmet.assign(unmet.begin(), unmet.end());
        continue;
      }
      nodeReads.merge(reads);
      nodeWrites.merge(info.rw.writes);
      nodeUnmet.merge(unmet);
    }

    if (!isLeaf) {
      nd.writes.assign(nodeWrites.list.begin(), nodeWrites.list.end());
      // Inductor's ReadWrites.merge_list and refresh_group_node_dependencies:
      // reads that are also writes of the group disappear, and unmet
      // dependencies on the group's own buffers are met inside it.
      llvm::SmallDenseSet<StringAttr, 8> own;
      for (SchedulerNodeOpInterface leaf : leavesOf[n])
        for (unsigned r = 0, e = leaf->getNumResults(); r < e; ++r)
          own.insert(leaf.getBufferName(r));
      for (Attribute dep : nodeReads.list)
        if (!nodeWrites.contains(dep))
          nd.reads.push_back(dep);
      for (Attribute dep : nodeUnmet.list)
        if (!own.contains(getDepName(dep)) && !nodeWrites.contains(dep))
          nd.unmet.push_back(dep);
    }
    // Inductor's met_dependencies: reads - unmet_dependencies.
    for (Attribute dep : nd.reads)
      if (!llvm::is_contained(nd.unmet, dep))
        nd.met.push_back(dep);
  }

  // The graph's consumer uses its outputs and the final version of every
  // graph input that was overwritten in place.
  for (Value output : graph.getOutputOp().getBuffers())
    addUser(output, NodeUser::kOutput, nullptr, false, false);
  for (BlockArgument input : block.getArguments()) {
    Value version = input;
    while (Value next = getMutation(version))
      version = next;
    if (version != input)
      addUser(version, NodeUser::kOutput, nullptr, false, false);
  }

  for (unsigned n = 0; n < numNodes; ++n) {
    // std::sort: llvm::sort hands arrays of integers to qsort, whose call
    // costs more than sorting a node's few predecessors.
    std::sort(preds[n].begin(), preds[n].end());
    preds[n].erase(std::unique(preds[n].begin(), preds[n].end()),
                   preds[n].end());
    for (unsigned p : preds[n])
      succs[p].push_back(n);
  }

  // Kept for a graph built from this one after containers are opened (the
  // fusion pass opens foreach ops); a graph without containers, such as
  // the large generated ones, keeps nothing.
  bool hasContainers = llvm::any_of(nodes, [](SchedulerNodeOpInterface node) {
    return isContainerNode(node.getOperation());
  });
  if (hasContainers) {
    leafOps.reserve(leaves.size());
    leafAccesses.reserve(leaves.size());
    leafOverwriteDeps.reserve(leaves.size());
    for (LeafInfo &info : leaves) {
      leafOps.push_back(info.op.getOperation());
      leafAccesses.push_back(std::move(info.rw));
      leafOverwriteDeps.push_back(std::move(info.overwriteDeps));
    }
  }
}

void DependenceGraph::reuseLeafAccesses(const DependenceGraph &before,
                                        MutableArrayRef<LeafInfo> leaves) {
  // Leaves usually keep their order (opening a container puts its members
  // where it was): a leaf is first looked for at its own position, and the
  // index of `before`'s leaves is built at the first that is not there.
  // Keys only: `before` may name containers erased since.
  DenseMap<Operation *, unsigned> index;
  auto find = [&](size_t position, Operation *op) -> std::optional<unsigned> {
    if (index.empty()) {
      if (position < before.leafOps.size() && before.leafOps[position] == op)
        return position;
      index.reserve(before.leafOps.size());
      for (auto [i, leafOp] : llvm::enumerate(before.leafOps))
        index[leafOp] = i;
    }
    auto it = index.find(op);
    if (it == index.end())
      return std::nullopt;
    return it->second;
  };
  for (auto [position, info] : llvm::enumerate(leaves)) {
    std::optional<unsigned> found = find(position, info.op.getOperation());
    if (!found)
      continue;
    info.rw = before.leafAccesses[*found];
    info.overwriteDeps = before.leafOverwriteDeps[*found];
    // A buffer read through a container's result is read through the
    // member result it yields, which every container around it re-exports
    // under the same name: the same producer and alias class here, and a
    // value that still exists if the container was erased.
    for (Value &buffer : info.rw.readBuffers)
      buffer = before.memberValue(buffer);
    info.reused = true;
  }
}

SmallVector<unsigned> DependenceGraph::getAncestors(unsigned node) const {
  SmallVector<bool> seen(nodes.size(), false);
  SmallVector<unsigned> worklist(preds[node].begin(), preds[node].end());
  SmallVector<unsigned> result;
  while (!worklist.empty()) {
    unsigned n = worklist.pop_back_val();
    if (seen[n])
      continue;
    seen[n] = true;
    result.push_back(n);
    llvm::append_range(worklist, preds[n]);
  }
  llvm::sort(result);
  return result;
}

void DependenceGraph::findCycle() {
  cycle = fusion::findCycle(
      nodes.size(), [&](unsigned n) { return ArrayRef<unsigned>(preds[n]); },
      [&](unsigned n) { return ArrayRef<unsigned>(succs[n]); });
}

InFlightDiagnostic DependenceGraph::emitCycleError() const {
  assert(hasCycle() && "no cycle to report");
  SmallVector<std::string> names;
  for (unsigned n : cycle)
    names.push_back(SchedulerNodeOpInterface(nodes[n]).getNodeName());
  names.push_back(names.front());
  return SchedulerNodeOpInterface(nodes[cycle.front()])->emitOpError("is on a dependence cycle: ")
         << llvm::join(names, " -> ")
         << " (including the order of in-place mutations after the readers "
            "of the overwritten buffer)";
}
