// Graphs the lowerings cannot handle fail with a diagnostic on the
// offending op; both lowerings plan graphs and kernels the same way.
// RUN: scheduler-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --convert-fusion-to-gpu
// RUN: scheduler-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --convert-fusion-to-loops

fusion.graph @unknown_op(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    // expected-error @below {{'test.frobnicate' op has no lowering from a fusion.node body}}
    %1 = "test.frobnicate"(%0) : (f32) -> f32
    fusion.store %1, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

// ops.rand_eager (a later development line's CUDA-eager-compatible random
// numbers; not in PyTorch 2.11.0, docs/Importer.md) imports by name: the
// mapping of (seed, base_offset, threads_per_round, tid, vec) to Philox
// words is in a Triton helper none of the sources at hand has.
fusion.graph @rand_eager(%seed: !fusion.buffer<1xi64>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %seed[0] : !fusion.buffer<1xi64>
    %1 = fusion.index_expr [0] : i64
    %2 = fusion.index_expr [128] : i64
    %3 = fusion.index_expr [%p0 floordiv 4] : i64
    %4 = fusion.index_expr [%p0 mod 4] : i64
    // expected-error @below {{'fusion.opaque' op 'rand_eager' (Inductor's ops.rand_eager) has no lowering}}
    %5 = fusion.opaque "rand_eager"(%0, %1, %2, %3, %4) : (i64, i64, i64, i64, i64) -> f32
    fusion.store %5, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

fusion.graph @rand_i64(%seed: !fusion.buffer<1xi64>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %seed[0] : !fusion.buffer<1xi64>
    %1 = fusion.index_expr [%p0] : i64
    // expected-error @below {{'fusion.rand' op with a 64-bit offset has no lowering; Triton's tl.rand takes 32-bit offsets}}
    %2 = fusion.rand %0, %1 : i64, i64 -> f32
    fusion.store %2, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

// A member whose iterations are neither the group's rows nor its elements.
fusion.graph @unmappable(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4xf32>, !fusion.buffer<3xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<4xf32>, !fusion.buffer<3xf32> {
    %a = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
    }
    // expected-error @below {{'fusion.node' op runs 3 iterations, which do not map onto its kernel's 4 rows of 8 elements}}
    %b = fusion.node "op1" (%p0) in [3] writes(%out : !fusion.buffer<3xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<4x8xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<3xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<4xf32>, !fusion.buffer<3xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<4xf32>, !fusion.buffer<3xf32>
}

// -----

// With size symbols, iterations map onto the kernel only where the sizes
// are equal for every value of the symbols, as Inductor decides: s1 rows
// are not the kernel's s0 rows, although both hints are 8.
fusion.graph @symbolic_unmappable symbols(s0 = 8, s1 = 8) (%x: !fusion.buffer<s0 x 8 x f32>) -> (!fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32> {
    %a = fusion.node "op0" (%p0, %p1) in [s0] reduce [8] writes(%out : !fusion.buffer<s0 x f32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<s0 x 8 x f32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<s0 x f32>
    }
    // expected-error @below {{'fusion.node' op runs s1 iterations, which do not map onto its kernel's s0 rows of 8 elements}}
    %b = fusion.node "op1" (%p0) in [s1] writes(%out : !fusion.buffer<s1 x f32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %a[%p0] : !fusion.buffer<s0 x f32>
      fusion.store %0, %out[%p0] : !fusion.buffer<s1 x f32>
    }
    fusion.yield %a, %b : !fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<s0 x f32>, !fusion.buffer<s1 x f32>
}

// -----

// Two reductions over different row lengths cannot share a kernel.
fusion.graph @two_row_lengths(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4xf32>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<4xf32>, !fusion.buffer<8xf32> {
    %a = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
    }
    // expected-error @below {{'fusion.node' op reduces 4 elements in each of 8 rows, but its kernel runs 4 rows of 8 elements}}
    %b = fusion.node "op1" (%p0, %p1) in [8] reduce [4] writes(%out : !fusion.buffer<8xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p1 * 8 + %p0] : !fusion.buffer<4x8xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<8xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<4xf32>, !fusion.buffer<8xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<4xf32>, !fusion.buffer<8xf32>
}

// -----

// A reader of an in-group buffer that reads another element than the one
// its iteration wrote: keeping the buffer in registers would be wrong.
fusion.graph @shifted_read(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<8xf32>, !fusion.buffer<8xf32> {
    %a = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
    }
    %b = fusion.node "op1" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) attributes {buffer_names = ["buf1"]} {
      // expected-error @below {{'fusion.load' op reads 'buf0' at index -x + 7 of the group's (x, r) space, but 'op0' writes index x there}}
      %0 = fusion.load %a[7 - %p0] : !fusion.buffer<8xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>
  }
  fusion.output %buf1 : !fusion.buffer<8xf32>
}

// -----

// A row value read back per element before the reduction that produces it
// finished would need the whole row; a per-element value read per row is
// refused as well.
fusion.graph @element_to_row(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1, %buf2 = fusion.fused -> !fusion.buffer<4xf32>, !fusion.buffer<4x8xf32>, !fusion.buffer<4xf32> {
    %s = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      %1 = fusion.reduce sum %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4xf32>
    }
    %e = fusion.node "op1" (%p0, %p1) in [4, 8] writes(%out : !fusion.buffer<4x8xf32>) attributes {buffer_names = ["buf1"]} {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
      fusion.store %0, %out[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    }
    %r = fusion.node "op2" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) attributes {buffer_names = ["buf2"]} {
      // expected-error @below {{'fusion.load' op reads 'buf1' at index x * 8 of the group's (x, r) space, but 'op1' writes index x * 8 + r there}}
      %0 = fusion.load %e[%p0 * 8] : !fusion.buffer<4x8xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
    }
    fusion.yield %s, %e, %r : !fusion.buffer<4xf32>, !fusion.buffer<4x8xf32>, !fusion.buffer<4xf32>
  }
  fusion.output %buf2 : !fusion.buffer<4xf32>
}

// -----

// An in-group buffer accumulated atomically has no single stored value.
fusion.graph @atomic_producer(%x: !fusion.buffer<8xf32>, %acc: !fusion.buffer<2xf32>) -> (!fusion.buffer<2xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.fused -> !fusion.buffer<2xf32>, !fusion.buffer<2xf32> {
    %a = fusion.node "op0" (%p0) in [2] writes(%out : !fusion.buffer<2xf32> mutates %acc) attributes {buffer_names = ["buf0"]} {
      %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
      fusion.store %0, %out[%p0] atomic_add : !fusion.buffer<2xf32>
    }
    %b = fusion.node "op1" (%p0) in [2] writes(%out : !fusion.buffer<2xf32>) attributes {buffer_names = ["buf1"]} {
      // expected-error @below {{'fusion.load' op reads 'buf0' inside its fused group, but 'op0' does not write it with one plain store at an index of its loop variables; it cannot be kept in registers}}
      %0 = fusion.load %a[%p0] : !fusion.buffer<2xf32>
      fusion.store %0, %out[%p0] : !fusion.buffer<2xf32>
    }
    fusion.yield %a, %b : !fusion.buffer<2xf32>, !fusion.buffer<2xf32>
  }
  fusion.output %buf1 : !fusion.buffer<2xf32>
}

// -----

// An in-place update that reads the storage at another index races with
// the threads that overwrite it.
fusion.graph @inplace_shift(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32> mutates %x) {
    // expected-error @below {{'fusion.load' op reads the storage that 'op0' overwrites in place at another index; other threads of the kernel may already have overwritten it}}
    %0 = fusion.load %x[(%p0 + 1) mod 8] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

// The lowering runs nodes in the graph's order, which must respect the
// dependences.
fusion.graph @out_of_order(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.node' op runs before 'op0', which it depends on; the lowering runs nodes in the graph's order (run fusion-topological-sort first)}}
  %buf1 = fusion.node "op1" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %buf0[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
  }
  %buf0 = fusion.node "op0" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>
  }
  fusion.output %buf1 : !fusion.buffer<8xf32>
}

// -----

fusion.graph @concat_view(%a: !fusion.buffer<4xf32>, %b: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.nop' op aliases 2 buffers; only views of one buffer and concatenations with known input offsets have a lowering}}
  %buf0 = fusion.nop "op0"(%a, %b) : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  fusion.output %buf0 : !fusion.buffer<8xf32>
}

// -----

// The inputs of a concatenation are moved into its storage by
// fusion-place-concat-inputs, which the lowering pipelines run first.
fusion.graph @concat_unplaced(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<4xf32>
    fusion.store %0, %out[%p0] : !fusion.buffer<4xf32>
  }
  // expected-error @below {{'fusion.nop' op has input 1 outside its storage: run fusion-place-concat-inputs before the lowering}}
  %buf2 = fusion.nop "op2"(%buf0, %buf1) {input_offsets = affine_map<() -> (0, 4)>} : (!fusion.buffer<4xf32>, !fusion.buffer<4xf32>) -> !fusion.buffer<8xf32>
  fusion.output %buf2 : !fusion.buffer<8xf32>
}

