// --fusion-to-ptx writes the stores and atomic adds a kernel guards
// (threads past the last row, lanes other than a row's leader) as
// predicated PTX, with no branch around them: the loads they use stay
// where the lowering issued them, before the bounds test, instead of LLVM
// sinking them into the guarded block. predicate-stores=0 keeps the
// branch, and the loads follow it.
// RUN: rm -rf %t && scheduler-opt %s -o /dev/null --fusion-to-ptx="output-dir=%t/on"
// RUN: FileCheck %s --check-prefix=ONE < %t/on/one.ptx
// RUN: FileCheck %s --check-prefix=ROWS < %t/on/rows.ptx
// RUN: FileCheck %s --check-prefix=POINTWISE < %t/on/pointwise.ptx
// RUN: FileCheck %s --check-prefix=SCATTER < %t/on/scatter.ptx
// RUN: FileCheck %s --check-prefix=VECTOR < %t/on/vector_scatter.ptx
// RUN: FileCheck %s --check-prefix=LEADER < %t/on/leader_scatter.ptx
// RUN: FileCheck %s --check-prefix=COUNT < %t/on/count.ptx
// RUN: FileCheck %s --check-prefix=HALF < %t/on/negative_half.ptx
// RUN: scheduler-opt %s -o /dev/null --fusion-to-ptx="output-dir=%t/off predicate-stores=0"
// RUN: FileCheck %s --check-prefix=ONE-OFF < %t/off/one.ptx
// RUN: FileCheck %s --check-prefix=POINTWISE-OFF < %t/off/pointwise.ptx
// RUN: FileCheck %s --check-prefix=SCATTER-OFF < %t/off/scatter.ptx
// RUN: FileCheck %s --check-prefix=VECTOR-OFF < %t/off/vector_scatter.ptx
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

// A scatter of 3 elements in a warp: the atomic add whose result is unused
// becomes a predicated reduction, after the loads of the index and the
// value, which predicate-stores=0 sinks below the branch.
// SCATTER: .visible .entry kernel_op0(
// SCATTER-NOT: bra
// SCATTER: setp.lt.u32 [[P:%p[0-9]+]], %r{{[0-9]+}}, 3;
// SCATTER-DAG: ld.global.nc.b64
// SCATTER-DAG: ld.global.nc.b32 [[V:%r[0-9]+]],
// SCATTER: @[[P]] red.global.add.f32 [%rd{{[0-9]+}}], [[V]];
// SCATTER-NOT: atom.
// SCATTER: ret;
// SCATTER-OFF: .visible .entry kernel_op0(
// SCATTER-OFF: @%p{{[0-9]+}} bra
// SCATTER-OFF: ld.global.nc.b64
// SCATTER-OFF: atom.global.add.f32
fusion.graph @scatter(%ids: !fusion.buffer<3xi64>, %g: !fusion.buffer<3xf32>, %acc: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [3] writes(%out : !fusion.buffer<8xf32> mutates %acc) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<3xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0] : !fusion.buffer<3xf32>
    fusion.store %2, %out[symbol(%1)] atomic_add : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// 100 rows of 24 scattered by token: 600 groups of four in blocks of 256
// threads. The lowering's vector reduction (inline PTX) takes the
// bounds test as its predicate.
// VECTOR: .visible .entry kernel_op0(
// VECTOR-NOT: bra
// VECTOR: setp.lt.u32 [[P:%p[0-9]+]], %r{{[0-9]+}}, 600;
// VECTOR: ld.global.nc.v4.b32
// VECTOR: @[[P]] red.global.add.v4.f32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// VECTOR: ret;
// VECTOR-OFF: .visible .entry kernel_op0(
// VECTOR-OFF: @%p{{[0-9]+}} bra
// VECTOR-OFF: ld.global.nc.v4.b32
// VECTOR-OFF: {{^}}	red.global.add.v4.f32
fusion.graph @vector_scatter(%ids: !fusion.buffer<100xi64>, %g: !fusion.buffer<100x24xf32>, %acc: !fusion.buffer<64x24xf32>) -> (!fusion.buffer<64x24xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [100, 24] writes(%out : !fusion.buffer<64x24xf32> mutates %acc) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<100xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0 * 24 + %p1] : !fusion.buffer<100x24xf32>
    fusion.store %2, %out[symbol(%1) * 24 + %p1] atomic_add : !fusion.buffer<64x24xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64x24xf32>
}

// A row sum added into a bin by the row's leader lane, in f64 (rows of a
// warp: the sum is exchanged by shuffles, with no shared-memory branch).
// LEADER: .visible .entry kernel_op0(
// LEADER: shfl.sync
// LEADER-NOT: bra
// LEADER: @%p{{[0-9]+}} red.global.add.f64 [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// LEADER-NOT: atom.
// LEADER: ret;
fusion.graph @leader_scatter(%ids: !fusion.buffer<100xi64>, %x: !fusion.buffer<100x32xf64>, %acc: !fusion.buffer<8xf64>) -> (!fusion.buffer<8xf64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [100] reduce [32] writes(%out : !fusion.buffer<8xf64> mutates %acc) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<100xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %x[%p0 * 32 + %p1] : !fusion.buffer<100x32xf64>
    %3 = fusion.reduce sum %2 : f64 -> f64
    fusion.store %3, %out[symbol(%1)] atomic_add : !fusion.buffer<8xf64>
  }
  fusion.output %buf0 : !fusion.buffer<8xf64>
}

// Integer counters: each thread adds four i64 values, under one predicate.
// COUNT: .visible .entry kernel_op0(
// COUNT-NOT: bra
// COUNT-COUNT-4: @%p{{[0-9]+}} red.global.add.u64 [%rd{{[0-9]+}}], %rd{{[0-9]+}};
// COUNT-NOT: atom.
// COUNT: ret;
fusion.graph @count(%acc: !fusion.buffer<8xi64>) -> (!fusion.buffer<8xi64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [1000] writes(%out : !fusion.buffer<8xi64> mutates %acc) {
    %0 = fusion.index_expr [%p0] : i64
    %1 = fusion.index_expr [%p0 mod 8] : i64
    %2 = arith.index_cast %1 : i64 to index
    fusion.store %0, %out[symbol(%2)] atomic_add : !fusion.buffer<8xi64>
  }
  fusion.output %buf0 : !fusion.buffer<8xi64>
}

// @negative_half: 16-bit atomic adds have no predicated form here; their
// guard stays a branch.
// HALF: .visible .entry kernel_op0(
// HALF: @%p{{[0-9]+}} bra
// HALF: atom.global.add.noftz.f16
fusion.graph @negative_half(%ids: !fusion.buffer<3xi64>, %g: !fusion.buffer<3xf16>, %acc: !fusion.buffer<8xf16>) -> (!fusion.buffer<8xf16>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [3] writes(%out : !fusion.buffer<8xf16> mutates %acc) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<3xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0] : !fusion.buffer<3xf16>
    fusion.store %2, %out[symbol(%1)] atomic_add : !fusion.buffer<8xf16>
  }
  fusion.output %buf0 : !fusion.buffer<8xf16>
}
