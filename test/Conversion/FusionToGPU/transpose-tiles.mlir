// Pointwise kernels that change layout take 2-D tiles through shared
// memory (TransposeTiles.h), as Triton's ynumel x xnumel kernels do.
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s --split-input-file --convert-fusion-to-gpu="transpose-tiles=0" | FileCheck %s --check-prefix=OFF

// A convolution weight copied into channels-last (resnet18's op12 at 64
// channels): loads W[576 o + 9 i + k] are contiguous in x = 576 o + 9 i + k,
// stores out[576 o + i + 64 k] step by 64. The smallest step of x after
// which the store moves by one is 9 (i to i + 1): the kernel is 4096 rows
// of 9 columns (Inductor's ynumel = 4096, xnumel = 9). A block takes 128
// rows of 9 with 288 threads, four elements each (positions t, t + 288,
// t + 576, t + 864 of the tile): phase 1 reads them row by row (1152
// contiguous floats, the four loads before the first store) into shared
// memory, pitch 9 (odd: a column read hits 32 banks); after the barrier
// each thread takes, per iteration, row p mod 128 and column p / 128, so
// that a warp stores 32 adjacent floats.
// CHECK: steps = [{args = ["w", "buf12"], block = [288, 1, 1], grid = [32, 1, 1], kind = "kernel", name = "kernel_op12", node = "op12", shared_bytes = 4608 : i64}]
// CHECK-LABEL: gpu.func @kernel_op12
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<1152xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 288, 1, 1>
// CHECK: %[[TID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[BID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[FIRST:.*]] = arith.muli %[[BID]], %c128_i32{{[_0-9]*}}
// CHECK: %[[P1:.*]] = arith.addi %{{.*}}, %[[TID]]
// CHECK: %[[R1:.*]] = arith.divui %[[P1]], %c9_i32{{[_0-9]*}}
// CHECK: %[[C1:.*]] = arith.remui %[[P1]], %c9_i32{{[_0-9]*}}
// CHECK: %[[ROW1:.*]] = arith.addi %[[FIRST]], %[[R1]]
// CHECK: %[[X1R:.*]] = arith.muli %[[ROW1]], %c9_i32{{[_0-9]*}}
// CHECK: %[[X1:.*]] = arith.addi %[[X1R]], %[[C1]]
// CHECK: %[[S1R:.*]] = arith.muli %[[R1]], %c9_i32{{[_0-9]*}}
// CHECK: %[[S1:.*]] = arith.addi %[[S1R]], %[[C1]]
// CHECK: %[[SLOT1:.*]] = arith.index_castui %[[S1]]
// CHECK: %[[AT:.*]] = arith.index_cast %[[X1]]
// CHECK: %[[V:.*]] = memref.load %arg0[%[[AT]]]
// CHECK-COUNT-3: memref.load %arg0
// CHECK-NOT: memref.store
// CHECK: memref.store %[[V]], %[[SMEM]][%[[SLOT1]]]
// CHECK-COUNT-3: memref.store %{{.*}}, %[[SMEM]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c4_i32{{[_0-9]*}}
// CHECK: %[[P2R:.*]] = arith.muli %[[K]], %c288_i32{{[_0-9]*}}
// CHECK: %[[P2:.*]] = arith.addi %[[P2R]], %[[TID]]
// CHECK: %[[C2:.*]] = arith.divui %[[P2]], %c128_i32{{[_0-9]*}}
// CHECK: %[[R2:.*]] = arith.remui %[[P2]], %c128_i32{{[_0-9]*}}
// CHECK: %[[ROW2:.*]] = arith.addi %[[FIRST]], %[[R2]]
// CHECK: %[[S2R:.*]] = arith.muli %[[R2]], %c9_i32{{[_0-9]*}}
// CHECK: %[[S2:.*]] = arith.addi %[[S2R]], %[[C2]]
// CHECK: %[[SLOT2:.*]] = arith.index_castui %[[S2]]
// CHECK: %[[T:.*]] = memref.load %[[SMEM]][%[[SLOT2]]]
// CHECK-NOT: memref.load %arg0
// CHECK: memref.store %[[T]], %arg1
// CHECK-NOT: scf.if
// CHECK: gpu.return
// OFF: block = [256, 1, 1], grid = [36, 1, 1]
// OFF-LABEL: gpu.func @kernel_op12
// OFF-NOT: gpu.barrier
// OFF: gpu.return
fusion.graph @weights(%w: !fusion.buffer<64x64x3x3xf32>) -> (!fusion.buffer<64x64x3x3xf32, strides = [576, 1, 192, 64]>) attributes {device = "cuda:0"} {
  %buf12 = fusion.node "op12" (%p0, %p1, %p2, %p3) in [64, 64, 3, 3] writes(%out : !fusion.buffer<64x64x3x3xf32, strides = [576, 1, 192, 64]>) {
    %0 = fusion.load %w[%p0 * 576 + %p1 * 9 + %p2 * 3 + %p3] : !fusion.buffer<64x64x3x3xf32>
    fusion.store %0, %out[%p0 * 576 + %p1 + %p2 * 192 + %p3 * 64] : !fusion.buffer<64x64x3x3xf32, strides = [576, 1, 192, 64]>
  }
  fusion.output %buf12 : !fusion.buffer<64x64x3x3xf32, strides = [576, 1, 192, 64]>
}

