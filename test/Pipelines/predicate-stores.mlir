// --fusion-to-ptx writes the stores a kernel guards (threads past the last
// row, lanes other than a row's leader) as predicated PTX stores, with no
// branch around them: the loads they use stay where the lowering issued
// them, before the bounds test, instead of LLVM sinking them into the
// guarded block. predicate-stores=0 keeps the branch, and the loads follow
// it.
// RUN: rm -rf %t && scheduler-opt %s -o /dev/null --fusion-to-ptx="output-dir=%t/on"
// RUN: FileCheck %s --check-prefix=ONE < %t/on/one.ptx
// RUN: FileCheck %s --check-prefix=ROWS < %t/on/rows.ptx
// RUN: FileCheck %s --check-prefix=POINTWISE < %t/on/pointwise.ptx
// RUN: FileCheck %s --check-prefix=SCATTER < %t/on/scatter.ptx
// RUN: scheduler-opt %s -o /dev/null --fusion-to-ptx="output-dir=%t/off predicate-stores=0"
// RUN: FileCheck %s --check-prefix=ONE-OFF < %t/off/one.ptx
// RUN: FileCheck %s --check-prefix=POINTWISE-OFF < %t/off/pointwise.ptx
// With cache-hints=stores, a guarded vector store is evict-first too.
// RUN: scheduler-opt %s -o /dev/null --fusion-to-ptx="output-dir=%t/hints cache-hints=stores"
// RUN: FileCheck %s --check-prefix=HINTS < %t/hints/pointwise.ptx

// resnet18's `num_batches_tracked += 1`: one thread of a warp-sized block
// updates the counter. The load comes before the test of the thread's
// index, as in Triton's kernel; without predication LLVM sank it below.
// ONE: .visible .entry kernel_op0_op1(
// ONE-NOT: bra
// ONE: ld.global.b64 [[OLD:%rd[0-9]+]], [[[PTR:%rd[0-9]+]]];
// ONE: add.s64 [[NEW:%rd[0-9]+]], [[OLD]], 1;
// ONE: @[[P:%p[0-9]+]] st.global.b64 [[[PTR]]], [[NEW]];
// ONE-NOT: bra
// ONE: ret;
// ONE-OFF: .visible .entry kernel_op0_op1(
// ONE-OFF: @%p{{[0-9]+}} bra
// ONE-OFF: ld.global.b64
// ONE-OFF: st.global.b64
fusion.graph @one(%x: !fusion.buffer<1xi64>) -> (!fusion.buffer<1xi64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [1] writes(%t : !fusion.buffer<1xi64>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<1xi64>
    %c1 = arith.constant 1 : i64
    %1 = arith.addi %0, %c1 : i64
    fusion.store %1, %t[%p0] : !fusion.buffer<1xi64>
  }
  %buf1 = fusion.node "op1" (%p0) in [1] writes(%out : !fusion.buffer<1xi64> mutates %x) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<1xi64>
    fusion.store %0, %out[%p0] : !fusion.buffer<1xi64>
  }
  fusion.output %buf1 : !fusion.buffer<1xi64>
}

// A row sum: the row's leader lane stores it, predicated on its lane and on
// the row being one of the 100 (the grid's last block has rows past them).
// Shared-memory stores keep their branch.
// ROWS: .visible .entry kernel_op0(
// ROWS: ld.global.nc.v4.b32
// ROWS: st.shared.b32
// ROWS: @%p{{[0-9]+}} st.global.b32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// ROWS-NOT: st.global
// ROWS: ret;
fusion.graph @rows(%x: !fusion.buffer<100x256xf32>) -> (!fusion.buffer<100xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [100] reduce [256] writes(%out : !fusion.buffer<100xf32>) {
    %0 = fusion.load %x[%p0 * 256 + %p1] : !fusion.buffer<100x256xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<100xf32>
  }
  fusion.output %buf0 : !fusion.buffer<100xf32>
}

// A pointwise kernel of 250 groups of four in blocks of 256 threads: the
// 16-byte load comes before the stores' predicate is used, with no branch;
// the four booleans are byte stores (st.b8 of a 16-bit register) and the
// floats one 16-byte store, all under the same predicate.
// POINTWISE: .visible .entry kernel_op0(
// POINTWISE-NOT: bra
// POINTWISE: setp.lt.u32 [[P:%p[0-9]+]], %r{{[0-9]+}}, 250;
// POINTWISE: ld.global.nc.v4.b32
// POINTWISE-COUNT-4: @[[P]] st.global.b8 [%rd{{[0-9]+}}], %rs{{[0-9]+}};
// POINTWISE: @[[P]] st.global.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// POINTWISE-NOT: bra
// POINTWISE: ret;
// POINTWISE-OFF: .visible .entry kernel_op0(
// POINTWISE-OFF: bra
// POINTWISE-OFF: ld.global.nc.v4.b32
// HINTS: @%p{{[0-9]+}} st.global.cs.v4.b32
fusion.graph @pointwise(%x: !fusion.buffer<1000xf32>) -> (!fusion.buffer<1000xf32>, !fusion.buffer<1000xi1>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.node "op0" (%p0) in [1000] writes(%o0 : !fusion.buffer<1000xf32>, %o1 : !fusion.buffer<1000xi1>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<1000xf32>
    %1 = arith.addf %0, %0 : f32
    %zero = arith.constant 0.0 : f32
    %2 = arith.cmpf ogt, %0, %zero : f32
    fusion.store %1, %o0[%p0] : !fusion.buffer<1000xf32>
    fusion.store %2, %o1[%p0] : !fusion.buffer<1000xi1>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<1000xf32>, !fusion.buffer<1000xi1>
}

// @negative: atomic adds are no plain stores; their guard stays a branch.
// SCATTER: .visible .entry kernel_op0(
// SCATTER: @%p{{[0-9]+}} bra
// SCATTER: atom.global.add.f32
fusion.graph @scatter(%ids: !fusion.buffer<3xi64>, %g: !fusion.buffer<3xf32>, %acc: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [3] writes(%out : !fusion.buffer<8xf32> mutates %acc) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<3xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0] : !fusion.buffer<3xf32>
    fusion.store %2, %out[symbol(%1)] atomic_add : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}
