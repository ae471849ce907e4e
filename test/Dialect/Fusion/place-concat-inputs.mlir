// RUN: scheduler-opt %s -split-input-file --pass-pipeline='builtin.module(fusion.graph(fusion-place-concat-inputs))' | FileCheck %s
// A placed graph is left as it is.
// RUN: scheduler-opt %s -split-input-file --pass-pipeline='builtin.module(fusion.graph(fusion-place-concat-inputs))' > %t.once.mlir
// RUN: scheduler-opt %t.once.mlir -split-input-file --pass-pipeline='builtin.module(fusion.graph(fusion-place-concat-inputs))' > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// torch.cat([x * 2, y], 1) of a 4x2 and a 4x3 part into 4x5: the second
// part starts at element 2. Its store, the load of it by a node of the same
// fused group and by a later node, and the group's result type all move by
// 2; the first part (offset 0) and the nop's own type stay.
// CHECK: #[[PLACED:.*]] = affine_map<() -> (0, 0)>
// CHECK-LABEL: fusion.graph @two_parts
// CHECK:      fusion.node "op0" {{.*}} writes(%{{.*}} : !fusion.buffer<4x2xf32, strides = [5, 1]>)
// CHECK:        fusion.store %{{.*}}[%{{.*}} * 5 + %{{.*}}] : !fusion.buffer<4x2xf32, strides = [5, 1]>
// CHECK:      fusion.fused -> !fusion.buffer<4x3xf32, strides = [5, 1], offset = 2>, !fusion.buffer<4xf32>
// CHECK:        fusion.node "op1" {{.*}} writes(%{{.*}} : !fusion.buffer<4x3xf32, strides = [5, 1], offset = 2>)
// CHECK:          fusion.store %{{.*}}[%{{.*}} * 5 + %{{.*}} + 2] : !fusion.buffer<4x3xf32, strides = [5, 1], offset = 2>
// CHECK:        fusion.node "op2"
// CHECK:          fusion.load %{{.*}}[%{{.*}} * 5 + 3] : !fusion.buffer<4x3xf32, strides = [5, 1], offset = 2>
// CHECK:      fusion.nop "op3"({{.*}}) {input_offsets = #[[PLACED]]} : (!fusion.buffer<4x2xf32, strides = [5, 1]>, !fusion.buffer<4x3xf32, strides = [5, 1], offset = 2>) -> !fusion.buffer<4x5xf32>
// CHECK:      fusion.node "op4"
// CHECK:        fusion.load %{{.*}}[%{{.*}} * 5 + 4] : !fusion.buffer<4x3xf32, strides = [5, 1], offset = 2>
fusion.graph @two_parts(%x: !fusion.buffer<4x2xf32>, %y: !fusion.buffer<4x3xf32>) -> (!fusion.buffer<4x5xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, 2] writes(%out : !fusion.buffer<4x2xf32, strides = [5, 1]>) {
    %0 = fusion.load %x[%p0 * 2 + %p1] : !fusion.buffer<4x2xf32>
    %1 = arith.addf %0, %0 : f32
    fusion.store %1, %out[%p0 * 5 + %p1] : !fusion.buffer<4x2xf32, strides = [5, 1]>
  }
  %buf1, %buf2 = fusion.fused -> !fusion.buffer<4x3xf32, strides = [5, 1]>, !fusion.buffer<4xf32> {
    %a = fusion.node "op1" (%p0, %p1) in [4, 3] writes(%out : !fusion.buffer<4x3xf32, strides = [5, 1]>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %y[%p0 * 3 + %p1] : !fusion.buffer<4x3xf32>
      fusion.store %0, %out[%p0 * 5 + %p1] : !fusion.buffer<4x3xf32, strides = [5, 1]>
    }
    %b = fusion.node "op2" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %a[%p0 * 5 + 1] : !fusion.buffer<4x3xf32, strides = [5, 1]>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<4x3xf32, strides = [5, 1]>, !fusion.buffer<4xf32>
  }
  %buf3 = fusion.nop "op3"(%buf0, %buf1) {input_offsets = affine_map<() -> (0, 2)>} : (!fusion.buffer<4x2xf32, strides = [5, 1]>, !fusion.buffer<4x3xf32, strides = [5, 1]>) -> !fusion.buffer<4x5xf32>
  %buf4 = fusion.node "op4" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf1[%p0 * 5 + 2] : !fusion.buffer<4x3xf32, strides = [5, 1]>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %buf3, %buf2, %buf4 : !fusion.buffer<4x5xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
}

// -----

// Dynamic shapes: the second part of torch.cat([a, b], 1) with a of s0
// columns starts at element s0; an indirect index in the load keeps its
// symbol first.
// CHECK-LABEL: fusion.graph @symbolic
// CHECK:      fusion.node "op1" {{.*}} writes(%{{.*}} : !fusion.buffer<4 x 3 x f32, strides = [s0 + 3, 1], offset = s0>)
// CHECK:        fusion.store %{{.*}}, %out[%p1 + s0 + %p0 * (s0 + 3)] : !fusion.buffer<4 x 3 x f32, strides = [s0 + 3, 1], offset = s0>
// CHECK:      input_offsets = #[[PLACED]]
// CHECK:      fusion.node "op3"
// CHECK:        fusion.load %buf1[s0 + symbol(%{{.*}}) * (s0 + 3) + 1] : !fusion.buffer<4 x 3 x f32, strides = [s0 + 3, 1], offset = s0>
fusion.graph @symbolic symbols(s0 = 2) (%x: !fusion.buffer<4 x s0 x f32>, %y: !fusion.buffer<4x3xf32>, %i: !fusion.buffer<4xi64>) -> (!fusion.buffer<4 x (s0 + 3) x f32>, !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, s0] writes(%out : !fusion.buffer<4 x s0 x f32, strides = [s0 + 3, 1]>) {
    %0 = fusion.load %x[%p0 * s0 + %p1] : !fusion.buffer<4 x s0 x f32>
    fusion.store %0, %out[%p0 * (s0 + 3) + %p1] : !fusion.buffer<4 x s0 x f32, strides = [s0 + 3, 1]>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4, 3] writes(%out : !fusion.buffer<4 x 3 x f32, strides = [s0 + 3, 1]>) {
    %0 = fusion.load %y[%p0 * 3 + %p1] : !fusion.buffer<4x3xf32>
    fusion.store %0, %out[%p0 * (s0 + 3) + %p1] : !fusion.buffer<4 x 3 x f32, strides = [s0 + 3, 1]>
  }
  %buf2 = fusion.nop "op2"(%buf0, %buf1) {input_offsets = affine_map<()[s0] -> (0, s0)>} : (!fusion.buffer<4 x s0 x f32, strides = [s0 + 3, 1]>, !fusion.buffer<4 x 3 x f32, strides = [s0 + 3, 1]>) -> !fusion.buffer<4 x (s0 + 3) x f32>
  %buf3 = fusion.node "op3" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %i[%p0] : !fusion.buffer<4xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %buf1[symbol(%1) * (s0 + 3) + 1] : !fusion.buffer<4 x 3 x f32, strides = [s0 + 3, 1]>
    fusion.store %2, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %buf2, %buf3 : !fusion.buffer<4 x (s0 + 3) x f32>, !fusion.buffer<4xf32>
}
