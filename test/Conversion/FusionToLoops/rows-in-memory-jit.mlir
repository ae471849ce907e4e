// Sorts and scans along rows of symbolic length, and along static rows too
// long for stack arrays (over 16 KiB a thread, KernelPlan.cpp), keep their
// rows in temporaries of the graph of numel x rnumel elements (RowOps.h).
// Run by the LLVM JIT at two sizes on the inputs of test-fusion-jit-main
// against Python (test/Inputs/inductor_ops_reference.py rows_in_memory,
// which computes the same functions on the same inputs in f32 steps).

// RUN: scheduler-opt %s --convert-fusion-to-loops > %t.mlir
// RUN: scheduler-opt %t.mlir --test-fusion-jit-main=sizes=3,7 --fusion-loops-to-llvm | %jit_run > %t.small
// RUN: %python %S/../../Inputs/inductor_ops_reference.py rows_in_memory 3 7 > %t.small.ref
// RUN: %compare_runs %t.small %t.small.ref --rtol 1e-5 --atol 1e-5
// RUN: scheduler-opt %t.mlir --test-fusion-jit-main=sizes=5,33 --fusion-loops-to-llvm | %jit_run > %t.large
// RUN: %python %S/../../Inputs/inductor_ops_reference.py rows_in_memory 5 33 > %t.large.ref
// RUN: %compare_runs %t.large %t.large.ref --rtol 1e-5 --atol 1e-5
// RUN: FileCheck %s < %t.mlir

// The scan's kernel takes its rows' storage after the input; element r of
// row x is at x * s1 + r (each row contiguous on the CPU). Rows are written
// in the first pass, scanned in place, and read back in the second.
// CHECK-LABEL: func.func private @dynrows__kernel_op0(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf32> {fusion.name = "x"}, %[[ROWS:[^:]*]]: memref<?xf32> {fusion.name = "op0_rows0"}, %[[OUT:[^:]*]]: memref<?xf32> {fusion.name = "cumsum"}, %[[S0:[^:]*]]: index, %[[S1:[^:]*]]: index)
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %[[S0]]
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %[[X]]
// CHECK: %[[START:.*]] = arith.muli %[[ROW]], %[[S1]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[START]], %{{.*}} : index
// CHECK: memref.store %[[V]], %[[ROWS]][%[[AT]]]
// CHECK: scf.for %{{.*}} iter_args
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[ROWS]]
// CHECK: scf.for
// CHECK: memref.load %[[ROWS]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// The sort of (values, indices): two storages, one per result.
// CHECK-LABEL: func.func private @dynrows__kernel_op1(
// CHECK-SAME: {fusion.name = "op1_rows0"}, %{{.*}}: memref<?xi64> {fusion.name = "op1_rows1"}
// CHECK: scf.while
// The host function allocates each storage at s0 * s1 elements for the
// call and frees it after.
// CHECK-LABEL: func.func @dynrows(
// CHECK-SAME: %{{[^:]*}}: index {fusion.name = "s0", fusion.role = "symbol"}, %[[H1:[^:]*]]: index {fusion.name = "s1", fusion.role = "symbol"})
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %[[H1]] : index
// CHECK: %[[SCRATCH:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK: call @dynrows__kernel_op0(%{{.*}}, %[[SCRATCH]],
// CHECK: memref.dealloc %[[SCRATCH]]
// Static rows of 1500 (f32, i64): 18000 bytes a thread, more than stack
// arrays may take: 2 x 1500 elements each in memory, no alloca.
// CHECK-LABEL: func.func private @long__kernel_op0(
// CHECK-SAME: %{{.*}}: memref<3000xf32> {fusion.name = "op0_rows0"}, %{{.*}}: memref<3000xi64> {fusion.name = "op0_rows1"}
// CHECK-NOT: memref.alloca
// CHECK-LABEL: func.func @long(
// Rows of 1300 f32 (5200 bytes) stay on the stack.
// CHECK-LABEL: func.func private @short__kernel_op0(
// CHECK: memref.alloca() : memref<1300xf32>

