// Threads that take the same columns of several rows (Triton's 2-D blocks
// with XBLOCK > 1), chosen by the register budget: a thread keeping a row
// in registers takes 16 elements of rows in all when what it holds (one
// value per element, plus one per column of each input that does not
// depend on the row) stays within 20 values, and loads those inputs once
// for all of its rows.
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="reduction-rows-per-thread=2 reduction-lanes=64" | FileCheck %s --check-prefix=FIXED

// A row and a weight along it (rmsnorm's shape): one row of 16 would hold
// 32 values, 2 rows of 8 hold 24, 4 rows of 4 hold 20: 256 threads per row,
// one row of threads per block, each block 4 rows. The weight is one
// vector load for the 4 rows; each row has its own reduction and stores,
// and the 4 reductions share one barrier: each warp's leader publishes
// its 4 partials, then every warp reads them back.
// CHECK: weighted = {{{.*}}steps = [{args = ["x", "w", "buf1"], block = [256, 1, 1], grid = [1024, 1, 1]
// CHECK-LABEL: gpu.module @weighted_kernels
// CHECK: %[[BID:.*]] = arith.index_castui %block_id_x
// CHECK: %[[ROW0:.*]] = arith.muli %[[BID]], %c4_i32
// CHECK: %[[ROW1:.*]] = arith.addi %[[ROW0]], %c1_i32
// CHECK: %[[ROW2:.*]] = arith.addi %[[ROW0]], %c2_i32
// CHECK: %[[ROW3:.*]] = arith.addi %[[ROW0]], %c3_i32
// CHECK-COUNT-4: vector.load %arg0
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: memref.store {{.*}} #gpu.address_space<workgroup>>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: vector.load %arg1
// CHECK-NOT: vector.load
// CHECK-COUNT-4: vector.store {{.*}}, %arg2
// CHECK-NOT: vector.store
// CHECK: gpu.return
// FIXED: weighted = {{{.*}}steps = [{args = ["x", "w", "buf1"], block = [128, 1, 1], grid = [1024, 1, 1]
fusion.graph @weighted(%x: !fusion.buffer<4096x1024xf32>, %w: !fusion.buffer<1024xf32>) -> (!fusion.buffer<4096x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<4096xf32>
    %2 = arith.subf %0, %1 : f32
    %3 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %4 = arith.mulf %2, %3 : f32
    fusion.store %4, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
  }
  fusion.output %buf1 : !fusion.buffer<4096x1024xf32>
}

// -----

// A weight and a bias (layernorm's shape): 4 rows of 4 would hold 24
// values (they took 42 registers and ran slower): one row of 8 elements a
// thread, 128 threads, one row per block.
// CHECK: affine = {{{.*}}steps = [{args = ["x", "w", "b", "buf1"], block = [128, 1, 1], grid = [4096, 1, 1]
// FIXED: affine = {{{.*}}steps = [{args = ["x", "w", "b", "buf1"], block = [128, 1, 1], grid = [1024, 1, 1]
fusion.graph @affine(%x: !fusion.buffer<4096x1024xf32>, %w: !fusion.buffer<1024xf32>, %b: !fusion.buffer<1024xf32>) -> (!fusion.buffer<4096x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<4096xf32>
    %2 = arith.subf %0, %1 : f32
    %3 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %4 = arith.mulf %2, %3 : f32
    %5 = fusion.load %b[%p1] : !fusion.buffer<1024xf32>
    %6 = arith.addf %4, %5 : f32
    fusion.store %6, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
  }
  fusion.output %buf1 : !fusion.buffer<4096x1024xf32>
}

// -----

// 530 rows, 4 a thread: the last block's rows past the end compute on the
// last row and store nothing, each row with its own bound. Fixed at 2 rows
// of 64 threads, 2 rows of threads per block (4 rows per block), likewise.
// CHECK: few = {{{.*}}steps = [{args = ["x", "w", "buf1"], block = [256, 1, 1], grid = [133, 1, 1]
// FIXED: few = {{{.*}}steps = [{args = ["x", "w", "buf1"], block = [128, 1, 1], grid = [133, 1, 1]
// FIXED-LABEL: gpu.module @few_kernels
// FIXED: %[[FIRST:.*]] = arith.muli %{{.*}}, %c4_i32
// FIXED: %[[X0:.*]] = arith.addi %[[FIRST]], %{{.*}}
// FIXED: %[[V0:.*]] = arith.cmpi ult, %[[X0]], %c530_i32
// FIXED: arith.minui %[[X0]], %c529_i32
// FIXED: %[[X1:.*]] = arith.addi %[[X0]], %c2_i32
// FIXED: %[[V1:.*]] = arith.cmpi ult, %[[X1]], %c530_i32
// FIXED: arith.minui %[[X1]], %c529_i32
// FIXED-COUNT-2: vector.load %arg1
// FIXED-NOT: vector.load %arg1
// FIXED: scf.if
// FIXED: vector.store
// FIXED: scf.if
// FIXED: vector.store
fusion.graph @few(%x: !fusion.buffer<530x1024xf32>, %w: !fusion.buffer<1024xf32>) -> (!fusion.buffer<530x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [530] reduce [1024] writes(%out : !fusion.buffer<530xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<530x1024xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<530xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [530, 1024] writes(%out : !fusion.buffer<530x1024xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<530x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<530xf32>
    %2 = arith.subf %0, %1 : f32
    %3 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %4 = arith.mulf %2, %3 : f32
    fusion.store %4, %out[%p0 * 1024 + %p1] : !fusion.buffer<530x1024xf32>
  }
  fusion.output %buf1 : !fusion.buffer<530x1024xf32>
}

// -----

// Too few rows to share (fewer than 4 per SM): one row of 8 a thread.
// CHECK: fewer = {{{.*}}steps = [{args = ["x", "w", "buf1"], block = [128, 1, 1], grid = [256, 1, 1]
fusion.graph @fewer(%x: !fusion.buffer<256x1024xf32>, %w: !fusion.buffer<1024xf32>) -> (!fusion.buffer<256x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [256] reduce [1024] writes(%out : !fusion.buffer<256xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<256x1024xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<256xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [256, 1024] writes(%out : !fusion.buffer<256x1024xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<256x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<256xf32>
    %2 = arith.subf %0, %1 : f32
    %3 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %4 = arith.mulf %2, %3 : f32
    fusion.store %4, %out[%p0 * 1024 + %p1] : !fusion.buffer<256x1024xf32>
  }
  fusion.output %buf1 : !fusion.buffer<256x1024xf32>
}
