//===- InductorDumpWriter.h - Generated graphs as Inductor dumps -*- C++
//-*-===//
//
// Writes a generated model in the text format of Inductor's
// `ir_pre_fusion.txt` (BaseSchedulerNode.debug_str of every node), with the
// `fx_graph_readable.py` signature giving the shapes of the graph inputs
// that only extern kernels read, so that `scheduler-translate
// --import-inductor` and `scheduler-corpus-bench` read it as they read a real
// dump.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_TOOLS_FUSION_GRAPH_GEN_INDUCTORDUMPWRITER_H
#define SCHEDULER_OPT_TOOLS_FUSION_GRAPH_GEN_INDUCTORDUMPWRITER_H

#include <cstdint>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace fusion {

struct InductorDumpOptions {
  /// Scheduler nodes to write (the last layer is cut where they run out).
  unsigned numNodes = 1000;
  uint64_t seed = 0;
  /// Rows (batch x sequence) and model width of the activations.
  int64_t rows = 512;
  int64_t hidden = 256;
  /// Every `skipEvery`-th layer also reads the residual stream of the
  /// layer `skipDistance` layers back (0: never).
  unsigned skipEvery = 4;
  unsigned skipDistance = 16;
  /// Every `probeEvery`-th layer has a wide fan-out: `probeWidth`
  /// reductions with epilogues reading its residual stream (0: never).
  unsigned probeEvery = 8;
  unsigned probeWidth = 12;
};

/// Writes the dump of a transformer-like stack of layers: layer norms
/// (reductions with epilogues), matmuls (extern kernels), a softmax, deep
/// pointwise chains, a residual stream read by the next layers and, every
/// few layers, far downstream; wide fan-outs; and, in every layer, a
/// running statistic of a graph input updated in place (a mutation, with
/// its WeakDeps). The same options always write the same bytes.
void writeInductorDump(const InductorDumpOptions &options,
                       llvm::raw_ostream &dump, llvm::raw_ostream &fxGraph);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_TOOLS_FUSION_GRAPH_GEN_INDUCTORDUMPWRITER_H
