// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="block-sorts=0" | FileCheck %s --check-prefix=THREAD
// RUN: rm -rf %t.ptx && scheduler-opt %s -split-input-file --fusion-to-ptx="output-dir=%t.ptx schedule=0" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/sort1000.ptx

// Block sorts (BlockSort.h): rows of 1000 f32 with their i64 positions,
// descending, on a block of 512 threads (a lane per pair of the row padded
// to 1024). The pass before writes the row into shared memory; each lane
// writes the original positions of its elements into a third shared array
// (i32); after a barrier, the merges (logK from 1 to 10) and their stages
// (s from 0 to logK - 1) pair i with its mirror i ^ (2j - 1) in a stage's
// first step, with i | j in the later ones, skip pairs past the row, and
// exchange where the partner comes first (NaN-aware descending order, ties
// by original position), moving the positions and the other value of the
// tuple too; a barrier ends each stage.
// CHECK: sort1000 = {{{.*}}block = [512, 1, 1], grid = [8, 1, 1]{{.*}}shared_bytes = 16000
// CHECK-LABEL: gpu.module @sort1000_kernels
// CHECK: gpu.func @kernel_op0({{.*}}) workgroup(%[[KEYS:[^:]*]] : memref<1000xf32, #gpu.address_space<workgroup>>, %[[IDX:[^:]*]] : memref<1000xi64, #gpu.address_space<workgroup>>, %[[POS:[^:]*]] : memref<1000xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[KEYS]]
// CHECK: memref.store %{{.*}}, %[[IDX]]
// CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c511_i32 : i32
// CHECK: scf.for %[[R:.*]] = %[[LANE]] to %c1000_i32 step %c512_i32  : i32 {
// CHECK: memref.store %[[R]], %[[POS]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[LOGK:.*]] = %{{.*}} to %c11_i32 step
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %[[LOGK]] step
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[S]]
// CHECK: scf.for %[[T:.*]] = %[[LANE]] to %c512_i32{{.*}} step %c512_i32
// CHECK: %[[I:.*]] = arith.ori
// CHECK: %[[NEXT:.*]] = arith.ori %[[I]], %{{.*}} : i32
// CHECK: %[[MIRROR:.*]] = arith.xori %[[I]], %{{.*}} : i32
// CHECK: %[[P:.*]] = arith.select %[[FIRST]], %[[MIRROR]], %[[NEXT]] : i32
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[P]], %c1000_i32
// CHECK: scf.if %[[IN]] {
// CHECK: %[[A:.*]] = memref.load %[[KEYS]]
// CHECK: %[[B:.*]] = memref.load %[[KEYS]]
// CHECK: %[[QA:.*]] = memref.load %[[POS]]
// CHECK: %[[QB:.*]] = memref.load %[[POS]]
// CHECK: arith.cmpf ogt, %[[B]], %[[A]] : f32
// CHECK: arith.cmpf uno, %[[B]], %[[B]] : f32
// CHECK: arith.cmpi ult, %[[QB]], %[[QA]] : i32
// CHECK: scf.if
// CHECK: memref.store %[[B]], %[[KEYS]]
// CHECK: memref.store %[[A]], %[[KEYS]]
// CHECK: memref.store %[[QB]], %[[POS]]
// CHECK: memref.store %[[QA]], %[[POS]]
// CHECK: memref.load %[[IDX]]
// CHECK: gpu.barrier
// The pass after reads the sorted row.
// CHECK: memref.load %[[KEYS]]
// CHECK: memref.load %[[IDX]]
// CHECK: gpu.return
// With block-sorts=0 a thread sorts its row alone (an insertion sort on
// the stack).
// THREAD: sort1000 = {{{.*}}block = [32, 1, 1], grid = [1, 1, 1]
// THREAD-LABEL: gpu.func @kernel_op0(
// THREAD: memref.alloca() : memref<1000xf32>
// THREAD-NOT: gpu.barrier
// THREAD: scf.while
// THREAD-NOT: gpu.barrier
// THREAD: gpu.return
// PTX-LABEL: .entry kernel_op0(
// PTX-NOT: .local
// PTX: bar.sync 0;
// PTX: setp.nan.f32
// PTX: bar.sync 0;