fusion.graph @dynrows symbols(s0 = 4, s1 = 100) (%x: !fusion.buffer<s0 x s1 x f32>) -> (!fusion.buffer<s0 x s1 x f32>, !fusion.buffer<s0 x s1 x f32>, !fusion.buffer<s0 x s1 x i64>, !fusion.buffer<s0 x f32>) attributes {device = "cuda:0"} {
  // torch.cumsum(x, 1)
  %cumsum = fusion.node "op0" (%p0, %p1) in [s0] reduce [s1] writes(%o : !fusion.buffer<s0 x s1 x f32>) {
    %a = fusion.load %x[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x f32>
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %s, %o[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x f32>
  }
  // torch.sort(x, 1, descending=True, stable=True)
  %sorted, %order = fusion.node "op1" (%p0, %p1) in [s0] reduce [s1] writes(%o0 : !fusion.buffer<s0 x s1 x f32>, %o1 : !fusion.buffer<s0 x s1 x i64>) {
    %a = fusion.load %x[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x f32>
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.opaque "sort"(%a, %i) {descending = true, stable = true} : (f32, i64) -> (f32, i64)
    fusion.store %s#0, %o0[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x f32>
    fusion.store %s#1, %o1[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x i64>
  }
  // cumsum(x, 1).amax(1): the scanned row is read back by a reduction in
  // the pass after the scan.
  %top = fusion.node "op2" (%p0, %p1) in [s0] reduce [s1] writes(%o : !fusion.buffer<s0 x f32>) {
    %a = fusion.load %x[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x f32>
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    %m = fusion.reduce max %s : f32 -> f32
    fusion.store %m, %o[%p0] : !fusion.buffer<s0 x f32>
  }
  fusion.output %cumsum, %sorted, %order, %top : !fusion.buffer<s0 x s1 x f32>, !fusion.buffer<s0 x s1 x f32>, !fusion.buffer<s0 x s1 x i64>, !fusion.buffer<s0 x f32>
}

// torch.sort(x, 1) of two rows of 1500.
fusion.graph @long(%x: !fusion.buffer<2x1500xf32>) -> (!fusion.buffer<2x1500xf32>, !fusion.buffer<2x1500xi64>) attributes {device = "cuda:0"} {
  %sorted, %order = fusion.node "op0" (%p0, %p1) in [2] reduce [1500] writes(%o0 : !fusion.buffer<2x1500xf32>, %o1 : !fusion.buffer<2x1500xi64>) {
    %a = fusion.load %x[%p0 * 1500 + %p1] : !fusion.buffer<2x1500xf32>
    %i = fusion.index_expr [%p1] : i64
    %s:2 = fusion.opaque "sort"(%a, %i) {descending = false, stable = true} : (f32, i64) -> (f32, i64)
    fusion.store %s#0, %o0[%p0 * 1500 + %p1] : !fusion.buffer<2x1500xf32>
    fusion.store %s#1, %o1[%p0 * 1500 + %p1] : !fusion.buffer<2x1500xi64>
  }
  fusion.output %sorted, %order : !fusion.buffer<2x1500xf32>, !fusion.buffer<2x1500xi64>
}

// torch.cumsum(x, 1) of two rows of 1300.
fusion.graph @short(%x: !fusion.buffer<2x1300xf32>) -> (!fusion.buffer<2x1300xf32>) attributes {device = "cuda:0"} {
  %cumsum = fusion.node "op0" (%p0, %p1) in [2] reduce [1300] writes(%o : !fusion.buffer<2x1300xf32>) {
    %a = fusion.load %x[%p0 * 1300 + %p1] : !fusion.buffer<2x1300xf32>
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %s, %o[%p0 * 1300 + %p1] : !fusion.buffer<2x1300xf32>
  }
  fusion.output %cumsum : !fusion.buffer<2x1300xf32>
}
