// An op the fusion dialect does not define.
fusion.graph @g(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    %1 = fusion.fuse_everything %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %buf0 : !fusion.buffer<4xf32>
}