fusion.graph @sort1000(%x: !fusion.buffer<8x1000xf32>) -> (!fusion.buffer<8x1000xf32>, !fusion.buffer<8x1000xi64>) attributes {device = "cuda:0"} {
  %v, %ix = fusion.node "op0" (%p0, %p1) in [8] reduce [1000] writes(%o0 : !fusion.buffer<8x1000xf32>, %o1 : !fusion.buffer<8x1000xi64>) {
    %a = fusion.load %x[%p0 * 1000 + %p1] : !fusion.buffer<8x1000xf32>
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.opaque "sort"(%a, %i) {descending = true, stable = true} : (f32, i64) -> (f32, i64)
    fusion.store %s#0, %o0[%p0 * 1000 + %p1] : !fusion.buffer<8x1000xf32>
    fusion.store %s#1, %o1[%p0 * 1000 + %p1] : !fusion.buffer<8x1000xi64>
  }
  fusion.output %v, %ix : !fusion.buffer<8x1000xf32>, !fusion.buffer<8x1000xi64>
}

// -----

// Rows of 64 (i32, ascending, signed) take a group of 32 lanes each, a
// block 8 rows (13 blocks for 100 rows): row t / 32 of the block at
// (t / 32) * 64 in the shared arrays, its lane t mod 32. Rows past the
// last are clamped onto it and sort their own copy. A row's lanes lie in
// one warp: they wait for each other with bar.warp.sync, not a barrier of
// the block.
// CHECK: sort64 = {{{.*}}block = [256, 1, 1], grid = [13, 1, 1]{{.*}}shared_bytes = 4096
// CHECK-LABEL: gpu.module @sort64_kernels
// CHECK: gpu.func @kernel_op0({{.*}}) workgroup(%[[KEYS:[^:]*]] : memref<512xi32, #gpu.address_space<workgroup>>, %[[POS:[^:]*]] : memref<512xi32, #gpu.address_space<workgroup>>)
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[ROW:.*]] = arith.shrui %[[TID]], %c5_i32{{.*}} : i32
// CHECK: %[[ROWI:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[ROWI]], %c64 : index
// CHECK: %[[LANE:.*]] = arith.andi %[[TID]], %c31_i32{{.*}} : i32
// CHECK: scf.for %[[R:.*]] = %[[LANE]] to %c64_i32 step %c32_i32
// CHECK: %[[RI:.*]] = arith.index_castui %[[R]] : i32 to index
// CHECK: %[[AT:.*]] = arith.addi %[[OFFSET]], %[[RI]] : index
// CHECK: memref.store %[[R]], %[[POS]][%[[AT]]]
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.bar.warp.sync %c-1_i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %c7_i32
// CHECK: memref.load %[[KEYS]]
// CHECK: arith.cmpi slt
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.bar.warp.sync %c-1_i32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return

fusion.graph @sort64(%x: !fusion.buffer<100x64xi32>) -> (!fusion.buffer<100x64xi32>) attributes {device = "cuda:0"} {
  %v = fusion.node "op0" (%p0, %p1) in [100] reduce [64] writes(%o0 : !fusion.buffer<100x64xi32>) {
    %a = fusion.load %x[%p0 * 64 + %p1] : !fusion.buffer<100x64xi32>
    %s = fusion.opaque "sort"(%a) {descending = false, stable = true} : (i32) -> (i32)
    fusion.store %s, %o0[%p0 * 64 + %p1] : !fusion.buffer<100x64xi32>
  }
  fusion.output %v : !fusion.buffer<100x64xi32>
}

// -----

// @negative_rows_in_memory: rows of 2048 f32 with i64 positions take 24
// KiB, more than a thread's 16 KiB, so they stay in the graph's storages
// (rows in memory, docs/Lowering.md), where a thread sorts each row: no
// block sort.
// CHECK: long = {{{.*}}block = [32, 1, 1], grid = [1, 1, 1]
// CHECK-LABEL: gpu.module @long_kernels
// CHECK-NOT: gpu.barrier
// CHECK: scf.while
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return

fusion.graph @long(%x: !fusion.buffer<4x2048xf32>) -> (!fusion.buffer<4x2048xf32>, !fusion.buffer<4x2048xi64>) attributes {device = "cuda:0"} {
  %v, %ix = fusion.node "op0" (%p0, %p1) in [4] reduce [2048] writes(%o0 : !fusion.buffer<4x2048xf32>, %o1 : !fusion.buffer<4x2048xi64>) {
    %a = fusion.load %x[%p0 * 2048 + %p1] : !fusion.buffer<4x2048xf32>
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.opaque "sort"(%a, %i) {descending = false, stable = true} : (f32, i64) -> (f32, i64)
    fusion.store %s#0, %o0[%p0 * 2048 + %p1] : !fusion.buffer<4x2048xf32>
    fusion.store %s#1, %o1[%p0 * 2048 + %p1] : !fusion.buffer<4x2048xi64>
  }
  fusion.output %v, %ix : !fusion.buffer<4x2048xf32>, !fusion.buffer<4x2048xi64>
}
