// The scheduling passes before fusion:
// RUN: scheduler-opt %s --fusion-schedule=fuse=false | FileCheck %s --check-prefixes=CHECK,NOMERGE
// RUN: scheduler-opt %s --pass-pipeline='builtin.module(fusion.graph(fusion-schedule{fuse=false}))' | FileCheck %s --check-prefixes=CHECK,NOMERGE
// RUN: scheduler-opt %s '--fusion-schedule=fuse=false merge-loops=true' | FileCheck %s --check-prefixes=CHECK,MERGE
// RUN: scheduler-opt %s '--fusion-schedule=fuse=false pick-loop-order=false' | FileCheck %s --check-prefixes=CHECK,KEEP
// The whole pipeline, which is idempotent:
// RUN: scheduler-opt %s --fusion-schedule | FileCheck %s --check-prefix=FUSED
// RUN: scheduler-opt %s --fusion-schedule | scheduler-opt --fusion-schedule | FileCheck %s --check-prefix=FUSED
// Every graph of the dialect's round-trip test (containers, externs,
// indirect indices, every reduction kind) goes through the whole pipeline.
// RUN: scheduler-opt %S/../Dialect/Fusion/ops.mlir -split-input-file --fusion-schedule=merge-loops=true -verify-each > /dev/null
// The bundled example: op3 overwrites the graph input %acc, which keeps it
// alive; op2 reads the old %acc and runs before it.
// RUN: scheduler-opt %examples/matmul_epilogue_inplace.mlir --fusion-schedule | FileCheck %s --check-prefix=EXAMPLE
// RUN: scheduler-opt %examples/matmul_epilogue_inplace.mlir --fusion-schedule=peak-memory=never-raise | FileCheck %s --check-prefix=EXAMPLE-NEVER

// Inductor's order on an unordered graph: sort (op0 first, then its readers
// op2 and op1 in input order), drop the dead op3, then pick op1's loop order
// from its strides (its read and write of transposed layouts want p0
// innermost).
// CHECK-LABEL: fusion.graph @schedule
// CHECK:       fusion.node "op0"
// CHECK:       fusion.node "op2"
// CHECK-NOT:   "op3"
// NOMERGE:     fusion.node "op1" (%[[P0:.*]], %[[P1:.*]]) in [16, 8]
// NOMERGE-NEXT:  fusion.load %{{.*}}[%[[P0]] * 8 + %[[P1]]] : !fusion.buffer<16x8xf32>
// KEEP:        fusion.node "op1" (%[[P0:.*]], %[[P1:.*]]) in [8, 16]
// KEEP-NEXT:     fusion.load %{{.*}}[%[[P1]] * 8 + %[[P0]]] : !fusion.buffer<16x8xf32>
// MERGE:       fusion.node "op1" (%[[Q:.*]]) in [128]
// MERGE-NEXT:    fusion.load %{{.*}}[%[[Q]]] : !fusion.buffer<16x8xf32>
// CHECK-NOT:   "op3"
// CHECK:       fusion.output
// After fusion the three live nodes are one kernel, members in dependence
// order, op1's loops matching op0's.
// FUSED-LABEL: fusion.graph @schedule
// FUSED:       %[[BUF0:.*]], %[[BUF2:.*]], %[[BUF1:.*]] = fusion.fused
// FUSED-NEXT:    %[[IN0:.*]] = fusion.node "op0"
// FUSED:         fusion.node "op2"
// FUSED-NEXT:      fusion.load %[[IN0]][
// FUSED:         fusion.node "op1" (%[[P0:.*]], %[[P1:.*]]) in [16, 8]
// FUSED-NEXT:      fusion.load %[[IN0]][%[[P0]] * 8 + %[[P1]]]
// FUSED:         fusion.yield
// FUSED-NOT:   "op3"
// FUSED:       fusion.output %[[BUF1]], %[[BUF2]]
fusion.graph @schedule(%x: !fusion.buffer<16x8xf32>) -> (!fusion.buffer<8x16xf32, strides = [1, 8]>, !fusion.buffer<16x8xf32>) attributes {device = "cuda:0"} {
  %buf2 = fusion.node "op2" (%p0, %p1) in [16, 8] writes(%out : !fusion.buffer<16x8xf32>) {
    %0 = fusion.load %buf0[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
    fusion.store %0, %out[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
  }
  %buf3 = fusion.node "op3" (%p0, %p1) in [16, 8] writes(%out : !fusion.buffer<16x8xf32>) {
    %0 = fusion.load %buf2[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
    fusion.store %0, %out[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32, strides = [1, 8]>) {
    %0 = fusion.load %buf0[%p1 * 8 + %p0] : !fusion.buffer<16x8xf32>
    fusion.store %0, %out[%p1 * 8 + %p0] : !fusion.buffer<8x16xf32, strides = [1, 8]>
  }
  %buf0 = fusion.node "op0" (%p0, %p1) in [16, 8] writes(%out : !fusion.buffer<16x8xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
    %1 = math.tanh %0 : f32
    fusion.store %1, %out[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
  }
  fusion.output %buf1, %buf2 : !fusion.buffer<8x16xf32, strides = [1, 8]>, !fusion.buffer<16x8xf32>
}

// By default (peak-memory=traffic-bounded) the three nodes become one
// kernel, as Inductor makes it: the reduction op2 reads the old %acc, op3
// overwrites each element after op2 has read it, in the same iteration.
// That keeps %buf2 (8 KiB) live with the two 32 MiB buffers, 8 KiB above
// the unfused peak, for not reading %buf1 (32 MiB) again.
// EXAMPLE-LABEL: fusion.graph @matmul_epilogue_inplace
// EXAMPLE:       fusion.extern "op0"
// EXAMPLE-NEXT:  fusion.fused
// EXAMPLE-NEXT:    fusion.node "op2"
// EXAMPLE:         fusion.node "op1"
// EXAMPLE:         fusion.node "op3"
// EXAMPLE-SAME:      mutates %acc
// EXAMPLE:       fusion.output
// never-raise keeps op1 apart and fuses op2 with op3 only.
// EXAMPLE-NEVER-LABEL: fusion.graph @matmul_epilogue_inplace
// EXAMPLE-NEVER:       fusion.extern "op0"
// EXAMPLE-NEVER-NEXT:  fusion.node "op1"
// EXAMPLE-NEVER:       fusion.fused
// EXAMPLE-NEVER-NEXT:    fusion.node "op2"
// EXAMPLE-NEVER:         fusion.node "op3"
// EXAMPLE-NEVER-SAME:    mutates %acc
// EXAMPLE-NEVER:       fusion.output
