//===- KernelPlan.cpp - Mapping a kernel onto its iteration space ---------===//

#include "scheduler-opt/Conversion/KernelCodegen/KernelPlan.h"
#include "scheduler-opt/Conversion/KernelCodegen/InductorScalarOps.h"
#include "scheduler-opt/Conversion/KernelCodegen/RowOps.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"
#include "scheduler-opt/Analysis/SizeVars.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <functional>
#include <numeric>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

const MemberPlan &KernelPlan::getMember(Operation *opInBody) const {
  Operation *op = opInBody;
  while (!memberIndex.count(op))
    op = op->getParentOp();
  return members[memberIndex.lookup(op)];
}

/// `expr` where the size symbols take `hints`, or `fallback`.
static int64_t hintOf(AffineExpr expr, ArrayRef<int64_t> hints,
                      int64_t fallback) {
  return evaluateSizeExpr(expr, hints).value_or(fallback);
}

int64_t KernelPlan::getNumelHint(int64_t fallback) const {
  return hasStaticNumel() ? numel : hintOf(numelExpr, sizeHints, fallback);
}

int64_t KernelPlan::getRNumelHint(int64_t fallback) const {
  return hasStaticRNumel() ? rnumel : hintOf(rnumelExpr, sizeHints, fallback);
}

unsigned KernelPlan::getLevel(Operation *reduceOrRowOp) const {
  unsigned level = 0;
  for (Value input : reduceOrRowOp->getOperands())
    level = std::max(level, getDepth(input));
  return level;
}

bool KernelPlan::isElementStore(StoreOp store) const {
  return getMember(store).storesPerElement;
}

unsigned KernelPlan::getStoreDepth(StoreOp store) const {
  unsigned d = getDepth(store.getValue());
  for (Value index : store.getIndices())
    d = std::max(d, getDepth(index));
  return d;
}

/// The variables of loops of `sizes` (expressions in the size symbols) as
/// the delinearization of `flat` (row-major). Loops of size 1 are 0.
static void delinearize(AffineExpr flat, ArrayRef<AffineExpr> sizes,
                        SmallVectorImpl<AffineExpr> &vars) {
  MLIRContext *context = flat.getContext();
  AffineExpr stride = getAffineConstantExpr(1, context);
  SmallVector<AffineExpr> strides(sizes.size());
  for (int i = sizes.size() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride = SizeVars::simplify(stride * sizes[i]);
  }
  auto isConstant = [](AffineExpr e, int64_t v) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() == v;
  };
  for (auto [i, size] : llvm::enumerate(sizes)) {
    if (isConstant(size, 1)) {
      vars.push_back(getAffineConstantExpr(0, context));
      continue;
    }
    AffineExpr var = flat;
    if (!isConstant(strides[i], 1))
      var = var.floorDiv(strides[i]);
    if (i != 0)
      var = var % size;
    vars.push_back(var);
  }
}

bool codegen::hasIndirectIndices(Operation *access) {
  return cast<IndexedOpInterface>(access).getNumIndirectSymbols() != 0;
}

/// Maps a member's loops onto the kernel's (x, r) space. Sizes compare as
/// Inductor's statically_known_equals does: equal canonical expressions.
static LogicalResult mapMember(NodeOp node, KernelPlan &plan,
                               MemberPlan &member) {
  MLIRContext *context = node.getContext();
  AffineExpr x = getAffineDimExpr(0, context);
  AffineExpr r = getAffineDimExpr(1, context);
  AffineExpr numel = SizeVars::simplify(node.getNumelExpr());
  AffineExpr rnumel = SizeVars::simplify(node.getReductionNumelExpr());
  auto equals = [](AffineExpr a, AffineExpr b) {
    return SizeVars::staticallyKnownEquals(a, b);
  };
  auto text = [](AffineExpr e) { return sizeExprToString(e); };
  if (node.isReduction()) {
    if (!equals(numel, plan.numelExpr) || !equals(rnumel, plan.rnumelExpr))
      return node.emitOpError("reduces ")
             << text(rnumel) << " elements in each of " << text(numel)
             << " rows, but its kernel runs " << text(plan.numelExpr)
             << " rows of " << text(plan.rnumelExpr) << " elements";
    member.perElement = true;
    delinearize(x, node.getRangeExprs(), member.loopVars);
    delinearize(r, node.getReductionRangeExprs(), member.loopVars);
    return success();
  }
  bool hasRows = !equals(plan.rnumelExpr, getAffineConstantExpr(1, context));
  if (plan.isReduction && hasRows &&
      equals(numel, SizeVars::simplify(plan.numelExpr * plan.rnumelExpr))) {
    member.perElement = true;
    // Loops that split at the row boundary take x and r directly; others
    // delinearize the flat element index.
    SmallVector<AffineExpr> ranges = node.getRangeExprs();
    AffineExpr prefix = getAffineConstantExpr(1, context);
    for (size_t k = 0; k <= ranges.size(); ++k) {
      if (equals(prefix, plan.numelExpr)) {
        delinearize(x, ArrayRef(ranges).take_front(k), member.loopVars);
        delinearize(r, ArrayRef(ranges).drop_front(k), member.loopVars);
        return success();
      }
      if (k < ranges.size())
        prefix = SizeVars::simplify(prefix * ranges[k]);
    }
    delinearize(x * plan.rnumelExpr + r, ranges, member.loopVars);
    return success();
  }
  if (equals(numel, plan.numelExpr)) {
    member.perElement = false;
    delinearize(x, node.getRangeExprs(), member.loopVars);
    return success();
  }
  return node.emitOpError("runs ")
         << text(numel) << " iterations, which do not map onto its kernel's "
         << text(plan.numelExpr) << " rows of " << text(plan.rnumelExpr)
         << " elements (Inductor fuses only nodes of numel, or numel * "
            "rnumel, iterations)";
}

