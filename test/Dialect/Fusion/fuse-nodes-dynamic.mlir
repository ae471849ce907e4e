// RUN: not scheduler-opt %s -split-input-file --pass-pipeline='builtin.module(fusion.graph(fusion-fuse-nodes))' 2>/dev/null | FileCheck %s
// RUN: scheduler-opt %s -split-input-file --pass-pipeline='builtin.module(fusion.graph(fusion-fuse-nodes{explain=true}))' -verify-diagnostics -o /dev/null

// Fusion under size symbols decides as Inductor's sizevars do: sizes are
// equal when they are equal as expressions, not when their hints are. op1
// iterates over [1024] and op2 over [s0]; s0's hint is 1024, but only op2
// has op0's iteration space, so only op2 fuses with op0.
// CHECK-LABEL: fusion.graph @symbolic_equality
// CHECK: fusion.fused
// CHECK-NEXT: fusion.node "op0"
// CHECK: fusion.node "op2"
// CHECK: fusion.yield
// CHECK: fusion.node "op1"
// expected-remark @below {{fused 3 nodes into 2}}
fusion.graph @symbolic_equality symbols(s0 = 1024) (%x: !fusion.buffer<s0 x f32>) -> (!fusion.buffer<1024xf32>, !fusion.buffer<s0 x f32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [s0] writes(%out : !fusion.buffer<s0 x f32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<s0 x f32>
    %1 = arith.addf %0, %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<s0 x f32>
  }
  // expected-remark @below {{not fusing op0_op2 with op1: no shared data}}
  %buf1 = fusion.node "op1" (%p0) in [1024] writes(%out : !fusion.buffer<1024xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<s0 x f32>
    fusion.store %0, %out[%p0] : !fusion.buffer<1024xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [s0] writes(%out : !fusion.buffer<s0 x f32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<s0 x f32>
    fusion.store %0, %out[%p0] : !fusion.buffer<s0 x f32>
  }
  fusion.output %buf1, %buf2 : !fusion.buffer<1024xf32>, !fusion.buffer<s0 x f32>
}

// -----

// Without a hint, a decision that needs one fails, naming the symbol:
// scoring the shared reads of x needs the number of elements.
// expected-error @below {{'fusion.graph' op fusion needs a hint for size symbol s0 (s77); declare it as symbols(s0 = <hint>)}}
fusion.graph @needs_hint symbols(s0) (%x: !fusion.buffer<s0 x f32>) -> (!fusion.buffer<s0 x f32>, !fusion.buffer<s0 x f32>) attributes {device = "cuda:0", symbol_names = ["s77"]} {
  %buf0 = fusion.node "op0" (%p0) in [s0] writes(%out : !fusion.buffer<s0 x f32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<s0 x f32>
    fusion.store %0, %out[%p0] : !fusion.buffer<s0 x f32>
  }
  %buf1 = fusion.node "op1" (%p0) in [s0] writes(%out : !fusion.buffer<s0 x f32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<s0 x f32>
    fusion.store %0, %out[%p0] : !fusion.buffer<s0 x f32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<s0 x f32>, !fusion.buffer<s0 x f32>
}
