// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-loops | FileCheck %s

// A fused rmsnorm (Inductor's op0_op1): one kernel function with a loop over
// the rows; per row, a loop carrying the sum of squares, then a second
// loop over the row that reuses the sum. buf0 never reaches memory: it has
// no argument, no allocation, no store.
// CHECK-LABEL: func.func private @rms__kernel_op0_op1(
// CHECK-SAME: %[[X:.*]]: memref<32xf32> {fusion.name = "x"}, %[[Y:.*]]: memref<32xf32> {fusion.name = "buf1"})
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:     memref.load %[[X]]
// CHECK:     %[[NEXT:.*]] = arith.addf %[[ACC]], %{{.*}} : f32
// CHECK:     scf.yield %[[NEXT]] : f32
// CHECK:   scf.for
// CHECK:     memref.load %[[X]]
// CHECK:     math.rsqrt %[[SUM]]
// CHECK:     memref.store %{{.*}}, %[[Y]]
// CHECK-NOT: memref.store
// CHECK: return
// CHECK-LABEL: func.func @rms(
// CHECK-SAME: %[[A:.*]]: memref<32xf32> {fusion.name = "x", fusion.role = "input"}, %[[B:.*]]: memref<32xf32> {fusion.name = "buf1", fusion.role = "output"})
// CHECK-NOT: memref.alloc
// CHECK: call @rms__kernel_op0_op1(%[[A]], %[[B]])
// CHECK-NEXT: return
fusion.graph @rms(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<4xf32>, !fusion.buffer<4x8xf32> {
    %s = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = arith.mulf %0, %0 : f32
      %2 = fusion.reduce sum %1 : f32 -> f32
      fusion.store %2, %out[%p0] : !fusion.buffer<4xf32>
    }
    %y = fusion.node "op1" (%p0, %p1) in [4, 8] writes(%out : !fusion.buffer<4x8xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = fusion.load %s[%p0] : !fusion.buffer<4xf32>
      %2 = math.rsqrt %1 : f32
      %3 = arith.mulf %0, %2 : f32
      fusion.store %3, %out[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    }
    fusion.yield %s, %y : !fusion.buffer<4xf32>, !fusion.buffer<4x8xf32>
  }
  fusion.output %buf1 : !fusion.buffer<4x8xf32>
}

// -----

// Unfused, the same graph has two kernels and a temporary for buf0; a
// pointwise member whose loops do not split at the row boundary ([32]
// iterations for 4 rows of 8) takes the flat element index.
// CHECK-LABEL: func.func private @unfused__kernel_op0(
// CHECK-LABEL: func.func private @unfused__kernel_op1(
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N:.*]] step
// CHECK: %[[ROW:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK: memref.load %{{.*}}[%[[ROW]]]
// CHECK-LABEL: func.func @unfused(
// CHECK: %[[T:.*]] = memref.alloc() : memref<4xf32>
// CHECK: call @unfused__kernel_op0(%{{.*}}, %[[T]])
// CHECK: call @unfused__kernel_op1(%{{.*}}, %[[T]], %{{.*}})
// CHECK: memref.dealloc %[[T]]
fusion.graph @unfused(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4x8xf32>
    %1 = fusion.load %buf0[%p0 floordiv 8] : !fusion.buffer<4xf32>
    %2 = arith.mulf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<32xf32>
  }
  fusion.output %buf1 : !fusion.buffer<32xf32>
}

// -----

// The same in a fused group: the flat member runs per element of the
// group's rows, its index of buf0 becomes the row, and buf0 is forwarded.
// CHECK-LABEL: func.func private @flat__kernel_op0_op1(
// CHECK-SAME: %{{.*}}: memref<32xf32> {fusion.name = "x"}, %{{.*}}: memref<32xf32> {fusion.name = "buf1"})
// CHECK: scf.for
// CHECK:   %[[SUM:.*]] = scf.for
// CHECK:   scf.for
// CHECK:     arith.mulf %{{.*}}, %[[SUM]]
fusion.graph @flat(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<4xf32>, !fusion.buffer<32xf32> {
    %s = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
    }
    %y = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<4x8xf32>
      %1 = fusion.load %s[%p0 floordiv 8] : !fusion.buffer<4xf32>
      %2 = arith.mulf %0, %1 : f32
      fusion.store %2, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %s, %y : !fusion.buffer<4xf32>, !fusion.buffer<32xf32>
  }
  fusion.output %buf1 : !fusion.buffer<32xf32>
}
