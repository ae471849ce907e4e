// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu | FileCheck %s

// A pointwise node: one kernel, four adjacent elements per thread (1000 =
// 250 groups, one 16-byte vector load and store each), 256 threads per
// block; threads past the end compute on the last group and store nothing.
// exp is Triton's: exp2(x * log2(e)).
// CHECK: module attributes {fusion.launch_manifests = {pointwise = {{{.*}}steps = [{args = ["x", "buf0"], block = [256, 1, 1], grid = [1, 1, 1], kind = "kernel", name = "kernel_op0"{{.*}}}, gpu.container_module}
// The kernels' module carries NVPTX's data layout, so that loads and stores
// without an alignment get their types' (i64: 8 bytes) when translated.
// CHECK-LABEL: gpu.module @pointwise_kernels attributes {llvm.data_layout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"}
// CHECK: gpu.func @kernel_op0(%[[X:.*]]: memref<1000xf32> {fusion.name = "x", llvm.noalias}, %[[OUT:.*]]: memref<1000xf32> {fusion.name = "buf0", llvm.noalias}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK:   gpu.thread_id x
// CHECK:   gpu.block_id x
// CHECK:   %[[VALID:.*]] = arith.cmpi ult
// CHECK:   vector.load %[[X]][%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<1000xf32>, vector<4xf32>
// CHECK-COUNT-4: math.exp2
// CHECK:   scf.if %[[VALID]] {
// CHECK:     vector.store %{{.*}}, %[[OUT]][%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<1000xf32>, vector<4xf32>
// CHECK-NOT: gpu.func
// CHECK-LABEL: func.func @pointwise(
// CHECK-SAME: %[[A:.*]]: memref<1000xf32> {fusion.name = "x", fusion.role = "input"}, %[[B:.*]]: memref<1000xf32> {fusion.name = "buf0", fusion.role = "output"})
// CHECK: gpu.launch_func @pointwise_kernels::@kernel_op0 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[A]] : memref<1000xf32>, %[[B]] : memref<1000xf32>)
// CHECK-NEXT: return
fusion.graph @pointwise(%x: !fusion.buffer<1000xf32>) -> (!fusion.buffer<1000xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [1000] writes(%out : !fusion.buffer<1000xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<1000xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<1000xf32>
  }
  fusion.output %buf0 : !fusion.buffer<1000xf32>
}

// -----

// A long reduction: one row per block (512 threads, eight elements each,
// loaded as two 16-byte vectors), a butterfly of shuffles in each warp, the
// warps' partial sums through shared memory, one more butterfly, and the
// sum stored by thread 0.
// CHECK-LABEL: gpu.module @add_sum_kernels
// CHECK: gpu.func @kernel_op0({{.*}}) workgroup(%[[SMEM:.*]] : memref<16xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 512, 1, 1>}
// CHECK-COUNT-4: vector.load {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<262144xf32>, vector<4xf32>
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: scf.if
// CHECK:   memref.store %{{.*}}, %[[SMEM]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SMEM]]
// CHECK-COUNT-4: gpu.shuffle xor
// CHECK: scf.if
// CHECK:   memref.store
// CHECK: gpu.launch_func @add_sum_kernels::@kernel_op0 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in
fusion.graph @add_sum(%arg0_1: !fusion.buffer<64x4096xf32>, %arg1_1: !fusion.buffer<64x4096xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [4096] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %arg0_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %1 = fusion.load %arg1_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %2 = arith.addf %0, %1 : f32
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64xf32>
}

// -----

// Short rows: 4 threads per row of 20 (about 8 elements each), 64 rows per
// block of 256 threads; shuffles among the 4 threads only (no shared memory,
// no barrier).
// CHECK-LABEL: gpu.module @short_rows_kernels
// CHECK: gpu.func @kernel_op0({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-2: gpu.shuffle xor {{.*}} : f32
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// CHECK: gpu.launch_func {{.*}} threads in
fusion.graph @short_rows(%x: !fusion.buffer<100x20xf32>) -> (!fusion.buffer<100xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [100] reduce [20] writes(%out : !fusion.buffer<100xf32>) {
    %0 = fusion.load %x[%p0 * 20 + %p1] : !fusion.buffer<100x20xf32>
    %1 = fusion.reduce max %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<100xf32>
  }
  fusion.output %buf0 : !fusion.buffer<100xf32>
}

