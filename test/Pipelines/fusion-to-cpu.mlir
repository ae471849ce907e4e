// --fusion-to-cpu lowers a graph to the LLVM dialect for the JIT: the host
// function and its kernels, with libm calls for what LLVM has no intrinsic
// for (erf).
// RUN: scheduler-opt %s --fusion-to-cpu | FileCheck %s

// CHECK-DAG: llvm.func @erff(f32) -> f32
// CHECK-DAG: llvm.func @gelu__kernel_op0(
// CHECK-DAG: llvm.call @erff(
// CHECK-DAG: llvm.func @gelu(
// CHECK-NOT: fusion.
fusion.graph @gelu(%x: !fusion.buffer<64xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %1 = math.erf %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64xf32>
}
