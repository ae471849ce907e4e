// RUN: scheduler-opt %s -split-input-file --fusion-reorder-loops | FileCheck %s --check-prefixes=CHECK,BOTH,REORDER
// RUN: scheduler-opt %s -split-input-file --fusion-reorder-loops=merge-loops=false | FileCheck %s --check-prefixes=CHECK,PICK,REORDER
// RUN: scheduler-opt %s -split-input-file --fusion-reorder-loops=pick-loop-order=false | FileCheck %s --check-prefixes=CHECK,MERGE
// A second run changes nothing.
// RUN: scheduler-opt %s -split-input-file --fusion-reorder-loops > %t.once.mlir
// RUN: scheduler-opt %t.once.mlir -split-input-file --fusion-reorder-loops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Both accesses walk memory with stride 1 along p0 and 8 along p1: p0 goes
// innermost. Then the two loops are contiguous and merge into one.
// CHECK-LABEL: fusion.graph @transposed
// BOTH:       fusion.node "op0" (%[[Q:.*]]) in [128] writes(%[[OUT:.*]] : !fusion.buffer<8x16xf32, strides = [1, 8]>) {
// BOTH-NEXT:    %[[V:.*]] = fusion.load %{{.*}}[%[[Q]]] : !fusion.buffer<16x8xf32>
// BOTH-NEXT:    fusion.store %[[V]], %[[OUT]][%[[Q]]] : !fusion.buffer<8x16xf32, strides = [1, 8]>
// PICK:       fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [16, 8] writes(%[[OUT:.*]] : !fusion.buffer<8x16xf32, strides = [1, 8]>) {
// PICK-NEXT:    %[[V:.*]] = fusion.load %{{.*}}[%[[P0]] * 8 + %[[P1]]] : !fusion.buffer<16x8xf32>
// PICK-NEXT:    fusion.store %[[V]], %[[OUT]][%[[P0]] * 8 + %[[P1]]] : !fusion.buffer<8x16xf32, strides = [1, 8]>
// Without reordering the loops are not contiguous in their current order.
// MERGE:      fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [8, 16]
// MERGE-NEXT:   fusion.load %{{.*}}[%[[P1]] * 8 + %[[P0]]] : !fusion.buffer<16x8xf32>
fusion.graph @transposed(%x: !fusion.buffer<16x8xf32>) -> (!fusion.buffer<8x16xf32, strides = [1, 8]>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32, strides = [1, 8]>) {
    %0 = fusion.load %x[%p1 * 8 + %p0] : !fusion.buffer<16x8xf32>
    fusion.store %0, %out[%p1 * 8 + %p0] : !fusion.buffer<8x16xf32, strides = [1, 8]>
  }
  fusion.output %buf0 : !fusion.buffer<8x16xf32, strides = [1, 8]>
}

// -----

// Three loops permuted at once: the loads and the store all want p2
// innermost and p0 outermost, whatever the order in the input (here
// [p1, p2, p0] by decreasing stride). A masked load and an index_expr are
// rewritten too.
// CHECK-LABEL: fusion.graph @three_loops
// PICK:       fusion.node "op0" (%[[A:.*]], %[[B:.*]], %[[C:.*]]) in [2, 4, 8]
// PICK:         %[[I:.*]] = fusion.index_expr [%[[B]]] : i64
// PICK:         fusion.load %{{.*}}[%[[A]] * 32 + %[[B]] * 8 + %[[C]]] : !fusion.buffer<2x4x8xf32>
// PICK:         fusion.masked
// PICK-NEXT:      fusion.load %{{.*}}[%[[A]] * 32 + %[[B]] * 8 + %[[C]] - 8] : !fusion.buffer<2x4x8xf32>
// PICK:         fusion.store %{{.*}}, %{{.*}}[%[[A]] * 32 + %[[B]] * 8 + %[[C]]] : !fusion.buffer<2x4x8xf32>
// The index_expr reads p1 alone: no loops can merge.
// BOTH:       fusion.node "op0" (%{{.*}}, %{{.*}}, %{{.*}}) in [2, 4, 8]
fusion.graph @three_loops(%x: !fusion.buffer<2x4x8xf32>) -> (!fusion.buffer<2x4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1, %p2) in [4, 8, 2] writes(%out : !fusion.buffer<2x4x8xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %c1 = arith.constant 1 : i64
    %m = arith.cmpi sge, %i, %c1 : i64
    %0 = fusion.load %x[%p2 * 32 + %p0 * 8 + %p1] : !fusion.buffer<2x4x8xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %1 = fusion.masked %m, %zero : f32 {
      %2 = fusion.load %x[%p2 * 32 + %p0 * 8 + %p1 - 8] : !fusion.buffer<2x4x8xf32>
      fusion.yield %2 : f32
    }
    %3 = arith.addf %0, %1 : f32
    fusion.store %3, %out[%p2 * 32 + %p0 * 8 + %p1] : !fusion.buffer<2x4x8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<2x4x8xf32>
}

