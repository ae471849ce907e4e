//===- GraphOpsWalk.h - The graph verifier's walk, op by op ----*- C++ -*-===//
//
// GraphOp's verifier visits every op of the graph, loop-body ops included,
// for the bytes of all its buffers together and its size symbols: at 100k
// nodes a walk over 1.3M ops that have long left the caches. A GraphOpsWalk
// is that walk taken a few top-level ops at a time: an importer that builds
// the graph a few nodes at a time visits those nodes' ops right after
// building them, then verifies the graph with verifyGraphRegions, which
// walks only the ops built after the last ones visited. The checks of the
// top-level nodes that need only a node and its users (scheduler nodes
// only, unique names, one mutation of a version, def-use edges going
// forward) are taken in the same visits; where one fails,
// verifyGraphRegions checks the whole graph again for the diagnostic.
//
// The ops visited keep their names and result types afterwards, and their
// results gain users only in ops appended to the block later (the import
// may still replace the graph arguments they use).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_GRAPHOPSWALK_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_GRAPHOPSWALK_H

#include "mlir/Support/LLVM.h"

#include <memory>

namespace mlir {
class Operation;
namespace fusion {
class GraphOp;

class GraphOpsWalk {
public:
  explicit GraphOpsWalk(GraphOp graph);
  ~GraphOpsWalk();
  GraphOpsWalk(GraphOpsWalk &&) noexcept;
  GraphOpsWalk &operator=(GraphOpsWalk &&) noexcept;

  /// Visits the ops of the graph's body built since the last call (all of
  /// them at the first), and the ops nested in them, as the graph's
  /// verifier does; an op built later is walked by verifyGraphRegions.
  void visitNewOps();

  struct State;

private:
  friend LogicalResult verifyGraphRegions(GraphOp graph, GraphOpsWalk &walk);
  std::unique_ptr<State> state;
};

/// GraphOp::verifyRegions with the ops `walk` visited not walked again: it
/// fails where that fails. The first error it reports may be another op's,
/// since the visited ops come before the graph's arguments. A walk of
/// another graph, taken before the graph's size symbols or hints changed,
/// or already used here, is taken again.
LogicalResult verifyGraphRegions(GraphOp graph, GraphOpsWalk &walk);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_GRAPHOPSWALK_H
