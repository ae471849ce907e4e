// RUN: scheduler-opt %s -split-input-file | FileCheck %s
// Round trip: the printed form parses back to the same printed form.
// RUN: scheduler-opt %s -split-input-file | scheduler-opt -split-input-file | FileCheck %s
// The generic form keeps every attribute, names included.
// RUN: scheduler-opt %s -split-input-file -mlir-print-op-generic | scheduler-opt -split-input-file | FileCheck %s

// CHECK-LABEL: fusion.graph @pointwise
// CHECK-SAME: (%[[X:.*]]: !fusion.buffer<8x16xf32>) -> (!fusion.buffer<16x8xf32, strides = [1, 16]>) attributes {device = "cuda:0"}
// CHECK: %[[BUF0:.*]] = fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [8, 16] writes(%[[OUT:.*]] : !fusion.buffer<16x8xf32, strides = [1, 16]>) {
// CHECK:   %[[V:.*]] = fusion.load %[[X]][%[[P0]] * 16 + %[[P1]]] : !fusion.buffer<8x16xf32>
// CHECK:   fusion.store %[[V]], %[[OUT]][%[[P1]] * 8 + %[[P0]]] : !fusion.buffer<16x8xf32, strides = [1, 16]>
// CHECK: }
// CHECK: fusion.output %[[BUF0]] : !fusion.buffer<16x8xf32, strides = [1, 16]>
fusion.graph @pointwise(%x: !fusion.buffer<8x16xf32>) -> (!fusion.buffer<16x8xf32, strides = [1, 16]>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<16x8xf32, strides = [1, 16]>) {
    %0 = fusion.load %x[%p0 * 16 + %p1] : !fusion.buffer<8x16xf32>
    fusion.store %0, %out[%p1 * 8 + %p0] : !fusion.buffer<16x8xf32, strides = [1, 16]>
  }
  fusion.output %buf0 : !fusion.buffer<16x8xf32, strides = [1, 16]>
}

// -----

