// fusion.scan (Inductor's ops.scan) along the reduction loop, run by the
// LLVM JIT on the inputs of test-fusion-jit-main against Python
// (test/Inputs/inductor_ops_reference.py scan_jit): a sum, a running
// maximum with the position of its last occurrence (a combine function of
// two values), and s = 0.5 s + x, whose combine function reads a value of
// the node body. The last is written, as a scan must be (Inductor's
// tl.associative_scan and the GPU's block scans combine in a tree), with
// an associative combine function: pairs (n, s) of a count of elements
// and their decayed sum, (n1, s1) then (n2, s2) giving (n1 + n2,
// s1 * 0.5^n2 + s2); the 0.5 is the body's.

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run > %t.jit
// RUN: %python %S/../../Inputs/inductor_ops_reference.py scan_jit > %t.ref
// RUN: %compare_runs %t.jit %t.ref --rtol 1e-5 --atol 1e-6
// The CPU kernel scans each row in a stack array, carrying the partial
// tuple through the loop.
// RUN: scheduler-opt %s --convert-fusion-to-loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-LABEL: func.func private @scan__kernel_op0(
// LOOPS: %[[ROW:.*]] = memref.alloca() : memref<16xf32>
// LOOPS: scf.for
// LOOPS: %[[FIRST:.*]] = memref.load %[[ROW]][%{{.*}}] : memref<16xf32>
// LOOPS: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]]) -> (f32)
// LOOPS: %[[CUR:.*]] = memref.load %[[ROW]]
// LOOPS: %[[SUM:.*]] = arith.addf %[[ACC]], %[[CUR]] : f32
// LOOPS: memref.store %[[SUM]], %[[ROW]]
// The GPU lowering: one thread per row (rows of 16 are shorter than block
// scans take; LLVM keeps them in registers).
// RUN: rm -rf %t.ptx && scheduler-opt %s --fusion-to-ptx="output-dir=%t.ptx schedule=0" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/scan.ptx
// PTX-LABEL: .entry kernel_op1(
// PTX: setp.nan.f32
// PTX: setp.gt.f32

fusion.graph @scan(%x: !fusion.buffer<4x16xf32>) -> (!fusion.buffer<4x16xf32>, !fusion.buffer<4x16xf32>, !fusion.buffer<4x16xi64>, !fusion.buffer<4x16xf32>) attributes {device = "cuda:0"} {
  %sum = fusion.node "op0" (%p0, %p1) in [4] reduce [16] writes(%o0 : !fusion.buffer<4x16xf32>) {
    %a = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %s, %o0[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
  }
  // Inductor's cummax combine: keep the partial when it is larger (or
  // NaN), else take the current value and its later position.
  %max, %pos = fusion.node "op1" (%p0, %p1) in [4] reduce [16] writes(%o0 : !fusion.buffer<4x16xf32>, %o1 : !fusion.buffer<4x16xi64>) {
    %a = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.scan "scan1"(%a, %i) : (f32, i64) -> (f32, i64) combine {
    ^bb0(%av: f32, %ai: i64, %bv: f32, %bi: i64):
      %gt = arith.cmpf ogt, %av, %bv : f32
      %nan = arith.cmpf uno, %av, %av : f32
      %keep = arith.ori %gt, %nan : i1
      %v = arith.select %keep, %av, %bv : f32
      %k = arith.select %keep, %ai, %bi : i64
      fusion.scan_yield %v, %k : f32, i64
    }
    fusion.store %s#0, %o0[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    fusion.store %s#1, %o1[%p0 * 16 + %p1] : !fusion.buffer<4x16xi64>
  }
  %ema = fusion.node "op2" (%p0, %p1) in [4] reduce [16] writes(%o0 : !fusion.buffer<4x16xf32>) {
    %a = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %s:2 = fusion.scan "scan1"(%one, %a) : (f32, f32) -> (f32, f32) combine {
    ^bb0(%n1: f32, %s1: f32, %n2: f32, %s2: f32):
      %n = arith.addf %n1, %n2 : f32
      %decay = math.powf %half, %n2 : f32
      %d = arith.mulf %s1, %decay : f32
      %t = arith.addf %d, %s2 : f32
      fusion.scan_yield %n, %t : f32, f32
    }
    fusion.store %s#1, %o0[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
  }
  fusion.output %sum, %max, %pos, %ema : !fusion.buffer<4x16xf32>, !fusion.buffer<4x16xf32>, !fusion.buffer<4x16xi64>, !fusion.buffer<4x16xf32>
}