// -----

// The other way round: stores contiguous in x, the load transposed (a
// permute made contiguous). 96 rows of 256 columns, tiles of 32 x 32 (8
// tiles across, 3 down: 24 blocks of 256 threads, four elements each),
// pitch 33. Phase 1 reads down the columns (position p = column * 32 +
// row), phase 2 computes along the rows.
// CHECK: block = [256, 1, 1], grid = [24, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0", shared_bytes = 4224 : i64
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK-SAME: workgroup(%[[SMEM:.*]] : memref<1056xf32, #gpu.address_space<workgroup>>)
// CHECK: arith.index_castui %{{.*}} : index to i32
// CHECK: %[[BID:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[TR:.*]] = arith.divui %[[BID]], %c8_i32{{[_0-9]*}}
// CHECK: %[[FIRSTROW:.*]] = arith.muli %[[TR]], %c32_i32{{[_0-9]*}}
// CHECK: %[[TC:.*]] = arith.remui %[[BID]], %c8_i32{{[_0-9]*}}
// CHECK: %[[FIRSTCOL:.*]] = arith.muli %[[TC]], %c32_i32{{[_0-9]*}}
// CHECK: %[[C1:.*]] = arith.divui %{{.*}}, %c32_i32{{[_0-9]*}}
// CHECK: %[[R1:.*]] = arith.remui %{{.*}}, %c32_i32{{[_0-9]*}}
// CHECK: arith.addi %[[FIRSTROW]], %[[R1]]
// CHECK: arith.addi %[[FIRSTCOL]], %[[C1]]
// CHECK: %[[S1R:.*]] = arith.muli %[[R1]], %c33_i32{{[_0-9]*}}
// CHECK: arith.addi %[[S1R]], %[[C1]]
// CHECK-COUNT-4: memref.load %arg0
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SMEM]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: %[[R2:.*]] = arith.divui %{{.*}}, %c32_i32{{[_0-9]*}}
// CHECK: %[[C2:.*]] = arith.remui %{{.*}}, %c32_i32{{[_0-9]*}}
// CHECK: %[[S2R:.*]] = arith.muli %[[R2]], %c33_i32{{[_0-9]*}}
// CHECK: arith.addi %[[S2R]], %[[C2]]
// CHECK: memref.load %[[SMEM]]
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: gpu.return
fusion.graph @permute(%a: !fusion.buffer<256x96xf32>) -> (!fusion.buffer<96x256xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [96, 256] writes(%out : !fusion.buffer<96x256xf32>) {
    %0 = fusion.load %a[%p1 * 96 + %p0] : !fusion.buffer<256x96xf32>
    fusion.store %0, %out[%p0 * 256 + %p1] : !fusion.buffer<96x256xf32>
  }
  fusion.output %buf0 : !fusion.buffer<96x256xf32>
}

