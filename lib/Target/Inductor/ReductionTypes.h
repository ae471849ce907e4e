//===- ReductionTypes.h - Inductor's reduction types -----------*- C++ -*-===//
//
// Internal to SchedulerOptInductorImport: the fusion.reduce kind of each of
// Inductor's reduction types (ImportOps.cpp), for the importer and its
// import table.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_REDUCTIONTYPES_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_REDUCTIONTYPES_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionAttrs.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir {
namespace fusion {
namespace inductor {

/// An Inductor reduction type imported as a fusion.reduce kind of another
/// name (`dot` as `sum`).
struct ReductionAlias {
  llvm::StringLiteral name;
  ReduceKind kind;
};
llvm::ArrayRef<ReductionAlias> getReductionAliases();

/// The fusion.reduce kind of Inductor's reduction type `name`, or none.
std::optional<ReduceKind> lookupReductionType(llvm::StringRef name);

} // namespace inductor
} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_REDUCTIONTYPES_H
