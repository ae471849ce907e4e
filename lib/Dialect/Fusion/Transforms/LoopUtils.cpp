//===- LoopUtils.cpp - Loop order utilities for fusion.node ---------------===//

#include "scheduler-opt/Dialect/Fusion/Transforms/LoopUtils.h"
#include "scheduler-opt/Analysis/SizeVars.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//


/// The loop position of `value` if it is a loop variable of `node`.
static std::optional<unsigned> getLoopPosition(NodeOp node, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &node.getBodyBlock() ||
      arg.getArgNumber() >= node.getNumLoops())
    return std::nullopt;
  return arg.getArgNumber();
}

AffineExpr mlir::fusion::getLoopIndexExpr(NodeOp node, Operation *access) {
  auto indexed = dyn_cast<IndexedOpInterface>(access);
  if (!indexed || !node->isProperAncestor(access))
    return nullptr;
  AffineMap map = indexed.getIndexMap();
  OperandRange indices = indexed.getIndexOperands();
  MLIRContext *ctx = node.getContext();
  SmallVector<AffineExpr> dims;
  for (Value index : indices.take_front(map.getNumDims())) {
    std::optional<unsigned> loop = getLoopPosition(node, index);
    if (!loop)
      return nullptr;
    dims.push_back(getAffineDimExpr(*loop, ctx));
  }
  SmallVector<AffineExpr> symbols;
  for (unsigned i = 0, e = map.getNumSymbols(); i < e; ++i)
    symbols.push_back(getAffineSymbolExpr(i, ctx));
  return simplifyAffineExpr(map.getResult(0).replaceDimsAndSymbols(dims,
                                                                   symbols),
                            node.getNumLoops(), map.getNumSymbols());
}

/// The accesses of `node` in body order: stores first, then loads, then
/// index_exprs (Inductor's write exprs, read exprs, other index formulas).
static void collectAccesses(NodeOp node, SmallVectorImpl<Operation *> &stores,
                            SmallVectorImpl<Operation *> &loads,
                            SmallVectorImpl<Operation *> &others) {
  node.getBodyBlock().walk([&](Operation *op) {
    if (isa<StoreOp>(op))
      stores.push_back(op);
    else if (isa<LoadOp>(op))
      loads.push_back(op);
    else if (isa<IndexExprOp>(op))
      others.push_back(op);
  });
}

/// True when loop variable `loop` of `node` has a use other than as an
/// index dimension of an access (e.g. an `arith.index_cast`): such a loop
/// can be permuted but not merged or dropped.
static bool hasOpaqueUses(NodeOp node, unsigned loop) {
  return llvm::any_of(node.getLoopVars()[loop].getUses(), [](OpOperand &use) {
    auto indexed = dyn_cast<IndexedOpInterface>(use.getOwner());
    if (!indexed)
      return true;
    unsigned firstIndex = indexed.getIndexOperands().getBeginOperandIndex();
    return use.getOperandNumber() >=
           firstIndex + indexed.getIndexMap().getNumDims();
  });
}

//===----------------------------------------------------------------------===//
// Rewriting a loop nest
//===----------------------------------------------------------------------===//

/// Renumbers the dimensions of `expr` (over `numDims` dims) to the ones it
/// uses, in order; returns the map and the old positions of its dimensions.
static std::pair<AffineMap, SmallVector<unsigned>>
compactDims(AffineExpr expr, unsigned numDims, unsigned numSymbols) {
  llvm::SmallBitVector used(numDims);
  expr.walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      used.set(dim.getPosition());
  });
  MLIRContext *ctx = expr.getContext();
  SmallVector<AffineExpr> replacements(numDims,
                                       getCachedConstantExpr(0, ctx));
  SmallVector<unsigned> positions;
  for (unsigned d = 0; d < numDims; ++d) {
    if (!used.test(d))
      continue;
    replacements[d] = getAffineDimExpr(positions.size(), ctx);
    positions.push_back(d);
  }
  AffineExpr compact = expr.replaceDims(replacements);
  return {AffineMap::get(positions.size(), numSymbols, compact), positions};
}

