// The operand constraint of downstream.num_elements is FusionTypes.td's
// Fusion_BufferType, summary and all.
// RUN: downstream-opt %s --verify-diagnostics

func.func @not_a_buffer(%m: memref<4xf32>) -> index {
  // expected-error @+1 {{operand #0 must be strided buffer, but got 'memref<4xf32>'}}
  %n = "downstream.num_elements"(%m) : (memref<4xf32>) -> index
  return %n : index
}
