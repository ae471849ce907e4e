// ops.fmod (C's fmod: the remainder takes the dividend's sign) and Python's
// remainder of floats, as the Inductor importer builds them, on the CPU JIT.
// On the GPU, arith.remf (which has no NVPTX lowering) is libdevice's fmod,
// as in Triton; bench/check_inductor_ops.py compares it with torch.fmod.

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main \
// RUN:   --fusion-loops-to-llvm | %jit_run | FileCheck %s
// RUN: scheduler-opt %s --convert-fusion-to-gpu | FileCheck %s --check-prefix=GPU
// GPU: func.func private @__nv_fmodf(f32, f32) -> f32
// GPU: call @__nv_fmodf
// RUN: rm -rf %t && scheduler-opt %s --fusion-to-ptx="output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/fmod.ptx
// PTX: .entry kernel_op0

fusion.graph @fmod() -> (!fusion.buffer<8xf32>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // x = [-3.5 .. 3.5]: fmod(x, 2) = [-1.5, -0.5, -1.5, -0.5, 0.5, 1.5, 0.5, 1.5];
  // remainder(x, 2) = [0.5, 1.5, 0.5, 1.5, 0.5, 1.5, 0.5, 1.5].
  // CHECK: [-1.5,{{ +}}-0.5,{{ +}}-1.5,{{ +}}-0.5,{{ +}}0.5,{{ +}}1.5,{{ +}}0.5,{{ +}}1.5]
  // CHECK: [0.5,{{ +}}1.5,{{ +}}0.5,{{ +}}1.5,{{ +}}0.5,{{ +}}1.5,{{ +}}0.5,{{ +}}1.5]
  %fmod, %rem = fusion.node "op0" (%p0) in [8] writes(%o0 : !fusion.buffer<8xf32>, %o1 : !fusion.buffer<8xf32>) {
    %i = fusion.index_expr [%p0] : i64
    %f = fusion.cast %i : i64 to f32
    %half = arith.constant 3.5 : f32
    %v = arith.subf %f, %half : f32
    %two = arith.constant 2.0 : f32
    %r = arith.remf %v, %two : f32
    %z = arith.constant 0.0 : f32
    %nz = arith.cmpf une, %r, %z : f32
    %rn = arith.cmpf olt, %r, %z : f32
    %dn = arith.cmpf olt, %two, %z : f32
    %xr = arith.xori %rn, %dn : i1
    %fix = arith.andi %nz, %xr : i1
    %adj = arith.addf %r, %two : f32
    %py = arith.select %fix, %adj, %r : f32
    fusion.store %r, %o0[%p0] : !fusion.buffer<8xf32>
    fusion.store %py, %o1[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %fmod, %rem : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>
}