// Every element type, zero-dimensional buffers and storage offsets.
// CHECK-LABEL: fusion.graph @types
// CHECK-SAME: !fusion.buffer<f16>, %{{.*}}: !fusion.buffer<4xbf16>, %{{.*}}: !fusion.buffer<4xf64>
// CHECK-SAME: !fusion.buffer<4xi1>, %{{.*}}: !fusion.buffer<4xi8>, %{{.*}}: !fusion.buffer<4xi32>
// CHECK-SAME: !fusion.buffer<4xi64>, %{{.*}}: !fusion.buffer<2x2xf32, strides = [4, 2], offset = 1>
fusion.graph @types(%a: !fusion.buffer<f16>, %b: !fusion.buffer<4xbf16>, %c: !fusion.buffer<4xf64>, %d: !fusion.buffer<4xi1>, %e: !fusion.buffer<4xi8>, %f: !fusion.buffer<4xi32>, %g: !fusion.buffer<4xi64>, %h: !fusion.buffer<2x2xf32, strides = [4, 2], offset = 1>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// Packed storage element types (torch.float4_e2m1fn_x2, bits1x8, bits2x4,
// bits4x2, bits8, bits16): loops read and write their bits, an i8 or i16.
// CHECK-LABEL: fusion.graph @packed
// CHECK-SAME: !fusion.buffer<4xvector<2xf4E2M1FN>>, %{{.*}}: !fusion.buffer<4xvector<8xi1>>, %{{.*}}: !fusion.buffer<4xvector<4xi2>>
// CHECK-SAME: !fusion.buffer<4xvector<2xi4>>, %{{.*}}: !fusion.buffer<4xvector<1xi8>>, %{{.*}}: !fusion.buffer<2x2xvector<1xi16>, strides = [1, 2]>
// CHECK: %[[F:.*]] = fusion.load %{{.*}}[%{{.*}}] : !fusion.buffer<4xvector<2xf4E2M1FN>>
// CHECK-NEXT: fusion.store %[[F]], %{{.*}}[%{{.*}}] : !fusion.buffer<4xvector<8xi1>>
// CHECK: %[[B:.*]] = fusion.load %{{.*}}[%{{.*}}] : !fusion.buffer<2x2xvector<1xi16>, strides = [1, 2]>
// CHECK-NEXT: fusion.store %[[B]], %{{.*}}[%{{.*}}] : !fusion.buffer<4xi16>
fusion.graph @packed(%a: !fusion.buffer<4xvector<2xf4E2M1FN>>, %b: !fusion.buffer<4xvector<8xi1>>, %c: !fusion.buffer<4xvector<4xi2>>, %d: !fusion.buffer<4xvector<2xi4>>, %e: !fusion.buffer<4xvector<1xi8>>, %f: !fusion.buffer<2x2xvector<1xi16>, strides = [1, 2]>) -> (!fusion.buffer<4xvector<8xi1>>, !fusion.buffer<4xi16>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xvector<8xi1>>) {
    %x = fusion.load %a[%p0] : !fusion.buffer<4xvector<2xf4E2M1FN>>
    fusion.store %x, %out[%p0] : !fusion.buffer<4xvector<8xi1>>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [2, 2] writes(%out : !fusion.buffer<4xi16>) {
    %x = fusion.load %f[%p0 * 2 + %p1] : !fusion.buffer<2x2xvector<1xi16>, strides = [1, 2]>
    fusion.store %x, %out[%p0 * 2 + %p1] : !fusion.buffer<4xi16>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<4xvector<8xi1>>, !fusion.buffer<4xi16>
}

// -----

// Unsigned and float8 element types; a load of a ui8 buffer yields i8.
// CHECK-LABEL: fusion.graph @unsigned_float8
// CHECK-SAME: !fusion.buffer<4xui8>, %{{.*}}: !fusion.buffer<4xui64>, %{{.*}}: !fusion.buffer<4xf8E4M3FN>
// CHECK-SAME: !fusion.buffer<4xf8E5M2>, %{{.*}}: !fusion.buffer<4xf8E4M3FNUZ>, %{{.*}}: !fusion.buffer<4xf8E5M2FNUZ>, %{{.*}}: !fusion.buffer<4xf8E8M0FNU>
// CHECK: %[[U:.*]] = fusion.load %{{.*}}[%{{.*}}] : !fusion.buffer<4xui8>
// CHECK-NEXT: %[[E:.*]] = arith.extui %[[U]] : i8 to i64
// CHECK: fusion.store %{{.*}}, %{{.*}}[%{{.*}}] : !fusion.buffer<4xui64>
fusion.graph @unsigned_float8(%a: !fusion.buffer<4xui8>, %b: !fusion.buffer<4xui64>, %c: !fusion.buffer<4xf8E4M3FN>, %d: !fusion.buffer<4xf8E5M2>, %e: !fusion.buffer<4xf8E4M3FNUZ>, %f: !fusion.buffer<4xf8E5M2FNUZ>, %g: !fusion.buffer<4xf8E8M0FNU>) -> (!fusion.buffer<4xui64>, !fusion.buffer<4xf8E5M2>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xui64>) {
    %u = fusion.load %a[%p0] : !fusion.buffer<4xui8>
    %w = arith.extui %u : i8 to i64
    fusion.store %w, %out[%p0] : !fusion.buffer<4xui64>
  }
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf8E5M2>) {
    %x = fusion.load %c[%p0] : !fusion.buffer<4xf8E4M3FN>
    %y = fusion.cast %x : f8E4M3FN to f8E5M2
    fusion.store %y, %out[%p0] : !fusion.buffer<4xf8E5M2>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<4xui64>, !fusion.buffer<4xf8E5M2>
}

// -----

// Reductions of every kind, casts, selects and index expressions.
// CHECK-LABEL: fusion.graph @reductions
fusion.graph @reductions(%x: !fusion.buffer<4x32xf32>, %m: !fusion.buffer<4x32xi1>) -> (!fusion.buffer<4xf32>, !fusion.buffer<4xi64>, !fusion.buffer<4xf32>, !fusion.buffer<4xi1>) attributes {device = "cuda:0"} {
  // CHECK: fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [4] reduce [32]
  // CHECK: fusion.reduce sum %{{.*}} : f32 -> f32
  // CHECK: fusion.reduce prod %{{.*}} : f32 -> f32
  // CHECK: fusion.reduce max %{{.*}} : f32 -> f32
  // CHECK: fusion.reduce min %{{.*}} : f32 -> f32
  // CHECK: %[[MEAN:.*]], %{{.*}}, %{{.*}} = fusion.reduce welford_reduce %{{.*}} : f32 -> f32, f32, f32
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = fusion.reduce welford_combine %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32 -> f32, f32, f32
  // CHECK: %[[MAX:.*]], %[[SUM:.*]] = fusion.reduce online_softmax_reduce %{{.*}} : f32 -> f32, f32
  // CHECK: fusion.store %[[MEAN]], %{{.*}}[%[[P0]]] : !fusion.buffer<4xf32>
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [32] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 32 + %p1] : !fusion.buffer<4x32xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    %2 = fusion.reduce prod %0 : f32 -> f32
    %3 = fusion.reduce max %0 : f32 -> f32
    %4 = fusion.reduce min %0 : f32 -> f32
    %mean, %m2, %weight = fusion.reduce welford_reduce %0 : f32 -> f32, f32, f32
    %5:3 = fusion.reduce welford_combine %0, %0, %0 : f32, f32, f32 -> f32, f32, f32
    %6:2 = fusion.reduce online_softmax_reduce %0 : f32 -> f32, f32
    fusion.store %mean, %out[%p0] : !fusion.buffer<4xf32>
  }
  // CHECK: fusion.reduce argmax %{{.*}} : f32 -> i64
  // CHECK: fusion.reduce argmin %{{.*}} : f32 -> i64
  %buf1 = fusion.node "op1" (%p0, %p1) in [4] reduce [32] writes(%out : !fusion.buffer<4xi64>) {
    %0 = fusion.load %x[%p0 * 32 + %p1] : !fusion.buffer<4x32xf32>
    %1 = fusion.reduce argmax %0 : f32 -> i64
    %2 = fusion.reduce argmin %0 : f32 -> i64
    %3 = arith.addi %1, %2 : i64
    fusion.store %3, %out[%p0] : !fusion.buffer<4xi64>
  }
  // CHECK: %[[IDX:.*]] = fusion.index_expr [%{{.*}} * 32 + %{{.*}}] : i64
  // CHECK: fusion.cast %[[IDX]] : i64 to f32
  // CHECK: arith.select
  %buf2 = fusion.node "op2" (%p0, %p1) in [4] reduce [32] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.index_expr [%p0 * 32 + %p1] : i64
    %1 = fusion.cast %0 : i64 to f32
    %2 = fusion.load %m[%p0 * 32 + %p1] : !fusion.buffer<4x32xi1>
    %zero = arith.constant 0.000000e+00 : f32
    %3 = arith.select %2, %1, %zero : f32
    %4 = fusion.reduce xor_sum %0 : i64 -> i64
    %5 = fusion.reduce sum %3 : f32 -> f32
    fusion.store %5, %out[%p0] : !fusion.buffer<4xf32>
  }
  // CHECK: fusion.reduce any %{{.*}} : i1 -> i1
  %buf3 = fusion.node "op3" (%p0, %p1) in [4] reduce [32] writes(%out : !fusion.buffer<4xi1>) {
    %0 = fusion.load %m[%p0 * 32 + %p1] : !fusion.buffer<4x32xi1>
    %1 = fusion.reduce any %0 : i1 -> i1
    fusion.store %1, %out[%p0] : !fusion.buffer<4xi1>
  }
  fusion.output %buf0, %buf1, %buf2, %buf3 : !fusion.buffer<4xf32>, !fusion.buffer<4xi64>, !fusion.buffer<4xf32>, !fusion.buffer<4xi1>
}

