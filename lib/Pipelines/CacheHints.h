//===- CacheHints.h - cache hints for kernels' streamed accesses -*- C++ -*-===//
//
// --fusion-to-ptx's cache-hints step (CacheHints.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_PIPELINES_CACHEHINTS_H
#define SCHEDULER_OPT_PIPELINES_CACHEHINTS_H

#include "scheduler-opt/Pipelines/LoweringPipelines.h"

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::fusion {

/// On a gpu.module in the LLVM dialect: with `hints` Loads or All, each
/// `nontemporal` llvm.load of a 4- to 16-byte value becomes
/// `ld.global.nc.L1::no_allocate`; with Stores or All, each `nontemporal`
/// llvm.store with a PTX form `st.global.cs` (inline PTX, PTXStores.h). The kernel emitter marks as
/// nontemporal only the loads of a row's own elements from a storage the
/// kernel does not write (so the read-only path is legal) and the vector
/// stores of its results; accesses left marked lose the mark in NVPTX.
std::unique_ptr<Pass> createPTXCacheHintsPass(CacheHints hints);

/// Whether `hints` covers the row's streamed loads (Loads or All).
inline bool hintsLoads(CacheHints hints) {
  return hints == CacheHints::Loads || hints == CacheHints::All;
}

/// Whether `hints` covers vector stores (Stores or All).
inline bool hintsStores(CacheHints hints) {
  return hints == CacheHints::Stores || hints == CacheHints::All;
}

} // namespace mlir::fusion

#endif // SCHEDULER_OPT_PIPELINES_CACHEHINTS_H