// -----

// A graph input has its own storage: the concatenation cannot hold it.
fusion.graph @concat_of_input(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.nop' op has input 0, which is not the fresh result of a fusion.node; only those can be computed into the concatenation's storage}}
  %buf0 = fusion.nop "op0"(%x) {input_offsets = affine_map<() -> (0)>} : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xf32>
  fusion.output %buf0 : !fusion.buffer<4xf32>
}

// -----

fusion.graph @bitcast_view(%a: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xi32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.nop' op reinterprets 'f32' storage as 'i32'; views have a lowering only when the element type is kept}}
  %buf0 = fusion.nop "op0"(%a) : (!fusion.buffer<4xf32>) -> !fusion.buffer<4xi32>
  fusion.output %buf0 : !fusion.buffer<4xi32>
}

// -----

// Only `multi_output` externs read a tuple: another extern would need
// storage for it.
fusion.graph @tuple_read_by_kernel(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.extern "op0" "aten.split_like"(%x) : (!fusion.buffer<8xf32>) -> !fusion.multi_output
  // expected-error @below {{'fusion.extern' op takes a !fusion.multi_output; only 'multi_output' externs read tuples}}
  %buf1 = fusion.extern "op1" "aten.consume"(%buf0) : (!fusion.multi_output) -> !fusion.buffer<8xf32>
  fusion.output %buf1 : !fusion.buffer<8xf32>
}

