//===- PTXStores.h - kernels' global stores as inline PTX -------*- C++ -*-===//
//
// The one emitter of the inline-PTX global stores that --fusion-to-ptx
// writes where NVPTX has no form of its own: predicated stores and
// reductions (PredicateStores.cpp) and evict-first stores (CacheHints.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_PIPELINES_PTXSTORES_H
#define SCHEDULER_OPT_PIPELINES_PTXSTORES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::fusion {

/// A stored value as PTX registers: `words` stored as `storedBits` each,
/// with their inline-asm constraint.
struct StoreWords {
  SmallVector<Value> words;
  int64_t storedBits;
  StringRef constraint;
};

/// The inline-asm constraint of a register holding `type`: f32 and f64
/// values stay floats (no bitcast for LLVM to fold into integer code).
StringRef getPTXConstraint(Type type);

/// True when `address` points into global memory: a global pointer, or a
/// generic one reached from a kernel argument (the storages) through
/// element offsets. A generic pointer may also hold a thread's stack array
/// (a sort's row), which `st.global` must not write.
bool isGlobalAddress(Value address);

/// The registers of `store`'s value when the store has a PTX form
/// (`st.global`): a plain store of an 8- to 64-bit scalar, or of a 32-,
/// 64- or 128-bit vector aligned to its size, into global memory. 1- and
/// 8-bit values are widened to 16-bit registers, which `st.b8` truncates;
/// vectors of narrower elements are packed into 32-bit words. Without
/// `emit` only the check is made; with it, the casts and extractions are
/// built there.
std::optional<StoreWords> getStoreWords(LLVM::StoreOp store, OpBuilder *emit);

/// `instruction [address], words;` as inline PTX with side effects at
/// `b`'s insertion point, run under `predicate` when one is given (its
/// negation with `negated`). A generic `address` is cast to global memory
/// first: LLVM folds the cast into the kernel argument's own (ld.param,
/// cvta.to.global).
void emitPTXStoreInstruction(OpBuilder &b, Location loc,
                             StringRef instruction, Value address,
                             const StoreWords &value, Value predicate = {},
                             bool negated = false);

/// `store`, which has a PTX form (getStoreWords), as
/// `st.global[.cs][.vN].bW`: evict-first with `evictFirst`, under
/// `predicate` when one is given (its negation with `negated`). The store
/// itself is left for the caller to erase.
void emitPTXStore(OpBuilder &b, LLVM::StoreOp store, bool evictFirst,
                  Value predicate = {}, bool negated = false);

} // namespace mlir::fusion

#endif // SCHEDULER_OPT_PIPELINES_PTXSTORES_H