// -----

// Rows too long to hold in registers: each thread loops over the row,
// carrying its argmax accumulator (value, position), then the block
// combines the (value, position) pairs, positions as two 32-bit halves
// (enough rows not to split them: split-reductions.mlir).
// CHECK-LABEL: gpu.module @long_rows_kernels
// CHECK: gpu.func @kernel_op0
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, i64)
// CHECK: scf.yield
// CHECK: gpu.shuffle xor {{.*}} : f32
// CHECK: gpu.shuffle xor {{.*}} : i32
// CHECK: gpu.shuffle xor {{.*}} : i32
fusion.graph @long_rows(%x: !fusion.buffer<200x50000xf32>) -> (!fusion.buffer<200xi64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [200] reduce [50000] writes(%out : !fusion.buffer<200xi64>) {
    %0 = fusion.load %x[%p0 * 50000 + %p1] : !fusion.buffer<200x50000xf32>
    %1 = fusion.reduce argmax %0 : f32 -> i64
    fusion.store %1, %out[%p0] : !fusion.buffer<200xi64>
  }
  fusion.output %buf0 : !fusion.buffer<200xi64>
}

// -----

// A fused softmax (Inductor's op0_op1_op2) of rows of 64, 8 threads each: one
// kernel whose only global accesses are the input and the output; the
// row's max and sum never reach memory (no storage, no kernel argument, no
// allocation), and the two online-softmax reductions of the row run once,
// as a max then a sum of exponentials (three shuffles each).
// CHECK-LABEL: gpu.module @softmax_kernels
// CHECK: gpu.func @kernel_op0_op1_op2(%[[IN:.*]]: memref<512xf32> {fusion.name = "arg0_1", llvm.noalias}, %[[OUT:.*]]: memref<512xf32> {fusion.name = "buf2", llvm.noalias}) kernel
// CHECK-COUNT-6: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: memref.store %{{.*}}, %[[IN]]
// CHECK: vector.store %{{.*}}, %[[OUT]]
// CHECK-NOT: gpu.func
// CHECK-LABEL: func.func @softmax(
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch_func @softmax_kernels::@kernel_op0_op1_op2
// CHECK-NOT: gpu.launch_func
fusion.graph @softmax(%arg0_1: !fusion.buffer<8x64xf32>) -> (!fusion.buffer<8x64xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2 = fusion.fused -> !fusion.buffer<8x1xf32, strides = [1, 8]>, !fusion.buffer<8x1xf32, strides = [1, 8]>, !fusion.buffer<8x64xf32> {
    %m0 = fusion.node "op0" (%p0, %p1) in [8] reduce [64] writes(%out : !fusion.buffer<8x1xf32, strides = [1, 8]>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %arg0_1[%p0 * 64 + %p1] : !fusion.buffer<8x64xf32>
      %max, %sum = fusion.reduce online_softmax_reduce %0 : f32 -> f32, f32
      fusion.store %max, %out[%p0] : !fusion.buffer<8x1xf32, strides = [1, 8]>
    }
    %m1 = fusion.node "op1" (%p0, %p1) in [8] reduce [64] writes(%out : !fusion.buffer<8x1xf32, strides = [1, 8]>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %arg0_1[%p0 * 64 + %p1] : !fusion.buffer<8x64xf32>
      %max, %sum = fusion.reduce online_softmax_reduce %0 : f32 -> f32, f32
      fusion.store %sum, %out[%p0] : !fusion.buffer<8x1xf32, strides = [1, 8]>
    }
    %m2 = fusion.node "op2" (%p0, %p1) in [8, 64] writes(%out : !fusion.buffer<8x64xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %arg0_1[%p0 * 64 + %p1] : !fusion.buffer<8x64xf32>
      %1 = fusion.load %m0[%p0] : !fusion.buffer<8x1xf32, strides = [1, 8]>
      %2 = arith.subf %0, %1 : f32
      %3 = math.exp %2 : f32
      %4 = fusion.load %m1[%p0] : !fusion.buffer<8x1xf32, strides = [1, 8]>
      %5 = arith.divf %3, %4 : f32
      fusion.store %5, %out[%p0 * 64 + %p1] : !fusion.buffer<8x64xf32>
    }
    fusion.yield %m0, %m1, %m2 : !fusion.buffer<8x1xf32, strides = [1, 8]>, !fusion.buffer<8x1xf32, strides = [1, 8]>, !fusion.buffer<8x64xf32>
  }
  fusion.output %buf2 : !fusion.buffer<8x64xf32>
}

