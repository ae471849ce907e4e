// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="block-scans=0" | FileCheck %s --check-prefix=THREAD
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="scan-elements-per-thread=8" | FileCheck %s --check-prefix=EIGHT
// RUN: rm -rf %t.ptx && scheduler-opt %s -split-input-file --fusion-to-ptx="output-dir=%t.ptx schedule=0" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/cumsum.ptx

// Block scans (BlockScan.h): a block per row, 4 adjacent elements a thread
// per chunk (256 threads for rows of 1000). A scan whose results only feed
// the stores of the next pass computes its inputs where it reads them (one
// 16-byte vector load a thread) and stores its results where it has them:
// no scratch array and a single pass over the row. Each thread scans its
// elements, the threads' totals are scanned across the warp with shuffles
// up, the warps' totals through shared memory and a barrier and a second
// warp scan, whose lanes each warp then reads (shuffles by index).
// CHECK: cumsum = {{{.*}}block = [256, 1, 1], grid = [8, 1, 1]
// CHECK-LABEL: gpu.module @cumsum_kernels
// CHECK: gpu.func @kernel_op0(%[[X:[^:]*]]: memref<8000xf32> {fusion.name = "x", llvm.noalias}, %[[OUT:[^:]*]]: memref<8000xf32> {fusion.name = "sum", llvm.noalias}) workgroup({{.*}}, %[[TOTALS:[^:]*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.store
// CHECK: scf.for %{{.*}} iter_args(%[[CARRY:[^ ]*]] = %{{.*}}, %[[HAS:[^ ]*]] = %false) -> (f32, i1)
// CHECK: %[[V:.*]] = vector.load %[[X]]
// CHECK: %[[E0:.*]] = vector.extract %[[V]][0]
// CHECK: %[[E1:.*]] = vector.extract %[[V]][1]
// CHECK: %[[S1:.*]] = arith.addf %[[E0]], %[[E1]] : f32
// CHECK: gpu.shuffle  up
// CHECK-COUNT-4: gpu.shuffle  up
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[TOTALS]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[TOTALS]]
// CHECK-COUNT-5: gpu.shuffle  up
// CHECK: gpu.shuffle  idx
// CHECK: gpu.shuffle  idx
// The carry comes first, then the warps before, then the lanes before.
// CHECK: arith.addf %[[CARRY]], %{{.*}} : f32
// CHECK: %[[ALL:.*]] = vector.from_elements
// CHECK: vector.store %[[ALL]], %[[OUT]]
// CHECK: gpu.barrier
// CHECK: scf.yield %{{.*}}, %true : f32, i1
// CHECK-NOT: scf.for
// CHECK: gpu.return
// One thread per row (block-scans=0): rows scanned element by element in
// each thread's stack array.
// THREAD: cumsum = {{{.*}}block = [32, 1, 1], grid = [1, 1, 1]
// THREAD-LABEL: gpu.module @cumsum_kernels
// THREAD: memref.alloca() : memref<1000xf32>
// THREAD-NOT: gpu.shuffle
// THREAD: gpu.return
// Eight elements a thread: 128 threads.
// EIGHT: cumsum = {{{.*}}block = [128, 1, 1], grid = [8, 1, 1]
// In the PTX, shuffles and shared memory, nothing in local memory.
// PTX-LABEL: .entry kernel_op0(
// PTX-NOT: __local_depot
// PTX: ld.global.nc.v4
// PTX: shfl.sync.up.b32
// PTX: bar.sync
// PTX: shfl.sync.idx.b32
// PTX: st.global
fusion.graph @cumsum(%x: !fusion.buffer<8x1000xf32>) -> (!fusion.buffer<8x1000xf32>) attributes {device = "cuda:0"} {
  %sum = fusion.node "op0" (%p0, %p1) in [8] reduce [1000] writes(%o0 : !fusion.buffer<8x1000xf32>) {
    %a = fusion.load %x[%p0 * 1000 + %p1] : !fusion.buffer<8x1000xf32>
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %s, %o0[%p0 * 1000 + %p1] : !fusion.buffer<8x1000xf32>
  }
  fusion.output %sum : !fusion.buffer<8x1000xf32>
}