/// Rewrites the loop nest of `node` to `ranges` + `reductionRanges`.
/// `substitution[i]` is an expression over the new loops that every index of
/// the node may use in place of old loop `i`: the old variable's value for a
/// permutation, or a form equivalent on the node's indices for merged loops.
/// Old loops whose variables have other uses must map to a single new loop.
/// Fails, changing nothing, when that does not hold.
static LogicalResult rewriteLoopNest(NodeOp node, ArrayRef<AffineExpr> ranges,
                                     ArrayRef<AffineExpr> reductionRanges,
                                     ArrayRef<AffineExpr> substitution,
                                     LoopRewriteCache *cache = nullptr) {
  unsigned numOld = node.getNumLoops();
  unsigned numNew = ranges.size() + reductionRanges.size();
  if (substitution.size() != numOld)
    return failure();
  // A permutation maps every old loop to a single new one: the uses of its
  // variables are looked at only for loops that are merged or dropped.
  for (unsigned i = 0; i < numOld; ++i)
    if (!isa<AffineDimExpr>(substitution[i]) && hasOpaqueUses(node, i))
      return failure();

  // Decide every new index before changing the body.
  SmallVector<Operation *> stores, loads, others;
  collectAccesses(node, stores, loads, others);
  struct NewAccess {
    Operation *op;
    AffineMap map;
    SmallVector<unsigned> loops;
  };
  SmallVector<NewAccess> rewrites;
  // The new index of an access depends only on its index map and the loops
  // its dims are: accesses that share both (most loads of a pointwise node)
  // share the two simplifications, done once.
  struct Decided {
    AffineMap oldMap;
    SmallVector<unsigned, 4> oldLoops;
    unsigned rewrite;
  };
  SmallVector<Decided> decided;
  // With a cache, also those of accesses of nodes rewritten before.
  unsigned rewriteId = cache ? cache->getRewriteId(substitution, numNew) : 0;
  for (ArrayRef<Operation *> group : {ArrayRef(stores), ArrayRef(loads),
                                      ArrayRef(others)}) {
    for (Operation *op : group) {
      auto indexed = cast<IndexedOpInterface>(op);
      AffineMap oldMap = indexed.getIndexMap();
      SmallVector<unsigned, 4> oldLoops;
      for (Value index :
           indexed.getIndexOperands().take_front(oldMap.getNumDims())) {
        std::optional<unsigned> loop = getLoopPosition(node, index);
        if (!loop)
          return failure();
        oldLoops.push_back(*loop);
      }
      std::optional<LoopRewriteCache::Key> key;
      if (cache) {
        key = IndexOverLoopsKey::get(oldMap, oldLoops, rewriteId);
        if (key) {
          if (const LoopRewriteCache::Rewrite *known = cache->lookup(*key)) {
            rewrites.push_back({op, known->map, known->loops});
            continue;
          }
        }
      }
      auto known = llvm::find_if(decided, [&](const Decided &entry) {
        return entry.oldMap == oldMap && entry.oldLoops == oldLoops;
      });
      if (known != decided.end()) {
        const NewAccess &same = rewrites[known->rewrite];
        rewrites.push_back({op, same.map, same.loops});
        continue;
      }
      AffineExpr expr = getLoopIndexExpr(node, op);
      if (!expr)
        return failure();
      unsigned numSymbols = oldMap.getNumSymbols();
      SmallVector<AffineExpr> symbols;
      for (unsigned s = 0; s < numSymbols; ++s)
        symbols.push_back(getAffineSymbolExpr(s, node.getContext()));
      expr = simplifyAffineExpr(
          expr.replaceDimsAndSymbols(substitution, symbols), numNew,
          numSymbols);
      auto [map, loops] = compactDims(expr, numNew, numSymbols);
      if (key)
        cache->insert(*key, {map, loops});
      decided.push_back(
          {oldMap, std::move(oldLoops), unsigned(rewrites.size())});
      rewrites.push_back({op, map, std::move(loops)});
    }
  }

  Block &body = node.getBodyBlock();
  Type indexType = IndexType::get(node.getContext());
  SmallVector<Value> newVars;
  for (unsigned i = 0; i < numNew; ++i)
    newVars.push_back(body.insertArgument(i, indexType, node.getLoc()));
  for (NewAccess &rewrite : rewrites) {
    auto indexed = cast<IndexedOpInterface>(rewrite.op);
    SmallVector<Value> indices;
    for (unsigned loop : rewrite.loops)
      indices.push_back(newVars[loop]);
    llvm::append_range(indices, indexed.getIndirectIndices());
    indexed.setIndex(rewrite.map, indices);
  }
  for (unsigned i = 0; i < numOld; ++i) {
    BlockArgument old = body.getArgument(numNew + i);
    if (!old.use_empty())
      old.replaceAllUsesWith(
          newVars[cast<AffineDimExpr>(substitution[i]).getPosition()]);
  }
  body.eraseArguments(numNew, numOld);
  SmallVector<AffineExpr> sizes(ranges);
  llvm::append_range(sizes, reductionRanges);
  node.setLoopSizeExprs(sizes, ranges.size());
  return success();
}