// -----

// A buffer of a fused group that the graph also returns is stored (buf0),
// one only its group reads is not (buf1); the pointwise member after the
// reduction reuses the row's sum.
// CHECK-LABEL: gpu.module @partly_internal_kernels
// CHECK: gpu.func @kernel_op0_op1_op2(%{{.*}}: memref<2048xf32> {fusion.name = "x", llvm.noalias}, %[[SUM:.*]]: memref<32xf32> {fusion.name = "buf0", llvm.noalias}, %[[Y:.*]]: memref<2048xf32> {fusion.name = "buf2", llvm.noalias})
// CHECK: memref.store %{{.*}}, %[[SUM]]
// CHECK: vector.store %{{.*}}, %[[Y]]
// CHECK-LABEL: func.func @partly_internal(
// CHECK-NOT: gpu.alloc
fusion.graph @partly_internal(%x: !fusion.buffer<32x64xf32>) -> (!fusion.buffer<32xf32>, !fusion.buffer<32x64xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2 = fusion.fused -> !fusion.buffer<32xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32x64xf32> {
    %s = fusion.node "op0" (%p0, %p1) in [32] reduce [64] writes(%out : !fusion.buffer<32xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 64 + %p1] : !fusion.buffer<32x64xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
    }
    %r = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %s[%p0] : !fusion.buffer<32xf32>
      %1 = arith.constant 1.0 : f32
      %2 = arith.divf %1, %0 : f32
      fusion.store %2, %out[%p0] : !fusion.buffer<32xf32>
    }
    %y = fusion.node "op2" (%p0, %p1) in [32, 64] writes(%out : !fusion.buffer<32x64xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %x[%p0 * 64 + %p1] : !fusion.buffer<32x64xf32>
      %1 = fusion.load %r[%p0] : !fusion.buffer<32xf32>
      %2 = arith.mulf %0, %1 : f32
      fusion.store %2, %out[%p0 * 64 + %p1] : !fusion.buffer<32x64xf32>
    }
    fusion.yield %s, %r, %y : !fusion.buffer<32xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32x64xf32>
  }
  fusion.output %buf0, %buf2 : !fusion.buffer<32xf32>, !fusion.buffer<32x64xf32>
}

// -----

// The host side: an intermediate buffer is allocated and freed, an extern
// is a call to a declared function taking its operands and results, an
// input returned as an output is copied, and a foreach is one combo kernel
// whose first block runs op2 and second op3.
// CHECK: func.func private @extern_kernels.mm(memref<64xf32>, memref<64xf32>, memref<64xf32>) attributes {fusion.extern_kernel = "extern_kernels.mm"}
// CHECK-LABEL: gpu.module @host_kernels
// CHECK: gpu.func @kernel_op1(
// CHECK: gpu.func @kernel_op2_op3(
// CHECK-NOT: gpu.func
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[A:[^:]*]]: memref<64xf32> {fusion.name = "a", fusion.role = "input"}, %[[B:[^:]*]]: memref<64xf32> {fusion.name = "b", fusion.role = "input"}, %[[O0:[^:]*]]: memref<64xf32> {fusion.name = "buf2", fusion.role = "output"}, %[[O1:[^:]*]]: memref<64xf32> {fusion.name = "buf3", fusion.role = "output"}, %[[O2:[^:]*]]: memref<64xf32> {fusion.name = "output2", fusion.role = "output"})
// CHECK: %[[T0:.*]] = gpu.alloc () : memref<64xf32>
// CHECK: %[[T1:.*]] = gpu.alloc () : memref<64xf32>
// CHECK: call @extern_kernels.mm(%[[A]], %[[B]], %[[T0]])
// CHECK: gpu.launch_func @host_kernels::@kernel_op1 {{.*}} args(%[[T0]] : memref<64xf32>, %[[T1]] : memref<64xf32>)
// CHECK: gpu.launch_func @host_kernels::@kernel_op2_op3 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[T1]] : memref<64xf32>, %[[O0]] : memref<64xf32>, %[[O1]] : memref<64xf32>)
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.memcpy %[[O2]], %[[A]]
// CHECK: gpu.dealloc %[[T0]]
// CHECK: gpu.dealloc %[[T1]]
fusion.graph @host(%a: !fusion.buffer<64xf32>, %b: !fusion.buffer<64xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.extern "op0" "extern_kernels.mm"(%a, %b) : (!fusion.buffer<64xf32>, !fusion.buffer<64xf32>) -> !fusion.buffer<64xf32>
  %buf1 = fusion.node "op1" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<64xf32>
    %1 = math.tanh %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
  }
  %buf2, %buf3 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<64xf32> {
    %c = fusion.node "op2" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %buf1[%p0] : !fusion.buffer<64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    %d = fusion.node "op3" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) attributes {buffer_names = ["buf3"]} {
      %0 = fusion.load %buf1[%p0] : !fusion.buffer<64xf32>
      %1 = arith.negf %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
    }
    fusion.yield %c, %d : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>
  }
  fusion.output %buf2, %buf3, %a : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>
}

