//===- ReductionPhases.cpp - Reduction phases of a node body ----------------===
//
// A dataflow over a fusion.node body that tells, for every value, whether
// it varies with the pointwise loops only, with the reduction loops too, or
// is a reduced value; the node verifier uses it to reject bodies that mix
// the phases.
//
//===----------------------------------------------------------------------===//

#include "FusionOpsInternal.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h"
#include "scheduler-opt/Support/WalkPostOrder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::detail;

namespace {
/// Where a value of a node body varies: only with the pointwise loops, with
/// the reduction loops too (before the reduction), or per pointwise
/// iteration after a `fusion.reduce` combined the reduction loops away.
enum class Phase { Pointwise, Reduction, Reduced };

/// Values hashed as DenseMap hashes pointers, `(p >> 4) ^ (p >> 9)`: a few
/// instructions where mlir::hash_value's mix of the pointer takes about
/// twenty, for the two or three lookups of every op of a reduction body.
struct ValuePointerInfo : llvm::DenseMapInfo<Value> {
  static unsigned getHashValue(Value value) {
    return llvm::DenseMapInfo<void *>::getHashValue(value.getAsOpaquePointer());
  }
};
} // namespace

/// walkPostOrderUntil with a visit that interrupts as Block::walk's do.
template <typename Fn>
static bool walkPostOrder(Block &block, Fn &fn) {
  auto untilInterrupted = [&](Operation *op) {
    return fn(op).wasInterrupted();
  };
  return walkPostOrderUntil(block, untilInterrupted);
}

/// Checks that values from before and after the reductions are not mixed,
/// that reductions only occur in reduction nodes, and that a reduction
/// node stores reduced values at pointwise indices.
LogicalResult mlir::fusion::detail::verifyReductionPhases(NodeOp node) {
  Block &body = node.getBodyBlock();
  // Without reduction loops every value is pointwise: the only error left
  // is a reduction, reported where the walk below would meet it first.
  if (!node.isReduction()) {
    auto rejectReduce = [](Operation *op) -> WalkResult {
      if (auto reduce = dyn_cast<ReduceOp>(op))
        return reduce.emitOpError("requires a node with reduction ranges");
      return WalkResult::advance();
    };
    return failure(walkPostOrder(body, rejectReduce));
  }
  // A scan or sort (Inductor's ir.Scan, ir.Sort) runs along the reduction
  // loops and stores every element it produces. Asked only where the answer
  // decides an error, and then found once: most bodies never ask.
  std::optional<bool> scansFound;
  auto scans = [&] {
    if (!scansFound)
      scansFound = body.walk([&](Operation *op) {
                     auto opaque = dyn_cast<OpaqueOp>(op);
                     bool scan = isa<ScanOp>(op) ||
                                 (opaque && (opaque.getOpName() == "scan" ||
                                             opaque.getOpName() == "sort"));
                     return scan ? WalkResult::interrupt()
                                 : WalkResult::advance();
                   }).wasInterrupted();
    return *scansFound;
  };
  unsigned numPointwise = node.getNumPointwiseLoops();
  // Only values that are not pointwise are kept: in a reduction node most
  // are (what is computed from loads inside the reduction loops), so the
  // table has room on the stack for a large body's, not growing twice on
  // the way. (A masked result, set at its yield and again at the op, is set
  // the second time from a join that includes the first.)
  llvm::SmallDenseMap<Value, Phase, 64, ValuePointerInfo> phases;
  auto setPhase = [&](Value v, Phase phase) {
    if (phase != Phase::Pointwise)
      phases[v] = phase;
  };
  for (BlockArgument arg : node.getLoopVars())
    setPhase(arg, arg.getArgNumber() < numPointwise ? Phase::Pointwise
                                                    : Phase::Reduction);
  auto phaseOf = [&](Value v) {
    auto it = phases.find(v);
    return it == phases.end() ? Phase::Pointwise : it->second;
  };
  // Joins the phases of `values`, failing on a mix of before and after.
  // Generic over the range: an op's operands are iterated in place, without
  // a ValueRange's out-of-line access to each element.
  auto join = [&](Operation *op, auto &&values) -> FailureOr<Phase> {
    Phase result = Phase::Pointwise;
    for (Value v : values) {
      Phase phase = phaseOf(v);
      if (phase == Phase::Pointwise)
        continue;
      if (result != Phase::Pointwise && result != phase)
        return op->emitOpError("mixes values computed inside the reduction "
                               "loops with reduced values"),
               failure();
      result = phase;
    }
    return result;
  };

  bool sawReduce = false;
  auto visit = [&](Operation *op) -> WalkResult {
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      sawReduce = true;
      if (!node.isReduction())
        return reduce.emitOpError("requires a node with reduction ranges");
      for (Value input : reduce.getInputs())
        if (phaseOf(input) == Phase::Reduced)
          return reduce.emitOpError("reduces a value that is already "
                                    "reduced; nested reductions need "
                                    "separate nodes");
      for (Value result : reduce.getResults())
        setPhase(result, Phase::Reduced);
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<StoreOp>(op)) {
      bool insideReduction =
          llvm::any_of(op->getOperands(), [&](Value v) {
            return phaseOf(v) == Phase::Reduction;
          });
      if (node.isReduction() && insideReduction && !scans())
        return store.emitOpError(
            "in a reduction node must store a reduced value at an index of "
            "pointwise loop variables");
      if (failed(join(op, op->getOperands())))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (auto masked = dyn_cast<MaskedOp>(op)) {
      // The walk is post-order: the region's yield has set the result to
      // the yielded value's phase; join the mask and `other` with it.
      SmallVector<Value> values(op->getOperands());
      values.push_back(masked.getResult());
      FailureOr<Phase> phase = join(op, values);
      if (failed(phase))
        return WalkResult::interrupt();
      setPhase(masked.getResult(), *phase);
      return WalkResult::advance();
    }
    if (auto yield = dyn_cast<YieldOp>(op)) {
      if (auto masked = dyn_cast<MaskedOp>(yield->getParentOp())) {
        SmallVector<Value> values(yield.getValues());
        values.push_back(masked.getResult());
        FailureOr<Phase> phase = join(op, values);
        if (failed(phase))
          return WalkResult::interrupt();
        setPhase(masked.getResult(), *phase);
      }
      return WalkResult::advance();
    }
    FailureOr<Phase> phase = join(op, op->getOperands());
    if (failed(phase))
      return WalkResult::interrupt();
    // By index: a ResultRange's iterator steps through an out-of-line call.
    if (*phase != Phase::Pointwise)
      for (unsigned i = 0, e = op->getNumResults(); i != e; ++i)
        phases[op->getResult(i)] = *phase;
    return WalkResult::advance();
  };
  if (walkPostOrder(body, visit))
    return failure();
  if (node.isReduction() && !sawReduce && !scans())
    return node.emitOpError(
        "has reduction ranges but no fusion.reduce, scan or "
        "sort");
  return success();
}