// -----

// Two scans of a row (a cummax with its positions, a cumsum) and rows of
// 512 (16 bytes an element: 8 KiB, under the 16 KiB that stays on chip):
// the first pass writes the scans' inputs into scratch arrays in shared
// memory, each scan runs on them in place between barriers (the warps'
// totals of a tuple: one array per value), and the next pass reads each
// element's results back. Several lanes store their rows' elements: the
// arrays hold one row each, contiguous.
// CHECK: cummax_cumsum = {{{.*}}block = [128, 1, 1], grid = [8, 1, 1]
// CHECK-LABEL: gpu.module @cummax_cumsum_kernels
// CHECK: gpu.func @kernel_op0(%{{[^:]*}}: memref<4096xf32> {fusion.name = "x", llvm.noalias}, %[[POS:[^:]*]]: memref<4096xi64> {fusion.name = "pos", llvm.noalias}, %[[SUM:[^:]*]]: memref<4096xf32> {fusion.name = "sum", llvm.noalias}) workgroup(%[[KEYS:[^:]*]] : memref<512xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[IDX:[^:]*]] : memref<512xi64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[SUMS:[^:]*]] : memref<512xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[KT:[^:]*]] : memref<4xf32, #gpu.address_space<workgroup>>, %[[IT:[^:]*]] : memref<4xi64, #gpu.address_space<workgroup>>, %[[ST:[^:]*]] : memref<4xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for
// CHECK: vector.load
// CHECK: memref.store %{{.*}}, %[[KEYS]]
// CHECK: memref.store %{{.*}}, %[[IDX]]
// CHECK: memref.store %{{.*}}, %[[SUMS]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.load %[[KEYS]]
// CHECK: memref.load %[[IDX]]
// CHECK: gpu.shuffle  up %{{.*}} : f32
// i64 positions travel as two 32-bit halves.
// CHECK: gpu.shuffle  up %{{.*}} : i32
// CHECK: gpu.shuffle  up %{{.*}} : i32
// CHECK: memref.store %{{.*}}, %[[KT]]
// CHECK: memref.store %{{.*}}, %[[IT]]
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[KEYS]]
// CHECK: memref.store %{{.*}}, %[[IDX]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.load %[[SUMS]]
// CHECK: memref.store %{{.*}}, %[[ST]]
// CHECK: memref.store %{{.*}}, %[[SUMS]]
// CHECK: gpu.barrier
// The next pass.
// CHECK: scf.for
// CHECK: memref.load %[[IDX]]
// CHECK: memref.load %[[SUMS]]
// A group of 4 i64 positions (32 bytes) stores as two 16-byte vectors,
// aligned as the group is.
// CHECK-NOT: memref.store %{{.*}}, %[[POS]]
// CHECK: vector.store %{{.*}}, %[[POS]][%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<4096xi64>, vector<2xi64>
// CHECK-NEXT: vector.store %{{.*}}, %[[POS]][%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<4096xi64>, vector<2xi64>
// CHECK: vector.store %{{.*}}, %[[SUM]]{{.*}} : memref<4096xf32>, vector<4xf32>
// CHECK: gpu.return

fusion.graph @cummax_cumsum(%x: !fusion.buffer<8x512xf32>) -> (!fusion.buffer<8x512xi64>, !fusion.buffer<8x512xf32>) attributes {device = "cuda:0"} {
  %pos, %sum = fusion.node "op0" (%p0, %p1) in [8] reduce [512] writes(%o0 : !fusion.buffer<8x512xi64>, %o1 : !fusion.buffer<8x512xf32>) {
    %a = fusion.load %x[%p0 * 512 + %p1] : !fusion.buffer<8x512xf32>
    %i = fusion.index_expr [%p1] : i64
    %m:2 = fusion.scan "scan1"(%a, %i) : (f32, i64) -> (f32, i64) combine {
    ^bb0(%av: f32, %ai: i64, %bv: f32, %bi: i64):
      %gt = arith.cmpf ogt, %av, %bv : f32
      %v = arith.select %gt, %av, %bv : f32
      %k = arith.select %gt, %ai, %bi : i64
      fusion.scan_yield %v, %k : f32, i64
    }
    %s = fusion.scan "scan2"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %m#1, %o0[%p0 * 512 + %p1] : !fusion.buffer<8x512xi64>
    fusion.store %s, %o1[%p0 * 512 + %p1] : !fusion.buffer<8x512xf32>
  }
  fusion.output %pos, %sum : !fusion.buffer<8x512xi64>, !fusion.buffer<8x512xf32>
}

