//===- InductorFormat.h - Print dependences as Inductor does ----*- C++ -*-===//
//
// Formats dependences, index expressions and node users the way Inductor's
// debug dumps (`ir_pre_fusion.txt`, `ir_post_fusion.txt`) print them, so a
// printout of the dependence analysis compares line by line with a dump.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_TARGET_INDUCTOR_INDUCTORFORMAT_H
#define SCHEDULER_OPT_TARGET_INDUCTOR_INDUCTORFORMAT_H

#include "scheduler-opt/Analysis/DependenceGraph.h"

#include "mlir/IR/AffineExpr.h"

#include <string>

namespace mlir {
namespace fusion {

/// Formats an index expression as sympy prints Inductor's indices:
/// dimensions are `d<k>`, symbols `tmp<k>`, terms ordered by variable name
/// with the constant last, `floordiv` as `(x//c)` and `mod` as
/// `ModularIndexing(x, div, mod)`: `4096*d0 + d1`, `d1 + 256*tmp0 + 32768`.
/// The first `numSizeSymbols` symbols are size symbols, `s<k>`; the
/// indirect indices follow them (`d0*s1 + d1`).
std::string formatInductorIndex(AffineExpr expr, unsigned numSizeSymbols = 0);

/// Formats a dependence as Inductor's repr does:
/// `MemoryDep('buf0', d0, {d0: 64})`, `StarDep(name='buf7', mode=None)`,
/// `WeakDep(name='buf65', mutating_buf='buf97', is_fake=True)`.
std::string formatInductorDep(Attribute dep, unsigned numSizeSymbols = 0);

/// Formats a set of dependences as Inductor's `pformat`: sorted by their
/// text and laid out by `pprint` at width 80 (long lists start on a new,
/// indented line).
std::string formatInductorDepSet(ArrayRef<Attribute> deps,
                                 unsigned numSizeSymbols = 0);

/// Formats a buffer's users as `SchedulerBuffer.debug_str` does, one user
/// per line when there are several, starting with `<name>.users = `.
std::string formatInductorUsers(StringRef bufferName, ArrayRef<NodeUser> users);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_TARGET_INDUCTOR_INDUCTORFORMAT_H
