// A normalization over 600 rows of 1024 with a weight and a bias along the
// row: the pipeline fuses it into one kernel whose threads compute the
// same columns of 4 rows (the weight and bias loaded once for them).
fusion.graph @rows(%x: !fusion.buffer<600x1024xf32>, %w: !fusion.buffer<1024xf32>, %b: !fusion.buffer<1024xf32>) -> (!fusion.buffer<600xf32>, !fusion.buffer<600x1024xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.node "op0" (%p0, %p1) in [600] reduce [1024] writes(%sum : !fusion.buffer<600xf32>, %max : !fusion.buffer<600xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<600x1024xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    %2 = fusion.reduce max %0 : f32 -> f32
    fusion.store %1, %sum[%p0] : !fusion.buffer<600xf32>
    fusion.store %2, %max[%p0] : !fusion.buffer<600xf32>
  }
  %buf2 = fusion.node "op1" (%p0, %p1) in [600, 1024] writes(%out : !fusion.buffer<600x1024xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<600x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<600xf32>
    %n = arith.constant 1.024000e+03 : f32
    %2 = arith.divf %1, %n : f32
    %3 = arith.subf %0, %2 : f32
    %4 = fusion.load %w[%p1] : !fusion.buffer<1024xf32>
    %5 = arith.mulf %3, %4 : f32
    %6 = fusion.load %b[%p1] : !fusion.buffer<1024xf32>
    %7 = arith.addf %5, %6 : f32
    fusion.store %7, %out[%p0 * 1024 + %p1] : !fusion.buffer<600x1024xf32>
  }
  fusion.output %buf1, %buf2 : !fusion.buffer<600xf32>, !fusion.buffer<600x1024xf32>
}
