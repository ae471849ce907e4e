// merged-loops-jit.mlir's graph without the fusion: the reference.
fusion.graph @merged(%x: !fusion.buffer<2x4x16xf32>) -> (!fusion.buffer<2x4x16xf32>) attributes {device = "cuda:0"} {
  %a = fusion.node "op0" (%p0) in [128] writes(%out : !fusion.buffer<2x4x16xf32>) attributes {buffer_names = ["buf0"]} {
    %0 = fusion.load %x[%p0] : !fusion.buffer<2x4x16xf32>
    %cst = arith.constant 3.000000e+00 : f32
    %1 = arith.addf %0, %cst : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<2x4x16xf32>
  }
  %b = fusion.node "op1" (%p0, %p1, %p2) in [2, 4, 16] writes(%out : !fusion.buffer<2x4x16xf32>) attributes {buffer_names = ["buf1"]} {
    %0 = fusion.load %a[%p0 * 64 + %p1 * 16 + %p2] : !fusion.buffer<2x4x16xf32>
    %1 = arith.mulf %0, %0 : f32
    fusion.store %1, %out[%p0 * 64 + %p1 * 16 + %p2] : !fusion.buffer<2x4x16xf32>
  }
  fusion.output %b : !fusion.buffer<2x4x16xf32>
}
