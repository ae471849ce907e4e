// RUN: scheduler-opt %s -split-input-file --pass-pipeline='builtin.module(fusion.graph(fusion-place-concat-inputs))' -verify-diagnostics
// Inputs of a concatenation that fusion-place-concat-inputs cannot move
// into its storage (place-concat-inputs.mlir has those it moves).

// A part must be a node's result: a graph input has a storage of its own.
fusion.graph @input_part(%x: !fusion.buffer<4xf32>, %y: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @+1 {{cannot place input 0 in its storage: only the result of a fusion.node can be placed}}
  %buf0 = fusion.nop "op0"(%x, %y) {input_offsets = affine_map<() -> (4, 0)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

// A part the graph returns would need a storage of its own.
fusion.graph @returned_part(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  // expected-error @+1 {{cannot place input 1 in its storage: the graph returns it}}
  %buf2 = fusion.nop "op2"(%buf0, %buf1) {input_offsets = affine_map<() -> (0, 4)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  fusion.output %buf2, %buf1 : !fusion.buffer<8xf32>, !fusion.buffer<4xf32>
}

// -----

// A view reads a part from its own start, which then moves.
fusion.graph @viewed_part(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<2x2xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  // expected-note @+1 {{read here}}
  %buf3 = fusion.nop "op3"(%buf1) : (!fusion.buffer<4xf32>) -> !fusion.buffer<2x2xf32>
  // expected-error @+1 {{cannot place input 1 in its storage: it is read whole from its start by 'fusion.nop'}}
  %buf2 = fusion.nop "op2"(%buf0, %buf1) {input_offsets = affine_map<() -> (0, 4)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  fusion.output %buf2, %buf3 : !fusion.buffer<8xf32>, !fusion.buffer<2x2xf32>
}

// -----

// Another operation that reads a part whole (here by a name bucketize is
// not) still cannot follow it.
fusion.graph @opaque_part(%x: !fusion.buffer<4xf32>, %v: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<4xi64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  // expected-error @+1 {{cannot place input 1 in its storage: it is read whole from its start by 'fusion.opaque'}}
  %buf2 = fusion.nop "op2"(%buf0, %buf1) {input_offsets = affine_map<() -> (0, 4)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  %buf3 = fusion.node "op3" (%p0) in [4] writes(%out : !fusion.buffer<4xi64>) {
    %0 = fusion.load %v[%p0] : !fusion.buffer<4xf32>
    // expected-note @+1 {{read here}}
    %1 = fusion.opaque "searchsorted"(%0, %buf1) : (f32, !fusion.buffer<4xf32>) -> i64
    fusion.store %1, %out[%p0] : !fusion.buffer<4xi64>
  }
  fusion.output %buf2, %buf3 : !fusion.buffer<8xf32>, !fusion.buffer<4xi64>
}

// -----

// A bucketize whose boundary_indices is not an integer or index value
// cannot move with its boundaries.
fusion.graph @float_indices(%x: !fusion.buffer<4xf32>, %v: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<4xi64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  // expected-error @+1 {{cannot place input 1 in its storage: operand 5 of the 'fusion.opaque' reading it counts from its start and must be an index, i32 or i64 to move with it}}
  %buf2 = fusion.nop "op2"(%buf0, %buf1) {input_offsets = affine_map<() -> (0, 4)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  %buf3 = fusion.node "op3" (%p0) in [4] writes(%out : !fusion.buffer<4xi64>) {
    %0 = fusion.load %v[%p0] : !fusion.buffer<4xf32>
    %n = fusion.index_expr [4] : index
    %1 = fusion.opaque "bucketize"(%0, %buf1, %n, %n, %n, %0) {right = false, sorter = false} : (f32, !fusion.buffer<4xf32>, index, index, index, f32) -> i64
    fusion.store %1, %out[%p0] : !fusion.buffer<4xi64>
  }
  fusion.output %buf2, %buf3 : !fusion.buffer<8xf32>, !fusion.buffer<4xi64>
}
