// The regularized incomplete gamma functions (igamma = gammainc = P,
// igammac = gammaincc = Q), airy_ai, halide_clamp and Triton's dot, as the
// lowerings emit them (ATen's and Cephes' methods), run by the LLVM JIT on
// the inputs of test-fusion-jit-main against
// test/Inputs/inductor_ops_reference.py, which computes them its own way
// (P's power series and Q's continued fraction in f64 with math.lgamma;
// Ai from its Maclaurin series in 50-digit decimals and, above zero, from
// K_1/3 by quadrature). (a, x) takes four regimes by p0 mod 4: small a;
// a up to 80 with x within 40% of a (Temme's expansion from a = 20); a
// near 250 (Temme above 200); a and x below 0.5 (Q's own series).

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run > %t.jit
// RUN: %python %S/../../Inputs/inductor_ops_reference.py gamma > %t.ref
// RUN: %compare_runs %t.jit %t.ref --rtol 2e-5 --atol 1e-6
// The same graph lowers to PTX, with libdevice's lgamma, erfc, log1p and
// expm1 where the CPU calls the C library's.
// RUN: scheduler-opt %s --fusion-to-ptx | FileCheck %s --check-prefix=PTX
// PTX-DAG: .entry kernel_op0_op2
// PTX-DAG: .entry kernel_op1
// PTX-DAG: .entry kernel_op4

