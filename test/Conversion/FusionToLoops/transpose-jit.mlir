// Pointwise kernels that change layout (the GPU tiles them through shared
// memory, docs/Lowering.md), run by the LLVM JIT against values computed
// by hand. op0 writes A[r, c] = v(5 r + c) with v(i) = (7 i mod 11) - 6:
//   A = [[-6, 1, -3, 4, 0], [-4, 3, -1, -5, 2], [-2, -6, 1, -3, 4]]
// op1 stores 2 A column-major (the store transposed, as resnet18's weight
// copies into channels-last), op2 reads A transposed into a contiguous
// 5x3 output and adds the row index c, op3 stores A as i64 column-major,
// op4 adds 1 to op1's output, read and stored column-major (nothing to
// stage: the GPU tile only changes the order).
// bench/build_gpu_bundle.sh resizes this graph (3 rows, 5 columns) and
// runs its kernels unfused on the GPU against the JIT (partial tiles,
// tiles of 9 columns, large tiles).

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN: | FileCheck %s
// RUN: %resize_graph %s 3=100 5=37 | scheduler-opt --convert-fusion-to-gpu \
// RUN: | FileCheck %s --check-prefix=GPU

// At 100 x 37 op1 to op3 take 32 x 32 tiles of 256 threads (four
// elements each); op4, which only reorders, runs column by column in
// vectors of 4 rows (100 rows a column: 925 vectors, 4 blocks), as op0
// (contiguous) runs in vectors along its rows.
// GPU: name = "kernel_op0", node = "op0", shared_bytes = 0
// GPU-SAME: block = [256, 1, 1], grid = [8, 1, 1], kind = "kernel", name = "kernel_op1", node = "op1", shared_bytes = 4224
// GPU-SAME: block = [256, 1, 1], grid = [8, 1, 1], kind = "kernel", name = "kernel_op2", node = "op2", shared_bytes = 4224
// GPU-SAME: block = [256, 1, 1], grid = [8, 1, 1], kind = "kernel", name = "kernel_op3", node = "op3", shared_bytes = 4224
// GPU-SAME: block = [256, 1, 1], grid = [4, 1, 1], kind = "kernel", name = "kernel_op4", node = "op4", shared_bytes = 0
// GPU-LABEL: gpu.func @kernel_op1
// GPU: gpu.barrier
// GPU-LABEL: gpu.func @kernel_op2
// GPU: gpu.barrier
// GPU-LABEL: gpu.func @kernel_op3
// GPU: gpu.barrier
// GPU-LABEL: gpu.func @kernel_op4
// GPU-NOT: gpu.barrier
// GPU: vector.load %arg0[%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<3700xf32>, vector<4xf32>
// GPU-NOT: gpu.barrier
// GPU: vector.store %{{.*}}, %arg1[%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<3700xf32>, vector<4xf32>
// GPU-NOT: gpu.barrier
// GPU: gpu.return

