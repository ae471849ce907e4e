// Threads per row and rows per block of reductions that take a block per
// row (rows longer than warp-reduction-max-size = 256): about
// elements-per-thread (8) elements per thread, twice that when the row
// reads a single input and stays in registers (one value per element kept
// across the reduction, so the wider threads still fit 32 registers and
// all rows of a large kernel are resident at once), and blocks of at
// least 128 threads.
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="elements-per-thread=4" | FileCheck %s --check-prefix=E4

// One input, rows of 1024: 16 elements per thread (four 16-byte loads), 64
// threads per row, two rows per block of 128.
// CHECK: one = {{{.*}}steps = [{args = ["x", "buf0"], block = [128, 1, 1], grid = [2048, 1, 1]
// CHECK-LABEL: gpu.module @one_kernels
// CHECK-NOT: scf.for
// CHECK-COUNT-4: vector.load {{.*}} vector<4xf32>
// CHECK-NOT: vector.load
// CHECK: gpu.return
// E4: one = {{{.*}}steps = [{args = ["x", "buf0"], block = [128, 1, 1], grid = [4096, 1, 1]
fusion.graph @one(%x: !fusion.buffer<4096x1024xf32>) -> (!fusion.buffer<4096xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.reduce max %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
  }
  fusion.output %buf0 : !fusion.buffer<4096xf32>
}

// -----

// Two inputs (a row and a weight along it): threads take the same 4
// columns of 4 rows (rows-per-thread.mlir), 256 threads per row, one row
// of threads per block; the weight is loaded once for the 4 rows.
// CHECK: two = {{{.*}}steps = [{args = ["x", "w", "buf0"], block = [256, 1, 1], grid = [1024, 1, 1]
// CHECK-LABEL: gpu.module @two_kernels
// CHECK-NOT: scf.for
// CHECK-COUNT-5: vector.load {{.*}} vector<4xf32>
// CHECK-NOT: vector.load
// CHECK: gpu.return
// E4: two = {{{.*}}steps = [{args = ["x", "w", "buf0"], block = [256, 1, 1], grid = [4096, 1, 1]
fusion.graph @two(%x: !fusion.buffer<4096x1024xf32>, %w: !fusion.buffer<1024xf32>) -> (!fusion.buffer<4096xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %2 = arith.mulf %0, %1 : f32
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<4096xf32>
  }
  fusion.output %buf0 : !fusion.buffer<4096xf32>
}

// -----

// The same input at two positions of the row counts twice.
// CHECK: mirror = {{{.*}}steps = [{args = ["x", "buf0"], block = [128, 1, 1], grid = [64, 1, 1]
fusion.graph @mirror(%x: !fusion.buffer<64x1024xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [1024] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %1 = fusion.load %x[%p0 * 1024 + 1023 - %p1] : !fusion.buffer<64x1024xf32>
    %2 = arith.subf %0, %1 : f32
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64xf32>
}

// -----

// A row too long for registers at 16 elements per thread (32000 over at
// most 512 threads) is looped over with the most threads (enough rows not
// to split them: split-reductions.mlir).
// CHECK: long = {{{.*}}steps = [{args = ["x", "buf0"], block = [512, 1, 1], grid = [200, 1, 1]
// CHECK-LABEL: gpu.module @long_kernels
// CHECK: scf.for
fusion.graph @long(%x: !fusion.buffer<200x32000xf32>) -> (!fusion.buffer<200xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [200] reduce [32000] writes(%out : !fusion.buffer<200xf32>) {
    %0 = fusion.load %x[%p0 * 32000 + %p1] : !fusion.buffer<200x32000xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<200xf32>
  }
  fusion.output %buf0 : !fusion.buffer<200xf32>
}

// -----

// Rows of at most 256 elements keep their warp mapping: 32 threads per row
// of 256, 8 rows per block.
// CHECK: short = {{{.*}}steps = [{args = ["x", "buf0"], block = [256, 1, 1], grid = [128, 1, 1]
fusion.graph @short(%x: !fusion.buffer<1024x256xf32>) -> (!fusion.buffer<1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [1024] reduce [256] writes(%out : !fusion.buffer<1024xf32>) {
    %0 = fusion.load %x[%p0 * 256 + %p1] : !fusion.buffer<1024x256xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<1024xf32>
  }
  fusion.output %buf0 : !fusion.buffer<1024xf32>
}

// -----

// A buffer the group produces is a register, not an input: exp(x) summed
// over the row reads one input.
// CHECK: fused = {{{.*}}steps = [{args = ["x", "buf1"], block = [128, 1, 1], grid = [2048, 1, 1]
fusion.graph @fused(%x: !fusion.buffer<4096x1024xf32>) -> (!fusion.buffer<4096xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<4096x1024xf32>, !fusion.buffer<4096xf32> {
    %e = fusion.node "op0" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %1 = math.exp %0 : f32
      fusion.store %1, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    }
    %s = fusion.node "op1" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %e[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
    }
    fusion.yield %e, %s : !fusion.buffer<4096x1024xf32>, !fusion.buffer<4096xf32>
  }
  fusion.output %buf1 : !fusion.buffer<4096xf32>
}

// -----

// Few short rows (gpt2's layer norms, 512 rows of 256): 32 threads a row,
// 8 rows a block, would fill 64 blocks, less than half of 132 SMs; 64
// threads a row (a 16-byte group each) take 256 blocks of 2 rows.
// CHECK: few = {{{.*}}steps = [{args = ["x", "buf0"], block = [128, 1, 1], grid = [256, 1, 1]
// CHECK-LABEL: gpu.module @few_kernels
// CHECK-COUNT-1: vector.load {{.*}} vector<4xf32>
// CHECK-NOT: vector.load
// CHECK: gpu.return
fusion.graph @few(%x: !fusion.buffer<512x256xf32>) -> (!fusion.buffer<512xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512] reduce [256] writes(%out : !fusion.buffer<512xf32>) {
    %0 = fusion.load %x[%p0 * 256 + %p1] : !fusion.buffer<512x256xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<512xf32>
  }
  fusion.output %buf0 : !fusion.buffer<512xf32>
}

// -----

// @negative_many: rows for more than half of 132 SMs (4096 rows of 256:
// 512 blocks; @short above, 1024 rows: 128 blocks) keep 32 threads a row,
// 8 elements each.
// CHECK: negative_many = {{{.*}}steps = [{args = ["x", "buf0"], block = [256, 1, 1], grid = [512, 1, 1]
fusion.graph @negative_many(%x: !fusion.buffer<4096x256xf32>) -> (!fusion.buffer<4096xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [256] writes(%out : !fusion.buffer<4096xf32>) {
    %0 = fusion.load %x[%p0 * 256 + %p1] : !fusion.buffer<4096x256xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
  }
  fusion.output %buf0 : !fusion.buffer<4096xf32>
}
