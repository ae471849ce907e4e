// Reductions over an outer dimension whose 2-D tiles (reduction-tiles.mlir)
// would fill at most half of the SMs take fewer rows a block, down to 8,
// and as many more lanes a row, while every lane keeps four elements or
// more: the block keeps its threads, the grid grows (Inductor's
// outer_config_opt for few columns). The count of SMs decides: 1024
// columns of 128 (gpt2_train's layer-norm weight gradients) run 32 blocks
// of 32 rows by 8 lanes with 32 SMs, 64 blocks of 16 by 16 with 64, and
// 128 blocks of 8 by 32 with 132 (the H100's, the default).
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu="num-sms=64" | FileCheck %s --check-prefix=SMS64
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu="num-sms=32" | FileCheck %s --check-prefix=SMS32

// 132 SMs: 8 rows a block along the threads (thread = lane * 8 + row: a
// warp's load reads 32 bytes of each of 4 rows), 32 lanes a row, 4
// elements each in registers. A warp holds 4 lanes of each of its 8 rows,
// 8 apart: two xor shuffles (16, 8) fold them, the warp's first 8 lanes
// publish at warp * 8 + row, and every thread folds its row's 8 partials
// (one a warp, 8 slots apart) from shared memory.
// CHECK: steps = [{args = ["t", "buf4"], block = [256, 1, 1], grid = [128, 1, 1], kind = "kernel", name = "kernel_op4", node = "op4", shared_bytes = 256 : i64}]
// CHECK-LABEL: gpu.func @kernel_op4
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[BID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[FIRST:.*]] = arith.muli %[[BID]], %c8_i32
// CHECK: %[[COL:.*]] = arith.andi %[[TID]], %c7_i32
// CHECK: arith.addi %[[FIRST]], %[[COL]]
// CHECK: %[[LANE:.*]] = arith.shrui %[[TID]], %c3_i32
// CHECK: arith.cmpi eq, %[[LANE]], %c0_i32
// CHECK-COUNT-4: memref.load %arg0
// CHECK-NOT: memref.load %arg0
// CHECK: %[[S16:.*]], %{{.*}} = gpu.shuffle xor %[[ACC:.*]], %c16_i32
// CHECK: %[[ACC16:.*]] = arith.addf %[[ACC]], %[[S16]]
// CHECK: %[[S8:.*]], %{{.*}} = gpu.shuffle xor %[[ACC16]], %c8_i32
// CHECK: %[[ACC8:.*]] = arith.addf %[[ACC16]], %[[S8]]
// CHECK-NOT: gpu.shuffle
// CHECK: %[[INWARP:.*]] = arith.andi %[[TID]], %c31_i32
// CHECK: %[[PUB:.*]] = arith.cmpi ult, %[[INWARP]], %c8_i32
// CHECK: scf.if %[[PUB]]
// CHECK: %[[WARP:.*]] = arith.shrui %[[TID]], %c5_i32
// CHECK: %[[WARPROW:.*]] = arith.muli %[[WARP]], %c8_i32
// CHECK: %[[SLOT:.*]] = arith.addi %[[WARPROW]], %[[INWARP]]
// CHECK: %[[SLOTI:.*]] = arith.index_cast %[[SLOT]]
// CHECK: memref.store %[[ACC8]], %[[SMEM]][%[[SLOTI]]]
// CHECK: gpu.barrier
// CHECK: %[[ROW:.*]] = arith.andi %[[TID]], %c7_i32
// CHECK: %[[ROWI:.*]] = arith.index_cast %[[ROW]]
// CHECK: %[[AT0:.*]] = arith.addi %[[ROWI]], %c0
// CHECK: memref.load %[[SMEM]][%[[AT0]]]
// CHECK: %[[AT1:.*]] = arith.addi %[[ROWI]], %c8
// CHECK: memref.load %[[SMEM]][%[[AT1]]]
// CHECK-COUNT-6: memref.load %[[SMEM]]
// CHECK-NOT: memref.load %[[SMEM]]
// CHECK: gpu.return
// 64 SMs: 16 rows, 2 lanes of each in a warp: one shuffle (16), then 8
// partials a row (one a warp, 16 slots apart).
// SMS64: steps = [{args = ["t", "buf4"], block = [256, 1, 1], grid = [64, 1, 1], kind = "kernel", name = "kernel_op4", node = "op4", shared_bytes = 512 : i64}]
// SMS64-LABEL: gpu.func @kernel_op4
// SMS64-SAME: workgroup(%[[SMEM:.*]] : memref<128xf32, #gpu.address_space<workgroup>>)
// SMS64: arith.andi %{{.*}}, %c15_i32
// SMS64-COUNT-8: memref.load %arg0
// SMS64-NOT: memref.load %arg0
// SMS64: gpu.shuffle xor %{{.*}}, %c16_i32
// SMS64-NOT: gpu.shuffle
// SMS64: arith.cmpi ult, %{{.*}}, %c16_i32
// SMS64: gpu.barrier
// SMS64-COUNT-8: memref.load %[[SMEM]]
// SMS64-NOT: memref.load %[[SMEM]]
// SMS64: gpu.return
// 32 SMs: 32 rows, a warp holds one lane of each: no shuffle, each
// thread folds 8 partials (one a lane) from shared memory.
// SMS32: steps = [{args = ["t", "buf4"], block = [256, 1, 1], grid = [32, 1, 1], kind = "kernel", name = "kernel_op4", node = "op4", shared_bytes = 1024 : i64}]
// SMS32-LABEL: gpu.func @kernel_op4
// SMS32-SAME: workgroup(%[[SMEM:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// SMS32: arith.andi %{{.*}}, %c31_i32
// SMS32-COUNT-16: memref.load %arg0
// SMS32-NOT: memref.load %arg0
// SMS32-NOT: gpu.shuffle
// SMS32: gpu.barrier
// SMS32-COUNT-8: memref.load %[[SMEM]]
// SMS32-NOT: memref.load %[[SMEM]]
// SMS32: gpu.return
fusion.graph @outer(%t: !fusion.buffer<4x128x256xf32>) -> (!fusion.buffer<256x4xf32>) attributes {device = "cuda:0"} {
  %buf4 = fusion.node "op4" (%p0, %p1, %p2) in [4, 256] reduce [128] writes(%out : !fusion.buffer<256x4xf32>) {
    %0 = fusion.load %t[%p0 * 32768 + %p1 + %p2 * 256] : !fusion.buffer<4x128x256xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0 * 256 + %p1] : !fusion.buffer<256x4xf32>
  }
  fusion.output %buf4 : !fusion.buffer<256x4xf32>
}