// -----

// Indirect indexing (an embedding gather), masked loads, atomic stores,
// random numbers, and a node without loops.
// CHECK-LABEL: fusion.graph @indirect
fusion.graph @indirect(%ids: !fusion.buffer<4x128xi64>, %wte: !fusion.buffer<8192x256xf32>, %seeds: !fusion.buffer<5xi64>) -> (!fusion.buffer<4x128x256xf32>, !fusion.buffer<8192x256xf32>, !fusion.buffer<f32>) attributes {device = "cuda:0"} {
  // CHECK: %[[ID:.*]] = fusion.load %{{.*}}[%[[P0:.*]] * 128 + %[[P1:.*]]] : !fusion.buffer<4x128xi64>
  // CHECK: %[[I:.*]] = arith.index_cast %[[ID]] : i64 to index
  // CHECK: fusion.load %{{.*}}[%[[P2:.*]] + symbol(%[[I]]) * 256] : !fusion.buffer<8192x256xf32>
  %buf0 = fusion.node "op0" (%p0, %p1, %p2) in [4, 128, 256] writes(%out : !fusion.buffer<4x128x256xf32>) {
    %0 = fusion.load %ids[%p0 * 128 + %p1] : !fusion.buffer<4x128xi64>
    %1 = arith.index_cast %0 : i64 to index
    %2 = fusion.load %wte[symbol(%1) * 256 + %p2] : !fusion.buffer<8192x256xf32>
    fusion.store %2, %out[%p0 * 32768 + %p1 * 256 + %p2] : !fusion.buffer<4x128x256xf32>
  }
  // CHECK: %[[V:.*]] = fusion.masked %{{.*}}, %{{.*}} : f32 {
  // CHECK:   %[[L:.*]] = fusion.load
  // CHECK:   fusion.yield %[[L]] : f32
  // CHECK: }
  // CHECK: fusion.store %[[V]], %{{.*}}[%{{.*}} + symbol(%{{.*}}) * 256] atomic_add : !fusion.buffer<8192x256xf32>
  %buf1 = fusion.node "op1" (%p0, %p1) in [128, 256] writes(%out : !fusion.buffer<8192x256xf32>) {
    %0 = fusion.load %ids[%p0] : !fusion.buffer<4x128xi64>
    %1 = arith.index_cast %0 : i64 to index
    %c0 = arith.constant 0 : i64
    %2 = arith.cmpi sge, %0, %c0 : i64
    %zero = arith.constant 0.000000e+00 : f32
    %3 = fusion.masked %2, %zero : f32 {
      %4 = fusion.load %buf0[%p0 * 256 + %p1] : !fusion.buffer<4x128x256xf32>
      fusion.yield %4 : f32
    }
    fusion.store %3, %out[symbol(%1) * 256 + %p1] atomic_add : !fusion.buffer<8192x256xf32>
  }
  // CHECK: fusion.node "op2" () in [] writes(
  // CHECK: %[[SEED:.*]] = fusion.load %{{.*}}[2] : !fusion.buffer<5xi64>
  // CHECK: fusion.rand %[[SEED]], %{{.*}} : i64, i32 -> f32
  %buf2 = fusion.node "op2" () in [] writes(%out : !fusion.buffer<f32>) {
    %0 = fusion.load %seeds[2] : !fusion.buffer<5xi64>
    %c7 = arith.constant 7 : i32
    %1 = fusion.rand %0, %c7 : i64, i32 -> f32
    fusion.store %1, %out[0] : !fusion.buffer<f32>
  }
  fusion.output %buf0, %buf1, %buf2 : !fusion.buffer<4x128x256xf32>, !fusion.buffer<8192x256xf32>, !fusion.buffer<f32>
}

