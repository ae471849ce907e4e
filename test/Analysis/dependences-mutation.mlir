// RUN: scheduler-opt %s -split-input-file --pass-pipeline="builtin.module(fusion.graph(test-print-dependences))" -o /dev/null | FileCheck %s

// In-place mutation as Inductor orders it (compare adam_step's op80 in the
// corpus): the mutating node gets a StarDep on the version it overwrites and
// WeakDeps on the buffers of the other readers of that version, which become
// its weak users; the final version of a mutated graph input is used by the
// graph's consumer.

// CHECK-LABEL: graph @mutation
// CHECK:      op0: SchedulerNode
// CHECK-NEXT: op0.writes = [MemoryDep('buf0', d0, {d0: 16})]
// CHECK-NEXT: op0.unmet_dependencies = []
// CHECK-NEXT: op0.met_dependencies = [MemoryDep('state', d0, {d0: 16})]
// CHECK-NEXT: buf0.users = [
// CHECK-NEXT:     NodeUser(node=SchedulerNode(name='op1'), can_inplace=False, is_weak=True),
// CHECK-NEXT:     NodeUser(node=OUTPUT, can_inplace=False, is_weak=False),
// CHECK-NEXT: ]
// CHECK-NEXT: op0.ancestors = []
// CHECK-NEXT: op1: SchedulerNode
// CHECK-NEXT: op1.writes = [MemoryDep('buf1', d0, {d0: 16})]
// CHECK-NEXT: op1.unmet_dependencies = [WeakDep(name='buf0', mutating_buf='buf1', is_fake=True)]
// CHECK-NEXT: op1.met_dependencies = [MemoryDep('state', d0, {d0: 16}), StarDep(name='state', mode=None)]
// CHECK-NEXT: buf1.mutations = ['state']
// CHECK-NEXT: buf1.users = [
// CHECK-NEXT:     NodeUser(node=SchedulerNode(name='op2'), can_inplace=True, is_weak=False),
// CHECK-NEXT:     NodeUser(node=OUTPUT, can_inplace=False, is_weak=False),
// CHECK-NEXT: ]
// CHECK-NEXT: op1.ancestors = ['op0']
// CHECK-NEXT: op2: SchedulerNode
// CHECK-NEXT: op2.writes = [MemoryDep('buf2', d0, {d0: 16})]
// CHECK-NEXT: op2.unmet_dependencies = [MemoryDep('buf1', d0, {d0: 16})]
// CHECK-NEXT: op2.met_dependencies = []
// CHECK-NEXT: buf2.users = [NodeUser(node=OUTPUT, can_inplace=False, is_weak=False)]
// CHECK-NEXT: op2.ancestors = ['op0', 'op1']
fusion.graph @mutation(%state: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>, !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  // Reads the old state.
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %state[%p0] : !fusion.buffer<16xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
  }
  // state += 1 in place.
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %state) {
    %0 = fusion.load %state[%p0] : !fusion.buffer<16xf32>
    %one = arith.constant 1.000000e+00 : f32
    %1 = arith.addf %0, %one : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
  }
  // Reads the new state.
  %buf2 = fusion.node "op2" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<16xf32>
    %1 = arith.mulf %0, %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0, %buf2 : !fusion.buffer<16xf32>, !fusion.buffer<16xf32>
}

// -----

// An extern reads and writes whole buffers (StarDeps); a nop's result
// aliases its input, so readers of the view are users of the input.

// CHECK-LABEL: graph @extern_and_view
// CHECK:      op0: ExternKernelSchedulerNode
// CHECK-NEXT: op0.writes = [StarDep(name='buf0', mode=None)]
// CHECK-NEXT: op0.unmet_dependencies = []
// CHECK-NEXT: op0.met_dependencies = [StarDep(name='a', mode=None), StarDep(name='b', mode=None)]
// CHECK-NEXT: buf0.users = [
// CHECK-NEXT:     NodeUser(node=NopKernelSchedulerNode(name='op1'), can_inplace=False, is_weak=False),
// CHECK-NEXT:     NodeUser(node=SchedulerNode(name='op2'), can_inplace=False, is_weak=False),
// CHECK-NEXT: ]
// CHECK:      op1: NopKernelSchedulerNode
// CHECK-NEXT: op1.writes = [StarDep(name='buf1', mode=None)]
// CHECK-NEXT: op1.unmet_dependencies = [StarDep(name='buf0', mode=None)]
// CHECK:      op2.unmet_dependencies = [MemoryDep('buf1', 8*d0 + d1, {d0: 8, d1: 8})]
// CHECK:      op2.ancestors = ['op0', 'op1']
fusion.graph @extern_and_view(%a: !fusion.buffer<8x4xf32>, %b: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<8x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.extern "op0" "extern_kernels.mm"(%a, %b) : (!fusion.buffer<8x4xf32>, !fusion.buffer<4x8xf32>) -> !fusion.buffer<64xf32>
  %buf1 = fusion.nop "op1"(%buf0) : (!fusion.buffer<64xf32>) -> !fusion.buffer<8x8xf32>
  %buf2 = fusion.node "op2" (%p0, %p1) in [8, 8] writes(%out : !fusion.buffer<8x8xf32>) {
    %0 = fusion.load %buf1[%p0 * 8 + %p1] : !fusion.buffer<8x8xf32>
    %1 = math.tanh %0 : f32
    fusion.store %1, %out[%p1 * 8 + %p0] : !fusion.buffer<8x8xf32>
  }
  fusion.output %buf2 : !fusion.buffer<8x8xf32>
}
