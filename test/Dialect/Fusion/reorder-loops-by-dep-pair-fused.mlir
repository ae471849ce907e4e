// RUN: scheduler-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fusion.graph(test-reorder-loops-by-dep-pair{node=op1_op2 other=op0 buffer=buf0}))' | FileCheck %s

// A fused node (Inductor's FusedSchedulerNode.reorder_loops_by_dep_pair):
// the order decided for its access to buf0 is applied to every member.
// CHECK-LABEL: fusion.graph @fused
// CHECK:      fusion.fused
// CHECK:        fusion.node "op1" (%[[A0:.*]], %[[A1:.*]]) in [64, 128]
// CHECK-NEXT:     fusion.load %{{.*}}[%[[A0]] * 128 + %[[A1]]] : !fusion.buffer<64x128xf32>
// CHECK:        fusion.node "op2" (%[[B0:.*]], %[[B1:.*]]) in [64, 128]
// CHECK-NEXT:     fusion.load %{{.*}}[%[[B0]] + %[[B1]] * 64] : !fusion.buffer<128x64xf32>
// CHECK-NEXT:     math.tanh
// CHECK-NEXT:     fusion.store %{{.*}}, %{{.*}}[%[[B0]] + %[[B1]] * 64] : !fusion.buffer<128x64xf32>
fusion.graph @fused(%x: !fusion.buffer<64x128xf32>) -> (!fusion.buffer<128x64xf32>, !fusion.buffer<128x64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64, 128] writes(%out : !fusion.buffer<64x128xf32>) {
    %0 = fusion.load %x[%p0 * 128 + %p1] : !fusion.buffer<64x128xf32>
    fusion.store %0, %out[%p0 * 128 + %p1] : !fusion.buffer<64x128xf32>
  }
  %buf1, %buf2 = fusion.fused -> !fusion.buffer<128x64xf32>, !fusion.buffer<128x64xf32> {
    %a = fusion.node "op1" (%p0, %p1) in [128, 64] writes(%out : !fusion.buffer<128x64xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %buf0[%p1 * 128 + %p0] : !fusion.buffer<64x128xf32>
      fusion.store %0, %out[%p0 * 64 + %p1] : !fusion.buffer<128x64xf32>
    }
    %b = fusion.node "op2" (%p0, %p1) in [128, 64] writes(%out : !fusion.buffer<128x64xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %a[%p0 * 64 + %p1] : !fusion.buffer<128x64xf32>
      %1 = math.tanh %0 : f32
      fusion.store %1, %out[%p0 * 64 + %p1] : !fusion.buffer<128x64xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<128x64xf32>, !fusion.buffer<128x64xf32>
  }
  fusion.output %buf1, %buf2 : !fusion.buffer<128x64xf32>, !fusion.buffer<128x64xf32>
}

// -----

// Members iterating different pointwise ranges cannot share one order:
// nothing changes.
// CHECK-LABEL: fusion.graph @negative_different_sizes
// CHECK:        fusion.node "op1" (%{{.*}}, %{{.*}}) in [128, 64]
// CHECK:        fusion.node "op2" (%{{.*}}) in [128]
fusion.graph @negative_different_sizes(%x: !fusion.buffer<64x128xf32>) -> (!fusion.buffer<128x64xf32>, !fusion.buffer<128xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64, 128] writes(%out : !fusion.buffer<64x128xf32>) {
    %0 = fusion.load %x[%p0 * 128 + %p1] : !fusion.buffer<64x128xf32>
    fusion.store %0, %out[%p0 * 128 + %p1] : !fusion.buffer<64x128xf32>
  }
  // expected-remark @+1 {{loops not reordered}}
  %buf1, %buf2 = fusion.fused -> !fusion.buffer<128x64xf32>, !fusion.buffer<128xf32> {
    %a = fusion.node "op1" (%p0, %p1) in [128, 64] writes(%out : !fusion.buffer<128x64xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %buf0[%p1 * 128 + %p0] : !fusion.buffer<64x128xf32>
      fusion.store %0, %out[%p0 * 64 + %p1] : !fusion.buffer<128x64xf32>
    }
    %b = fusion.node "op2" (%p0) in [128] writes(%out : !fusion.buffer<128xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %a[%p0 * 64] : !fusion.buffer<128x64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<128xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<128x64xf32>, !fusion.buffer<128xf32>
  }
  fusion.output %buf1, %buf2 : !fusion.buffer<128x64xf32>, !fusion.buffer<128xf32>
}
