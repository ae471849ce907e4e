// Masked regions (Inductor's ops.masked), run by the LLVM JIT against
// values computed by hand, and their GPU lowering. op0 writes
// A[k] = v(k) = (3 k mod 5) - 2 for k < 24:
//   A = [-2, 1, -1, 2, 0, -2, 1, -1, 2, 0, -2, 1, -1, 2, 0, -2, 1, -1, 2, 0, -2, 1, -1, 2]
// bench/build_gpu_bundle.sh runs this graph on the GPU against the JIT.

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN: | FileCheck %s
// RUN: scheduler-opt %s --convert-fusion-to-gpu | FileCheck %s --check-prefix=GPU

// op1 pads A (3 rows of 8) with 13 rows of zeros, as the gradient of
// gpt2_train's logits[:, :-1] does: the mask depends on the row alone, so
// each GPU thread's four adjacent elements share it, and the region runs
// once for them, its load of A one 16-byte vector load.
// GPU-LABEL: gpu.func @kernel_op1(
// GPU-SAME: %[[A:.*]]: memref<24xf32> {fusion.name = "a"
// GPU: scf.if %{{.*}} -> (f32, f32, f32, f32) {
// GPU-NEXT: arith.constant
// GPU-NOT: scf.if
// GPU: vector.load %[[A]][%{{.*}}] {alignment = 16 : i64, nontemporal = true} : memref<24xf32>, vector<4xf32>
// GPU-NOT: memref.load %[[A]]
// GPU: scf.yield
// GPU: vector.store
// GPU: gpu.return

// op2, op3 and op4 are Inductor's split batch-norm statistics: one node for
// each Welford output, each with its own copy of the masked load (chunks
// of 5 of the 12 positions of a channel: the last chunk is partial). They
// compute the same reduction, which the kernel runs once: one load of A
// per element (5), one merge.
// GPU-LABEL: gpu.func @kernel_op2_op3_op4(
// GPU-SAME: %[[A2:[^:]*]]: memref<24xf32>
// GPU-COUNT-5: memref.load %[[A2]]
// GPU-NOT: memref.load %[[A2]]
// GPU: gpu.return

