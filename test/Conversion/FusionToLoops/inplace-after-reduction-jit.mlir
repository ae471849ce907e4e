// A kernel that reads %s per row after its reduction (op1) and updates %s
// in place (op2), whose value needs no reduction: the update waits for the
// last pass over the row, after every read of the old contents. Run by the
// LLVM JIT, fused and unfused give the same outputs and the same %s after.

// RUN: scheduler-opt %s --convert-fusion-to-loops \
// RUN:   --test-fusion-jit-main="print-inputs=1 poison=-1" --fusion-loops-to-llvm \
// RUN: | %jit_run > %t.fused
// RUN: scheduler-opt %S/Inputs/inplace-after-reduction-unfused.mlir --convert-fusion-to-loops \
// RUN:   --test-fusion-jit-main="print-inputs=1 poison=-2" --fusion-loops-to-llvm \
// RUN: | %jit_run > %t.unfused
// RUN: %compare_runs %t.unfused %t.fused | FileCheck %s
// CHECK: same outputs

// In the kernel, the store of op2 follows op1's load of %s.
// RUN: scheduler-opt %s --convert-fusion-to-loops | FileCheck %s --check-prefix=ORDER
// ORDER-LABEL: func.func private @inplace__kernel_op0_op1_op2(
// ORDER-SAME: %[[X:[^:]*]]: memref<32xf32> {fusion.name = "x"}, %[[S:[^:]*]]: memref<8xf32> {fusion.name = "s"}
// ORDER: scf.for
// ORDER: memref.load %[[X]]
// ORDER: memref.load %[[S]]
// ORDER: memref.store
// ORDER: memref.store %{{.*}}, %[[S]]
fusion.graph @inplace(%x: !fusion.buffer<8x4xf32>, %s: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2 = fusion.fused -> !fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<8xf32> {
    %r = fusion.node "op0" (%p0, %p1) in [8] reduce [4] writes(%out : !fusion.buffer<8xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 4 + %p1] : !fusion.buffer<8x4xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<8xf32>
    }
    %a = fusion.node "op1" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %r[%p0] : !fusion.buffer<8xf32>
      %1 = fusion.load %s[%p0] : !fusion.buffer<8xf32>
      %2 = arith.addf %0, %1 : f32
      fusion.store %2, %out[%p0] : !fusion.buffer<8xf32>
    }
    %m = fusion.node "op2" (%p0) in [8] writes(%out : !fusion.buffer<8xf32> mutates %s) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %s[%p0] : !fusion.buffer<8xf32>
      %cst = arith.constant 1.000000e+01 : f32
      %1 = arith.mulf %0, %cst : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<8xf32>
    }
    fusion.yield %r, %a, %m : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<8xf32>
  }
  fusion.output %buf1, %buf2 : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>
}