//===----------------------------------------------------------------------===//
// pick_loop_order
//===----------------------------------------------------------------------===//

/// `getStrides` by evaluating `expr` at the origin and at each unit point,
/// when that is plain integer arithmetic: no symbols, no division or modulo
/// by a non-positive value (which affine simplification does not fold
/// either), no overflow. `dimOf[i]` is the dimension whose unit point sets
/// the expression's dimension `i`. All points in one walk of `expr`.
static std::optional<SmallVector<int64_t>>
evaluateStrides(AffineExpr expr, ArrayRef<unsigned> dimOf, unsigned numDims,
                ArrayRef<int64_t> symbolValues) {
  if (findUnboundSymbol(expr, symbolValues) && getNumSymbolsUsed(expr) != 0)
    return std::nullopt;
  // Point 0 is the origin, point 1 + d the unit point of dimension d.
  unsigned numPoints = numDims + 1;
  SmallVector<int64_t, 32> points(dimOf.size() * numPoints, 0);
  for (auto [i, dim] : llvm::enumerate(dimOf))
    if (dim < numDims)
      points[i * numPoints + 1 + dim] = 1;
  SmallVector<int64_t, 8> values(numPoints);
  if (!evaluateAffineExprAtPoints(expr, points, symbolValues, values))
    return std::nullopt;
  SmallVector<int64_t> strides;
  for (unsigned d = 0; d < numDims; ++d) {
    int64_t stride;
    if (llvm::SubOverflow(values[1 + d], values[0], stride))
      return std::nullopt;
    strides.push_back(stride);
  }
  return strides;
}

std::optional<SmallVector<int64_t>>
mlir::fusion::getStrides(AffineExpr expr, unsigned numDims,
                         unsigned numSymbols, ArrayRef<int64_t> symbolValues) {
  // Without symbols every difference folds to a constant: evaluate it.
  SmallVector<unsigned> identity = llvm::to_vector(llvm::seq(0u, numDims));
  if (std::optional<SmallVector<int64_t>> strides =
          evaluateStrides(expr, identity, numDims, symbolValues))
    return strides;
  MLIRContext *ctx = expr.getContext();
  AffineExpr zero = getCachedConstantExpr(0, ctx);
  SmallVector<AffineExpr> point(numDims, zero);
  AffineExpr atOrigin = expr.replaceDims(point);
  SmallVector<int64_t> strides;
  for (unsigned d = 0; d < numDims; ++d) {
    point[d] = getCachedConstantExpr(1, ctx);
    AffineExpr diff = simplifyAffineExpr(expr.replaceDims(point) - atOrigin,
                                         numDims, numSymbols);
    point[d] = zero;
    // A stride in the size symbols is taken at their hints (stride_hints).
    std::optional<int64_t> stride = evaluateSizeExpr(diff, symbolValues);
    if (!stride)
      return std::nullopt;
    strides.push_back(*stride);
  }
  return strides;
}

std::optional<SmallVector<int64_t>>
mlir::fusion::getLoopStrides(NodeOp node, Operation *access) {
  auto indexed = dyn_cast<IndexedOpInterface>(access);
  if (!indexed || !node->isProperAncestor(access))
    return std::nullopt;
  AffineMap map = indexed.getIndexMap();
  OperandRange indices = indexed.getIndexOperands();
  SmallVector<unsigned> loopOf;
  for (Value index : indices.take_front(map.getNumDims())) {
    std::optional<unsigned> loop = getLoopPosition(node, index);
    if (!loop)
      return std::nullopt;
    loopOf.push_back(*loop);
  }
  unsigned numLoops = node.getNumLoops();
  // Indirect symbols have no value; size symbols take their hints.
  SmallVector<int64_t> symbolValues(indexed.getNumIndirectSymbols(),
                                    kSymbolicSize);
  if (auto graph = node->getParentOfType<GraphOp>())
    llvm::append_range(symbolValues, graph.getSizeHints());
  if (std::optional<SmallVector<int64_t>> strides =
          evaluateStrides(map.getResult(0), loopOf, numLoops, symbolValues))
    return strides;
  return getStrides(getLoopIndexExpr(node, access), numLoops,
                    map.getNumSymbols(), symbolValues);
}