// A itself
// CHECK: [-2,{{ +}}1,{{ +}}-1,{{ +}}2,{{ +}}0,{{ +}}-2,{{ +}}1,{{ +}}-1,{{ +}}2,{{ +}}0,{{ +}}-2,{{ +}}1,{{ +}}-1,{{ +}}2,{{ +}}0,{{ +}}-2,{{ +}}1,{{ +}}-1,{{ +}}2,{{ +}}0,{{ +}}-2,{{ +}}1,{{ +}}-1,{{ +}}2]
// op1: 2 A, then 104 zeros
// CHECK: sizes = [128]
// CHECK-NEXT: [-4,{{ +}}2,{{ +}}-2,{{ +}}4,{{ +}}0,{{ +}}-4,{{ +}}2,{{ +}}-2,{{ +}}4,{{ +}}0,{{ +}}-4,{{ +}}2,{{ +}}-2,{{ +}}4,{{ +}}0,{{ +}}-4,{{ +}}2,{{ +}}-2,{{ +}}4,{{ +}}0,{{ +}}-4,{{ +}}2,{{ +}}-2,{{ +}}4{{(, +0)+}}]
// Chunk p0 of channel p1 holds A[p1 + 2 s] for s = 5 p0 ... min(5 p0 + 4, 11):
// channel 0: [-2, -1, 0, 1, 2], [-2, -1, 0, 1, 2], [-2, -1];
// channel 1: [1, 2, -2, -1, 0], [1, 2, -2, -1, 0], [1, 2].
// Means 0, 0, 0, 0, -1.5, 1.5; squared deviations 10, 10, 10, 10, 0.5, 0.5;
// weights 5, 5, 5, 5, 2, 2. The fold divides by the running weight (the
// ratio 1/3 rounds), so a mean of 0 may come out within 1e-7 of it.
// CHECK: [{{-?(0|[0-9.]+e-0[78])}},{{ +}}{{-?(0|[0-9.]+e-0[78])}},{{ +}}{{-?(0|[0-9.]+e-0[78])}},{{ +}}{{-?(0|[0-9.]+e-0[78])}},{{ +}}-1.5,{{ +}}1.5]
// CHECK: [10,{{ +}}10,{{ +}}10,{{ +}}10,{{ +}}0.5,{{ +}}0.5]
// CHECK: [5,{{ +}}5,{{ +}}5,{{ +}}5,{{ +}}2,{{ +}}2]
fusion.graph @masked() -> (!fusion.buffer<24xf32>, !fusion.buffer<16x8xf32>, !fusion.buffer<3x2xf32>, !fusion.buffer<3x2xf32>, !fusion.buffer<3x2xf32>) attributes {device = "cuda:0"} {
  %a = fusion.node "op0" (%p0) in [24] writes(%out : !fusion.buffer<24xf32>) {
    %i = fusion.index_expr [%p0 * 3 mod 5] : i64
    %f = fusion.cast %i : i64 to f32
    %two = arith.constant 2.0 : f32
    %v = arith.subf %f, %two : f32
    fusion.store %v, %out[%p0] : !fusion.buffer<24xf32>
  }
  %pad = fusion.node "op1" (%p0, %p1) in [16, 8] writes(%out : !fusion.buffer<16x8xf32>) {
    %row = fusion.index_expr [%p0] : i64
    %c3 = arith.constant 3 : i64
    %in = arith.cmpi slt, %row, %c3 : i64
    %zero = arith.constant 0.0 : f32
    %m = fusion.masked %in, %zero : f32 {
      %l = fusion.load %a[%p0 * 8 + %p1] : !fusion.buffer<24xf32>
      %two = arith.constant 2.0 : f32
      %d = arith.mulf %l, %two : f32
      fusion.yield %d : f32
    }
    fusion.store %m, %out[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
  }
  %mean, %m2, %weight = fusion.fused -> !fusion.buffer<3x2xf32>, !fusion.buffer<3x2xf32>, !fusion.buffer<3x2xf32> {
    %n2 = fusion.node "op2" (%p0, %p1, %p2) in [3, 2] reduce [5] writes(%out : !fusion.buffer<3x2xf32>) {
      %s = fusion.index_expr [%p0 * 5 + %p2] : i32
      %c12 = arith.constant 12 : i32
      %in = arith.cmpi slt, %s, %c12 : i32
      %zero = arith.constant 0.0 : f32
      %x = fusion.masked %in, %zero : f32 {
        %l = fusion.load %a[%p1 + ((%p0 * 5 + %p2) mod 12) * 2] : !fusion.buffer<24xf32>
        fusion.yield %l : f32
      }
      %z = fusion.masked %in, %zero : f32 {
        %c0 = arith.constant 0.0 : f32
        fusion.yield %c0 : f32
      }
      %w = fusion.masked %in, %zero : f32 {
        %c1 = arith.constant 1.0 : f32
        fusion.yield %c1 : f32
      }
      %r:3 = fusion.reduce welford_combine %x, %z, %w : f32, f32, f32 -> f32, f32, f32
      fusion.store %r#0, %out[%p0 * 2 + %p1] : !fusion.buffer<3x2xf32>
    }
    %n3 = fusion.node "op3" (%p0, %p1, %p2) in [3, 2] reduce [5] writes(%out : !fusion.buffer<3x2xf32>) {
      %s = fusion.index_expr [%p0 * 5 + %p2] : i32
      %c12 = arith.constant 12 : i32
      %in = arith.cmpi slt, %s, %c12 : i32
      %zero = arith.constant 0.0 : f32
      %x = fusion.masked %in, %zero : f32 {
        %l = fusion.load %a[%p1 + ((%p0 * 5 + %p2) mod 12) * 2] : !fusion.buffer<24xf32>
        fusion.yield %l : f32
      }
      %z = fusion.masked %in, %zero : f32 {
        %c0 = arith.constant 0.0 : f32
        fusion.yield %c0 : f32
      }
      %w = fusion.masked %in, %zero : f32 {
        %c1 = arith.constant 1.0 : f32
        fusion.yield %c1 : f32
      }
      %r:3 = fusion.reduce welford_combine %x, %z, %w : f32, f32, f32 -> f32, f32, f32
      fusion.store %r#1, %out[%p0 * 2 + %p1] : !fusion.buffer<3x2xf32>
    }
    %n4 = fusion.node "op4" (%p0, %p1, %p2) in [3, 2] reduce [5] writes(%out : !fusion.buffer<3x2xf32>) {
      %s = fusion.index_expr [%p0 * 5 + %p2] : i32
      %c12 = arith.constant 12 : i32
      %in = arith.cmpi slt, %s, %c12 : i32
      %zero = arith.constant 0.0 : f32
      %x = fusion.masked %in, %zero : f32 {
        %l = fusion.load %a[%p1 + ((%p0 * 5 + %p2) mod 12) * 2] : !fusion.buffer<24xf32>
        fusion.yield %l : f32
      }
      %z = fusion.masked %in, %zero : f32 {
        %c0 = arith.constant 0.0 : f32
        fusion.yield %c0 : f32
      }
      %w = fusion.masked %in, %zero : f32 {
        %c1 = arith.constant 1.0 : f32
        fusion.yield %c1 : f32
      }
      %r:3 = fusion.reduce welford_combine %x, %z, %w : f32, f32, f32 -> f32, f32, f32
      fusion.store %r#2, %out[%p0 * 2 + %p1] : !fusion.buffer<3x2xf32>
    }
    fusion.yield %n2, %n3, %n4 : !fusion.buffer<3x2xf32>, !fusion.buffer<3x2xf32>, !fusion.buffer<3x2xf32>
  }
  fusion.output %a, %pad, %mean, %m2, %weight : !fusion.buffer<24xf32>, !fusion.buffer<16x8xf32>, !fusion.buffer<3x2xf32>, !fusion.buffer<3x2xf32>, !fusion.buffer<3x2xf32>
}
