// RUN: scheduler-opt %s --fusion-fuse-nodes | FileCheck %s
// RUN: scheduler-opt %s --fusion-fuse-nodes=explain=1 -verify-diagnostics -o /dev/null
// Fusing again starts from a foreach built from its parts, whose
// read_to_node is whole again: op0 then joins op2's part.
// RUN: scheduler-opt %s --fusion-fuse-nodes | scheduler-opt --fusion-fuse-nodes | FileCheck %s --check-prefix=AGAIN

// Inductor builds read_to_node only when it builds a foreach node from its
// parts: once op3 joined op1's part (the pair sharing the most bytes, so
// fused first), the foreach finds no part reading op0's result, and op0
// stays apart although op2 reads it (get_consumer_subnode_for).
// CHECK-LABEL: fusion.graph @read_index_emptied
// CHECK:       fusion.node "op0"
// CHECK:       fusion.foreach
// CHECK-NEXT:    fusion.fused
// CHECK-NEXT:      fusion.node "op1"
// CHECK:           fusion.node "op3"
// CHECK:         fusion.node "op2"
// AGAIN:       fusion.foreach
// AGAIN-NEXT:    fusion.fused
// AGAIN-NEXT:      fusion.node "op1"
// AGAIN:           fusion.node "op3"
// AGAIN:         fusion.fused
// AGAIN-NEXT:      fusion.node "op0"
// AGAIN:           fusion.node "op2"
// expected-remark @below {{fused 4 nodes into 2 in 3 rounds (2 fusions, 4 candidate pairs scored); peak memory 8448 -> 4608 bytes; refusals: foreach-no-consumer-part=1}}
fusion.graph @read_index_emptied(%x0: !fusion.buffer<64xf32>, %x1: !fusion.buffer<1024xf32>) -> (!fusion.buffer<1024xf32>, !fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x0[%p0] : !fusion.buffer<64xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
  }
  %a0, %a1 = fusion.foreach -> !fusion.buffer<1024xf32>, !fusion.buffer<64xf32> {
    // expected-remark @below {{not fusing op0 with op1_op3_op2: candidate producer is not dep of any foreach consumer [foreach-no-consumer-part]}}
    %buf1 = fusion.node "op1" (%p0) in [1024] writes(%out : !fusion.buffer<1024xf32>) {
      %0 = fusion.load %x1[%p0] : !fusion.buffer<1024xf32>
      %1 = math.exp %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<1024xf32>
    }
    %buf2 = fusion.node "op2" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %buf0[%p0] : !fusion.buffer<64xf32>
      %1 = math.log %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
    }
    fusion.yield %buf1, %buf2 : !fusion.buffer<1024xf32>, !fusion.buffer<64xf32>
  }
  %buf3 = fusion.node "op3" (%p0) in [1024] writes(%out : !fusion.buffer<1024xf32>) {
    %0 = fusion.load %a0[%p0] : !fusion.buffer<1024xf32>
    %1 = math.log %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<1024xf32>
  }
  fusion.output %buf3, %a1 : !fusion.buffer<1024xf32>, !fusion.buffer<64xf32>
}
