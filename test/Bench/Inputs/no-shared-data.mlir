// The consumer reads its producer's buffer shifted by one element: the fusion
// pass refuses the pair (no shared data), as in fuse-nodes.mlir.
fusion.graph @no_shared_data(%x: !fusion.buffer<65xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [65] writes(%out : !fusion.buffer<65xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<65xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<65xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %buf0[%p0 + 1] : !fusion.buffer<65xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %buf1 : !fusion.buffer<64xf32>
}
