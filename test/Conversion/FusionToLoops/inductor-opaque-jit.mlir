// Inductor's operations that the importer keeps as fusion.opaque and the
// lowerings emit (random numbers, special functions, frexp) and math.ipowi,
// run by the LLVM JIT on the inputs of test-fusion-jit-main, against values
// that test/Inputs/inductor_ops_reference.py computes independently in
// Python (its own Philox, the math module, series, bisection).

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run > %t.jit
// RUN: %python %S/../../Inputs/inductor_ops_reference.py opaque > %t.ref
// RUN: %compare_runs %t.jit %t.ref --rtol 1e-5 --atol 1e-6
// The same graph lowers to PTX, with libdevice where Inductor's Triton code
// calls it (erfinv, i0, normcdf), the emitted methods elsewhere.
// RUN: rm -rf %t.ptx && scheduler-opt %s --fusion-to-ptx="output-dir=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/inductor_opaque.ptx
// PTX-DAG: .entry kernel_op0
// PTX-DAG: mul.hi.u32
// PTX-DAG: .entry kernel_op3

fusion.graph @inductor_opaque(%x: !fusion.buffer<64xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<64xi64>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xi32>, !fusion.buffer<64xf32>, !fusion.buffer<64xi32>, !fusion.buffer<64xi64>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  // tl.randn(seed, p0) and triton_helpers.randint64(seed, p0, -7, 1000).
  %randn, %randint = fusion.node "op0" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xi64>) {
    %seed = arith.constant 1311768467294899695 : i64
    %offset = fusion.index_expr [%p0] : i32
    %n = fusion.opaque "randn"(%seed, %offset) : (i64, i32) -> f32
    %low = arith.constant -7 : i64
    %high = arith.constant 1000 : i64
    %k = fusion.opaque "randint64"(%seed, %offset, %low, %high) : (i64, i32, i64, i64) -> i64
    fusion.store %n, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %k, %o1[%p0] : !fusion.buffer<64xi64>
  }
  // erfinv(x / 2), i0(6 x), i0e(6 x), ndtr(2 x), digamma(4 x).
  %erfinv, %i0, %i0e, %ndtr, %digamma = fusion.node "op1" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf32>, %o2 : !fusion.buffer<64xf32>, %o3 : !fusion.buffer<64xf32>, %o4 : !fusion.buffer<64xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %half = arith.constant 0.5 : f32
    %six = arith.constant 6.0 : f32
    %two = arith.constant 2.0 : f32
    %four = arith.constant 4.0 : f32
    %y = arith.mulf %v, %half : f32
    %e = fusion.opaque "erfinv"(%y) : (f32) -> f32
    %w = arith.mulf %v, %six : f32
    %a = fusion.opaque "i0"(%w) : (f32) -> f32
    %b = fusion.opaque "i0e"(%w) : (f32) -> f32
    %u = arith.mulf %v, %two : f32
    %c = fusion.opaque "ndtr"(%u) : (f32) -> f32
    %z = arith.mulf %v, %four : f32
    %d = fusion.opaque "digamma"(%z) : (f32) -> f32
    fusion.store %e, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %a, %o1[%p0] : !fusion.buffer<64xf32>
    fusion.store %b, %o2[%p0] : !fusion.buffer<64xf32>
    fusion.store %c, %o3[%p0] : !fusion.buffer<64xf32>
    fusion.store %d, %o4[%p0] : !fusion.buffer<64xf32>
  }
  // frexp(1000 x) and frexp(x * 2^-140) (subnormal f32).
  %m, %ex, %ms, %exs = fusion.node "op2" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xi32>, %o2 : !fusion.buffer<64xf32>, %o3 : !fusion.buffer<64xi32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %k = arith.constant 1000.0 : f32
    %big = arith.mulf %v, %k : f32
    %mant, %exp = fusion.opaque "frexp"(%big) : (f32) -> (f32, i32)
    %tiny = arith.constant 7.17464814e-43 : f32
    %sub = arith.mulf %v, %tiny : f32
    %mant2, %exp2 = fusion.opaque "frexp"(%sub) : (f32) -> (f32, i32)
    fusion.store %mant, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %exp, %o1[%p0] : !fusion.buffer<64xi32>
    fusion.store %mant2, %o2[%p0] : !fusion.buffer<64xf32>
    fusion.store %exp2, %o3[%p0] : !fusion.buffer<64xi32>
  }
  // ipowi(p0 mod 7 - 3, (p0 floordiv 7) mod 9 - 2): bases -3..3, exponents
  // -2..6.
  %pow = fusion.node "op3" (%p0) in [64] writes(%o0 : !fusion.buffer<64xi64>) {
    %base = fusion.index_expr [%p0 mod 7 - 3] : i64
    %exp = fusion.index_expr [(%p0 floordiv 7) mod 9 - 2] : i64
    %r = math.ipowi %base, %exp : i64
    fusion.store %r, %o0[%p0] : !fusion.buffer<64xi64>
  }
  // i1(6 x), i1e(6 x).
  %i1, %i1e = fusion.node "op4" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %six = arith.constant 6.0 : f32
    %w = arith.mulf %v, %six : f32
    %a = fusion.opaque "i1"(%w) : (f32) -> f32
    %b = fusion.opaque "i1e"(%w) : (f32) -> f32
    fusion.store %a, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %b, %o1[%p0] : !fusion.buffer<64xf32>
  }
  // modified_bessel_k0/k1(6 |x|), their scaled forms, spherical_bessel_j0(6 x).
  %k0, %k1, %k0e, %k1e, %j0 = fusion.node "op5" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf32>, %o2 : !fusion.buffer<64xf32>, %o3 : !fusion.buffer<64xf32>, %o4 : !fusion.buffer<64xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %six = arith.constant 6.0 : f32
    %a = math.absf %v : f32
    %w = arith.mulf %a, %six : f32
    %s = arith.mulf %v, %six : f32
    %r0 = fusion.opaque "modified_bessel_k0"(%w) : (f32) -> f32
    %r1 = fusion.opaque "modified_bessel_k1"(%w) : (f32) -> f32
    %r2 = fusion.opaque "scaled_modified_bessel_k0"(%w) : (f32) -> f32
    %r3 = fusion.opaque "scaled_modified_bessel_k1"(%w) : (f32) -> f32
    %r4 = fusion.opaque "spherical_bessel_j0"(%s) : (f32) -> f32
    fusion.store %r0, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %r1, %o1[%p0] : !fusion.buffer<64xf32>
    fusion.store %r2, %o2[%p0] : !fusion.buffer<64xf32>
    fusion.store %r3, %o3[%p0] : !fusion.buffer<64xf32>
    fusion.store %r4, %o4[%p0] : !fusion.buffer<64xf32>
  }
  // zeta(1.5 + p0 mod 4, 3 |x| + 0.05), polygamma(p0 mod 4, 2 |x| + 0.1).
  %zeta, %polygamma = fusion.node "op6" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %a = math.absf %v : f32
    %three = arith.constant 3.0 : f32
    %c005 = arith.constant 0.05 : f32
    %two = arith.constant 2.0 : f32
    %c01 = arith.constant 0.1 : f32
    %c15 = arith.constant 1.5 : f32
    %q0 = arith.mulf %a, %three : f32
    %q = arith.addf %q0, %c005 : f32
    %ni = fusion.index_expr [%p0 mod 4] : i64
    %n = fusion.cast %ni : i64 to f32
    %s = arith.addf %n, %c15 : f32
    %z = fusion.opaque "zeta"(%s, %q) : (f32, f32) -> f32
    %y0 = arith.mulf %a, %two : f32
    %y = arith.addf %y0, %c01 : f32
    %pg = fusion.opaque "polygamma"(%n, %y) : (f32, f32) -> f32
    fusion.store %z, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %pg, %o1[%p0] : !fusion.buffer<64xf32>
  }
  // erfcx(10 x), ndtri((x + 2) / 4), log_ndtr(10 x).
  %erfcx, %ndtri, %logndtr = fusion.node "op7" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf32>, %o2 : !fusion.buffer<64xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %ten = arith.constant 10.0 : f32
    %two = arith.constant 2.0 : f32
    %quarter = arith.constant 0.25 : f32
    %w = arith.mulf %v, %ten : f32
    %s = arith.addf %v, %two : f32
    %y = arith.mulf %s, %quarter : f32
    %a = fusion.opaque "erfcx"(%w) : (f32) -> f32
    %b = fusion.opaque "ndtri"(%y) : (f32) -> f32
    %c = fusion.opaque "log_ndtr"(%w) : (f32) -> f32
    fusion.store %a, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %b, %o1[%p0] : !fusion.buffer<64xf32>
    fusion.store %c, %o2[%p0] : !fusion.buffer<64xf32>
  }
  // bessel_j1(6 x), bessel_y0 / y1(6 |x| + 0.1) (libm), nextafter(x, 1).
  %j1, %y0, %y1, %next = fusion.node "op8" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf32>, %o2 : !fusion.buffer<64xf32>, %o3 : !fusion.buffer<64xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %six = arith.constant 6.0 : f32
    %c01 = arith.constant 0.1 : f32
    %one = arith.constant 1.0 : f32
    %w = arith.mulf %v, %six : f32
    %a = math.absf %v : f32
    %a6 = arith.mulf %a, %six : f32
    %y = arith.addf %a6, %c01 : f32
    %r0 = fusion.opaque "bessel_j1"(%w) : (f32) -> f32
    %r1 = fusion.opaque "bessel_y0"(%y) : (f32) -> f32
    %r2 = fusion.opaque "bessel_y1"(%y) : (f32) -> f32
    %r3 = fusion.opaque "nextafter"(%v, %one) : (f32, f32) -> f32
    fusion.store %r0, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %r1, %o1[%p0] : !fusion.buffer<64xf32>
    fusion.store %r2, %o2[%p0] : !fusion.buffer<64xf32>
    fusion.store %r3, %o3[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %randn, %randint, %erfinv, %i0, %i0e, %ndtr, %digamma, %m, %ex, %ms, %exs, %pow, %i1, %i1e, %k0, %k1, %k0e, %k1e, %j0, %zeta, %polygamma, %erfcx, %ndtri, %logndtr, %j1, %y0, %y1, %next : !fusion.buffer<64xf32>, !fusion.buffer<64xi64>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xi32>, !fusion.buffer<64xf32>, !fusion.buffer<64xi32>, !fusion.buffer<64xi64>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>
}
