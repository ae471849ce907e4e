// Inductor's ops.sort (fusion.opaque "sort") along the reduction loop, run
// by the LLVM JIT on the inputs of test-fusion-jit-main against
// torch.sort's order computed independently in Python
// (test/Inputs/inductor_ops_reference.py sort_nan): NaN above every number
// in both directions, ties in their original order (stable), the other
// values of the tuple moved with the first, signed integers, booleans.

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run > %t.jit
// RUN: %python %S/../../Inputs/inductor_ops_reference.py sort_nan > %t.ref
// RUN: %compare_runs %t.jit %t.ref
// The CPU kernel sorts each row in stack arrays allocated once per call.
// RUN: scheduler-opt %s --convert-fusion-to-loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-LABEL: func.func private @sort__kernel_op0(
// LOOPS: memref.alloca() : memref<16xf32>
// LOOPS: memref.alloca() : memref<16xi64>
// LOOPS: scf.for
// LOOPS: scf.while
// On the GPU 4 lanes of a warp sort a row (BlockSort.h) in registers, 4
// elements a lane (the fewest lanes of a register sort), the stages across
// lanes as shuffles; with block-sorts=0 each thread sorts a row (one lane
// per row) in local memory.
// RUN: rm -rf %t.ptx && scheduler-opt %s --fusion-to-ptx="output-dir=%t.ptx schedule=0" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/sort.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.ptx/sort.json
// RUN: rm -rf %t.thread && scheduler-opt %s --fusion-to-ptx="output-dir=%t.thread schedule=0 block-sorts=0" -o /dev/null
// RUN: FileCheck %s --check-prefix=THREAD < %t.thread/sort.ptx
// PTX-LABEL: .entry kernel_op0(
// PTX-NOT: .local
// PTX: .shared .align {{[0-9]+}} .b8 __wg_kernel_op0_0
// PTX-NOT: bar.sync
// PTX: bar.warp.sync -1;
// PTX-NOT: bar.sync
// PTX: setp.nan.f32
// PTX-NOT: bar.sync
// PTX: shfl.sync.bfly.b32
// PTX-NOT: bar.sync
// PTX: bar.warp.sync -1;
// THREAD-LABEL: .entry kernel_op0(
// THREAD: .local .align {{[0-9]+}} .b8 __local_depot0[{{[0-9]+}}];
// THREAD: setp.nan.f32
// Rows of 4 lanes, 8 a block (the 4 rows, then copies of the last): one
// block of a warp.
// MANIFEST: "block": [
// MANIFEST-NEXT: 32,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 1,
// MANIFEST: "name": "kernel_op0"

fusion.graph @sort(%x: !fusion.buffer<4x16xf32>) -> (!fusion.buffer<4x16xf32>, !fusion.buffer<4x16xi64>, !fusion.buffer<4x16xf32>, !fusion.buffer<4x16xi64>, !fusion.buffer<4x16xi32>, !fusion.buffer<4x16xi64>, !fusion.buffer<4x16xi1>) attributes {device = "cuda:0"} {
  // v = x where x < 1 else NaN, sorted ascending with its positions.
  %asc, %asc_i = fusion.node "op0" (%p0, %p1) in [4] reduce [16] writes(%o0 : !fusion.buffer<4x16xf32>, %o1 : !fusion.buffer<4x16xi64>) {
    %a = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    %one = arith.constant 1.0 : f32
    %nan = arith.constant 0x7FC00000 : f32
    %small = arith.cmpf olt, %a, %one : f32
    %v = arith.select %small, %a, %nan : f32
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.opaque "sort"(%v, %i) {descending = false, stable = true} : (f32, i64) -> (f32, i64)
    fusion.store %s#0, %o0[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    fusion.store %s#1, %o1[%p0 * 16 + %p1] : !fusion.buffer<4x16xi64>
  }
  // The same, descending: NaNs first.
  %desc, %desc_i = fusion.node "op1" (%p0, %p1) in [4] reduce [16] writes(%o0 : !fusion.buffer<4x16xf32>, %o1 : !fusion.buffer<4x16xi64>) {
    %a = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    %one = arith.constant 1.0 : f32
    %nan = arith.constant 0x7FC00000 : f32
    %small = arith.cmpf olt, %a, %one : f32
    %v = arith.select %small, %a, %nan : f32
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.opaque "sort"(%v, %i) {descending = true, stable = false} : (f32, i64) -> (f32, i64)
    fusion.store %s#0, %o0[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    fusion.store %s#1, %o1[%p0 * 16 + %p1] : !fusion.buffer<4x16xi64>
  }
  // floor(4 x) as i32, descending, with positions: many ties.
  %ints, %ints_i = fusion.node "op2" (%p0, %p1) in [4] reduce [16] writes(%o0 : !fusion.buffer<4x16xi32>, %o1 : !fusion.buffer<4x16xi64>) {
    %a = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    %four = arith.constant 4.0 : f32
    %m = arith.mulf %a, %four : f32
    %f = math.floor %m : f32
    %n = arith.fptosi %f : f32 to i32
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.opaque "sort"(%n, %i) {descending = true, stable = true} : (i32, i64) -> (i32, i64)
    fusion.store %s#0, %o0[%p0 * 16 + %p1] : !fusion.buffer<4x16xi32>
    fusion.store %s#1, %o1[%p0 * 16 + %p1] : !fusion.buffer<4x16xi64>
  }
  // x > 0, a tuple of one boolean, ascending: false before true.
  %bools = fusion.node "op3" (%p0, %p1) in [4] reduce [16] writes(%o0 : !fusion.buffer<4x16xi1>) {
    %a = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    %zero = arith.constant 0.0 : f32
    %b = arith.cmpf ogt, %a, %zero : f32
    %s = fusion.opaque "sort"(%b) {descending = false, stable = false} : (i1) -> i1
    fusion.store %s, %o0[%p0 * 16 + %p1] : !fusion.buffer<4x16xi1>
  }
  fusion.output %asc, %asc_i, %desc, %desc_i, %ints, %ints_i, %bools : !fusion.buffer<4x16xf32>, !fusion.buffer<4x16xi64>, !fusion.buffer<4x16xf32>, !fusion.buffer<4x16xi64>, !fusion.buffer<4x16xi32>, !fusion.buffer<4x16xi64>, !fusion.buffer<4x16xi1>
}
