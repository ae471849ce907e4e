// kernel-configs of a combo kernel apply to all of its parts (the
// autotuner times the combo kernel compiled with a setting for the whole
// module, so naming it must give the same kernel).
// RUN: scheduler-opt %s --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s --convert-fusion-to-gpu="kernel-configs=kernel_op0_op1:pointwise-block-size=128" | FileCheck %s --check-prefix=SMALL
// RUN: scheduler-opt %s --convert-fusion-to-gpu="pointwise-block-size=128" | FileCheck %s --check-prefix=SMALL

// Two parts of 4096 elements, four a thread: 1024 threads each, four
// blocks of 256 (eight of 128 with the setting).
// CHECK: combo = {{{.*}}steps = [{args = ["a", "buf0", "buf1"], block = [256, 1, 1], grid = [8, 1, 1], kind = "kernel", name = "kernel_op0_op1"
// SMALL: combo = {{{.*}}steps = [{args = ["a", "buf0", "buf1"], block = [128, 1, 1], grid = [16, 1, 1], kind = "kernel", name = "kernel_op0_op1"
fusion.graph @combo(%a: !fusion.buffer<4096xf32>) -> (!fusion.buffer<4096xf32>, !fusion.buffer<4096xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.foreach -> !fusion.buffer<4096xf32>, !fusion.buffer<4096xf32> {
    %c = fusion.node "op0" (%p0) in [4096] writes(%out : !fusion.buffer<4096xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<4096xf32>
      %1 = math.tanh %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
    }
    %d = fusion.node "op1" (%p0) in [4096] writes(%out : !fusion.buffer<4096xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<4096xf32>
      %1 = arith.negf %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
    }
    fusion.yield %c, %d : !fusion.buffer<4096xf32>, !fusion.buffer<4096xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<4096xf32>, !fusion.buffer<4096xf32>
}
