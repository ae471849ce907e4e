// F.cross_entropy(x, t) on 4096x32000 f32 logits and 4096 i64 targets, as
// Inductor's ir_pre_fusion.txt of ../../corpus/inductor/cross_entropy
// schedules it: op0/op1 the online softmax of each row (max, sum of
// exponentials), op2 the sum of -log_softmax at the target (an indirect
// load; ignore_index -100 counts zero), op3 the number of counted targets,
// op4 the mean.
fusion.graph @cross_entropy(%arg0_1: !fusion.buffer<4096x32000xf32>, %arg1_1: !fusion.buffer<4096xi64>) -> (!fusion.buffer<f32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [32000] writes(%out : !fusion.buffer<4096x1xf32, strides = [1, 4096]>) {
    %0 = fusion.load %arg0_1[%p0 * 32000 + %p1] : !fusion.buffer<4096x32000xf32>
    %max, %sum = fusion.reduce online_softmax_reduce %0 : f32 -> f32, f32
    fusion.store %max, %out[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4096] reduce [32000] writes(%out : !fusion.buffer<4096x1xf32, strides = [1, 4096]>) {
    %0 = fusion.load %arg0_1[%p0 * 32000 + %p1] : !fusion.buffer<4096x32000xf32>
    %max, %sum = fusion.reduce online_softmax_reduce %0 : f32 -> f32, f32
    fusion.store %sum, %out[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
  }
  %buf2 = fusion.node "op2" (%p0) in [] reduce [4096] writes(%out : !fusion.buffer<f32>) {
    %0 = fusion.load %arg1_1[%p0] : !fusion.buffer<4096xi64>
    %ignore = arith.constant -100 : i64
    %1 = arith.cmpi ne, %0, %ignore : i64
    %2 = fusion.load %arg1_1[%p0] : !fusion.buffer<4096xi64>
    %3 = arith.cmpi ne, %2, %ignore : i64
    %4 = fusion.load %arg1_1[%p0] : !fusion.buffer<4096xi64>
    %c0 = arith.constant 0 : i64
    %5 = arith.select %3, %4, %c0 : i64
    %6 = arith.index_cast %5 : i64 to index
    %7 = fusion.load %arg0_1[%p0 * 32000 + symbol(%6)] : !fusion.buffer<4096x32000xf32>
    %8 = fusion.load %buf0[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    %9 = arith.subf %7, %8 : f32
    %10 = fusion.load %buf1[%p0] : !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    %11 = math.log %10 : f32
    %12 = arith.subf %9, %11 : f32
    %13 = arith.negf %12 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %14 = arith.select %1, %13, %zero : f32
    %15 = fusion.reduce sum %14 : f32 -> f32
    fusion.store %15, %out[0] : !fusion.buffer<f32>
  }
  %buf3 = fusion.node "op3" (%p0) in [] reduce [4096] writes(%out : !fusion.buffer<i64>) {
    %0 = fusion.load %arg1_1[%p0] : !fusion.buffer<4096xi64>
    %ignore = arith.constant -100 : i64
    %1 = arith.cmpi ne, %0, %ignore : i64
    %2 = fusion.cast %1 : i1 to i64
    %3 = fusion.reduce sum %2 : i64 -> i64
    fusion.store %3, %out[0] : !fusion.buffer<i64>
  }
  %buf4 = fusion.node "op4" () in [] writes(%out : !fusion.buffer<f32>) {
    %0 = fusion.load %buf2[0] : !fusion.buffer<f32>
    %1 = fusion.load %buf3[0] : !fusion.buffer<i64>
    %2 = fusion.cast %1 : i64 to f32
    %3 = arith.divf %0, %2 : f32
    fusion.store %3, %out[0] : !fusion.buffer<f32>
  }
  fusion.output %buf4 : !fusion.buffer<f32>
}
