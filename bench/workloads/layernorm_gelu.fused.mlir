// layernorm_gelu.mlir after fusion, as Inductor's ir_post_fusion.txt groups
// it: one kernel op0_op1_op3_op4_op5 that stores only what the graph
// returns (mean, rstd, the output); m2 and the normalized rows stay in
// registers.
fusion.graph @layernorm_gelu(%primals_1: !fusion.buffer<1024xf32>, %primals_2: !fusion.buffer<1024xf32>, %primals_3: !fusion.buffer<4096x1024xf32>) -> (!fusion.buffer<4096x1024xf32>, !fusion.buffer<1024xf32>, !fusion.buffer<1024xf32>, !fusion.buffer<4096x1024xf32>, !fusion.buffer<4096x1xf32>, !fusion.buffer<4096x1xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf3, %buf4, %buf5 = fusion.fused -> !fusion.buffer<4096x1xf32>, !fusion.buffer<4096x1xf32, strides = [1, 4096]>, !fusion.buffer<4096x1xf32>, !fusion.buffer<4096x1024xf32>, !fusion.buffer<4096x1024xf32> {
    %m_buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096x1xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %primals_3[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %mean, %m2, %weight = fusion.reduce welford_reduce %0 : f32 -> f32, f32, f32
      fusion.store %mean, %out[%p0] : !fusion.buffer<4096x1xf32>
    }
    %m_buf1 = fusion.node "op1" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096x1xf32, strides = [1, 4096]>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %primals_3[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %mean, %m2, %weight = fusion.reduce welford_reduce %0 : f32 -> f32, f32, f32
      fusion.store %m2, %out[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    }
    %m_buf3 = fusion.node "op3" (%p0) in [4096] writes(%out : !fusion.buffer<4096x1xf32>) attributes {buffer_names = ["buf3"]} {
      %0 = fusion.load %m_buf1[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
      %cst = arith.constant 1.024000e+03 : f32
      %1 = arith.divf %0, %cst : f32
      %eps = arith.constant 9.99999974E-6 : f32
      %2 = arith.addf %1, %eps : f32
      %3 = math.rsqrt %2 : f32
      fusion.store %3, %out[%p0] : !fusion.buffer<4096x1xf32>
    }
    %m_buf4 = fusion.node "op4" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) attributes {buffer_names = ["buf4"]} {
      %0 = fusion.load %primals_3[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %1 = fusion.load %m_buf0[%p0] : !fusion.buffer<4096x1xf32>
      %2 = arith.subf %0, %1 : f32
      %3 = fusion.load %m_buf3[%p0] : !fusion.buffer<4096x1xf32>
      %4 = arith.mulf %2, %3 : f32
      %5 = fusion.load %primals_1[%p1] : !fusion.buffer<1024xf32>
      %6 = arith.mulf %4, %5 : f32
      %7 = fusion.load %primals_2[%p1] : !fusion.buffer<1024xf32>
      %8 = arith.addf %6, %7 : f32
      fusion.store %8, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    }
    %m_buf5 = fusion.node "op5" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) attributes {buffer_names = ["buf5"]} {
      %0 = fusion.load %m_buf4[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %half = arith.constant 5.000000e-01 : f32
      %1 = arith.mulf %0, %half : f32
      %2 = fusion.load %m_buf4[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %rsqrt2 = arith.constant 0.707106769 : f32
      %3 = arith.mulf %2, %rsqrt2 : f32
      %4 = math.erf %3 : f32
      %one = arith.constant 1.000000e+00 : f32
      %5 = arith.addf %4, %one : f32
      %6 = arith.mulf %1, %5 : f32
      fusion.store %6, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    }
    fusion.yield %m_buf0, %m_buf1, %m_buf3, %m_buf4, %m_buf5 : !fusion.buffer<4096x1xf32>, !fusion.buffer<4096x1xf32, strides = [1, 4096]>, !fusion.buffer<4096x1xf32>, !fusion.buffer<4096x1024xf32>, !fusion.buffer<4096x1024xf32>
  }
  fusion.output %buf5, %primals_1, %primals_2, %primals_3, %buf0, %buf3 : !fusion.buffer<4096x1024xf32>, !fusion.buffer<1024xf32>, !fusion.buffer<1024xf32>, !fusion.buffer<4096x1024xf32>, !fusion.buffer<4096x1xf32>, !fusion.buffer<4096x1xf32>
}
