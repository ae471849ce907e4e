//===- LoopUtils.h - Loop order utilities for fusion.node -------*- C++ -*-===//
//
// Inductor's loop-order machinery on `fusion.node` loop nests, shared by
// `fusion-reorder-loops` and the fusion pass:
//
//   pick_loop_order            pickLoopOrder, computePreferredLoopOrder
//   apply_new_loop_order       applyLoopPermutation
//   merge_loops                mergeLoops
//   decide_loop_order_to_match decideLoopOrderToMatch
//   reorder_loops_by_dep_pair  reorderLoopsByDepPair
//
// Every rewrite keeps the elements a node reads and writes exactly the same:
// it changes `ranges` / `reduction_ranges`, the loop variables of the body
// and the index maps of every `fusion.load`, `fusion.store` and
// `fusion.index_expr` (nested `fusion.masked` regions included). Rewritten
// maps are canonical: their dimensions are the loop variables they use, in
// loop order. Functions that change IR leave the DependenceGraph analysis
// stale; callers invalidate it.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_LOOPUTILS_H
#define SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_LOOPUTILS_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Pass/AnalysisManager.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace fusion {

/// The index of `access` (a load, store or index_expr in the body of `node`)
/// as an expression over the node's loops: dimension `i` is loop `i`
/// (pointwise loops first), symbols are the access's (indirect indices,
/// then size symbols, as in the access's map).
/// Returns null when `access` is not an access of `node`.
AffineExpr getLoopIndexExpr(NodeOp node, Operation *access);

/// Inductor's `stride_hints`: for every dimension `i < numDims`,
/// `expr(d_i = 1, other dims 0) - expr(all dims 0)`, with symbol `j` at
/// `symbolValues[j]` (the hints of size symbols). Returns nullopt when a
/// stride depends on a symbol without a value (e.g. an indirect index).
std::optional<SmallVector<int64_t>>
getStrides(AffineExpr expr, unsigned numDims, unsigned numSymbols,
           ArrayRef<int64_t> symbolValues = {});

/// `getStrides` of the index of `access` over the loops of `node` (the
/// strides of `getLoopIndexExpr(node, access)`), computed without building
/// that expression when the index has no indirect part; size symbols take
/// the graph's hints. Returns nullopt when `access` is not an access of
/// `node` or a stride has no value.
std::optional<SmallVector<int64_t>> getLoopStrides(NodeOp node,
                                                   Operation *access);

/// The key of the loop memos below: an index map, the loops its dimensions
/// are (8 bits each, after their number), and one more number for what else
/// the memoized result depends on (a node's shape, a rewrite).
struct IndexOverLoopsKey {
  AffineMap map;
  uint64_t loops;
  unsigned tag;
  /// The key of `map` over `loops`, or nullopt when it does not fit one
  /// (more than 7 dimensions, a loop past 255): then nothing is kept.
  static std::optional<IndexOverLoopsKey> get(AffineMap map,
                                              ArrayRef<unsigned> loops,
                                              unsigned tag);
  bool operator==(const IndexOverLoopsKey &other) const {
    return map == other.map && loops == other.loops && tag == other.tag;
  }
  /// The DenseMapInfo of the memos' tables.
  struct Info {
    static IndexOverLoopsKey getEmptyKey() {
      return {DenseMapInfo<AffineMap>::getEmptyKey(), 0, 0};
    }
    static IndexOverLoopsKey getTombstoneKey() {
      return {DenseMapInfo<AffineMap>::getTombstoneKey(), 0, 0};
    }
    static unsigned getHashValue(const IndexOverLoopsKey &key) {
      return llvm::hash_combine(key.map, key.loops, key.tag);
    }
    static bool isEqual(const IndexOverLoopsKey &a,
                        const IndexOverLoopsKey &b) {
      return a == b;
    }
  };
};

/// Memo of getLoopStrides over the nodes of one graph. The strides of an
/// access depend only on its index map, the loops its dimensions are, the
/// node's number of loops and of indirect indices, and the graph's size
/// hints; the same index over the same loops recurs in node after node.
/// Also the graph's analysis: no pass changes its size hints, so what it
/// holds stays true however the nodes are rewritten, and the fusion
/// planner finds the strides the loop-order pass computed.
class LoopStrideCache {
public:
  LoopStrideCache() = default;
  /// As the analysis of a `fusion.graph`.
  explicit LoopStrideCache(Operation *graph) {}
  /// Kept through every pass (the keys say all the strides depend on).
  bool isInvalidated(const AnalysisManager::PreservedAnalyses &) {
    return false;
  }

  /// getLoopStrides(node, access), computed once per distinct key.
  std::optional<SmallVector<int64_t>> get(NodeOp node, Operation *access);

private:
  /// Tagged with the node's number of loops and of indirect indices.
  DenseMap<IndexOverLoopsKey, std::optional<SmallVector<int64_t>>,
           IndexOverLoopsKey::Info>
      entries;
};

