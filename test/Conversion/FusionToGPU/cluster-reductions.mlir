// Split reductions on thread block clusters (sm_90): a split of at most
// reduction-cluster blocks (default 8, the portable cluster size) puts each
// row's blocks on one cluster (known_cluster_size, the launch's `clusters`
// and the manifest's `cluster`). Every block arrives (relaxed) at the
// cluster barrier when it starts; after reducing its lanes it waits there
// (so that the first block runs), its first thread stores the block's
// partials into slot `part` of the first block's shared memory (mapa to
// the first rank, a store through a shared::cluster pointer), and a second
// cluster barrier (release, then acquire) publishes them; the first block
// merges the row's partials in a fixed order (lane l takes partial
// l mod split, then a butterfly) and makes the per-row stores. Which rows
// split is the rule of split-reductions.mlir; a split of more blocks than
// reduction-cluster, or reduction-cluster=0, goes through global memory.
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="reduction-cluster=4" | FileCheck %s --check-prefix=GLOBAL
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="reduction-cluster=0" | FileCheck %s --check-prefix=GLOBAL
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="reduction-split=4" | FileCheck %s --check-prefix=FOUR
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="reduction-cluster=0 kernel-configs=kernel_op0:reduction-split=2,reduction-cluster=2" | FileCheck %s --check-prefix=CONFIG
// A cluster size that is not a power of two up to 8 is an error.
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="reduction-cluster=3" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="reduction-cluster=16" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="kernel-configs=kernel_op0:reduction-cluster=3" 2>&1 | FileCheck %s --check-prefix=BADCONFIG

// BAD: error: convert-fusion-to-gpu: block sizes must be multiples of 32 {{.*}} the cluster (at most 8) powers of two
// BADCONFIG: error: convert-fusion-to-gpu: kernel-configs of 'kernel_op0': {{.*}} the cluster (at most 8) powers of two

// One row of 4096 of three inputs (48 KiB, 42 KiB of it read elsewhere
// when split) on 132 SMs: 8 blocks of 64 threads, one cluster (the global
// rule would take 8 too: 4096 / 16 is not above 256).
// CHECK: one_row = {{{.*}}steps = [{args = ["a", "b", "c", "buf0"], block = [64, 1, 1], cluster = [8, 1, 1], grid = [8, 1, 1]
// CHECK-LABEL: gpu.module @one_row_kernels
// CHECK-NOT: memref.global
// CHECK: llvm.mlir.global internal @[[SLOTS:kernel_op0_cluster0_partial0]]() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<8 x f32>
// CHECK: gpu.func @kernel_op0({{.*}}) workgroup({{.*}}) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_cluster_size = array<i32: 8, 1, 1>}
// CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
// CHECK: %[[TID:.*]] = arith.index_castui %thread_id_x
// CHECK: %[[BID:.*]] = arith.index_castui %block_id_x
// CHECK: %[[ROW:.*]] = arith.shrui %[[BID]], %c3_i32
// CHECK: %[[PART:.*]] = arith.andi %[[BID]], %c7_i32
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[TID]], %c0_i32
// CHECK: gpu.barrier
// CHECK: %[[PARTIAL:.*]] = arith.addf
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: scf.if
// CHECK: %[[LOCAL:.*]] = llvm.mlir.addressof @[[SLOTS]] : !llvm.ptr<3>
// CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[LOCAL]], %c0_i32{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[REMOTE]][%[[PART]]] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, f32
// CHECK-NEXT: llvm.store %[[PARTIAL]], %[[AT]] : f32, !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[PART]], %c0_i32
// CHECK: %[[SUM:.*]] = scf.if %[[FIRST]] -> (f32) {
// CHECK: %[[WHICH:.*]] = arith.andi %[[TID]], %c7_i32
// CHECK-NEXT: %[[MINE:.*]] = llvm.mlir.addressof @[[SLOTS]] : !llvm.ptr<3>
// CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[MINE]][%[[WHICH]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %[[SLOT]] : !llvm.ptr<3> -> f32
// CHECK-COUNT-3: gpu.shuffle  xor
// CHECK: } else {
// CHECK: %[[STORES:.*]] = arith.andi %[[LEADER]], %[[FIRST]]
// CHECK: scf.if %[[STORES]] {
// CHECK-NEXT: memref.store %[[SUM]], %arg3
// CHECK-NOT: nvvm.cluster
// CHECK: gpu.return
// CHECK: gpu.launch_func @one_row_kernels::@kernel_op0 clusters in (%c8{{.*}}, %c1{{.*}}, %c1{{.*}}) blocks in (%c8{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c64{{.*}}, %c1{{.*}}, %c1{{.*}})
// GLOBAL: one_row = {{{.*}}steps = [{args = ["a", "b", "c", "buf0"], block = [64, 1, 1], grid = [8, 1, 1]
// GLOBAL-LABEL: gpu.module @one_row_kernels
// GLOBAL: memref.global "private" @kernel_op0_split0_count
// GLOBAL-NOT: nvvm.cluster
// GLOBAL-NOT: known_cluster_size
// GLOBAL: memref.atomic_rmw
// GLOBAL-NOT: clusters in
// GLOBAL: gpu.launch_func
fusion.graph @one_row(%a: !fusion.buffer<1x4096xf32>, %b: !fusion.buffer<1x4096xf32>, %c: !fusion.buffer<1x4096xf32>) -> (!fusion.buffer<1xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [1] reduce [4096] writes(%out : !fusion.buffer<1xf32>) {
    %0 = fusion.load %a[%p0 * 4096 + %p1] : !fusion.buffer<1x4096xf32>
    %1 = fusion.load %b[%p0 * 4096 + %p1] : !fusion.buffer<1x4096xf32>
    %2 = fusion.load %c[%p0 * 4096 + %p1] : !fusion.buffer<1x4096xf32>
    %3 = arith.addf %0, %1 : f32
    %4 = arith.mulf %3, %2 : f32
    %5 = fusion.reduce sum %4 : f32 -> f32
    fusion.store %5, %out[%p0] : !fusion.buffer<1xf32>
  }
  fusion.output %buf0 : !fusion.buffer<1xf32>
}

