//===- FusionDialect.cpp - The fusion dialect -----------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h"

#include "mlir/Interfaces/FoldInterfaces.h"

using namespace mlir;
using namespace mlir::fusion;

#include "scheduler-opt/Dialect/Fusion/IR/FusionOpsDialect.cpp.inc"

namespace {
/// Folding (e.g. in canonicalize) hoists constants to the closest region the
/// dialect accepts. Graph regions hold only scheduler nodes, so constants go
/// into the body of the node that uses them.
struct FusionFoldInterface : public DialectFoldInterface {
  using DialectFoldInterface::DialectFoldInterface;

  bool shouldMaterializeInto(Region *region) const final {
    return isa<NodeOp>(region->getParentOp());
  }
};
} // namespace

void FusionDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.cpp.inc"
      >();
  addInterfaces<FusionFoldInterface>();
}
