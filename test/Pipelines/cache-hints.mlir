// --fusion-to-ptx's cache-hints (none by default) in each of its modes.
// `loads`: the loads of a row's own elements from a storage the kernel
// does not write skip L1 (ld.global.nc.L1::no_allocate, through a global
// address), and loads every row repeats (the weight w, indexed by the
// column alone) keep the plain read-only path. `stores`: vector stores are
// evict-first (st.global.cs, written as the predicated stores are, the
// address cast to global outside the inline PTX). `all`: both. `none` (the default) has
// neither.
// RUN: rm -rf %t && scheduler-opt %s --fusion-to-ptx="output-dir=%t/all cache-hints=all" -o /dev/null
// RUN: FileCheck %s --check-prefix=ALL --implicit-check-not="st.global.v4" < %t/all/rmsnorm_silu.ptx
// RUN: scheduler-opt %s --fusion-to-ptx="output-dir=%t/loads cache-hints=loads" -o /dev/null
// RUN: FileCheck %s --check-prefix=LOADS --implicit-check-not=st.global.cs < %t/loads/rmsnorm_silu.ptx
// RUN: scheduler-opt %s --fusion-to-ptx="output-dir=%t/stores cache-hints=stores" -o /dev/null
// RUN: FileCheck %s --check-prefix=STORES --implicit-check-not=L1::no_allocate --implicit-check-not="st.global.v4" < %t/stores/rmsnorm_silu.ptx
// RUN: scheduler-opt %s --fusion-to-ptx="output-dir=%t/none cache-hints=none" -o /dev/null
// RUN: FileCheck %s --check-prefix=NONE --implicit-check-not=L1::no_allocate --implicit-check-not=st.global.cs < %t/none/rmsnorm_silu.ptx
// RUN: scheduler-opt %s --fusion-to-ptx="output-dir=%t/default" -o /dev/null
// RUN: FileCheck %s --check-prefix=NONE --implicit-check-not=L1::no_allocate --implicit-check-not=st.global.cs < %t/default/rmsnorm_silu.ptx
// The option's former boolean spelling is refused, naming the modes.
// RUN: not scheduler-opt %s --fusion-to-ptx="output-dir=%t/bad cache-hints=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: Cannot find option named '1'!

// F.silu(x * rsqrt(mean(x^2, -1) + 1e-6) * w) * x on 64 rows of 1024
// (bench/workloads/rmsnorm_silu.mlir at 64 rows): each thread's two
// 16-byte pieces of x, each followed by the same columns of w (hoisted
// before the reduction: the 64 rows are one wave), then two stores of 16
// bytes.
// ALL: .visible .entry kernel_op0_op1(
// ALL: cvta.to.global.u64 %fusion_ga, %rd{{[0-9]+}}; ld.global.nc.L1::no_allocate.v4.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%fusion_ga]; }
// ALL: ld.global.nc.v4.b32
// ALL: cvta.to.global.u64 %fusion_ga, %rd{{[0-9]+}}; ld.global.nc.L1::no_allocate.v4.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%fusion_ga]; }
// ALL: ld.global.nc.v4.b32
// ALL: bar.sync
// ALL: st.global.cs.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// ALL: st.global.cs.v4.b32
// LOADS: .visible .entry kernel_op0_op1(
// LOADS: cvta.to.global.u64 %fusion_ga, %rd{{[0-9]+}}; ld.global.nc.L1::no_allocate.v4.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%fusion_ga]; }
// LOADS: ld.global.nc.v4.b32
// LOADS: cvta.to.global.u64 %fusion_ga, %rd{{[0-9]+}}; ld.global.nc.L1::no_allocate.v4.f32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%fusion_ga]; }
// LOADS: ld.global.nc.v4.b32
// LOADS: bar.sync
// LOADS: st.global.v4.b32
// LOADS: st.global.v4.b32
// STORES: .visible .entry kernel_op0_op1(
// STORES: ld.global.nc.v4.b32
// STORES: ld.global.nc.v4.b32
// STORES: ld.global.nc.v4.b32
// STORES: ld.global.nc.v4.b32
// STORES: bar.sync
// STORES: st.global.cs.v4.b32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// STORES: st.global.cs.v4.b32
// NONE: .visible .entry kernel_op0_op1(
// NONE: ld.global.nc.v4.b32
// NONE: ld.global.nc.v4.b32
// NONE: ld.global.nc.v4.b32
// NONE: ld.global.nc.v4.b32
// NONE: bar.sync
// NONE: st.global.v4.b32
// NONE: st.global.v4.b32

fusion.graph @rmsnorm_silu(%arg0_1: !fusion.buffer<64x1024xf32>, %arg1_1: !fusion.buffer<1024xf32>) -> (!fusion.buffer<64x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [1024] writes(%out : !fusion.buffer<64x1xf32, strides = [1, 64]>) {
    %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %1 = arith.mulf %0, %0 : f32
    %2 = fusion.reduce sum %1 : f32 -> f32
    fusion.store %2, %out[%p0] : !fusion.buffer<64x1xf32, strides = [1, 64]>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [64, 1024] writes(%out : !fusion.buffer<64x1024xf32>) {
    %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<64x1xf32, strides = [1, 64]>
    %cst = arith.constant 1.024000e+03 : f32
    %2 = arith.divf %1, %cst : f32
    %eps = arith.constant 9.99999997E-7 : f32
    %3 = arith.addf %2, %eps : f32
    %4 = math.rsqrt %3 : f32
    %5 = arith.mulf %0, %4 : f32
    %6 = fusion.load %arg1_1[%p1] : !fusion.buffer<1024xf32>
    %7 = arith.mulf %5, %6 : f32
    %8 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %9 = fusion.load %buf0[%p0] : !fusion.buffer<64x1xf32, strides = [1, 64]>
    %10 = arith.divf %9, %cst : f32
    %11 = arith.addf %10, %eps : f32
    %12 = math.rsqrt %11 : f32
    %13 = arith.mulf %8, %12 : f32
    %14 = fusion.load %arg1_1[%p1] : !fusion.buffer<1024xf32>
    %15 = arith.mulf %13, %14 : f32
    %16 = arith.negf %15 : f32
    %17 = math.exp %16 : f32
    %one = arith.constant 1.000000e+00 : f32
    %18 = arith.addf %17, %one : f32
    %19 = arith.divf %7, %18 : f32
    %20 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
    %21 = arith.mulf %19, %20 : f32
    fusion.store %21, %out[%p0 * 1024 + %p1] : !fusion.buffer<64x1024xf32>
  }
  fusion.output %buf1 : !fusion.buffer<64x1024xf32>
}