// -----

// In-place mutation: the node's result is the new version of %state.
// CHECK-LABEL: fusion.graph @mutation
// CHECK-SAME: (%[[STATE:.*]]: !fusion.buffer<16xf32>)
// CHECK: %[[BUF0:.*]] = fusion.node "op0" (%{{.*}}) in [16] writes(%{{.*}} : !fusion.buffer<16xf32> mutates %[[STATE]])
// CHECK: %[[BUF1:.*]] = fusion.node "op1" (%{{.*}}) in [16] writes(%{{.*}} : !fusion.buffer<16xf32> mutates %[[BUF0]])
// CHECK: fusion.output %[[BUF1]]
fusion.graph @mutation(%state: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %state) {
    %0 = fusion.load %state[%p0] : !fusion.buffer<16xf32>
    %one = arith.constant 1.000000e+00 : f32
    %1 = arith.addf %0, %one : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [16] writes(%out : !fusion.buffer<16xf32> mutates %buf0) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<16xf32>
    %1 = arith.mulf %0, %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf1 : !fusion.buffer<16xf32>
}

// -----

// Externs (with several outputs, in-place, side effects) and nops.
// CHECK-LABEL: fusion.graph @externs
fusion.graph @externs(%q: !fusion.buffer<4x64xf32>, %k: !fusion.buffer<4x64xf32>, %acc: !fusion.buffer<4x64xf32>) -> (!fusion.buffer<4x64xf32>, !fusion.buffer<256xf32>, !fusion.buffer<4x64xf32>) attributes {device = "cuda:0"} {
  // CHECK: %[[T:.*]] = fusion.extern "op0" "aten._scaled_dot_product_efficient_attention.default"(%{{.*}}, %{{.*}}) : (!fusion.buffer<4x64xf32>, !fusion.buffer<4x64xf32>) -> !fusion.multi_output
  // CHECK: %[[O:.*]] = fusion.extern "op1" "multi_output"(%[[T]]) {index = 0 : i64} : (!fusion.multi_output) -> !fusion.buffer<4x64xf32>
  // CHECK: %[[V:.*]] = fusion.nop "op2"(%[[O]]) : (!fusion.buffer<4x64xf32>) -> !fusion.buffer<256xf32>
  // CHECK: %[[ACC:.*]] = fusion.extern "op3" "aten.add_"(%{{.*}}, %[[O]]) {side_effects} : (!fusion.buffer<4x64xf32>, !fusion.buffer<4x64xf32>) -> (!fusion.buffer<4x64xf32> mutates %{{.*}})
  // CHECK: %[[FIRST:.*]], %{{.*}} = fusion.extern "op4" "aten.split"(%{{.*}}) : (!fusion.buffer<4x64xf32>) -> (!fusion.buffer<2x64xf32>, !fusion.buffer<2x64xf32>)
  // CHECK: fusion.extern "op5" "aten.print"(%[[FIRST]]) {side_effects} : (!fusion.buffer<2x64xf32>) -> ()
  %buf0 = fusion.extern "op0" "aten._scaled_dot_product_efficient_attention.default"(%q, %k) : (!fusion.buffer<4x64xf32>, !fusion.buffer<4x64xf32>) -> !fusion.multi_output
  %buf1 = fusion.extern "op1" "multi_output"(%buf0) {index = 0 : i64} : (!fusion.multi_output) -> !fusion.buffer<4x64xf32>
  %buf2 = fusion.nop "op2"(%buf1) : (!fusion.buffer<4x64xf32>) -> !fusion.buffer<256xf32>
  %buf3 = fusion.extern "op3" "aten.add_"(%acc, %buf1) {side_effects} : (!fusion.buffer<4x64xf32>, !fusion.buffer<4x64xf32>) -> (!fusion.buffer<4x64xf32> mutates %acc)
  %buf4, %buf5 = fusion.extern "op4" "aten.split"(%q) : (!fusion.buffer<4x64xf32>) -> (!fusion.buffer<2x64xf32>, !fusion.buffer<2x64xf32>)
  fusion.extern "op5" "aten.print"(%buf4) {side_effects} : (!fusion.buffer<2x64xf32>) -> ()
  fusion.output %buf1, %buf2, %buf3 : !fusion.buffer<4x64xf32>, !fusion.buffer<256xf32>, !fusion.buffer<4x64xf32>
}

