//===- PredicateStores.h - guarded stores as predicated PTX -----*- C++ -*-===//
//
// --fusion-to-ptx's predicate-stores step (PredicateStores.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_PIPELINES_PREDICATESTORES_H
#define SCHEDULER_OPT_PIPELINES_PREDICATESTORES_H

#include "scheduler-opt/Pipelines/LoweringPipelines.h"

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::fusion {

/// On a gpu.module in the LLVM dialect: each conditional branch whose one
/// side holds only stores (of 8- to 64-bit scalars, or 4- to 16-byte
/// vectors aligned to their size), atomic adds whose result is unused (of
/// f32, f64, i32 or i64; inline PTX of one instruction, such as the
/// lowering's vector atomic adds) and speculatable ops, and rejoins the
/// other side, becomes straight-line code whose stores and atomic adds are
/// predicated inline PTX (`@%p st.global.b64 [...]`, `@%p
/// red.global.add.f32 [...]`), as Triton writes its masked stores and
/// atomics. With a branch, LLVM sinks the loads the stores use below the
/// bounds test (their only users are there); predicated, the loads stay
/// where the lowering issued them. Stores `nontemporal` under `hints`
/// Stores or All are evict-first (`st.global.cs`), as CacheHints.h writes
/// the unguarded ones.
std::unique_ptr<Pass> createPTXPredicateStoresPass(CacheHints hints);

} // namespace mlir::fusion

#endif // SCHEDULER_OPT_PIPELINES_PREDICATESTORES_H
