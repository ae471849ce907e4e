// RUN: scheduler-opt %s -split-input-file --fusion-fuse-nodes | FileCheck %s
// Every refusal names ForeachKernelSchedulerNode's rule (Inductor's WhyNoFuse).
// RUN: scheduler-opt %s -split-input-file --fusion-fuse-nodes=explain=1 -verify-diagnostics -o /dev/null
// Deterministic, and fusing again changes nothing.
// RUN: scheduler-opt %s -split-input-file --fusion-fuse-nodes > %t.1.mlir
// RUN: scheduler-opt %s -split-input-file --fusion-fuse-nodes | diff %t.1.mlir -
// RUN: scheduler-opt %t.1.mlir -split-input-file --fusion-fuse-nodes | diff %t.1.mlir -
// Combo kernels (config.combo_kernels) are off by default, as in Inductor.
// RUN: scheduler-opt %s -split-input-file --fusion-fuse-nodes=combo-kernels=1 | FileCheck %s --check-prefix=COMBO
// combo-max-part-bytes keeps kernels whose buffers take more bytes apart:
// op0's 256 bytes may join at 256, not at 255.
// RUN: scheduler-opt %s -split-input-file --fusion-fuse-nodes="combo-kernels=1 combo-max-part-bytes=256" | FileCheck %s --check-prefix=COMBO
// RUN: scheduler-opt %s -split-input-file --fusion-fuse-nodes="combo-kernels=1 combo-max-part-bytes=255" | FileCheck %s --check-prefix=COMBOMAX

// Two foreach kernels of as many parts fuse part by part: part i of the
// first with part i of the second (Inductor zips their snodes).
// CHECK-LABEL: fusion.graph @foreach_foreach
// CHECK:       %[[B0:.*]], %[[B2:.*]], %[[B1:.*]], %[[B3:.*]] = fusion.foreach
// CHECK-NEXT:    fusion.fused
// CHECK-NEXT:      fusion.node "op0"
// CHECK:           fusion.node "op2"
// CHECK:         fusion.fused
// CHECK-NEXT:      fusion.node "op1"
// CHECK:           fusion.node "op3"
// CHECK:       fusion.output %[[B2]], %[[B3]]
// expected-remark @below {{fused 4 nodes into 1 in 1 rounds (3 fusions, 1 candidate pairs scored); peak memory 768 -> 384 bytes; refusals: none}}
fusion.graph @foreach_foreach(%x0: !fusion.buffer<64xf32>, %x1: !fusion.buffer<32xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %a0, %a1 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<32xf32> {
    %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %x0[%p0] : !fusion.buffer<64xf32>
      %1 = math.exp %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf1 = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %x1[%p0] : !fusion.buffer<32xf32>
      %1 = math.exp %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf0, %buf1 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
  }
  %b0, %b1 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<32xf32> {
    %buf2 = fusion.node "op2" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %a0[%p0] : !fusion.buffer<64xf32>
      %1 = math.log %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf3 = fusion.node "op3" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %a1[%p0] : !fusion.buffer<32xf32>
      %1 = math.log %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf2, %buf3 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
  }
  fusion.output %b0, %b1 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
}

// -----

// A node reading one part's result joins that part, after it
// (get_producer_subnode_for); the other part stays as it was.
// CHECK-LABEL: fusion.graph @foreach_then_node
// CHECK:       fusion.foreach
// CHECK-NEXT:    fusion.node "op0"
// CHECK:         fusion.fused
// CHECK-NEXT:      fusion.node "op1"
// CHECK:           fusion.node "op2"
// CHECK-NOT:   fusion.node
// CHECK:       fusion.output
// expected-remark @below {{fused 3 nodes into 1 in 1 rounds (2 fusions, 1 candidate pairs scored); peak memory 512 -> 384 bytes; refusals: none}}
fusion.graph @foreach_then_node(%x0: !fusion.buffer<64xf32>, %x1: !fusion.buffer<32xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %a0, %a1 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<32xf32> {
    %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %x0[%p0] : !fusion.buffer<64xf32>
      %1 = math.exp %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf1 = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %x1[%p0] : !fusion.buffer<32xf32>
      %1 = math.exp %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf0, %buf1 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
    %0 = fusion.load %a1[%p0] : !fusion.buffer<32xf32>
    %1 = math.log %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
  }
  fusion.output %a0, %buf2 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
}

// -----

// A node whose result one part reads joins that part, before it
// (get_consumer_subnode_for).
// CHECK-LABEL: fusion.graph @node_then_foreach
// CHECK:       fusion.foreach
// CHECK-NEXT:    fusion.node "op1"
// CHECK:         fusion.fused
// CHECK-NEXT:      fusion.node "op0"
// CHECK:           fusion.node "op2"
// CHECK-NOT:   fusion.node
// CHECK:       fusion.output
// expected-remark @below {{fused 3 nodes into 1 in 1 rounds (2 fusions, 1 candidate pairs scored); peak memory 512 -> 384 bytes; refusals: none}}
fusion.graph @node_then_foreach(%x0: !fusion.buffer<64xf32>, %x1: !fusion.buffer<32xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
    %0 = fusion.load %x1[%p0] : !fusion.buffer<32xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
  }
  %a1, %a2 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<32xf32> {
    %buf1 = fusion.node "op1" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %x0[%p0] : !fusion.buffer<64xf32>
      %1 = math.exp %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf2 = fusion.node "op2" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %buf0[%p0] : !fusion.buffer<32xf32>
      %1 = math.log %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf1, %buf2 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
  }
  fusion.output %a1, %a2 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
}

