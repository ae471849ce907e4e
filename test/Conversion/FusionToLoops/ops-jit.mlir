// Body ops and host-side buffer handling, run by the LLVM JIT on data the
// graph makes itself, against values computed by hand: casts with PyTorch
// semantics, floor division and modulo of negative indices, masked loads
// that would be out of bounds, indirect loads, atomic accumulation into a
// buffer updated in place, Triton's Philox random numbers, a transposed
// (strided) output, a zero-dimensional buffer, a view, and outputs that are
// returned twice or are views (copied into their output arguments).

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run | FileCheck %s

fusion.graph @ops() -> (!fusion.buffer<8xf32>, !fusion.buffer<8xi32>, !fusion.buffer<8xf32>, !fusion.buffer<8xi64>, !fusion.buffer<8xi64>, !fusion.buffer<10xf32>, !fusion.buffer<4xf32>, !fusion.buffer<3xf32>, !fusion.buffer<4xf32>, !fusion.buffer<2x3xf32, strides = [1, 2]>, !fusion.buffer<f32>, !fusion.buffer<2x4xf32>, !fusion.buffer<2x4xf32>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // x = [-3.5, -2.5, ..., 3.5]
  // CHECK: [-3.5,{{ +}}-2.5,{{ +}}-1.5,{{ +}}-0.5,{{ +}}0.5,{{ +}}1.5,{{ +}}2.5,{{ +}}3.5]
  %x = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %f = fusion.cast %i : i64 to f32
    %half = arith.constant 3.5 : f32
    %v = arith.subf %f, %half : f32
    fusion.store %v, %out[%p0] : !fusion.buffer<8xf32>
  }
  // f32 -> i32 truncates toward zero; i32 -> i1 tests for non-zero; i1 -> f32
  // is 0 or 1.
  // CHECK: [-3,{{ +}}-2,{{ +}}-1,{{ +}}0,{{ +}}0,{{ +}}1,{{ +}}2,{{ +}}3]
  // CHECK: [1,{{ +}}1,{{ +}}1,{{ +}}0,{{ +}}0,{{ +}}1,{{ +}}1,{{ +}}1]
  %trunc, %nonzero = fusion.node "op1" (%p0) in [8] writes(%o0 : !fusion.buffer<8xi32>, %o1 : !fusion.buffer<8xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    %i = fusion.cast %v : f32 to i32
    %b = fusion.cast %i : i32 to i1
    %f = fusion.cast %b : i1 to f32
    fusion.store %i, %o0[%p0] : !fusion.buffer<8xi32>
    fusion.store %f, %o1[%p0] : !fusion.buffer<8xf32>
  }
  // (p0 - 4) floordiv 3 and (p0 - 4) mod 3 for p0 - 4 = -4 .. 3
  // CHECK: [-2,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}0,{{ +}}0,{{ +}}0,{{ +}}1]
  // CHECK: [2,{{ +}}0,{{ +}}1,{{ +}}2,{{ +}}0,{{ +}}1,{{ +}}2,{{ +}}0]
  %div, %mod = fusion.node "op2" (%p0) in [8] writes(%o0 : !fusion.buffer<8xi64>, %o1 : !fusion.buffer<8xi64>) {
    %d = fusion.index_expr [(%p0 - 4) floordiv 3] : i64
    %m = fusion.index_expr [(%p0 - 4) mod 3] : i64
    fusion.store %d, %o0[%p0] : !fusion.buffer<8xi64>
    fusion.store %m, %o1[%p0] : !fusion.buffer<8xi64>
  }
  // Padding: x[p0 - 1] where 1 <= p0 <= 8, else -100; the load at p0 - 1 =
  // -1 and 8 must not run.
  // CHECK: [-100,{{ +}}-3.5,{{ +}}-2.5,{{ +}}-1.5,{{ +}}-0.5,{{ +}}0.5,{{ +}}1.5,{{ +}}2.5,{{ +}}3.5,{{ +}}-100]
  %padded = fusion.node "op3" (%p0) in [10] writes(%out : !fusion.buffer<10xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %lo = arith.cmpi sge, %p0, %c1 : index
    %hi = arith.cmpi sle, %p0, %c8 : index
    %in = arith.andi %lo, %hi : i1
    %other = arith.constant -100.0 : f32
    %v = fusion.masked %in, %other : f32 {
      %l = fusion.load %x[%p0 - 1] : !fusion.buffer<8xf32>
      fusion.yield %l : f32
    }
    fusion.store %v, %out[%p0] : !fusion.buffer<10xf32>
  }
  // Gather x[ids] with ids = 7 p0 mod 8 = [0, 7, 6, 5].
  // CHECK: [-3.5,{{ +}}3.5,{{ +}}2.5,{{ +}}1.5]
  %ids = fusion.node "op4" (%p0) in [4] writes(%out : !fusion.buffer<4xi64>) {
    %i = fusion.index_expr [%p0 * 7 mod 8] : i64
    fusion.store %i, %out[%p0] : !fusion.buffer<4xi64>
  }
  %gathered = fusion.node "op5" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %id = fusion.load %ids[%p0] : !fusion.buffer<4xi64>
    %i = arith.index_cast %id : i64 to index
    %v = fusion.load %x[symbol(%i)] : !fusion.buffer<8xf32>
    fusion.store %v, %out[%p0] : !fusion.buffer<4xf32>
  }
  // Scatter-add x[p0] into bucket p0 mod 3 of a zeroed buffer, in place:
  // [-3.5 - 0.5 + 2.5, -2.5 + 0.5 + 3.5, -1.5 + 1.5] = [-1.5, 1.5, 0].
  // CHECK: [-1.5,{{ +}}1.5,{{ +}}0]
  %zeros = fusion.node "op6" (%p0) in [3] writes(%out : !fusion.buffer<3xf32>) {
    %zero = arith.constant 0.0 : f32
    fusion.store %zero, %out[%p0] : !fusion.buffer<3xf32>
  }
  %buckets = fusion.node "op7" (%p0) in [8] writes(%out : !fusion.buffer<3xf32> mutates %zeros) {
    %v = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    fusion.store %v, %out[%p0 mod 3] atomic_add : !fusion.buffer<3xf32>
  }
  // tl.rand(0, offset): the first word of Philox4x32-10 with key (0, 0) and
  // counter (0, 0, 0, 0) is 0x6627e8d5 (Random123's known-answer test), so
  // element 0 is 1713891541 * 4.6566127342e-10 = 0.798093.
  // CHECK: [0.798093,
  %random = fusion.node "op8" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %seed = arith.constant 0 : i64
    %offset = fusion.index_expr [%p0] : i32
    %r = fusion.rand %seed, %offset : i64, i32 -> f32
    fusion.store %r, %out[%p0] : !fusion.buffer<4xf32>
  }
  // A transposed output: element (p0, p1) = 3 p0 + p1 at storage p0 + 2 p1.
  // CHECK: [0,{{ +}}3,{{ +}}1,{{ +}}4,{{ +}}2,{{ +}}5]
  %transposed = fusion.node "op9" (%p0, %p1) in [2, 3] writes(%out : !fusion.buffer<2x3xf32, strides = [1, 2]>) {
    %i = fusion.index_expr [%p0 * 3 + %p1] : i64
    %f = fusion.cast %i : i64 to f32
    fusion.store %f, %out[%p1 * 2 + %p0] : !fusion.buffer<2x3xf32, strides = [1, 2]>
  }
  // A zero-dimensional buffer: 2 x[7] = 7.
  // CHECK: [7]
  %scalar = fusion.node "op10" () in [] writes(%out : !fusion.buffer<f32>) {
    %v = fusion.load %x[7] : !fusion.buffer<8xf32>
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %v, %two : f32
    fusion.store %w, %out[0] : !fusion.buffer<f32>
  }
  // A 2x4 view of x, read by a node (x + 10) and returned itself (copied).
  // CHECK: [6.5,{{ +}}7.5,{{ +}}8.5,{{ +}}9.5,{{ +}}10.5,{{ +}}11.5,{{ +}}12.5,{{ +}}13.5]
  // CHECK: [-3.5,{{ +}}-2.5,{{ +}}-1.5,{{ +}}-0.5,{{ +}}0.5,{{ +}}1.5,{{ +}}2.5,{{ +}}3.5]
  %view = fusion.nop "op11"(%x) : (!fusion.buffer<8xf32>) -> !fusion.buffer<2x4xf32>
  %shifted = fusion.node "op12" (%p0, %p1) in [2, 4] writes(%out : !fusion.buffer<2x4xf32>) {
    %v = fusion.load %view[%p0 * 4 + %p1] : !fusion.buffer<2x4xf32>
    %ten = arith.constant 10.0 : f32
    %w = arith.addf %v, %ten : f32
    fusion.store %w, %out[%p0 * 4 + %p1] : !fusion.buffer<2x4xf32>
  }
  // x returned a second time: a copy.
  // CHECK: [-3.5,{{ +}}-2.5,{{ +}}-1.5,{{ +}}-0.5,{{ +}}0.5,{{ +}}1.5,{{ +}}2.5,{{ +}}3.5]
  fusion.output %x, %trunc, %nonzero, %div, %mod, %padded, %gathered, %buckets, %random, %transposed, %scalar, %shifted, %view, %x : !fusion.buffer<8xf32>, !fusion.buffer<8xi32>, !fusion.buffer<8xf32>, !fusion.buffer<8xi64>, !fusion.buffer<8xi64>, !fusion.buffer<10xf32>, !fusion.buffer<4xf32>, !fusion.buffer<3xf32>, !fusion.buffer<4xf32>, !fusion.buffer<2x3xf32, strides = [1, 2]>, !fusion.buffer<f32>, !fusion.buffer<2x4xf32>, !fusion.buffer<2x4xf32>, !fusion.buffer<8xf32>
}
