// Per-kernel settings (kernel-configs): the settings named for a kernel
// replace the module's options for that kernel alone, as the backend's
// compile-time autotuner (python/scheduler_opt/autotune.py) writes them.
// RUN: scheduler-opt %s --convert-fusion-to-gpu | FileCheck %s
// RUN: scheduler-opt %s --convert-fusion-to-gpu="kernel-configs=kernel_op1:reduction-lanes=32" | FileCheck %s --check-prefix=ONE
// RUN: scheduler-opt %s --convert-fusion-to-gpu="reduction-lanes=32 kernel-configs=kernel_op0:reduction-lanes=256,loop-unroll=4;kernel_op1:reduction-lanes=64" | FileCheck %s --check-prefix=BOTH

// Two row sums of 1024 elements, one kernel each: by the register budget
// 64 threads a row (16 elements each), two rows a block.
// CHECK: two_sums = {{{.*}}steps = [{args = ["x", "buf0"], block = [128, 1, 1], grid = [2048, 1, 1], kind = "kernel", name = "kernel_op0"{{.*}}}, {args = ["y", "buf1"], block = [128, 1, 1], grid = [2048, 1, 1], kind = "kernel", name = "kernel_op1"
// kernel_op1 alone takes one warp a row (8 rows of 32 in a block of 256),
// kernel_op0 keeps the rule's shape.
// ONE: two_sums = {{{.*}}steps = [{args = ["x", "buf0"], block = [128, 1, 1], grid = [2048, 1, 1], kind = "kernel", name = "kernel_op0"{{.*}}}, {args = ["y", "buf1"], block = [256, 1, 1], grid = [512, 1, 1], kind = "kernel", name = "kernel_op1"
// The module fixes one warp a row for every kernel; both kernels name
// their own lanes: 256 (4 elements each, one row a block) and 64 (16
// elements, two rows a block of 128).
// BOTH: two_sums = {{{.*}}steps = [{args = ["x", "buf0"], block = [256, 1, 1], grid = [4096, 1, 1], kind = "kernel", name = "kernel_op0"{{.*}}}, {args = ["y", "buf1"], block = [128, 1, 1], grid = [2048, 1, 1], kind = "kernel", name = "kernel_op1"
fusion.graph @two_sums(%x: !fusion.buffer<4096x1024xf32>, %y: !fusion.buffer<4096x1024xf32>) -> (!fusion.buffer<4096xf32>, !fusion.buffer<4096xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096xf32>) {
    %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096xf32>) {
    %0 = fusion.load %y[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<4096xf32>, !fusion.buffer<4096xf32>
}


// Settings that do not parse, name no per-kernel setting or no kernel of
// the module, or are not valid: located errors, no output.
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="kernel-configs=kernel_op0" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="kernel-configs=kernel_op0:reduction-lanes=x" 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="kernel-configs=kernel_op0:approx-exp=0" 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="kernel-configs=kernel_op0:early-loads=2" 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="kernel-configs=kernel_op0:reduction-lanes=48" 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: not scheduler-opt %s --convert-fusion-to-gpu="kernel-configs=kernel_op7:reduction-lanes=64" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// SYNTAX: error: convert-fusion-to-gpu: kernel-configs: 'kernel_op0' is not 'kernel_name:key=value,...'
// VALUE: error: convert-fusion-to-gpu: kernel-configs: setting 'reduction-lanes=x' of kernel 'kernel_op0' is not 'key=integer'
// KEY: error: convert-fusion-to-gpu: kernel-configs: '{{.*}}' of kernel 'kernel_op0' is no per-kernel setting
// INVALID: error: convert-fusion-to-gpu: kernel-configs of 'kernel_op0': block sizes must be multiples of 32
// UNKNOWN: error: convert-fusion-to-gpu: kernel-configs names 'kernel_op7', which is no kernel of this module
