// How the lowerings emit the Inductor operations of one backend and the
// incomplete gamma and Airy functions, on the CPU (convert-fusion-to-loops)
// and the GPU (convert-fusion-to-gpu); their values are checked by
// inductor-gamma-jit.mlir.

// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-loops | FileCheck %s --check-prefix=CPU
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-gpu | FileCheck %s --check-prefix=GPU

// igamma: the boundary values, then Temme's expansion (erfc, log1p) or the
// series and continued fraction (lgamma), each under its own scf.if; the
// C library on the CPU, libdevice on the GPU.
// CPU-DAG: func.func private @lgammaf(f32) -> f32
// CPU-DAG: func.func private @log1pf(f32) -> f32
// CPU-LABEL: func.func private @igamma__kernel_op0
// CPU: scf.if
// CPU: func.call @erfcf
// CPU: scf.while
// GPU-DAG: func.func private @__nv_lgammaf(f32) -> f32
// GPU-DAG: func.func private @__nv_expm1f(f32) -> f32
// GPU-LABEL: gpu.func @kernel_op0
// GPU: scf.if
// GPU: func.call @__nv_erfcf
// GPU: scf.while
fusion.graph @igamma(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [8] writes(%o : !fusion.buffer<8xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    %q = fusion.opaque "igammac"(%v, %v) : (f32, f32) -> f32
    fusion.store %q, %o[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %out : !fusion.buffer<8xf32>
}

// -----

// f64 operands compute in f64 (lgamma, not lgammaf); f16 in f32.
// CPU-DAG: func.func private @lgamma(f64) -> f64
// CPU-DAG: func.func private @lgammaf(f32) -> f32
// CPU-LABEL: func.func private @igamma_types__kernel_op0
// CPU: arith.extf %{{.*}} : f16 to f32
// CPU: arith.truncf %{{.*}} : f32 to f16
fusion.graph @igamma_types(%x: !fusion.buffer<8xf64>, %h: !fusion.buffer<8xf16>) -> (!fusion.buffer<8xf64>, !fusion.buffer<8xf16>) attributes {device = "cuda:0"} {
  %out, %out2 = fusion.node "op0" (%p0) in [8] writes(%o : !fusion.buffer<8xf64>, %o2 : !fusion.buffer<8xf16>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<8xf64>
    %p = fusion.opaque "gammainc"(%v, %v) : (f64, f64) -> f64
    %w = fusion.load %h[%p0] : !fusion.buffer<8xf16>
    %q = fusion.opaque "gammaincc"(%w, %w) : (f16, f16) -> f16
    fusion.store %p, %o[%p0] : !fusion.buffer<8xf64>
    fusion.store %q, %o2[%p0] : !fusion.buffer<8xf16>
  }
  fusion.output %out, %out2 : !fusion.buffer<8xf64>, !fusion.buffer<8xf16>
}

// -----

// airy_ai: the asymptotic forms (sin, cos, exp) and the Maclaurin series
// loop; dot: one product; halide_clamp: max(x, 0), min(x, size - 1).
// CPU-LABEL: func.func private @backend__kernel_op0
// CPU: math.sin
// CPU: scf.while
// CPU: arith.mulf
// CPU: %[[LO:.*]] = arith.maxsi %{{.*}}, %{{.*}} : i32
// CPU: arith.minsi %[[LO]], %{{.*}} : i32
// GPU-LABEL: gpu.func @kernel_op0
// GPU: math.sin
// GPU: scf.while
// GPU: arith.maxsi
// GPU: arith.minsi
fusion.graph @backend(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<8xi32>) attributes {device = "cuda:0"} {
  %a, %d, %c = fusion.node "op0" (%p0) in [8] writes(%o0 : !fusion.buffer<8xf32>, %o1 : !fusion.buffer<8xf32>, %o2 : !fusion.buffer<8xi32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    %ai = fusion.opaque "airy_ai"(%v) : (f32) -> f32
    %dot = fusion.opaque "dot"(%v, %ai) : (f32, f32) -> f32
    %i = fusion.index_expr [%p0 - 2] : i32
    %cl = fusion.opaque "halide_clamp"(%i) {check = true, size = "5"} : (i32) -> i32
    fusion.store %ai, %o0[%p0] : !fusion.buffer<8xf32>
    fusion.store %dot, %o1[%p0] : !fusion.buffer<8xf32>
    fusion.store %cl, %o2[%p0] : !fusion.buffer<8xi32>
  }
  fusion.output %a, %d, %c : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<8xi32>
}