// -----

// Rows of 16: a group of 4 lanes each (4 elements a lane), 64 rows a
// block of 256 threads, the last block's rows past the 1000th on a copy of
// the last row (clamped), storing nothing. The lanes' totals are scanned
// with shuffles up by 1 and 2 over the whole warp, each taken only where the
// lane's index in its row's group is at least the distance; the lanes
// before come from a shuffle up by 1 (none for the group's first lane), the
// row's total from its group's last lane (a shuffle by index): no shared
// memory exchange.
// CHECK: short_rows = {{{.*}}block = [256, 1, 1], grid = [16, 1, 1]
// CHECK-LABEL: gpu.module @short_rows_kernels
// CHECK: %[[TID:.*]] = arith.index_castui %thread_id_x : index to i32
// CHECK: %[[FIRST:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// CHECK: %[[ROW:.*]] = arith.shrui %[[TID]], %c2_i32 : i32
// CHECK: %[[X:.*]] = arith.addi %[[FIRST]], %[[ROW]] : i32
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %[[X]], %c1000_i32 : i32
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[X]], %c999_i32 : i32
// CHECK: %[[T:.*]] = arith.index_castui %[[TID]] : i32 to index
// CHECK: %[[LANE:.*]] = arith.remui %[[T]], %c4 : index
// CHECK: %[[WARPLANE:.*]] = arith.remui %[[T]], %c32 : index
// CHECK: %[[GROUP:.*]] = arith.subi %[[WARPLANE]], %[[LANE]] : index
// CHECK: %[[LAST:.*]] = arith.addi %[[GROUP]], %c3 : index
// CHECK: scf.for
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c16_i32
// CHECK: arith.muli %[[CLAMPED]], %c16_i32{{.*}} : i32
// CHECK: vector.load
// CHECK: gpu.shuffle  up %{{.*}}, %c1_i32
// CHECK: arith.cmpi uge, %[[LANE]], %c1
// CHECK: gpu.shuffle  up %{{.*}}, %c2_i32
// CHECK: arith.cmpi uge, %[[LANE]], %c2
// CHECK-NOT: gpu.shuffle  up %{{.*}}, %c4_i32
// CHECK: %[[BEFORE:.*]], %{{.*}} = gpu.shuffle  up %{{.*}}, %c1_i32
// CHECK: arith.cmpi ne, %[[LANE]], %c0
// CHECK-NEXT: %[[SRC:.*]] = arith.index_castui %[[LAST]] : index to i32
// CHECK: gpu.shuffle  idx %{{.*}}, %[[SRC]], %c32_i32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[STORE:.*]] = arith.andi %[[IN]], %[[VALID]] : i1
// CHECK: scf.if %[[STORE]] {
// CHECK-NEXT: vector.store
// CHECK-NOT: memref.store
// CHECK: gpu.return
fusion.graph @short_rows(%x: !fusion.buffer<1000x16xf32>) -> (!fusion.buffer<1000x16xf32>) attributes {device = "cuda:0"} {
  %sum = fusion.node "op0" (%p0, %p1) in [1000] reduce [16] writes(%o0 : !fusion.buffer<1000x16xf32>) {
    %a = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<1000x16xf32>
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %s, %o0[%p0 * 16 + %p1] : !fusion.buffer<1000x16xf32>
  }
  fusion.output %sum : !fusion.buffer<1000x16xf32>
}

// -----

