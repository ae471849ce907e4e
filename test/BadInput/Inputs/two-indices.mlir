// A load indexing a 2-D buffer with two indices instead of one flat offset.
fusion.graph @g(%x: !fusion.buffer<4x4xf32>) -> (!fusion.buffer<4x4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %x[%p0, %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  fusion.output %buf0 : !fusion.buffer<4x4xf32>
}