// -----

// Already walking memory contiguously: the order stays. Every access is
// 4096 * p0 + p1, so the two loops merge into one of 64 * 4096.
// CHECK-LABEL: fusion.graph @negative_contiguous
// PICK:       fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [64, 4096]
// PICK-NEXT:    fusion.load %{{.*}}[%[[P0]] * 4096 + %[[P1]]]
// BOTH:       fusion.node "op0" (%[[Q:.*]]) in [262144]
// BOTH-NEXT:    fusion.load %{{.*}}[%[[Q]]] : !fusion.buffer<64x4096xf32>
// BOTH:         fusion.store %{{.*}}, %{{.*}}[%[[Q]]] : !fusion.buffer<64x4096xf32>
fusion.graph @negative_contiguous(%x: !fusion.buffer<64x4096xf32>) -> (!fusion.buffer<64x4096xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64, 4096] writes(%out : !fusion.buffer<64x4096xf32>) {
    %0 = fusion.load %x[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %1 = math.tanh %0 : f32
    fusion.store %1, %out[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64x4096xf32>
}

// -----

// A broadcast bias reads p1 alone, and a padded row has stride 4097: in
// neither node are the loops contiguous across each other, so nothing is
// merged (and nothing reordered: p1 is already innermost).
// CHECK-LABEL: fusion.graph @negative_strides_forbid_merge
// CHECK:      fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [64, 4096]
// CHECK-NEXT:   fusion.load %{{.*}}[%[[P0]] * 4096 + %[[P1]]]
// CHECK-NEXT:   fusion.load %{{.*}}[%[[P1]]] : !fusion.buffer<4096xf32>
// CHECK:      fusion.node "op1" (%[[R0:.*]], %[[R1:.*]]) in [64, 4096]
// CHECK-NEXT:   fusion.load %{{.*}}[%[[R0]] * 4097 + %[[R1]]]
fusion.graph @negative_strides_forbid_merge(%x: !fusion.buffer<64x4096xf32>, %b: !fusion.buffer<4096xf32>, %y: !fusion.buffer<64x4096xf32, strides = [4097, 1]>) -> (!fusion.buffer<64x4096xf32>, !fusion.buffer<64x4096xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64, 4096] writes(%out : !fusion.buffer<64x4096xf32>) {
    %0 = fusion.load %x[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %1 = fusion.load %b[%p1] : !fusion.buffer<4096xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [64, 4096] writes(%out : !fusion.buffer<64x4096xf32>) {
    %0 = fusion.load %y[%p0 * 4097 + %p1] : !fusion.buffer<64x4096xf32, strides = [4097, 1]>
    fusion.store %0, %out[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<64x4096xf32>, !fusion.buffer<64x4096xf32>
}

// -----

// A reduction over the first two dimensions of a [16, 4, 8] tensor, with
// the reduction loops in the wrong order: they are swapped among
// themselves, stay after the pointwise loop, then merge into one reduction
// loop; the pointwise loop never merges with a reduction loop.
// CHECK-LABEL: fusion.graph @reduction_loops
// PICK:       fusion.node "op0" (%[[P:.*]], %[[R0:.*]], %[[R1:.*]]) in [8] reduce [16, 4]
// PICK-NEXT:    fusion.load %{{.*}}[%[[P]] + %[[R0]] * 32 + %[[R1]] * 8]
// PICK:         fusion.store %{{.*}}, %{{.*}}[%[[P]]] : !fusion.buffer<8xf32>
// BOTH:       fusion.node "op0" (%[[P:.*]], %[[R:.*]]) in [8] reduce [64]
// BOTH-NEXT:    fusion.load %{{.*}}[%[[P]] + %[[R]] * 8]
// BOTH:         fusion.store %{{.*}}, %{{.*}}[%[[P]]] : !fusion.buffer<8xf32>
fusion.graph @reduction_loops(%x: !fusion.buffer<16x4x8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1, %p2) in [8] reduce [4, 16] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p2 * 32 + %p1 * 8 + %p0] : !fusion.buffer<16x4x8xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

// A column reduction reads with stride 64 along its only reduction loop:
// nothing to reorder or merge.
// CHECK-LABEL: fusion.graph @negative_column_reduction
// CHECK:      fusion.node "op0" (%[[P:.*]], %[[R:.*]]) in [64] reduce [32]
// CHECK-NEXT:   fusion.load %{{.*}}[%[[R]] * 64 + %[[P]]]
fusion.graph @negative_column_reduction(%x: !fusion.buffer<32x64xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [32] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x[%p1 * 64 + %p0] : !fusion.buffer<32x64xf32>
    %1 = fusion.reduce max %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64xf32>
}

// -----

// Loops of size 1 are dropped; a reduction keeps one reduction loop even
// of size 1. An index that depends on the merged loops only through
// 8 * p0 + p1 (here its floor division by 2) merges too.
// CHECK-LABEL: fusion.graph @unit_loops_and_floordiv
// MERGE:      fusion.node "op0" (%[[Q:.*]]) in [32] writes(
// MERGE-NEXT:   fusion.load %{{.*}}[%[[Q]] floordiv 2] : !fusion.buffer<16xf32>
// MERGE-NEXT:   fusion.store %{{.*}}, %{{.*}}[%[[Q]]] : !fusion.buffer<4x8xf32>
// MERGE:      fusion.node "op1" (%[[P:.*]], %[[R:.*]]) in [16] reduce [1]
// MERGE-NEXT:   fusion.load %{{.*}}[%[[P]] + %[[R]]] : !fusion.buffer<16xf32>
fusion.graph @unit_loops_and_floordiv(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<4x8xf32>, !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1, %p2) in [4, 1, 8] writes(%out : !fusion.buffer<4x8xf32>) {
    %0 = fusion.load %x[(%p0 * 8 + %p2 + %p1) floordiv 2] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0 * 8 + %p2] : !fusion.buffer<4x8xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1, %p2) in [1, 16] reduce [1] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p1 + %p2] : !fusion.buffer<16xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p1] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<4x8xf32>, !fusion.buffer<16xf32>
}

