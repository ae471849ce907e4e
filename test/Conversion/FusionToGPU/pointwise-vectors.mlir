// Pointwise kernels take four adjacent elements per thread: accesses
// contiguous in the flat index (also broadcasts through `mod` by a multiple
// of four) become 16-byte vector loads and stores, others stay scalar.
// (Transposes are tiled through shared memory by default, transpose-tiles.mlir;
// here they show what the vector grouping does alone.)
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="transpose-tiles=0" | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="pointwise-vector-width=1 approx-exp=0 transpose-tiles=0" | FileCheck %s --check-prefix=SCALAR

// A bias added along the last dimension: x and the output as vectors of x,
// the bias (index x mod 1024) as vectors too; 16384 groups, 64 blocks.
// CHECK: bias_exp = {{{.*}}steps = [{args = ["x", "b", "buf0"], block = [256, 1, 1], grid = [64, 1, 1]
// CHECK-LABEL: gpu.module @bias_exp_kernels
// CHECK: gpu.func @kernel_op0(%[[X:.*]]: memref<65536xf32> {{.*}}, %[[B:.*]]: memref<1024xf32> {{.*}}, %[[OUT:.*]]: memref<65536xf32> {{.*}})
// CHECK-DAG: vector.load %[[X]][%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<65536xf32>, vector<4xf32>
// CHECK-DAG: vector.load %[[B]][%{{.*}}] {alignment = 16 : i64} : memref<1024xf32>, vector<4xf32>
// CHECK-NOT: memref.load
// CHECK: vector.store %{{.*}}, %[[OUT]][%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<65536xf32>, vector<4xf32>
// CHECK-NOT: memref.store
// SCALAR-LABEL: gpu.module @bias_exp_kernels
// SCALAR-NOT: vector.
// SCALAR: math.exp %
// SCALAR-NOT: vector.
// SCALAR: gpu.return
fusion.graph @bias_exp(%x: !fusion.buffer<64x1024xf32>, %b: !fusion.buffer<1024xf32>) -> (!fusion.buffer<64x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64, 1024] writes(%out : !fusion.buffer<64x1024xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %1 = fusion.load %b[%p1] : !fusion.buffer<1024xf32>
    %2 = arith.addf %0, %1 : f32
    %3 = math.exp %2 : f32
    fusion.store %3, %out[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64x1024xf32>
}

// -----

// A transpose: the output is written as vectors, the input read element by
// element (adjacent outputs are 64 elements apart in it).
// CHECK-LABEL: gpu.module @negative_transpose_kernels
// CHECK: gpu.func @kernel_op0(%[[X:.*]]: memref<4096xf32> {{.*}}, %[[OUT:.*]]: memref<4096xf32> {{.*}})
// CHECK-NOT: vector.load
// CHECK-COUNT-4: memref.load %[[X]]
// CHECK-NOT: vector.load
// CHECK: vector.store %{{.*}}, %[[OUT]]
fusion.graph @negative_transpose(%x: !fusion.buffer<64x64xf32>) -> (!fusion.buffer<64x64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64, 64] writes(%out : !fusion.buffer<64x64xf32>) {
    %0 = fusion.load %x[%p1 * 64 + %p0] : !fusion.buffer<64x64xf32>
    fusion.store %0, %out[%p0 * 64 + %p1] : !fusion.buffer<64x64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64x64xf32>
}

// -----

// 1002 elements do not split into groups of four: one element per thread.
// CHECK-LABEL: gpu.module @negative_odd_size_kernels
// CHECK-NOT: vector.
// CHECK: memref.load
// CHECK-NOT: vector.
// CHECK: memref.store
// CHECK: gpu.return
fusion.graph @negative_odd_size(%x: !fusion.buffer<1002xf32>) -> (!fusion.buffer<1002xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [1002] writes(%out : !fusion.buffer<1002xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<1002xf32>
    %1 = arith.addf %0, %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<1002xf32>
  }
  fusion.output %buf0 : !fusion.buffer<1002xf32>
}

// -----

// A view with an offset of 2 elements: groups of four are contiguous but
// not 16-byte aligned in it, so the input is read element by element.
// CHECK-LABEL: gpu.module @negative_misaligned_kernels
// CHECK: gpu.func @kernel_op0(%[[X:.*]]: memref<1026xf32> {{.*}}, %[[OUT:.*]]: memref<1024xf32> {{.*}})
// CHECK-NOT: vector.load
// CHECK-COUNT-4: memref.load %[[X]]
// CHECK: vector.store %{{.*}}, %[[OUT]]
fusion.graph @negative_misaligned(%x: !fusion.buffer<1026xf32>) -> (!fusion.buffer<1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [1024] writes(%out : !fusion.buffer<1024xf32>) {
    %0 = fusion.load %x[%p0 + 2] : !fusion.buffer<1026xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<1024xf32>
  }
  fusion.output %buf0 : !fusion.buffer<1024xf32>
}
