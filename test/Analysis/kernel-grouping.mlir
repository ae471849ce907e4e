// RUN: scheduler-opt %s -split-input-file --pass-pipeline='builtin.module(fusion.graph(test-print-kernel-grouping))' -o /dev/null | FileCheck %s

// Storage sizes: x 4x8xf32 = 128 bytes, w 8xf32 = 32, acc 4xf32 = 16,
// buf0 4x8xf32 = 128, buf1 / buf2 / buf5 / buf6 4xf32 = 16, the view buf3
// 2x2xf32 = 16.
//
// op0_op1 reads x (twice, counted once) and w from outside: 128 + 32 = 160.
// buf0 is read only inside the kernel: not written. buf1 is read by the view
// op3: written, 16. Total 176.
// op2 reads the view buf3 (16) and writes the graph output buf2 (16): 32.
// op5 reads acc and buf2 (16 + 16) and overwrites the graph input acc in
// place: buf5 is written although nothing reads it and it is not returned
// (16). Total 48.
// Kernels: 176 + 32 + 48 = 256.
// The extern op6 reads x and buf2 (128 + 16) and writes the output buf6
// (16): 160. The view op3 is not a unit and moves nothing.
// CHECK-LABEL: graph @traffic: 5 nodes, 3 kernels, 1 externs, 1 nops
// CHECK-NEXT:  kernel op0_op1 (FusedSchedulerNode): op0 op1
// CHECK-NEXT:    reads: x(128) w(32)
// CHECK-NEXT:    writes: buf1(16)
// CHECK-NEXT:    bytes: 160 + 16 = 176
// CHECK-NEXT:  kernel op2 (SchedulerNode): op2
// CHECK-NEXT:    reads: buf3(16)
// CHECK-NEXT:    writes: buf2(16)
// CHECK-NEXT:    bytes: 16 + 16 = 32
// CHECK-NEXT:  kernel op5 (SchedulerNode): op5
// CHECK-NEXT:    reads: acc(16) buf2(16)
// CHECK-NEXT:    writes: buf5(16)
// CHECK-NEXT:    bytes: 32 + 16 = 48
// CHECK-NEXT:  extern op6 (ExternKernelSchedulerNode): op6
// CHECK-NEXT:    reads: x(128) buf2(16)
// CHECK-NEXT:    writes: buf6(16)
// CHECK-NEXT:    bytes: 144 + 16 = 160
// CHECK-NEXT:  kernel bytes: 256, extern bytes: 160
fusion.graph @traffic(%x: !fusion.buffer<4x8xf32>, %w: !fusion.buffer<8xf32>, %acc: !fusion.buffer<4xf32>)
    -> (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<4x8xf32>, !fusion.buffer<4xf32> {
    %a = fusion.node "op0" (%p0, %p1) in [4, 8] writes(%out : !fusion.buffer<4x8xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = fusion.load %x[%p1 * 4 + %p0] : !fusion.buffer<4x8xf32>
      %2 = fusion.load %w[%p1] : !fusion.buffer<8xf32>
      %3 = arith.addf %0, %1 : f32
      %4 = arith.mulf %3, %2 : f32
      fusion.store %4, %out[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    }
    %b = fusion.node "op1" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %a[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %2 = arith.mulf %0, %1 : f32
      %3 = fusion.reduce sum %2 : f32 -> f32
      fusion.store %3, %out[%p0] : !fusion.buffer<4xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<4x8xf32>, !fusion.buffer<4xf32>
  }
  %buf3 = fusion.nop "op3"(%buf1) : (!fusion.buffer<4xf32>) -> !fusion.buffer<2x2xf32>
  %buf2 = fusion.node "op2" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf3[%p0] : !fusion.buffer<2x2xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf5 = fusion.node "op5" (%p0) in [4] writes(%out : !fusion.buffer<4xf32> mutates %acc) {
    %0 = fusion.load %acc[%p0] : !fusion.buffer<4xf32>
    %1 = fusion.load %buf2[%p0] : !fusion.buffer<4xf32>
    %2 = arith.addf %0, %1 : f32
    fusion.store %2, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf6 = fusion.extern "op6" "extern_kernels.mv"(%x, %buf2) : (!fusion.buffer<4x8xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
  fusion.output %buf2, %buf6 : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
}

// -----

// The first kernel of @traffic, unfused: buf0 now crosses memory twice.
// op0 reads x and w (128 + 32) and writes buf0 (128): 288.
// op1 reads buf0 and x (128 + 128) and writes the output buf1 (16): 272.
// CHECK-LABEL: graph @unfused: 2 nodes, 2 kernels, 0 externs, 0 nops
// CHECK-NEXT:  kernel op0 (SchedulerNode): op0
// CHECK-NEXT:    reads: x(128) w(32)
// CHECK-NEXT:    writes: buf0(128)
// CHECK-NEXT:    bytes: 160 + 128 = 288
// CHECK-NEXT:  kernel op1 (SchedulerNode): op1
// CHECK-NEXT:    reads: buf0(128) x(128)
// CHECK-NEXT:    writes: buf1(16)
// CHECK-NEXT:    bytes: 256 + 16 = 272
// CHECK-NEXT:  kernel bytes: 560, extern bytes: 0
fusion.graph @unfused(%x: !fusion.buffer<4x8xf32>, %w: !fusion.buffer<8xf32>)
    -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, 8] writes(%out : !fusion.buffer<4x8xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.load %x[%p1 * 4 + %p0] : !fusion.buffer<4x8xf32>
    %2 = fusion.load %w[%p1] : !fusion.buffer<8xf32>
    %3 = arith.addf %0, %1 : f32
    %4 = arith.mulf %3, %2 : f32
    fusion.store %4, %out[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf0[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %2 = arith.mulf %0, %1 : f32
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %buf1 : !fusion.buffer<4xf32>
}

// -----

// A foreach is one kernel; its parts are its direct members (which do not
// read each other's results). A buffer made and read inside a fused part
// stays inside the kernel.
// x, y: 32xf16 = 64 bytes each; buf0, buf1, buf2: 32xf16 = 64.
// Reads x, y (128); writes buf1 and buf2, graph outputs (128); buf0 is read
// only by op1, inside: 256.
// CHECK-LABEL: graph @foreach: 1 nodes, 1 kernels, 0 externs, 0 nops
// CHECK-NEXT:  kernel op0_op1_op2 (ForeachKernelSchedulerNode): op0 op1 op2
// CHECK-NEXT:    parts: [op0 op1] [op2]
// CHECK-NEXT:    reads: x(64) y(64)
// CHECK-NEXT:    writes: buf1(64) buf2(64)
// CHECK-NEXT:    bytes: 128 + 128 = 256
// CHECK-NEXT:  kernel bytes: 256, extern bytes: 0
fusion.graph @foreach(%x: !fusion.buffer<32xf16>, %y: !fusion.buffer<32xf16>)
    -> (!fusion.buffer<32xf16>, !fusion.buffer<32xf16>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2 = fusion.foreach -> !fusion.buffer<32xf16>, !fusion.buffer<32xf16>, !fusion.buffer<32xf16> {
    %f0, %f1 = fusion.fused -> !fusion.buffer<32xf16>, !fusion.buffer<32xf16> {
      %a = fusion.node "op0" (%p0) in [32] writes(%out : !fusion.buffer<32xf16>) attributes {buffer_names = ["buf0"]} {
        %0 = fusion.load %x[%p0] : !fusion.buffer<32xf16>
        fusion.store %0, %out[%p0] : !fusion.buffer<32xf16>
      }
      %b = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf16>) attributes {buffer_names = ["buf1"]} {
        %0 = fusion.load %a[%p0] : !fusion.buffer<32xf16>
        %1 = math.exp %0 : f16
        fusion.store %1, %out[%p0] : !fusion.buffer<32xf16>
      }
      fusion.yield %a, %b : !fusion.buffer<32xf16>, !fusion.buffer<32xf16>
    }
    %c = fusion.node "op2" (%p0) in [32] writes(%out : !fusion.buffer<32xf16>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %y[%p0] : !fusion.buffer<32xf16>
      %1 = math.exp %0 : f16
      fusion.store %1, %out[%p0] : !fusion.buffer<32xf16>
    }
    fusion.yield %f0, %f1, %c : !fusion.buffer<32xf16>, !fusion.buffer<32xf16>, !fusion.buffer<32xf16>
  }
  fusion.output %buf1, %buf2 : !fusion.buffer<32xf16>, !fusion.buffer<32xf16>
}

// -----

// A kernel's output read by an extern is written; the extern returning a
// tuple writes nothing itself, the multi_output extern extracting a buffer
// writes it. q: 4x64xf32 = 1024 bytes, buf0 and buf2 the same.
// op0 reads q (1024) and writes buf0 (1024), read by the extern op1: 2048.
// op1 reads buf0 (1024); its tuple has no storage: 1024.
// op2 reads the tuple (nothing) and writes the output buf2... through the
// view op3, whose input it is: 1024. op4 reads nothing from memory but
// writes the output buf4 (rank 0 i64, 8 bytes).
// CHECK-LABEL: graph @externs: 5 nodes, 2 kernels, 2 externs, 1 nops
// CHECK-NEXT:  kernel op0 (SchedulerNode): op0
// CHECK-NEXT:    reads: q(1024)
// CHECK-NEXT:    writes: buf0(1024)
// CHECK-NEXT:    bytes: 1024 + 1024 = 2048
// CHECK-NEXT:  kernel op4 (SchedulerNode): op4
// CHECK-NEXT:    reads:{{$}}
// CHECK-NEXT:    writes: buf4(8)
// CHECK-NEXT:    bytes: 0 + 8 = 8
// CHECK-NEXT:  extern op1 (ExternKernelSchedulerNode): op1
// CHECK-NEXT:    reads: buf0(1024)
// CHECK-NEXT:    writes:{{$}}
// CHECK-NEXT:    bytes: 1024 + 0 = 1024
// CHECK-NEXT:  extern op2 (ExternKernelSchedulerNode): op2
// CHECK-NEXT:    reads:{{$}}
// CHECK-NEXT:    writes: buf2(1024)
// CHECK-NEXT:    bytes: 0 + 1024 = 1024
// CHECK-NEXT:  kernel bytes: 2056, extern bytes: 2048
fusion.graph @externs(%q: !fusion.buffer<4x64xf32>) -> (!fusion.buffer<256xf32>, !fusion.buffer<i64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [256] writes(%out : !fusion.buffer<4x64xf32>) {
    %0 = fusion.load %q[%p0] : !fusion.buffer<4x64xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4x64xf32>
  }
  %buf1 = fusion.extern "op1" "aten._scaled_dot_product_efficient_attention.default"(%buf0) : (!fusion.buffer<4x64xf32>) -> !fusion.multi_output
  %buf2 = fusion.extern "op2" "multi_output"(%buf1) {index = 0 : i64} : (!fusion.multi_output) -> !fusion.buffer<4x64xf32>
  %buf3 = fusion.nop "op3"(%buf2) : (!fusion.buffer<4x64xf32>) -> !fusion.buffer<256xf32>
  %buf4 = fusion.node "op4" () in [] writes(%out : !fusion.buffer<i64>) {
    %0 = arith.constant 7 : i64
    fusion.store %0, %out[0] : !fusion.buffer<i64>
  }
  fusion.output %buf3, %buf4 : !fusion.buffer<256xf32>, !fusion.buffer<i64>
}
