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

// -----

// Inductor's bucketize reads its boundaries and its sorter whole, at
// boundary_indices + stride * i below numel and at sorter_indices +
// stride * i, from their own start (`s = x.sum(1); torch.bucketize(v, s);
// torch.cat([y, s])`, Inputs/unseen/cat-bucketize in
// test/Target/Inductor/concat-views.test). With the boundaries a part at
// s0 of one concatenation and the sorter a part at 4 of another,
// boundary_indices and numel move by s0 and sorter_indices by 4; size,
// the strides and the values stay (the value that is both size and numel
// still gives the size).
// CHECK-LABEL: fusion.graph @bucketize_parts
// CHECK:      fusion.node "op4"
// CHECK:        %[[SIZE:.*]] = fusion.index_expr [4] : index
// CHECK:        %[[BASE:.*]] = arith.constant 0 : i64
// CHECK:        %[[SBASE:.*]] = arith.constant 0 : i32
// CHECK:        %[[N1:.*]] = fusion.index_expr [s0] : index
// CHECK:        %[[NUMEL:.*]] = arith.addi %[[SIZE]], %[[N1]] : index
// CHECK:        %[[B1:.*]] = fusion.index_expr [s0] : i64
// CHECK:        %[[BOUND:.*]] = arith.addi %[[BASE]], %[[B1]] : i64
// CHECK:        %[[S1:.*]] = fusion.index_expr [4] : i32
// CHECK:        %[[SORTED:.*]] = arith.addi %[[SBASE]], %[[S1]] : i32
// CHECK:        fusion.opaque "bucketize"(%{{.*}}, %buf1, %[[SIZE]], %[[NUMEL]], %{{.*}}, %[[BOUND]], %buf3, %{{.*}}, %[[SORTED]]) {right = true, sorter = true} : (f32, !fusion.buffer<4 x f32, offset = s0>, index, index, index, i64, !fusion.buffer<4xi64, offset = 4>, index, i32) -> i64
fusion.graph @bucketize_parts symbols(s0 = 2) (%x: !fusion.buffer<s0 x f32>, %v: !fusion.buffer<8xf32>) -> (!fusion.buffer<(s0 + 4) x f32>, !fusion.buffer<8xi64>, !fusion.buffer<8xi64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [s0] writes(%out : !fusion.buffer<s0 x f32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<s0 x f32>
    fusion.store %0, %out[%p0] : !fusion.buffer<s0 x f32>
  }
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %v[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [4] writes(%out : !fusion.buffer<4xi64>) {
    %0 = fusion.index_expr [%p0] : i64
    fusion.store %0, %out[%p0] : !fusion.buffer<4xi64>
  }
  %buf3 = fusion.node "op3" (%p0) in [4] writes(%out : !fusion.buffer<4xi64>) {
    %0 = fusion.index_expr [3 - %p0] : i64
    fusion.store %0, %out[%p0] : !fusion.buffer<4xi64>
  }
  %buf4 = fusion.nop "op5"(%buf0, %buf1) {input_offsets = affine_map<()[s0] -> (0, s0)>} : (!fusion.buffer<s0 x f32>, !fusion.buffer<4xf32>) -> !fusion.buffer<(s0 + 4) x f32>
  %buf5 = fusion.nop "op6"(%buf2, %buf3) {input_offsets = affine_map<() -> (0, 4)>} : (!fusion.buffer<4xi64>, !fusion.buffer<4xi64>) -> !fusion.buffer<8xi64>
  %buf6 = fusion.node "op4" (%p0) in [8] writes(%out : !fusion.buffer<8xi64>) {
    %0 = fusion.load %v[%p0] : !fusion.buffer<8xf32>
    %size = fusion.index_expr [4] : index
    %stride = fusion.index_expr [1] : index
    %base = arith.constant 0 : i64
    %sbase = arith.constant 0 : i32
    %1 = fusion.opaque "bucketize"(%0, %buf1, %size, %size, %stride, %base, %buf3, %stride, %sbase) {right = true, sorter = true} : (f32, !fusion.buffer<4xf32>, index, index, index, i64, !fusion.buffer<4xi64>, index, i32) -> i64
    fusion.store %1, %out[%p0] : !fusion.buffer<8xi64>
  }
  fusion.output %buf4, %buf5, %buf6 : !fusion.buffer<(s0 + 4) x f32>, !fusion.buffer<8xi64>, !fusion.buffer<8xi64>
}