/// Python's `list.sort` with a comparison function, as CPython runs it on a
/// list shorter than its minimum run (64): take the initial run (a strictly
/// descending one is reversed), then binary insertion sort the rest. A
/// stable sort for any consistent comparison; this exact algorithm also
/// reproduces Inductor's result when the comparison is not transitive.
static void pythonSort(SmallVectorImpl<unsigned> &items,
                       function_ref<int(unsigned, unsigned)> cmp) {
  size_t n = items.size();
  if (n < 2)
    return;
  auto less = [&](unsigned a, unsigned b) { return cmp(a, b) < 0; };
  size_t run = 2;
  if (less(items[1], items[0])) {
    while (run < n && less(items[run], items[run - 1]))
      ++run;
    std::reverse(items.begin(), items.begin() + run);
  } else {
    while (run < n && !less(items[run], items[run - 1]))
      ++run;
  }
  for (size_t start = run; start < n; ++start) {
    unsigned pivot = items[start];
    size_t lo = 0, hi = start;
    while (lo < hi) {
      size_t mid = lo + ((hi - lo) >> 1);
      if (less(pivot, items[mid]))
        hi = mid;
      else
        lo = mid + 1;
    }
    std::move_backward(items.begin() + lo, items.begin() + start,
                       items.begin() + start + 1);
    items[lo] = pivot;
  }
}

/// Python's `cmp(x, y)`.
template <typename T>
static int compare(T x, T y) {
  return (x > y) - (x < y);
}

SmallVector<unsigned>
mlir::fusion::pickLoopOrder(ArrayRef<SmallVector<int64_t>> strides,
                            ArrayRef<int64_t> sizes) {
  // Inductor's index_cmp: negative when loop `a` should be inner to `b`.
  auto indexCmp = [&](unsigned a, unsigned b) -> int {
    if (sizes[a] == 1 || sizes[b] == 1)
      return compare(sizes[a] == 1, sizes[b] == 1);
    unsigned aFirst = 0, bFirst = 0;
    // Magnitudes as unsigned values: |INT64_MIN| does not fit in int64_t.
    auto magnitude = [](int64_t v) {
      return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    };
    for (ArrayRef<int64_t> access : strides) {
      uint64_t sa = magnitude(access[a]), sb = magnitude(access[b]);
      aFirst += sb == 0 || sa < sb;
      bFirst += sa == 0 || sb < sa;
    }
    if (aFirst != bFirst)
      return aFirst > bFirst ? -1 : 1;
    return compare(b, a);
  };
  SmallVector<unsigned> order;
  for (unsigned i = sizes.size(); i > 0; --i)
    order.push_back(i - 1);
  pythonSort(order, indexCmp);
  return order;
}

std::optional<SmallVector<int64_t>>
LoopStrideCache::get(NodeOp node, Operation *access) {
  auto indexed = dyn_cast<IndexedOpInterface>(access);
  if (!indexed || !node->isProperAncestor(access))
    return std::nullopt;
  // The index's map and operands asked once: the indirect indices are the
  // operands after the dimensions' (getNumIndirectSymbols would ask again).
  AffineMap map = indexed.getIndexMap();
  OperandRange indices = indexed.getIndexOperands();
  unsigned numDims = map.getNumDims();
  unsigned numLoops = node.getNumLoops();
  unsigned numIndirect = indices.size() - numDims;
  // An index that does not fit a key is computed without the memo.
  if (numDims > 7 || numLoops > 255 || numIndirect > 255)
    return getLoopStrides(node, access);
  SmallVector<unsigned, 7> loops;
  for (Value index : indices.take_front(numDims)) {
    auto arg = dyn_cast<BlockArgument>(index);
    if (!arg || arg.getOwner() != &node.getBodyBlock() ||
        arg.getArgNumber() >= numLoops)
      return std::nullopt; // not a loop variable: no strides
    loops.push_back(arg.getArgNumber());
  }
  std::optional<IndexOverLoopsKey> key =
      IndexOverLoopsKey::get(map, loops, numLoops | numIndirect << 8);
  auto [it, inserted] = entries.try_emplace(*key);
  if (inserted)
    it->second = getLoopStrides(node, access);
  return it->second;
}

