// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu | FileCheck %s

// Graphs with size symbols: every kernel takes the storages, then the
// symbols (index); storages of symbolic size reach kernels with the static
// extent 2^48 (the bare-pointer convention needs static shapes) through a
// memref.cast on the host. The grid is computed on the host from the
// symbols, and the manifest gives it, the storages' sizes and the tensors'
// layouts as expressions in the symbols' Inductor names. The block size is
// chosen at the hints (s0 * s1 = 6400 elements: 256 threads).
// CHECK: module attributes {fusion.launch_manifests = {pointwise = {{{.*}}inputs = [{dtype = "f32", name = "x", offset = 0 : i64, shape = ["s77", "s27"], storage = "x", strides = ["s27", 1]}]
// CHECK-SAME: steps = [{args = ["x", "buf0"], block = [256, 1, 1], grid = ["(s77*s27 + 255) // 256", 1, 1], kind = "kernel", name = "kernel_op0", node = "op0", shared_bytes = 0 : i64, symbols = ["s77", "s27"]}]
// CHECK-SAME: storages = [{dtype = "f32", elements = "{{.*}}", name = "x", role = "input"}
// CHECK-LABEL: gpu.module @pointwise_kernels
// CHECK: gpu.func @kernel_op0(%[[X:.*]]: memref<281474976710656xf32> {fusion.name = "x", llvm.noalias}, %[[OUT:.*]]: memref<281474976710656xf32> {fusion.name = "buf0", llvm.noalias}, %[[S0:.*]]: index, %[[S1:.*]]: index) kernel
// Rows past numel = s77 * s27 (64-bit) store nothing.
// CHECK-DAG: %[[A:.*]] = arith.index_cast %[[S0]] : index to i64
// CHECK-DAG: %[[B:.*]] = arith.index_cast %[[S1]] : index to i64
// CHECK: %[[N:.*]] = arith.muli %[[A]], %[[B]] : i64
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : i64
// CHECK: memref.load %[[X]]
// CHECK: scf.if %[[VALID]]
// CHECK:   memref.store %{{.*}}, %[[OUT]]
// CHECK-LABEL: func.func @pointwise(
// CHECK-SAME: %[[HX:.*]]: memref<?xf32> {fusion.elements = affine_map<()[s0, s1] -> ({{.*}})>, fusion.name = "x", fusion.role = "input"}, %[[HOUT:.*]]: memref<?xf32> {{.*}}, %[[H0:.*]]: index {fusion.name = "s77", fusion.role = "symbol"}, %[[H1:.*]]: index {fusion.name = "s27", fusion.role = "symbol"})
// CHECK-DAG: %[[CX:.*]] = memref.cast %[[HX]] : memref<?xf32> to memref<281474976710656xf32>
// CHECK-DAG: %[[CO:.*]] = memref.cast %[[HOUT]] : memref<?xf32> to memref<281474976710656xf32>
// CHECK: %[[NUMEL:.*]] = arith.muli %[[H0]], %[[H1]] : index
// CHECK: %[[GRID:.*]] = arith.ceildivsi %[[NUMEL]], %{{.*}} : index
// A grid computed at run time is checked against CUDA's limit before the
// launch (grid-limit.mlir: the static case).
// CHECK: %[[LIMIT:.*]] = arith.constant 2147483647 : index
// CHECK: %[[FITS:.*]] = arith.cmpi ule, %[[GRID]], %[[LIMIT]] : index
// CHECK: cf.assert %[[FITS]], "kernel_op0 needs more thread blocks than the 2147483647 a CUDA grid holds in x"
// CHECK: gpu.launch_func @pointwise_kernels::@kernel_op0 blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in ({{.*}}) args(%[[CX]] : memref<281474976710656xf32>, %[[CO]] : memref<281474976710656xf32>, %[[H0]] : index, %[[H1]] : index)
fusion.graph @pointwise symbols(s0 = 64, s1 = 100) (%x: !fusion.buffer<s0 x s1 x f32>) -> (!fusion.buffer<s0 x s1 x f32>) attributes {device = "cuda:0", symbol_names = ["s77", "s27"]} {
  %buf0 = fusion.node "op0" (%p0) in [s0 * s1] writes(%out : !fusion.buffer<s0 x s1 x f32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<s0 x s1 x f32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<s0 x s1 x f32>
  }
  fusion.output %buf0 : !fusion.buffer<s0 x s1 x f32>
}

// -----