fusion.graph @inductor_gamma(%x: !fusion.buffer<64xf32>, %y: !fusion.buffer<64xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf64>, !fusion.buffer<64xf64>, !fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf64>, !fusion.buffer<64xi32>, !fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %p, %q, %pinc, %qinc, %p64, %q64 = fusion.node "op0" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf32>, %o2 : !fusion.buffer<64xf32>, %o3 : !fusion.buffer<64xf32>, %o4 : !fusion.buffer<64xf64>, %o5 : !fusion.buffer<64xf64>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %w = fusion.load %y[%p0] : !fusion.buffer<64xf32>
    %av = math.absf %v : f32
    %aw = math.absf %w : f32
    %c0_05 = arith.constant 0.05 : f32
    %c0_2 = arith.constant 0.2 : f32
    %c0_5 = arith.constant 0.5 : f32
    %c0_01 = arith.constant 0.01 : f32
    %c1 = arith.constant 1.0 : f32
    %c2 = arith.constant 2.0 : f32
    %c3 = arith.constant 3.0 : f32
    %c10 = arith.constant 10.0 : f32
    %c20 = arith.constant 20.0 : f32
    %c40 = arith.constant 40.0 : f32
    %c250 = arith.constant 250.0 : f32
    // r = 0: a = 2 |v| + 0.05, x = 3 |w|
    %t0 = arith.mulf %av, %c2 : f32
    %a0 = arith.addf %t0, %c0_05 : f32
    %x0 = arith.mulf %aw, %c3 : f32
    // r = 1: a = 40 |v| + 0.5, x = a (1 + 0.2 w)
    %t1 = arith.mulf %av, %c40 : f32
    %a1 = arith.addf %t1, %c0_5 : f32
    %s1 = arith.mulf %w, %c0_2 : f32
    %u1 = arith.addf %s1, %c1 : f32
    %x1 = arith.mulf %a1, %u1 : f32
    // r = 2: a = 20 v + 250, x = a + 10 w
    %t2 = arith.mulf %v, %c20 : f32
    %a2 = arith.addf %t2, %c250 : f32
    %s2 = arith.mulf %w, %c10 : f32
    %x2 = arith.addf %a2, %s2 : f32
    // r = 3: a = 0.5 |v| + 0.01, x = 0.5 |w|
    %t3 = arith.mulf %av, %c0_5 : f32
    %a3 = arith.addf %t3, %c0_01 : f32
    %x3 = arith.mulf %aw, %c0_5 : f32
    %r = fusion.index_expr [%p0 mod 4] : i64
    %k1 = arith.constant 1 : i64
    %k2 = arith.constant 2 : i64
    %k3 = arith.constant 3 : i64
    %is1 = arith.cmpi eq, %r, %k1 : i64
    %is2 = arith.cmpi eq, %r, %k2 : i64
    %is3 = arith.cmpi eq, %r, %k3 : i64
    %b1 = arith.select %is1, %a1, %a0 : f32
    %b2 = arith.select %is2, %a2, %b1 : f32
    %a = arith.select %is3, %a3, %b2 : f32
    %y1 = arith.select %is1, %x1, %x0 : f32
    %y2 = arith.select %is2, %x2, %y1 : f32
    %xx = arith.select %is3, %x3, %y2 : f32
    %P = fusion.opaque "igamma"(%a, %xx) : (f32, f32) -> f32
    %Q = fusion.opaque "igammac"(%a, %xx) : (f32, f32) -> f32
    %Pinc = fusion.opaque "gammainc"(%a, %xx) : (f32, f32) -> f32
    %Qinc = fusion.opaque "gammaincc"(%a, %xx) : (f32, f32) -> f32
    %a64 = fusion.cast %a : f32 to f64
    %x64 = fusion.cast %xx : f32 to f64
    %P64 = fusion.opaque "gammainc"(%a64, %x64) : (f64, f64) -> f64
    %Q64 = fusion.opaque "igammac"(%a64, %x64) : (f64, f64) -> f64
    fusion.store %P, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %Q, %o1[%p0] : !fusion.buffer<64xf32>
    fusion.store %Pinc, %o2[%p0] : !fusion.buffer<64xf32>
    fusion.store %Qinc, %o3[%p0] : !fusion.buffer<64xf32>
    fusion.store %P64, %o4[%p0] : !fusion.buffer<64xf64>
    fusion.store %Q64, %o5[%p0] : !fusion.buffer<64xf64>
  }
  // Boundary values, (a, x) by p0: (1, 0) (0, 2) (-1, 1) (1, -1) (inf, 1)
  // (2, inf) (inf, inf) (0, 0): P = 0 1 nan nan 0 1 nan nan.
  // airy_ai of 200 inf -inf nan -0.5 0 2.09 8.4: 0 nan nan nan ...
  %pb, %ab = fusion.node "op1" (%p0) in [8] writes(%o0 : !fusion.buffer<8xf32>, %o1 : !fusion.buffer<8xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %m1 = arith.constant -1.0 : f32
    %inf = arith.constant 0x7F800000 : f32
    %e0 = arith.constant 0 : i64
    %e1 = arith.constant 1 : i64
    %e2 = arith.constant 2 : i64
    %e3 = arith.constant 3 : i64
    %e4 = arith.constant 4 : i64
    %e5 = arith.constant 5 : i64
    %e6 = arith.constant 6 : i64
    %is0 = arith.cmpi eq, %i, %e0 : i64
    %is1 = arith.cmpi eq, %i, %e1 : i64
    %is2 = arith.cmpi eq, %i, %e2 : i64
    %is3 = arith.cmpi eq, %i, %e3 : i64
    %is4 = arith.cmpi eq, %i, %e4 : i64
    %is5 = arith.cmpi eq, %i, %e5 : i64
    %is6 = arith.cmpi eq, %i, %e6 : i64
    %a6 = arith.select %is6, %inf, %z : f32
    %a5 = arith.select %is5, %two, %a6 : f32
    %a4 = arith.select %is4, %inf, %a5 : f32
    %a3 = arith.select %is3, %one, %a4 : f32
    %a2 = arith.select %is2, %m1, %a3 : f32
    %a1 = arith.select %is1, %z, %a2 : f32
    %a = arith.select %is0, %one, %a1 : f32
    %x6 = arith.select %is6, %inf, %z : f32
    %x5 = arith.select %is5, %inf, %x6 : f32
    %x4 = arith.select %is4, %one, %x5 : f32
    %x3 = arith.select %is3, %m1, %x4 : f32
    %x2 = arith.select %is2, %one, %x3 : f32
    %x1 = arith.select %is1, %two, %x2 : f32
    %xx = arith.select %is0, %z, %x1 : f32
    %P = fusion.opaque "igamma"(%a, %xx) : (f32, f32) -> f32
    %c200 = arith.constant 200.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %nan = arith.constant 0x7FC00000 : f32
    %mhalf = arith.constant -0.5 : f32
    %c209 = arith.constant 2.09 : f32
    %c84 = arith.constant 8.4 : f32
    %g6 = arith.select %is6, %c209, %c84 : f32
    %g5 = arith.select %is5, %z, %g6 : f32
    %g4 = arith.select %is4, %mhalf, %g5 : f32
    %g3 = arith.select %is3, %nan, %g4 : f32
    %g2 = arith.select %is2, %ninf, %g3 : f32
    %g1 = arith.select %is1, %inf, %g2 : f32
    %g = arith.select %is0, %c200, %g1 : f32
    %Ai = fusion.opaque "airy_ai"(%g) : (f32) -> f32
    fusion.store %P, %o0[%p0] : !fusion.buffer<8xf32>
    fusion.store %Ai, %o1[%p0] : !fusion.buffer<8xf32>
  }
  // airy_ai(4 v) in f32 and f64; halide_clamp(p0 - 20, 30) on i32.
  %ai, %ai64, %clamped = fusion.node "op2" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf64>, %o2 : !fusion.buffer<64xi32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %c4 = arith.constant 4.0 : f32
    %g = arith.mulf %v, %c4 : f32
    %Ai = fusion.opaque "airy_ai"(%g) : (f32) -> f32
    %g64 = fusion.cast %g : f32 to f64
    %Ai64 = fusion.opaque "airy_ai"(%g64) : (f64) -> f64
    %i = fusion.index_expr [%p0 - 20] : i32
    %c = fusion.opaque "halide_clamp"(%i) {check = true, size = "30"} : (i32) -> i32
    fusion.store %Ai, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %Ai64, %o1[%p0] : !fusion.buffer<64xf64>
    fusion.store %c, %o2[%p0] : !fusion.buffer<64xi32>
  }
  // Triton's native matmul: C = X Y with X, Y the inputs as 8x8 matrices,
  // dot terms summed by the reduction.
  %mm = fusion.node "op4" (%p0, %p1, %p2) in [8, 8] reduce [8] writes(%o0 : !fusion.buffer<64xf32>) {
    %a = fusion.load %x[%p0 * 8 + %p2] : !fusion.buffer<64xf32>
    %b = fusion.load %y[%p2 * 8 + %p1] : !fusion.buffer<64xf32>
    %d = fusion.opaque "dot"(%a, %b) : (f32, f32) -> f32
    %s = fusion.reduce sum %d : f32 -> f32
    fusion.store %s, %o0[%p0 * 8 + %p1] : !fusion.buffer<64xf32>
  }
  fusion.output %p, %q, %pinc, %qinc, %p64, %q64, %pb, %ab, %ai, %ai64, %clamped, %mm : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf64>, !fusion.buffer<64xf64>, !fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf64>, !fusion.buffer<64xi32>, !fusion.buffer<64xf32>
}
