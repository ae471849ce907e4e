// F.silu(x * rsqrt(mean(x^2, -1) + 1e-6) * w) * x on 4096x1024 f32, as
// Inductor's ir_pre_fusion.txt of ../../corpus/inductor/rmsnorm_silu
// schedules it (op1 repeats the normalization for both uses, as Inductor's
// loop body does).
fusion.graph @rmsnorm_silu(%arg0_1: !fusion.buffer<4096x1024xf32>, %arg1_1: !fusion.buffer<1024xf32>) -> (!fusion.buffer<4096x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096x1xf32, strides = [1, 4096]>) {
    %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = arith.mulf %0, %0 : f32
    %2 = fusion.reduce sum %1 : f32 -> f32
    fusion.store %2, %out[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) {
    %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    %cst = arith.constant 1.024000e+03 : f32
    %2 = arith.divf %1, %cst : f32
    %eps = arith.constant 9.99999997E-7 : f32
    %3 = arith.addf %2, %eps : f32
    %4 = math.rsqrt %3 : f32
    %5 = arith.mulf %0, %4 : f32
    %6 = fusion.load %arg1_1[%p1] : !fusion.buffer<1024xf32>
    %7 = arith.mulf %5, %6 : f32
    %8 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %9 = fusion.load %buf0[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    %10 = arith.divf %9, %cst : f32
    %11 = arith.addf %10, %eps : f32
    %12 = math.rsqrt %11 : f32
    %13 = arith.mulf %8, %12 : f32
    %14 = fusion.load %arg1_1[%p1] : !fusion.buffer<1024xf32>
    %15 = arith.mulf %13, %14 : f32
    %16 = arith.negf %15 : f32
    %17 = math.exp %16 : f32
    %one = arith.constant 1.000000e+00 : f32
    %18 = arith.addf %17, %one : f32
    %19 = arith.divf %7, %18 : f32
    %20 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %21 = arith.mulf %19, %20 : f32
    fusion.store %21, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
  }
  fusion.output %buf1 : !fusion.buffer<4096x1024xf32>
}
