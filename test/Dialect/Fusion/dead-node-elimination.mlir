// RUN: scheduler-opt %s -split-input-file --fusion-dead-node-elimination | FileCheck %s
// A second run removes nothing more.
// RUN: scheduler-opt %s -split-input-file --fusion-dead-node-elimination > %t.once.mlir
// RUN: scheduler-opt %t.once.mlir -split-input-file --fusion-dead-node-elimination > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// op1 is read by nobody and op0 only by op1: both go, in any order.
// CHECK-LABEL: fusion.graph @dead_chain
// CHECK-NOT:  "op0"
// CHECK-NOT:  "op1"
// CHECK:      fusion.node "op2"
// CHECK-NOT:  "op0"
// CHECK-NOT:  "op1"
// CHECK:      fusion.output
fusion.graph @dead_chain(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf2 : !fusion.buffer<16xf32>
}

// -----

// Every output keeps its producer and what the producer reads; an unused
// extern goes with the node feeding only it.
// CHECK-LABEL: fusion.graph @outputs_kept
// CHECK:      fusion.node "op0"
// CHECK:      fusion.node "op1"
// CHECK:      fusion.node "op2"
// CHECK-NOT:  "op3"
// CHECK-NOT:  "op4"
// CHECK:      fusion.output
fusion.graph @outputs_kept(%x: !fusion.buffer<4x4xf32>, %w: !fusion.buffer<4x4xf32>) -> (!fusion.buffer<4x4xf32>, !fusion.buffer<4x4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %x[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %buf0[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  %buf2 = fusion.node "op2" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %buf0[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  %buf3 = fusion.node "op3" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %buf0[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  %buf4 = fusion.extern "op4" "extern_kernels.mm"(%buf3, %w) : (!fusion.buffer<4x4xf32>, !fusion.buffer<4x4xf32>) -> !fusion.buffer<4x4xf32>
  fusion.output %buf1, %buf2 : !fusion.buffer<4x4xf32>, !fusion.buffer<4x4xf32>
}

// -----

// An extern marked side_effects stays although nothing uses it, and so does
// the node it reads; an unmarked one with no result is dead.
// CHECK-LABEL: fusion.graph @side_effects_kept
// CHECK:      fusion.node "op0"
// CHECK:      fusion.extern "op1" "aten._assert_async.msg"
// CHECK-NOT:  "op2"
// CHECK:      fusion.output
fusion.graph @side_effects_kept(%x: !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.extern "op1" "aten._assert_async.msg"(%buf0) {side_effects} : (!fusion.buffer<16xf32>) -> ()
  fusion.extern "op2" "aten.print"(%x) : (!fusion.buffer<16xf32>) -> ()
  fusion.output
}

// -----

// op1 overwrites the graph input %x: the caller sees that write, so op1
// stays although nothing reads its result, and so does op0, whose result
// op1 reads. op2 reads the old %x; op1 must run after it (a WeakDep), but
// that ordering does not keep op2 alive.
// CHECK-LABEL: fusion.graph @input_mutation_kept
// CHECK:      fusion.node "op0"
// CHECK:      fusion.node "op1"
// CHECK-SAME:   mutates
// CHECK-NOT:  "op2"
// CHECK:      fusion.output
fusion.graph @input_mutation_kept(%x: !fusion.buffer<16xf32>, %g: !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %g[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %x) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    %2 = arith.subf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output
}

// -----

// Overwriting a view of a graph input, or a later version of one, writes
// the input's storage too: op1, op2 and the view op0 stay.
// CHECK-LABEL: fusion.graph @input_mutation_through_view_and_versions
// CHECK:      fusion.nop "op0"
// CHECK:      fusion.node "op1"
// CHECK:      fusion.extern "op2" "aten.add_"
// CHECK:      fusion.output
fusion.graph @input_mutation_through_view_and_versions(%x: !fusion.buffer<4x4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.nop "op0"(%x) : (!fusion.buffer<4x4xf32>) -> !fusion.buffer<16xf32>
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %buf0) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    %1 = math.tanh %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf2 = fusion.extern "op2" "aten.add_"(%buf1, %buf1) : (!fusion.buffer<16xf32>, !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32> mutates %buf1)
  fusion.output
}

// -----

// Overwriting an intermediate buffer nobody reads afterwards is dead code,
// as is the buffer's producer.
// CHECK-LABEL: fusion.graph @intermediate_mutation_dead
// CHECK-NOT:  fusion.node
// CHECK:      fusion.output
fusion.graph @intermediate_mutation_dead(%x: !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %buf0) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    %1 = arith.addf %0, %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output
}

// -----

// One of two outputs of a multi-output kernel is extracted but unused: only
// its extractor goes.
// CHECK-LABEL: fusion.graph @multi_output
// CHECK:      fusion.extern "op0" "aten.var_mean.correction"
// CHECK:      fusion.extern "op1" "multi_output"
// CHECK-NOT:  "op2"
// CHECK:      fusion.output
fusion.graph @multi_output(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.extern "op0" "aten.var_mean.correction"(%x) : (!fusion.buffer<4x8xf32>) -> !fusion.multi_output
  %buf1 = fusion.extern "op1" "multi_output"(%buf0) {index = 0 : i64} : (!fusion.multi_output) -> !fusion.buffer<4xf32>
  %buf2 = fusion.extern "op2" "multi_output"(%buf0) {index = 1 : i64} : (!fusion.multi_output) -> !fusion.buffer<4xf32>
  fusion.output %buf1 : !fusion.buffer<4xf32>
}

// -----

// A view nobody reads is dead even though the buffer it views is live
// (Inductor's shared per-alias user lists would keep it).
// CHECK-LABEL: fusion.graph @dead_view
// CHECK:      fusion.node "op0"
// CHECK-NOT:  "op1"
// CHECK:      fusion.output
fusion.graph @dead_view(%x: !fusion.buffer<4x4xf32>) -> (!fusion.buffer<4x4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %x[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  %buf1 = fusion.nop "op1"(%buf0) : (!fusion.buffer<4x4xf32>) -> !fusion.buffer<16xf32>
  fusion.output %buf0 : !fusion.buffer<4x4xf32>
}

// -----

// A fused node is removed as a whole when none of its buffers is used
// outside it (its members reading each other does not count).
// CHECK-LABEL: fusion.graph @dead_container
// CHECK-NOT:  fusion.fused
// CHECK:      fusion.node "op2"
// CHECK:      fusion.output
fusion.graph @dead_container(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<16xf32>, !fusion.buffer<16xf32> {
    %a = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
    }
    %b = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<16xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<16xf32>, !fusion.buffer<16xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf2 : !fusion.buffer<16xf32>
}

// -----

// Every node reaches the output, the side-effecting extern or the input
// mutation: nothing is removed.
// CHECK-LABEL: fusion.graph @negative_all_live
// CHECK:      fusion.node "op0"
// CHECK:      fusion.node "op1"
// CHECK:      fusion.extern "op2"
// CHECK:      fusion.node "op3"
// CHECK:      fusion.output
fusion.graph @negative_all_live(%x: !fusion.buffer<16xf32>, %s: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.extern "op2" "aten._assert_async.msg"(%buf0) {side_effects} : (!fusion.buffer<16xf32>) -> ()
  %buf3 = fusion.node "op3" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %s) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf1 : !fusion.buffer<16xf32>
}
