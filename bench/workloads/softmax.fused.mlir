// softmax.mlir after fusion, as Inductor's ir_post_fusion.txt groups it:
// one kernel op0_op1_op2 whose row max and sum stay in registers.
fusion.graph @softmax(%arg0_1: !fusion.buffer<4096x1024xf32>) -> (!fusion.buffer<4096x1024xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2 = fusion.fused -> !fusion.buffer<4096x1xf32, strides = [1, 4096]>, !fusion.buffer<4096x1xf32, strides = [1, 4096]>, !fusion.buffer<4096x1024xf32> {
    %m0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096x1xf32, strides = [1, 4096]>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %max, %sum = fusion.reduce online_softmax_reduce %0 : f32 -> f32, f32
      fusion.store %max, %out[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    }
    %m1 = fusion.node "op1" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096x1xf32, strides = [1, 4096]>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %max, %sum = fusion.reduce online_softmax_reduce %0 : f32 -> f32, f32
      fusion.store %sum, %out[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    }
    %m2 = fusion.node "op2" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %1 = fusion.load %m0[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
      %2 = arith.subf %0, %1 : f32
      %3 = math.exp %2 : f32
      %4 = fusion.load %m1[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
      %5 = arith.divf %3, %4 : f32
      fusion.store %5, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    }
    fusion.yield %m0, %m1, %m2 : !fusion.buffer<4096x1xf32, strides = [1, 4096]>, !fusion.buffer<4096x1xf32, strides = [1, 4096]>, !fusion.buffer<4096x1024xf32>
  }
  fusion.output %buf2 : !fusion.buffer<4096x1024xf32>
}
