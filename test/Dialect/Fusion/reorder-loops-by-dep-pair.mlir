// RUN: scheduler-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fusion.graph(test-reorder-loops-by-dep-pair{node=op1 other=op0 buffer=buf0}))' | FileCheck %s

// op0 writes buf0 row by row; op1 iterates it column by column. Its loops
// are swapped so that its read of buf0 walks buf0 as op0 writes it, and
// every other index of op1 follows.
// CHECK-LABEL: fusion.graph @transposed_consumer
// CHECK:      fusion.node "op1" (%[[P0:.*]], %[[P1:.*]]) in [64, 128]
// CHECK-NEXT:   fusion.load %{{.*}}[%[[P0]] * 128 + %[[P1]]] : !fusion.buffer<64x128xf32>
// CHECK-NEXT:   fusion.load %{{.*}}[%[[P1]]] : !fusion.buffer<128xf32>
// CHECK:        fusion.store %{{.*}}, %{{.*}}[%[[P0]] + %[[P1]] * 64] : !fusion.buffer<64x128xf32, strides = [1, 64]>
fusion.graph @transposed_consumer(%x: !fusion.buffer<64x128xf32>, %b: !fusion.buffer<128xf32>) -> (!fusion.buffer<64x128xf32, strides = [1, 64]>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64, 128] writes(%out : !fusion.buffer<64x128xf32>) {
    %0 = fusion.load %x[%p0 * 128 + %p1] : !fusion.buffer<64x128xf32>
    fusion.store %0, %out[%p0 * 128 + %p1] : !fusion.buffer<64x128xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [128, 64] writes(%out : !fusion.buffer<64x128xf32, strides = [1, 64]>) {
    %0 = fusion.load %buf0[%p1 * 128 + %p0] : !fusion.buffer<64x128xf32>
    %1 = fusion.load %b[%p0] : !fusion.buffer<128xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p1 + %p0 * 64] : !fusion.buffer<64x128xf32, strides = [1, 64]>
  }
  fusion.output %buf1 : !fusion.buffer<64x128xf32, strides = [1, 64]>
}

// -----

// Three loops (attention's head split): op1 reads buf0 with strides
// [1, 128, 16]; op0 writes it with [128, 16, 1], so op1's loops become
// [p1, p2, p0]. op1's reduction loop stays last.
// CHECK-LABEL: fusion.graph @three_loops
// CHECK:      fusion.node "op1" (%[[A:.*]], %[[B:.*]], %[[C:.*]], %[[R:.*]]) in [4, 8, 16] reduce [2]
// CHECK-NEXT:   fusion.load %{{.*}}[%[[A]] * 128 + %[[B]] * 16 + %[[C]]] : !fusion.buffer<4x8x16xf32>
// CHECK-NEXT:   fusion.load %{{.*}}[%[[A]] * 256 + %[[B]] * 32 + %[[C]] * 2 + %[[R]]] : !fusion.buffer<4x8x16x2xf32>
// CHECK:        fusion.store %{{.*}}, %{{.*}}[%[[A]] + %[[B]] * 4 + %[[C]] * 32] : !fusion.buffer<16x4x8xf32, strides = [32, 1, 4]>
fusion.graph @three_loops(%x: !fusion.buffer<4x8x16xf32>, %y: !fusion.buffer<4x8x16x2xf32>) -> (!fusion.buffer<16x4x8xf32, strides = [32, 1, 4]>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1, %p2) in [4, 8, 16] writes(%out : !fusion.buffer<4x8x16xf32>) {
    %0 = fusion.load %x[%p0 * 128 + %p1 * 16 + %p2] : !fusion.buffer<4x8x16xf32>
    fusion.store %0, %out[%p0 * 128 + %p1 * 16 + %p2] : !fusion.buffer<4x8x16xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1, %p2, %r) in [16, 4, 8] reduce [2] writes(%out : !fusion.buffer<16x4x8xf32, strides = [32, 1, 4]>) {
    %0 = fusion.load %buf0[%p1 * 128 + %p2 * 16 + %p0] : !fusion.buffer<4x8x16xf32>
    %1 = fusion.load %y[%p1 * 256 + %p2 * 32 + %p0 * 2 + %r] : !fusion.buffer<4x8x16x2xf32>
    %2 = arith.mulf %0, %1 : f32
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0 * 32 + %p1 + %p2 * 4] : !fusion.buffer<16x4x8xf32, strides = [32, 1, 4]>
  }
  fusion.output %buf1 : !fusion.buffer<16x4x8xf32, strides = [32, 1, 4]>
}

// -----

