// Unknown policies are refused by the option parser, on the pass and on the
// pipeline, before anything runs.
// RUN: not scheduler-opt %s --fusion-fuse-nodes=peak-memory=sometimes 2>&1 | FileCheck %s --check-prefix=PEAK
// RUN: not scheduler-opt %s --fusion-schedule=peak-memory=sometimes 2>&1 | FileCheck %s --check-prefix=PEAK
// RUN: not scheduler-opt %s --fusion-fuse-nodes=reorder-loops=always 2>&1 | FileCheck %s --check-prefix=REORDER
// PEAK: for the --peak-memory option: Cannot find option named 'sometimes'!
// REORDER: for the --reorder-loops option: Cannot find option named 'always'!
// Every known value is accepted, and printed back in the pass pipeline.
// RUN: scheduler-opt %s --fusion-fuse-nodes='peak-memory=inductor reorder-loops=every-round' --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: scheduler-opt %s --fusion-fuse-nodes='reorder-loops=off' --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=OFF
// PIPELINE: fusion-fuse-nodes{{.*}}peak-memory=inductor{{.*}}reorder-loops=every-round
// OFF: fusion-fuse-nodes{{.*}}peak-memory=traffic-bounded{{.*}}reorder-loops=off
// A graph with nothing to fuse.
fusion.graph @g(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %buf0 : !fusion.buffer<4xf32>
}
