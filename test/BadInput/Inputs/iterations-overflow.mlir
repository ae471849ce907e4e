fusion.graph @negative_merge_overflow(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4611686018427387904, 4611686018427387904] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0 * 4611686018427387904 + %p1] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0 * 4611686018427387904 + %p1] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0 : !fusion.buffer<16xf32>
}