// -----

// A loop variable used as a value (here cast to an integer) can be
// permuted, but never merged or dropped: its uses follow it.
// CHECK-LABEL: fusion.graph @opaque_loop_variable
// REORDER:    fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [16, 8]
// REORDER-NEXT: arith.index_cast %[[P1]] : index to i64
// REORDER:      fusion.load %{{.*}}[%[[P0]] * 8 + %[[P1]]]
// MERGE:      fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [8, 16]
// MERGE-NEXT:   arith.index_cast %[[P0]] : index to i64
fusion.graph @opaque_loop_variable(%x: !fusion.buffer<16x8xf32>) -> (!fusion.buffer<8x16xf32, strides = [1, 8]>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32, strides = [1, 8]>) {
    %i = arith.index_cast %p0 : index to i64
    %f = fusion.cast %i : i64 to f32
    %0 = fusion.load %x[%p1 * 8 + %p0] : !fusion.buffer<16x8xf32>
    %1 = arith.addf %0, %f : f32
    fusion.store %1, %out[%p1 * 8 + %p0] : !fusion.buffer<8x16xf32, strides = [1, 8]>
  }
  fusion.output %buf0 : !fusion.buffer<8x16xf32, strides = [1, 8]>
}

// -----

// An embedding gather: the indirect index stays a symbol bound to the same
// value; the ids are read along p0 alone, so nothing merges, and the store
// already walks p1 innermost.
// CHECK-LABEL: fusion.graph @negative_indirect
// CHECK:      fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [32, 16]
// CHECK:        %[[I:.*]] = arith.index_cast
// CHECK-NEXT:   fusion.load %{{.*}}[%[[P1]] + symbol(%[[I]]) * 16]
fusion.graph @negative_indirect(%ids: !fusion.buffer<32xi64>, %table: !fusion.buffer<100x16xf32>) -> (!fusion.buffer<32x16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [32, 16] writes(%out : !fusion.buffer<32x16xf32>) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<32xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %table[symbol(%1) * 16 + %p1] : !fusion.buffer<100x16xf32>
    fusion.store %2, %out[%p0 * 16 + %p1] : !fusion.buffer<32x16xf32>
  }
  fusion.output %buf0 : !fusion.buffer<32x16xf32>
}