// Already in op0's order: nothing changes, and no remark.
// CHECK-LABEL: fusion.graph @negative_same_order
// CHECK:      fusion.node "op1" (%[[P0:.*]], %[[P1:.*]]) in [8, 16]
// CHECK-NEXT:   fusion.load %{{.*}}[%[[P0]] * 16 + %[[P1]]]
fusion.graph @negative_same_order(%x: !fusion.buffer<8x16xf32>) -> (!fusion.buffer<8x16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32>) {
    %0 = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
    fusion.store %0, %out[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32>) {
    %0 = fusion.load %buf0[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
    fusion.store %0, %out[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
  }
  fusion.output %buf1 : !fusion.buffer<8x16xf32>
}

// -----

// op1 broadcasts buf0 along p1: its access does not use every loop, so no
// order can be decided (Inductor ignores broadcasts here too).
// CHECK-LABEL: fusion.graph @negative_broadcast
// CHECK:      fusion.node "op1" (%{{.*}}, %{{.*}}) in [16, 8]
fusion.graph @negative_broadcast(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  // expected-remark @+1 {{loops not reordered: cannot match MemoryDep('buf0', d0, {d0: 16}) to MemoryDep('buf0', d0, {d0: 16})}}
  %buf1 = fusion.node "op1" (%p0, %p1) in [16, 8] writes(%out : !fusion.buffer<16x8xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
  }
  fusion.output %buf1 : !fusion.buffer<16x8xf32>
}

// -----

// The strides of the two accesses are different sets (op0 writes a padded
// layout): no permutation can make them match.
// CHECK-LABEL: fusion.graph @negative_different_strides
// CHECK:      fusion.node "op1" (%{{.*}}, %{{.*}}) in [16, 8]
fusion.graph @negative_different_strides(%x: !fusion.buffer<8x16xf32>) -> (!fusion.buffer<8x16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32, strides = [17, 1]>) {
    %0 = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
    fusion.store %0, %out[%p0 * 17 + %p1] : !fusion.buffer<8x16xf32, strides = [17, 1]>
  }
  // expected-remark @+1 {{loops not reordered: cannot match MemoryDep('buf0', d0 + 16*d1, {d0: 16, d1: 8}) to MemoryDep('buf0', 17*d0 + d1, {d0: 8, d1: 16})}}
  %buf1 = fusion.node "op1" (%p0, %p1) in [16, 8] writes(%out : !fusion.buffer<8x16xf32>) {
    %0 = fusion.load %buf0[%p1 * 16 + %p0] : !fusion.buffer<8x16xf32, strides = [17, 1]>
    fusion.store %0, %out[%p1 * 16 + %p0] : !fusion.buffer<8x16xf32>
  }
  fusion.output %buf1 : !fusion.buffer<8x16xf32>
}

// -----

// A loop of size 1 makes the dependence's dimensions differ from op1's
// loops: Inductor bails out, and so does this.
// CHECK-LABEL: fusion.graph @negative_unit_loop
// CHECK:      fusion.node "op1" (%{{.*}}, %{{.*}}, %{{.*}}) in [1, 16, 8]
fusion.graph @negative_unit_loop(%x: !fusion.buffer<8x16xf32>) -> (!fusion.buffer<8x16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32>) {
    %0 = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
    fusion.store %0, %out[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
  }
  // expected-remark @+1 {{loops not reordered}}
  %buf1 = fusion.node "op1" (%u, %p0, %p1) in [1, 16, 8] writes(%out : !fusion.buffer<8x16xf32>) {
    %0 = fusion.load %buf0[%p1 * 16 + %p0 + %u] : !fusion.buffer<8x16xf32>
    fusion.store %0, %out[%p1 * 16 + %p0] : !fusion.buffer<8x16xf32>
  }
  fusion.output %buf1 : !fusion.buffer<8x16xf32>
}

// -----

// An extern reads buf0 as a whole (a StarDep): there is no index to match.
// CHECK-LABEL: fusion.graph @negative_extern
fusion.graph @negative_extern(%x: !fusion.buffer<8x8xf32>) -> (!fusion.buffer<8x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8, 8] writes(%out : !fusion.buffer<8x8xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<8x8xf32>
    fusion.store %0, %out[%p0 * 8 + %p1] : !fusion.buffer<8x8xf32>
  }
  // expected-remark @+1 {{loops not reordered: cannot match StarDep(name='buf0', mode=None) to MemoryDep('buf0', 8*d0 + d1, {d0: 8, d1: 8})}}
  %buf1 = fusion.extern "op1" "extern_kernels.mm"(%buf0, %x) : (!fusion.buffer<8x8xf32>, !fusion.buffer<8x8xf32>) -> !fusion.buffer<8x8xf32>
  fusion.output %buf1 : !fusion.buffer<8x8xf32>
}

// -----

// expected-error @+1 {{no top-level node named 'op1'}}
fusion.graph @missing_node(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

fusion.graph @buffer_not_accessed(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
  }
  // expected-error @+1 {{does not access 'buf0'}}
  %buf1 = fusion.node "op1" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>
}
