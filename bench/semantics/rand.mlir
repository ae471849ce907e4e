// tl.rand(seed, 3 i) for i < 4096 with a seed wider than 32 bits (both key
// words non-zero): the GPU run compares it with Triton's own tl.rand.
fusion.graph @rand() -> (!fusion.buffer<4096xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4096] writes(%out : !fusion.buffer<4096xf32>) {
    %seed = arith.constant 78187493520 : i64
    %offset = fusion.index_expr [%p0 * 3] : i32
    %r = fusion.rand %seed, %offset : i64, i32 -> f32
    fusion.store %r, %out[%p0] : !fusion.buffer<4096xf32>
  }
  fusion.output %buf0 : !fusion.buffer<4096xf32>
}