// -----

// Members of a fused node keep their common loop order (Inductor picks it
// when it creates each node, before fusion), but their loops are merged
// (Inductor's Scheduler.merge_loops runs after fusion).
// CHECK-LABEL: fusion.graph @fused_members
// PICK:       fusion.node "op0" (%{{.*}}, %{{.*}}) in [8, 16]
// PICK:       fusion.node "op1" (%{{.*}}, %{{.*}}) in [8, 16]
// MERGE:      fusion.node "op0" (%{{.*}}) in [128]
// MERGE:      fusion.node "op1" (%{{.*}}, %{{.*}}) in [8, 16]
// BOTH:       fusion.node "op0" (%{{.*}}) in [128]
// BOTH:       fusion.node "op1" (%{{.*}}, %{{.*}}) in [8, 16]
fusion.graph @fused_members(%x: !fusion.buffer<8x16xf32>, %y: !fusion.buffer<16x8xf32>) -> (!fusion.buffer<8x16xf32>, !fusion.buffer<8x16xf32, strides = [1, 8]>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<8x16xf32>, !fusion.buffer<8x16xf32, strides = [1, 8]> {
    %a = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
      fusion.store %0, %out[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
    }
    %b = fusion.node "op1" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32, strides = [1, 8]>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %y[%p1 * 8 + %p0] : !fusion.buffer<16x8xf32>
      %1 = fusion.load %a[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
      %2 = arith.addf %0, %1 : f32
      fusion.store %2, %out[%p1 * 8 + %p0] : !fusion.buffer<8x16xf32, strides = [1, 8]>
    }
    fusion.yield %a, %b : !fusion.buffer<8x16xf32>, !fusion.buffer<8x16xf32, strides = [1, 8]>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<8x16xf32>, !fusion.buffer<8x16xf32, strides = [1, 8]>
}


// -----

// The same index over other loops: op0 reads x with stride 1 along p0 and
// turns its loops round (as in @transposed); op1's index is the same affine
// expression of its loops the other way round, already innermost-last, and
// keeps its order. The strides are memoized across the nodes of a graph by
// index map and loops; a memo by map alone would give op1 op0's order.
// CHECK-LABEL: fusion.graph @same_index_other_loops
// PICK:       fusion.node "op0" (%[[A0:.*]], %[[A1:.*]]) in [16, 8]
// PICK-NEXT:    fusion.load %{{.*}}[%[[A0]] * 8 + %[[A1]]] : !fusion.buffer<16x8xf32>
// PICK:       fusion.node "op1" (%[[B0:.*]], %[[B1:.*]]) in [16, 8]
// PICK-NEXT:    fusion.load %{{.*}}[%[[B0]] * 8 + %[[B1]]] : !fusion.buffer<16x8xf32>
fusion.graph @same_index_other_loops(%x: !fusion.buffer<16x8xf32>) -> (!fusion.buffer<8x16xf32, strides = [1, 8]>, !fusion.buffer<16x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32, strides = [1, 8]>) {
    %0 = fusion.load %x[%p1 * 8 + %p0] : !fusion.buffer<16x8xf32>
    fusion.store %0, %out[%p1 * 8 + %p0] : !fusion.buffer<8x16xf32, strides = [1, 8]>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [16, 8] writes(%out : !fusion.buffer<16x8xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
    fusion.store %0, %out[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<8x16xf32, strides = [1, 8]>, !fusion.buffer<16x8xf32>
}