// -----

// A foreach of two row reductions and a pointwise part: op0's rows of 32
// (4 threads each) and op2's elements (4 a thread) share a combo kernel of
// 256 threads a block, whose block 0 reduces the 16 rows and block 1
// computes the 1000 elements; op1's two rows of 131072 are each split over
// 32 blocks of 512 threads (a split reduction: its rows' lanes are whole
// blocks), which a shared block cannot run, so op1 is a kernel of its own,
// as Inductor's combo kernels keep parts of other blocking strategies
// apart. Two manifest steps, each with its own storages.
// CHECK: steps = [{args = ["y", "buf1"], block = [512, 1, 1], grid = [64, 1, 1], kind = "kernel", name = "kernel_op1", node = "op1", {{.*}}}, {args = ["x", "buf0", "z", "buf2"], block = [256, 1, 1], grid = [2, 1, 1], kind = "kernel", name = "kernel_op0_op2", node = "op0_op2"
// CHECK-LABEL: gpu.func @kernel_op1(
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
// CHECK:   gpu.return
// CHECK-LABEL: gpu.func @kernel_op0_op2(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK:   %[[BID:.*]] = gpu.block_id x
// CHECK:   %[[IN0:.*]] = arith.cmpi ult, %[[BID]], %[[C1:.*]] :
// CHECK:   scf.if %[[IN0]] {
// CHECK-COUNT-2: gpu.shuffle xor
// CHECK:   }
// CHECK:   %[[END1:.*]] = arith.cmpi ult, %[[BID]], %[[C2:.*]] :
// CHECK:   %[[BEGIN1:.*]] = arith.cmpi uge, %[[BID]], %[[C1B:.*]] :
// CHECK:   %[[IN1:.*]] = arith.andi %[[BEGIN1]], %[[END1]]
// CHECK:   scf.if %[[IN1]] {
// CHECK:     arith.subi %{{.*}}, %c1_i32
// CHECK:     vector.load
// CHECK:     arith.negf
// CHECK:     vector.store
// CHECK:   }
// CHECK:   gpu.return
// CHECK-LABEL: func.func @combo(
// CHECK: gpu.launch_func @combo_kernels::@kernel_op1 {{.*}} args(%{{.*}} : memref<262144xf32>, %{{.*}} : memref<2xf32>)
// CHECK: gpu.launch_func @combo_kernels::@kernel_op0_op2
// CHECK-NOT: gpu.launch_func
fusion.graph @combo(%x: !fusion.buffer<16x32xf32>, %y: !fusion.buffer<2x131072xf32>, %z: !fusion.buffer<1000xf32>) -> (!fusion.buffer<16xf32>, !fusion.buffer<2xf32>, !fusion.buffer<1000xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2 = fusion.foreach -> !fusion.buffer<16xf32>, !fusion.buffer<2xf32>, !fusion.buffer<1000xf32> {
    %0 = fusion.node "op0" (%p0, %p1) in [16] reduce [32] writes(%out : !fusion.buffer<16xf32>) attributes {buffer_names = ["buf0"]} {
      %a = fusion.load %x[%p0 * 32 + %p1] : !fusion.buffer<16x32xf32>
      %r = fusion.reduce sum %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<16xf32>
    }
    %1 = fusion.node "op1" (%p0, %p1) in [2] reduce [131072] writes(%out : !fusion.buffer<2xf32>) attributes {buffer_names = ["buf1"]} {
      %a = fusion.load %y[%p0 * 131072 + %p1] : !fusion.buffer<2x131072xf32>
      %r = fusion.reduce max %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<2xf32>
    }
    %2 = fusion.node "op2" (%p0) in [1000] writes(%out : !fusion.buffer<1000xf32>) attributes {buffer_names = ["buf2"]} {
      %a = fusion.load %z[%p0] : !fusion.buffer<1000xf32>
      %e = arith.negf %a : f32
      fusion.store %e, %out[%p0] : !fusion.buffer<1000xf32>
    }
    fusion.yield %0, %1, %2 : !fusion.buffer<16xf32>, !fusion.buffer<2xf32>, !fusion.buffer<1000xf32>
  }
  fusion.output %buf0, %buf1, %buf2 : !fusion.buffer<16xf32>, !fusion.buffer<2xf32>, !fusion.buffer<1000xf32>
}

