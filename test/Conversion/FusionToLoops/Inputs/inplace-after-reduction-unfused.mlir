// The graph of ../inplace-after-reduction-jit.mlir, unfused.
fusion.graph @inplace(%x: !fusion.buffer<8x4xf32>, %s: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8] reduce [4] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p0 * 4 + %p1] : !fusion.buffer<8x4xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<8xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<8xf32>
    %1 = fusion.load %s[%p0] : !fusion.buffer<8xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<8xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [8] writes(%out : !fusion.buffer<8xf32> mutates %s) {
    %0 = fusion.load %s[%p0] : !fusion.buffer<8xf32>
    %cst = arith.constant 1.000000e+01 : f32
    %1 = arith.mulf %0, %cst : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf1, %buf2 : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>
}
