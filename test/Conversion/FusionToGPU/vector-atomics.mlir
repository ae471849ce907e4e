// A thread's group of adjacent f32 atomic adds (a scatter-add of a row
// into an embedding's gradient at 256 * token + r, the token depending on
// the row alone) becomes one sm_90 vector reduction, red.global.add.v4.f32
// (Triton's vector atomics), where the row starts at a multiple of the
// vector's width for every token; other atomic adds stay one per element.
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --fusion-schedule --convert-fusion-to-gpu="vector-atomics=0" | FileCheck %s --check-prefix=SCALAR

// A pointwise scatter (rows of four): one vector atomic a thread, at the
// first element's address.
// CHECK-LABEL: gpu.module @scatter_rows_kernels
// CHECK: vector.load %arg1[%{{.*}}] {{.*}}: memref<131072xf32>, vector<4xf32>
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %arg2 : memref<2097152xf32> -> index
// CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[GLOBAL:.*]] = llvm.addrspacecast %[[PTR]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: llvm.inline_asm has_side_effects "red.global.add.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f,~{memory}" %[[GLOBAL]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr<1>, f32, f32, f32, f32) -> ()
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.return
// SCALAR-LABEL: gpu.module @scatter_rows_kernels
// SCALAR-NOT: llvm.inline_asm
// SCALAR-COUNT-4: memref.atomic_rmw addf
// SCALAR-NOT: memref.atomic_rmw
// SCALAR: gpu.return
fusion.graph @scatter_rows(%ids: !fusion.buffer<512xi64>, %g: !fusion.buffer<512x256xf32>, %grad: !fusion.buffer<8192x256xf32>) -> (!fusion.buffer<8192x256xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512, 256] writes(%out : !fusion.buffer<8192x256xf32> mutates %grad) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<512xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0 * 256 + %p1] : !fusion.buffer<512x256xf32>
    fusion.store %2, %out[symbol(%1) * 256 + %p1] atomic_add : !fusion.buffer<8192x256xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8192x256xf32>
}

// -----

// The scatter after a reduction of the same row (a layer norm's input
// gradient added into the embedding's): the group's per-element values,
// held in registers across the reduction, go out in one vector atomic.
// CHECK-LABEL: gpu.module @scatter_after_mean_kernels
// CHECK: gpu.shuffle xor
// CHECK: llvm.inline_asm has_side_effects "red.global.add.v4.f32 [$0], {$1, $2, $3, $4};"
// CHECK-NOT: memref.atomic_rmw
// CHECK: gpu.return
// SCALAR-LABEL: gpu.module @scatter_after_mean_kernels
// SCALAR-COUNT-4: memref.atomic_rmw addf
fusion.graph @scatter_after_mean(%ids: !fusion.buffer<512xi64>, %g: !fusion.buffer<512x256xf32>, %grad: !fusion.buffer<8192x256xf32>) -> (!fusion.buffer<8192x256xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512] reduce [256] writes(%out : !fusion.buffer<512xf32>) {
    %0 = fusion.load %g[%p0 * 256 + %p1] : !fusion.buffer<512x256xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<512xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [512, 256] writes(%out : !fusion.buffer<8192x256xf32> mutates %grad) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<512xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0 * 256 + %p1] : !fusion.buffer<512x256xf32>
    %3 = fusion.load %buf0[%p0] : !fusion.buffer<512xf32>
    %n = arith.constant 2.560000e+02 : f32
    %4 = arith.divf %3, %n : f32
    %5 = arith.subf %2, %4 : f32
    fusion.store %5, %out[symbol(%1) * 256 + %p1] atomic_add : !fusion.buffer<8192x256xf32>
  }
  fusion.output %buf1 : !fusion.buffer<8192x256xf32>
}

// -----

// @negative_scatter_in_row: each element has its own token (the index
// varies in the row), so the group's elements are not adjacent.
// CHECK-LABEL: gpu.module @negative_scatter_in_row_kernels
// CHECK-NOT: llvm.inline_asm
// CHECK-COUNT-4: memref.atomic_rmw addf
// CHECK: gpu.return
fusion.graph @negative_scatter_in_row(%ids: !fusion.buffer<512x256xi64>, %g: !fusion.buffer<512x256xf32>, %grad: !fusion.buffer<8192x256xf32>) -> (!fusion.buffer<8192x256xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512, 256] writes(%out : !fusion.buffer<8192x256xf32> mutates %grad) {
    %0 = fusion.load %ids[%p0 * 256 + %p1] : !fusion.buffer<512x256xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0 * 256 + %p1] : !fusion.buffer<512x256xf32>
    fusion.store %2, %out[symbol(%1) * 256 + %p1] atomic_add : !fusion.buffer<8192x256xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8192x256xf32>
}

// -----

// @negative_misaligned_rows: rows of 4 floats at 6 * token start at odd
// multiples of 2 floats for odd tokens: no 16-byte alignment.
// CHECK-LABEL: gpu.module @negative_misaligned_rows_kernels
// CHECK-NOT: llvm.inline_asm
// CHECK-COUNT-4: memref.atomic_rmw addf
// CHECK: gpu.return
fusion.graph @negative_misaligned_rows(%ids: !fusion.buffer<512xi64>, %g: !fusion.buffer<512x4xf32>, %grad: !fusion.buffer<8192x6xf32>) -> (!fusion.buffer<8192x6xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512, 4] writes(%out : !fusion.buffer<8192x6xf32> mutates %grad) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<512xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0 * 4 + %p1] : !fusion.buffer<512x4xf32>
    fusion.store %2, %out[symbol(%1) * 6 + %p1] atomic_add : !fusion.buffer<8192x6xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8192x6xf32>
}

// -----

// @negative_integer_adds: PTX has vector atomics of f32 (and 16-bit
// floats) only; i32 adds stay scalar.
// CHECK-LABEL: gpu.module @negative_integer_adds_kernels
// CHECK-NOT: llvm.inline_asm
// CHECK-COUNT-4: memref.atomic_rmw addi
// CHECK: gpu.return
fusion.graph @negative_integer_adds(%ids: !fusion.buffer<512xi64>, %g: !fusion.buffer<512x256xi32>, %grad: !fusion.buffer<8192x256xi32>) -> (!fusion.buffer<8192x256xi32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512, 256] writes(%out : !fusion.buffer<8192x256xi32> mutates %grad) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<512xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0 * 256 + %p1] : !fusion.buffer<512x256xi32>
    fusion.store %2, %out[symbol(%1) * 256 + %p1] atomic_add : !fusion.buffer<8192x256xi32>
  }
  fusion.output %buf0 : !fusion.buffer<8192x256xi32>
}
