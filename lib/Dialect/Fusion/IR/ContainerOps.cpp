//===- ContainerOps.cpp - fusion.fused, fusion.foreach, fusion.group --------===

#include "FusionOpsInternal.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::detail;

//===----------------------------------------------------------------------===//
// Containers: FusedOp, ForeachOp, GroupOp
//===----------------------------------------------------------------------===//

/// Checks the members of a container and that its terminator yields every
/// member result in order.
template <typename ContainerOp>
static LogicalResult
verifyContainer(ContainerOp op, unsigned minMembers,
                function_ref<bool(Operation *)> isAllowedMember,
                StringRef allowed) {
  Block &body = op.getBodyBlock();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return op.emitOpError("body must end with fusion.yield");
  SmallVector<Value> memberResults;
  unsigned numMembers = 0;
  for (Operation &member : op.getMembers()) {
    if (!isAllowedMember(&member))
      return member.emitOpError("cannot be a member of ")
             << op->getName() << "; members are " << allowed;
    ++numMembers;
    llvm::append_range(memberResults, member.getResults());
  }
  if (numMembers < minMembers)
    return op.emitOpError("needs at least ") << minMembers << " members";
  if (!llvm::equal(yield.getValues(), memberResults))
    return yield.emitOpError("must yield the results of every member, in "
                             "member order");
  if (yield.getValues().getTypes() != op->getResultTypes())
    return op.emitOpError("result types do not match the yielded values");
  return success();
}

/// The body block of a container and its members (the ops before the
/// terminator).
static Block &bodyOf(Operation *container) {
  return container->getRegion(0).front();
}

std::string mlir::fusion::detail::getContainerNodeName(Operation *container) {
  SmallVector<SchedulerNodeOpInterface> leaves;
  getContainerLeafNodes(container, leaves);
  return llvm::join(llvm::map_range(leaves,
                                    [](SchedulerNodeOpInterface leaf) {
                                      return leaf.getNodeName();
                                    }),
                    "_");
}

Value mlir::fusion::getMemberResult(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result || !isContainerNode(result.getOwner()))
    return value;
  return bodyOf(result.getOwner())
      .getTerminator()
      ->getOperand(result.getResultNumber());
}

Value mlir::fusion::lookThroughContainers(Value value) {
  for (Value member = getMemberResult(value); member != value;
       member = getMemberResult(value))
    value = member;
  return value;
}

std::pair<SchedulerNodeOpInterface, unsigned>
mlir::fusion::detail::getContainerMember(Operation *container,
                                         unsigned resultNumber) {
  auto yield = cast<YieldOp>(bodyOf(container).getTerminator());
  auto result = cast<OpResult>(yield.getValues()[resultNumber]);
  return {cast<SchedulerNodeOpInterface>(result.getOwner()),
          result.getResultNumber()};
}

void mlir::fusion::detail::getContainerLeafNodes(
    Operation *container, SmallVectorImpl<SchedulerNodeOpInterface> &leaves) {
  for (Operation &member : bodyOf(container).without_terminator())
    if (auto node = dyn_cast<SchedulerNodeOpInterface>(member))
      node.getLeafNodes(leaves);
}

bool mlir::fusion::detail::containerHasSideEffects(Operation *container) {
  return llvm::any_of(bodyOf(container).without_terminator(),
                      [](Operation &member) {
                        auto node = dyn_cast<SchedulerNodeOpInterface>(member);
                        return node && node.hasSideEffects();
                      });
}

void mlir::fusion::detail::setContainerResultNames(
    Operation *container, OpAsmSetValueNameFn setNameFn) {
  auto yield = dyn_cast<YieldOp>(bodyOf(container).back());
  if (!yield || yield.getValues().size() != container->getNumResults())
    return;
  for (auto [result, value] :
       llvm::zip(container->getResults(), yield.getValues())) {
    auto opResult = dyn_cast<OpResult>(value);
    if (!opResult)
      continue;
    if (auto member = dyn_cast<SchedulerNodeOpInterface>(opResult.getOwner()))
      if (StringAttr name = member.getBufferName(opResult.getResultNumber()))
        setNameFn(result, name.getValue());
  }
}

LogicalResult FusedOp::verify() {
  return verifyContainer(
      *this, 2, [](Operation *op) { return isa<NodeOp>(op); }, "fusion.node");
}

/// Calls `fn` on every fusion.load nested in `op`, in the order
/// Operation::walk visits them, until it returns true; returns whether it
/// did. A walk by hand: a member's body is most of the ops of a foreach,
/// and loads have no regions to enter.
template <typename Fn>
static bool anyNestedLoad(Operation *op, Fn &fn) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block) {
        if (auto load = dyn_cast<LoadOp>(nested)) {
          if (fn(load))
            return true;
        } else if (nested.getNumRegions() != 0 && anyNestedLoad(&nested, fn)) {
          return true;
        }
      }
  return false;
}

LogicalResult ForeachOp::verify() {
  if (failed(verifyContainer(
          *this, 1, [](Operation *op) { return isa<NodeOp, FusedOp>(op); },
          "fusion.node and fusion.fused")))
    return failure();
  // The members run at the same time (one combo kernel): none reads what
  // another writes.
  for (Operation &member : getMembers()) {
    auto readsAnotherMember = [&](LoadOp load) {
      Operation *producer = load.getBuffer().getDefiningOp();
      while (producer && producer->getParentOp() != getOperation())
        producer = producer->getParentOp();
      if (!producer || producer == &member)
        return false;
      InFlightDiagnostic diag =
          load.emitOpError("reads the result of '")
          << cast<SchedulerNodeOpInterface>(producer).getNodeName()
          << "', another member of the same fusion.foreach; its members run "
             "at the same time";
      diag.attachNote(producer->getLoc()) << "written here";
      return true;
    };
    if (anyNestedLoad(&member, readsAnotherMember))
      return failure();
  }
  return success();
}

LogicalResult GroupOp::verify() {
  return verifyContainer(
      *this, 1,
      [](Operation *op) {
        return isa<SchedulerNodeOpInterface>(op) && !isa<GroupOp>(op);
      },
      "scheduler nodes other than fusion.group");
}