// The scratch form on rows of 64 (16 lanes each, 8 rows a block): the
// block's rows lie one after another in the shared arrays, row (tid / 16)
// at (tid / 16) * 64; each scan of the tuple shuffles up by 1, 2, 4 and 8
// (the i64 positions as two halves), never by 16.
// CHECK: short_tuple = {{{.*}}block = [128, 1, 1], grid = [1, 1, 1]
// CHECK-LABEL: gpu.module @short_tuple_kernels
// CHECK: workgroup(%[[KEYS:[^:]*]] : memref<512xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[IDX:[^:]*]] : memref<512xi64, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[SUMS:[^:]*]] : memref<512xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[TID:.*]] = arith.index_castui %thread_id_x : index to i32
// CHECK: arith.shrui %[[TID]], %c4_i32{{.*}} : i32
// CHECK: %[[ROW:.*]] = arith.shrui %[[TID]], %c4_i32{{.*}} : i32
// CHECK: %[[ROWI:.*]] = arith.index_castui %[[ROW]] : i32 to index
// CHECK: %[[OFFSET:.*]] = arith.muli %[[ROWI]], %c64 : index
// CHECK: %[[AT:.*]] = arith.addi %[[OFFSET]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[KEYS]][%[[AT]]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.load %[[KEYS]]
// CHECK: memref.load %[[IDX]]
// CHECK: gpu.shuffle  up %{{.*}}, %c1_i32{{.*}} : f32
// CHECK: gpu.shuffle  up %{{.*}}, %c2_i32{{.*}} : f32
// CHECK: gpu.shuffle  up %{{.*}}, %c4_i32{{.*}} : f32
// CHECK: gpu.shuffle  up %{{.*}}, %c8_i32{{.*}} : f32
// CHECK-NOT: %c16_i32
// CHECK: gpu.shuffle  idx
// CHECK: memref.store %{{.*}}, %[[KEYS]]
// CHECK: memref.store %{{.*}}, %[[IDX]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SUMS]]
// CHECK: memref.store %{{.*}}, %[[SUMS]]
// CHECK: gpu.barrier
// CHECK: gpu.return
fusion.graph @short_tuple(%x: !fusion.buffer<8x64xf32>) -> (!fusion.buffer<8x64xi64>, !fusion.buffer<8x64xf32>) attributes {device = "cuda:0"} {
  %pos, %sum = fusion.node "op0" (%p0, %p1) in [8] reduce [64] writes(%o0 : !fusion.buffer<8x64xi64>, %o1 : !fusion.buffer<8x64xf32>) {
    %a = fusion.load %x[%p0 * 64 + %p1] : !fusion.buffer<8x64xf32>
    %i = fusion.index_expr [%p1] : i64
    %m:2 = fusion.scan "scan1"(%a, %i) : (f32, i64) -> (f32, i64) combine {
    ^bb0(%av: f32, %ai: i64, %bv: f32, %bi: i64):
      %gt = arith.cmpf ogt, %av, %bv : f32
      %v = arith.select %gt, %av, %bv : f32
      %k = arith.select %gt, %ai, %bi : i64
      fusion.scan_yield %v, %k : f32, i64
    }
    %s = fusion.scan "scan2"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %m#1, %o0[%p0 * 64 + %p1] : !fusion.buffer<8x64xi64>
    fusion.store %s, %o1[%p0 * 64 + %p1] : !fusion.buffer<8x64xf32>
  }
  fusion.output %pos, %sum : !fusion.buffer<8x64xi64>, !fusion.buffer<8x64xf32>
}

// -----

// Rows of 8, shorter than lane groups take (kMinBlockScanRow): a thread
// scans each row, 256 rows a block, in a stack array.
// CHECK: negative_short_rows = {{{.*}}block = [256, 1, 1], grid = [4, 1, 1]
// CHECK-LABEL: gpu.module @negative_short_rows_kernels
// CHECK: memref.alloca() : memref<8xf32>
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
fusion.graph @negative_short_rows(%x: !fusion.buffer<1024x8xf32>) -> (!fusion.buffer<1024x8xf32>) attributes {device = "cuda:0"} {
  %sum = fusion.node "op0" (%p0, %p1) in [1024] reduce [8] writes(%o0 : !fusion.buffer<1024x8xf32>) {
    %a = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<1024x8xf32>
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %s, %o0[%p0 * 8 + %p1] : !fusion.buffer<1024x8xf32>
  }
  fusion.output %sum : !fusion.buffer<1024x8xf32>
}
