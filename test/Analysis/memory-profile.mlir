// RUN: scheduler-opt %s -split-input-file --pass-pipeline='builtin.module(fusion.graph(test-print-memory-profile))' -o /dev/null | FileCheck %s

// A buffer lives from its producer to its last reader; graph outputs live to
// the end; sizes are storage bytes (4x8 f32 = 128, 4 f32 = 16).
// CHECK-LABEL: graph @chain
// CHECK-NEXT:  buf0: steps [0, 2), 128 bytes
// CHECK-NEXT:  buf1: steps [1, 3), 16 bytes
// CHECK-NEXT:  buf2: steps [2, 3), 16 bytes
// CHECK-NEXT:  live bytes: 128 144 32
// CHECK-NEXT:  peak: 144 bytes at step 1
fusion.graph @chain(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, 8] writes(%out : !fusion.buffer<4x8xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf0[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<4xf32>
    %1 = math.log %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %buf2 : !fusion.buffer<4xf32>
}

// -----

// Fused, the exp never reaches memory: buf0 is read only inside the kernel.
// buf1 is read after the kernel, so it is still allocated.
// CHECK-LABEL: graph @fused
// CHECK-NEXT:  buf1: steps [0, 2), 16 bytes
// CHECK-NEXT:  buf2: steps [1, 2), 16 bytes
// CHECK-NEXT:  live bytes: 16 32
// CHECK-NEXT:  peak: 32 bytes at step 1
fusion.graph @fused(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<4x8xf32>, !fusion.buffer<4xf32> {
    %a = fusion.node "op0" (%p0, %p1) in [4, 8] writes(%out : !fusion.buffer<4x8xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = math.exp %0 : f32
      fusion.store %1, %out[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    }
    %b = fusion.node "op1" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %a[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<4x8xf32>, !fusion.buffer<4xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<4xf32>
    %1 = math.log %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %buf2 : !fusion.buffer<4xf32>
}

// -----

// In-place updates share the storage of the buffer they overwrite, which
// stays live until the last reader of any version; graph inputs and views
// allocate nothing.
// CHECK-LABEL: graph @inplace
// CHECK-NEXT:  buf0: steps [0, 4), 16 bytes
// CHECK-NEXT:  buf3: steps [3, 4), 16 bytes
// CHECK-NEXT:  live bytes: 16 16 16 32
// CHECK-NEXT:  peak: 32 bytes at step 3
fusion.graph @inplace(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32> mutates %buf0) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<4xf32>
    %1 = arith.addf %0, %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf2 = fusion.nop "op2"(%buf1) : (!fusion.buffer<4xf32>) -> !fusion.buffer<2x2xf32>
  %buf3 = fusion.node "op3" (%p0, %p1) in [2, 2] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf2[%p0 * 2 + %p1] : !fusion.buffer<2x2xf32>
    fusion.store %0, %out[%p0 * 2 + %p1] : !fusion.buffer<4xf32>
  }
  fusion.output %buf3 : !fusion.buffer<4xf32>
}

// -----

// An in-place update inside a kernel of a buffer another kernel produced:
// the storage of buf0 stays live until the last reader of the new version,
// which reads the kernel's result.
// CHECK-LABEL: graph @inplace_in_kernel
// CHECK-NEXT:  buf0: steps [0, 3), 16 bytes
// CHECK-NEXT:  buf2: steps [1, 3), 16 bytes
// CHECK-NEXT:  buf3: steps [2, 3), 16 bytes
// CHECK-NEXT:  live bytes: 16 32 48
// CHECK-NEXT:  peak: 48 bytes at step 2
fusion.graph @inplace_in_kernel(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1, %buf2 = fusion.fused -> !fusion.buffer<4xf32>, !fusion.buffer<4xf32> {
    %a = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32> mutates %buf0) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %buf0[%p0] : !fusion.buffer<4xf32>
      %1 = arith.addf %0, %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
    }
    %b = fusion.node "op2" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
  }
  %buf3 = fusion.node "op3" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<4xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %buf2, %buf3 : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
}