/// Checks that every op of a member body has a lowering.
static LogicalResult checkBodyOps(NodeOp node) {
  WalkResult result = node.getBody().walk([&](Operation *op) -> WalkResult {
    if (isa<LoadOp, StoreOp, ReduceOp, IndexExprOp, MaskedOp, CastOp, YieldOp,
            ScanYieldOp>(op))
      return WalkResult::advance();
    if (auto rand = dyn_cast<RandOp>(op)) {
      if (!rand.getOffset().getType().isInteger(32))
        return rand.emitOpError("with a 64-bit offset has no lowering; "
                                "Triton's tl.rand takes 32-bit offsets"),
               WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (isRowOp(op))
      return failed(checkRowOp(op)) ? WalkResult::interrupt()
                                    : WalkResult::advance();
    if (isa<OpaqueOp>(op))
      return failed(checkInductorScalarOp(op)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    Dialect *dialect = op->getDialect(); // null for unregistered ops
    if (dialect && isa<arith::ArithDialect, math::MathDialect>(dialect) &&
        op->getNumRegions() == 0)
      return WalkResult::advance();
    return op->emitOpError("has no lowering from a fusion.node body"),
           WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return failure();
  for (auto store : node.getBody().getOps<StoreOp>())
    if (store.getMode() && store.getValue().getType().isInteger(1))
      return store.emitOpError("accumulates i1 values atomically; atomic "
                               "adds have a lowering for numbers only");
  return success();
}

/// `lhs` floordiv `divisor` (`mod` when `isMod`) without the remainder
/// term: lhs as m * a + b, b one term of lhs lying in [0, m), m > 1 the
/// greatest common divisor of the other terms' constant factors and a
/// divisor of `divisor`. Nothing when lhs has no such form.
static std::optional<AffineExpr> splitByMultiple(AffineExpr lhs,
                                                 int64_t divisor, bool isMod,
                                                 ArrayRef<int64_t> dimSizes) {
  SmallVector<AffineExpr> terms;
  std::function<void(AffineExpr)> flatten = [&](AffineExpr e) {
    if (e.getKind() == AffineExprKind::Add) {
      auto add = cast<AffineBinaryOpExpr>(e);
      flatten(add.getLHS());
      flatten(add.getRHS());
      return;
    }
    terms.push_back(e);
  };
  flatten(lhs);
  if (terms.size() < 2)
    return std::nullopt;
  // term = factor * rest with a constant factor (1 without one).
  auto factorOf = [](AffineExpr term) -> std::pair<AffineExpr, int64_t> {
    if (auto c = dyn_cast<AffineConstantExpr>(term))
      return {getAffineConstantExpr(1, term.getContext()), c.getValue()};
    if (term.getKind() == AffineExprKind::Mul) {
      auto mul = cast<AffineBinaryOpExpr>(term);
      if (auto c = dyn_cast<AffineConstantExpr>(mul.getRHS()))
        return {mul.getLHS(), c.getValue()};
      if (auto c = dyn_cast<AffineConstantExpr>(mul.getLHS()))
        return {mul.getRHS(), c.getValue()};
    }
    return {term, 1};
  };
  for (size_t i = 0; i < terms.size(); ++i) {
    int64_t m = 0;
    for (size_t j = 0; j < terms.size(); ++j)
      if (j != i)
        m = std::gcd(m, std::abs(factorOf(terms[j]).second));
    if (m <= 1 || divisor % m != 0)
      continue;
    auto bounds = getAffineExprBounds(terms[i], dimSizes);
    if (!bounds || bounds->first < 0 || bounds->second >= m)
      continue;
    AffineExpr a = getAffineConstantExpr(0, lhs.getContext());
    for (size_t j = 0; j < terms.size(); ++j)
      if (j != i) {
        auto [rest, factor] = factorOf(terms[j]);
        a = a + rest * (factor / m);
      }
    return isMod ? (a % (divisor / m)) * m + terms[i] : a.floorDiv(divisor / m);
  }
  return std::nullopt;
}

/// Simplifies `expr` knowing that dimension i lies in [0, dimSizes[i]):
/// `e floordiv c` is 0 and `e mod c` is e when e lies in [0, c). MLIR's own
/// simplification does not know the ranges, and flattened loops (x * R + r
/// delinearized again) need them to become x and r.
static AffineExpr simplifyWithRanges(AffineExpr expr,
                                     ArrayRef<int64_t> dimSizes,
                                     unsigned numSymbols,
                                     bool splitMultiples = false) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return expr;
  AffineExpr lhs =
      simplifyWithRanges(bin.getLHS(), dimSizes, numSymbols, splitMultiples);
  AffineExpr rhs =
      simplifyWithRanges(bin.getRHS(), dimSizes, numSymbols, splitMultiples);
  auto divisor = dyn_cast<AffineConstantExpr>(rhs);
  if (divisor && divisor.getValue() > 0 &&
      (expr.getKind() == AffineExprKind::FloorDiv ||
       expr.getKind() == AffineExprKind::Mod)) {
    auto bounds = getAffineExprBounds(lhs, dimSizes);
    if (bounds && bounds->first >= 0 && bounds->second < divisor.getValue())
      return expr.getKind() == AffineExprKind::Mod
                 ? lhs
                 : getAffineConstantExpr(0, expr.getContext());
  }
  // (m * a + b) floordiv (m * k) is a floordiv k and (m * a + b) mod
  // (m * k) is (a mod k) * m + b when b lies in [0, m): a flat index
  // x = row * columns + column taken apart by its loops' sizes
  // (permutePointwiseColumns) gives row floordiv k and row mod k.
  if (splitMultiples && divisor && divisor.getValue() > 0 &&
      (expr.getKind() == AffineExprKind::FloorDiv ||
       expr.getKind() == AffineExprKind::Mod))
    if (std::optional<AffineExpr> r =
            splitByMultiple(lhs, divisor.getValue(),
                            expr.getKind() == AffineExprKind::Mod, dimSizes))
      return simplifyWithRanges(*r, dimSizes, numSymbols, splitMultiples);
  // (e floordiv a) floordiv b is e floordiv (a * b) for a, b > 0, as in
  // Inductor's FloorDiv.eval. MLIR's simplification keeps the nesting, and
  // a member whose loops were merged (merge-loops) delinearizes x that way:
  // without the rule, x + (x floordiv 64) * 64 - ((x floordiv 16)
  // floordiv 4) * 64 would not simplify to x.
  if (divisor && divisor.getValue() > 0 &&
      expr.getKind() == AffineExprKind::FloorDiv)
    if (auto inner = dyn_cast<AffineBinaryOpExpr>(lhs))
      if (inner.getKind() == AffineExprKind::FloorDiv)
        if (auto innerDivisor = dyn_cast<AffineConstantExpr>(inner.getRHS()))
          if (innerDivisor.getValue() > 0)
            if (std::optional<int64_t> product = llvm::checkedMul(
                    innerDivisor.getValue(), divisor.getValue()))
              return simplifyWithRanges(inner.getLHS().floorDiv(*product),
                                        dimSizes, numSymbols, splitMultiples);
  AffineExpr rebuilt;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    rebuilt = lhs + rhs;
    break;
  case AffineExprKind::Mul:
    rebuilt = lhs * rhs;
    break;
  case AffineExprKind::FloorDiv:
    rebuilt = lhs.floorDiv(rhs);
    break;
  case AffineExprKind::CeilDiv:
    rebuilt = lhs.ceilDiv(rhs);
    break;
  default:
    rebuilt = lhs % rhs;
    break;
  }
  return simplifyIndexExpr(rebuilt, dimSizes.size(), numSymbols);
}

/// The flat index of `map(indices)` in (x, r) space for a member whose
/// loop variables are `loopVars`; indirect indices stay symbols, and so do
/// size symbols (after the indirect ones, as in the map).
static AffineExpr composeIndex(AffineMap map, OperandRange indices,
                               ArrayRef<AffineExpr> loopVars,
                               ArrayRef<int64_t> kernelSizes,
                               unsigned numSizeSymbols) {
  MLIRContext *context = map.getContext();
  unsigned numIndirect = getNumIndirectSymbols(map, indices);
  SmallVector<AffineExpr> dims, syms;
  for (unsigned i = 0; i < map.getNumDims(); ++i)
    dims.push_back(
        loopVars[cast<BlockArgument>(indices[i]).getArgNumber()].shiftSymbols(
            numSizeSymbols, numIndirect));
  unsigned numSymbols = std::max(map.getNumSymbols(),
                                 numIndirect + numSizeSymbols);
  for (unsigned j = 0; j < map.getNumSymbols(); ++j)
    syms.push_back(getAffineSymbolExpr(j, context));
  AffineExpr expr = map.getResult(0).replaceDimsAndSymbols(dims, syms);
  expr = simplifyIndexExpr(expr, 2, numSymbols);
  return simplifyWithRanges(expr, kernelSizes, numSymbols);
}

namespace {
/// Structural equality of values of a kernel's member bodies, used to run
/// equal reductions once (Inductor's op0 and op1 of a softmax both compute
/// the online softmax of the same row).
/// The value a masked region yields where its mask is true.
static Value getYieldedValue(MaskedOp masked) {
  return cast<YieldOp>(masked.getBody().front().getTerminator())
      .getValues()
      .front();
}

class ValueEquivalence {
public:
  explicit ValueEquivalence(const KernelPlan &plan) : plan(plan) {}

  bool equivalent(Value a, Value b) {
    SmallVector<std::pair<Value, Value>> worklist{{a, b}};
    llvm::DenseSet<std::pair<Value, Value>> assumed;
    while (!worklist.empty()) {
      auto [x, y] = worklist.pop_back_val();
      x = forward(x);
      y = forward(y);
      if (x == y || !assumed.insert({x, y}).second)
        continue;
      if (!pushOperands(x, y, worklist))
        return false;
    }
    return true;
  }

private:
  /// Loads of in-group buffers stand for the stored value.
  Value forward(Value v) {
    while (auto load = v.getDefiningOp<LoadOp>()) {
      auto it = plan.producers.find(load.getBuffer());
      if (it == plan.producers.end())
        break;
      StoreOp producer = it->second;
      v = producer.getValue();
    }
    return v;
  }

  bool pushOperands(Value x, Value y,
                    SmallVectorImpl<std::pair<Value, Value>> &worklist) {
    if (x.getType() != y.getType())
      return false;
    auto argX = dyn_cast<BlockArgument>(x), argY = dyn_cast<BlockArgument>(y);
    if (argX || argY) {
      if (!argX || !argY)
        return false;
      // Loop variables of (possibly different) members.
      const MemberPlan &mx = plan.getMember(argX.getOwner()->getParentOp());
      const MemberPlan &my = plan.getMember(argY.getOwner()->getParentOp());
      return mx.perElement == my.perElement &&
             argX.getArgNumber() < mx.loopVars.size() &&
             argY.getArgNumber() < my.loopVars.size() &&
             mx.loopVars[argX.getArgNumber()] ==
                 my.loopVars[argY.getArgNumber()];
    }
    auto resX = cast<OpResult>(x), resY = cast<OpResult>(y);
    Operation *opX = resX.getOwner(), *opY = resY.getOwner();
    if (auto maskedX = dyn_cast<MaskedOp>(opX)) {
      // Masked regions compute the same value where their masks agree
      // (Inductor's split batch-norm statistics: one node per Welford
      // output, each with its own copy of the masked load).
      auto maskedY = dyn_cast<MaskedOp>(opY);
      if (!maskedY)
        return false;
      worklist.push_back({maskedX.getMask(), maskedY.getMask()});
      worklist.push_back({maskedX.getOther(), maskedY.getOther()});
      worklist.push_back({getYieldedValue(maskedX), getYieldedValue(maskedY)});
      return true;
    }
    if (resX.getResultNumber() != resY.getResultNumber() ||
        opX->getName() != opY->getName() || opX->getNumRegions() != 0 ||
        opY->getNumRegions() != 0 ||
        opX->getNumOperands() != opY->getNumOperands())
      return false;
    if (isa<ReduceOp>(opX))
      return false; // distinct reductions: compared by their own inputs
    if (auto loadX = dyn_cast<LoadOp>(opX)) {
      auto loadY = cast<LoadOp>(opY);
      if (loadX.getBuffer() != loadY.getBuffer() ||
          plan.indexExprs.lookup(loadX) != plan.indexExprs.lookup(loadY))
        return false;
      for (unsigned i = loadX.getMap().getNumDims(),
                    e = loadX.getIndices().size();
           i < e; ++i)
        worklist.push_back({loadX.getIndices()[i], loadY.getIndices()[i]});
      return true;
    }
    if (auto indexX = dyn_cast<IndexExprOp>(opX)) {
      auto indexY = cast<IndexExprOp>(opY);
      if (plan.indexExprs.lookup(indexX) != plan.indexExprs.lookup(indexY))
        return false;
      for (unsigned i = indexX.getMap().getNumDims(),
                    e = indexX.getIndices().size();
           i < e; ++i)
        worklist.push_back({indexX.getIndices()[i], indexY.getIndices()[i]});
      return true;
    }
    if (opX->getAttrDictionary() != opY->getAttrDictionary() ||
        opX->getPropertiesAsAttribute() != opY->getPropertiesAsAttribute())
      return false;
    for (auto [u, v] : llvm::zip(opX->getOperands(), opY->getOperands()))
      worklist.push_back({u, v});
    return true;
  }

  const KernelPlan &plan;
};
} // namespace

/// An index of (x, r) space as text, with x and r for d0 and d1.
static std::string printIndex(AffineExpr expr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  expr.print(os);
  std::string result;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == 'd' && i + 1 < text.size() &&
        (text[i + 1] == '0' || text[i + 1] == '1') &&
        (i + 2 == text.size() || !llvm::isDigit(text[i + 2]))) {
      result.push_back(text[i + 1] == '0' ? 'x' : 'r');
      ++i;
      continue;
    }
    result.push_back(text[i]);
  }
  return result;
}

