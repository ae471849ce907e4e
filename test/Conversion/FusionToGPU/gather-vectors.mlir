// Gathers whose indirect index depends on the row alone (an embedding's
// token, loaded once per row) read a thread's group of adjacent elements
// as one 16-byte vector where the row's start is a multiple of the
// vector's width for every index value (Triton's loads of `r + 256 *
// token`); gathers that move within the row, or whose rows start
// misaligned, stay scalar.
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="pointwise-vector-width=1" | FileCheck %s --check-prefix=SCALAR

// An embedding and a layer norm's mean over it: rows of 256, groups of 4.
// CHECK-LABEL: gpu.module @embedding_mean_kernels
// CHECK: %[[TOKEN:.*]] = memref.load %arg0
// CHECK: %[[I:.*]] = arith.index_cast %[[TOKEN]] : i64 to index
// CHECK: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<2097152xf32>, vector<4xf32>
// CHECK-NOT: memref.load %arg1
// CHECK: gpu.return
fusion.graph @embedding_mean(%ids: !fusion.buffer<512xi64>, %wte: !fusion.buffer<8192x256xf32>) -> (!fusion.buffer<512xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512] reduce [256] writes(%out : !fusion.buffer<512xf32>) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<512xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %wte[symbol(%1) * 256 + %p1] : !fusion.buffer<8192x256xf32>
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<512xf32>
  }
  fusion.output %buf0 : !fusion.buffer<512xf32>
}

// -----

// The same gather copied out (a pointwise kernel in rows of four: the
// token is that of the group's row, x' floordiv 64), next to a table of
// rows of 6 floats, whose rows start misaligned for a vector of 4.
// CHECK-LABEL: gpu.module @embedding_copy_kernels
// CHECK: gpu.func @kernel_op0
// CHECK: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<2097152xf32>, vector<4xf32>
// CHECK: vector.store
// CHECK: gpu.func @kernel_op1
// CHECK-NOT: vector.load
// CHECK-COUNT-4: memref.load %arg1
// CHECK-NOT: memref.load %arg1
// CHECK: gpu.return
// SCALAR-LABEL: gpu.module @embedding_copy_kernels
// SCALAR-NOT: vector.load
fusion.graph @embedding_copy(%ids: !fusion.buffer<512xi64>, %wte: !fusion.buffer<8192x256xf32>, %narrow: !fusion.buffer<8192x6xf32>) -> (!fusion.buffer<512x256xf32>, !fusion.buffer<512x4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512, 256] writes(%out : !fusion.buffer<512x256xf32>) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<512xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %wte[symbol(%1) * 256 + %p1] : !fusion.buffer<8192x256xf32>
    fusion.store %2, %out[%p0 * 256 + %p1] : !fusion.buffer<512x256xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [512, 4] writes(%out : !fusion.buffer<512x4xf32>) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<512xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %narrow[symbol(%1) * 6 + %p1] : !fusion.buffer<8192x6xf32>
    fusion.store %2, %out[%p0 * 4 + %p1] : !fusion.buffer<512x4xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<512x256xf32>, !fusion.buffer<512x4xf32>
}

// -----

// @negative_gather_in_row: each element has its own index (it varies in
// the row), so the group's elements are not adjacent: scalar.
// CHECK-LABEL: gpu.module @negative_gather_in_row_kernels
// CHECK-NOT: vector.load %arg1
// CHECK: memref.load %arg1
// CHECK: gpu.return
fusion.graph @negative_gather_in_row(%ids: !fusion.buffer<512x256xi64>, %wte: !fusion.buffer<8192x256xf32>) -> (!fusion.buffer<512xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512] reduce [256] writes(%out : !fusion.buffer<512xf32>) {
    %0 = fusion.load %ids[%p0 * 256 + %p1] : !fusion.buffer<512x256xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %wte[symbol(%1) * 256 + %p1] : !fusion.buffer<8192x256xf32>
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<512xf32>
  }
  fusion.output %buf0 : !fusion.buffer<512xf32>
}