SmallVector<unsigned> mlir::fusion::computePreferredLoopOrder(
    NodeOp node, LoopStrideCache *cache) {
  unsigned numLoops = node.getNumLoops();
  SmallVector<unsigned> order = llvm::to_vector(llvm::seq(0u, numLoops));
  // Only a group of two loops or more has an order to pick: without one,
  // the strides would change nothing.
  unsigned numPointwise = node.getNumPointwiseLoops();
  if (numPointwise < 2 && numLoops - numPointwise < 2)
    return order;
  SmallVector<Operation *> stores, loads, others;
  collectAccesses(node, stores, loads, others);
  SmallVector<Operation *> addresses(stores);
  llvm::append_range(addresses, loads);

  // Strides of every access over all loops; a non-constant one keeps the
  // order (Inductor's "Did not simplify complex index" fallback).
  SmallVector<SmallVector<int64_t>> allStrides;
  for (Operation *op : addresses) {
    std::optional<SmallVector<int64_t>> strides =
        cache ? cache->get(node, op) : getLoopStrides(node, op);
    if (!strides)
      return order;
    allStrides.push_back(std::move(*strides));
  }
  if (allStrides.empty())
    return order;

  SmallVector<int64_t> sizes = node.getLoopSizes();
  auto pickGroup = [&](unsigned begin, unsigned end) {
    if (end - begin < 2)
      return;
    SmallVector<SmallVector<int64_t>> groupStrides;
    for (ArrayRef<int64_t> strides : allStrides)
      groupStrides.emplace_back(strides.slice(begin, end - begin));
    SmallVector<unsigned> innermostFirst = pickLoopOrder(
        groupStrides, ArrayRef<int64_t>(sizes).slice(begin, end - begin));
    for (unsigned j = 0, e = end - begin; j < e; ++j)
      order[begin + j] = begin + innermostFirst[e - 1 - j];
  };
  pickGroup(0, numPointwise);
  pickGroup(numPointwise, numLoops);
  return order;
}

unsigned LoopRewriteCache::getRewriteId(ArrayRef<AffineExpr> substitution,
                                        unsigned numNew) {
  for (auto [id, entry] : llvm::enumerate(rewrites))
    if (entry.second == numNew && ArrayRef(entry.first) == substitution)
      return id;
  rewrites.push_back({SmallVector<AffineExpr, 6>(substitution), numNew});
  return rewrites.size() - 1;
}

std::optional<IndexOverLoopsKey>
IndexOverLoopsKey::get(AffineMap map, ArrayRef<unsigned> loops, unsigned tag) {
  if (loops.size() > 7)
    return std::nullopt;
  uint64_t packed = loops.size();
  for (unsigned loop : loops) {
    if (loop > 255)
      return std::nullopt;
    packed = (packed << 8) | loop;
  }
  return IndexOverLoopsKey{map, packed, tag};
}

LogicalResult mlir::fusion::applyLoopPermutation(NodeOp node,
                                                 ArrayRef<unsigned> order,
                                                 LoopRewriteCache *cache) {
  unsigned numLoops = node.getNumLoops();
  unsigned numPointwise = node.getNumPointwiseLoops();
  if (order.size() != numLoops)
    return failure();
  llvm::SmallBitVector seen(numLoops);
  for (auto [j, old] : llvm::enumerate(order)) {
    if (old >= numLoops || seen.test(old) ||
        (j < numPointwise) != (old < numPointwise))
      return failure();
    seen.set(old);
  }
  SmallVector<AffineExpr> sizes = node.getLoopSizeExprs();
  SmallVector<AffineExpr> newSizes;
  SmallVector<AffineExpr> substitution(numLoops);
  for (auto [j, old] : llvm::enumerate(order)) {
    newSizes.push_back(sizes[old]);
    substitution[old] = getAffineDimExpr(j, node.getContext());
  }
  ArrayRef<AffineExpr> newSizesRef(newSizes);
  return rewriteLoopNest(node, newSizesRef.take_front(numPointwise),
                         newSizesRef.drop_front(numPointwise), substitution,
                         cache);
}