// -----

// Containers: a fused group, a foreach of independent kernels, a group.
// Member results keep their buffer names; the container yields them all.
// CHECK-LABEL: fusion.graph @containers
// CHECK: %[[BUF0:.*]], %[[BUF1:.*]] = fusion.fused -> !fusion.buffer<32xf32>, !fusion.buffer<32xf32> {
// CHECK:   %[[IN0:.*]] = fusion.node "op0"
// CHECK:   %[[IN1:.*]] = fusion.node "op1"
// CHECK:     fusion.load %[[IN0]][
// CHECK:   fusion.yield %[[IN0]], %[[IN1]] : !fusion.buffer<32xf32>, !fusion.buffer<32xf32>
// CHECK: }
// CHECK: fusion.foreach -> !fusion.buffer<32xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32> {
// CHECK:   fusion.node "op2"
// CHECK:   fusion.fused -> !fusion.buffer<32xf32>, !fusion.buffer<32xf32> {
// CHECK: fusion.group -> !fusion.buffer<32xf32> {
// CHECK:   fusion.node "op5"
fusion.graph @containers(%x: !fusion.buffer<32xf32>) -> (!fusion.buffer<32xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<32xf32>, !fusion.buffer<32xf32> {
    %a = fusion.node "op0" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<32xf32>
      %1 = math.exp %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
    }
    %b = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<32xf32>
      %1 = math.tanh %0 : f32
      fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<32xf32>, !fusion.buffer<32xf32>
  }
  %buf2, %buf3, %buf4 = fusion.foreach -> !fusion.buffer<32xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32> {
    %c = fusion.node "op2" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) attributes {buffer_names = ["buf2"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
    }
    %d, %e = fusion.fused -> !fusion.buffer<32xf32>, !fusion.buffer<32xf32> {
      %f = fusion.node "op3" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) attributes {buffer_names = ["buf3"]} {
        %0 = fusion.load %buf1[%p0] : !fusion.buffer<32xf32>
        fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
      }
      %g = fusion.node "op4" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) attributes {buffer_names = ["buf4"]} {
        %0 = fusion.load %f[%p0] : !fusion.buffer<32xf32>
        fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
      }
      fusion.yield %f, %g : !fusion.buffer<32xf32>, !fusion.buffer<32xf32>
    }
    fusion.yield %c, %d, %e : !fusion.buffer<32xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>
  }
  %buf5 = fusion.group -> !fusion.buffer<32xf32> {
    %h = fusion.node "op5" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) attributes {buffer_names = ["buf5"]} {
      %0 = fusion.load %buf4[%p0] : !fusion.buffer<32xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<32xf32>
    }
    fusion.yield %h : !fusion.buffer<32xf32>
  }
  fusion.output %buf0, %buf2, %buf3, %buf5 : !fusion.buffer<32xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>, !fusion.buffer<32xf32>
}

