// --fusion-to-ptx writes PTX 8.1 by default, whose sm_90 vector atomics
// the scatter below uses; chips before sm_90, and PTX 8.0, keep scalar
// atomic adds (the pipeline turns vector-atomics off for them), as does
// vector-atomics=0.
// RUN: scheduler-opt %s -o /dev/null --fusion-to-ptx="output-dir=%t.sm90" && FileCheck %s --check-prefix=VECTOR < %t.sm90/scatter.ptx
// RUN: scheduler-opt %s -o /dev/null --fusion-to-ptx="chip=sm_80 output-dir=%t.sm80" && FileCheck %s --check-prefix=SCALAR < %t.sm80/scatter.ptx
// RUN: scheduler-opt %s -o /dev/null --fusion-to-ptx="features=+ptx80 output-dir=%t.ptx80" && FileCheck %s --check-prefix=SCALAR < %t.ptx80/scatter.ptx
// RUN: scheduler-opt %s -o /dev/null --fusion-to-ptx="vector-atomics=0 output-dir=%t.off" && FileCheck %s --check-prefix=SCALAR < %t.off/scatter.ptx

// One 16-byte load of the gradient's row and one vector reduction into
// the table's row of the token.
// VECTOR: .version 8.1
// VECTOR: .target sm_90
// VECTOR: .visible .entry kernel_op0(
// VECTOR: ld.global.nc.v4.b32
// VECTOR: red.global.add.v4.f32 [%rd{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// VECTOR-NOT: atom.
// VECTOR: ret;
// SCALAR: .visible .entry kernel_op0(
// SCALAR-NOT: red.global.add.v
// SCALAR-COUNT-4: atom.global.add.f32
// SCALAR-NOT: red.global.add.v
// SCALAR: ret;
fusion.graph @scatter(%ids: !fusion.buffer<512xi64>, %g: !fusion.buffer<512x256xf32>, %grad: !fusion.buffer<8192x256xf32>) -> (!fusion.buffer<8192x256xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [512, 256] writes(%out : !fusion.buffer<8192x256xf32> mutates %grad) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<512xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %g[%p0 * 256 + %p1] : !fusion.buffer<512x256xf32>
    fusion.store %2, %out[symbol(%1) * 256 + %p1] atomic_add : !fusion.buffer<8192x256xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8192x256xf32>
}