//===----------------------------------------------------------------------===//
// merge_loops
//===----------------------------------------------------------------------===//

namespace {
/// The loop nest of a node while merges are being decided: current sizes,
/// the indices of every access over the current loops, and for every
/// original loop the expression over the current loops that replaces it.
struct LoopNestState {
  MLIRContext *ctx;
  SmallVector<AffineExpr> sizes;
  SmallVector<bool> isReduction;
  SmallVector<bool> opaque;
  SmallVector<AffineExpr> indices;
  SmallVector<unsigned> indexSymbols;
  SmallVector<AffineExpr> substitution;

  unsigned numLoops() const { return sizes.size(); }

  /// Applies `replacement` (one expression per current loop, over the loops
  /// that remain after removing loop `removed`) to every expression.
  void substitute(ArrayRef<AffineExpr> replacement, unsigned removed) {
    unsigned newNumLoops = numLoops() - 1;
    for (auto [expr, numSymbols] : llvm::zip(indices, indexSymbols))
      expr = simplifyAffineExpr(expr.replaceDims(replacement), newNumLoops,
                                numSymbols);
    for (AffineExpr &expr : substitution)
      expr = expr.replaceDims(replacement);
    sizes.erase(sizes.begin() + removed);
    isReduction.erase(isReduction.begin() + removed);
    opaque.erase(opaque.begin() + removed);
  }

  /// Replacement that shifts the loops after `removed` down by one and maps
  /// `removed` itself to `value`.
  SmallVector<AffineExpr> dropLoop(unsigned removed, AffineExpr value) {
    SmallVector<AffineExpr> replacement;
    for (unsigned d = 0; d < numLoops(); ++d) {
      if (d == removed)
        replacement.push_back(value);
      else
        replacement.push_back(getAffineDimExpr(d < removed ? d : d - 1, ctx));
    }
    return replacement;
  }

  void removeUnitLoop(unsigned loop) {
    substitute(dropLoop(loop, getCachedConstantExpr(0, ctx)), loop);
  }

  /// True when every index depends on loops `outer` and `outer + 1` only
  /// through `size(outer + 1) * outer + (outer + 1)`.
  bool canMerge(unsigned outer) const {
    unsigned inner = outer + 1;
    if (inner >= numLoops() || isReduction[outer] != isReduction[inner] ||
        opaque[outer] || opaque[inner])
      return false;
    // The merged loop's size must be representable.
    int64_t outerSize = getStaticSize(sizes[outer]);
    int64_t innerSize = getStaticSize(sizes[inner]);
    int64_t mergedSize;
    if (outerSize != kSymbolicSize && innerSize != kSymbolicSize &&
        llvm::MulOverflow(outerSize, innerSize, mergedSize))
      return false;
    SmallVector<AffineExpr> replacement;
    for (unsigned d = 0; d < numLoops(); ++d)
      replacement.push_back(getAffineDimExpr(d, ctx));
    replacement[outer] = getCachedConstantExpr(0, ctx);
    replacement[inner] = getAffineDimExpr(outer, ctx) * sizes[inner] +
                         getAffineDimExpr(inner, ctx);
    for (auto [expr, numSymbols] : llvm::zip(indices, indexSymbols)) {
      AffineExpr combined = simplifyAffineExpr(expr.replaceDims(replacement),
                                               numLoops(), numSymbols);
      if (combined != expr)
        return false;
    }
    return true;
  }

  /// Merges loops `outer` and `outer + 1` into one loop at `outer`. Every
  /// index is a function of `size(inner) * outer + inner`, which the merged
  /// loop enumerates, so indices use the merged variable in place of the
  /// inner one and 0 in place of the outer one.
  void merge(unsigned outer) {
    unsigned inner = outer + 1;
    AffineExpr size = SizeVars::product(ctx, {sizes[outer], sizes[inner]});
    SmallVector<AffineExpr> replacement =
        dropLoop(inner, getAffineDimExpr(outer, ctx));
    replacement[outer] = getCachedConstantExpr(0, ctx);
    substitute(replacement, inner);
    sizes[outer] = size;
  }
};
} // namespace

