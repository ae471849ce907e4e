// Scans the lowerings cannot emit are reported at the op, never lowered to
// a wrong value: without a combine function (Inductor's own dumps), and
// with one that does more than compute on its arguments.
// RUN: scheduler-opt %s -split-input-file --convert-fusion-to-loops -verify-diagnostics

fusion.graph @unknown(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%o : !fusion.buffer<4x8xf32>) {
    %a = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @+1 {{'fusion.scan' op 'scan1' has no combine function: Inductor's dump does not print it (the torch.compile backend traces it, docs/Importer.md)}}
    %s = fusion.scan "scan1"(%a) : (f32) -> f32
    fusion.store %s, %o[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
  }
  fusion.output %out : !fusion.buffer<4x8xf32>
}

// -----

fusion.graph @index_inside(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%o : !fusion.buffer<4x8xf32>) {
    %a = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @+1 {{'fusion.scan' op 'scan1' has a combine function holding 'fusion.index_expr', which has no lowering there (a combine function computes on its arguments)}}
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %i = fusion.index_expr [%p1] : i64
      %f = fusion.cast %i : i64 to f32
      %t = arith.addf %l, %f : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %s, %o[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
  }
  fusion.output %out : !fusion.buffer<4x8xf32>
}

// -----

fusion.graph @load_inside(%x: !fusion.buffer<4x8xf32>) -> (!fusion.buffer<4x8xf32>) attributes {device = "cuda:0"} {
  %out = fusion.node "op0" (%p0, %p1) in [4] reduce [8] writes(%o : !fusion.buffer<4x8xf32>) {
    %a = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
    // expected-error @+1 {{'fusion.scan' op 'scan1' has a combine function holding 'fusion.load', which has no lowering there (a combine function computes on its arguments)}}
    %s = fusion.scan "scan1"(%a) : (f32) -> f32 combine {
    ^bb0(%l: f32, %r: f32):
      %b = fusion.load %x[%p0] : !fusion.buffer<4x8xf32>
      %t = arith.addf %l, %b : f32
      fusion.scan_yield %t : f32
    }
    fusion.store %s, %o[%p0 * 8 + %p1] : !fusion.buffer<4x8xf32>
  }
  fusion.output %out : !fusion.buffer<4x8xf32>
}
