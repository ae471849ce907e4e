// Every arith/math op the Inductor importer builds (docs/Importer.md, the
// operations marked "lowers") passes both lowerings: to LLVM for the CPU
// (math-to-llvm, math-to-libm) and to PTX (libdevice). Compile only; the
// value tests are inductor-ops-jit.mlir and inductor-fmod-jit.mlir.
// (math.ipowi, which integer pow builds, has no lowering in either.)

// RUN: scheduler-opt %s --fusion-to-cpu -o /dev/null
// RUN: scheduler-opt %s --fusion-to-ptx -o /dev/null

fusion.graph @math() -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %x = fusion.node "op0" (%p0) in [8] writes(%o0 : !fusion.buffer<8xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %f = fusion.cast %i : i64 to f32
    %c = arith.constant 0.25 : f32
    %v = arith.mulf %f, %c : f32
    %u0 = math.acos %v : f32
    %u1 = math.acosh %u0 : f32
    %u2 = math.asin %u1 : f32
    %u3 = math.asinh %u2 : f32
    %u4 = math.atan %u3 : f32
    %u5 = math.atanh %u4 : f32
    %u6 = math.cos %u5 : f32
    %u7 = math.cosh %u6 : f32
    %u8 = math.erf %u7 : f32
    %u9 = math.erfc %u8 : f32
    %u10 = math.exp %u9 : f32
    %u11 = math.exp2 %u10 : f32
    %u12 = math.expm1 %u11 : f32
    %u13 = math.floor %u12 : f32
    %u14 = math.ceil %u13 : f32
    %u15 = math.trunc %u14 : f32
    %u16 = math.roundeven %u15 : f32
    %u17 = math.log %u16 : f32
    %u18 = math.log10 %u17 : f32
    %u19 = math.log1p %u18 : f32
    %u20 = math.log2 %u19 : f32
    %u21 = math.rsqrt %u20 : f32
    %u22 = math.sin %u21 : f32
    %u23 = math.sinh %u22 : f32
    %u24 = math.sqrt %u23 : f32
    %u25 = math.tan %u24 : f32
    %u26 = math.tanh %u25 : f32
    %u27 = math.absf %u26 : f32
    %b0 = math.atan2 %u27, %v : f32
    %b1 = math.copysign %b0, %v : f32
    %b2 = math.powf %b1, %v : f32
    %b3 = math.fma %b2, %v, %v : f32
    %n = arith.constant 3 : i32
    %b4 = math.fpowi %b3, %n : f32, i32
    %b5 = math.isnan %b4 : f32
    %inf = arith.constant 0x7F800000 : f32
    %ab = math.absf %b4 : f32
    %b6 = arith.cmpf oeq, %ab, %inf : f32
    %b7 = arith.ori %b5, %b6 : i1
    %b8 = arith.select %b7, %v, %b4 : f32
    %ii = arith.muli %i, %i : i64
    %ia = math.absi %ii : i64
    %iaf = fusion.cast %ia : i64 to f32
    %r = arith.addf %b8, %iaf : f32
    fusion.store %r, %o0[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %x : !fusion.buffer<8xf32>
}
