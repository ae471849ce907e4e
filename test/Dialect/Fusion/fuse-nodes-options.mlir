// Unknown policies are errors on the graph, and the run fails.
// RUN: not scheduler-opt %s --fusion-fuse-nodes=peak-memory=sometimes 2>&1 | FileCheck %s --check-prefix=PEAK
// RUN: not scheduler-opt %s --fusion-fuse-nodes=reorder-loops=always 2>&1 | FileCheck %s --check-prefix=REORDER
// PEAK: fuse-nodes-options.mlir:[[# @LINE + 3]]:1: error: unknown peak-memory policy 'sometimes'; expected never-raise or inductor
// REORDER: fuse-nodes-options.mlir:[[# @LINE + 2]]:1: error: unknown reorder-loops policy 'always'; expected after-fixpoint, every-round or off
// A graph with nothing to fuse.
fusion.graph @g(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %buf0 : !fusion.buffer<4xf32>
}
