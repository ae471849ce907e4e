//===- FusionRemarks.h - The fusion pass's explaining remarks ---*- C++ -*-===//
//
// With `explain`, the fusion pass emits a remark per refused pair and one
// summary. Each remark carries its fields as a DictionaryAttr in the
// diagnostic's metadata (Diagnostic::getMetadata), so that tools such as
// scheduler-corpus-bench read them as data instead of parsing the message:
//
//   refusal: {kind = "refusal", first, second, reason (the RefusalReason's
//             key, empty when there is none), message}
//   summary: {kind = "summary", nodes, kernels, rounds, fusions,
//             candidates_scored, peak_bytes_before, peak_bytes_after,
//             refusals = {<reason key> = <count>, ...}}
//
// The message says the same for people:
//   not fusing <first> with <second>: <message> [<reason>]
//   fused <nodes> nodes into <kernels> in <rounds> rounds (...); ...
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_FUSIONREMARKS_H
#define SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_FUSIONREMARKS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir {
namespace fusion {

struct FusionPlan;

/// Emits the remark refusing to fuse the groups named `first` and `second`;
/// `reason` is a RefusalReason's key (or empty), `message` its text.
void emitRefusalRemark(Location loc, StringRef first, StringRef second,
                       StringRef reason, StringRef message);

/// Emits the summary remark of a fusion plan.
void emitFusionSummaryRemark(Location loc, const FusionPlan &plan);

/// The data of a remark emitted by the functions above, or null.
DictionaryAttr getFusionRemarkData(Diagnostic &diag);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_FUSIONREMARKS_H