// A row of symbolic length (hint 4096): one row per block (512 threads at
// the hint), but the row is reduced in a loop of ceil(s1 / 4096) iterations
// of eight scalar loads per thread, masked past the end, so that a row
// longer than the hint is still reduced whole (a persistent reduction
// sized at the hint would drop the rest). No vector loads: s1 need not be a
// multiple of 4.
// CHECK: row_sum = {{{.*}}steps = [{args = ["x", "buf0"], block = [512, 1, 1], grid = ["s0", 1, 1]{{.*}}symbols = ["s0", "s1"]}]
// CHECK-LABEL: gpu.module @row_sum_kernels
// CHECK: gpu.func @kernel_op0(%[[X:.*]]: memref<281474976710656xf32> {{.*}}, %[[OUT:.*]]: memref<281474976710656xf32> {{.*}}, %[[S0:.*]]: index, %[[S1:.*]]: index) workgroup({{.*}}) kernel attributes {known_block_size = array<i32: 512, 1, 1>}
// CHECK: %[[LEN:.*]] = arith.index_cast %[[S1]] : index to i64
// CHECK: %[[UP:.*]] = arith.addi %[[LEN]], %{{.*}} : i64
// CHECK: %[[ITERS:.*]] = arith.divui %[[UP]], %{{.*}} : i64
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ITERS]] step %{{.*}} iter_args
// CHECK-COUNT-8: memref.load %[[X]]
// CHECK-NOT: vector.load
// CHECK: gpu.shuffle xor
fusion.graph @row_sum symbols(s0 = 8, s1 = 4096) (%x: !fusion.buffer<s0 x s1 x f32>) -> (!fusion.buffer<s0 x f32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [s0] reduce [s1] writes(%out : !fusion.buffer<s0 x f32>) {
    %0 = fusion.load %x[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x f32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<s0 x f32>
  }
  fusion.output %buf0 : !fusion.buffer<s0 x f32>
}

// -----

// Symbolic rows of a static length (512): the row length is known, so the
// reduction is persistent and vectorized as for static graphs; only the
// number of rows (the grid, and the guard of the last block) is symbolic.
// s0 has no hint: no choice here needs one (the block size depends on the
// row length).
// CHECK: rows = {{{.*}}steps = [{args = ["x", "buf0"], block = [128, 1, 1], grid = ["(s0 + 1) // 2", 1, 1]
// CHECK-LABEL: gpu.module @rows_kernels
// CHECK: gpu.func @kernel_op0({{.*}}, %[[S0:.*]]: index) workgroup({{.*}}) kernel
// CHECK-NOT: scf.for
// CHECK: vector.load {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<281474976710656xf32>, vector<4xf32>
fusion.graph @rows symbols(s0) (%x: !fusion.buffer<s0 x 512 x f32>) -> (!fusion.buffer<s0 x f32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [s0] reduce [512] writes(%out : !fusion.buffer<s0 x f32>) {
    %0 = fusion.load %x[%p0 * 512 + %p1] : !fusion.buffer<s0 x 512 x f32>
    %1 = fusion.reduce max %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<s0 x f32>
  }
  fusion.output %buf0 : !fusion.buffer<s0 x f32>
}

// -----

// Size expressions in the manifest are Python (sizes.py): ceildiv by a
// symbol as -(-a // b) (unary minus binds first), by a constant as
// (a + c - 1) // c, floordiv as //, mod as %.
// CHECK: exprs = {{{.*}}inputs = [{dtype = "f32", name = "x", offset = 0 : i64, shape = ["-(-s0 // s1)", "s0 // 2"], storage = "x", strides = ["s0 // 2", 1]}, {dtype = "f32", name = "y", offset = 0 : i64, shape = ["s0 % 3 + 1", 4], storage = "y", strides = [4, 1]}]
// CHECK-SAME: grid = ["((-(-s0 // s1))*(s0 // 2) + 223) // 224", 1, 1]
// CHECK-SAME: storages = [{dtype = "f32", elements = "(-(-s0 // s1))*(s0 // 2)", name = "x", role = "input"}, {dtype = "f32", elements = "(s0 % 3)*4 + 4", name = "y", role = "input"}
fusion.graph @exprs symbols(s0 = 64, s1 = 10) (%x: !fusion.buffer<(s0 ceildiv s1) x (s0 floordiv 2) x f32>, %y: !fusion.buffer<(s0 mod 3 + 1) x 4 x f32>) -> (!fusion.buffer<(s0 ceildiv s1) x (s0 floordiv 2) x f32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [(s0 ceildiv s1) * (s0 floordiv 2)] writes(%out : !fusion.buffer<(s0 ceildiv s1) x (s0 floordiv 2) x f32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<(s0 ceildiv s1) x (s0 floordiv 2) x f32>
    %1 = fusion.load %y[0] : !fusion.buffer<(s0 mod 3 + 1) x 4 x f32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<(s0 ceildiv s1) x (s0 floordiv 2) x f32>
  }
  fusion.output %buf0 : !fusion.buffer<(s0 ceildiv s1) x (s0 floordiv 2) x f32>
}

// -----

// A foreach (combo) kernel of symbolic parts: part 0 (rows of 32 at 4
// threads each, 64 rows per block) takes blocks [0, ceil(s0 / 64)), part 1
// (the same rows) the next ceil(s1 / 64); the ranges and the block offset
// of part 1 come from the symbols.
// CHECK: combo = {{{.*}}grid = ["(s0 + 63) // 64 + (s1 + 63) // 64", 1, 1]
// CHECK-LABEL: gpu.func @kernel_op0_op1(
// CHECK-SAME: %[[S0:[a-z0-9]+]]: index, %[[S1:[a-z0-9]+]]: index) kernel
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[END0:.*]] = arith.ceildivsi %[[S0]], %{{.*}} : index
// CHECK: arith.cmpi ult, %[[BID]], %[[END0]] : index
// CHECK: %[[FIRST1:.*]] = arith.ceildivsi %[[S0]], %{{.*}} : index
// CHECK: %[[BLOCKS1:.*]] = arith.ceildivsi %[[S1]], %{{.*}} : index
// CHECK: %[[END1:.*]] = arith.addi %[[FIRST1]], %[[BLOCKS1]] : index
// CHECK: arith.cmpi ult, %[[BID]], %[[END1]] : index
fusion.graph @combo symbols(s0 = 16, s1 = 1000) (%x: !fusion.buffer<s0 x 32 x f32>, %y: !fusion.buffer<s1 x 32 x f32>) -> (!fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.foreach -> !fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32> {
    %0 = fusion.node "op0" (%p0, %p1) in [s0] reduce [32] writes(%out : !fusion.buffer<s0 x f32>) attributes {buffer_names = ["buf0"]} {
      %a = fusion.load %x[%p0 * 32 + %p1] : !fusion.buffer<s0 x 32 x f32>
      %r = fusion.reduce sum %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<s0 x f32>
    }
    %1 = fusion.node "op1" (%p0, %p1) in [s1] reduce [32] writes(%out : !fusion.buffer<s1 x f32>) attributes {buffer_names = ["buf1"]} {
      %a = fusion.load %y[%p0 * 32 + %p1] : !fusion.buffer<s1 x 32 x f32>
      %r = fusion.reduce max %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<s1 x f32>
    }
    fusion.yield %0, %1 : !fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32>
}

// -----

// A combo kernel whose first part keeps warp totals in shared memory (a
// workgroup attribution, which follows the kernel's arguments in its entry
// block; a block a row of 4096, a long reduction like the second part):
// the later part's block offset and range still come from the size
// symbols, the kernel's last arguments, not from that array.
// CHECK-LABEL: gpu.func @kernel_op0_op1(
// CHECK-SAME: %[[S0:[a-z0-9]+]]: index, %[[S1:[a-z0-9]+]]: index) workgroup(%[[WARPS0:[a-z0-9]+]] : memref<8xf32, #gpu.address_space<workgroup>>, %[[WARPS1:[a-z0-9]+]] : memref<8xf32, #gpu.address_space<workgroup>>) kernel
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: arith.cmpi ult, %[[BID]], %[[S0]] : index
// CHECK: memref.store %{{.*}}, %[[WARPS0]]
// CHECK: %[[END1:.*]] = arith.addi %[[S0]], %[[S1]] : index
// CHECK: arith.cmpi ult, %[[BID]], %[[END1]] : index
// CHECK: arith.cmpi uge, %[[BID]], %[[S0]] : index
// CHECK: scf.if
// CHECK: %[[FIRST:.*]] = arith.index_cast %[[S0]] : index to i64
// CHECK: arith.subi %{{.*}}, %[[FIRST]] : i64
// CHECK: memref.store %{{.*}}, %[[WARPS1]]
fusion.graph @combo_shared symbols(s0 = 16, s1 = 1000) (%x: !fusion.buffer<s0 x 4096 x f32>, %y: !fusion.buffer<s1 x 4096 x f32>) -> (!fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.foreach -> !fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32> {
    %0 = fusion.node "op0" (%p0, %p1) in [s0] reduce [4096] writes(%out : !fusion.buffer<s0 x f32>) attributes {buffer_names = ["buf0"]} {
      %a = fusion.load %x[%p0 * 4096 + %p1] : !fusion.buffer<s0 x 4096 x f32>
      %r = fusion.reduce sum %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<s0 x f32>
    }
    %1 = fusion.node "op1" (%p0, %p1) in [s1] reduce [4096] writes(%out : !fusion.buffer<s1 x f32>) attributes {buffer_names = ["buf1"]} {
      %a = fusion.load %y[%p0 * 4096 + %p1] : !fusion.buffer<s1 x 4096 x f32>
      %r = fusion.reduce max %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<s1 x f32>
    }
    fusion.yield %0, %1 : !fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32>
}
