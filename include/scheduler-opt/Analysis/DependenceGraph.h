//===- DependenceGraph.h - Inductor's compute_dependencies ------*- C++ -*-===//
//
// The memory dependences of a fusion.graph, as Inductor's
// `Scheduler.compute_dependencies` derives them: per scheduler node its read
// and write dependences (MemoryDep, StarDep, WeakDep), which of its reads are
// met by graph inputs and which wait for other nodes, the users of every
// buffer (graph outputs included), and the ordering edges between nodes.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_ANALYSIS_DEPENDENCEGRAPH_H
#define SCHEDULER_OPT_ANALYSIS_DEPENDENCEGRAPH_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Support/MixedPointerInfo.h"

#include "mlir/IR/Value.h"
#include "mlir/Pass/AnalysisManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace fusion {

/// The reads and writes of one leaf scheduler node, computed from its body
/// or operands alone (Inductor's `extract_read_writes` without
/// normalization). Mutation ordering is not included: it depends on the
/// other nodes of the graph.
struct ReadWrites {
  /// MemoryDepAttr and StarDepAttr, first occurrence first, no duplicates.
  SmallVector<Attribute, 4> reads;
  SmallVector<Attribute, 2> writes;
  /// The buffer values behind `reads`, in the same order.
  SmallVector<Value, 4> readBuffers;
};

/// Returns `expr` with every sum in a canonical order: dimensions by
/// position, then symbols, then other terms (floordiv, mod) by their printed
/// form, the constant last; equal factors merged. Floordiv and mod stay as
/// they are. Dependences use it so that equal indices compare equal, as
/// sympy's canonical expressions do in Inductor.
AffineExpr canonicalizeIndexExpr(AffineExpr expr);

/// Memo of the index translations of computeReadWrites over the leaves of
/// one graph: the same map over the same loop pattern (e.g. `4096 * d0 +
/// d1` over two loops of size other than 1) recurs across nodes, and
/// building its affine expressions means uniquing them in the context each
/// time.
struct DepMapCache {
  /// (access map, operand images) -> (dependence map, kept dimensions).
  DenseMap<std::pair<AffineMap, uint64_t>, std::pair<AffineMap, unsigned>>
      entries;
};

/// Computes the reads and writes of a leaf node (`fusion.node`,
/// `fusion.extern` or `fusion.nop`), memoizing index translations in
/// `cache` when given (one cache per graph), else in the leaf's own.
ReadWrites computeReadWrites(SchedulerNodeOpInterface leaf,
                             DepMapCache *cache = nullptr);

/// Returns the name of a buffer value: a graph input name or the buffer name
/// of the scheduler node producing it. Returns null for other values.
StringAttr getBufferName(Value buffer);

/// Returns the buffer a dependence (`#fusion.memory_dep`, `#fusion.star_dep`
/// or `#fusion.weak_dep`) names.
StringAttr getDepName(Attribute dep);

/// One user of a buffer (Inductor's NodeUser): the leaf node that reads it
/// and the index of the top-level node holding that leaf, or `kOutput` and
/// a null leaf for the graph's consumer.
struct NodeUser {
  static constexpr unsigned kOutput = ~0u;
  /// The pointer first: 16 bytes, not 24 (a million-node graph keeps two
  /// million lists of users).
  Operation *leaf;
  unsigned node;
  bool canInplace;
  bool isWeak;
  bool isOutput() const { return node == kOutput; }
};

/// The dependence graph of one fusion.graph. Nodes are the top-level
/// scheduler ops of the graph body in their current order.
class DependenceGraph {
public:
  explicit DependenceGraph(Operation *op);
  /// The graph of `op` after containers were opened or built around its
  /// leaves: `before` is the analysis of the same graph just before, still
  /// up to date for every leaf (no leaf's body or results changed, no leaf
  /// was added or erased; containers may have been erased). Each leaf's
  /// reads and writes are taken from `before` rather than computed again:
  /// moving a leaf into or out of a container changes neither.
  DependenceGraph(Operation *op, const DependenceGraph &before);

  GraphOp getGraph() const { return graph; }

  //===--------------------------------------------------------------------===//
  // Nodes
  //===--------------------------------------------------------------------===//

  unsigned getNumNodes() const { return nodes.size(); }
  SchedulerNodeOpInterface getNode(unsigned index) const {
    return nodes[index];
  }
  ArrayRef<SchedulerNodeOpInterface> getNodes() const { return nodes; }
  /// Index of a top-level node, or nullopt for any other op.
  std::optional<unsigned> lookupNode(Operation *op) const;

  //===--------------------------------------------------------------------===//
  // Dependences
  //===--------------------------------------------------------------------===//

  /// Every read of the node, including the fake dependences mutation adds
  /// (a StarDep on the overwritten buffer, WeakDeps on the buffers of its
  /// earlier readers).
  ArrayRef<Attribute> getReads(unsigned node) const {
    return deps[node].reads;
  }
  ArrayRef<Attribute> getWrites(unsigned node) const {
    return deps[node].writes;
  }
  /// Reads of buffers produced by nodes of the graph.
  ArrayRef<Attribute> getUnmetDependencies(unsigned node) const {
    return deps[node].unmet;
  }
  /// Reads of graph inputs.
  ArrayRef<Attribute> getMetDependencies(unsigned node) const {
    return deps[node].met;
  }