// -----

// fusion.opaque keeps an Inductor operation by name: several results,
// none, attributes, and a buffer it reads whole.
// CHECK-LABEL: fusion.graph @opaque
// CHECK: %{{.*}}:2 = fusion.opaque "frexp"(%{{.*}}) : (f32) -> (f32, i32)
// CHECK: fusion.opaque "device_assert_async"(%{{.*}}) {msg = "out of bounds"} : (i1) -> ()
// CHECK: fusion.opaque "bucketize"(%{{.*}}, %[[OFFSETS:.*]], %{{.*}}) {right = false} : (f32, !fusion.buffer<5xf32>, index) -> i64
fusion.graph @opaque(%x: !fusion.buffer<16xf32>, %offsets: !fusion.buffer<5xf32>) -> (!fusion.buffer<16xi64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xi64>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    %1:2 = fusion.opaque "frexp"(%0) : (f32) -> (f32, i32)
    %true = arith.constant true
    fusion.opaque "device_assert_async"(%true) {msg = "out of bounds"} : (i1) -> ()
    %n = fusion.index_expr [5] : index
    %2 = fusion.opaque "bucketize"(%1#0, %offsets, %n) {right = false} : (f32, !fusion.buffer<5xf32>, index) -> i64
    fusion.store %2, %out[%p0] : !fusion.buffer<16xi64>
  }
  fusion.output %buf0 : !fusion.buffer<16xi64>
}

