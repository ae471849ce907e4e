// early-loads: threads of rows held in registers issue the loads of a
// pass's stores for all of their element groups before the first group
// computes; the same per kernel through kernel-configs.

// A normalization with a weight and a bias along the row (layernorm's
// shape: one row of 8 elements a thread, two groups of 4). By default
// each group loads its weight and bias where it first needs them, after
// the previous group's store; with early-loads both groups' weight and
// bias are in flight before the first group computes.
// RUN: scheduler-opt %s --fusion-schedule --convert-fusion-to-gpu | FileCheck %s --check-prefix=LATE
// RUN: scheduler-opt %s --fusion-schedule --convert-fusion-to-gpu="early-loads=1" | FileCheck %s --check-prefix=EARLY
// RUN: scheduler-opt %s --fusion-schedule --convert-fusion-to-gpu="kernel-configs=kernel_op0_op1:early-loads=1" | FileCheck %s --check-prefix=EARLY
// LATE-LABEL: gpu.func @kernel_op0_op1
// LATE: gpu.barrier
// LATE: vector.load %arg1
// LATE: vector.load %arg2
// LATE: vector.store
// LATE: vector.load %arg1
// LATE: vector.load %arg2
// LATE: vector.store
// EARLY-LABEL: gpu.func @kernel_op0_op1
// EARLY: gpu.barrier
// EARLY-COUNT-2: vector.load %arg{{[12]}}
// EARLY-NOT: vector.store
// EARLY-COUNT-2: vector.load %arg{{[12]}}
// EARLY-NOT: vector.load
// EARLY: vector.store
// EARLY: vector.store
// EARLY: gpu.return
fusion.graph @affine(%x: !fusion.buffer<4096x1024xf32>, %w: !fusion.buffer<1024xf32>, %b: !fusion.buffer<1024xf32>) -> (!fusion.buffer<4096x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<4096xf32>
    %2 = arith.subf %0, %1 : f32
    %3 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %4 = arith.mulf %2, %3 : f32
    %5 = fusion.load %b[%p1] : !fusion.buffer<1024xf32>
    %6 = arith.addf %4, %5 : f32
    fusion.store %6, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
  }
  fusion.output %buf1 : !fusion.buffer<4096x1024xf32>
}
