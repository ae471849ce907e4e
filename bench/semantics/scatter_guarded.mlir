// Scatter-adds under a guard, which --fusion-to-ptx writes as predicated
// reductions (`@%p red.global.add...`, docs/Lowering.md, "Predicated
// stores"): 100 rows of 24 added into a table at 24 * token + r (600
// groups of 4 in blocks of 256 threads: the last block's threads past
// them add nothing), in f32 (one vector atomic a group on sm_90) and in
// f64; each row's sum added by its leader lane into 8 bins; and 1000
// integers into 8 i64 counters. As in scatter.mlir the added values are
// integers (floor(64 g)) added to zeros, exact in any order.
fusion.graph @scatter_guarded(%g: !fusion.buffer<100x24xf32>, %x: !fusion.buffer<100x256xf32>) -> (!fusion.buffer<64x24xf32>, !fusion.buffer<64x24xf64>, !fusion.buffer<8xf32>, !fusion.buffer<8xi64>) attributes {device = "cuda:0"} {
  %ids = fusion.node "op0" (%p0) in [100] writes(%out : !fusion.buffer<100xi64>) {
    %0 = fusion.index_expr [%p0 * 7 mod 64] : i64
    fusion.store %0, %out[%p0] : !fusion.buffer<100xi64>
  }
  %table = fusion.node "op1" (%p0) in [1536] writes(%out : !fusion.buffer<64x24xf32>) {
    %zero = arith.constant 0.0 : f32
    fusion.store %zero, %out[%p0] : !fusion.buffer<64x24xf32>
  }
  %added = fusion.node "op2" (%p0, %p1) in [100, 24] writes(%out : !fusion.buffer<64x24xf32> mutates %table) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<100xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0 * 24 + %p1] : !fusion.buffer<100x24xf32>
    %c64 = arith.constant 6.400000e+01 : f32
    %3 = arith.mulf %2, %c64 : f32
    %4 = math.floor %3 : f32
    fusion.store %4, %out[symbol(%1) * 24 + %p1] atomic_add : !fusion.buffer<64x24xf32>
  }
  %table64 = fusion.node "op3" (%p0) in [1536] writes(%out : !fusion.buffer<64x24xf64>) {
    %zero = arith.constant 0.0 : f64
    fusion.store %zero, %out[%p0] : !fusion.buffer<64x24xf64>
  }
  %added64 = fusion.node "op4" (%p0, %p1) in [100, 24] writes(%out : !fusion.buffer<64x24xf64> mutates %table64) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<100xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0 * 24 + %p1] : !fusion.buffer<100x24xf32>
    %c64 = arith.constant 6.400000e+01 : f32
    %3 = arith.mulf %2, %c64 : f32
    %4 = math.floor %3 : f32
    %5 = arith.extf %4 : f32 to f64
    fusion.store %5, %out[symbol(%1) * 24 + %p1] atomic_add : !fusion.buffer<64x24xf64>
  }
  %bins = fusion.node "op5" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %zero = arith.constant 0.0 : f32
    fusion.store %zero, %out[%p0] : !fusion.buffer<8xf32>
  }
  %binned = fusion.node "op6" (%p0, %p1) in [100] reduce [256] writes(%out : !fusion.buffer<8xf32> mutates %bins) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<100xi64>
    %c8 = arith.constant 8 : i64
    %1 = arith.remui %0, %c8 : i64
    %2 = arith.index_cast %1 : i64 to index
    %3 = fusion.load %x[%p0 * 256 + %p1] : !fusion.buffer<100x256xf32>
    %c64 = arith.constant 6.400000e+01 : f32
    %4 = arith.mulf %3, %c64 : f32
    %5 = math.floor %4 : f32
    %6 = fusion.reduce sum %5 : f32 -> f32
    fusion.store %6, %out[symbol(%2)] atomic_add : !fusion.buffer<8xf32>
  }
  %counters = fusion.node "op7" (%p0) in [8] writes(%out : !fusion.buffer<8xi64>) {
    %zero = arith.constant 0 : i64
    fusion.store %zero, %out[%p0] : !fusion.buffer<8xi64>
  }
  %counted = fusion.node "op8" (%p0) in [1000] writes(%out : !fusion.buffer<8xi64> mutates %counters) {
    %0 = fusion.index_expr [%p0] : i64
    %1 = fusion.index_expr [%p0 mod 8] : i64
    %2 = arith.index_cast %1 : i64 to index
    fusion.store %0, %out[symbol(%2)] atomic_add : !fusion.buffer<8xi64>
  }
  fusion.output %added, %added64, %binned, %counted : !fusion.buffer<64x24xf32>, !fusion.buffer<64x24xf64>, !fusion.buffer<8xf32>, !fusion.buffer<8xi64>
}
