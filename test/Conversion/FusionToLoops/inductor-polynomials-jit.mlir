// torch.special's orthogonal polynomials as the lowerings emit them (ATen's
// special cases, trigonometric forms and recurrences), on the LLVM JIT
// against test/Inputs/inductor_ops_reference.py, which evaluates them from
// their closed forms (cos(n acos x), ..., explicit sums) in Python: x in
// [-1, 1) from the input pattern, degrees p0 mod 13 (both sides of ATen's
// switch to the trigonometric forms); atol 1e-5 for values that cancel to
// near zero.

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run > %t.jit
// RUN: %python %S/../../Inputs/inductor_ops_reference.py polynomials > %t.ref
// RUN: %compare_runs %t.jit %t.ref --rtol 1e-5 --atol 1e-5
// RUN: rm -rf %t.ptx && scheduler-opt %s --fusion-to-ptx="output-dir=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx/polynomials.ptx
// PTX: .entry kernel_op0

fusion.graph @polynomials(%x: !fusion.buffer<64xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %t, %u, %v, %w, %h, %he, %l, %p = fusion.node "op0" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf32>, %o2 : !fusion.buffer<64xf32>, %o3 : !fusion.buffer<64xf32>, %o4 : !fusion.buffer<64xf32>, %o5 : !fusion.buffer<64xf32>, %o6 : !fusion.buffer<64xf32>, %o7 : !fusion.buffer<64xf32>) {
    %xv = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %half = arith.constant 0.5 : f32
    %y = arith.mulf %xv, %half : f32
    %ni = fusion.index_expr [%p0 mod 13] : i64
    %n = fusion.cast %ni : i64 to f32
    %a = fusion.opaque "chebyshev_polynomial_t"(%y, %n) : (f32, f32) -> f32
    %b = fusion.opaque "chebyshev_polynomial_u"(%y, %n) : (f32, f32) -> f32
    %c = fusion.opaque "chebyshev_polynomial_v"(%y, %n) : (f32, f32) -> f32
    %d = fusion.opaque "chebyshev_polynomial_w"(%y, %n) : (f32, f32) -> f32
    %e = fusion.opaque "hermite_polynomial_h"(%y, %n) : (f32, f32) -> f32
    %f = fusion.opaque "hermite_polynomial_he"(%y, %n) : (f32, f32) -> f32
    %g = fusion.opaque "laguerre_polynomial_l"(%y, %n) : (f32, f32) -> f32
    %k = fusion.opaque "legendre_polynomial_p"(%y, %n) : (f32, f32) -> f32
    fusion.store %a, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %b, %o1[%p0] : !fusion.buffer<64xf32>
    fusion.store %c, %o2[%p0] : !fusion.buffer<64xf32>
    fusion.store %d, %o3[%p0] : !fusion.buffer<64xf32>
    fusion.store %e, %o4[%p0] : !fusion.buffer<64xf32>
    fusion.store %f, %o5[%p0] : !fusion.buffer<64xf32>
    fusion.store %g, %o6[%p0] : !fusion.buffer<64xf32>
    fusion.store %k, %o7[%p0] : !fusion.buffer<64xf32>
  }
  // The shifted kinds at x / 4 + 1 / 2, in [0, 1).
  %st, %su, %sv, %sw = fusion.node "op1" (%p0) in [64] writes(%o0 : !fusion.buffer<64xf32>, %o1 : !fusion.buffer<64xf32>, %o2 : !fusion.buffer<64xf32>, %o3 : !fusion.buffer<64xf32>) {
    %xv = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %quarter = arith.constant 0.25 : f32
    %half = arith.constant 0.5 : f32
    %q = arith.mulf %xv, %quarter : f32
    %y = arith.addf %q, %half : f32
    %ni = fusion.index_expr [%p0 mod 13] : i64
    %n = fusion.cast %ni : i64 to f32
    %a = fusion.opaque "shifted_chebyshev_polynomial_t"(%y, %n) : (f32, f32) -> f32
    %b = fusion.opaque "shifted_chebyshev_polynomial_u"(%y, %n) : (f32, f32) -> f32
    %c = fusion.opaque "shifted_chebyshev_polynomial_v"(%y, %n) : (f32, f32) -> f32
    %d = fusion.opaque "shifted_chebyshev_polynomial_w"(%y, %n) : (f32, f32) -> f32
    fusion.store %a, %o0[%p0] : !fusion.buffer<64xf32>
    fusion.store %b, %o1[%p0] : !fusion.buffer<64xf32>
    fusion.store %c, %o2[%p0] : !fusion.buffer<64xf32>
    fusion.store %d, %o3[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %t, %u, %v, %w, %h, %he, %l, %p, %st, %su, %sv, %sw : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<64xf32>
}
