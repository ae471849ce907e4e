// Inductor's `exp` is Triton's on the GPU: exp2(x * log2(e)), which NVPTX
// compiles to ex2.approx.f32; approx-exp=0 keeps libdevice's __nv_expf.
// Exponentials inside special functions that PyTorch and Inductor compute
// accurately carry `fusion.accurate`, which the GPU rewrite leaves alone
// (no such function needs exp on the GPU yet; erfinv's Newton steps do on
// the CPU).
// RUN: scheduler-opt %s --convert-fusion-to-gpu="pointwise-vector-width=1" | FileCheck %s
// RUN: scheduler-opt %s --convert-fusion-to-gpu="pointwise-vector-width=1 approx-exp=0" | FileCheck %s --check-prefix=EXACT
// RUN: scheduler-opt %s --convert-fusion-to-loops | FileCheck %s --check-prefix=CPU

// CHECK-LABEL: gpu.func @kernel_op0
// CHECK: %[[X:.*]] = memref.load
// CHECK: %[[S:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK: math.exp2 %[[S]] : f32
// CHECK-NOT: math.exp %
// CHECK: gpu.return
// EXACT-LABEL: gpu.func @kernel_op0
// EXACT-NOT: math.exp2
// EXACT: math.exp %
// EXACT-NOT: math.exp2
// EXACT: gpu.return
// CPU-LABEL: func.func private @exps__kernel_op0
// CPU: math.exp %{{[^ ]*}} : f32
// CPU-LABEL: func.func private @exps__kernel_op1
// CPU: math.exp %{{.*}} {fusion.accurate} : f32
fusion.graph @exps(%x: !fusion.buffer<256xf32>) -> (!fusion.buffer<256xf32>, !fusion.buffer<256xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [256] writes(%out : !fusion.buffer<256xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<256xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<256xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [256] writes(%out : !fusion.buffer<256xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<256xf32>
    %1 = fusion.opaque "erfinv"(%0) : (f32) -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<256xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<256xf32>, !fusion.buffer<256xf32>
}