// -----

// @add_sum: 64 rows of 4096 of two inputs stay one block a row, clusters or
// not (on an H100 clusters of 2 ran 2.43 to 2.52 us against 1.98 to 2.12).
// CHECK: add_sum = {{{.*}}steps = [{args = ["a", "b", "buf0"], block = [512, 1, 1], grid = [64, 1, 1]
// CHECK-LABEL: gpu.module @add_sum_kernels
// CHECK-NOT: nvvm.cluster
// CHECK: gpu.return
// A fixed split of 4 blocks takes clusters of 4.
// FOUR: add_sum = {{{.*}}steps = [{args = ["a", "b", "buf0"], block = [128, 1, 1], cluster = [4, 1, 1], grid = [256, 1, 1]
// FOUR: known_cluster_size = array<i32: 4, 1, 1>
// A kernel's own settings: 2 blocks a row on clusters while the module's
// clusters are off.
// CONFIG: add_sum = {{{.*}}steps = [{args = ["a", "b", "buf0"], block = [256, 1, 1], cluster = [2, 1, 1], grid = [128, 1, 1]
// CONFIG: llvm.mlir.global internal @kernel_op0_cluster0_partial0() {{.*}} : !llvm.array<2 x f32>
fusion.graph @add_sum(%a: !fusion.buffer<64x4096xf32>, %b: !fusion.buffer<64x4096xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
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

// Every reduction kind at once: one slot array per accumulator value
// (Welford's mean, m2 and weight, folded element by element; argmax's
// value and 64-bit position; booleans as bytes), one exchange.
// FOUR: kinds = {{{.*}}steps = [{args = ["x", "buf0", "buf1", "buf2", "buf3"], block = [512, 1, 1], cluster = [4, 1, 1], grid = [12, 1, 1]
// FOUR-LABEL: gpu.module @kinds_kernels
// FOUR-NOT: memref.global
// FOUR: llvm.mlir.global internal @kernel_op0_cluster0_partial0() {{.*}} : !llvm.array<4 x f32>
// FOUR: llvm.mlir.global internal @kernel_op0_cluster0_partial1() {{.*}} : !llvm.array<4 x f32>
// FOUR: llvm.mlir.global internal @kernel_op0_cluster0_partial2() {{.*}} : !llvm.array<4 x f32>
// FOUR: llvm.mlir.global internal @kernel_op0_cluster0_partial3() {{.*}} : !llvm.array<4 x f32>
// FOUR: llvm.mlir.global internal @kernel_op0_cluster0_partial4() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<4 x i64>
// FOUR: llvm.mlir.global internal @kernel_op0_cluster0_partial5() {addr_space = 3 : i32, alignment = 1 : i64} : !llvm.array<4 x i8>
// FOUR-NOT: llvm.mlir.global
// FOUR: nvvm.cluster.arrive.relaxed
// FOUR-COUNT-6: nvvm.mapa
// FOUR-NOT: nvvm.mapa
// FOUR: nvvm.cluster.arrive {aligned}
// FOUR: scf.if %{{.*}} -> (f32, f32, f32, f32, i64, i1)
// FOUR: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
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
