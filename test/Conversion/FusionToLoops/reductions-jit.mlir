// Every reduction kind, run by the LLVM JIT on data the graph makes itself,
// against values computed by hand. v(i) = (3 i mod 4) - 1 over the flat
// index i of a 2x6 space gives
//   row 0 = [-1, 2, 1, 0, -1, 2]    row 1 = [1, 0, -1, 2, 1, 0]
// with ties for the maximum of row 0 and the minimum of row 0.

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN: | FileCheck %s

// sum: -1+2+1+0-1+2 = 3, 1+0-1+2+1+0 = 3
// CHECK: [3,{{ +}}3]
// prod of v + 3: 2*5*4*3*2*5 = 1200, 4*3*2*5*4*3 = 1440
// CHECK: [1200,{{ +}}1440]
// max, min
// CHECK: [2,{{ +}}2]
// CHECK: [-1,{{ +}}-1]
// argmax, argmin: the first position of the extremum
// CHECK: [1,{{ +}}3]
// CHECK: [0,{{ +}}2]
// welford_reduce: mean 0.5, m2 = sum of squared deviations, weight 6
// CHECK: [0.5,{{ +}}0.5]
// CHECK: [9.5,{{ +}}5.5]
// CHECK: [6,{{ +}}6]
// online_softmax_reduce: max 2, sum of exp(v - 2):
//   2 + 2e^-3 + e^-1 + e^-2 = 2.60279, 1 + 2e^-1 + 2e^-2 + e^-3 = 2.05622
// CHECK: [2,{{ +}}2]
// CHECK: [2.60279,{{ +}}2.05622]
// any(v == 2), any(v > 2)
// CHECK: [1,{{ +}}1]
// CHECK: [0,{{ +}}0]
// xor_sum of v + 3 as i32: 2^5^4^3^2^5 = 7, 4^3^2^5^4^3 = 7
// CHECK: [7,{{ +}}7]
// welford_combine of (v, 0, 1) triples: as welford_reduce
// CHECK: [0.5,{{ +}}0.5]
// CHECK: [9.5,{{ +}}5.5]
// integer sum and max of 3 i mod 4 as i64: 0+3+2+1+0+3 = 9, 2+1+0+3+2+1 = 9
// CHECK: [9,{{ +}}9]
// CHECK: [3,{{ +}}3]
fusion.graph @reductions() -> (!fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi64>, !fusion.buffer<2xi64>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi1>, !fusion.buffer<2xi1>, !fusion.buffer<2xi32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi64>, !fusion.buffer<2xi64>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2, %buf3, %buf4, %buf5, %buf6, %buf7, %buf8, %buf9, %buf10, %buf11, %buf12, %buf13, %buf14, %buf15, %buf16, %buf17 = fusion.node "op0" (%p0, %p1) in [2] reduce [6] writes(%o0 : !fusion.buffer<2xf32>, %o1 : !fusion.buffer<2xf32>, %o2 : !fusion.buffer<2xf32>, %o3 : !fusion.buffer<2xf32>, %o4 : !fusion.buffer<2xi64>, %o5 : !fusion.buffer<2xi64>, %o6 : !fusion.buffer<2xf32>, %o7 : !fusion.buffer<2xf32>, %o8 : !fusion.buffer<2xf32>, %o9 : !fusion.buffer<2xf32>, %o10 : !fusion.buffer<2xf32>, %o11 : !fusion.buffer<2xi1>, %o12 : !fusion.buffer<2xi1>, %o13 : !fusion.buffer<2xi32>, %o14 : !fusion.buffer<2xf32>, %o15 : !fusion.buffer<2xf32>, %o16 : !fusion.buffer<2xi64>, %o17 : !fusion.buffer<2xi64>) {
    %i = fusion.index_expr [(%p0 * 6 + %p1) * 3 mod 4] : i64
    %f = fusion.cast %i : i64 to f32
    %one = arith.constant 1.0 : f32
    %v = arith.subf %f, %one : f32
    %three = arith.constant 3.0 : f32
    %v3 = arith.addf %v, %three : f32
    %sum = fusion.reduce sum %v : f32 -> f32
    %prod = fusion.reduce prod %v3 : f32 -> f32
    %max = fusion.reduce max %v : f32 -> f32
    %min = fusion.reduce min %v : f32 -> f32
    %argmax = fusion.reduce argmax %v : f32 -> i64
    %argmin = fusion.reduce argmin %v : f32 -> i64
    %mean, %m2, %weight = fusion.reduce welford_reduce %v : f32 -> f32, f32, f32
    %smax, %ssum = fusion.reduce online_softmax_reduce %v : f32 -> f32, f32
    %two = arith.constant 2.0 : f32
    %eq2 = arith.cmpf oeq, %v, %two : f32
    %gt2 = arith.cmpf ogt, %v, %two : f32
    %any2 = fusion.reduce any %eq2 : i1 -> i1
    %any3 = fusion.reduce any %gt2 : i1 -> i1
    %vi = fusion.cast %v3 : f32 to i32
    %xor = fusion.reduce xor_sum %vi : i32 -> i32
    %zero = arith.constant 0.0 : f32
    %cmean, %cm2, %cw = fusion.reduce welford_combine %v, %zero, %one : f32, f32, f32 -> f32, f32, f32
    %isum = fusion.reduce sum %i : i64 -> i64
    %imax = fusion.reduce max %i : i64 -> i64
    fusion.store %sum, %o0[%p0] : !fusion.buffer<2xf32>
    fusion.store %prod, %o1[%p0] : !fusion.buffer<2xf32>
    fusion.store %max, %o2[%p0] : !fusion.buffer<2xf32>
    fusion.store %min, %o3[%p0] : !fusion.buffer<2xf32>
    fusion.store %argmax, %o4[%p0] : !fusion.buffer<2xi64>
    fusion.store %argmin, %o5[%p0] : !fusion.buffer<2xi64>
    fusion.store %mean, %o6[%p0] : !fusion.buffer<2xf32>
    fusion.store %m2, %o7[%p0] : !fusion.buffer<2xf32>
    fusion.store %weight, %o8[%p0] : !fusion.buffer<2xf32>
    fusion.store %smax, %o9[%p0] : !fusion.buffer<2xf32>
    fusion.store %ssum, %o10[%p0] : !fusion.buffer<2xf32>
    fusion.store %any2, %o11[%p0] : !fusion.buffer<2xi1>
    fusion.store %any3, %o12[%p0] : !fusion.buffer<2xi1>
    fusion.store %xor, %o13[%p0] : !fusion.buffer<2xi32>
    fusion.store %cmean, %o14[%p0] : !fusion.buffer<2xf32>
    fusion.store %cm2, %o15[%p0] : !fusion.buffer<2xf32>
    fusion.store %isum, %o16[%p0] : !fusion.buffer<2xi64>
    fusion.store %imax, %o17[%p0] : !fusion.buffer<2xi64>
  }
  fusion.output %buf0, %buf1, %buf2, %buf3, %buf4, %buf5, %buf6, %buf7, %buf8, %buf9, %buf10, %buf11, %buf12, %buf13, %buf14, %buf15, %buf16, %buf17 : !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi64>, !fusion.buffer<2xi64>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi1>, !fusion.buffer<2xi1>, !fusion.buffer<2xi32>, !fusion.buffer<2xf32>, !fusion.buffer<2xf32>, !fusion.buffer<2xi64>, !fusion.buffer<2xi64>
}
