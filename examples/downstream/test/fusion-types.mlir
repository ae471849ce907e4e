// downstream.num_elements is defined by this compiler's ODS on the installed
// fusion .td files (DownstreamOps.td constrains its operand to
// Fusion_BufferType) and folds through the fusion type's C++ API; upstream
// canonicalize materializes the count.
// RUN: downstream-opt %s --canonicalize --split-input-file | FileCheck %s

// 4 x 8 = 32 elements.
// CHECK-LABEL: func.func @dense
// CHECK: %[[N:.*]] = arith.constant 32 : index
// CHECK: return %[[N]]
func.func @dense(%b: !fusion.buffer<4x8xf32>) -> index {
  %n = downstream.num_elements %b : !fusion.buffer<4x8xf32>
  return %n : index
}

// -----

// Strides change the layout, not the count: 4096 x 1 = 4096 elements.
// CHECK-LABEL: func.func @strided
// CHECK: %[[N:.*]] = arith.constant 4096 : index
// CHECK: return %[[N]]
func.func @strided(%b: !fusion.buffer<4096x1xf32, strides = [1, 4096]>) -> index {
  %n = downstream.num_elements %b : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
  return %n : index
}


// -----

// A size symbol leaves the count unknown at compile time: no fold.
// CHECK-LABEL: func.func @symbolic
// CHECK: %[[N:.*]] = downstream.num_elements %{{.*}} : <s0 x 8 x f32>
// CHECK: return %[[N]]
func.func @symbolic(%b: !fusion.buffer<s0 x 8 x f32>) -> index {
  %n = downstream.num_elements %b : !fusion.buffer<s0 x 8 x f32>
  return %n : index
}
