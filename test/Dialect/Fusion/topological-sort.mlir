// RUN: scheduler-opt %s -split-input-file -verify-diagnostics --fusion-topological-sort | FileCheck %s
// Sorting a sorted graph changes nothing (the graphs with a cycle print as
// empty modules from the second run on).
// RUN: scheduler-opt %s -split-input-file --fusion-topological-sort -verify-diagnostics > %t.once.mlir
// RUN: scheduler-opt %t.once.mlir -split-input-file > %t.reprinted.mlir
// RUN: scheduler-opt %t.once.mlir -split-input-file --fusion-topological-sort > %t.twice.mlir
// RUN: diff %t.reprinted.mlir %t.twice.mlir

// A chain written backwards comes out producer first.
// CHECK-LABEL: fusion.graph @reversed_chain
// CHECK:      %[[B0:.*]] = fusion.node "op0"
// CHECK:      %[[B1:.*]] = fusion.node "op1"
// CHECK-NEXT:   fusion.load %[[B0]][
// CHECK:      fusion.node "op2"
// CHECK-NEXT:   fusion.load %[[B1]][
// CHECK:      fusion.output
fusion.graph @reversed_chain(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf2 : !fusion.buffer<16xf32>
}

// -----

// A diamond written sink first: op2 and op1 keep their input order (op2
// first) since neither depends on the other.
// CHECK-LABEL: fusion.graph @diamond
// CHECK:      fusion.node "op0"
// CHECK:      fusion.node "op2"
// CHECK:      fusion.node "op1"
// CHECK:      fusion.node "op3"
// CHECK:      fusion.output
fusion.graph @diamond(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf3 = fusion.node "op3" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<16xf32>
    %1 = fusion.load %buf2[%p0] : !fusion.buffer<16xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf3 : !fusion.buffer<16xf32>
}

// -----

// Stability: the ready node that came first in the input goes first. op3
// waits for op1; op0, op1 and op2 keep their order, and op3 follows op1
// before op2 (Kahn with the input position as priority).
// CHECK-LABEL: fusion.graph @stable
// CHECK:      fusion.node "op0"
// CHECK:      fusion.node "op1"
// CHECK:      fusion.node "op3"
// CHECK:      fusion.node "op2"
fusion.graph @stable(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>, !fusion.buffer<16xf32>, !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf3 = fusion.node "op3" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0, %buf2, %buf3 : !fusion.buffer<16xf32>, !fusion.buffer<16xf32>, !fusion.buffer<16xf32>
}

// -----

// op1 overwrites %x in place; op0 reads the old contents of %x and must run
// before it (a WeakDep), although nothing op1 reads comes from op0. op2
// reads the new version.
// CHECK-LABEL: fusion.graph @mutation_after_readers
// CHECK:      fusion.node "op0"
// CHECK:      %[[NEW:.*]] = fusion.node "op1"
// CHECK-SAME:   mutates
// CHECK:      fusion.node "op2"
// CHECK-NEXT:   fusion.load %[[NEW]][
fusion.graph @mutation_after_readers(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>, !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %x) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    %1 = arith.addf %0, %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0, %buf2 : !fusion.buffer<16xf32>, !fusion.buffer<16xf32>
}

// -----

// A reader of a view of the buffer that is overwritten is a reader of the
// buffer: op1 (reading the nop's result) runs before op2.
// CHECK-LABEL: fusion.graph @mutation_after_view_readers
// CHECK:      fusion.nop "op0"
// CHECK:      fusion.node "op1"
// CHECK:      fusion.node "op2"
fusion.graph @mutation_after_view_readers(%x: !fusion.buffer<4x4xf32>) -> (!fusion.buffer<16xf32>, !fusion.buffer<4x4xf32>) attributes {device = "cuda:0"} {
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<4x4xf32> mutates %x) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4x4xf32>
  }
  %buf0 = fusion.nop "op0"(%x) : (!fusion.buffer<4x4xf32>) -> !fusion.buffer<16xf32>
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf1, %buf2 : !fusion.buffer<16xf32>, !fusion.buffer<4x4xf32>
}

