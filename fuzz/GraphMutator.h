//===- GraphMutator.h - Semantic mutations of fusion graphs -----*- C++ -*-===//
//
// Structure-aware fuzzing: rather than flipping bytes of MLIR text (which
// the parser rejects nine times in ten), the generated-graph target builds
// a valid graph with the random generator and changes what it means, one
// mutation at a time, driven by the fuzzer's bytes:
//   - numbers in attributes and types: loop ranges, sizes, strides,
//     offsets, index constants, extern indices (to 0, 1, odd sizes, powers
//     of two, the largest representable values, negatives);
//   - element types (f32, f16, bf16, f64, i64, i32, i8, i1);
//   - words: extern kinds, reduction kinds, index variables;
//   - operands: which buffer a load, store, extern or mutation names (the
//     graph's dependences).
// A mutation that no longer parses is dropped; the rest may or may not
// verify, so both the verifier and (for graphs that still verify) the
// passes see meaningful near-valid graphs.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_FUZZ_GRAPHMUTATOR_H
#define SCHEDULER_OPT_FUZZ_GRAPHMUTATOR_H

#include "mlir/IR/BuiltinOps.h"

#include <fuzzer/FuzzedDataProvider.h>

namespace mlir::fusion::fuzz {

/// Applies one semantic mutation, chosen by `bytes`, to the graphs of
/// `module`. Returns false when the chosen mutation did not apply.
bool mutateGraph(ModuleOp module, FuzzedDataProvider &bytes);

} // namespace mlir::fusion::fuzz

#endif // SCHEDULER_OPT_FUZZ_GRAPHMUTATOR_H