/// The state `mergeLoops` and `canMergeLoops` decide on; fails when an
/// access of the node does not index with its own loops.
static FailureOr<LoopNestState> getLoopNestState(NodeOp node) {
  LoopNestState state;
  state.ctx = node.getContext();
  state.sizes = node.getLoopSizeExprs();
  unsigned numLoops = node.getNumLoops();
  for (unsigned i = 0; i < numLoops; ++i) {
    state.isReduction.push_back(i >= node.getNumPointwiseLoops());
    state.opaque.push_back(hasOpaqueUses(node, i));
    state.substitution.push_back(getAffineDimExpr(i, state.ctx));
  }
  SmallVector<Operation *> stores, loads, others;
  collectAccesses(node, stores, loads, others);
  for (ArrayRef<Operation *> group :
       {ArrayRef(stores), ArrayRef(loads), ArrayRef(others)}) {
    for (Operation *op : group) {
      AffineExpr expr = getLoopIndexExpr(node, op);
      if (!expr)
        return failure();
      state.indices.push_back(expr);
      state.indexSymbols.push_back(
          cast<IndexedOpInterface>(op).getIndexMap().getNumSymbols());
    }
  }
  return state;
}

bool mlir::fusion::canMergeLoops(NodeOp node, unsigned outer) {
  FailureOr<LoopNestState> state = getLoopNestState(node);
  return succeeded(state) && state->canMerge(outer);
}

MergeLoopsResult mlir::fusion::mergeLoops(NodeOp node) {
  MergeLoopsResult result;
  FailureOr<LoopNestState> state = getLoopNestState(node);
  if (failed(state))
    return result;

  // Loops of size 1 always index 0; a reduction keeps one reduction loop.
  for (unsigned loop = state->numLoops(); loop > 0; --loop) {
    unsigned i = loop - 1;
    if (getStaticSize(state->sizes[i]) != 1 || state->opaque[i])
      continue;
    if (state->isReduction[i] && llvm::count(state->isReduction, true) == 1)
      continue;
    state->removeUnitLoop(i);
    ++result.numUnitLoopsRemoved;
  }
  // Merge adjacent loops, innermost pairs first, as _simplify_loops does.
  for (unsigned loop = state->numLoops(); loop > 1; --loop) {
    unsigned outer = loop - 2;
    if (!state->canMerge(outer))
      continue;
    state->merge(outer);
    ++result.numMerged;
  }
  if (!result.changed())
    return result;

  SmallVector<AffineExpr> ranges, reductionRanges;
  for (auto [size, isReduction] :
       llvm::zip(state->sizes, state->isReduction))
    (isReduction ? reductionRanges : ranges).push_back(size);
  if (failed(rewriteLoopNest(node, ranges, reductionRanges,
                             state->substitution)))
    return MergeLoopsResult();
  return result;
}

//===----------------------------------------------------------------------===//
// reorder_loops_by_dep_pair
//===----------------------------------------------------------------------===//

/// True when `dep` uses every dimension and no indirect index (Inductor:
/// `num_vars == len(index.free_symbols)`).
static bool usesExactlyItsDims(MemoryDepAttr dep) {
  AffineMap map = dep.getIndex();
  llvm::SmallBitVector used(map.getNumDims());
  bool usesSymbol = false;
  map.getResult(0).walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      used.set(dim.getPosition());
    else if (isa<AffineSymbolExpr>(e))
      usesSymbol = true;
  });
  return !usesSymbol && used.all();
}