/// Checks the in-group loads and records the store each forwards.
static LogicalResult planForwarding(KernelPlan &plan) {
  DenseMap<Operation *, unsigned> memberOf;
  for (auto [i, member] : llvm::enumerate(plan.members))
    memberOf[member.node] = i;
  for (MemberPlan &consumer : plan.members) {
    // A buffer read whole (bucketize's boundaries) must be in memory.
    WalkResult whole = consumer.node.getBody().walk([&](OpaqueOp opaque) {
      for (Value v : opaque.getOperands()) {
        auto result = dyn_cast<OpResult>(v);
        if (isa<BufferType>(v.getType()) && result &&
            memberOf.count(result.getOwner()))
          return opaque.emitOpError("reads a buffer of its own fused group "
                                    "whole; only elements an iteration wrote "
                                    "itself can be read inside a group"),
                 WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (whole.wasInterrupted())
      return failure();
    WalkResult walk = consumer.node.getBody().walk([&](LoadOp load) {
      auto result = dyn_cast<OpResult>(load.getBuffer());
      if (!result || !memberOf.count(result.getOwner()))
        return WalkResult::advance();
      const MemberPlan &producer = plan.members[memberOf[result.getOwner()]];
      NodeOp producerNode = producer.node;
      BlockArgument handle =
          producerNode.getOutputHandles()[result.getResultNumber()];
      SmallVector<StoreOp> stores;
      for (Operation *user : handle.getUsers())
        if (auto store = dyn_cast<StoreOp>(user))
          stores.push_back(store);
      StringRef name =
          producerNode.getBufferName(result.getResultNumber()).getValue();
      if (stores.size() != 1 || stores.front().getMode() ||
          hasIndirectIndices(stores.front()))
        return load.emitOpError("reads '")
                   << name << "' inside its fused group, but '"
                   << producerNode.getName()
                   << "' does not write it with one plain store at an index "
                      "of its loop variables; it cannot be kept in registers",
               WalkResult::interrupt();
      StoreOp store = stores.front();
      AffineExpr written = plan.indexExprs.lookup(store);
      AffineExpr read = plan.indexExprs.lookup(load);
      if (hasIndirectIndices(load) || written != read ||
          (plan.isElementStore(store) && !consumer.perElement))
        return load.emitOpError("reads '")
                   << name << "' at index " << printIndex(read)
                   << " of the group's (x, r) space, but '"
                   << producerNode.getName() << "' writes index "
                   << printIndex(written)
                   << " there; a fused group keeps a buffer in registers only "
                      "when each iteration reads what it wrote",
               WalkResult::interrupt();
      plan.producers[load.getBuffer()] = store;
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  return success();
}

/// Computes the depth of every value: how many reductions it waits for.
static void computeDepths(KernelPlan &plan) {
  for (MemberPlan &member : plan.members) {
    member.node.getBody().walk([&](Operation *op) {
      unsigned d = 0;
      for (Value operand : op->getOperands())
        d = std::max(d, plan.getDepth(operand));
      if (auto load = dyn_cast<LoadOp>(op)) {
        auto it = plan.producers.find(load.getBuffer());
        if (it != plan.producers.end())
          d = std::max(d, plan.getStoreDepth(it->second));
      }
      // Region ops were visited first (post-order): a masked value waits
      // for whatever its region waits for.
      for (Region &region : op->getRegions())
        region.walk([&](Operation *inner) {
          for (Value value : inner->getOperands())
            d = std::max(d, plan.getDepth(value));
          for (Value result : inner->getResults())
            d = std::max(d, plan.getDepth(result));
        });
      if (isa<ReduceOp>(op) || isRowOp(op))
        ++d;
      for (Value result : op->getResults())
        plan.depth[result] = d;
    });
  }
}

/// Checks that in-place updates read the overwritten storage only where
/// they write it, so that no thread reads what another one overwrote.
static LogicalResult checkInPlace(KernelPlan &plan,
                                  const StoragePlan &storage) {
  for (StoreOp store : plan.memoryStores) {
    NodeOp node = plan.getMember(store).node;
    Value result = node.getResultForHandle(cast<BlockArgument>(store.getBuffer()));
    if (!node.getMutatedBuffer(cast<OpResult>(result).getResultNumber()))
      continue;
    std::optional<unsigned> target = storage.lookup(result);
    AffineExpr written = plan.indexExprs.lookup(store);
    for (MemberPlan &member : plan.members) {
      WalkResult walk = member.node.getBody().walk([&](LoadOp load) {
        if (plan.isForwarded(load) || storage.lookup(load.getBuffer()) != target)
          return WalkResult::advance();
        if (plan.indexExprs.lookup(load) == written &&
            !hasIndirectIndices(load) && !hasIndirectIndices(store))
          return WalkResult::advance();
        return load.emitOpError("reads the storage that '")
                   << node.getName()
                   << "' overwrites in place at another index; other "
                      "threads of the kernel may already have overwritten it",
               WalkResult::interrupt();
      });
      if (walk.wasInterrupted())
        return failure();
    }
  }
  return success();
}

FailureOr<KernelPlan> codegen::planKernel(Operation *kernel,
                                          const StoragePlan &storage) {
  KernelPlan plan;
  plan.op = kernel;
  plan.name = cast<SchedulerNodeOpInterface>(kernel).getNodeName();
  SmallVector<NodeOp> nodes;
  if (auto node = dyn_cast<NodeOp>(kernel))
    nodes.push_back(node);
  else
    for (Operation &member : cast<FusedOp>(kernel).getMembers())
      nodes.push_back(cast<NodeOp>(member));

  for (NodeOp node : nodes)
    if (failed(checkBodyOps(node)))
      return failure();

  // The kernel's iteration space is that of its reductions (Inductor's
  // FusedSchedulerNode.group), else that of its first node.
  auto firstReduction = llvm::find_if(nodes, [](NodeOp n) { return n.isReduction(); });
  NodeOp group = firstReduction != nodes.end() ? *firstReduction : nodes.front();
  plan.isReduction = firstReduction != nodes.end();
  plan.numel = group.getNumel();
  plan.numelExpr = SizeVars::simplify(group.getNumelExpr());
  plan.rnumel = plan.isReduction ? group.getReductionNumel() : 1;
  plan.rnumelExpr = plan.isReduction
                        ? SizeVars::simplify(group.getReductionNumelExpr())
                        : getAffineConstantExpr(1, kernel->getContext());
  if (auto graph = kernel->getParentOfType<GraphOp>()) {
    plan.numSizeSymbols = graph.getNumSizeSymbols();
    plan.sizeHints.assign(graph.getSizeHints().begin(),
                          graph.getSizeHints().end());
  }
  for (NodeOp node : nodes) {
    plan.memberIndex[node] = plan.members.size();
    MemberPlan &member = plan.members.emplace_back();
    member.node = node;
    if (failed(mapMember(node, plan, member)))
      return failure();
    bool reduces = !node.getBody().getOps<ReduceOp>().empty();
    member.storesPerElement =
        member.perElement && (!node.isReduction() || !reduces);
  }

  int64_t kernelSizes[2] = {plan.numel, plan.rnumel};
  for (MemberPlan &member : plan.members) {
    for (AffineExpr &var : member.loopVars)
      var = simplifyWithRanges(var, kernelSizes, plan.numSizeSymbols);
    member.node.getBody().walk([&](Operation *op) {
      if (auto indexed = dyn_cast<IndexedOpInterface>(op))
        plan.indexExprs[op] =
            composeIndex(indexed.getIndexMap(), indexed.getIndexOperands(),
                         member.loopVars, kernelSizes, plan.numSizeSymbols);
      else if (auto reduce = dyn_cast<ReduceOp>(op))
        plan.reduces.push_back(reduce);
      else if (isRowOp(op))
        plan.rowOps.push_back(op);
    });
  }
  if (failed(planForwarding(plan)))
    return failure();
  computeDepths(plan);

  for (MemberPlan &member : plan.members)
    for (auto store : member.node.getBody().getOps<StoreOp>()) {
      Value result = member.node.getResultForHandle(
          cast<BlockArgument>(store.getBuffer()));
      if (!storage.isRegisterBuffer(result))
        plan.memoryStores.push_back(store);
    }
  if (failed(checkInPlace(plan, storage)))
    return failure();

  ValueEquivalence equivalence(plan);
  for (auto [i, reduce] : llvm::enumerate(plan.reduces)) {
    plan.representative[reduce] = reduce;
    for (ReduceOp earlier : ArrayRef(plan.reduces).take_front(i)) {
      if (plan.representative[earlier] != earlier ||
          earlier.getKind() != reduce.getKind() ||
          earlier.getInputs().size() != reduce.getInputs().size())
        continue;
      if (llvm::all_of(llvm::zip(earlier.getInputs(), reduce.getInputs()),
                       [&](auto pair) {
                         return equivalence.equivalent(std::get<0>(pair),
                                                       std::get<1>(pair));
                       })) {
        plan.representative[reduce] = earlier;
        break;
      }
    }
  }

  // Sorts and scans of the same values (Inductor's sort writes the values
  // and the indices from two nodes) run once.
  for (auto [i, op] : llvm::enumerate(plan.rowOps)) {
    plan.rowRepresentative[op] = op;
    for (Operation *earlier : ArrayRef(plan.rowOps).take_front(i)) {
      if (plan.rowRepresentative[earlier] != earlier ||
          earlier->getName() != op->getName() ||
          earlier->getAttrDictionary() != op->getAttrDictionary() ||
          earlier->getNumRegions() != 0 ||
          earlier->getNumOperands() != op->getNumOperands())
        continue;
      if (llvm::all_of(llvm::zip(earlier->getOperands(), op->getOperands()),
                       [&](auto pair) {
                         return equivalence.equivalent(std::get<0>(pair),
                                                       std::get<1>(pair));
                       })) {
        plan.rowRepresentative[op] = earlier;
        break;
      }
    }
  }

  // planGraph gives the rows storages of their own where they need them.
  plan.rowScratchInMemory =
      !plan.rowOps.empty() && plan.rowOps.front()->getNumResults() > 0 &&
      storage.lookup(plan.rowOps.front()->getResult(0)).has_value();

  unsigned levels = 0;
  for (ReduceOp reduce : plan.reduces)
    levels = std::max(levels, plan.getLevel(reduce) + 1);
  for (Operation *op : plan.rowOps)
    levels = std::max(levels, plan.getLevel(op) + 1);
  for (StoreOp store : plan.memoryStores) {
    unsigned d = plan.getStoreDepth(store);
    levels = std::max(levels, plan.isElementStore(store) ? d + 1 : d);
  }
  plan.numLevels = levels;

  // An in-place update of a storage that this or an earlier member reads
  // waits for the last level: the loads run wherever their consumers are
  // emitted, possibly in a later pass over the row than the update's
  // depth.
  for (StoreOp store : plan.memoryStores) {
    NodeOp owner = plan.getMember(store).node;
    Value result =
        owner.getResultForHandle(cast<BlockArgument>(store.getBuffer()));
    if (!owner.getMutatedBuffer(cast<OpResult>(result).getResultNumber()))
      continue;
    std::optional<unsigned> target = storage.lookup(result);
    bool readBefore = false;
    for (const MemberPlan &member : plan.members) {
      NodeOp node = member.node;
      node.getBody().walk([&](LoadOp load) {
        if (!plan.isForwarded(load) &&
            storage.lookup(load.getBuffer()) == target)
          readBefore = true;
      });
      if (readBefore || node == owner)
        break;
    }
    if (readBefore)
      plan.deferredDepth[store] =
          plan.isElementStore(store) ? std::max(levels, 1u) - 1 : levels;
  }
  return plan;
}

/// The number of symbols `expr` may use: one past the largest position.
static unsigned countSymbols(AffineExpr expr) {
  unsigned n = 0;
  expr.walk([&](AffineExpr e) {
    if (auto sym = dyn_cast<AffineSymbolExpr>(e))
      n = std::max(n, sym.getPosition() + 1);
  });
  return n;
}

/// True when `expr` (free of r) is known to be a multiple of `width`.
static bool isMultipleOf(AffineExpr expr, int64_t width) {
  AffineExpr rem = simplifyAffineExpr(expr % width, 2, countSymbols(expr));
  auto c = dyn_cast<AffineConstantExpr>(rem);
  return c && c.getValue() == 0;
}

namespace {
/// An expression written as base + k * r, base free of r.
struct SplitExpr {
  AffineExpr base;
  int64_t k;
};
} // namespace

/// `expr` of x with x replaced by width * x + r, as base + k * r; `mod` and
/// `floordiv` by a multiple c of `width` of base + r, base a multiple of
/// `width`, stay split: (base + r) mod c = base mod c + r and
/// (base + r) floordiv c = base floordiv c, since r < width divides c.
/// Nothing when r would end up inside another function.
static std::optional<SplitExpr> splitIndex(AffineExpr expr, int64_t width) {
  MLIRContext *context = expr.getContext();
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    if (dim.getPosition() != 0)
      return std::nullopt;
    return SplitExpr{getAffineDimExpr(0, context) * width, 1};
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return SplitExpr{expr, 0};
  std::optional<SplitExpr> lhs = splitIndex(bin.getLHS(), width);
  std::optional<SplitExpr> rhs = splitIndex(bin.getRHS(), width);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return SplitExpr{lhs->base + rhs->base, lhs->k + rhs->k};
  case AffineExprKind::Mul: {
    if (lhs->k != 0 && rhs->k != 0)
      return std::nullopt;
    if (lhs->k == 0 && rhs->k == 0)
      return SplitExpr{lhs->base * rhs->base, 0};
    const SplitExpr &var = lhs->k ? *lhs : *rhs;
    auto factor = dyn_cast<AffineConstantExpr>(lhs->k ? rhs->base : lhs->base);
    if (!factor)
      return std::nullopt;
    return SplitExpr{var.base * factor.getValue(),
                     var.k * factor.getValue()};
  }
  case AffineExprKind::Mod:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    if (rhs->k != 0)
      return std::nullopt;
    auto combine = [&](AffineExpr l) {
      return expr.getKind() == AffineExprKind::Mod        ? l % rhs->base
             : expr.getKind() == AffineExprKind::FloorDiv ? l.floorDiv(rhs->base)
                                                          : l.ceilDiv(rhs->base);
    };
    if (lhs->k == 0)
      return SplitExpr{combine(lhs->base), 0};
    auto divisor = dyn_cast<AffineConstantExpr>(rhs->base);
    if (lhs->k != 1 || expr.getKind() == AffineExprKind::CeilDiv ||
        !divisor || divisor.getValue() <= 0 ||
        divisor.getValue() % width != 0 || !isMultipleOf(lhs->base, width))
      return std::nullopt;
    return SplitExpr{combine(lhs->base),
                     expr.getKind() == AffineExprKind::Mod ? 1 : 0};
  }
  default:
    return std::nullopt;
  }
}

/// Bytes of stack a thread may give the scratch arrays of a kernel's sorts
/// and scans (16 KiB: a sort of 1365 f32 values with their i64 indices).
/// A GPU thread's stack is local memory, which the driver reserves for
/// every thread the GPU can hold at once (16 KiB x 2048 threads x 132 SMs:
/// 4.4 GB on an H100), and the CPU runs on an 8 MiB stack.
constexpr int64_t kMaxRowScratchStackBytes = 16 * 1024;

bool codegen::needsRowScratchStorage(const KernelPlan &plan) {
  if (plan.rowOps.empty())
    return false;
  if (!plan.hasStaticRNumel())
    return true;
  int64_t bytes = 0;
  for (Operation *op : plan.rowOps)
    if (plan.rowRepresentative.lookup(op) == op)
      for (Type type : op->getResultTypes())
        // (Other types have no lowering; checkRowOp reports them.)
        if (type.isIntOrFloat())
          bytes += llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  return plan.rnumel > 0 && bytes > kMaxRowScratchStackBytes / plan.rnumel;
}

KernelPlan codegen::splitPointwiseRows(const KernelPlan &plan,
                                       int64_t width) {
  assert(!plan.isReduction && plan.hasStaticNumel() &&
         plan.numel % width == 0 &&
         "splitting the rows of a reduction or of a partial row");
  KernelPlan split = plan;
  split.numel = plan.numel / width;
  split.rnumel = width;
  split.numelExpr = getAffineConstantExpr(split.numel, plan.op->getContext());
  split.rnumelExpr = getAffineConstantExpr(width, plan.op->getContext());
  int64_t sizes[2] = {split.numel, split.rnumel};
  MLIRContext *context = plan.op->getContext();
  AffineExpr x = getAffineDimExpr(0, context);
  AffineExpr r = getAffineDimExpr(1, context);
  AffineExpr zero = getAffineConstantExpr(0, context);
  auto rewrite = [&](AffineExpr expr) {
    // A pointwise kernel's r is always 0.
    expr = expr.replaceDims({x, zero});
    unsigned numSymbols = countSymbols(expr);
    AffineExpr result;
    if (std::optional<SplitExpr> s = splitIndex(expr, width))
      result = s->base + r * s->k;
    else
      result = expr.replaceDims({x * width + r, r});
    return simplifyWithRanges(
        simplifyAffineExpr(result, 2, numSymbols), sizes, numSymbols);
  };
  for (MemberPlan &member : split.members) {
    member.perElement = true;
    member.storesPerElement = true;
    for (AffineExpr &var : member.loopVars)
      var = rewrite(var);
  }
  for (auto &entry : split.indexExprs)
    entry.second = rewrite(entry.second);
  // Every store now runs per element, in the one pass over the row.
  split.numLevels = split.memoryStores.empty() ? 0 : 1;
  for (auto &entry : split.deferredDepth)
    entry.second = 0;
  return split;
}

KernelPlan codegen::permutePointwiseColumns(const KernelPlan &plan,
                                            int64_t rows, int64_t columns) {
  assert(!plan.isReduction && plan.rowOps.empty() && plan.hasStaticNumel() &&
         plan.numel == rows * columns &&
         "permuting the columns of a reduction or of other sizes");
  KernelPlan permuted = plan;
  MLIRContext *context = plan.op->getContext();
  AffineExpr x = getAffineDimExpr(0, context);
  AffineExpr row = getAffineDimExpr(0, context);
  AffineExpr column = getAffineDimExpr(1, context);
  AffineExpr zero = getAffineConstantExpr(0, context);
  int64_t sizes[2] = {rows, columns};
  int64_t flatSizes[2] = {plan.numel, 1};
  auto rewrite = [&](AffineExpr expr) {
    // A pointwise kernel's r is always 0. First in (row, column), where the
    // loops' divisions of row * columns + column come apart, then in x'.
    unsigned numSymbols = countSymbols(expr);
    expr = expr.replaceDims({row * columns + column, zero});
    expr = simplifyWithRanges(simplifyAffineExpr(expr, 2, numSymbols), sizes,
                              numSymbols, /*splitMultiples=*/true);
    expr = expr.replaceDims({x % rows, x.floorDiv(rows)});
    return simplifyWithRanges(simplifyAffineExpr(expr, 2, numSymbols),
                              flatSizes, numSymbols);
  };
  for (MemberPlan &member : permuted.members)
    for (AffineExpr &var : member.loopVars)
      var = rewrite(var);
  for (auto &entry : permuted.indexExprs)
    entry.second = rewrite(entry.second);
  return permuted;
}