  /// Nodes that must run before `node`, sorted by index, no duplicates.
  ArrayRef<unsigned> getPredecessors(unsigned node) const {
    return preds[node];
  }
  /// Nodes that must run after `node`, sorted by index, no duplicates.
  ArrayRef<unsigned> getSuccessors(unsigned node) const {
    return succs[node];
  }

  /// All transitive predecessors of `node`, sorted by index. Computed on
  /// demand in time linear in the size of the ancestor subgraph.
  SmallVector<unsigned> getAncestors(unsigned node) const;

  //===--------------------------------------------------------------------===//
  // Buffers
  //===--------------------------------------------------------------------===//

  /// The buffer value named `name`, or null.
  Value lookupBuffer(StringAttr name) const {
    return buffersByName.lookup(name).value;
  }
  /// The top-level node producing `buffer`, or nullopt for graph inputs.
  std::optional<unsigned> getProducer(Value buffer) const;
  /// The top-level node producing the buffer named `name`, or nullopt for
  /// graph inputs and names of no buffer: getProducer(lookupBuffer(name))
  /// in one lookup.
  std::optional<unsigned> getProducer(StringAttr name) const {
    unsigned producer = buffersByName.lookup(name).producer;
    if (producer == kNoProducer)
      return std::nullopt;
    return producer;
  }
  /// The users of `buffer` (and of the buffers it aliases), in schedule
  /// order, the graph output last, one entry per leaf node.
  ArrayRef<NodeUser> getUsers(Value buffer) const;
  /// The buffer version that overwrites `buffer` in place, or null. A
  /// result of a container (`fusion.fused`, ...) is the member result it
  /// yields: a node may overwrite either.
  Value getMutation(Value buffer) const {
    return mutatedBy.lookup(memberValue(buffer));
  }

  //===--------------------------------------------------------------------===//
  // Cycles
  //===--------------------------------------------------------------------===//

  /// True when the ordering edges (including mutation order) are cyclic.
  bool hasCycle() const { return !cycle.empty(); }
  /// The nodes on one cycle, in edge order.
  ArrayRef<unsigned> getCycle() const { return cycle; }
  /// Emits an error naming the nodes on the cycle, at the first of them.
  InFlightDiagnostic emitCycleError() const;

  bool isInvalidated(const AnalysisManager::PreservedAnalyses &pa) {
    return !pa.isPreserved<DependenceGraph>();
  }

private:
  struct NodeDeps {
    SmallVector<Attribute, 4> reads;
    SmallVector<Attribute, 2> writes;
    SmallVector<Attribute, 4> unmet;
    SmallVector<Attribute, 4> met;
  };

  /// A leaf being added to the graph: its top-level node and its reads
  /// and writes (computed, or reused from a graph built before).
  struct LeafInfo {
    SchedulerNodeOpInterface op;
    unsigned node = 0;
    ReadWrites rw;
    /// The StarDep on each version the leaf overwrites, in the order of
    /// its results (computed, or reused with `rw`).
    SmallVector<Attribute, 1> overwriteDeps;
    bool reused = false;
  };

  void build(const DependenceGraph *before);
  /// Takes the reads and writes of the leaves `before` knows.
  static void reuseLeafAccesses(const DependenceGraph &before,
                                MutableArrayRef<LeafInfo> leaves);
  void findCycle();
  Value aliasRoot(Value buffer) const;
  /// The member result a container result yields (through nested
  /// containers); any other value itself.
  Value memberValue(Value buffer) const {
    while (Value inner = yieldedBy.lookup(buffer))
      buffer = inner;
    return buffer;
  }

  /// A buffer's value and the top-level node producing it (kNoProducer
  /// for a graph input): the planner asks for both by name.
  static constexpr unsigned kNoProducer = ~0u;
  struct NamedBuffer {
    Value value;
    unsigned producer = kNoProducer;
  };

  GraphOp graph;
  SmallVector<SchedulerNodeOpInterface> nodes;
  DenseMap<Operation *, unsigned> nodeIndex;
  SmallVector<NodeDeps> deps;
  SmallVector<SmallVector<unsigned, 4>> preds, succs;
  DenseMap<StringAttr, NamedBuffer, MixedPointerInfo<StringAttr>>
      buffersByName;
  /// Tables keyed by values mix the pointer's bits (MixedPointerInfo): a
  /// multiply, where Value's own hash runs hash_16_bytes on every lookup.
  DenseMap<Value, unsigned, MixedPointerInfo<Value>> producers;
  /// Union-find parent for buffers that alias (nop results and inputs).
  DenseMap<Value, Value, MixedPointerInfo<Value>> aliasParent;
  /// Users per alias root.
  DenseMap<Value, SmallVector<NodeUser, 2>, MixedPointerInfo<Value>> users;
  /// Keyed by member values (memberValue).
  DenseMap<Value, Value, MixedPointerInfo<Value>> mutatedBy;
  /// Container results to the values their containers yield.
  DenseMap<Value, Value, MixedPointerInfo<Value>> yieldedBy;
  SmallVector<unsigned> cycle;
  /// Every leaf and its reads and writes, leaves in node order, kept for
  /// a graph built from this one (the constructor taking `before`) when
  /// the graph has containers.
  SmallVector<Operation *> leafOps;
  SmallVector<ReadWrites> leafAccesses;
  /// Their LeafInfo::overwriteDeps.
  SmallVector<SmallVector<Attribute, 1>> leafOverwriteDeps;
};

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_ANALYSIS_DEPENDENCEGRAPH_H