// -----

// A combo kernel's reduction parts keep the mappings they have alone, more
// rows a block where the shared block is larger: op1's rows of 512 take 64
// threads each (2 rows in its own blocks of 128, 4 in the shared 256:
// blocks 1 to 16 for its 64 rows, its two warps' partials meeting in
// shared memory), op0's rows of 32 take 4 threads (64 rows a block: one
// block for 16), op2 one block of 1024 elements.
// CHECK: steps = [{args = ["x", "buf0", "y", "buf1", "z", "buf2"], block = [256, 1, 1], grid = [18, 1, 1], kind = "kernel", name = "kernel_op0_op1_op2", node = "op0_op1_op2", shared_bytes = 32 : i64}]
// CHECK-LABEL: gpu.func @kernel_op0_op1_op2(
// CHECK: arith.cmpi ult, %[[BID:.*]], %c1 : index
// CHECK: arith.cmpi ult, %[[BID]], %c17 : index
// CHECK: arith.cmpi uge, %[[BID]], %c1{{.*}} : index
// CHECK: arith.cmpi ult, %[[BID]], %c18 : index
// CHECK: arith.cmpi uge, %[[BID]], %c17{{.*}} : index
fusion.graph @combo_rows(%x: !fusion.buffer<16x32xf32>, %y: !fusion.buffer<64x512xf32>, %z: !fusion.buffer<1000xf32>) -> (!fusion.buffer<16xf32>, !fusion.buffer<64xf32>, !fusion.buffer<1000xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2 = fusion.foreach -> !fusion.buffer<16xf32>, !fusion.buffer<64xf32>, !fusion.buffer<1000xf32> {
    %0 = fusion.node "op0" (%p0, %p1) in [16] reduce [32] writes(%out : !fusion.buffer<16xf32>) attributes {buffer_names = ["buf0"]} {
      %a = fusion.load %x[%p0 * 32 + %p1] : !fusion.buffer<16x32xf32>
      %r = fusion.reduce sum %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<16xf32>
    }
    %1 = fusion.node "op1" (%p0, %p1) in [64] reduce [512] writes(%out : !fusion.buffer<64xf32>) attributes {buffer_names = ["buf1"]} {
      %a = fusion.load %y[%p0 * 512 + %p1] : !fusion.buffer<64x512xf32>
      %r = fusion.reduce max %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<64xf32>
    }
    %2 = fusion.node "op2" (%p0) in [1000] writes(%out : !fusion.buffer<1000xf32>) attributes {buffer_names = ["buf2"]} {
      %a = fusion.load %z[%p0] : !fusion.buffer<1000xf32>
      %e = arith.negf %a : f32
      fusion.store %e, %out[%p0] : !fusion.buffer<1000xf32>
    }
    fusion.yield %0, %1, %2 : !fusion.buffer<16xf32>, !fusion.buffer<64xf32>, !fusion.buffer<1000xf32>
  }
  fusion.output %buf0, %buf1, %buf2 : !fusion.buffer<16xf32>, !fusion.buffer<64xf32>, !fusion.buffer<1000xf32>
}