// -----

// Foreach kernels of 2 and 3 parts do not fuse.
// CHECK-LABEL: fusion.graph @negative_length
// CHECK-NOT: fusion.fused
// expected-remark @below {{fused 5 nodes into 2 in 2 rounds (3 fusions, 2 candidate pairs scored); peak memory 896 -> 896 bytes; refusals: foreach-length=1}}
fusion.graph @negative_length(%x0: !fusion.buffer<64xf32>, %x1: !fusion.buffer<32xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %a0, %a1 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<32xf32> {
    %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %x0[%p0] : !fusion.buffer<64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf1 = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %x1[%p0] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf0, %buf1 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
  }
  %b0, %b1, %b2 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32> {
    // expected-remark @below {{not fusing op0_op1 with op2_op3_op4: foreach do not have same length [foreach-length]}}
    %buf2 = fusion.node "op2" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %a0[%p0] : !fusion.buffer<64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf3 = fusion.node "op3" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %a1[%p0] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
    }
    %buf4 = fusion.node "op4" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %x1[%p0] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf2, %buf3, %buf4 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>
  }
  fusion.output %b0, %b1, %b2 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>
}

// -----

// A reduction does not join a foreach kernel as its producer.
// CHECK-LABEL: fusion.graph @negative_producer_reduction
// CHECK-NOT: fusion.fused
// expected-remark @below {{fused 3 nodes into 2 in 2 rounds (1 fusions, 2 candidate pairs scored); peak memory 160 -> 160 bytes; refusals: foreach-producer-reduction=1}}
fusion.graph @negative_producer_reduction(%x: !fusion.buffer<4x16xf32>, %y: !fusion.buffer<32xf32>) -> (!fusion.buffer<4xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [16] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<4x16xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  %a1, %a2 = fusion.foreach -> !fusion.buffer<4xf32>, !fusion.buffer<32xf32> {
    // expected-remark @below {{not fusing op0 with op1_op2: candidate producer is a reduction, foreach ops cannot be fused with reductions currently [foreach-producer-reduction]}}
    %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
      %0 = fusion.load %buf0[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    %buf2 = fusion.node "op2" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %y[%p0] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf1, %buf2 : !fusion.buffer<4xf32>, !fusion.buffer<32xf32>
  }
  fusion.output %a1, %a2 : !fusion.buffer<4xf32>, !fusion.buffer<32xf32>
}

// -----

// Nor as its consumer.
// CHECK-LABEL: fusion.graph @negative_consumer_reduction
// CHECK-NOT: fusion.fused
// expected-remark @below {{fused 3 nodes into 2 in 2 rounds (1 fusions, 2 candidate pairs scored); peak memory 416 -> 416 bytes; refusals: foreach-consumer-reduction=1}}
fusion.graph @negative_consumer_reduction(%x: !fusion.buffer<64xf32>, %y: !fusion.buffer<32xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %a0, %a1 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<32xf32> {
    %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %x[%p0] : !fusion.buffer<64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf1 = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %y[%p0] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf0, %buf1 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
  }
  // expected-remark @below {{not fusing op0_op1 with op2: candidate consumer is a reduction, foreach ops cannot be fused with reductions currently [foreach-consumer-reduction]}}
  %buf2 = fusion.node "op2" (%p0, %p1) in [8] reduce [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %a0[%p0 * 8 + %p1] : !fusion.buffer<64xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf2, %a1 : !fusion.buffer<8xf32>, !fusion.buffer<32xf32>
}

// -----

// A consumer of two parts joins neither.
// CHECK-LABEL: fusion.graph @negative_two_producer_parts
// CHECK-NOT: fusion.fused
// expected-remark @below {{fused 3 nodes into 2 in 2 rounds (1 fusions, 2 candidate pairs scored); peak memory 768 -> 768 bytes; refusals: foreach-no-producer-part=1}}
fusion.graph @negative_two_producer_parts(%x0: !fusion.buffer<64xf32>, %x1: !fusion.buffer<64xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %a0, %a1 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<64xf32> {
    %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %x0[%p0] : !fusion.buffer<64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf1 = fusion.node "op1" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %x1[%p0] : !fusion.buffer<64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    fusion.yield %buf0, %buf1 : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>
  }
  // expected-remark @below {{not fusing op0_op1 with op2: candidate consumer has no dep in any foreach producer [foreach-no-producer-part]}}
  %buf2 = fusion.node "op2" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %a0[%p0] : !fusion.buffer<64xf32>
    %1 = fusion.load %a1[%p0] : !fusion.buffer<64xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %buf2 : !fusion.buffer<64xf32>
}

// -----

// A node sharing only an input with a foreach kernel: no part reads its
// result, and it reads none of theirs.
// CHECK-LABEL: fusion.graph @negative_no_consumer_part
// CHECK-NOT: fusion.fused
// expected-remark @below {{fused 3 nodes into 2 in 2 rounds (1 fusions, 2 candidate pairs scored); peak memory 640 -> 640 bytes; refusals: foreach-no-consumer-part=1}}
fusion.graph @negative_no_consumer_part(%x0: !fusion.buffer<64xf32>, %x1: !fusion.buffer<32xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x0[%p0] : !fusion.buffer<64xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
  }
  %a1, %a2 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<32xf32> {
    // expected-remark @below {{not fusing op0 with op1_op2: candidate producer is not dep of any foreach consumer [foreach-no-consumer-part]}}
    %buf1 = fusion.node "op1" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %x0[%p0] : !fusion.buffer<64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf2 = fusion.node "op2" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %x1[%p0] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf1, %buf2 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
  }
  fusion.output %buf0, %a1, %a2 : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
}

// -----

// Ours: both parts read op0's result. Inductor would put op0 into the last
// reader's part (read_to_node) and op1, in the other part, would read it
// while it is being written: parts of a combo kernel run at the same time.
// CHECK-LABEL: fusion.graph @negative_parts_depend
// CHECK-NOT: fusion.fused
// expected-remark @below {{fused 3 nodes into 2 in 2 rounds (1 fusions, 2 candidate pairs scored); peak memory 768 -> 768 bytes; refusals: foreach-parts-depend=1}}
fusion.graph @negative_parts_depend(%x: !fusion.buffer<64xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
  }
  %a1, %a2 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<64xf32> {
    // expected-remark @below {{not fusing op0 with op1_op2: one part of the foreach kernel would read what another part writes [foreach-parts-depend]}}
    %buf1 = fusion.node "op1" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %buf0[%p0] : !fusion.buffer<64xf32>
      %1 = math.log %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf2 = fusion.node "op2" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %buf0[%p0] : !fusion.buffer<64xf32>
      %1 = math.sin %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
    }
    fusion.yield %buf1, %buf2 : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>
  }
  fusion.output %a1, %a2 : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>
}

