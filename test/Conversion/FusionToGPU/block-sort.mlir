// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="block-sorts=0" | FileCheck %s --check-prefix=THREAD
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="register-sort-row=128 sort-elements-per-lane=2" | FileCheck %s --check-prefix=LANES2
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
// CHECK: gpu.func @kernel_op0({{.*}}) workgroup(%[[KEYS:[^:]*]] : memref<1000xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[IDX:[^:]*]] : memref<1000xi64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[POS:[^:]*]] : memref<1000xi32, #gpu.address_space<workgroup>>)
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

// Rows of 64 (i32, ascending, signed) take a group of 8 lanes each, 8
// adjacent elements a lane (sort-elements-per-lane), a block 32 rows (4
// blocks for 100 rows): row t / 8 of the block at (t / 8) * 64 in the
// shared array, its lane t mod 8. Rows past the last are clamped onto it
// and sort their own copy. A row's lanes lie in one warp, so it sorts in
// registers (BlockSort.h): after a bar.warp.sync (the other lanes wrote
// the row), lane l loads elements 8l to 8l + 7 with their positions; the
// stages of distance 1 to 4 compare in registers (the first pair,
// elements 0 and 1, ascends at every lane; the merge of blocks of 8
// descends at odd lanes), the stages of distance 8 to 32 exchange across
// lanes by xor shuffles (1 + 2 + 3 = 6 stages, 8 elements of a value and
// a position each: 96), each lane keeping one of the pair by its side;
// no position array, no barrier of the block, one more bar.warp.sync
// after the stores. With the settings before (prefix LANES2, a lane per
// pair, at most a warp's) a row takes 32 lanes of 2 elements.
// CHECK: sort64 = {{{.*}}block = [256, 1, 1], grid = [4, 1, 1]{{.*}}shared_bytes = 8192
// CHECK-LABEL: gpu.module @sort64_kernels
// CHECK: gpu.func @kernel_op0({{.*}}) workgroup(%[[KEYS:[^:]*]] : memref<2048xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[ROW:.*]] = arith.shrui %[[TID]], %c3_i32{{.*}} : i32
// CHECK: %[[ROWI:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[ROWI]], %c64 : index
// CHECK: memref.store %{{.*}}, %[[KEYS]]
// CHECK-NOT: gpu.barrier
// CHECK: %[[LANE:.*]] = arith.andi %[[TID]], %c7_i32{{.*}} : i32
// CHECK: %[[BASE:.*]] = arith.muli %[[LANE]], %c8_i32{{.*}} : i32
// CHECK: nvvm.bar.warp.sync %c-1_i32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[P0:.*]] = arith.addi %[[BASE]], %[[C0]] : i32
// CHECK-NEXT: %[[I0:.*]] = arith.index_castui %[[P0]] : i32 to index
// CHECK-NEXT: %[[AT0:.*]] = arith.addi %[[OFFSET]], %[[I0]] : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[P1:.*]] = arith.addi %[[BASE]], %[[C1]] : i32
// CHECK: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[P4:.*]] = arith.addi %[[BASE]], %[[C4]] : i32
// CHECK-NEXT: %[[I4:.*]] = arith.index_castui %[[P4]] : i32 to index
// CHECK-NEXT: %[[AT4:.*]] = arith.addi %[[OFFSET]], %[[I4]] : index
// CHECK: %[[V0:.*]] = vector.load %[[KEYS]][%[[AT0]]] {alignment = 16 : i64} : memref<2048xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK-NEXT: %[[A:.*]] = vector.extract %[[V0]][0]
// CHECK-NEXT: %[[B:.*]] = vector.extract %[[V0]][1]
// CHECK-COUNT-2: vector.extract %[[V0]]
// CHECK-NEXT: %[[V4:.*]] = vector.load %[[KEYS]][%[[AT4]]] {alignment = 16 : i64} : memref<2048xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK-COUNT-4: vector.extract %[[V4]]
// CHECK-NEXT: %[[BA:.*]] = arith.cmpi slt, %[[B]], %[[A]] : i32
// CHECK-NEXT: %[[AB:.*]] = arith.cmpi slt, %[[A]], %[[B]] : i32
// CHECK-NEXT: %[[EARLIER:.*]] = arith.cmpi ult, %[[P1]], %[[P0]] : i32
// CHECK: %[[SWAP:.*]] = arith.ori %[[BA]], %{{.*}} : i1
// CHECK-NEXT: %[[LOWP:.*]] = arith.select %[[SWAP]], %[[P1]], %[[P0]] : i32
// CHECK-NEXT: %[[LOW:.*]] = arith.select %[[SWAP]], %[[B]], %[[A]] : i32
// CHECK-NOT: memref.load
// CHECK: %[[BLOCK8:.*]] = arith.andi %[[LANE]], %c1_i32
// CHECK-NEXT: %[[DESC8:.*]] = arith.cmpi ne, %[[BLOCK8]]
// CHECK-NOT: gpu.shuffle
// CHECK: arith.xori %{{.*}}, %[[DESC8]] : i1
// CHECK-NOT: gpu.shuffle
// CHECK: %[[BLOCK16:.*]] = arith.andi %[[LANE]], %c2_i32
// CHECK-NEXT: %[[DESC16:.*]] = arith.cmpi ne, %[[BLOCK16]]
// CHECK-NOT: gpu.shuffle
// CHECK: %[[SIDE:.*]] = arith.andi %[[LANE]], %[[OFF:.*]] : i32
// CHECK-NEXT: %[[UPPER:.*]] = arith.cmpi ne, %[[SIDE]]
// CHECK-NEXT: %[[LATER:.*]] = arith.xori %[[UPPER]], %[[DESC16]] : i1
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[OP:.*]], %{{.*}} = gpu.shuffle xor %{{.*}}, %[[OFF]], %[[C32]] : i32
// CHECK: %[[O:.*]], %{{.*}} = gpu.shuffle xor %[[X:[^,]*]], %[[OFF]], %{{.*}} : i32
// CHECK-NEXT: arith.cmpi slt, %[[O]], %[[X]] : i32
// CHECK: %[[TAKE:.*]] = arith.xori %{{.*}}, %[[LATER]] : i1
// CHECK-NEXT: arith.select %[[TAKE]], %[[OP]], %{{.*}} : i32
// CHECK-NEXT: arith.select %[[TAKE]], %[[O]], %[[X]] : i32
// CHECK-COUNT-94: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.store %{{.*}}, %[[KEYS]]
// CHECK: vector.store %{{.*}}, %[[KEYS]][%[[AT0]]] {alignment = 16 : i64} : memref<2048xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK-NEXT: vector.from_elements
// CHECK-NEXT: vector.store %{{.*}}, %[[KEYS]][%[[AT4]]] {alignment = 16 : i64} : memref<2048xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK-NEXT: %[[SYNC:.*]] = arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync %[[SYNC]]
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %[[KEYS]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// LANES2: sort64 = {{{.*}}block = [256, 1, 1], grid = [13, 1, 1]{{.*}}shared_bytes = 2048
// LANES2-LABEL: gpu.module @sort64_kernels
// LANES2: memref.store
// LANES2: %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32{{.*}} : i32
// LANES2: arith.muli %[[LANE]], %c2_i32{{.*}} : i32
// LANES2-COUNT-60: gpu.shuffle xor
// LANES2-NOT: gpu.shuffle
// LANES2-NOT: gpu.barrier
// LANES2: gpu.return

fusion.graph @sort64(%x: !fusion.buffer<100x64xi32>) -> (!fusion.buffer<100x64xi32>) attributes {device = "cuda:0"} {
  %v = fusion.node "op0" (%p0, %p1) in [100] reduce [64] writes(%o0 : !fusion.buffer<100x64xi32>) {
    %a = fusion.load %x[%p0 * 64 + %p1] : !fusion.buffer<100x64xi32>
    %s = fusion.opaque "sort"(%a) {descending = false, stable = true} : (i32) -> (i32)
    fusion.store %s, %o0[%p0 * 64 + %p1] : !fusion.buffer<100x64xi32>
  }
  fusion.output %v : !fusion.buffer<100x64xi32>
}

// -----

// Rows of 100 f32 with their i64 positions, descending, padded to 128:
// a group of 16 lanes each, 8 consecutive elements a lane (8 rows a
// block, 12 bytes an element: 9600 bytes). Past the row (positions from
// 100) lanes load the last element and those positions sort last, by
// position; stores of the elements past the row are skipped. The i64
// values are the positions (an index_expr of the reduction index): they
// are neither loaded nor exchanged, and each lane stores its sorted
// positions, extended, in their place. 10 stages across lanes (distance 8
// to 64), 8 elements of 2 shuffles each (the key and the i32 position):
// 160. With LANES2's settings, 32 lanes of 4 elements, 15 stages across
// lanes: 120 shuffles. Padded rows load and store element by element:
// the lane's e-th sorted element at the lane's e-th place (base + e), its
// own (original) position, extended, in the i64 array.
// CHECK: sort100 = {{{.*}}block = [128, 1, 1], grid = [7, 1, 1]{{.*}}shared_bytes = 9600
// CHECK-LABEL: gpu.module @sort100_kernels
// CHECK: gpu.func @kernel_op0({{.*}}) workgroup(%[[KEYS:[^:]*]] : memref<800xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[IDX:[^:]*]] : memref<800xi64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: memref.store %{{.*}}, %[[IDX]]
// CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c15_i32{{.*}} : i32
// CHECK: %[[BASE:.*]] = arith.muli %[[LANE]], %c8_i32{{.*}} : i32
// CHECK: nvvm.bar.warp.sync
// CHECK: arith.minui %{{.*}}, %c99_i32
// CHECK-NOT: memref.load %[[IDX]]
// CHECK-NOT: vector.load
// CHECK: memref.load %[[KEYS]]
// CHECK-NOT: memref.load %[[IDX]]
// CHECK: %[[LAST:.*]] = arith.maxui
// CHECK-NEXT: %[[N:.*]] = arith.constant 100 : i32
// CHECK-NEXT: %[[PAD:.*]] = arith.cmpi uge, %[[LAST]], %[[N]] : i32
// CHECK-NEXT: arith.select %[[PAD]]
// CHECK-COUNT-160: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.load %[[IDX]]
// CHECK: %[[P:.*]] = arith.addi %[[BASE]], %c0_i32{{[_0-9]*}} : i32
// CHECK-NEXT: %[[N100:.*]] = arith.constant 100 : i32
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[P]], %[[N100]] : i32
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT: %[[PX:.*]] = arith.index_castui %[[P]] : i32 to index
// CHECK-NEXT: %[[AT:.*]] = arith.addi %{{.*}}, %[[PX]] : index
// CHECK-NEXT: memref.store %{{.*}}, %[[KEYS]][%[[AT]]]
// CHECK-NOT: arith.extsi %[[P]] :
// CHECK: %[[PI:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: memref.store %[[PI]], %[[IDX]][%[[AT]]]
// CHECK: nvvm.bar.warp.sync
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// LANES2: sort100 = {{{.*}}block = [256, 1, 1], grid = [7, 1, 1]{{.*}}shared_bytes = 9600
// LANES2-LABEL: gpu.module @sort100_kernels
// LANES2: memref.store
// LANES2: %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32{{.*}} : i32
// LANES2: arith.muli %[[LANE]], %c4_i32{{.*}} : i32
// LANES2-COUNT-120: gpu.shuffle xor
// LANES2-NOT: gpu.shuffle
// LANES2-NOT: gpu.barrier
// LANES2: gpu.return

