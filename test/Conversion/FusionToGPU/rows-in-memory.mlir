// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu="block-scans=0" | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu | FileCheck %s --check-prefix=BLOCK
// RUN: rm -rf %t.ptx && scheduler-opt %s -split-input-file --fusion-to-ptx="output-dir=%t.ptx schedule=0" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/dynscan.ptx

// A scan along rows of symbolic length keeps its rows in a temporary of
// the graph (RowOps.h): s77 * s27 elements, named after the kernel, in the
// manifest's storages (the runtime allocates it as any temporary) and
// among the kernel's arguments. With block-scans=0 each thread takes a
// row; element r of row x is at r * s77 + x, so that the threads of a warp,
// on adjacent rows, access adjacent elements. Rows past the end (the last
// block's clamped threads) neither write nor scan: their clamped row is
// another thread's.
// CHECK: dynscan = {{{.*}}steps = [{args = ["x", "op0_rows0", "sum"], block = [256, 1, 1], grid = ["(s77 + 255) // 256", 1, 1]
// CHECK-SAME: storages = [{dtype = "f32", elements = "s77*s27", name = "x", role = "input"}, {dtype = "f32", elements = "s77*s27", name = "sum", role = "output"}, {dtype = "f32", elements = "s77*s27", name = "op0_rows0", role = "temp"}]
// CHECK-LABEL: gpu.module @dynscan_kernels
// CHECK: gpu.func @kernel_op0(%[[X:[^:]*]]: memref<281474976710656xf32> {fusion.name = "x", llvm.noalias}, %[[ROWS:[^:]*]]: memref<281474976710656xf32> {fusion.name = "op0_rows0", llvm.noalias}, %[[OUT:[^:]*]]: memref<281474976710656xf32> {fusion.name = "sum", llvm.noalias}, %[[S0:[^:]*]]: index, %[[S1:[^:]*]]: index)
// CHECK: %[[NUMEL:.*]] = arith.index_cast %[[S0]] : index to i64
// CHECK: %[[VALID:.*]] = arith.cmpi ult, %[[ROW:.*]], %[[NUMEL]] : i64
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[ROW]], %{{.*}} : i64
// The first pass writes the row.
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %[[X]]
// CHECK: %[[WRITE:.*]] = arith.andi %{{.*}}, %[[VALID]] : i1
// CHECK: scf.if %[[WRITE]] {
// CHECK: %[[XI:.*]] = arith.index_cast %[[CLAMPED]] : i64 to index
// CHECK: %[[RI:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[STEP:.*]] = arith.muli %[[RI]], %[[S0]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[XI]], %[[STEP]] : index
// CHECK: memref.store %[[V]], %[[ROWS]][%[[AT]]]
// The scan, in place, of a valid and non-empty row.
// CHECK: scf.if %[[VALID]] {
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi ugt, %[[S1]], %{{.*}} : index
// CHECK: scf.if %[[NONEMPTY]] {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[S1]] step %{{.*}} iter_args
// CHECK: %[[ISTEP:.*]] = arith.muli %[[I]], %[[S0]] : index
// CHECK: %[[IAT:.*]] = arith.addi %{{.*}}, %[[ISTEP]] : index
// CHECK: %[[CUR:.*]] = memref.load %[[ROWS]][%[[IAT]]]
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %[[CUR]] : f32
// CHECK: memref.store %[[SUM]], %[[ROWS]][%[[IAT]]]
// The second pass reads each element's result back.
// CHECK: scf.for
// CHECK: memref.load %[[ROWS]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// The host function allocates the rows for the call and frees them after.
// CHECK-LABEL: func.func @dynscan(
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[SCRATCH:.*]] = gpu.alloc  (%[[N]]) : memref<?xf32>
// CHECK: gpu.launch_func
// CHECK: gpu.dealloc  %[[SCRATCH]]
// By default lanes scan each row together (BlockScan.h; a group of 32
// lanes at the hint's 100 elements a row, 8 rows a block of 256, the rows
// past the last clamped to it), and since the scan only feeds the stores
// after it, it reads its inputs and stores its results in one pass: the
// storage of the rows is planned (for any lowering) but not used. Its
// non-empty check is the block's; the rows past the last store nothing.
// BLOCK: dynscan = {{{.*}}steps = [{args = ["x", "op0_rows0", "sum"], block = [256, 1, 1], grid = ["(s77 + 7) // 8", 1, 1]
// BLOCK-LABEL: gpu.module @dynscan_kernels
// BLOCK: gpu.func @kernel_op0(%[[X:[^:]*]]: memref<281474976710656xf32> {fusion.name = "x", llvm.noalias}, %[[ROWS:[^:]*]]: memref<281474976710656xf32> {fusion.name = "op0_rows0", llvm.noalias}, %[[OUT:[^:]*]]: memref<281474976710656xf32> {fusion.name = "sum", llvm.noalias}, %{{[^:]*}}: index, %[[S1:[^:]*]]: index)
// BLOCK-NOT: %[[ROWS]]
// BLOCK: %[[VALID:.*]] = arith.cmpi ult, %[[ROW:.*]], %{{.*}} : i64
// BLOCK: arith.minui %[[ROW]]
// BLOCK: %[[NONEMPTY:.*]] = arith.cmpi ugt, %{{.*}}, %{{.*}} : index
// BLOCK: scf.if %[[NONEMPTY]] {
// BLOCK: scf.for
// BLOCK: memref.load %[[X]]
// BLOCK: gpu.shuffle  up
// BLOCK: %[[STORE:.*]] = arith.andi %{{.*}}, %[[VALID]] : i1
// BLOCK: scf.if %[[STORE]] {
// BLOCK-NEXT: memref.store %{{.*}}, %[[OUT]]
// BLOCK-NOT: %[[ROWS]]
// BLOCK: gpu.return
// Nothing on the thread's stack (local memory).
// PTX-LABEL: .entry kernel_op0(
// PTX-NOT: __local_depot
// PTX: ld.global
fusion.graph @dynscan symbols(s0 = 1000, s1 = 100) (%x: !fusion.buffer<s0 x s1 x f32>) -> (!fusion.buffer<s0 x s1 x f32>) attributes {device = "cuda:0", symbol_names = ["s77", "s27"]} {
  %sum = fusion.node "op0" (%p0, %p1) in [s0] reduce [s1] writes(%o0 : !fusion.buffer<s0 x s1 x f32>) {
    %a = fusion.load %x[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x f32>
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %s, %o0[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x f32>
  }
  fusion.output %sum : !fusion.buffer<s0 x s1 x f32>
}

// -----

// Static rows of 1500 sorted with their positions: 18000 bytes a thread,
// more than the 16 KiB a stack may take: a temporary per value of the tuple,
// 2 x 1500 elements of its type, no stack array; the arrays interleave the
// 2 rows (element r of row x at r * 2 + x).
// CHECK: long = {{{.*}}steps = [{args = ["x", "op0_rows0", "op0_rows1", "sorted", "order"]
// CHECK-SAME: {dtype = "f32", elements = 3000 : i64, name = "op0_rows0", role = "temp"}, {dtype = "i64", elements = 3000 : i64, name = "op0_rows1", role = "temp"}]
// CHECK-LABEL: gpu.module @long_kernels
// CHECK: gpu.func @kernel_op0(%{{[^:]*}}: memref<3000xf32> {fusion.name = "x", llvm.noalias}, %[[KEYS:[^:]*]]: memref<3000xf32> {fusion.name = "op0_rows0", llvm.noalias}, %[[POS:[^:]*]]: memref<3000xi64> {fusion.name = "op0_rows1", llvm.noalias}
// CHECK-NOT: memref.alloca
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %[[TWO:.*]] : index
// CHECK: %[[AT:.*]] = arith.addi %{{.*}}, %[[STEP]] : index
// CHECK: memref.store %{{.*}}, %[[KEYS]][%[[AT]]]
// CHECK: memref.store %{{.*}}, %[[POS]][%[[AT]]]
// CHECK: scf.while
// CHECK: gpu.return
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