// -----

// Each pair of parts must pass Scheduler.can_fuse: op3 reads op1's result
// at other indices than op1 writes.
// CHECK-LABEL: fusion.graph @negative_part_pair
// CHECK-NOT: fusion.fused
// expected-remark @below {{fused 4 nodes into 2 in 2 rounds (2 fusions, 2 candidate pairs scored); peak memory 896 -> 896 bytes; refusals: memory-deps-mismatch=1}}
fusion.graph @negative_part_pair(%x0: !fusion.buffer<64xf32>, %x1: !fusion.buffer<32xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %a0, %a1 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<32xf32> {
    %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %x0[%p0] : !fusion.buffer<64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf1 = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
      %0 = fusion.load %x1[%p0] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %buf0, %buf1 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
  }
  %b0, %b1 = fusion.foreach -> !fusion.buffer<64xf32>, !fusion.buffer<64xf32> {
    // expected-remark @below {{not fusing op0_op1 with op2_op3: memory deps did not match [memory-deps-mismatch]}}
    %buf2 = fusion.node "op2" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %a0[%p0] : !fusion.buffer<64xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    %buf3 = fusion.node "op3" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %a1[%p0 floordiv 2] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<64xf32>
    }
    fusion.yield %buf2, %buf3 : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>
  }
  fusion.output %b0, %b1 : !fusion.buffer<64xf32>, !fusion.buffer<64xf32>
}

// -----

// Independent kernels of one dependence level become one foreach kernel
// with combo-kernels; op2 depends on op0 and stays apart.
// CHECK-LABEL: fusion.graph @combo
// CHECK-NOT:   fusion.foreach
// COMBO-LABEL: fusion.graph @combo
// COMBO:       fusion.foreach
// COMBO-NEXT:    fusion.node "op0"
// COMBO:         fusion.node "op1"
// COMBO:       fusion.yield
// COMBO-NEXT:  }
// COMBO-NEXT:  fusion.node "op2"
// COMBOMAX-LABEL: fusion.graph @combo
// COMBOMAX-NOT:   fusion.foreach
// COMBOMAX:       fusion.output
// expected-remark @below {{fused 3 nodes into 3 in 2 rounds (0 fusions, 2 candidate pairs scored); peak memory 512 -> 512 bytes; refusals: no-shared-data=1}}
fusion.graph @combo(%x: !fusion.buffer<64xf32>, %y: !fusion.buffer<32xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
    %0 = fusion.load %y[%p0] : !fusion.buffer<32xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
  }
  // expected-remark @below {{not fusing op0 with op2: no shared data [no-shared-data]}}
  %buf2 = fusion.node "op2" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
    %0 = fusion.load %buf0[%p0 * 2] : !fusion.buffer<64xf32>
    %1 = math.log %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
  }
  fusion.output %buf0, %buf1, %buf2 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>
}

