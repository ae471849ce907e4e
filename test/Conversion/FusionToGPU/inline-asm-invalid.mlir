// inline_asm_elementwise the GPU lowering cannot emit is reported at the
// op: packed calls, and constraints that do not fit the operands.
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu -verify-diagnostics

fusion.graph @packed() -> (!fusion.buffer<4xi32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [4] writes(%o : !fusion.buffer<4xi32>) {
    %i = fusion.index_expr [%p0] : i32
    // expected-error @+1 {{'fusion.opaque' op 'inline_asm_elementwise' with pack=4 has no lowering (only pack=1)}}
    %a = fusion.opaque "inline_asm_elementwise"(%i) {asm = "mov.b32 $0, $1;", constraints = "None", is_pure = "True", pack = "4"} : (i32) -> i32
    fusion.store %a, %o[%p0] : !fusion.buffer<4xi32>
  }
  fusion.output %out : !fusion.buffer<4xi32>
}

// -----

fusion.graph @constraint_count() -> (!fusion.buffer<4xi32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [4] writes(%o : !fusion.buffer<4xi32>) {
    %i = fusion.index_expr [%p0] : i32
    // expected-error @+1 {{'fusion.opaque' op 'inline_asm_elementwise' constraints '=r,r,r' do not name one output and 1 inputs}}
    %a = fusion.opaque "inline_asm_elementwise"(%i) {asm = "mov.b32 $0, $1;", constraints = "=r,r,r", is_pure = "True", pack = "1"} : (i32) -> i32
    fusion.store %a, %o[%p0] : !fusion.buffer<4xi32>
  }
  fusion.output %out : !fusion.buffer<4xi32>
}

// -----

fusion.graph @constraint_width() -> (!fusion.buffer<4xf64>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [4] writes(%o : !fusion.buffer<4xf64>) {
    %i = fusion.index_expr [%p0] : i32
    // expected-error @+1 {{'fusion.opaque' op 'inline_asm_elementwise' output constraint '=r' does not hold a 'f64'}}
    %a = fusion.opaque "inline_asm_elementwise"(%i) {asm = "mov.b32 $0, $1;", constraints = "=r,r", is_pure = "True", pack = "1"} : (i32) -> f64
    fusion.store %a, %o[%p0] : !fusion.buffer<4xf64>
  }
  fusion.output %out : !fusion.buffer<4xf64>
}