// -----

// Size symbols: the graph declares them with their hints;
// sizes, strides, loop sizes and indices use them.
// CHECK-LABEL: fusion.graph @dynamic symbols(s0 = 1024, s1 = 64)
// CHECK-SAME: (%[[X:.*]]: !fusion.buffer<s1 x s0 x f32>, %[[Y:.*]]: !fusion.buffer<(s0 * s1) x 8 x f32, strides = [1, s0 * s1], offset = s0>)
// CHECK: fusion.node "op0" (%[[P0:.*]], %[[P1:.*]]) in [s1] reduce [s0] writes(%[[OUT:.*]] : !fusion.buffer<s1 x 1 x f32, strides = [1, s1]>)
// CHECK:   fusion.load %[[X]][%[[P0]] * s0 + %[[P1]]] : !fusion.buffer<s1 x s0 x f32>
// CHECK:   fusion.store %{{.*}}, %[[OUT]][%[[P0]]] : !fusion.buffer<s1 x 1 x f32, strides = [1, s1]>
// CHECK: fusion.node "op1" (%[[Q0:.*]]) in [(s0 + 7) floordiv 8]
// CHECK:   %[[I:.*]] = arith.index_cast
// CHECK:   fusion.load %[[X]][%[[Q0]] * s1 + symbol(%[[I]])] : !fusion.buffer<s1 x s0 x f32>
// CHECK:   fusion.index_expr [s1 * 2] : i64
fusion.graph @dynamic symbols(s0 = 1024, s1 = 64) (%x: !fusion.buffer<s1 x s0 x f32>, %y: !fusion.buffer<(s0 * s1) x 8 x f32, strides = [1, s0 * s1], offset = s0>) -> (!fusion.buffer<s1 x 1 x f32, strides = [1, s1]>, !fusion.buffer<s1 x i64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [s1] reduce [s0] writes(%out : !fusion.buffer<s1 x 1 x f32, strides = [1, s1]>) {
    %0 = fusion.load %x[%p0 * s0 + %p1] : !fusion.buffer<s1 x s0 x f32>
    %1 = fusion.reduce max %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<s1 x 1 x f32, strides = [1, s1]>
  }
  %buf1 = fusion.node "op1" (%p0) in [(s0 + 7) floordiv 8] writes(%out : !fusion.buffer<s1 x i64>) {
    %c = arith.constant 3 : i64
    %i = arith.index_cast %c : i64 to index
    %0 = fusion.load %x[symbol(%i) + %p0 * s1] : !fusion.buffer<s1 x s0 x f32>
    %1 = fusion.index_expr [s1 * 2] : i64
    fusion.store %1, %out[%p0] : !fusion.buffer<s1 x i64>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<s1 x 1 x f32, strides = [1, s1]>, !fusion.buffer<s1 x i64>
}

// -----

// Sizes near what int64 represents still verify: 2^60 f32 elements (2^62
// bytes), a node of 2^31 * 2^31 iterations and an index reaching
// 3 * 2^61 + 3.
// CHECK-LABEL: fusion.graph @largest_sizes
// CHECK: in [2147483648, 2147483648]
// CHECK: fusion.load %{{.*}}[%{{.*}} * 2305843009213693952 + %{{.*}}]
fusion.graph @largest_sizes(%x: !fusion.buffer<1152921504606846976xf32>) -> (!fusion.buffer<4x4xf32>, !fusion.buffer<4x4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [2147483648, 2147483648] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %x[%p1] : !fusion.buffer<1152921504606846976xf32>
    fusion.store %0, %out[0] : !fusion.buffer<4x4xf32>
  }
  %buf1 = fusion.node "op1" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4x4xf32>) {
    %0 = fusion.load %x[%p0 * 2305843009213693952 + %p1] : !fusion.buffer<1152921504606846976xf32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<4x4xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<4x4xf32>, !fusion.buffer<4x4xf32>
}