fusion.graph @sort100(%x: !fusion.buffer<50x100xf32>) -> (!fusion.buffer<50x100xf32>, !fusion.buffer<50x100xi64>) attributes {device = "cuda:0"} {
  %v, %ix = fusion.node "op0" (%p0, %p1) in [50] reduce [100] writes(%o0 : !fusion.buffer<50x100xf32>, %o1 : !fusion.buffer<50x100xi64>) {
    %a = fusion.load %x[%p0 * 100 + %p1] : !fusion.buffer<50x100xf32>
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.opaque "sort"(%a, %i) {descending = true, stable = true} : (f32, i64) -> (f32, i64)
    fusion.store %s#0, %o0[%p0 * 100 + %p1] : !fusion.buffer<50x100xf32>
    fusion.store %s#1, %o1[%p0 * 100 + %p1] : !fusion.buffer<50x100xi64>
  }
  fusion.output %v, %ix : !fusion.buffer<50x100xf32>, !fusion.buffer<50x100xi64>
}

// -----

// Rows of 512 f32 with their i64 positions, descending: up to
// register-sort-row (512) elements a row takes a warp's 32 lanes, 16
// adjacent elements a lane, and sorts in registers, 2 rows a block (their
// shared arrays within half of 48 KiB). A lane loads its keys as 4
// vectors of 4 (16 bytes, the arrays aligned to 16) and not the i64
// positions; 15 stages across lanes (distance 16 to 256), 16 elements of
// 2 shuffles each: 480; the keys go back as 4 vectors and the extended
// positions as 8 vectors of 2; no barrier of the block. With LANES2's settings (register-sort-row=128) a block of 256
// lanes sorts each row in shared memory, a barrier after each stage.
// CHECK: sort512 = {{{.*}}block = [64, 1, 1], grid = [8, 1, 1]{{.*}}shared_bytes = 12288
// CHECK-LABEL: gpu.module @sort512_kernels
// CHECK: gpu.func @kernel_op0({{.*}}) workgroup(%[[KEYS:[^:]*]] : memref<1024xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[IDX:[^:]*]] : memref<1024xi64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[IDX]]
// CHECK-NOT: gpu.barrier
// CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32{{.*}} : i32
// CHECK: arith.muli %[[LANE]], %c16_i32{{.*}} : i32
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.load %[[KEYS]]{{.*}} {alignment = 16 : i64} : memref<1024xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NOT: memref.load
// CHECK-NOT: vector.load
// CHECK-COUNT-480: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: vector.store %{{.*}}, %[[KEYS]]{{.*}} {alignment = 16 : i64} : memref<1024xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: %[[Q:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[Q2:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[QV:.*]] = vector.from_elements %[[Q]], %[[Q2]] : vector<2xi64>
// CHECK-NEXT: vector.store %[[QV]], %[[IDX]]{{.*}} {alignment = 16 : i64} : memref<1024xi64, #gpu.address_space<workgroup>>, vector<2xi64>
// CHECK-COUNT-7: vector.store %{{.*}}, %[[IDX]]
// CHECK-NEXT: arith.constant -1
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// LANES2: sort512 = {{{.*}}block = [256, 1, 1], grid = [16, 1, 1]{{.*}}shared_bytes = 8192
// LANES2-LABEL: gpu.module @sort512_kernels
// LANES2-NOT: gpu.shuffle
// LANES2: gpu.barrier
// LANES2-NOT: gpu.shuffle
// LANES2: gpu.return

fusion.graph @sort512(%x: !fusion.buffer<16x512xf32>) -> (!fusion.buffer<16x512xf32>, !fusion.buffer<16x512xi64>) attributes {device = "cuda:0"} {
  %v, %ix = fusion.node "op0" (%p0, %p1) in [16] reduce [512] writes(%o0 : !fusion.buffer<16x512xf32>, %o1 : !fusion.buffer<16x512xi64>) {
    %a = fusion.load %x[%p0 * 512 + %p1] : !fusion.buffer<16x512xf32>
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.opaque "sort"(%a, %i) {descending = true, stable = true} : (f32, i64) -> (f32, i64)
    fusion.store %s#0, %o0[%p0 * 512 + %p1] : !fusion.buffer<16x512xf32>
    fusion.store %s#1, %o1[%p0 * 512 + %p1] : !fusion.buffer<16x512xi64>
  }
  fusion.output %v, %ix : !fusion.buffer<16x512xf32>, !fusion.buffer<16x512xi64>
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
