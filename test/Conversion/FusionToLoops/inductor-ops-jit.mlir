// The operations and index functions the Inductor importer added beyond the
// corpus, in the IR the importer builds for them (test/Target/Inductor/
// ops-surface.test and index-functions.test check that IR), run by the LLVM
// JIT on data the graph makes itself, against values computed by hand.

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run | FileCheck %s
// The same graph lowers to PTX (libdevice for the math functions).
// RUN: rm -rf %t && scheduler-opt %s --fusion-to-ptx="output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/inductor_ops.ptx
// PTX: fma.rn.f32
// PTX: min.u64
// PTX: max.u64
// PTX-DAG: shl.b64
// PTX-DAG: shr.u64
// copysign(2, x), its result stored under a predicate (predicated stores,
// docs/Lowering.md): LLVM writes it as x's sign bit or'ed into 2.0's bits.
// PTX: and.b32 [[SIGN:%r[0-9]+]], %r{{[0-9]+}}, -2147483648;
// PTX: cvt.rzi.s64.f32
// PTX: or.b32 %r{{[0-9]+}}, [[SIGN]], 1073741824;

fusion.graph @inductor_ops() -> (!fusion.buffer<8xf32>, !fusion.buffer<8xi64>, !fusion.buffer<8xi64>, !fusion.buffer<4xi64>, !fusion.buffer<4xi64>, !fusion.buffer<8xi64>, !fusion.buffer<8xi64>, !fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<8xi64>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // x = [-3.5, -2.5, ..., 3.5] (index_expr of a float dtype: int64, then a
  // cast); fma(x, x, x) = x * x + x.
  // CHECK: [8.75,{{ +}}3.75,{{ +}}0.75,{{ +}}-0.25,{{ +}}0.75,{{ +}}3.75,{{ +}}8.75,{{ +}}15.75]
  %x = fusion.node "op0" (%p0) in [8] writes(%o0 : !fusion.buffer<8xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %f = fusion.cast %i : i64 to f32
    %half = arith.constant 3.5 : f32
    %v = arith.subf %f, %half : f32
    %fma = math.fma %v, %v, %v : f32
    fusion.store %fma, %o0[%p0] : !fusion.buffer<8xf32>
  }
  // Abs(p0 - 4) + 10*Min(p0, 5) = [4, 13, 22, 31, 40, 51, 52, 53]
  // CHECK: [4,{{ +}}13,{{ +}}22,{{ +}}31,{{ +}}40,{{ +}}51,{{ +}}52,{{ +}}53]
  %absmin = fusion.node "op1" (%p0) in [8] writes(%o0 : !fusion.buffer<8xi64>) {
    %d = fusion.index_expr [%p0 - 4] : index
    %c0 = arith.constant 0 : index
    %neg = arith.cmpi slt, %d, %c0 : index
    %nd = arith.subi %c0, %d : index
    %abs = arith.select %neg, %nd, %d : index
    %a = fusion.index_expr [%p0] : index
    %b = fusion.index_expr [5] : index
    %min = arith.minsi %a, %b : index
    %v = fusion.index_expr [symbol(%abs) + symbol(%min) * 10] : i64
    fusion.store %v, %o0[%p0] : !fusion.buffer<8xi64>
  }
  // Max(p0, 2) + Where(p0 < 4, 100, p0*p0) = [102, 102, 102, 103, 20, 30, 42, 56]
  // CHECK: [102,{{ +}}102,{{ +}}102,{{ +}}103,{{ +}}20,{{ +}}30,{{ +}}42,{{ +}}56]
  %maxwhere = fusion.node "op2" (%p0) in [8] writes(%o0 : !fusion.buffer<8xi64>) {
    %a = fusion.index_expr [%p0] : index
    %b = fusion.index_expr [2] : index
    %max = arith.maxsi %a, %b : index
    %four = fusion.index_expr [4] : index
    %lt = arith.cmpi slt, %a, %four : index
    %lti = arith.index_castui %lt : i1 to index
    %c0 = arith.constant 0 : index
    %cond = arith.cmpi ne, %lti, %c0 : index
    %hundred = fusion.index_expr [100] : index
    %sq = arith.muli %a, %a : index
    %where = arith.select %cond, %hundred, %sq : index
    %v = fusion.index_expr [symbol(%max) + symbol(%where)] : i64
    fusion.store %v, %o0[%p0] : !fusion.buffer<8xi64>
  }
  // lshift(3, 4 p0 - 1): 0 for the negative shift, then 24, 384, 6144.
  // CHECK: [0,{{ +}}24,{{ +}}384,{{ +}}6144]
  // rshift(1000, 4 p0 - 1): 0 (the sign of 1000) for the negative shift,
  // then 125, 7, 0.
  // CHECK: [0,{{ +}}125,{{ +}}7,{{ +}}0]
  %shl, %shr = fusion.node "op3" (%p0) in [4] writes(%o0 : !fusion.buffer<4xi64>, %o1 : !fusion.buffer<4xi64>) {
    %s = fusion.index_expr [%p0 * 4 - 1] : i64
    %c3 = arith.constant 3 : i64
    %c1000 = arith.constant 1000 : i64
    %w = arith.constant 64 : i64
    %in = arith.cmpi ult, %s, %w : i64
    %l = arith.shli %c3, %s : i64
    %zero = arith.constant 0 : i64
    %ls = arith.select %in, %l, %zero : i64
    %r = arith.shrsi %c1000, %s : i64
    %c63 = arith.constant 63 : i64
    %fill = arith.shrsi %c1000, %c63 : i64
    %rs = arith.select %in, %r, %fill : i64
    fusion.store %ls, %o0[%p0] : !fusion.buffer<4xi64>
    fusion.store %rs, %o1[%p0] : !fusion.buffer<4xi64>
  }
  // remainder(p0 - 4, -3), Python's modulus: [-1, 0, -2, -1, 0, -2, -1, 0];
  // truncdiv(p0 - 4, -3), C's division: [1, 1, 0, 0, 0, 0, 0, -1].
  // CHECK: [-1,{{ +}}0,{{ +}}-2,{{ +}}-1,{{ +}}0,{{ +}}-2,{{ +}}-1,{{ +}}0]
  // CHECK: [1,{{ +}}1,{{ +}}0,{{ +}}0,{{ +}}0,{{ +}}0,{{ +}}0,{{ +}}-1]
  %rem, %tdiv = fusion.node "op4" (%p0) in [8] writes(%o0 : !fusion.buffer<8xi64>, %o1 : !fusion.buffer<8xi64>) {
    %a = fusion.index_expr [%p0 - 4] : i64
    %d = arith.constant -3 : i64
    %r = arith.remsi %a, %d : i64
    %c0 = arith.constant 0 : i64
    %nz = arith.cmpi ne, %r, %c0 : i64
    %rn = arith.cmpi slt, %r, %c0 : i64
    %dn = arith.cmpi slt, %d, %c0 : i64
    %xr = arith.xori %rn, %dn : i1
    %fix = arith.andi %nz, %xr : i1
    %adj = arith.addi %r, %d : i64
    %py = arith.select %fix, %adj, %r : i64
    %t = arith.divsi %a, %d : i64
    fusion.store %py, %o0[%p0] : !fusion.buffer<8xi64>
    fusion.store %t, %o1[%p0] : !fusion.buffer<8xi64>
  }
  // On x = [-3.5 .. 3.5]: sign = [-1 x4, 1 x4]; copysign(2, x); ldexp(x, 2)
  // = 4 x; trunc_to_int(x) = [-3, -2, -1, 0, 0, 1, 2, 3]; isnan(log(x)) as
  // f32; fmod(x, 2) (C's fmod, arith.remf) is in inductor-fmod-jit.mlir:
  // arith.remf has no lowering to NVVM.
  // CHECK: [-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}1,{{ +}}1,{{ +}}1,{{ +}}1]
  // CHECK: [-2,{{ +}}-2,{{ +}}-2,{{ +}}-2,{{ +}}2,{{ +}}2,{{ +}}2,{{ +}}2]
  // CHECK: [-14,{{ +}}-10,{{ +}}-6,{{ +}}-2,{{ +}}2,{{ +}}6,{{ +}}10,{{ +}}14]
  // CHECK: [-3,{{ +}}-2,{{ +}}-1,{{ +}}0,{{ +}}0,{{ +}}1,{{ +}}2,{{ +}}3]
  // CHECK: [1,{{ +}}1,{{ +}}1,{{ +}}1,{{ +}}0,{{ +}}0,{{ +}}0,{{ +}}0]
  %sign, %copysign, %ldexp, %trunc, %nan = fusion.node "op5" (%p0) in [8] writes(%o0 : !fusion.buffer<8xf32>, %o1 : !fusion.buffer<8xf32>, %o2 : !fusion.buffer<8xf32>, %o3 : !fusion.buffer<8xi64>, %o4 : !fusion.buffer<8xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %f = fusion.cast %i : i64 to f32
    %half = arith.constant 3.5 : f32
    %v = arith.subf %f, %half : f32
    %z = arith.constant 0.0 : f32
    %pos = arith.cmpf olt, %z, %v : f32
    %neg = arith.cmpf olt, %v, %z : f32
    %pos8 = fusion.cast %pos : i1 to i8
    %neg8 = fusion.cast %neg : i1 to i8
    %d = arith.subi %pos8, %neg8 : i8
    %sign = fusion.cast %d : i8 to f32
    %two = arith.constant 2.0 : f32
    %cs = math.copysign %two, %v : f32
    %n = arith.constant 2 : i32
    %nf = fusion.cast %n : i32 to f32
    %scale = math.exp2 %nf : f32
    %ld = arith.mulf %v, %scale : f32
    %t = math.trunc %v : f32
    %ti = fusion.cast %t : f32 to i64
    %log = math.log %v : f32
    %isnan = math.isnan %log : f32
    %nanf = fusion.cast %isnan : i1 to f32
    fusion.store %sign, %o0[%p0] : !fusion.buffer<8xf32>
    fusion.store %cs, %o1[%p0] : !fusion.buffer<8xf32>
    fusion.store %ld, %o2[%p0] : !fusion.buffer<8xf32>
    fusion.store %ti, %o3[%p0] : !fusion.buffer<8xi64>
    fusion.store %nanf, %o4[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %x, %absmin, %maxwhere, %shl, %shr, %rem, %tdiv, %sign, %copysign, %ldexp, %trunc, %nan : !fusion.buffer<8xf32>, !fusion.buffer<8xi64>, !fusion.buffer<8xi64>, !fusion.buffer<4xi64>, !fusion.buffer<4xi64>, !fusion.buffer<8xi64>, !fusion.buffer<8xi64>, !fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<8xf32>, !fusion.buffer<8xi64>, !fusion.buffer<8xf32>
}
