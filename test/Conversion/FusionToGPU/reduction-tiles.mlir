// Reductions over an outer dimension take 2-D tiles (Inductor's
// ReductionHint.OUTER): the partial weight gradient of gpt2's backward
// (corpus gpt2_train, op4) sums 128 rows r of each of 1024 columns x,
// reading t[32768 * (x / 256) + x mod 256 + 256 r]: a row's elements are
// 256 apart, adjacent rows adjacent. Rows run along the threads (32 per
// block: thread = lane * 32 + row, 128 contiguous bytes per warp load),
// each row's 8 lanes across warps, 16 elements each in registers; the 8
// partials of a row meet in shared memory (256 slots), each thread folding
// its row's partials in lane order. reduction-tiles=0 keeps a row's lanes
// along it (shuffles). The cases run with 32 SMs, which the 32 blocks
// fill; with more SMs few columns take fewer rows a block and more lanes
// (reduction-tiles-few-columns.mlir).
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu="num-sms=32" | FileCheck %s
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu="num-sms=32 reduction-tiles=0" | FileCheck %s --check-prefix=OFF

// CHECK: steps = [{args = ["t", "buf4"], block = [256, 1, 1], grid = [32, 1, 1], kind = "kernel", name = "kernel_op4", node = "op4", shared_bytes = 1024 : i64}]
// CHECK-LABEL: gpu.func @kernel_op4
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[BID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[FIRST:.*]] = arith.muli %[[BID]], %c32_i32
// CHECK: %[[COL:.*]] = arith.andi %[[TID]], %c31_i32
// CHECK: %[[X:.*]] = arith.addi %[[FIRST]], %[[COL]]
// CHECK: %[[LANE:.*]] = arith.shrui %[[TID]], %c5_i32
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[LANE]], %c0_i32
// CHECK-COUNT-16: memref.load %arg0
// CHECK-NOT: gpu.shuffle
// CHECK: %[[SELF:.*]] = arith.index_cast %[[TID]]
// CHECK: memref.store %{{.*}}, %[[SMEM]][%[[SELF]]]
// CHECK: gpu.barrier
// CHECK: %[[ROW:.*]] = arith.andi %[[TID]], %c31_i32
// CHECK: %[[ROWI:.*]] = arith.index_cast %[[ROW]]
// CHECK: %[[AT0:.*]] = arith.addi %[[ROWI]], %c0
// CHECK: memref.load %[[SMEM]][%[[AT0]]]
// CHECK: %[[AT1:.*]] = arith.addi %[[ROWI]], %c32
// CHECK: memref.load %[[SMEM]][%[[AT1]]]
// CHECK-COUNT-6: memref.load %[[SMEM]]
// CHECK-NOT: gpu.barrier
// CHECK: scf.if %[[LEADER]]
// CHECK: memref.store
// CHECK: gpu.return
// OFF-LABEL: gpu.func @kernel_op4
// OFF: gpu.shuffle xor
fusion.graph @outer(%t: !fusion.buffer<4x128x256xf32>) -> (!fusion.buffer<256x4xf32>) attributes {device = "cuda:0"} {
  %buf4 = fusion.node "op4" (%p0, %p1, %p2) in [4, 256] reduce [128] writes(%out : !fusion.buffer<256x4xf32>) {
    %0 = fusion.load %t[%p0 * 32768 + %p1 + %p2 * 256] : !fusion.buffer<4x128x256xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0 * 256 + %p1] : !fusion.buffer<256x4xf32>
  }
  fusion.output %buf4 : !fusion.buffer<256x4xf32>
}

// -----

// Rows contiguous in memory keep their lanes along the row (a warp per
// row of 128, as before), even where another access is contiguous across
// rows: more accesses step along the row than across.
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK: gpu.shuffle xor
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
fusion.graph @negative_inner(%t: !fusion.buffer<1024x128xf32>, %u: !fusion.buffer<1024x128xf32>, %w: !fusion.buffer<128x1024xf32>) -> (!fusion.buffer<1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [1024] reduce [128] writes(%out : !fusion.buffer<1024xf32>) {
    %0 = fusion.load %t[%p0 * 128 + %p1] : !fusion.buffer<1024x128xf32>
    %1 = fusion.load %u[%p0 * 128 + %p1] : !fusion.buffer<1024x128xf32>
    %2 = fusion.load %w[%p1 * 1024 + %p0] : !fusion.buffer<128x1024xf32>
    %3 = arith.mulf %0, %1 : f32
    %4 = arith.mulf %3, %2 : f32
    %5 = fusion.reduce sum %4 : f32 -> f32
    fusion.store %5, %out[%p0] : !fusion.buffer<1024xf32>
  }
  fusion.output %buf0 : !fusion.buffer<1024xf32>
}

// -----

// Partials that would not fit a block's shared memory (48 KiB): seven f64
// Welford reductions (at most 224 bytes of accumulators per thread) of 32
// rows times 8 lanes would need 56 KiB; with 4 lanes the block holds 128
// threads of 7 * 24 bytes: 21504 (one barrier per reduction).
// CHECK: block = [128, 1, 1], grid = [32, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0", shared_bytes = 21504 : i64
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK: arith.shrui %{{.*}}, %c5_i32
// CHECK-COUNT-7: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
fusion.graph @wide_partials(%t: !fusion.buffer<128x1024xf64>) -> (!fusion.buffer<1024xf64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [1024] reduce [128] writes(%out : !fusion.buffer<1024xf64>) {
    %0 = fusion.load %t[%p1 * 1024 + %p0] : !fusion.buffer<128x1024xf64>
    %c1 = arith.constant 1.0 : f64
    %v1 = arith.mulf %0, %c1 : f64
    %m1, %s1, %w1 = fusion.reduce welford_reduce %v1 : f64 -> f64, f64, f64
    %c2 = arith.constant 2.0 : f64
    %v2 = arith.mulf %0, %c2 : f64
    %m2, %s2, %w2 = fusion.reduce welford_reduce %v2 : f64 -> f64, f64, f64
    %c3 = arith.constant 3.0 : f64
    %v3 = arith.mulf %0, %c3 : f64
    %m3, %s3, %w3 = fusion.reduce welford_reduce %v3 : f64 -> f64, f64, f64
    %c4 = arith.constant 4.0 : f64
    %v4 = arith.mulf %0, %c4 : f64
    %m4, %s4, %w4 = fusion.reduce welford_reduce %v4 : f64 -> f64, f64, f64
    %c5 = arith.constant 5.0 : f64
    %v5 = arith.mulf %0, %c5 : f64
    %m5, %s5, %w5 = fusion.reduce welford_reduce %v5 : f64 -> f64, f64, f64
    %c6 = arith.constant 6.0 : f64
    %v6 = arith.mulf %0, %c6 : f64
    %m6, %s6, %w6 = fusion.reduce welford_reduce %v6 : f64 -> f64, f64, f64
    %c7 = arith.constant 7.0 : f64
    %v7 = arith.mulf %0, %c7 : f64
    %m7, %s7, %w7 = fusion.reduce welford_reduce %v7 : f64 -> f64, f64, f64
    %a2 = arith.addf %m1, %m2 : f64
    %a3 = arith.addf %a2, %m3 : f64
    %a4 = arith.addf %a3, %m4 : f64
    %a5 = arith.addf %a4, %m5 : f64
    %a6 = arith.addf %a5, %m6 : f64
    %a7 = arith.addf %a6, %m7 : f64
    fusion.store %a7, %out[%p0] : !fusion.buffer<1024xf64>
  }
  fusion.output %buf0 : !fusion.buffer<1024xf64>
}
