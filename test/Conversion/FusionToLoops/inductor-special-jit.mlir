// Special functions the Inductor importer keeps as fusion.opaque and the
// lowerings call: the C math library on the CPU (checked on the JIT against
// known values), libdevice on the GPU (to PTX).

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run | FileCheck %s
// RUN: scheduler-opt %s --convert-fusion-to-loops | FileCheck %s --check-prefix=CALLS
// CALLS-DAG: func.func private @lgammaf(f32) -> f32
// CALLS-DAG: func.func private @hypotf(f32, f32) -> f32
// CALLS-DAG: func.func private @j0f(f32) -> f32
// RUN: rm -rf %t && scheduler-opt %S/Inputs/special-gpu.mlir --fusion-to-ptx="output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/special_gpu.ptx
// PTX: .entry kernel_op0
// The same functions lower for the CPU too, with PyTorch's methods
// (inductor-opaque-jit.mlir checks their values).
// RUN: scheduler-opt %S/Inputs/special-gpu.mlir --fusion-to-cpu -o /dev/null

fusion.graph @special() -> (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // x = [1, 2, 3, 4]: lgamma(x) = log((x - 1)!) = [0, 0, log 2, log 6];
  // hypot(3 x, 4 x) = 5 x; j0(0) = 1 for every element (x - x = 0).
  // CHECK: [0,{{ +}}0,{{ +}}0.693147,{{ +}}1.79176]
  // CHECK: [5,{{ +}}10,{{ +}}15,{{ +}}20]
  // CHECK: [1,{{ +}}1,{{ +}}1,{{ +}}1]
  %lg, %hy, %j = fusion.node "op0" (%p0) in [4] writes(%o0 : !fusion.buffer<4xf32>, %o1 : !fusion.buffer<4xf32>, %o2 : !fusion.buffer<4xf32>) {
    %i = fusion.index_expr [%p0 + 1] : i64
    %x = fusion.cast %i : i64 to f32
    %lgamma = fusion.opaque "lgamma"(%x) : (f32) -> f32
    %c3 = arith.constant 3.0 : f32
    %c4 = arith.constant 4.0 : f32
    %a = arith.mulf %x, %c3 : f32
    %b = arith.mulf %x, %c4 : f32
    %hypot = fusion.opaque "hypot"(%a, %b) : (f32, f32) -> f32
    %zero = arith.subf %x, %x : f32
    %j0 = fusion.opaque "bessel_j0"(%zero) : (f32) -> f32
    fusion.store %lgamma, %o0[%p0] : !fusion.buffer<4xf32>
    fusion.store %hypot, %o1[%p0] : !fusion.buffer<4xf32>
    fusion.store %j0, %o2[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %lg, %hy, %j : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
}
