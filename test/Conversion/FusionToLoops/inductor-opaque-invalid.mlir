// Inductor operations the lowerings cannot emit are reported at the op,
// never lowered to a wrong value.
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-loops -verify-diagnostics

fusion.graph @no_lowering() -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [4] writes(%o : !fusion.buffer<4xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %x = fusion.cast %i : i64 to f32
    // expected-error @+1 {{'fusion.opaque' op 'sort' needs values and results of the same types}}
    %z = fusion.opaque "sort"(%x) {stable = true, descending = false} : (f32) -> i32
    %f = fusion.cast %z : i32 to f32
    fusion.store %f, %o[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %out : !fusion.buffer<4xf32>
}

// -----

// The scan's combine function is not in the dump: no lowering can know it.
fusion.graph @scan() -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [4] writes(%o : !fusion.buffer<4xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %x = fusion.cast %i : i64 to f32
    // expected-error @+1 {{'fusion.opaque' op 'scan' (Inductor's ops.scan) has no lowering}}
    %s = fusion.opaque "scan"(%x) {combine = "scan0"} : (f32) -> f32
    fusion.store %s, %o[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %out : !fusion.buffer<4xf32>
}

// -----

fusion.graph @randn_seed() -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [4] writes(%o : !fusion.buffer<4xf32>) {
    %i = fusion.index_expr [%p0] : i32
    %seed = arith.constant 1.0 : f32
    // expected-error @+1 {{'fusion.opaque' op 'randn' takes an i64 seed and an integer offset}}
    %n = fusion.opaque "randn"(%seed, %i) : (f32, i32) -> f32
    fusion.store %n, %o[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %out : !fusion.buffer<4xf32>
}

// -----

fusion.graph @frexp_results() -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [4] writes(%o : !fusion.buffer<4xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %x = fusion.cast %i : i64 to f32
    // expected-error @+1 {{'fusion.opaque' op 'frexp' takes a float and returns the mantissa and an i32 exponent}}
    %m = fusion.opaque "frexp"(%x) : (f32) -> f32
    fusion.store %m, %o[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %out : !fusion.buffer<4xf32>
}

// -----

// Boundaries that a member of the same fused group produces are not in
// memory yet when another thread searches them.
fusion.graph @bucketize_in_group(%v: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xi64>) attributes {device = "cuda:0"} {
  %b, %o = fusion.fused -> !fusion.buffer<4xf32>, !fusion.buffer<4xi64> {
    %b = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
      %0 = fusion.load %v[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    %o = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xi64>) {
      %0 = fusion.load %v[%p0] : !fusion.buffer<4xf32>
      %n = fusion.index_expr [4] : index
      %s = fusion.index_expr [1] : index
      %c0 = arith.constant 0 : i64
      // expected-error @+1 {{'fusion.opaque' op reads a buffer of its own fused group whole}}
      %k = fusion.opaque "bucketize"(%0, %b, %n, %n, %s, %c0) {right = false, sorter = false} : (f32, !fusion.buffer<4xf32>, index, index, index, i64) -> i64
      fusion.store %k, %out[%p0] : !fusion.buffer<4xi64>
    }
    fusion.yield %b, %o : !fusion.buffer<4xf32>, !fusion.buffer<4xi64>
  }
  fusion.output %o : !fusion.buffer<4xi64>
}

// -----

// Inline PTX cannot run on the CPU.
fusion.graph @inline_asm_cpu() -> (!fusion.buffer<4xi32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [4] writes(%o : !fusion.buffer<4xi32>) {
    %i = fusion.index_expr [%p0] : i32
    // expected-error @+1 {{'fusion.opaque' op 'inline_asm_elementwise' (Inductor's ops.inline_asm_elementwise) carries PTX assembly, which the CPU cannot run: it has no lowering for the CPU}}
    %a = fusion.opaque "inline_asm_elementwise"(%i) {asm = "mov.b32 $0, $1;", constraints = "None", is_pure = "True", pack = "1"} : (i32) -> i32
    fusion.store %a, %o[%p0] : !fusion.buffer<4xi32>
  }
  fusion.output %out : !fusion.buffer<4xi32>
}

// -----

// A symbolic size (a graph with size symbols) is not lowered.
fusion.graph @halide_clamp_symbolic() -> (!fusion.buffer<4xi32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [4] writes(%o : !fusion.buffer<4xi32>) {
    %i = fusion.index_expr [%p0] : i32
    // expected-error @+1 {{'fusion.opaque' op 'halide_clamp' with size 's0' has no lowering (sizes of graphs with size symbols are not lowered)}}
    %c = fusion.opaque "halide_clamp"(%i) {check = true, size = "s0"} : (i32) -> i32
    fusion.store %c, %o[%p0] : !fusion.buffer<4xi32>
  }
  fusion.output %out : !fusion.buffer<4xi32>
}
