// gelu(layer_norm(x)) on 4096x1024 f32, forward graph with the outputs that
// autograd saves (mean, rstd). Hand-written from
// corpus/inductor/layernorm_gelu (ir_pre_fusion.txt): op0 and op1
// are Welford reductions keeping the mean and m2, op3 computes rstd, op4
// normalizes and applies the affine weights, op5 is the exact GELU.
fusion.graph @layernorm_gelu(%primals_1: !fusion.buffer<1024xf32>, %primals_2: !fusion.buffer<1024xf32>, %primals_3: !fusion.buffer<4096x1024xf32>) -> (!fusion.buffer<4096x1024xf32>, !fusion.buffer<1024xf32>, !fusion.buffer<1024xf32>, !fusion.buffer<4096x1024xf32>, !fusion.buffer<4096x1xf32>, !fusion.buffer<4096x1xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096x1xf32>) {
    %0 = fusion.load %primals_3[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %mean, %m2, %weight = fusion.reduce welford_reduce %0 : f32 -> f32, f32, f32
    fusion.store %mean, %out[%p0] : !fusion.buffer<4096x1xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096x1xf32, strides = [1, 4096]>) {
    %0 = fusion.load %primals_3[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %mean, %m2, %weight = fusion.reduce welford_reduce %0 : f32 -> f32, f32, f32
    fusion.store %m2, %out[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
  }
  %buf3 = fusion.node "op3" (%p0) in [4096] writes(%out : !fusion.buffer<4096x1xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    %cst = arith.constant 1.024000e+03 : f32
    %1 = arith.divf %0, %cst : f32
    %eps = arith.constant 9.99999974E-6 : f32
    %2 = arith.addf %1, %eps : f32
    %3 = math.rsqrt %2 : f32
    fusion.store %3, %out[%p0] : !fusion.buffer<4096x1xf32>
  }
  %buf4 = fusion.node "op4" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) {
    %0 = fusion.load %primals_3[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<4096x1xf32>
    %2 = arith.subf %0, %1 : f32
    %3 = fusion.load %buf3[%p0] : !fusion.buffer<4096x1xf32>
    %4 = arith.mulf %2, %3 : f32
    %5 = fusion.load %primals_1[%p1] : !fusion.buffer<1024xf32>
    %6 = arith.mulf %4, %5 : f32
    %7 = fusion.load %primals_2[%p1] : !fusion.buffer<1024xf32>
    %8 = arith.addf %6, %7 : f32
    fusion.store %8, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
  }
  %buf5 = fusion.node "op5" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) {
    %0 = fusion.load %buf4[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %half = arith.constant 5.000000e-01 : f32
    %1 = arith.mulf %0, %half : f32
    %2 = fusion.load %buf4[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %rsqrt2 = arith.constant 0.707106769 : f32
    %3 = arith.mulf %2, %rsqrt2 : f32
    %4 = math.erf %3 : f32
    %one = arith.constant 1.000000e+00 : f32
    %5 = arith.addf %4, %one : f32
    %6 = arith.mulf %1, %5 : f32
    fusion.store %6, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
  }
  fusion.output %buf5, %primals_1, %primals_2, %primals_3, %buf0, %buf3 : !fusion.buffer<4096x1024xf32>, !fusion.buffer<1024xf32>, !fusion.buffer<1024xf32>, !fusion.buffer<4096x1024xf32>, !fusion.buffer<4096x1xf32>, !fusion.buffer<4096x1xf32>
}