// -----

fusion.graph @tuple_element_twice(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  // expected-error @below {{'fusion.extern' op has its element 0 extracted twice}}
  %buf0 = fusion.extern "op0" "aten.split_like"(%x) : (!fusion.buffer<8xf32>) -> !fusion.multi_output
  %buf1 = fusion.extern "op1" "multi_output"(%buf0) {index = 0 : i64} : (!fusion.multi_output) -> !fusion.buffer<8xf32>
  %buf2 = fusion.extern "op2" "multi_output"(%buf0) {index = 0 : i64} : (!fusion.multi_output) -> !fusion.buffer<8xf32>
  fusion.output %buf1, %buf2 : !fusion.buffer<8xf32>, !fusion.buffer<8xf32>
}

// -----

fusion.graph @tuple_element_without_index(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.extern "op0" "aten.split_like"(%x) : (!fusion.buffer<8xf32>) -> !fusion.multi_output
  // expected-error @below {{'fusion.extern' op extracts a tuple element: it needs one !fusion.multi_output operand, one buffer result and an integer 'index'}}
  %buf1 = fusion.extern "op1" "multi_output"(%buf0) : (!fusion.multi_output) -> !fusion.buffer<8xf32>
  fusion.output %buf1 : !fusion.buffer<8xf32>
}
