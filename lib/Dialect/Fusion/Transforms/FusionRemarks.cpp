//===- FusionRemarks.cpp - The fusion pass's explaining remarks -----------===//

#include "scheduler-opt/Dialect/Fusion/Transforms/FusionRemarks.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/FusionPlanner.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fusion;

/// Attaches `data` to the diagnostic as its metadata.
static void attach(InFlightDiagnostic &diag, DictionaryAttr data) {
  diag.getUnderlyingDiagnostic()->getMetadata().push_back(
      DiagnosticArgument(data));
}

void mlir::fusion::emitRefusalRemark(Location loc, StringRef first,
                                     StringRef second, StringRef reason,
                                     StringRef message) {
  InFlightDiagnostic diag = mlir::emitRemark(loc, "not fusing ")
                            << first << " with " << second << ": " << message;
  if (!reason.empty())
    diag << " [" << reason << "]";
  Builder b(loc.getContext());
  attach(diag, b.getDictionaryAttr({
                   b.getNamedAttr("kind", b.getStringAttr("refusal")),
                   b.getNamedAttr("first", b.getStringAttr(first)),
                   b.getNamedAttr("second", b.getStringAttr(second)),
                   b.getNamedAttr("reason", b.getStringAttr(reason)),
                   b.getNamedAttr("message", b.getStringAttr(message)),
               }));
}

void mlir::fusion::emitFusionSummaryRemark(Location loc,
                                           const FusionPlan &plan) {
  Builder b(loc.getContext());
  SmallVector<std::string> counts;
  SmallVector<NamedAttribute> countAttrs;
  for (unsigned r = 0; r < kNumRefusalReasons; ++r) {
    if (!plan.refusalCounts[r])
      continue;
    StringRef key = getRefusalKey(static_cast<RefusalReason>(r));
    counts.push_back((key + "=" + Twine(plan.refusalCounts[r])).str());
    countAttrs.push_back(
        b.getNamedAttr(key, b.getI64IntegerAttr(plan.refusalCounts[r])));
  }
  int64_t nodes = plan.groups.size() + plan.fusions;
  InFlightDiagnostic diag =
      mlir::emitRemark(loc, "fused ")
      << nodes << " nodes into " << plan.groups.size() << " in "
      << plan.rounds << " rounds (" << plan.fusions << " fusions, "
      << plan.candidatesScored << " candidate pairs scored); peak memory "
      << plan.peakBytesBefore << " -> " << plan.peakBytesAfter
      << " bytes; refusals: "
      << (counts.empty() ? std::string("none") : llvm::join(counts, ", "));
  auto integer = [&](StringRef name, int64_t value) {
    return b.getNamedAttr(name, b.getI64IntegerAttr(value));
  };
  attach(diag,
         b.getDictionaryAttr({
             b.getNamedAttr("kind", b.getStringAttr("summary")),
             integer("nodes", nodes),
             integer("kernels", plan.groups.size()),
             integer("rounds", plan.rounds),
             integer("fusions", plan.fusions),
             integer("candidates_scored", plan.candidatesScored),
             integer("peak_bytes_before", plan.peakBytesBefore),
             integer("peak_bytes_after", plan.peakBytesAfter),
             b.getNamedAttr("refusals", b.getDictionaryAttr(countAttrs)),
         }));
}

DictionaryAttr mlir::fusion::getFusionRemarkData(Diagnostic &diag) {
  for (DiagnosticArgument &arg : diag.getMetadata()) {
    if (arg.getKind() != DiagnosticArgument::DiagnosticArgumentKind::Attribute)
      continue;
    auto data = dyn_cast<DictionaryAttr>(arg.getAsAttribute());
    if (data && data.getAs<StringAttr>("kind"))
      return data;
  }
  return nullptr;
}
