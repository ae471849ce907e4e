// gpt2_train's backward, nodes op77 and op79 (torch 2.11 dump): the layer-norm
// weight and bias gradients over the embeddings, partial sums of 128 rows
// for each of 1024 columns (4 x 256). bench/time_few_columns.py times it.
module {
  fusion.graph @graph(%buf71: !fusion.buffer<512x256xf32>, %embedding: !fusion.buffer<4x128x256xf32>, %embedding_1: !fusion.buffer<128x256xf32>, %getitem_1: !fusion.buffer<4x128x1xf32>, %rsqrt: !fusion.buffer<4x128x1xf32>) -> (!fusion.buffer<256x4xf32, strides = [1, 256]>, !fusion.buffer<256x4xf32, strides = [1, 256]>) attributes {device = "cuda:0"} {
    %buf77 = fusion.node "op77" (%p0, %p1, %p2) in [4, 256] reduce [128] writes(%out : !fusion.buffer<256x4xf32, strides = [1, 256]>) {
      %0 = fusion.load %buf71[%p0 * 32768 + %p1 + %p2 * 256] : !fusion.buffer<512x256xf32>
      %1 = fusion.load %embedding[%p0 * 32768 + %p1 + %p2 * 256] : !fusion.buffer<4x128x256xf32>
      %2 = fusion.load %embedding_1[%p1 + %p2 * 256] : !fusion.buffer<128x256xf32>
      %3 = arith.addf %1, %2 : f32
      %4 = fusion.load %getitem_1[%p0 * 128 + %p2] : !fusion.buffer<4x128x1xf32>
      %5 = arith.subf %3, %4 : f32
      %6 = fusion.load %rsqrt[%p0 * 128 + %p2] : !fusion.buffer<4x128x1xf32>
      %7 = arith.mulf %5, %6 : f32
      %8 = arith.mulf %0, %7 : f32
      %9 = fusion.reduce sum %8 : f32 -> f32
      fusion.store %9, %out[%p0 * 256 + %p1] : !fusion.buffer<256x4xf32, strides = [1, 256]>
    }
    %buf79 = fusion.node "op79" (%p0, %p1, %p2) in [4, 256] reduce [128] writes(%out : !fusion.buffer<256x4xf32, strides = [1, 256]>) {
      %0 = fusion.load %buf71[%p0 * 32768 + %p1 + %p2 * 256] : !fusion.buffer<512x256xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0 * 256 + %p1] : !fusion.buffer<256x4xf32, strides = [1, 256]>
    }
    fusion.output %buf77, %buf79 : !fusion.buffer<256x4xf32, strides = [1, 256]>, !fusion.buffer<256x4xf32, strides = [1, 256]>
  }
}