// A itself (row-major)
// CHECK: [-6,{{ +}}1,{{ +}}-3,{{ +}}4,{{ +}}0,{{ +}}-4,{{ +}}3,{{ +}}-1,{{ +}}-5,{{ +}}2,{{ +}}-2,{{ +}}-6,{{ +}}1,{{ +}}-3,{{ +}}4]
// 2 A, column by column: 2 * [-6, -4, -2], 2 * [1, 3, -6], ...
// CHECK: [-12,{{ +}}-8,{{ +}}-4,{{ +}}2,{{ +}}6,{{ +}}-12,{{ +}}-6,{{ +}}-2,{{ +}}2,{{ +}}8,{{ +}}-10,{{ +}}-6,{{ +}}0,{{ +}}4,{{ +}}8]
// row c of the output: column c of A plus c
// CHECK: [-6,{{ +}}-4,{{ +}}-2,{{ +}}2,{{ +}}4,{{ +}}-5,{{ +}}-1,{{ +}}1,{{ +}}3,{{ +}}7,{{ +}}-2,{{ +}}0,{{ +}}4,{{ +}}6,{{ +}}8]
// A as i64, column by column
// CHECK: [-6,{{ +}}-4,{{ +}}-2,{{ +}}1,{{ +}}3,{{ +}}-6,{{ +}}-3,{{ +}}-1,{{ +}}1,{{ +}}4,{{ +}}-5,{{ +}}-3,{{ +}}0,{{ +}}2,{{ +}}4]
// 2 A + 1, column by column
// CHECK: [-11,{{ +}}-7,{{ +}}-3,{{ +}}3,{{ +}}7,{{ +}}-11,{{ +}}-5,{{ +}}-1,{{ +}}3,{{ +}}9,{{ +}}-9,{{ +}}-5,{{ +}}1,{{ +}}5,{{ +}}9]
fusion.graph @transposes() -> (!fusion.buffer<3x5xf32>, !fusion.buffer<3x5xf32, strides = [1, 3]>, !fusion.buffer<5x3xf32>, !fusion.buffer<3x5xi64, strides = [1, 3]>, !fusion.buffer<3x5xf32, strides = [1, 3]>) attributes {device = "cuda:0"} {
  %a = fusion.node "op0" (%p0, %p1) in [3, 5] writes(%out : !fusion.buffer<3x5xf32>) {
    %i = fusion.index_expr [(%p0 * 5 + %p1) * 7 mod 11] : i64
    %f = fusion.cast %i : i64 to f32
    %c = arith.constant 6.0 : f32
    %v = arith.subf %f, %c : f32
    fusion.store %v, %out[%p0 * 5 + %p1] : !fusion.buffer<3x5xf32>
  }
  %b = fusion.node "op1" (%p0, %p1) in [3, 5] writes(%out : !fusion.buffer<3x5xf32, strides = [1, 3]>) {
    %0 = fusion.load %a[%p0 * 5 + %p1] : !fusion.buffer<3x5xf32>
    %two = arith.constant 2.0 : f32
    %1 = arith.mulf %0, %two : f32
    fusion.store %1, %out[%p0 + %p1 * 3] : !fusion.buffer<3x5xf32, strides = [1, 3]>
  }
  %d = fusion.node "op2" (%p0, %p1) in [5, 3] writes(%out : !fusion.buffer<5x3xf32>) {
    %0 = fusion.load %a[%p1 * 5 + %p0] : !fusion.buffer<3x5xf32>
    %i = fusion.index_expr [%p0] : i64
    %f = fusion.cast %i : i64 to f32
    %1 = arith.addf %0, %f : f32
    fusion.store %1, %out[%p0 * 3 + %p1] : !fusion.buffer<5x3xf32>
  }
  %e = fusion.node "op3" (%p0, %p1) in [3, 5] writes(%out : !fusion.buffer<3x5xi64, strides = [1, 3]>) {
    %0 = fusion.load %a[%p0 * 5 + %p1] : !fusion.buffer<3x5xf32>
    %1 = fusion.cast %0 : f32 to i64
    fusion.store %1, %out[%p0 + %p1 * 3] : !fusion.buffer<3x5xi64, strides = [1, 3]>
  }
  %f = fusion.node "op4" (%p0, %p1) in [3, 5] writes(%out : !fusion.buffer<3x5xf32, strides = [1, 3]>) {
    %0 = fusion.load %b[%p0 + %p1 * 3] : !fusion.buffer<3x5xf32, strides = [1, 3]>
    %one = arith.constant 1.0 : f32
    %1 = arith.addf %0, %one : f32
    fusion.store %1, %out[%p0 + %p1 * 3] : !fusion.buffer<3x5xf32, strides = [1, 3]>
  }
  fusion.output %a, %b, %d, %e, %f : !fusion.buffer<3x5xf32>, !fusion.buffer<3x5xf32, strides = [1, 3]>, !fusion.buffer<5x3xf32>, !fusion.buffer<3x5xi64, strides = [1, 3]>, !fusion.buffer<3x5xf32, strides = [1, 3]>
}
