// RUN: scheduler-opt %s --canonicalize --cse -split-input-file | FileCheck %s

// Upstream canonicalization and CSE work on fusion graphs: constants are
// materialized inside the node that uses them (never at graph level), equal
// loads merge, an unused node without side effects is dead, and a node that
// overwrites a buffer in place is not.

// CHECK-LABEL: fusion.graph @generic_passes
// CHECK:       fusion.node "op0"
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %[[L:.*]] = fusion.load
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[L]], %[[C]] : f32
// CHECK-NEXT:    %[[A:.*]] = arith.addf %[[M]], %[[L]] : f32
// CHECK-NEXT:    fusion.store %[[A]]
// CHECK-NOT:   "op1"
// CHECK:       fusion.node "op2"
// CHECK-SAME:    mutates
// CHECK:       fusion.output
fusion.graph @generic_passes(%x: !fusion.buffer<8xf32>, %acc: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %one = arith.constant 1.000000e+00 : f32
    %two = arith.addf %one, %one : f32
    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    %1 = arith.mulf %0, %two : f32
    %2 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    %3 = arith.addf %1, %2 : f32
    fusion.store %3, %out[%p0] : !fusion.buffer<8xf32>
  }
  // Unused and free of side effects.
  %buf1 = fusion.node "op1" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
  }
  // Unused, but it updates %acc in place.
  %buf2 = fusion.node "op2" (%p0) in [8] writes(%out : !fusion.buffer<8xf32> mutates %acc) {
    %0 = fusion.load %acc[%p0] : !fusion.buffer<8xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<8xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}
