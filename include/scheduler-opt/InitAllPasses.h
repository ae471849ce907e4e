//===- InitAllPasses.h - Register scheduler-opt's passes --------*- C++ -*-===//
//
// The pass entry point for compilers that link scheduler-opt, as
// mlir/InitAllPasses.h is for MLIR's own passes. After
// `mlir::fusion::registerAllPasses()`, textual pipelines may name every
// fusion pass and pipeline next to upstream ones:
//
//   builtin.module(fusion-schedule, convert-fusion-to-loops, canonicalize)
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_INITALLPASSES_H
#define SCHEDULER_OPT_INITALLPASSES_H

namespace mlir {
namespace fusion {

/// Registers the scheduling passes (fusion-topological-sort, ...), the
/// conversions (convert-fusion-to-gpu, convert-fusion-to-loops, ...) and the
/// pipelines (fusion-schedule, fusion-to-ptx, fusion-to-cpu,
/// fusion-loops-to-llvm) with the global pass registry. Calling it more than
/// once is harmless.
void registerAllPasses();

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_INITALLPASSES_H
