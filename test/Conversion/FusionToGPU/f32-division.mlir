// f32 division follows Inductor's kernels: Triton lowers `a / b` of f32 to
// div.full.f32 (llvm.nvvm.div.full), so by default the graph's divisions
// (and the Welford combine's and means', as Triton's helpers divide) become
// that intrinsic, element by element in vector kernels. Divisions inside
// special functions stay IEEE (PyTorch and Inductor compute those with
// libdevice). f32-division=ieee keeps every arith.divf (div.rn.f32);
// f32-division=approx marks them afn (div.approx.f32). f64 stays IEEE, as
// in Triton. The CPU keeps IEEE division.
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu="pointwise-vector-width=1" | FileCheck %s
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu | FileCheck %s --check-prefix=VEC
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu="pointwise-vector-width=1 f32-division=ieee" | FileCheck %s --check-prefix=IEEE
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu="pointwise-vector-width=1 f32-division=approx" | FileCheck %s --check-prefix=APPROX
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-loops | FileCheck %s --check-prefix=CPU
// RUN: not scheduler-opt %s --split-input-file --convert-fusion-to-gpu="f32-division=rn" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && scheduler-opt %s --fusion-to-ptx="schedule=0 output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/divisions.ptx

// CHECK-LABEL: gpu.func @kernel_op0
// CHECK: %[[A:.*]] = memref.load
// CHECK: %[[B:.*]] = memref.load
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"(%[[A]], %[[B]]) : (f32, f32) -> f32
// CHECK-NOT: arith.divf
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @kernel_op1
// CHECK: arith.divf %{{.*}}, %{{.*}} : f64
// CHECK-NOT: llvm.call_intrinsic
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @kernel_op2
// CHECK: arith.divf
// CHECK-NOT: fusion.accurate
// CHECK-NOT: llvm.call_intrinsic
// CHECK: gpu.return

// VEC-LABEL: gpu.func @kernel_op0
// VEC: %[[A:.*]] = vector.load {{.*}} vector<4xf32>
// VEC: %[[B:.*]] = vector.load {{.*}} vector<4xf32>
// VEC-COUNT-4: llvm.call_intrinsic "llvm.nvvm.div.full"
// VEC: vector.store
// VEC-NOT: arith.divf
// VEC: gpu.return

// IEEE-LABEL: gpu.func @kernel_op0
// IEEE-NOT: llvm.call_intrinsic
// IEEE: arith.divf %{{.*}}, %{{.*}} : f32
// IEEE-NOT: llvm.call_intrinsic
// IEEE: gpu.return

// APPROX-LABEL: gpu.func @kernel_op0
// APPROX: arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32

// CPU-LABEL: func.func private @divisions__kernel_op0
// CPU: arith.divf %{{.*}}, %{{.*}} : f32
// CPU-LABEL: func.func private @divisions__kernel_op2
// CPU: arith.divf %{{.*}} {fusion.accurate} : f32

// BAD: error: convert-fusion-to-gpu: f32-division must be 'full', 'ieee' or 'approx', not 'rn'

// PTX-LABEL: .entry kernel_op0
// PTX-NOT: div.rn.f32
// PTX: div.full.f32
// PTX-NOT: div.rn.f32
// PTX-LABEL: .entry kernel_op1
// PTX: div.rn.f64
// PTX-LABEL: .entry kernel_op2
// PTX: div.rn.f32
fusion.graph @divisions(%x: !fusion.buffer<256xf32>, %y: !fusion.buffer<256xf32>, %z: !fusion.buffer<256xf64>) -> (!fusion.buffer<256xf32>, !fusion.buffer<256xf64>, !fusion.buffer<256xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [256] writes(%out : !fusion.buffer<256xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<256xf32>
    %1 = fusion.load %y[%p0] : !fusion.buffer<256xf32>
    %2 = arith.divf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<256xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [256] writes(%out : !fusion.buffer<256xf64>) {
    %0 = fusion.load %z[%p0] : !fusion.buffer<256xf64>
    %1 = arith.divf %0, %0 : f64
    fusion.store %1, %out[%p0] : !fusion.buffer<256xf64>
  }
  %buf2 = fusion.node "op2" (%p0) in [256] writes(%out : !fusion.buffer<256xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<256xf32>
    %1 = fusion.load %y[%p0] : !fusion.buffer<256xf32>
    %2 = fusion.opaque "chebyshev_polynomial_u"(%0, %1) : (f32, f32) -> f32
    fusion.store %2, %out[%p0] : !fusion.buffer<256xf32>
  }
  fusion.output %buf0, %buf1, %buf2 : !fusion.buffer<256xf32>, !fusion.buffer<256xf64>, !fusion.buffer<256xf32>
}
