// RUN: scheduler-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

//===----------------------------------------------------------------------===//
// Types and attributes
//===----------------------------------------------------------------------===//

// torch's complex dtypes are complex<f16>, complex<f32> and complex<f64>.
// expected-error @below {{unsupported buffer element type 'complex<i32>'}}
fusion.graph @bad_element(%x: !fusion.buffer<4xcomplex<i32>>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// A vector is an element type only as a packed storage dtype (a byte of
// fields, or bits16): three bytes are none.
// expected-error @below {{unsupported buffer element type 'vector<3xi8>'}}
fusion.graph @bad_packed(%x: !fusion.buffer<4xvector<3xi8>>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// A packed buffer holds its bits: a float is not one.
fusion.graph @store_packed_float(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xvector<2xf4E2M1FN>>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    // expected-error @below {{'fusion.store' op failed to verify that value type matches the buffer's value type}}
    "fusion.store"(%0, %out, %p0) <{map = affine_map<(d0) -> (d0)>}> : (f32, !fusion.buffer<4xvector<2xf4E2M1FN>>, index) -> ()
  }
  fusion.output
}

// -----

// Signed integer types are not torch dtypes (signless ones are).
// expected-error @below {{unsupported buffer element type 'si8'}}
fusion.graph @signed_element(%x: !fusion.buffer<4xsi8>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// expected-error @below {{buffer of rank 2 has 1 strides}}
fusion.graph @bad_strides(%x: !fusion.buffer<4x4xf32, strides = [1]>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// expected-error @below {{buffer strides must be non-negative}}
fusion.graph @negative_stride(%x: !fusion.buffer<4xf32, strides = [-1]>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// expected-error @below {{buffer offset must be non-negative}}
fusion.graph @negative_offset(%x: !fusion.buffer<4xf32, offset = -2>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// expected-error @below {{expected 'strides' or 'offset', got 'stride'}}
fusion.graph @bad_layout_keyword(%x: !fusion.buffer<4xf32, stride = [1]>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

fusion.graph @dep_arity() attributes {device = "cuda:0"} {
  // expected-error @below {{memory dependence index has 2 dimensions but 1 sizes}}
  fusion.output {dep = #fusion.memory_dep<"buf0", (d0, d1) -> (d0 + d1), [4]>}
}

// -----

fusion.graph @dep_results() attributes {device = "cuda:0"} {
  // expected-error @below {{memory dependence index must have one result, got 2}}
  fusion.output {dep = #fusion.memory_dep<"buf0", (d0) -> (d0, d0), [4]>}
}

// -----

fusion.graph @dep_name() attributes {device = "cuda:0"} {
  // expected-error @below {{memory dependence needs a buffer name}}
  fusion.output {dep = #fusion.memory_dep<"", (d0) -> (d0), [4]>}
}

//===----------------------------------------------------------------------===//
// fusion.graph and fusion.output
//===----------------------------------------------------------------------===//

// -----

// expected-error @below {{graph needs a 'device' attribute}}
fusion.graph @no_device(%x: !fusion.buffer<4xf32>) {
  fusion.output
}

// -----

// expected-error @below {{graph inputs are named by their SSA names}}
fusion.graph @numeric_input(%0: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// expected-error @below {{'fusion.graph' op needs a non-empty device}}
fusion.graph @empty_device() attributes {device = ""} {
  fusion.output
}

// -----

// expected-error @below {{'fusion.graph' op inputs must be !fusion.buffer values, got 'f32'}}
fusion.graph @scalar_input(%x: f32) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// expected-error @below {{'fusion.graph' op results must be !fusion.buffer values, got 'f32'}}
fusion.graph @scalar_result() -> (f32) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// expected-error @below {{'fusion.graph' op has 1 inputs but 2 input names}}
"fusion.graph"() <{device = "cuda:0", function_type = (!fusion.buffer<4xf32>) -> (), input_names = ["a", "b"], sym_name = "names"}> ({
^bb0(%a: !fusion.buffer<4xf32>):
  fusion.output
}) : () -> ()

// -----

// expected-error @below {{'fusion.graph' op body has 0 arguments but the graph has 1 inputs}}
"fusion.graph"() <{device = "cuda:0", function_type = (!fusion.buffer<4xf32>) -> (), input_names = ["a"], sym_name = "args"}> ({
  fusion.output
}) : () -> ()

// -----

// expected-error @below {{'fusion.graph' op body argument type '!fusion.buffer<8xf32>' does not match input type '!fusion.buffer<4xf32>'}}
"fusion.graph"() <{device = "cuda:0", function_type = (!fusion.buffer<4xf32>) -> (), input_names = ["a"], sym_name = "argtype"}> ({
^bb0(%a: !fusion.buffer<8xf32>):
  fusion.output
}) : () -> ()

// -----

// expected-error @below {{'fusion.graph' op input name 'a' is used twice}}
"fusion.graph"() <{device = "cuda:0", function_type = (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> (), input_names = ["a", "a"], sym_name = "dup_input"}> ({
^bb0(%a: !fusion.buffer<4xf32>, %b: !fusion.buffer<4xf32>):
  fusion.output
}) : () -> ()

// -----

// A terminator of another dialect (unregistered here) is not an output.
// expected-error @below {{'fusion.graph' op body must end with fusion.output}}
fusion.graph @no_output() attributes {device = "cuda:0"} {
  "other.end"() : () -> ()
}

// -----

fusion.graph @output_types(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.output' op returns 1 buffers whose types do not match the graph results}}
  fusion.output %x : !fusion.buffer<4xf32>
}

// -----

fusion.graph @foreign_op() attributes {device = "cuda:0"} {
  // expected-error @below {{'arith.constant' op cannot appear at graph level; only scheduler nodes}}
  %c = arith.constant 0 : index
  fusion.output
}

// -----

fusion.graph @dup_node(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-note @below {{first used here}}
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  // expected-error @below {{'fusion.node' op node name 'op0' is already used}}
  %buf1 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

// Names are unique across containers too: a member of a fused kernel inside
// a foreach kernel against a top-level node.
fusion.graph @dup_node_nested(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-note @below {{first used here}}
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1, %buf2, %buf3 = fusion.foreach -> !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32> {
    %a = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
      %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    %b, %c = fusion.fused -> !fusion.buffer<4xf32>, !fusion.buffer<4xf32> {
      %d = fusion.node "op2" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
        %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
        fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
      }
      // expected-error @below {{'fusion.node' op node name 'op0' is already used}}
      %e = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
        %0 = fusion.load %d[%p0] : !fusion.buffer<4xf32>
        fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
      }
      fusion.yield %d, %e : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
    }
    fusion.yield %a, %b, %c : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

// expected-note @below {{first used here}}
fusion.graph @dup_buffer(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op buffer name 'x' is already used}}
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["x"]} {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @mutated_twice(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-note @below {{first mutation here}}
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32> mutates %x) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  // expected-error @below {{'fusion.node' op overwrites a buffer version that 'op0' already overwrote; mutate that node's result instead}}
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32> mutates %x) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @return_overwritten(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32> mutates %x) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  // expected-error @below {{'fusion.output' op returns a buffer version that 'op0' overwrites in place; return that node's result instead}}
  fusion.output %x : !fusion.buffer<4xf32>
}

// -----

// Graph regions allow uses before definitions, but not cycles.
fusion.graph @cycle(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op is on a dependence cycle: op0 -> op1 -> op2 -> op0}}
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf2[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf2 = fusion.node "op2" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @self_cycle(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op is on a dependence cycle: op0 -> op0}}
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

//===----------------------------------------------------------------------===//
// fusion.node
//===----------------------------------------------------------------------===//

// -----

fusion.graph @unnamed_result(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{result #0 needs a name: buffers are named by their SSA names}}
  %0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %1 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @loop_count(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{node has 2 loop variables but 1 loop sizes}}
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

// Index expressions nest at most 64 levels: the parser's recursion is
// bounded (a fuzzed index of 2,700 parentheses exhausted the stack).
fusion.graph @deep_index(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    // expected-error @below {{index expression nested deeper than 64 levels}}
    %0 = fusion.load %x[(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((%p0)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @empty_name(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op needs a non-empty name}}
  %buf0 = fusion.node "" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @zero_size(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op loop sizes must be positive, got 0}}
  %buf0 = fusion.node "op0" (%p0) in [0] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

// INT64_MIN is the sentinel of a symbolic size; written as a range it is a
// negative size, not a symbol (found by fuzz-generated, whose mutations
// edit the generic attributes: the node went on to the scheduler, whose
// index arithmetic overflowed on it).
fusion.graph @sentinel_size() attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op loop sizes must be positive, got -9223372036854775808}}
  %buf0 = "fusion.node"() <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: -9223372036854775808>, reduction_ranges = array<i64>, tied_operands = array<i64: -1>}> ({
  ^bb0(%p0: index, %out: !fusion.buffer<4xf32>):
    fusion.yield
  }) : () -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

// 2^62 * 2^62 iterations: no int64 counts them (this graph crashed
// --fusion-to-ptx with SIGFPE and made --fusion-schedule compute with a
// wrapped count before the verifier checked it).
fusion.graph @iterations_overflow(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op loop sizes [4611686018427387904, 4611686018427387904] make more iterations than int64 can count}}
  %buf0 = fusion.node "op0" (%p0, %p1) in [4611686018427387904, 4611686018427387904] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p1] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p1] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0 : !fusion.buffer<16xf32>
}

// -----

// 2^62 f32 elements are 2^64 bytes.
// expected-error @below {{buffer of shape [4611686018427387904], strides [1] and offset 0 of 'f32' takes more bytes than int64 can count}}
fusion.graph @bytes_overflow(%x: !fusion.buffer<4611686018427387904xf32>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// The last element of a strided buffer lies past int64.
// expected-error @below {{buffer of shape [4, 4], strides [4611686018427387904, 1] and offset 0 of 'i8' takes more bytes than int64 can count}}
fusion.graph @extent_overflow(%x: !fusion.buffer<4x4xi8, strides = [4611686018427387904, 1]>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// Each buffer fits; together they take 2^61 * 8 bytes = 2^64.
// expected-error @below {{'fusion.graph' op buffers take more bytes together than int64 can count}}
fusion.graph @total_bytes_overflow(%a: !fusion.buffer<1152921504606846976xf32>, %b: !fusion.buffer<1152921504606846976xf32>, %c: !fusion.buffer<1152921504606846976xf32>, %d: !fusion.buffer<1152921504606846976xf32>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// p0 * 2^62 reaches 3 * 2^62 for p0 = 3.
fusion.graph @index_overflow(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<16xf32>) {
    // expected-error @below {{'fusion.load' op index d0 * 4611686018427387904 leaves int64 over its loop ranges}}
    %0 = fusion.load %x[%p0 * 4611686018427387904] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0 : !fusion.buffer<16xf32>
}

// -----

// The same product, under an indirect index: the part without it is
// checked all the same.
fusion.graph @index_overflow_indirect(%x: !fusion.buffer<16xf32>, %ids: !fusion.buffer<4xi64>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<16xf32>) {
    %id = fusion.load %ids[%p0] : !fusion.buffer<4xi64>
    %i = arith.index_cast %id : i64 to index
    // expected-error @below {{'fusion.load' op index d0 * 4611686018427387904 + s0 leaves int64 over its loop ranges}}
    %0 = fusion.load %x[%p0 * 4611686018427387904 + symbol(%i)] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0 : !fusion.buffer<16xf32>
}

// -----

fusion.graph @names_count(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op has 1 results but 2 buffer names}}
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["a", "b"]} {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @empty_buffer_name(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op buffer names must not be empty}}
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = [""]} {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @tied_count(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op has 1 results but 2 entries in tied_operands}}
  %buf0 = "fusion.node"() <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: 4>, reduction_ranges = array<i64>, tied_operands = array<i64: -1, -1>}> ({
  ^bb0(%p0: index, %out: !fusion.buffer<4xf32>):
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    fusion.yield
  }) : () -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @tied_range(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op result #0 is tied to operand #3, which does not exist}}
  %buf0 = "fusion.node"(%x) <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: 4>, reduction_ranges = array<i64>, tied_operands = array<i64: 3>}> ({
  ^bb0(%p0: index, %out: !fusion.buffer<4xf32>):
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    fusion.yield
  }) : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @tied_twice(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op operand #0 is overwritten by more than one result}}
  %buf0, %buf1 = "fusion.node"(%x) <{buffer_names = ["buf0", "buf1"], name = "op0", ranges = array<i64: 4>, reduction_ranges = array<i64>, tied_operands = array<i64: 0, 0>}> ({
  ^bb0(%p0: index, %out0: !fusion.buffer<4xf32>, %out1: !fusion.buffer<4xf32>):
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out0[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out1[%p0] : !fusion.buffer<4xf32>
    fusion.yield
  }) : (!fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>)
  fusion.output
}

// -----

fusion.graph @tied_type(%x: !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op result #0 of type '!fusion.buffer<4xf32>' overwrites a buffer of a different type '!fusion.buffer<8xf32>'}}
  %buf0 = "fusion.node"(%x) <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: 4>, reduction_ranges = array<i64>, tied_operands = array<i64: 0>}> ({
  ^bb0(%p0: index, %out: !fusion.buffer<4xf32>):
    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    fusion.yield
  }) : (!fusion.buffer<8xf32>) -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @untied_operand(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op operand #0 is not overwritten by any result}}
  %buf0 = "fusion.node"(%x) <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: 4>, reduction_ranges = array<i64>, tied_operands = array<i64: -1>}> ({
  ^bb0(%p0: index, %out: !fusion.buffer<4xf32>):
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    fusion.yield
  }) : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @block_args(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op body must take 1 loop variables and 1 output handles, but takes 1 arguments}}
  %buf0 = "fusion.node"() <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: 4>, reduction_ranges = array<i64>, tied_operands = array<i64: -1>}> ({
  ^bb0(%p0: index):
    fusion.yield
  }) : () -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @loop_var_type(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op loop variable #0 must have type index}}
  %buf0 = "fusion.node"() <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: 4>, reduction_ranges = array<i64>, tied_operands = array<i64: -1>}> ({
  ^bb0(%p0: i64, %out: !fusion.buffer<4xf32>):
    fusion.yield
  }) : () -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @handle_type(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op output handle #0 has type '!fusion.buffer<8xf32>' but the result has type '!fusion.buffer<4xf32>'}}
  %buf0 = "fusion.node"() <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: 4>, reduction_ranges = array<i64>, tied_operands = array<i64: -1>}> ({
  ^bb0(%p0: index, %out: !fusion.buffer<8xf32>):
    fusion.yield
  }) : () -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @never_stores(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op never stores to result #0}}
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @yield_operands(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op body must end with a fusion.yield without operands}}
  %buf0 = "fusion.node"() <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: 4>, reduction_ranges = array<i64>, tied_operands = array<i64: -1>}> ({
  ^bb0(%p0: index, %out: !fusion.buffer<4xf32>):
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    fusion.yield %0 : f32
  }) : () -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @reduce_in_pointwise(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    // expected-error @below {{'fusion.reduce' op requires a node with reduction ranges}}
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

// The node's name is checked for extern and nop nodes too.
fusion.graph @dup_extern_nop_name(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-note @below {{first used here}}
  %buf0 = fusion.extern "op0" "extern_kernels.mm"(%x) : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
  // expected-error @below {{'fusion.nop' op node name 'op0' is already used}}
  %buf1 = fusion.nop "op0"(%buf0) : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

// A masked value whose `other` varies with the reduction loop, mixed with
// the reduced value.
fusion.graph @masked_mixes_phases(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    %true = arith.constant true
    %2 = fusion.masked %true, %0 : f32 {
      fusion.yield %0 : f32
    }
    // expected-error @below {{'arith.addf' op mixes values computed inside the reduction loops with reduced values}}
    %3 = arith.addf %2, %1 : f32
    fusion.store %3, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

// A masked value takes the phase of what its region yields too: here it
// varies with the reduction loop, so the node may not store it.
fusion.graph @masked_yields_reduction_phase(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    %true = arith.constant true
    %zero = arith.constant 0.0 : f32
    %2 = fusion.masked %true, %zero : f32 {
      fusion.yield %0 : f32
    }
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
    // expected-error @below {{'fusion.store' op in a reduction node must store a reduced value at an index of pointwise loop variables}}
    fusion.store %2, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @nested_reduce(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    // expected-error @below {{'fusion.reduce' op reduces a value that is already reduced; nested reductions need separate nodes}}
    %2 = fusion.reduce max %1 : f32 -> f32
    fusion.store %2, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

// A reduction of a buffer (found by fuzz-generated: a semantic mutation
// swapped the reduced value for a graph input) crashed the lowering, which
// asked the buffer type for a bit width.
fusion.graph @reduce_buffer(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [] reduce [16] writes(%out : !fusion.buffer<i64>) {
    // expected-error @below {{'fusion.reduce' op reduces values of buffer element types only, got '!fusion.buffer<4xf32>'}}
    %0 = fusion.reduce argmax %x : !fusion.buffer<4xf32> -> i64
    fusion.store %0, %out[0] : !fusion.buffer<i64>
  }
  fusion.output
}

// -----

fusion.graph @reduce_to_index(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{'fusion.reduce' op returns values of buffer element types only, got 'index'}}
    %1 = fusion.reduce sum %0 : f32 -> index
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @store_unreduced(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    // expected-error @below {{'fusion.store' op in a reduction node must store a reduced value at an index of pointwise loop variables}}
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @store_at_reduction_index(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<32xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    // expected-error @below {{'fusion.store' op in a reduction node must store a reduced value at an index of pointwise loop variables}}
    fusion.store %1, %out[%p0 * 8 + %p1] : !fusion.buffer<32xf32>
  }
  fusion.output
}

// -----

fusion.graph @mixed_phases(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    // expected-error @below {{'arith.subf' op mixes values computed inside the reduction loops with reduced values}}
    %2 = arith.subf %0, %1 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @no_reduce(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op has reduction ranges but no fusion.reduce}}
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8] : !fusion.buffer<4x8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @not_in_graph() attributes {device = "cuda:0"} {
  fusion.output
}
func.func @node_outside_graph() {
  // expected-error @below {{'fusion.node' op expects parent op to be one of 'fusion.graph, fusion.fused, fusion.foreach, fusion.group'}}
  %buf0 = fusion.node "op0" () in [] writes(%out : !fusion.buffer<f32>) {
    %c = arith.constant 0.0 : f32
    fusion.store %c, %out[0] : !fusion.buffer<f32>
  }
  return
}

//===----------------------------------------------------------------------===//
// fusion.extern and fusion.nop
//===----------------------------------------------------------------------===//

// -----

fusion.graph @extern_mutates_non_input(%a: !fusion.buffer<4xf32>, %b: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{a mutated buffer must be one of the extern's inputs}}
  %buf0 = fusion.extern "op0" "aten.copy_"(%a) : (!fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32> mutates %b)
  fusion.output
}

// -----

fusion.graph @extern_no_name(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.extern' op needs a non-empty name}}
  %buf0 = fusion.extern "" "aten.relu"(%a) : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @extern_no_kernel(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.extern' op needs a non-empty kernel name}}
  %buf0 = fusion.extern "op0" ""(%a) : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @extern_unnamed(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{result #1 needs a name}}
  %buf:2 = fusion.extern "op0" "aten.split"(%a) : (!fusion.buffer<4xf32>) -> (!fusion.buffer<2xf32>, !fusion.buffer<2xf32>)
  fusion.output
}

// -----

fusion.graph @nop_no_name(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.nop' op needs a non-empty name}}
  %buf0 = fusion.nop ""(%a) : (!fusion.buffer<4xf32>) -> !fusion.buffer<2x2xf32>
  fusion.output
}

// -----

fusion.graph @nop_names(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.nop' op has 1 results but 0 buffer names}}
  %buf0 = fusion.nop "op0"(%a) {buffer_names = []} : (!fusion.buffer<4xf32>) -> !fusion.buffer<2x2xf32>
  fusion.output
}

//===----------------------------------------------------------------------===//
// Containers
//===----------------------------------------------------------------------===//

// -----

fusion.graph @fused_extern(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<4xf32>, !fusion.buffer<4xf32> {
    // expected-error @below {{'fusion.extern' op cannot be a member of fusion.fused; members are fusion.node}}
    %x = fusion.extern "op0" "aten.relu"(%a) {buffer_names = ["buf0"]} : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
    %y = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    fusion.yield %x, %y : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @fused_one_member(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.fused' op needs at least 2 members}}
  %buf0 = fusion.fused -> !fusion.buffer<4xf32> {
    %x = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    fusion.yield %x : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @fused_yield(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.fused -> !fusion.buffer<4xf32> {
    %x = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    %y = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    // expected-error @below {{'fusion.yield' op must yield the results of every member, in member order}}
    fusion.yield %y : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @fused_result_types(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.fused' op result types do not match the yielded values}}
  %buf0, %buf1 = "fusion.fused"() ({
    %x = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    %y = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    fusion.yield %x, %y : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
  }) : () -> (!fusion.buffer<4xf32>, !fusion.buffer<8xf32>)
  fusion.output
}

// -----

fusion.graph @fused_no_yield(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.fused' op body must end with fusion.yield}}
  fusion.fused {
    "other.end"() : () -> ()
  }
  fusion.output
}

// -----

fusion.graph @foreach_extern(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.foreach -> !fusion.buffer<4xf32>, !fusion.buffer<4xf32> {
    // expected-error @below {{'fusion.extern' op cannot be a member of fusion.foreach; members are fusion.node and fusion.fused}}
    %x = fusion.extern "op0" "aten.relu"(%a) {buffer_names = ["buf0"]} : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
    %y = fusion.extern "op1" "aten.relu"(%a) {buffer_names = ["buf1"]} : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
    fusion.yield %x, %y : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @foreach_dependent(%a: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.foreach -> !fusion.buffer<4xf32>, !fusion.buffer<4xf32> {
    // expected-note @below {{written here}}
    %x = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    %y = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf1"]} {
      // expected-error @below {{'fusion.load' op reads the result of 'op0', another member of the same fusion.foreach; its members run at the same time}}
      %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    fusion.yield %x, %y : !fusion.buffer<4xf32>, !fusion.buffer<4xf32>
  }
  fusion.output %buf1 : !fusion.buffer<4xf32>
}

// -----

fusion.graph @nested_group(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.group -> !fusion.buffer<4xf32> {
    // expected-error @below {{'fusion.group' op cannot be a member of fusion.group; members are scheduler nodes other than fusion.group}}
    %x = fusion.group -> !fusion.buffer<4xf32> {
      %y = fusion.extern "op0" "aten.relu"(%a) {buffer_names = ["buf0"]} : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
      fusion.yield %y : !fusion.buffer<4xf32>
    }
    fusion.yield %x : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @empty_group(%a: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.group' op needs at least 1 members}}
  fusion.group {
    fusion.yield
  }
  fusion.output
}

//===----------------------------------------------------------------------===//
// Loop body operations
//===----------------------------------------------------------------------===//

// -----

fusion.graph @load_type(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    // expected-error @below {{'buffer' must be strided buffer, but got 'memref<4xf32>'}}
    %0 = fusion.load %x[%p0] : memref<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @load_operand_type(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %c = arith.constant 1.0 : f32
    // expected-error @below {{'fusion.load' op operand #0 must be strided buffer, but got 'f32'}}
    %0 = "fusion.load"(%c, %p0) <{map = affine_map<(d0) -> (d0)>}> : (f32, index) -> f32
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @load_two_indices(%x: !fusion.buffer<4x4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<4xf32>) {
    // expected-error @below {{'fusion.load' op expects a single flat index, got 2 index results}}
    %0 = fusion.load %x[%p0, %p1] : !fusion.buffer<4x4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @load_arity(%x: !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4, 4] writes(%out : !fusion.buffer<16xf32>) {
    // expected-error @below {{'fusion.load' op index map takes 2 loop variables and up to 0 indirect indices but 1 operands were given}}
    %0 = "fusion.load"(%x, %p0) <{map = affine_map<(d0, d1) -> (d0 * 4 + d1)>}> : (!fusion.buffer<16xf32>, index) -> f32
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<16xf32>
  }
  fusion.output
}

// -----

fusion.graph @load_dim_not_loop(%x: !fusion.buffer<16xf32>, %i: !fusion.buffer<4xi64>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %i[%p0] : !fusion.buffer<4xi64>
    %1 = arith.index_cast %0 : i64 to index
    // expected-error @below {{'fusion.load' op index dimension #0 must be a loop variable of the enclosing fusion.node}}
    %2 = fusion.load %x[%1] : !fusion.buffer<16xf32>
    fusion.store %2, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @load_symbol_loop(%x: !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    // expected-error @below {{'fusion.load' op indirect index #0 is a loop variable; use it as a dimension instead}}
    %0 = fusion.load %x[symbol(%p0) * 4] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

// Complex buffers are read and written by externs only (Inductor falls
// back to ATen for complex tensors): no loop body moves their values.
fusion.graph @load_complex(%x: !fusion.buffer<4xcomplex<f32>>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    // expected-error @below {{'fusion.load' op moves a value of 'complex<f32>', which loop bodies do not compute with (complex buffers are read and written by externs only)}}
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xcomplex<f32>>
    %1 = arith.constant 1.0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @store_complex(%v: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xcomplex<f32>>) {
    %0 = fusion.load %v[%p0] : !fusion.buffer<4xf32>
    %1 = "test.make_complex"(%0, %0) : (f32, f32) -> complex<f32>
    // expected-error @below {{'fusion.store' op moves a value of 'complex<f32>', which loop bodies do not compute with (complex buffers are read and written by externs only)}}
    fusion.store %1, %out[%p0] : !fusion.buffer<4xcomplex<f32>>
  }
  fusion.output
}

// -----

fusion.graph @load_handle(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    // expected-error @below {{'fusion.load' op reads an output handle; read the buffer's previous version (the value the node mutates) instead}}
    %0 = fusion.load %out[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

func.func @load_outside(%x: !fusion.buffer<4xf32>, %i: index) -> f32 {
  // expected-error @below {{'fusion.load' op must be nested in a fusion.node}}
  %0 = fusion.load %x[%i] : !fusion.buffer<4xf32>
  return %0 : f32
}

// -----

fusion.graph @store_type(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    // expected-error @below {{'buffer' must be strided buffer, but got 'f32'}}
    fusion.store %0, %out[%p0] : f32
  }
  fusion.output
}

// -----

// A ui8 buffer holds i8 values: the stored value is signless.
fusion.graph @store_unsigned_value(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xui8>) {
    %0 = arith.constant 1 : i32
    // expected-error @below {{'fusion.store' op failed to verify that value type matches the buffer's value type}}
    "fusion.store"(%0, %out, %p0) <{map = affine_map<(d0) -> (d0)>}> : (i32, !fusion.buffer<4xui8>, index) -> ()
  }
  fusion.output
}

// -----

fusion.graph @store_value_type(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = arith.constant 1 : i32
    // expected-error @below {{'fusion.store' op failed to verify that value type matches the buffer's value type}}
    "fusion.store"(%0, %out, %p0) <{map = affine_map<(d0) -> (d0)>}> : (i32, !fusion.buffer<4xf32>, index) -> ()
  }
  fusion.output
}

// -----

fusion.graph @store_to_input(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    // expected-error @below {{'fusion.store' op must store to an output handle of the enclosing fusion.node}}
    fusion.store %0, %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @unknown_store_mode(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    // expected-error @below {{unknown store mode 'atomic_max'}}
    fusion.store %0, %out[%p0] atomic_max : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @store_in_masked(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %true = arith.constant true
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    %1 = fusion.masked %true, %0 : f32 {
      // expected-error @below {{'fusion.store' op must be directly in the body of a fusion.node, not in a nested region}}
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
      fusion.yield %0 : f32
    }
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @unknown_reduction(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{expected ::mlir::fusion::ReduceKind to be one of: sum, prod, max, min, argmax, argmin, any, xor_sum, welford_reduce, welford_combine, online_softmax_reduce}}
    // expected-error @below {{failed to parse Fusion_ReduceKindAttr parameter 'value'}}
    %1 = fusion.reduce mean %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @welford_arity(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{'fusion.reduce' op 'welford_reduce' takes 1 inputs and returns 3 results}}
    %1:2 = fusion.reduce welford_reduce %0 : f32 -> f32, f32
    fusion.store %1#0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @welford_combine_arity(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{'fusion.reduce' op 'welford_combine' takes 3 inputs and returns 3 results}}
    %1:3 = fusion.reduce welford_combine %0 : f32 -> f32, f32, f32
    fusion.store %1#0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @softmax_arity(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{'fusion.reduce' op 'online_softmax_reduce' takes 1 inputs and returns 2 results}}
    %1 = fusion.reduce online_softmax_reduce %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @sum_arity(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{'fusion.reduce' op 'sum' takes 1 inputs and returns 1 results}}
    %1 = fusion.reduce sum %0, %0 : f32, f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @argmax_type(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{'fusion.reduce' op 'argmax' returns an i64 position}}
    %1 = fusion.reduce argmax %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @any_type(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{'fusion.reduce' op 'any' reduces i1 values to i1}}
    %1 = fusion.reduce any %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @sum_types(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf64>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{'fusion.reduce' op inputs and results must all have the same type}}
    %1 = fusion.reduce sum %0 : f32 -> f64
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf64>
  }
  fusion.output
}

// -----

fusion.graph @welford_int(%x: !fusion.buffer<4x8xi32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xi32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xi32>
    // expected-error @below {{'fusion.reduce' op 'welford_reduce' needs floating-point values}}
    %1:3 = fusion.reduce welford_reduce %0 : i32 -> i32, i32, i32
    fusion.store %1#0, %out[%p0] : !fusion.buffer<4xi32>
  }
  fusion.output
}

// -----

fusion.graph @xor_float(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @below {{'fusion.reduce' op 'xor_sum' needs integer values}}
    %1 = fusion.reduce xor_sum %0 : f32 -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @reduce_in_masked(%x: !fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) {
    %true = arith.constant true
    %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    %1 = fusion.masked %true, %0 : f32 {
      // expected-error @below {{'fusion.reduce' op must be directly in the body of a fusion.node}}
      %2 = fusion.reduce sum %0 : f32 -> f32
      fusion.yield %0 : f32
    }
    %3 = fusion.reduce sum %1 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

func.func @reduce_outside(%x: f32) -> f32 {
  // expected-error @below {{'fusion.reduce' op must be nested in a fusion.node}}
  %0 = fusion.reduce sum %x : f32 -> f32
  return %0 : f32
}

// -----

fusion.graph @index_expr_two_results(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xi64>) {
    // expected-error @below {{'fusion.index_expr' op expects a single flat index, got 2 index results}}
    %0 = fusion.index_expr [%p0, %p0] : i64
    fusion.store %0, %out[%p0] : !fusion.buffer<4xi64>
  }
  fusion.output
}

// -----

fusion.graph @index_expr_type(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    // expected-error @below {{'fusion.index_expr' op result #0 must be 32-bit signless integer or 64-bit signless integer or index, but got 'f32'}}
    %0 = fusion.index_expr [%p0] : f32
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

func.func @masked_outside(%m: i1, %x: f32) -> f32 {
  // expected-error @below {{'fusion.masked' op must be nested in a fusion.node}}
  %0 = fusion.masked %m, %x : f32 {
    fusion.yield %x : f32
  }
  return %0 : f32
}

// -----

fusion.graph @masked_yield(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %true = arith.constant true
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    // expected-error @below {{'fusion.masked' op region must yield one value of type 'f32'}}
    %1 = fusion.masked %true, %0 : f32 {
      %c = arith.constant 0 : i32
      fusion.yield %c : i32
    }
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @masked_other(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %true = arith.constant true
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    %c = arith.constant 0 : i32
    // expected-error @below {{'fusion.masked' op failed to verify that all of {other, result} have same type}}
    %1 = "fusion.masked"(%true, %c) ({
      fusion.yield %0 : f32
    }) : (i1, i32) -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @cast_types(%x: !fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    // expected-error @below {{'fusion.cast' op converts between buffer element types only, got 'f32' to 'vector<4xf32>'}}
    %1 = fusion.cast %0 : f32 to vector<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output
}

// -----

fusion.graph @yield_parent() attributes {device = "cuda:0"} {
  fusion.output
}
func.func @f() {
  // expected-error @below {{'fusion.yield' op expects parent op to be one of 'fusion.node, fusion.masked, fusion.fused, fusion.foreach, fusion.group'}}
  "fusion.yield"() : () -> ()
}

// -----

func.func @output_parent() {
  // expected-error @below {{'fusion.output' op expects parent op 'fusion.graph'}}
  "fusion.output"() : () -> ()
}

// -----

fusion.graph @opaque_unnamed(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    // expected-error @below {{'fusion.opaque' op needs the name of an Inductor operation}}
    %1 = fusion.opaque ""(%0) : (f32) -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0 : !fusion.buffer<16xf32>
}

// -----

// Size symbols must be declared by the graph: in types...
// expected-error @below {{'fusion.graph' op uses size symbol s1 in an input type but the graph declares 1 (s0..s0)}}
fusion.graph @undeclared_type symbols(s0 = 8) (%x: !fusion.buffer<s1 x f32>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

fusion.graph @opaque_buffer_result(%x: !fusion.buffer<16xf32>) -> (!fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [16] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    // expected-error @below {{'fusion.opaque' op results are values, not buffers}}
    %1 = fusion.opaque "view"(%x) : (!fusion.buffer<16xf32>) -> !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output %buf0 : !fusion.buffer<16xf32>
}

// -----

// ... in loop sizes ...
fusion.graph @undeclared_range(%x: !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op uses size symbol s0 in its loop sizes but the graph declares no size symbols}}
  %buf0 = fusion.node "op0" (%p0) in [s0] writes(%out : !fusion.buffer<16xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<16xf32>
  }
  fusion.output
}

// -----

// ... and in indices.
fusion.graph @undeclared_index symbols(s0 = 4) (%x: !fusion.buffer<s0 x 4 x f32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [s0, 4] writes(%out : !fusion.buffer<s0 x 4 x f32>) {
    // expected-error @below {{'fusion.load' op uses size symbol s2 in its index but the graph declares 1 (s0..s0)}}
    %0 = fusion.load %x[%p0 * s2 + %p1] : !fusion.buffer<s0 x 4 x f32>
    fusion.store %0, %out[%p0 * 4 + %p1] : !fusion.buffer<s0 x 4 x f32>
  }
  fusion.output
}

// -----

// Sizes are expressions in size symbols, not in loop variables.
fusion.graph @loop_var_in_size(%x: !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op loop sizes cannot use loop variables}}
  %buf0 = "fusion.node"() <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: -9223372036854775808>, reduction_ranges = array<i64>, symbolic_loop_sizes = affine_map<(d0) -> (d0)>, tied_operands = array<i64: -1>}> ({
  ^bb0(%p0: index, %out: !fusion.buffer<16xf32>):
    fusion.yield
  }) : () -> !fusion.buffer<16xf32>
  fusion.output
}

// -----

// expected-error @below {{expected a size symbol 's<N>', got 'd0'}}
func.func private @layout_loop_var(!fusion.buffer<4 x f32, strides = [d0]>)

// -----

// expected-error @below {{size symbols are declared in order; expected 's0', got 's1'}}
fusion.graph @symbol_order symbols(s1 = 4) () attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// expected-error @below {{size hint must be non-negative}}
fusion.graph @negative_hint symbols(s0 = -1) () attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// expected-error @below {{'fusion.graph' op declares 1 size symbols but 2 symbol names}}
fusion.graph @symbol_names symbols(s0 = 4) () attributes {device = "cuda:0", symbol_names = ["s27", "s77"]} {
  fusion.output
}

// -----

// A hint that contradicts a static size: with s0 = 32 the node reads 32
// elements of a 16-element buffer.
fusion.graph @hint_contradicts_size symbols(s0 = 32) (%x: !fusion.buffer<16xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [s0] writes(%out : !fusion.buffer<s0 x f32>) {
    // expected-error @below {{'fusion.load' op reaches element 31 of a buffer of 16 elements at the size hints (s0 = 32): a hint contradicts a static size}}
    %0 = fusion.load %x[%p0] : !fusion.buffer<16xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<s0 x f32>
  }
  fusion.output
}

// -----

// What the verifier checks for static sizes holds at the size hints too,
// since the scheduler decides with them: 2^62 f32 elements at s0 = 2^62 are
// 2^64 bytes.
// expected-error @below {{'fusion.graph' op has a buffer of more bytes than int64 can count at the size hints (s0 = 4611686018427387904): '!fusion.buffer<s0 x f32>'}}
fusion.graph @bytes_overflow_at_hints symbols(s0 = 4611686018427387904) (%x: !fusion.buffer<s0 x f32>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// The buffer of a node's result, at s0 = 2^31 and s1 = 2^31: 2^62 i8 fit,
// 2^62 f32 do not.
fusion.graph @result_bytes_overflow_at_hints symbols(s0 = 2147483648, s1 = 2147483648) (%x: !fusion.buffer<s0 x s1 x i8>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op has a buffer of more bytes than int64 can count at the size hints (s0 = 2147483648, s1 = 2147483648): '!fusion.buffer<s0 x s1 x f32>'}}
  %buf0 = fusion.node "op0" (%p0, %p1) in [s0, s1] writes(%out : !fusion.buffer<s0 x s1 x f32>) {
    %0 = fusion.load %x[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x i8>
    %1 = arith.sitofp %0 : i8 to f32
    fusion.store %1, %out[%p0 * s1 + %p1] : !fusion.buffer<s0 x s1 x f32>
  }
  fusion.output
}

// -----

// Iterations: 2^32 * 2^32 at the hints. The buffers are fine (a single
// element read and written).
fusion.graph @iterations_overflow_at_hints symbols(s0 = 4294967296) (%x: !fusion.buffer<1xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op makes more iterations than int64 can count at the size hints (s0 = 4294967296)}}
  %buf0 = fusion.node "op0" (%p0, %p1) in [s0] reduce [s0] writes(%out : !fusion.buffer<1xf32>) {
    %0 = fusion.load %x[0] : !fusion.buffer<1xf32>
    %1 = fusion.reduce sum %0 : f32 -> f32
    fusion.store %1, %out[0] : !fusion.buffer<1xf32>
  }
  fusion.output
}

// -----

// Each buffer fits at the hint; together 4 * 2^61 bytes do not.
// expected-error @below {{'fusion.graph' op has buffers of more bytes together than int64 can count at the size hints (s0 = 2305843009213693952, s1 = ?)}}
fusion.graph @total_bytes_overflow_at_hints symbols(s0 = 2305843009213693952, s1) (%a: !fusion.buffer<s0 x i8>, %b: !fusion.buffer<s0 x i8>, %c: !fusion.buffer<s0 x i8>, %d: !fusion.buffer<s0 x i8>, %e: !fusion.buffer<s1 x f32>) attributes {device = "cuda:0"} {
  fusion.output
}

// -----

// Sizes have values: no division by zero, no symbol beyond s32767.
// expected-error @below {{the right operand of 'floordiv' must be positive}}
func.func private @size_divides_by_zero(!fusion.buffer<(s0 floordiv 0) x f32>)

// -----

// expected-error @below {{size symbol number 70000 is too large (at most 32767)}}
func.func private @size_symbol_too_large(!fusion.buffer<(s70000 + 1) x f32>)

// -----

fusion.graph @generic_loop_size_divides_by_zero symbols(s0 = 4) () attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op loop size s0 floordiv 0 divides by a non-positive constant or uses a size symbol beyond s32767}}
  %buf0 = "fusion.node"() <{buffer_names = ["buf0"], name = "op0", ranges = array<i64: -9223372036854775808>, reduction_ranges = array<i64>, symbolic_loop_sizes = affine_map<()[s0] -> (s0 floordiv 0)>, tied_operands = array<i64: -1>}> ({
  ^bb0(%p0: index, %out: !fusion.buffer<4xf32>):
    fusion.yield
  }) : () -> !fusion.buffer<4xf32>
  fusion.output
}

// -----

fusion.graph @scan_types(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0, %p1) in [1] reduce [8] writes(%o : !fusion.buffer<8xf32>) {
    %a = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    // expected-error @+1 {{'fusion.scan' op results must have the types of the inputs}}
    %s = fusion.scan "scan1"(%a) : (f32) -> i32
    %f = fusion.cast %s : i32 to f32
    fusion.store %f, %o[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %out : !fusion.buffer<8xf32>
}

// -----

fusion.graph @scan_arguments(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0, %p1) in [1] reduce [8] writes(%o : !fusion.buffer<8xf32>) {
    %a = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    // expected-error @+1 {{'fusion.scan' op combine function must take the partial tuple and the current tuple (2 arguments of the inputs' types)}}
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%b: f32):
      fusion.scan_yield %b : f32
    }
    fusion.store %s, %o[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %out : !fusion.buffer<8xf32>
}

// -----

fusion.graph @scan_yield(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0, %p1) in [1] reduce [8] writes(%o : !fusion.buffer<8xf32>) {
    %a = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%b: f32, %c: f32):
      %i = arith.fptosi %b : f32 to i32
      // expected-error @+1 {{'fusion.scan_yield' op must return a tuple of the scan's types}}
      fusion.scan_yield %i : i32
    }
    fusion.store %s, %o[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %out : !fusion.buffer<8xf32>
}

// -----

fusion.graph @concat_offsets_count(%x: !fusion.buffer<4xf32>, %y: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @+1 {{has 2 inputs but 1 input offsets}}
  %buf0 = fusion.nop "op0"(%x, %y) {input_offsets = affine_map<() -> (0)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

fusion.graph @concat_offsets_outside(%x: !fusion.buffer<4xf32>, %y: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @+1 {{places an input of 4 elements at offset 5 in a storage of 8 elements}}
  %buf0 = fusion.nop "op0"(%x, %y) {input_offsets = affine_map<() -> (0, 5)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

fusion.graph @concat_offsets_dtype(%x: !fusion.buffer<4xf32>, %y: !fusion.buffer<4xf16>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @+1 {{concatenates 'f16' into 'f32' storage}}
  %buf0 = fusion.nop "op0"(%x, %y) {input_offsets = affine_map<() -> (0, 4)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf16>) -> !fusion.buffer<8xf32>
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

fusion.graph @concat_offsets_results(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @+1 {{with input offsets has one result, not 2}}
  %buf0, %buf1 = fusion.nop "op0"(%x) {input_offsets = affine_map<() -> (0)>} : (!fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>)
  fusion.output %buf0 : !fusion.buffer<4xf32>
}

// -----

fusion.graph @concat_offsets_symbol(%x: !fusion.buffer<4xf32>, %y: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @+1 {{uses size symbol s0 in its input offsets but the graph declares no size symbols}}
  %buf0 = fusion.nop "op0"(%x, %y) {input_offsets = affine_map<()[s0] -> (0, s0)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  fusion.output %buf0 : !fusion.buffer<8xf32>
}
