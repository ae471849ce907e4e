// Reductions over the outer dimension of a buffer (op1 reduces each column
// of a 6x2 buffer, reading A[r * 2 + x]: the GPU maps such kernels onto
// 2-D tiles, docs/Lowering.md), run by the LLVM JIT against values
// computed by hand. op0 writes A[r, c] = v(6 c + r) with
// v(i) = (3 i mod 4) - 1, so that column c of A is row c of
// reductions-jit.mlir:
//   column 0 = [-1, 2, 1, 0, -1, 2]    column 1 = [1, 0, -1, 2, 1, 0]
// bench/build_gpu_bundle.sh resizes this graph (6 rows, 2 columns) to run
// it on the GPU against the JIT (one thread per column, persistent tiles,
// looped tiles, partial blocks).

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN: | FileCheck %s
// RUN: scheduler-opt %s --convert-fusion-to-gpu | FileCheck %s --check-prefix=GPU

// The column kernel takes one thread per column (6 elements each).
// GPU-LABEL: gpu.func @kernel_op1
// GPU-SAME: known_block_size = array<i32: 32, 1, 1>
// GPU-NOT: gpu.shuffle
// GPU-NOT: gpu.barrier
// GPU: gpu.return

// A itself, then sum: -1+2+1+0-1+2 = 3, 1+0-1+2+1+0 = 3
// CHECK: [-1,{{ +}}1,{{ +}}2,{{ +}}0,{{ +}}1,{{ +}}-1,{{ +}}0,{{ +}}2,{{ +}}-1,{{ +}}1,{{ +}}2,{{ +}}0]
// CHECK: [3,{{ +}}3]
// max, and argmax (the first position of the maximum)
// CHECK: [2,{{ +}}2]
// CHECK: [1,{{ +}}3]
// welford_reduce: mean 0.5, m2 = sum of squared deviations, weight 6
// CHECK: [0.5,{{ +}}0.5]
// CHECK: [9.5,{{ +}}5.5]
// CHECK: [6,{{ +}}6]
// any(v == 2)
// CHECK: [1,{{ +}}1]
fusion.graph @outer_reductions() -> (!fusion.buffer<6x2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi64>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi1>) attributes {device = "cuda:0"} {
  %a = fusion.node "op0" (%p0, %p1) in [6, 2] writes(%out : !fusion.buffer<6x2xf32>) {
    %i = fusion.index_expr [(%p1 * 6 + %p0) * 3 mod 4] : i64
    %f = fusion.cast %i : i64 to f32
    %one = arith.constant 1.0 : f32
    %v = arith.subf %f, %one : f32
    fusion.store %v, %out[%p0 * 2 + %p1] : !fusion.buffer<6x2xf32>
  }
  %buf1, %buf2, %buf3, %buf4, %buf5, %buf6, %buf7 = fusion.node "op1" (%p0, %p1) in [2] reduce [6] writes(%o1 : !fusion.buffer<2xf32>, %o2 : !fusion.buffer<2xf32>, %o3 : !fusion.buffer<2xi64>, %o4 : !fusion.buffer<2xf32>, %o5 : !fusion.buffer<2xf32>, %o6 : !fusion.buffer<2xf32>, %o7 : !fusion.buffer<2xi1>) {
    %v = fusion.load %a[%p1 * 2 + %p0] : !fusion.buffer<6x2xf32>
    %sum = fusion.reduce sum %v : f32 -> f32
    %max = fusion.reduce max %v : f32 -> f32
    %argmax = fusion.reduce argmax %v : f32 -> i64
    %mean, %m2, %weight = fusion.reduce welford_reduce %v : f32 -> f32, f32, f32
    %two = arith.constant 2.0 : f32
    %eq2 = arith.cmpf oeq, %v, %two : f32
    %any2 = fusion.reduce any %eq2 : i1 -> i1
    fusion.store %sum, %o1[%p0] : !fusion.buffer<2xf32>
    fusion.store %max, %o2[%p0] : !fusion.buffer<2xf32>
    fusion.store %argmax, %o3[%p0] : !fusion.buffer<2xi64>
    fusion.store %mean, %o4[%p0] : !fusion.buffer<2xf32>
    fusion.store %m2, %o5[%p0] : !fusion.buffer<2xf32>
    fusion.store %weight, %o6[%p0] : !fusion.buffer<2xf32>
    fusion.store %any2, %o7[%p0] : !fusion.buffer<2xi1>
  }
  fusion.output %a, %buf1, %buf2, %buf3, %buf4, %buf5, %buf6, %buf7 : !fusion.buffer<6x2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi64>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi1>
}
