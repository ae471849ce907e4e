// Several rows per block of a reduction kernel wider than a warp: 64
// threads per row, 4 rows per block of 256. Each warp's partial sum goes to
// shared memory (8 slots); each thread then combines the 2 partials of its
// own row's warps: slot (warp & ~1) | (lane & 1), one more shuffle.
// RUN: scheduler-opt %s --convert-fusion-to-gpu="reduction-lanes=64 reduction-rows-per-block=4" | FileCheck %s
// Options that do not give blocks of 32 to 1024 threads, or lanes that are
// not powers of two, are errors.
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="reduction-lanes=48" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="reduction-lanes=512 reduction-rows-per-block=4" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="pointwise-vector-width=3" 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: steps = [{args = ["x", "buf0"], block = [256, 1, 1], grid = [8, 1, 1]
// CHECK: gpu.func @kernel_op0({{.*}}) workgroup(%[[SMEM:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[ROW:.*]] = arith.shrui %[[TID]], %c6_i32
// CHECK: arith.addi %{{.*}}, %[[ROW]]
// CHECK: %[[LANE:.*]] = arith.andi %[[TID]], %c63_i32
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: %[[WARP:.*]] = arith.shrui %[[TID]], %c5_i32
// CHECK: memref.store %{{.*}}, %[[SMEM]]
// CHECK: gpu.barrier
// CHECK: %[[MINE:.*]] = arith.andi %{{.*}}, %c1_i32
// CHECK: %[[FIRST:.*]] = arith.andi %[[WARP]], %c-2_i32
// CHECK: %[[SLOT:.*]] = arith.ori %[[MINE]], %[[FIRST]]
// CHECK: %[[I:.*]] = arith.index_cast %[[SLOT]]
// CHECK: memref.load %[[SMEM]][%[[I]]]
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32{{.*}}, %c32_i32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
// BAD: convert-fusion-to-gpu: block sizes must be multiples of 32
fusion.graph @rows(%x: !fusion.buffer<32x512xf32>) -> (!fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [32] reduce [512] writes(%out : !fusion.buffer<32xf32>) {
    %0 = fusion.load %x[%p0 * 512 + %p1] : !fusion.buffer<32x512xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
  }
  fusion.output %buf0 : !fusion.buffer<32xf32>
}
