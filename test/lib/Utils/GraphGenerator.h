//===- GraphGenerator.h - Random valid scheduling graphs --------*- C++ -*-===//
//
// Builds random `fusion.graph`s that verify and mean something: pointwise
// and reduction nodes with realistic index maps (contiguous, transposed,
// broadcast, row and column reductions, padding under a mask, gathers
// through indirect indices, iota-like index expressions), extern kernels
// (matmuls, a multi-output kernel, side-effecting calls), views, in-place
// mutations of graph inputs and of intermediates, and several outputs.
// Values stay bounded (averages, tanh, means) so generated graphs can be
// run. The same options always give the same graph, on any platform.
//
// Extern kernels and what they compute (all buffers contiguous):
//   "extern_kernels.mm"(A[M,K], W[K,N]) -> [M,N]         A @ W
//   "extern_kernels.addmm"(b[N], A[M,K], W[K,N]) -> [M,N] b + A @ W
//   "aten.var_mean.correction"(A[M,N]) -> multi_output    per-row (var, mean)
//   "multi_output"(t) {index = i} -> [M]                 element i of t
//   "aten._assert_async.msg"(A) {side_effects} -> ()     nothing observable
//   "aten.add_"(X, A) -> (X mutates X)                    X += A, in place
// Indirect loads (embedding gathers) are masked by `0 <= id < rows`, so any
// id values are safe.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_TEST_UTILS_GRAPHGENERATOR_H
#define SCHEDULER_OPT_TEST_UTILS_GRAPHGENERATOR_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace fusion {

/// What to generate. Percentages are of the scheduler nodes; the rest are
/// pointwise nodes.
struct GraphGeneratorOptions {
  /// Number of scheduler nodes (top-level ops) in the graph.
  unsigned numNodes = 100;
  uint64_t seed = 0;
  /// Largest size of one tensor dimension (a power of two >= 4 is used).
  int64_t maxDim = 64;
  /// Draw dimension sizes among odd ones and 1 too (1, 3, 5, 7, 13, ...
  /// up to maxDim), and a batch of 1 or 3 half of the time.
  bool oddSizes = false;
  /// Emit the nodes in a random order rather than in dependence order (a
  /// graph body is a graph region, so any order is valid IR).
  bool shuffle = false;
  unsigned reductionPercent = 20;
  unsigned externPercent = 4;
  unsigned nopPercent = 3;
  unsigned mutationPercent = 6;
  /// How far back (in buffers created) a node may read a buffer another
  /// node produced, as producers and consumers lie within a few layers of
  /// each other in real models; graph inputs are read anywhere. 0 lets
  /// nodes read any earlier buffer (graphs whose edges span the whole
  /// graph, which no model has).
  unsigned maxDistance = 256;
  /// Least number of graph outputs (0: one per 25 nodes, at least 1). Most
  /// buffers that no node reads are outputs too; the rest are dead code.
  unsigned numOutputs = 0;
  std::string name = "generated";
};

/// Builds a generated graph at the insertion point of `builder`.
GraphOp generateGraph(OpBuilder &builder, Location loc,
                      const GraphGeneratorOptions &options);

/// Returns a module holding one generated graph. The fusion, arith and math
/// dialects are loaded into `context`.
OwningOpRef<ModuleOp> generateGraphModule(MLIRContext *context,
                                          const GraphGeneratorOptions &options);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_TEST_UTILS_GRAPHGENERATOR_H