// -----

// Partial tiles (100 rows of 37 columns: 4 tiles down, 2 across, the last
// ones partial): both phases clamp the element into the kernel, so that
// phase 1 reads in bounds what phase 2 then reads back, and only the
// stores of elements inside it run. %r, contiguous in the order the kernel
// computes in (down the columns), is read directly; %a goes through shared
// memory. Values of two types take a tile each (f32 and f64).
// CHECK: block = [256, 1, 1], grid = [8, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0", shared_bytes = 12672 : i64
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK-SAME: workgroup(%[[SA:.*]] : memref<1056xf32, #gpu.address_space<workgroup>>, %[[SD:.*]] : memref<1056xf64, #gpu.address_space<workgroup>>)
// CHECK: arith.minui %{{.*}}, %c99_i32{{[_0-9]*}}
// CHECK: arith.minui %{{.*}}, %c36_i32{{[_0-9]*}}
// CHECK-COUNT-4: memref.load %arg0
// CHECK-COUNT-4: memref.load %arg1
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SA]]
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SD]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: %[[IN1:.*]] = arith.cmpi ult, %{{.*}}, %c100_i32{{[_0-9]*}}
// CHECK: arith.minui %{{.*}}, %c99_i32{{[_0-9]*}}
// CHECK: %[[IN2:.*]] = arith.cmpi ult, %{{.*}}, %c37_i32{{[_0-9]*}}
// CHECK: %[[VALID:.*]] = arith.andi %[[IN1]], %[[IN2]]
// CHECK: arith.minui %{{.*}}, %c36_i32{{[_0-9]*}}
// CHECK: memref.load %[[SA]]
// CHECK: memref.load %[[SD]]
// CHECK: memref.load %arg2
// CHECK: scf.if %[[VALID]]
// CHECK-NEXT: memref.store %{{.*}}, %arg3
// CHECK: gpu.return
fusion.graph @partial(%a: !fusion.buffer<100x37xf32>, %d: !fusion.buffer<100x37xf64>, %r: !fusion.buffer<37x100xf32>) -> (!fusion.buffer<37x100xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [100, 37] writes(%out : !fusion.buffer<37x100xf32>) {
    %0 = fusion.load %a[%p0 * 37 + %p1] : !fusion.buffer<100x37xf32>
    %1 = fusion.load %d[%p0 * 37 + %p1] : !fusion.buffer<100x37xf64>
    %2 = fusion.load %r[%p1 * 100 + %p0] : !fusion.buffer<37x100xf32>
    %3 = arith.truncf %1 : f64 to f32
    %4 = arith.addf %0, %2 : f32
    %5 = arith.addf %4, %3 : f32
    fusion.store %5, %out[%p1 * 100 + %p0] : !fusion.buffer<37x100xf32>
  }
  fusion.output %buf0 : !fusion.buffer<37x100xf32>
}

// -----

// A per-channel bias (b[x / 9]: a step of 0 along x, a broadcast the cache
// serves) does not make a layout change: the kernel stays one of 16-byte
// vectors.
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK-NOT: gpu.barrier
// CHECK: vector.load
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
fusion.graph @negative_broadcast(%a: !fusion.buffer<8x64x9xf32>, %b: !fusion.buffer<64xf32>) -> (!fusion.buffer<8x64x9xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1, %p2) in [8, 64, 9] writes(%out : !fusion.buffer<8x64x9xf32>) {
    %0 = fusion.load %a[%p0 * 576 + %p1 * 9 + %p2] : !fusion.buffer<8x64x9xf32>
    %1 = fusion.load %b[%p1] : !fusion.buffer<64xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0 * 576 + %p1 * 9 + %p2] : !fusion.buffer<8x64x9xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8x64x9xf32>
}

