// The operations of test/Conversion/FusionToLoops/inductor-opaque-jit.mlir
// on 65536 elements, plus fmod and Python's remainder of floats, for the GPU
// check against PyTorch (bench/check_inductor_ops.py): random numbers
// against Triton's tl.randn and Inductor's triton_helpers.randint64, the
// rest against torch.special, torch.frexp, torch.pow, torch.fmod and
// torch.remainder.
fusion.graph @inductor_ops_gpu(%x: !fusion.buffer<65536xf32>) -> (!fusion.buffer<65536xf32>, !fusion.buffer<65536xi64>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xi32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xi32>, !fusion.buffer<65536xi64>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>) attributes {device = "cuda:0"} {
  // tl.randn(seed, p0) and triton_helpers.randint64(seed, p0, -7, 1000).
  %randn, %randint = fusion.node "op0" (%p0) in [65536] writes(%o0 : !fusion.buffer<65536xf32>, %o1 : !fusion.buffer<65536xi64>) {
    %seed = arith.constant 1311768467294899695 : i64
    %offset = fusion.index_expr [%p0] : i32
    %n = fusion.opaque "randn"(%seed, %offset) : (i64, i32) -> f32
    %low = arith.constant -7 : i64
    %high = arith.constant 1000 : i64
    %k = fusion.opaque "randint64"(%seed, %offset, %low, %high) : (i64, i32, i64, i64) -> i64
    fusion.store %n, %o0[%p0] : !fusion.buffer<65536xf32>
    fusion.store %k, %o1[%p0] : !fusion.buffer<65536xi64>
  }
  // erfinv(x / 2), i0(6 x), i0e(6 x), ndtr(2 x), digamma(4 x).
  %erfinv, %i0, %i0e, %ndtr, %digamma = fusion.node "op1" (%p0) in [65536] writes(%o0 : !fusion.buffer<65536xf32>, %o1 : !fusion.buffer<65536xf32>, %o2 : !fusion.buffer<65536xf32>, %o3 : !fusion.buffer<65536xf32>, %o4 : !fusion.buffer<65536xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<65536xf32>
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
    fusion.store %e, %o0[%p0] : !fusion.buffer<65536xf32>
    fusion.store %a, %o1[%p0] : !fusion.buffer<65536xf32>
    fusion.store %b, %o2[%p0] : !fusion.buffer<65536xf32>
    fusion.store %c, %o3[%p0] : !fusion.buffer<65536xf32>
    fusion.store %d, %o4[%p0] : !fusion.buffer<65536xf32>
  }
  // frexp(1000 x) and frexp(x * 2^-140) (subnormal f32).
  %m, %ex, %ms, %exs = fusion.node "op2" (%p0) in [65536] writes(%o0 : !fusion.buffer<65536xf32>, %o1 : !fusion.buffer<65536xi32>, %o2 : !fusion.buffer<65536xf32>, %o3 : !fusion.buffer<65536xi32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<65536xf32>
    %k = arith.constant 1000.0 : f32
    %big = arith.mulf %v, %k : f32
    %mant, %exp = fusion.opaque "frexp"(%big) : (f32) -> (f32, i32)
    %tiny = arith.constant 7.17464814e-43 : f32
    %sub = arith.mulf %v, %tiny : f32
    %mant2, %exp2 = fusion.opaque "frexp"(%sub) : (f32) -> (f32, i32)
    fusion.store %mant, %o0[%p0] : !fusion.buffer<65536xf32>
    fusion.store %exp, %o1[%p0] : !fusion.buffer<65536xi32>
    fusion.store %mant2, %o2[%p0] : !fusion.buffer<65536xf32>
    fusion.store %exp2, %o3[%p0] : !fusion.buffer<65536xi32>
  }
  // ipowi(p0 mod 7 - 3, (p0 floordiv 7) mod 9 - 2): bases -3..3, exponents
  // -2..6.
  %pow = fusion.node "op3" (%p0) in [65536] writes(%o0 : !fusion.buffer<65536xi64>) {
    %base = fusion.index_expr [%p0 mod 7 - 3] : i64
    %exp = fusion.index_expr [(%p0 floordiv 7) mod 9 - 2] : i64
    %r = math.ipowi %base, %exp : i64
    fusion.store %r, %o0[%p0] : !fusion.buffer<65536xi64>
  }
  // fmod(3 x, 0.7) and remainder(3 x, -0.7), as the importer builds them.
  %fmod, %rem = fusion.node "op4" (%p0) in [65536] writes(%o0 : !fusion.buffer<65536xf32>, %o1 : !fusion.buffer<65536xf32>) {
    %v = fusion.load %x[%p0] : !fusion.buffer<65536xf32>
    %three = arith.constant 3.0 : f32
    %a = arith.mulf %v, %three : f32
    %d = arith.constant 0.7 : f32
    %r = arith.remf %a, %d : f32
    %nd = arith.constant -0.7 : f32
    %r2 = arith.remf %a, %nd : f32
    %z = arith.constant 0.0 : f32
    %nz = arith.cmpf une, %r2, %z : f32
    %rn = arith.cmpf olt, %r2, %z : f32
    %dn = arith.cmpf olt, %nd, %z : f32
    %xr = arith.xori %rn, %dn : i1
    %fix = arith.andi %nz, %xr : i1
    %adj = arith.addf %r2, %nd : f32
    %py = arith.select %fix, %adj, %r2 : f32
    fusion.store %r, %o0[%p0] : !fusion.buffer<65536xf32>
    fusion.store %py, %o1[%p0] : !fusion.buffer<65536xf32>
  }
  fusion.output %randn, %randint, %erfinv, %i0, %i0e, %ndtr, %digamma, %m, %ex, %ms, %exs, %pow, %fmod, %rem : !fusion.buffer<65536xf32>, !fusion.buffer<65536xi64>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xi32>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xi32>, !fusion.buffer<65536xi64>, !fusion.buffer<65536xf32>, !fusion.buffer<65536xf32>
}
