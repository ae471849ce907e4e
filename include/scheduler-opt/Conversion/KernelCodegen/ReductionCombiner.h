//===- ReductionCombiner.h - Combine functions of fusion.reduce -*- C++ -*-===//
//
// Every reduction kind as an associative combine over an accumulator tuple,
// as Inductor's Triton helpers define them: lowerings initialize
// accumulators with the identity, fold each element in with `lift` and
// `combine`, merge partial accumulators of several threads with `combine`,
// and read the reduce op's results off the final accumulator.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_REDUCTIONCOMBINER_H
#define SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_REDUCTIONCOMBINER_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionAttrs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::fusion::codegen {

class ReductionCombiner {
public:
  /// `inputTypes` are the types of the reduce op's inputs.
  ReductionCombiner(ReduceKind kind, TypeRange inputTypes);

  ReduceKind getKind() const { return kind; }
  /// sum..xor_sum: (value); argmax/argmin: (value, i64 position);
  /// welford_*: (mean, m2, weight); online_softmax_reduce: (max, sum).
  ArrayRef<Type> getAccumulatorTypes() const { return accTypes; }
  /// True when `lift` needs the element's position in the reduction space.
  bool needsPosition() const;

  /// The accumulator of an empty set of elements.
  SmallVector<Value> emitIdentity(OpBuilder &b, Location loc) const;
  /// The accumulator of one element with inputs `inputs` at `position` (an
  /// i64, used by argmax/argmin only; may be null otherwise).
  SmallVector<Value> emitLift(OpBuilder &b, Location loc, ValueRange inputs,
                              Value position) const;
  /// Merges two accumulators; associative, and commutative up to rounding
  /// (argmax/argmin keep the first position of the extremum either way).
  SmallVector<Value> emitCombine(OpBuilder &b, Location loc, ValueRange lhs,
                                 ValueRange rhs) const;
  /// The reduce op's results from a final accumulator.
  SmallVector<Value> emitResults(OpBuilder &b, Location loc,
                                 ValueRange acc) const;

private:
  ReduceKind kind;
  Type elementType;
  SmallVector<Type, 3> accTypes;
};

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_REDUCTIONCOMBINER_H