// -----

// Externs read and write whole buffers (StarDeps): the matmul waits for
// its operand's producer, the epilogue for the matmul.
// CHECK-LABEL: fusion.graph @extern_star_deps
// CHECK:      %[[A:.*]] = fusion.node "op0"
// CHECK:      %[[MM:.*]] = fusion.extern "op1" "extern_kernels.mm"(%[[A]], %{{.*}})
// CHECK:      fusion.node "op2"
// CHECK-NEXT:   fusion.load %[[MM]][
fusion.graph @extern_star_deps(%x: !fusion.buffer<8x16xf32>, %w: !fusion.buffer<16x4xf32>) -> (!fusion.buffer<8x4xf32>) attributes {device = "cuda:0"} {
  %buf2 = fusion.node "op2" (%p0, %p1) in [8, 4] writes(%out : !fusion.buffer<8x4xf32>) {
    %0 = fusion.load %buf1[%p0 * 4 + %p1] : !fusion.buffer<8x4xf32>
    %1 = math.tanh %0 : f32
    fusion.store %1, %out[%p0 * 4 + %p1] : !fusion.buffer<8x4xf32>
  }
  %buf1 = fusion.extern "op1" "extern_kernels.mm"(%buf0, %w) : (!fusion.buffer<8x16xf32>, !fusion.buffer<16x4xf32>) -> !fusion.buffer<8x4xf32>
  %buf0 = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32>) {
    %0 = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
    fusion.store %0, %out[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
  }
  fusion.output %buf2 : !fusion.buffer<8x4xf32>
}

// -----