std::optional<SmallVector<unsigned>>
mlir::fusion::decideLoopOrderToMatch(MemoryDepAttr self, MemoryDepAttr other) {
  AffineMap selfMap = self.getIndex(), otherMap = other.getIndex();
  unsigned numVars = selfMap.getNumDims();
  if (otherMap.getNumDims() != numVars || selfMap.getNumResults() != 1 ||
      otherMap.getNumResults() != 1)
    return std::nullopt;
  if (!usesExactlyItsDims(self) || !usesExactlyItsDims(other))
    return std::nullopt;
  auto isDegenerate = [](AffineExpr size) {
    int64_t value = getStaticSize(size);
    return value == 0 || value == 1;
  };
  if (llvm::any_of(self.getSizes(), isDegenerate) ||
      llvm::any_of(other.getSizes(), isDegenerate))
    return std::nullopt;
  std::optional<SmallVector<int64_t>> selfStrides = getStrides(
      selfMap.getResult(0), numVars, selfMap.getNumSymbols());
  std::optional<SmallVector<int64_t>> otherStrides = getStrides(
      otherMap.getResult(0), numVars, otherMap.getNumSymbols());
  if (!selfStrides || !otherStrides)
    return std::nullopt;
  // Strides must be distinct within each and the same set in both.
  llvm::SmallDenseMap<int64_t, unsigned, 8> strideToIndex;
  for (auto [i, stride] : llvm::enumerate(*selfStrides))
    if (!strideToIndex.try_emplace(stride, i).second)
      return std::nullopt;
  llvm::SmallDenseMap<int64_t, unsigned, 8> otherSeen;
  SmallVector<unsigned> order;
  for (auto [j, stride] : llvm::enumerate(*otherStrides)) {
    if (!otherSeen.try_emplace(stride, j).second)
      return std::nullopt;
    auto it = strideToIndex.find(stride);
    if (it == strideToIndex.end())
      return std::nullopt;
    order.push_back(it->second);
  }
  return order;
}

/// The full loop order for `node` that applies `pointwiseOrder` to its
/// pointwise loops and keeps the reduction loops, or failure when the
/// dependences' dimensions are not exactly its pointwise loops.
static FailureOr<SmallVector<unsigned>>
decideNodeOrder(NodeOp node, MemoryDepAttr selfDep, MemoryDepAttr otherDep) {
  unsigned numPointwise = node.getNumPointwiseLoops();
  if (!selfDep || !otherDep ||
      selfDep.getIndex().getNumDims() != numPointwise ||
      otherDep.getIndex().getNumDims() != numPointwise ||
      llvm::is_contained(node.getRanges(), 1))
    return failure();
  std::optional<SmallVector<unsigned>> order =
      decideLoopOrderToMatch(selfDep, otherDep);
  if (!order || order->empty())
    return failure();
  for (unsigned r = numPointwise, e = node.getNumLoops(); r < e; ++r)
    order->push_back(r);
  return *order;
}

/// Applies `order` unless it is the identity.
static LogicalResult applyUnlessIdentity(NodeOp node, ArrayRef<unsigned> order,
                                         LoopRewriteCache *cache = nullptr) {
  for (auto [j, old] : llvm::enumerate(order))
    if (j != old)
      return applyLoopPermutation(node, order, cache);
  return success();
}

LogicalResult mlir::fusion::reorderLoopsByDepPair(NodeOp node,
                                                  MemoryDepAttr selfDep,
                                                  MemoryDepAttr otherDep) {
  FailureOr<SmallVector<unsigned>> order =
      decideNodeOrder(node, selfDep, otherDep);
  if (failed(order))
    return failure();
  return applyUnlessIdentity(node, *order);
}

LogicalResult mlir::fusion::reorderLoopsByDepPair(FusedOp fused,
                                                  MemoryDepAttr selfDep,
                                                  MemoryDepAttr otherDep) {
  SmallVector<NodeOp> members;
  for (Operation &member : fused.getMembers()) {
    auto node = dyn_cast<NodeOp>(member);
    if (!node)
      return failure();
    members.push_back(node);
  }
  return reorderLoopsByDepPair(members, selfDep, otherDep);
}

LogicalResult mlir::fusion::reorderLoopsByDepPair(ArrayRef<NodeOp> members,
                                                  MemoryDepAttr selfDep,
                                                  MemoryDepAttr otherDep,
                                                  LoopRewriteCache *cache) {
  if (members.empty())
    return failure();
  NodeOp first = members.front();
  for (NodeOp node : members)
    if (first.getRangeExprs() != node.getRangeExprs())
      return failure();
  FailureOr<SmallVector<unsigned>> order =
      decideNodeOrder(first, selfDep, otherDep);
  if (failed(order))
    return failure();
  // Members share pointwise ranges but may differ in reduction loops.
  for (NodeOp node : members) {
    SmallVector<unsigned> full(order->begin(),
                               order->begin() + node.getNumPointwiseLoops());
    for (unsigned r = node.getNumPointwiseLoops(), e = node.getNumLoops();
         r < e; ++r)
      full.push_back(r);
    if (failed(applyUnlessIdentity(node, full, cache)))
      return failure();
  }
  return success();
}
