// Split reductions: kernels with few long rows spread each row over
// several blocks (at most SMs / rows, a power of two up to 32) when the
// reads that move to other SMs outweigh the exchange of partials (more
// than 32 KiB). Each block reduces its lanes, its first thread stores the
// block's partials into the kernel's workspace (module globals), fences
// and counts the block in the row's counter (zero when the module loads);
// the block that counts last resets the counter, merges the row's partials
// in a fixed order (a butterfly over the split's lanes) and makes the
// per-row stores. Splits of at most reduction-cluster blocks take a thread
// block cluster instead (cluster-reductions.mlir); FOUR turns clusters off.
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="reduction-split=4 reduction-cluster=0" | FileCheck %s --check-prefix=FOUR
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="reduction-split=1" | FileCheck %s --check-prefix=OFF

// 8 rows of 32000 (125 KiB each) on 132 SMs: 16 blocks per row of 256
// threads, lanes (block mod 16) * 256 + thread of the row's 4096 (more
// blocks than a cluster takes: through global memory).
// CHECK: long_rows = {{{.*}}steps = [{args = ["x", "buf0"], block = [256, 1, 1], grid = [128, 1, 1]
// CHECK-LABEL: gpu.module @long_rows_kernels
// CHECK: memref.global "private" @[[PARTIAL:kernel_op0_split0_partial0_0]] : memref<128xf32, #gpu.address_space<global>> = uninitialized
// CHECK: memref.global "private" @[[COUNT:kernel_op0_split0_count]] : memref<8xi32, #gpu.address_space<global>> = dense<0>
// CHECK: gpu.func @kernel_op0({{.*}}workgroup({{.*}}, %[[FLAG:.*]] : memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = arith.index_castui %thread_id_x
// CHECK: %[[BID:.*]] = arith.index_castui %block_id_x
// CHECK: %[[ROW:.*]] = arith.shrui %[[BID]], %c4_i32
// CHECK: %[[PART:.*]] = arith.andi %[[BID]], %c15_i32
// CHECK: %[[FIRST:.*]] = arith.muli %[[PART]], %c256_i32
// CHECK: arith.addi %[[FIRST]], %[[TID]]
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[TID]], %c0_i32
// CHECK: vector.load
// CHECK: gpu.barrier
// CHECK: %[[WS:.*]] = memref.get_global @[[PARTIAL]]
// CHECK: %[[COUNTS:.*]] = memref.get_global @[[COUNT]]
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[WS]]
// CHECK-NEXT: llvm.fence syncscope("device") acq_rel
// CHECK: %[[BEFORE:.*]] = memref.atomic_rmw addi %c1_i32{{.*}}, %[[COUNTS]]
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[BEFORE]], %c15_i32
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: memref.store %c0_i32{{.*}}, %[[COUNTS]]
// CHECK: %[[LASTI:.*]] = arith.extui %[[LAST]]
// CHECK-NEXT: memref.store %[[LASTI]], %[[FLAG]]
// CHECK: gpu.barrier
// CHECK: %[[FLAGV:.*]] = memref.load %[[FLAG]]
// CHECK: %[[FINISHED:.*]] = arith.cmpi ne, %[[FLAGV]]
// CHECK: %[[SUM:.*]] = scf.if %[[FINISHED]] -> (f32) {
// CHECK-NEXT: llvm.fence syncscope("device") acq_rel
// CHECK: memref.load %[[WS]]
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK: } else {
// CHECK: scf.yield %cst
// CHECK: %[[STORES:.*]] = arith.andi %[[LEADER]], %[[FINISHED]]
// CHECK: scf.if %[[STORES]] {
// CHECK-NEXT: memref.store %[[SUM]], %arg1
// OFF: long_rows = {{{.*}}steps = [{args = ["x", "buf0"], block = [512, 1, 1], grid = [8, 1, 1]
// OFF-NOT: memref.global
// FOUR: long_rows = {{{.*}}steps = [{args = ["x", "buf0"], block = [512, 1, 1], grid = [32, 1, 1]
fusion.graph @long_rows(%x: !fusion.buffer<8x32000xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8] reduce [32000] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p0 * 32000 + %p1] : !fusion.buffer<8x32000xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