// -----

// A scan (Inductor's ops.scan): its combine function as a region, or an
// empty region when the dump did not give it.
// CHECK-LABEL: fusion.graph @scan
// CHECK: %[[S:.*]]:2 = fusion.scan "scan1"(%{{.*}}, %{{.*}}) : (f32, i64) -> (f32, i64) combine {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: f32, %[[A1:.*]]: i64, %[[B0:.*]]: f32, %[[B1:.*]]: i64):
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[A0]], %[[B0]] : f32
// CHECK-NEXT: %[[V:.*]] = arith.select %[[GT]], %[[A0]], %[[B0]] : f32
// CHECK-NEXT: %[[I:.*]] = arith.select %[[GT]], %[[A1]], %[[B1]] : i64
// CHECK-NEXT: fusion.scan_yield %[[V]], %[[I]] : f32, i64
// CHECK: fusion.scan "scan2"(%{{.*}}) : (f32) -> f32{{$}}
fusion.graph @scan(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4x8xf32>, !fusion.buffer<4x8xi64>, !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %v, %i, %u = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%o0 : !fusion.buffer<4x8xf32>, %o1 : !fusion.buffer<4x8xi64>, %o2 : !fusion.buffer<4x8xf32>) {
    %a = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %k = fusion.index_expr [%p1] : i64
    %s:2 = fusion.scan "scan1"(%a, %k) : (f32, i64) -> (f32, i64) combine {
    ^bb0(%a0: f32, %a1: i64, %b0: f32, %b1: i64):
      %gt = arith.cmpf ogt, %a0, %b0 : f32
      %mv = arith.select %gt, %a0, %b0 : f32
      %mi = arith.select %gt, %a1, %b1 : i64
      fusion.scan_yield %mv, %mi : f32, i64
    }
    %t = fusion.scan "scan2"(%a) : (f32) -> f32
    fusion.store %s#0, %o0[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    fusion.store %s#1, %o1[%p0 * 8 + %p1] : !fusion.buffer<4x8xi64>
    fusion.store %t, %o2[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
  }
  fusion.output %v, %i, %u : !fusion.buffer<4x8xf32>, !fusion.buffer<4x8xi64>, !fusion.buffer<4x8xf32>
}

// -----

// A memory dependence as an attribute: its map is written out, also in the
// generic form, where the printer used to write an alias (#map) that did
// not parse back (fuzz-parse-verify).
// CHECK-LABEL: fusion.graph @memory_dep_attr
// CHECK: {dep = #fusion.memory_dep<"buf0", (d0, d1) -> (d0 * 8 + d1), [4, 8]>}
fusion.graph @memory_dep_attr() attributes {device = "cuda:0"} {
  fusion.output {dep = #fusion.memory_dep<"buf0", (d0, d1) -> (d0 * 8 + d1), [4, 8]>}
}