// -----

// Nothing to stage, every access contiguous down a column (as resnet18's
// batch norms over channels-last buffers, whose loops took the statistics'
// [n, c, h, w] order: a step of 512 along x). The kernel is 64 rows of 49
// columns; taken column by column (x' = column * 64 + row) every access is
// contiguous in x', and 64 rows divide into vectors of 4: a plain
// pointwise kernel of 16-byte vectors, each thread 4 adjacent rows of a
// column (3136 / 4 = 784 vectors, 4 blocks of 256 threads), without the
// tile, shared memory or a barrier.
// CHECK: block = [256, 1, 1], grid = [4, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0", shared_bytes = 0 : i64
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: arith.cmpi ult, %{{.*}}, %c784_i32{{[_0-9]*}}
// CHECK: vector.load %arg0[%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<3136xf32>, vector<4xf32>
// CHECK-NOT: memref.load
// CHECK: vector.store %{{.*}}, %arg1[%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<3136xf32>, vector<4xf32>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
fusion.graph @reorder_only(%a: !fusion.buffer<49x64xf32>) -> (!fusion.buffer<49x64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64, 49] writes(%out : !fusion.buffer<49x64xf32>) {
    %0 = fusion.load %a[%p1 * 64 + %p0] : !fusion.buffer<49x64xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p1 * 64 + %p0] : !fusion.buffer<49x64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<49x64xf32>
}

// -----

// resnet18's batch norm at 512 channels of 8 x 7 x 7, channels-last, in the
// order [n, c, h, w] (4096 rows of 49 columns): column by column, element
// x' = 4 v + j of vector v is row x' mod 4096 (n = row / 512, channel
// c = row mod 512) of column x' / 4096 (h w), at 25088 n + 512 h w + c,
// once per vector: 4 v - 3584 (v / 1024) + 24576 ((v mod 1024) / 128).
// The channel's mean and scale are 4 adjacent channels, also one vector.
// 200704 / 4 vectors in 196 blocks of 256 threads (Inductor's
// YBLOCK 1024 x XBLOCK 1: 196 programs).
// CHECK: block = [256, 1, 1], grid = [196, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0", shared_bytes = 0 : i64
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK-NOT: gpu.barrier
// CHECK: arith.divui %[[V:.*]], %c1024_i32
// CHECK: arith.muli %{{.*}}, %c-3584_i32
// CHECK: arith.remui %[[V]], %c1024_i32
// CHECK: arith.divui %{{.*}}, %c128_i32
// CHECK: arith.muli %{{.*}}, %c24576_i32
// CHECK: vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<200704xf32>, vector<4xf32>
// CHECK: vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<512xf32>, vector<4xf32>
// CHECK: vector.load %arg2[%{{.*}}] {alignment = 16 : i64} : memref<512xf32>, vector<4xf32>
// CHECK-NOT: memref.load
// CHECK: vector.store %{{.*}}, %arg3[%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<200704xf32>, vector<4xf32>
// CHECK: gpu.return
fusion.graph @batch_norm(%a: !fusion.buffer<8x512x7x7xf32, strides = [25088, 1, 3584, 512]>, %m: !fusion.buffer<512xf32>, %s: !fusion.buffer<512xf32>) -> (!fusion.buffer<8x512x7x7xf32, strides = [25088, 1, 3584, 512]>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1, %p2, %p3) in [8, 512, 7, 7] writes(%out : !fusion.buffer<8x512x7x7xf32, strides = [25088, 1, 3584, 512]>) {
    %0 = fusion.load %a[%p0 * 25088 + %p1 + %p2 * 3584 + %p3 * 512] : !fusion.buffer<8x512x7x7xf32, strides = [25088, 1, 3584, 512]>
    %1 = fusion.load %m[%p1] : !fusion.buffer<512xf32>
    %2 = fusion.load %s[%p1] : !fusion.buffer<512xf32>
    %3 = arith.subf %0, %1 : f32
    %4 = arith.mulf %3, %2 : f32
    fusion.store %4, %out[%p0 * 25088 + %p1 + %p2 * 3584 + %p3 * 512] : !fusion.buffer<8x512x7x7xf32, strides = [25088, 1, 3584, 512]>
  }
  fusion.output %buf0 : !fusion.buffer<8x512x7x7xf32, strides = [25088, 1, 3584, 512]>
}

