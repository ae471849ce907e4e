// float ** int64 (the importer's math.fpowi with an i64 exponent): LLVM's
// powi takes an i32, so the lowering clamps the exponent into i32 keeping
// its parity, which changes no result. On the JIT against hand-computed
// values, with exponents beyond 2^31 whose parity decides the sign.

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run | FileCheck %s
// RUN: scheduler-opt %s --fusion-to-ptx -o /dev/null

// (base, exponent) = (2, 3) (-2, 3) (2, -2) (-1, 2^40 + 1) (-1, 2^40)
// (1.5, 2^40) (-1.5, 2^40 + 1) (0.5, -2^40):
// CHECK: [8,{{ +}}-8,{{ +}}0.25,{{ +}}-1,{{ +}}1,{{ +}}inf,{{ +}}-inf,{{ +}}inf]
fusion.graph @fpowi() -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0) in [8] writes(%o : !fusion.buffer<8xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %c3 = arith.constant 3 : i64
    %c4 = arith.constant 4 : i64
    %c5 = arith.constant 5 : i64
    %c6 = arith.constant 6 : i64
    %is0 = arith.cmpi eq, %i, %c0 : i64
    %is1 = arith.cmpi eq, %i, %c1 : i64
    %is2 = arith.cmpi eq, %i, %c2 : i64
    %is3 = arith.cmpi eq, %i, %c3 : i64
    %is4 = arith.cmpi eq, %i, %c4 : i64
    %is5 = arith.cmpi eq, %i, %c5 : i64
    %is6 = arith.cmpi eq, %i, %c6 : i64
    %two = arith.constant 2.0 : f32
    %mtwo = arith.constant -2.0 : f32
    %mone = arith.constant -1.0 : f32
    %big = arith.constant 1.5 : f32
    %mbig = arith.constant -1.5 : f32
    %half = arith.constant 0.5 : f32
    %b6 = arith.select %is6, %mbig, %half : f32
    %b5 = arith.select %is5, %big, %b6 : f32
    %b4 = arith.select %is4, %mone, %b5 : f32
    %b3 = arith.select %is3, %mone, %b4 : f32
    %b2 = arith.select %is2, %two, %b3 : f32
    %b1 = arith.select %is1, %mtwo, %b2 : f32
    %b = arith.select %is0, %two, %b1 : f32
    %e3 = arith.constant 3 : i64
    %em2 = arith.constant -2 : i64
    %eodd = arith.constant 1099511627777 : i64
    %eeven = arith.constant 1099511627776 : i64
    %eneg = arith.constant -1099511627776 : i64
    %x6 = arith.select %is6, %eodd, %eneg : i64
    %x5 = arith.select %is5, %eeven, %x6 : i64
    %x4 = arith.select %is4, %eeven, %x5 : i64
    %x3 = arith.select %is3, %eodd, %x4 : i64
    %x2 = arith.select %is2, %em2, %x3 : i64
    %x1 = arith.select %is1, %e3, %x2 : i64
    %e = arith.select %is0, %e3, %x1 : i64
    %r = math.fpowi %b, %e : f32, i64
    fusion.store %r, %o[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %out : !fusion.buffer<8xf32>
}
