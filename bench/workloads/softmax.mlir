// torch.softmax(x, -1) on 4096x1024 f32, as Inductor's ir_pre_fusion.txt
// of ../../corpus/inductor/softmax schedules it: op0 and op1 each compute the
// online softmax of a row (op0 keeps the max, op1 the sum of exponentials),
// op2 normalizes.
fusion.graph @softmax(%arg0_1: !fusion.buffer<4096x1024xf32>) -> (!fusion.buffer<4096x1024xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096x1xf32, strides = [1, 4096]>) {
    %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %max, %sum = fusion.reduce online_softmax_reduce %0 : f32 -> f32, f32
    fusion.store %max, %out[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096x1xf32, strides = [1, 4096]>) {
    %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %max, %sum = fusion.reduce online_softmax_reduce %0 : f32 -> f32, f32
    fusion.store %sum, %out[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
  }
  %buf2 = fusion.node "op2" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) {
    %0 = fusion.load %arg0_1[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.load %buf0[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    %2 = arith.subf %0, %1 : f32
    %3 = math.exp %2 : f32
    %4 = fusion.load %buf1[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    %5 = arith.divf %3, %4 : f32
    fusion.store %5, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
  }
  fusion.output %buf2 : !fusion.buffer<4096x1024xf32>
}