// -----

// Not in vectors: 66 rows (not a multiple of 4) of 49 columns. The tile
// only changes the order: 7 of the 49 columns (their largest divisor from
// 4 to 32, no partial tile across), 66 x 7 by 128 threads, four positions
// each (the last round partly past the tile, masked), 7 blocks; a warp
// takes 32 adjacent rows of a column, one element at a time.
// CHECK: block = [128, 1, 1], grid = [7, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0", shared_bytes = 0 : i64
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: arith.cmpi ult, %{{.*}}, %c462_i32{{[_0-9]*}}
// CHECK: arith.divui %{{.*}}, %c66_i32{{[_0-9]*}}
// CHECK: arith.remui %{{.*}}, %c66_i32{{[_0-9]*}}
// CHECK-NOT: vector.load
// CHECK: memref.load %arg0
// CHECK-NOT: vector.store
// CHECK: memref.store %{{.*}}, %arg1
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
fusion.graph @rows_not_vectors(%a: !fusion.buffer<49x66xf32>) -> (!fusion.buffer<49x66xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [66, 49] writes(%out : !fusion.buffer<49x66xf32>) {
    %0 = fusion.load %a[%p1 * 66 + %p0] : !fusion.buffer<49x66xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p1 * 66 + %p0] : !fusion.buffer<49x66xf32>
  }
  fusion.output %buf0 : !fusion.buffer<49x66xf32>
}

// -----

// Not in vectors: a load one element past a multiple of 4 (a vector of it
// would not be aligned). The tile as above, 64 x 7.
// CHECK: block = [128, 1, 1], grid = [7, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0", shared_bytes = 0 : i64
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK: scf.for
// CHECK: arith.cmpi ult, %{{.*}}, %c448_i32{{[_0-9]*}}
// CHECK-NOT: vector.load
// CHECK: memref.load %arg0
// CHECK-NOT: vector.store
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: gpu.return
fusion.graph @misaligned(%a: !fusion.buffer<3137xf32>) -> (!fusion.buffer<49x64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64, 49] writes(%out : !fusion.buffer<49x64xf32>) {
    %0 = fusion.load %a[%p1 * 64 + %p0 + 1] : !fusion.buffer<3137xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p1 * 64 + %p0] : !fusion.buffer<49x64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<49x64xf32>
}

// -----

// A transposed store of values computed from the position alone (no
// load): nothing to stage, the kernel computes down the columns of 32 x
// 32 tiles (96 rows of 256 columns: 24 blocks), a warp storing 32
// adjacent values. Not in vectors down the columns: 4 i64 are 32 bytes,
// wider than a vector access.
// CHECK: block = [256, 1, 1], grid = [24, 1, 1], kind = "kernel", name = "kernel_op0", node = "op0", shared_bytes = 0 : i64
// CHECK-LABEL: gpu.func @kernel_op0
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
fusion.graph @position_only() -> (!fusion.buffer<256x96xi64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [96, 256] writes(%out : !fusion.buffer<256x96xi64>) {
    %0 = fusion.index_expr [%p0 * 256 + %p1] : i64
    fusion.store %0, %out[%p1 * 96 + %p0] : !fusion.buffer<256x96xi64>
  }
  fusion.output %buf0 : !fusion.buffer<256x96xi64>
}
