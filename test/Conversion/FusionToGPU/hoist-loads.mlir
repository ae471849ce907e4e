// hoist-loads (on by default): threads of rows held in registers, in
// kernels whose threads are all resident at once, issue before the first
// reduction the loads of later passes that do not depend on the row (a
// normalization's weight and bias), after the row's own loads: Triton's
// order. hoist-loads=0 (or per kernel through kernel-configs) leaves them
// after the reduction.
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu | FileCheck %s --check-prefixes=CHECK,HOIST
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="hoist-loads=0" | FileCheck %s --check-prefixes=CHECK,LATE
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="kernel-configs=kernel_op0_op1:hoist-loads=0" | FileCheck %s --check-prefixes=CHECK,LATE

// 64 rows of 1024 (64 blocks of 128 threads, one wave): both 16-byte
// groups of x, each followed by the same columns of b and w, before the
// barrier of the mean; nothing loaded after it.
// CHECK-LABEL: gpu.func @kernel_op0_op1
// HOIST: vector.load %arg0
// HOIST: vector.load %arg2
// HOIST: vector.load %arg1
// HOIST: vector.load %arg0
// HOIST: vector.load %arg2
// HOIST: vector.load %arg1
// HOIST-NOT: vector.load
// HOIST: gpu.barrier
// HOIST-NOT: vector.load
// HOIST: vector.store
// LATE-COUNT-2: vector.load %arg0
// LATE-NOT: vector.load
// LATE: gpu.barrier
// LATE: vector.load %arg1
// LATE: vector.load %arg2
// LATE: vector.store
// LATE: vector.load %arg1
// LATE: vector.load %arg2
// LATE: vector.store
// CHECK: gpu.return
fusion.graph @few(%x: !fusion.buffer<64x1024xf32>, %w: !fusion.buffer<1024xf32>, %b: !fusion.buffer<1024xf32>) -> (!fusion.buffer<64x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [1024] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [64, 1024] writes(%out : !fusion.buffer<64x1024xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<64xf32>
    %2 = arith.subf %0, %1 : f32
    %3 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %4 = arith.mulf %2, %3 : f32
    %5 = fusion.load %b[%p1] : !fusion.buffer<1024xf32>
    %6 = arith.addf %4, %5 : f32
    fusion.store %6, %out[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
  }
  fusion.output %buf1 : !fusion.buffer<64x1024xf32>
}

// -----

// @negative_many: 4096 rows (4096 blocks of 128 threads, several waves):
// other blocks overlap the trip to memory, so w and b stay after the
// barrier by default too.
// CHECK-LABEL: gpu.func @kernel_op0_op1
// CHECK-COUNT-2: vector.load %arg0
// CHECK-NOT: vector.load
// CHECK: gpu.barrier
// CHECK: vector.load %arg1
// CHECK: vector.load %arg2
// CHECK: vector.store
// CHECK: gpu.return
fusion.graph @negative_many(%x: !fusion.buffer<4096x1024xf32>, %w: !fusion.buffer<1024xf32>, %b: !fusion.buffer<1024xf32>) -> (!fusion.buffer<4096x1024xf32>) attributes {device = "cuda:0"} {
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

// -----

// @negative_weight_first: the later pass needs no column the first one
// does not already load (w serves the first reduction, as a backward layer
// norm's weight): the loads keep their order, each group's x then w.
// CHECK-LABEL: gpu.func @kernel_op0_op1
// CHECK: vector.load %arg0
// CHECK: vector.load %arg1
// CHECK: vector.load %arg0
// CHECK: vector.load %arg1
// CHECK-NOT: vector.load
// CHECK: gpu.barrier
// CHECK-NOT: vector.load
// CHECK: gpu.return
fusion.graph @negative_weight_first(%x: !fusion.buffer<64x1024xf32>, %w: !fusion.buffer<1024xf32>) -> (!fusion.buffer<64x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [1024] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %1 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %2 = arith.mulf %0, %1 : f32
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<64xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [64, 1024] writes(%out : !fusion.buffer<64x1024xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %1 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %2 = arith.mulf %0, %1 : f32
    %3 = fusion.load %buf0[%p0] : !fusion.buffer<64xf32>
    %4 = arith.subf %2, %3 : f32
    fusion.store %4, %out[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
  }
  fusion.output %buf1 : !fusion.buffer<64x1024xf32>
}