// Already in dependence order (including a mutation after its reader and an
// extern): nothing moves, although the names are not in order.
// CHECK-LABEL: fusion.graph @negative_already_sorted
// CHECK:      fusion.node "op5"
// CHECK:      fusion.node "op3"
// CHECK:      fusion.extern "op4"
// CHECK:      fusion.node "op1"
// CHECK:      fusion.node "op0"
// CHECK:      fusion.output
fusion.graph @negative_already_sorted(%x: !fusion.buffer<4x4xf32>, %w: !fusion.buffer<4x4xf32>) -> (!fusion.buffer<4x4xf32>, !fusion.buffer<4x4xf32>) attributes {device = "cuda:0"} {
  %buf5 = fusion.node "op5" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %x[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  %buf3 = fusion.node "op3" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %w[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  %buf4 = fusion.extern "op4" "extern_kernels.mm"(%buf5, %buf3) : (!fusion.buffer<4x4xf32>, !fusion.buffer<4x4xf32>) -> !fusion.buffer<4x4xf32>
  %buf1 = fusion.node "op1" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32> mutates %x) {
    %0 = fusion.load %x[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    %1 = fusion.load %buf4[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %buf1[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  fusion.output %buf0, %buf3 : !fusion.buffer<4x4xf32>, !fusion.buffer<4x4xf32>
}

// -----

// Members of a fused node are ordered by their own dependences: op0 reads
// the old %x that op1 overwrites, so it goes first, and the container's
// results follow its members (so the graph output keeps pointing at the
// same buffers).
// CHECK-LABEL: fusion.graph @fused_members
// CHECK:      %[[R0:.*]], %[[R1:.*]] = fusion.fused -> !fusion.buffer<8xf32>, !fusion.buffer<16xf32> {
// CHECK:        %[[M0:.*]] = fusion.node "op0"
// CHECK:        %[[M1:.*]] = fusion.node "op1"
// CHECK:        fusion.yield %[[M0]], %[[M1]] : !fusion.buffer<8xf32>, !fusion.buffer<16xf32>
// CHECK:      fusion.node "op2"
// CHECK-NEXT:   fusion.load %[[R1]][
// CHECK:      fusion.output %[[R0]], %{{.*}} : !fusion.buffer<8xf32>, !fusion.buffer<16xf32>
fusion.graph @fused_members(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf1, %buf0 = fusion.fused -> !fusion.buffer<16xf32>, !fusion.buffer<8xf32> {
    %a = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %x) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
      %1 = math.tanh %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
    }
    %b = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 2] : !fusion.buffer<16xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<16xf32>, !fusion.buffer<8xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0, %buf2 : !fusion.buffer<8xf32>, !fusion.buffer<16xf32>
}

// -----

// Containers nest: inside the fused node op0 must precede op1 (which
// overwrites the %x op0 reads), and in the group op2 (which reads %x too)
// must precede the fused node. The fused node is rebuilt first, then the
// group, so each container's results follow its members and every use
// outside still names the same buffer.
// CHECK-LABEL: fusion.graph @nested_containers
// CHECK:      %[[B2:.*]], %[[B0:.*]], %[[B1:.*]] = fusion.group -> !fusion.buffer<16xf32>, !fusion.buffer<8xf32>, !fusion.buffer<16xf32> {
// CHECK:        %[[C:.*]] = fusion.node "op2"
// CHECK:        %[[F0:.*]], %[[F1:.*]] = fusion.fused -> !fusion.buffer<8xf32>, !fusion.buffer<16xf32> {
// CHECK:          %[[M0:.*]] = fusion.node "op0"
// CHECK:          %[[M1:.*]] = fusion.node "op1"
// CHECK:          fusion.yield %[[M0]], %[[M1]] :
// CHECK:        fusion.yield %[[C]], %[[F0]], %[[F1]] :
// CHECK:      fusion.output %[[B1]], %[[B0]], %[[B2]] :
fusion.graph @nested_containers(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>, !fusion.buffer<8xf32>, !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf1, %buf0, %buf2 = fusion.group -> !fusion.buffer<16xf32>, !fusion.buffer<8xf32>, !fusion.buffer<16xf32> {
    %f1, %f0 = fusion.fused -> !fusion.buffer<16xf32>, !fusion.buffer<8xf32> {
      %a = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %x) attributes {buffer_names = ["buf1"]} {
        %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
        fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
      }
      %b = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) attributes {buffer_names = ["buf0"]} {
        %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
        fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
      }
      fusion.yield %a, %b : !fusion.buffer<16xf32>, !fusion.buffer<8xf32>
    }
    %c = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
    }
    fusion.yield %f1, %f0, %c : !fusion.buffer<16xf32>, !fusion.buffer<8xf32>, !fusion.buffer<16xf32>
  }
  fusion.output %buf1, %buf0, %buf2 : !fusion.buffer<16xf32>, !fusion.buffer<8xf32>, !fusion.buffer<16xf32>
}

// -----

// op1 must run before op2 (it reads the %x op2 overwrites) and after it (it
// reads op2's result): no order exists.
fusion.graph @mutation_cycle(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  // expected-error @+1 {{'fusion.node' op is on a dependence cycle: op2 -> op1 -> op2 (including the order of in-place mutations after the readers of the overwritten buffer)}}
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %x) {
    %cst = arith.constant 1.000000e+00 : f32
    fusion.store %cst, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    %1 = fusion.load %buf2[%p0] : !fusion.buffer<16xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf1 : !fusion.buffer<16xf32>
}

// -----

// The same cycle between the members of a fused node.
fusion.graph @member_cycle(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>, !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  // expected-error @+1 {{'fusion.fused' op has members on a dependence cycle: op0 -> op1 -> op0}}
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<16xf32>, !fusion.buffer<16xf32> {
    %a = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %x) attributes {buffer_names = ["buf0"]} {
      %cst = arith.constant 1.000000e+00 : f32
      fusion.store %cst, %out[%p0] : !fusion.buffer<16xf32>
    }
    %b = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
      %1 = fusion.load %a[%p0] : !fusion.buffer<16xf32>
      %2 = arith.addf %0, %1 : f32
      fusion.store %2, %out[%p0] : !fusion.buffer<16xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<16xf32>, !fusion.buffer<16xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<16xf32>, !fusion.buffer<16xf32>
}
