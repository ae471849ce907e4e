// Triton's inline_asm_elementwise on the GPU: llvm.inline_asm with
// Triton's default constraints ("=r" and one "r" per input), an f32
// operand and result passed through 32-bit registers, side effects where
// the op is not pure; the PTX carries the assembly. (On the CPU it is an
// error: inductor-opaque-invalid.mlir.)

// RUN: scheduler-opt %s --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s --fusion-to-ptx | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @kernel_op0
// PTX: and.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0x7fffffff;
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[R:.*]] = llvm.inline_asm "and.b32 $0, $1, 0x7fffffff;", "=r,r" %[[BITS]] : (i32) -> i32
// CHECK: arith.bitcast %[[R]] : i32 to f32
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r"
fusion.graph @inline_asm(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<8xi32>) attributes {device = "cuda:0"} {
  %out, %out2 = fusion.node "op0" (%p0) in [8] writes(%o : !fusion.buffer<8xf32>, %o2 : !fusion.buffer<8xi32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    %a = fusion.opaque "inline_asm_elementwise"(%v) {asm = "and.b32 $0, $1, 0x7fffffff;", constraints = "None", is_pure = "True", pack = "1"} : (f32) -> f32
    %i = fusion.index_expr [%p0] : i32
    %b = fusion.opaque "inline_asm_elementwise"(%i) {asm = "mov.b32 $0, $1;", constraints = "=r,r", is_pure = "False", pack = "1"} : (i32) -> i32
    fusion.store %a, %o[%p0] : !fusion.buffer<8xf32>
    fusion.store %b, %o2[%p0] : !fusion.buffer<8xi32>
  }
  fusion.output %out, %out2 : !fusion.buffer<8xf32>, !fusion.buffer<8xi32>
}
