// A kernel whose members iterate the same 128 elements with different
// loops: op0's loops were merged into one (merge-loops), op1 keeps
// [2, 4, 16]. op1's read of buf0 at p0 * 64 + p1 * 16 + p2 is, in the
// kernel's x space, x + (x floordiv 64) * 64 - ((x floordiv 16) floordiv 4)
// * 64 = x, what op0 wrote there (found by scripts/differential.py, seeds
// 278 and 372). The lowering keeps buf0 in registers and the JIT gives the
// outputs of the unfused graph.

// RUN: scheduler-opt %s --convert-fusion-to-loops \
// RUN:   --test-fusion-jit-main="print-inputs=1 poison=-1" --fusion-loops-to-llvm \
// RUN: | %jit_run > %t.fused
// RUN: scheduler-opt %S/Inputs/merged-loops-unfused.mlir --convert-fusion-to-loops \
// RUN:   --test-fusion-jit-main="print-inputs=1 poison=-2" --fusion-loops-to-llvm \
// RUN: | %jit_run > %t.unfused
// RUN: %compare_runs %t.unfused %t.fused | FileCheck %s
// CHECK: same outputs

// One loop over the 128 elements; buf0 is never stored to memory.
// RUN: scheduler-opt %s --convert-fusion-to-loops | FileCheck %s --check-prefix=KERNEL
// KERNEL-LABEL: func.func private @merged__kernel_op0_op1(
// KERNEL-SAME: %[[X:[^:]*]]: memref<128xf32> {fusion.name = "x"}, %[[OUT:[^:]*]]: memref<128xf32> {fusion.name = "buf1"}
// KERNEL: scf.for
// KERNEL-NOT: scf.for
// KERNEL: memref.load %[[X]]
// KERNEL-NOT: memref.load
// KERNEL: memref.store %{{.*}}, %[[OUT]]
// KERNEL-NEXT: }
fusion.graph @merged(%x: !fusion.buffer<2x4x16xf32>) -> (!fusion.buffer<2x4x16xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<2x4x16xf32>, !fusion.buffer<2x4x16xf32> {
    %a = fusion.node "op0" (%p0) in [128] writes(%out : !fusion.buffer<2x4x16xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<2x4x16xf32>
      %cst = arith.constant 3.000000e+00 : f32
      %1 = arith.addf %0, %cst : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<2x4x16xf32>
    }
    %b = fusion.node "op1" (%p0, %p1, %p2) in [2, 4, 16] writes(%out : !fusion.buffer<2x4x16xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %a[%p0 * 64 + %p1 * 16 + %p2] : !fusion.buffer<2x4x16xf32>
      %1 = arith.mulf %0, %0 : f32
      fusion.store %1, %out[%p0 * 64 + %p1 * 16 + %p2] : !fusion.buffer<2x4x16xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<2x4x16xf32>, !fusion.buffer<2x4x16xf32>
  }
  fusion.output %buf1 : !fusion.buffer<2x4x16xf32>
}