// @negative_add_sum: 64 rows of 4096 of two inputs (32 KiB a row) stay one
// block per row: the half that 2 blocks would move is less than the
// exchange (on an H100 2 blocks a row ran 3.5 us against 2.1).
// CHECK: negative_add_sum = {{{.*}}steps = [{args = ["a", "b", "buf0"], block = [512, 1, 1], grid = [64, 1, 1]
// CHECK-LABEL: gpu.module @negative_add_sum_kernels
// CHECK-NOT: memref.global
// CHECK: gpu.return
// FOUR: negative_add_sum = {{{.*}}steps = [{args = ["a", "b", "buf0"], block = [128, 1, 1], grid = [256, 1, 1]
fusion.graph @negative_add_sum(%a: !fusion.buffer<64x4096xf32>, %b: !fusion.buffer<64x4096xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [4096] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %a[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %1 = fusion.load %b[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %2 = arith.addf %0, %1 : f32
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64xf32>
}

// -----

// Several reductions of one level exchange their partials at once, one
// workspace per accumulator value (Welford's mean, m2 and weight, folded
// element by element rather than in two passes; argmax's value and
// position; booleans as bytes) and one counter.
// FOUR: kinds = {{{.*}}steps = [{args = ["x", "buf0", "buf1", "buf2", "buf3"], block = [512, 1, 1], grid = [12, 1, 1]
// FOUR-LABEL: gpu.module @kinds_kernels
// FOUR: memref.global "private" @kernel_op0_split0_partial0_0 : memref<12xf32
// FOUR: memref.global "private" @kernel_op0_split0_partial0_1 : memref<12xf32
// FOUR: memref.global "private" @kernel_op0_split0_partial0_2 : memref<12xf32
// FOUR: memref.global "private" @kernel_op0_split0_partial1_0 : memref<12xf32
// FOUR: memref.global "private" @kernel_op0_split0_partial1_1 : memref<12xi64
// FOUR: memref.global "private" @kernel_op0_split0_partial2_0 : memref<12xi8
// FOUR: memref.global "private" @kernel_op0_split0_count : memref<3xi32
// FOUR-NOT: memref.global
// FOUR: memref.atomic_rmw
// FOUR-NOT: memref.atomic_rmw
// FOUR: scf.if %{{.*}} -> (f32, f32, f32, f32, i64, i1)
// FOUR: arith.trunci %{{.*}} : i8 to i1
// FOUR: gpu.return
fusion.graph @kinds(%x: !fusion.buffer<3x20000xf32>) -> (!fusion.buffer<3xf32>, !fusion.buffer<3xf32>, !fusion.buffer<3xi64>, !fusion.buffer<3xi1>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2, %buf3 = fusion.node "op0" (%p0, %p1) in [3] reduce [20000] writes(%o0 : !fusion.buffer<3xf32>, %o1 : !fusion.buffer<3xf32>, %o2 : !fusion.buffer<3xi64>, %o3 : !fusion.buffer<3xi1>) {
    %0 = fusion.load %x[%p0 * 20000 + %p1] : !fusion.buffer<3x20000xf32>
    %mean, %m2, %weight = fusion.reduce welford_reduce %0 : f32 -> f32, f32, f32
    %arg = fusion.reduce argmax %0 : f32 -> i64
    %zero = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %0, %zero : f32
    %any = fusion.reduce any %pos : i1 -> i1
    fusion.store %mean, %o0[%p0] : !fusion.buffer<3xf32>
    fusion.store %m2, %o1[%p0] : !fusion.buffer<3xf32>
    fusion.store %arg, %o2[%p0] : !fusion.buffer<3xi64>
    fusion.store %any, %o3[%p0] : !fusion.buffer<3xi1>
  }
  fusion.output %buf0, %buf1, %buf2, %buf3 : !fusion.buffer<3xf32>, !fusion.buffer<3xf32>, !fusion.buffer<3xi64>, !fusion.buffer<3xi1>
}

// -----

// @negative_two_levels: a reduction whose result every element needs
// (softmax's normalization) cannot wait for the last block: never split.
// FOUR: negative_two_levels = {{{.*}}steps = [{args = ["x", "buf1"], block = [512, 1, 1], grid = [2, 1, 1]
// FOUR-LABEL: gpu.module @negative_two_levels_kernels
// FOUR-NOT: memref.global
// FOUR: gpu.return
fusion.graph @negative_two_levels(%x: !fusion.buffer<2x32768xf32>) -> (!fusion.buffer<2x32768xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [2] reduce [32768] writes(%out : !fusion.buffer<2xf32>) {
    %0 = fusion.load %x[%p0 * 32768 + %p1] : !fusion.buffer<2x32768xf32>
    %1 = fusion.reduce max %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<2xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [2, 32768] writes(%out : !fusion.buffer<2x32768xf32>) {
    %0 = fusion.load %x[%p0 * 32768 + %p1] : !fusion.buffer<2x32768xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<2xf32>
    %2 = arith.subf %0, %1 : f32
    fusion.store %2, %out[%p0 * 32768 + %p1] : !fusion.buffer<2x32768xf32>
  }
  fusion.output %buf1 : !fusion.buffer<2x32768xf32>
}