// -----

// Short columns stop the spreading once a lane would hold fewer than four
// elements: 256 columns of 13 (resnet18's batch-norm merges of 13 partial
// statistics) take 2 lanes of 128 rows by default, then 4 lanes of 64 (4
// elements a lane), not 8.
// CHECK: steps = [{args = ["t", "buf0"], block = [256, 1, 1], grid = [4, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0"
// SMS32: steps = [{args = ["t", "buf0"], block = [256, 1, 1], grid = [4, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0"
fusion.graph @short_columns(%t: !fusion.buffer<13x256xf32>) -> (!fusion.buffer<256xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [256] reduce [13] writes(%out : !fusion.buffer<256xf32>) {
    %0 = fusion.load %t[%p1 * 256 + %p0] : !fusion.buffer<13x256xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<256xf32>
  }
  fusion.output %buf0 : !fusion.buffer<256xf32>
}

// -----

// Columns of fewer than eight elements keep their tile: a lane of 256
// columns of 4 (the sums of 4 partials after the split above) holds 4
// elements, two lanes would hold 2; the block stays one of 256 rows.
// CHECK: steps = [{args = ["t", "buf0"], block = [256, 1, 1], grid = [1, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0"
fusion.graph @negative_four_partials(%t: !fusion.buffer<4x256xf32>) -> (!fusion.buffer<256xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [256] reduce [4] writes(%out : !fusion.buffer<256xf32>) {
    %0 = fusion.load %t[%p1 * 256 + %p0] : !fusion.buffer<4x256xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<256xf32>
  }
  fusion.output %buf0 : !fusion.buffer<256xf32>
}
