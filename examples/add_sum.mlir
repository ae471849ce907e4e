// sum(arg0_1 + arg1_1, dim=1) on 64x4096 f32: one reduction node.
// Hand-written from corpus/inductor/add_sum (ir_pre_fusion.txt).
fusion.graph @add_sum(%arg0_1: !fusion.buffer<64x4096xf32>, %arg1_1: !fusion.buffer<64x4096xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [4096] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %arg0_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %1 = fusion.load %arg1_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %2 = arith.addf %0, %1 : f32
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64xf32>
}
