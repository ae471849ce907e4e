// CUDA launches at most 2^31 - 1 thread blocks in a grid's x dimension (the
// kernels use x alone; y and z are 1). A kernel that would need more is a
// located error, not a launch whose block count is cut to 32 bits.
// pointwise-block-size is 256 by default: with one element per thread
// (pointwise-vector-width=1; by default each thread takes four, and the
// limit is four times larger), 2^31 - 1 blocks of 256 elements is
// 549755813632 elements.
// RUN: scheduler-opt %s -split-input-file -verify-diagnostics --convert-fusion-to-gpu=pointwise-vector-width=1 | FileCheck %s

// A block of 0 threads would divide by zero: refused like other bad sizes.
// RUN: not scheduler-opt %s -split-input-file --convert-fusion-to-gpu=pointwise-block-size=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: convert-fusion-to-gpu: block sizes must be multiples of 32 up to 1024

// The largest pointwise kernel: 2^31 - 1 blocks.
// CHECK-LABEL: func.func @largest(
// CHECK: %[[BLOCKS:.*]] = arith.constant 2147483647 : index
// A static grid is checked here, not again at run time.
// CHECK-NOT: cf.assert
// CHECK: gpu.launch_func @largest_kernels::@kernel_op0 blocks in (%[[BLOCKS]],
// CHECK-SAME: threads in (%[[THREADS:[^,]*]],
fusion.graph @largest(%x: !fusion.buffer<549755813632xf32>) -> (!fusion.buffer<549755813632xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [549755813632] writes(%out : !fusion.buffer<549755813632xf32>) attributes {buffer_names = ["buf0"]} {
    %0 = fusion.load %x[%p0] : !fusion.buffer<549755813632xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<549755813632xf32>
  }
  fusion.output %buf0 : !fusion.buffer<549755813632xf32>
}

// -----

// 256 more elements: 2^31 blocks.
fusion.graph @too_many_blocks(%x: !fusion.buffer<549755813888xf32>) -> (!fusion.buffer<549755813888xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op needs 2147483648 thread blocks, more than the 2147483647 a CUDA grid holds in x}}
  %buf0 = fusion.node "op0" (%p0) in [549755813888] writes(%out : !fusion.buffer<549755813888xf32>) attributes {buffer_names = ["buf0"]} {
    %0 = fusion.load %x[%p0] : !fusion.buffer<549755813888xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<549755813888xf32>
  }
  fusion.output %buf0 : !fusion.buffer<549755813888xf32>
}

// -----

// A reduction over one row per block: 2^31 rows.
fusion.graph @too_many_rows(%x: !fusion.buffer<2147483648x2048xf16>) -> (!fusion.buffer<2147483648xf16>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op needs 2147483648 thread blocks, more than the 2147483647 a CUDA grid holds in x}}
  %buf0 = fusion.node "op0" (%p0, %p1) in [2147483648] reduce [2048] writes(%out : !fusion.buffer<2147483648xf16>) attributes {buffer_names = ["buf0"]} {
    %0 = fusion.load %x[%p0 * 2048 + %p1] : !fusion.buffer<2147483648x2048xf16>
    %1 = fusion.reduce sum %0 : f16 -> f16
    fusion.store %1, %out[%p0] : !fusion.buffer<2147483648xf16>
  }
  fusion.output %buf0 : !fusion.buffer<2147483648xf16>
}

// -----

// A combo kernel runs its parts' blocks one after another: 2^30 blocks
// each fit, 2^31 together do not (short reductions, 64 rows of 32 a
// block, share a kernel; pointwise parts this large would run alone, as
// Inductor's LARGE_NUMELS keeps them).
fusion.graph @combo_too_many_blocks(%x: !fusion.buffer<68719476736x32xf32>, %y: !fusion.buffer<68719476736x32xf32>) -> (!fusion.buffer<68719476736xf32>, !fusion.buffer<68719476736xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.foreach' op needs 2147483648 thread blocks, more than the 2147483647 a CUDA grid holds in x}}
  %buf0, %buf1 = fusion.foreach -> !fusion.buffer<68719476736xf32>, !fusion.buffer<68719476736xf32> {
    %0 = fusion.node "op0" (%p0, %p1) in [68719476736] reduce [32] writes(%out : !fusion.buffer<68719476736xf32>) attributes {buffer_names = ["buf0"]} {
      %a = fusion.load %x[%p0 * 32 + %p1] : !fusion.buffer<68719476736x32xf32>
      %r = fusion.reduce sum %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<68719476736xf32>
    }
    %1 = fusion.node "op1" (%p0, %p1) in [68719476736] reduce [32] writes(%out : !fusion.buffer<68719476736xf32>) attributes {buffer_names = ["buf1"]} {
      %a = fusion.load %y[%p0 * 32 + %p1] : !fusion.buffer<68719476736x32xf32>
      %r = fusion.reduce sum %a : f32 -> f32
      fusion.store %r, %out[%p0] : !fusion.buffer<68719476736xf32>
    }
    fusion.yield %0, %1 : !fusion.buffer<68719476736xf32>, !fusion.buffer<68719476736xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<68719476736xf32>, !fusion.buffer<68719476736xf32>
}