/// Memo of the new indices loop rewrites give accesses, across the nodes
/// of one graph. The new index of an access depends only on its index map,
/// the loops its dimensions are, and the rewrite: the expression over the
/// new loops that replaces each old loop (a permutation's new positions)
/// and the number of new loops. Nodes alike (a model's repeated layers)
/// are reordered alike: the fusion pass computes each new index once.
class LoopRewriteCache {
public:
  /// A rewritten index: its map and the loops its dimensions are.
  struct Rewrite {
    AffineMap map;
    SmallVector<unsigned> loops;
  };
  /// The id of a rewrite into `numNew` loops by `substitution`.
  unsigned getRewriteId(ArrayRef<AffineExpr> substitution, unsigned numNew);
  /// Keys are tagged with the rewrite's id.
  using Key = IndexOverLoopsKey;
  const Rewrite *lookup(const Key &key) const {
    auto it = entries.find(key);
    return it == entries.end() ? nullptr : &it->second;
  }
  void insert(const Key &key, Rewrite rewrite) {
    entries.try_emplace(key, std::move(rewrite));
  }

private:
  /// Rewrites by id: the substitution, then the number of new loops.
  SmallVector<std::pair<SmallVector<AffineExpr, 6>, unsigned>> rewrites;
  DenseMap<Key, Rewrite, Key::Info> entries;
};

/// Inductor's `pick_loop_order` heuristic. `strides[k][i]` is the stride of
/// loop `i` in memory access `k`, `sizes[i]` the size of loop `i`. Returns
/// the loops innermost first: a loop goes further in when its strides are
/// smaller in more accesses (a zero stride counts for the other loop), ties
/// keep the original order, and loops of size 1 go outermost. Sorted as
/// Python's `list.sort` does for lists this short (binary insertion), so the
/// result matches Inductor even where the comparison is not transitive.
SmallVector<unsigned> pickLoopOrder(ArrayRef<SmallVector<int64_t>> strides,
                                    ArrayRef<int64_t> sizes);

/// The loop order `ComputedBuffer.simplify_and_reorder` picks for `node`,
/// outermost first over all loops: `result[j]` is the current loop that
/// becomes loop `j`. The pointwise loops and the reduction loops are ordered
/// separately from the strides of the node's stores then loads; a group
/// with an index whose strides are not constant keeps its order.
/// With `cache`, the strides come from it (all nodes of one graph).
SmallVector<unsigned>
computePreferredLoopOrder(NodeOp node, LoopStrideCache *cache = nullptr);

/// Inductor's `apply_new_loop_order` generalized to all loops: loop `j` of
/// the result iterates as loop `order[j]` did. Fails without changing
/// anything unless `order` is a permutation of the loops that keeps the
/// pointwise loops first. With `cache`, new indices are taken from and kept
/// in it.
LogicalResult applyLoopPermutation(NodeOp node, ArrayRef<unsigned> order,
                                   LoopRewriteCache *cache = nullptr);

/// True when loops `outer` and `outer + 1` of `node` are of the same kind
/// (both pointwise or both reduction), their variables are used only as
/// index dimensions, and every index of the node depends on them only
/// through `size(outer + 1) * outer + (outer + 1)`.
bool canMergeLoops(NodeOp node, unsigned outer);

/// What `mergeLoops` did.
struct MergeLoopsResult {
  unsigned numMerged = 0;
  unsigned numUnitLoopsRemoved = 0;
  bool changed() const { return numMerged || numUnitLoopsRemoved; }
};

/// Inductor's `LoopBody.merge_loops` (`_simplify_loops`): removes loops of
/// size 1 (a reduction node keeps at least one reduction loop) and merges
/// adjacent loops of the same kind, innermost pairs first, wherever
/// `canMergeLoops` allows it. Loops whose variables have uses other than
/// index dimensions are left alone.
MergeLoopsResult mergeLoops(NodeOp node);

/// Inductor's `MemoryDep.decide_loop_order_to_match`: the order of the
/// dimensions of `self` that makes its strides those of `other`
/// (`result[j]` is the dimension of `self` with the stride of dimension `j`
/// of `other`). Returns nullopt, as Inductor does, unless both use every
/// dimension and no indirect index, no size is 0 or 1, and the strides are
/// distinct within each and the same set in both.
std::optional<SmallVector<unsigned>>
decideLoopOrderToMatch(MemoryDepAttr self, MemoryDepAttr other);

/// Inductor's `SchedulerNode.reorder_loops_by_dep_pair`: `selfDep` is an
/// access of `node` and `otherDep` an access of another node to the same
/// buffer; permutes the pointwise loops of `node` so that `selfDep` gets the
/// strides of `otherDep`. Fails, changing nothing, when no order can be
/// decided: the dependences must have one dimension per pointwise loop (no
/// pointwise loop of size 1) and `decideLoopOrderToMatch` must succeed.
LogicalResult reorderLoopsByDepPair(NodeOp node, MemoryDepAttr selfDep,
                                    MemoryDepAttr otherDep);

/// `FusedSchedulerNode.reorder_loops_by_dep_pair`: applies the order decided
/// for the first member to every member; fails, changing nothing, unless
/// every member has the same pointwise ranges.
LogicalResult reorderLoopsByDepPair(FusedOp fused, MemoryDepAttr selfDep,
                                    MemoryDepAttr otherDep);

/// The same for members not yet in a `fusion.fused`: nodes the fusion pass
/// has decided to fuse; `cache` as for applyLoopPermutation.
LogicalResult reorderLoopsByDepPair(ArrayRef<NodeOp> members,
                                    MemoryDepAttr selfDep,
                                    MemoryDepAttr otherDep,
                                    LoopRewriteCache *cache = nullptr);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_LOOPUTILS_H
