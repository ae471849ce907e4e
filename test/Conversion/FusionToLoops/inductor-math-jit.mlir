// The math ops the Inductor importer builds (ops.exp, acos, erfc, round,
// ...: docs/Importer.md), on the CPU JIT against the C library's values
// (Python's math module, to 5 significant digits).

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run | FileCheck %s

fusion.graph @math() -> (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // x = [0, 1, 2, 3]; x1 = x + 1; q = x / 4; h = x + 0.5; m = x - 1.5
  // math.exp: 1, 2.71828, 7.38906, 20.0855
  // CHECK: [1,{{ +}}2.7182{{[0-9]*}},{{ +}}7.3890{{[0-9]*}},{{ +}}20.085{{[0-9]*}}]
  // math.expm1: 0, 1.71828, 6.38906, 19.0855
  // CHECK: [0,{{ +}}1.7182{{[0-9]*}},{{ +}}6.3890{{[0-9]*}},{{ +}}19.085{{[0-9]*}}]
  // math.exp2: 1, 2, 4, 8
  // CHECK: [1,{{ +}}2,{{ +}}4,{{ +}}8]
  // math.log: 0, 0.693147, 1.09861, 1.38629
  // CHECK: [0,{{ +}}0.69314{{[0-9]*}},{{ +}}1.0986{{[0-9]*}},{{ +}}1.3862{{[0-9]*}}]
  // math.log2: 0, 1, 1.58496, 2
  // CHECK: [0,{{ +}}1,{{ +}}1.5849{{[0-9]*}},{{ +}}2]
  // math.log10: 0, 0.30103, 0.477121, 0.60206
  // CHECK: [0,{{ +}}0.30103{{[0-9]*}},{{ +}}0.47712{{[0-9]*}},{{ +}}0.60206{{[0-9]*}}]
  // math.log1p: 0, 0.693147, 1.09861, 1.38629
  // CHECK: [0,{{ +}}0.69314{{[0-9]*}},{{ +}}1.0986{{[0-9]*}},{{ +}}1.3862{{[0-9]*}}]
  // math.sqrt: 0, 1, 1.41421, 1.73205
  // CHECK: [0,{{ +}}1,{{ +}}1.4142{{[0-9]*}},{{ +}}1.7320{{[0-9]*}}]
  // math.rsqrt: 1, 0.707107, 0.57735, 0.5
  // CHECK: [1,{{ +}}0.70710{{[0-9]*}},{{ +}}0.57735{{[0-9]*}},{{ +}}0.5{{[0-9]*}}]
  // math.sin: 0, 0.841471, 0.909297, 0.14112
  // CHECK: [0,{{ +}}0.84147{{[0-9]*}},{{ +}}0.90929{{[0-9]*}},{{ +}}0.14112{{[0-9]*}}]
  // math.cos: 1, 0.540302, -0.416147, -0.989992
  // CHECK: [1,{{ +}}0.54030{{[0-9]*}},{{ +}}-0.41614{{[0-9]*}},{{ +}}-0.98999{{[0-9]*}}]
  // math.tan: 0, 1.55741, -2.18504, -0.142547
  // CHECK: [0,{{ +}}1.5574{{[0-9]*}},{{ +}}-2.1850{{[0-9]*}},{{ +}}-0.14254{{[0-9]*}}]
  // math.tanh: 0, 0.761594, 0.964028, 0.995055
  // CHECK: [0,{{ +}}0.76159{{[0-9]*}},{{ +}}0.96402{{[0-9]*}},{{ +}}0.99505{{[0-9]*}}]
  // math.sinh: 0, 1.1752, 3.62686, 10.0179
  // CHECK: [0,{{ +}}1.1752{{[0-9]*}},{{ +}}3.6268{{[0-9]*}},{{ +}}10.017{{[0-9]*}}]
  // math.cosh: 1, 1.54308, 3.7622, 10.0677
  // CHECK: [1,{{ +}}1.5430{{[0-9]*}},{{ +}}3.7622{{[0-9]*}},{{ +}}10.067{{[0-9]*}}]
  // math.asinh: 0, 0.881374, 1.44364, 1.81845
  // CHECK: [0,{{ +}}0.88137{{[0-9]*}},{{ +}}1.4436{{[0-9]*}},{{ +}}1.8184{{[0-9]*}}]
  // math.acosh: 0, 1.31696, 1.76275, 2.06344
  // CHECK: [0,{{ +}}1.3169{{[0-9]*}},{{ +}}1.7627{{[0-9]*}},{{ +}}2.0634{{[0-9]*}}]
  // math.atan: 0, 0.785398, 1.10715, 1.24905
  // CHECK: [0,{{ +}}0.78539{{[0-9]*}},{{ +}}1.1071{{[0-9]*}},{{ +}}1.2490{{[0-9]*}}]
  // math.asin: 0, 0.25268, 0.523599, 0.848062
  // CHECK: [0,{{ +}}0.25268{{[0-9]*}},{{ +}}0.52359{{[0-9]*}},{{ +}}0.84806{{[0-9]*}}]
  // math.acos: 1.5708, 1.31812, 1.0472, 0.722734
  // CHECK: [1.5708{{[0-9]*}},{{ +}}1.3181{{[0-9]*}},{{ +}}1.0472{{[0-9]*}},{{ +}}0.72273{{[0-9]*}}]
  // math.atanh: 0, 0.255413, 0.549306, 0.972955
  // CHECK: [0,{{ +}}0.25541{{[0-9]*}},{{ +}}0.54930{{[0-9]*}},{{ +}}0.97295{{[0-9]*}}]
  // math.erf: 0, 0.842701, 0.995322, 0.999978
  // CHECK: [0,{{ +}}0.84270{{[0-9]*}},{{ +}}0.99532{{[0-9]*}},{{ +}}0.99997{{[0-9]*}}]
  // math.erfc: 1, 0.157299, 0.00467773, 2.20905e-05
  // CHECK: [1,{{ +}}0.15729{{[0-9]*}},{{ +}}0.0046777{{[0-9]*}},{{ +}}2.2090{{[0-9]*}}e-05]
  // math.floor: 0, 1, 2, 3
  // CHECK: [0,{{ +}}1,{{ +}}2,{{ +}}3]
  // math.ceil: 1, 2, 3, 4
  // CHECK: [1,{{ +}}2,{{ +}}3,{{ +}}4]
  // math.trunc: 0, 1, 2, 3
  // CHECK: [0,{{ +}}1,{{ +}}2,{{ +}}3]
  // math.roundeven: 0, 2, 2, 4
  // CHECK: [0,{{ +}}2,{{ +}}2,{{ +}}4]
  // math.absf: 1.5, 0.5, 0.5, 1.5
  // CHECK: [1.5{{[0-9]*}},{{ +}}0.5{{[0-9]*}},{{ +}}0.5{{[0-9]*}},{{ +}}1.5{{[0-9]*}}]
  %y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7, %y8, %y9, %y10, %y11, %y12, %y13, %y14, %y15, %y16, %y17, %y18, %y19, %y20, %y21, %y22, %y23, %y24, %y25, %y26, %y27 = fusion.node "op0" (%p0) in [4] writes(%o0 : !fusion.buffer<4xf32>, %o1 : !fusion.buffer<4xf32>, %o2 : !fusion.buffer<4xf32>, %o3 : !fusion.buffer<4xf32>, %o4 : !fusion.buffer<4xf32>, %o5 : !fusion.buffer<4xf32>, %o6 : !fusion.buffer<4xf32>, %o7 : !fusion.buffer<4xf32>, %o8 : !fusion.buffer<4xf32>, %o9 : !fusion.buffer<4xf32>, %o10 : !fusion.buffer<4xf32>, %o11 : !fusion.buffer<4xf32>, %o12 : !fusion.buffer<4xf32>, %o13 : !fusion.buffer<4xf32>, %o14 : !fusion.buffer<4xf32>, %o15 : !fusion.buffer<4xf32>, %o16 : !fusion.buffer<4xf32>, %o17 : !fusion.buffer<4xf32>, %o18 : !fusion.buffer<4xf32>, %o19 : !fusion.buffer<4xf32>, %o20 : !fusion.buffer<4xf32>, %o21 : !fusion.buffer<4xf32>, %o22 : !fusion.buffer<4xf32>, %o23 : !fusion.buffer<4xf32>, %o24 : !fusion.buffer<4xf32>, %o25 : !fusion.buffer<4xf32>, %o26 : !fusion.buffer<4xf32>, %o27 : !fusion.buffer<4xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %x = fusion.cast %i : i64 to f32
    %one = arith.constant 1.0 : f32
    %x1 = arith.addf %x, %one : f32
    %c4 = arith.constant 0.25 : f32
    %q = arith.mulf %x, %c4 : f32
    %c05 = arith.constant 0.5 : f32
    %h = arith.addf %x, %c05 : f32
    %c15 = arith.constant 1.5 : f32
    %m = arith.subf %x, %c15 : f32
    %r0 = math.exp %x : f32
    fusion.store %r0, %o0[%p0] : !fusion.buffer<4xf32>
    %r1 = math.expm1 %x : f32
    fusion.store %r1, %o1[%p0] : !fusion.buffer<4xf32>
    %r2 = math.exp2 %x : f32
    fusion.store %r2, %o2[%p0] : !fusion.buffer<4xf32>
    %r3 = math.log %x1 : f32
    fusion.store %r3, %o3[%p0] : !fusion.buffer<4xf32>
    %r4 = math.log2 %x1 : f32
    fusion.store %r4, %o4[%p0] : !fusion.buffer<4xf32>
    %r5 = math.log10 %x1 : f32
    fusion.store %r5, %o5[%p0] : !fusion.buffer<4xf32>
    %r6 = math.log1p %x : f32
    fusion.store %r6, %o6[%p0] : !fusion.buffer<4xf32>
    %r7 = math.sqrt %x : f32
    fusion.store %r7, %o7[%p0] : !fusion.buffer<4xf32>
    %r8 = math.rsqrt %x1 : f32
    fusion.store %r8, %o8[%p0] : !fusion.buffer<4xf32>
    %r9 = math.sin %x : f32
    fusion.store %r9, %o9[%p0] : !fusion.buffer<4xf32>
    %r10 = math.cos %x : f32
    fusion.store %r10, %o10[%p0] : !fusion.buffer<4xf32>
    %r11 = math.tan %x : f32
    fusion.store %r11, %o11[%p0] : !fusion.buffer<4xf32>
    %r12 = math.tanh %x : f32
    fusion.store %r12, %o12[%p0] : !fusion.buffer<4xf32>
    %r13 = math.sinh %x : f32
    fusion.store %r13, %o13[%p0] : !fusion.buffer<4xf32>
    %r14 = math.cosh %x : f32
    fusion.store %r14, %o14[%p0] : !fusion.buffer<4xf32>
    %r15 = math.asinh %x : f32
    fusion.store %r15, %o15[%p0] : !fusion.buffer<4xf32>
    %r16 = math.acosh %x1 : f32
    fusion.store %r16, %o16[%p0] : !fusion.buffer<4xf32>
    %r17 = math.atan %x : f32
    fusion.store %r17, %o17[%p0] : !fusion.buffer<4xf32>
    %r18 = math.asin %q : f32
    fusion.store %r18, %o18[%p0] : !fusion.buffer<4xf32>
    %r19 = math.acos %q : f32
    fusion.store %r19, %o19[%p0] : !fusion.buffer<4xf32>
    %r20 = math.atanh %q : f32
    fusion.store %r20, %o20[%p0] : !fusion.buffer<4xf32>
    %r21 = math.erf %x : f32
    fusion.store %r21, %o21[%p0] : !fusion.buffer<4xf32>
    %r22 = math.erfc %x : f32
    fusion.store %r22, %o22[%p0] : !fusion.buffer<4xf32>
    %r23 = math.floor %h : f32
    fusion.store %r23, %o23[%p0] : !fusion.buffer<4xf32>
    %r24 = math.ceil %h : f32
    fusion.store %r24, %o24[%p0] : !fusion.buffer<4xf32>
    %r25 = math.trunc %h : f32
    fusion.store %r25, %o25[%p0] : !fusion.buffer<4xf32>
    %r26 = math.roundeven %h : f32
    fusion.store %r26, %o26[%p0] : !fusion.buffer<4xf32>
    %r27 = math.absf %m : f32
    fusion.store %r27, %o27[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7, %y8, %y9, %y10, %y11, %y12, %y13, %y14, %y15, %y16, %y17, %y18, %y19, %y20, %y21, %y22, %y23, %y24, %y25, %y26, %y27 : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
}
