//===- KernelEmitter.cpp - Emitting the rows of a planned kernel ----------===//

#include "fusion/Conversion/KernelCodegen/KernelEmitter.h"
#include "fusion/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

/// Values of member bodies emitted for one row (no `r`) or one element of
/// a row. Lookups fall back to the enclosing scopes, whose values dominate.
struct KernelEmitter::Scope {
  Scope *parent = nullptr;
  Value x, r;
  /// i1: false for element positions past the end of the row; null when
  /// the position is always valid.
  Value valid;
  DenseMap<Value, Value> values;
};

struct KernelEmitter::PendingStore {
  StoreOp op;
  Value memref;
  Value index;
  Value value;
};

struct KernelEmitter::Accumulator {
  ReduceOp reduce;
  ReductionCombiner combiner;
};

KernelEmitter::KernelEmitter(const KernelPlan &plan,
                             std::function<Value(Value)> getMemref,
                             Type indexType)
    : plan(plan), getMemref(std::move(getMemref)), indexType(indexType),
      loc(plan.op->getLoc()) {}

KernelEmitter::~KernelEmitter() = default;

Value KernelEmitter::lookup(Scope *scope, Value value) const {
  for (; scope; scope = scope->parent)
    if (Value v = scope->values.lookup(value))
      return v;
  return nullptr;
}

SmallVector<Value> KernelEmitter::dependencies(Value value) const {
  Operation *op = value.getDefiningOp();
  if (!op || isa<ReduceOp>(op))
    return {};
  if (auto load = dyn_cast<LoadOp>(op)) {
    auto it = plan.producers.find(load.getBuffer());
    if (it != plan.producers.end()) {
      StoreOp producer = it->second;
      return {producer.getValue()};
    }
    return SmallVector<Value>(
        load.getIndices().drop_front(load.getMap().getNumDims()));
  }
  if (auto index = dyn_cast<IndexExprOp>(op))
    return SmallVector<Value>(
        index.getIndices().drop_front(index.getMap().getNumDims()));
  if (auto masked = dyn_cast<MaskedOp>(op)) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(masked.getBody(), captured);
    SmallVector<Value> deps = {masked.getMask(), masked.getOther()};
    llvm::append_range(deps, captured);
    return deps;
  }
  return SmallVector<Value>(op->getOperands());
}

FailureOr<Value> KernelEmitter::materialize(OpBuilder &b, Scope &scope,
                                            Value root) {
  if (Value v = lookup(&scope, root))
    return v;
  SmallVector<Value> stack = {root};
  while (!stack.empty()) {
    Value value = stack.back();
    if (lookup(&scope, value)) {
      stack.pop_back();
      continue;
    }
    // Pushed in reverse so that operands are emitted in program order.
    bool ready = true;
    for (Value dep : llvm::reverse(dependencies(value)))
      if (!lookup(&scope, dep)) {
        stack.push_back(dep);
        ready = false;
      }
    if (!ready)
      continue;
    if (failed(emitDefinition(b, scope, value)))
      return failure();
    stack.pop_back();
  }
  return lookup(&scope, root);
}

FailureOr<Value> KernelEmitter::emitIndex(OpBuilder &b, Scope &scope,
                                          Operation *op, ValueRange symbols,
                                          Type type) {
  AffineExpr expr = plan.indexExprs.lookup(op);
  if (expr.isFunctionOfDim(1) && !scope.r)
    return op->emitOpError("internal error: a per-row value depends on the "
                           "position in the row");
  Type evalType =
      indexType.isIndex()
          ? indexType
          : getAffineEvaluationType(b.getContext(), expr,
                                    {plan.numel, plan.rnumel});
  SmallVector<Value> dims = {scope.x, scope.r ? scope.r : scope.x};
  Value v = emitAffineExpr(b, loc, expr, dims, {plan.numel, plan.rnumel},
                           symbols, evalType);
  return castIntegerLike(b, loc, v, type);
}

LogicalResult KernelEmitter::emitDefinition(OpBuilder &b, Scope &scope,
                                            Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // A loop variable of a member node.
    const MemberPlan &member = plan.getMember(arg.getOwner()->getParentOp());
    AffineExpr expr = member.loopVars[arg.getArgNumber()];
    if (expr.isFunctionOfDim(1) && !scope.r)
      return plan.op->emitOpError(
          "internal error: a per-row value depends on the position in the row");
    Type evalType =
        indexType.isIndex()
            ? indexType
            : getAffineEvaluationType(b.getContext(), expr,
                                      {plan.numel, plan.rnumel});
    SmallVector<Value> dims = {scope.x, scope.r ? scope.r : scope.x};
    Value v = emitAffineExpr(b, loc, expr, dims, {plan.numel, plan.rnumel},
                             {}, evalType);
    scope.values[value] = castIntegerLike(b, loc, v, b.getIndexType());
    return success();
  }

  Operation *op = value.getDefiningOp();
  auto operand = [&](Value v) { return lookup(&scope, v); };
  if (isa<ReduceOp>(op))
    return op->emitOpError("internal error: result used before its "
                           "reduction finished");

  if (auto load = dyn_cast<LoadOp>(op)) {
    auto it = plan.producers.find(load.getBuffer());
    if (it != plan.producers.end()) {
      StoreOp producer = it->second;
      scope.values[value] = operand(producer.getValue());
      return success();
    }
    SmallVector<Value> symbols;
    for (Value s : load.getIndices().drop_front(load.getMap().getNumDims()))
      symbols.push_back(operand(s));
    FailureOr<Value> index =
        emitIndex(b, scope, load, symbols, b.getIndexType());
    if (failed(index))
      return failure();
    Value memref = getMemref(load.getBuffer());
    auto stored = firstStorePhase.find(memref);
    if (stored != firstStorePhase.end() && stored->second < phase)
      return load.emitOpError("reads a storage that its kernel already "
                              "overwrote in place in an earlier pass over "
                              "the row; this kernel has no lowering");
    scope.values[value] = memref::LoadOp::create(b, loc, memref, *index);
    return success();
  }

  if (auto indexExpr = dyn_cast<IndexExprOp>(op)) {
    SmallVector<Value> symbols;
    for (Value s :
         indexExpr.getIndices().drop_front(indexExpr.getMap().getNumDims()))
      symbols.push_back(operand(s));
    FailureOr<Value> index =
        emitIndex(b, scope, indexExpr, symbols, indexExpr.getType());
    if (failed(index))
      return failure();
    scope.values[value] = *index;
    return success();
  }

  if (auto castOp = dyn_cast<CastOp>(op)) {
    scope.values[value] =
        emitTorchCast(b, loc, operand(castOp.getInput()), castOp.getType());
    return success();
  }

  if (auto rand = dyn_cast<RandOp>(op)) {
    scope.values[value] = emitPhiloxRand(b, loc, operand(rand.getSeed()),
                                         operand(rand.getOffset()));
    return success();
  }

  if (auto masked = dyn_cast<MaskedOp>(op)) {
    FailureOr<Value> result = emitMasked(b, scope, masked);
    if (failed(result))
      return failure();
    scope.values[value] = *result;
    return success();
  }

  IRMapping mapping;
  for (Value v : op->getOperands())
    mapping.map(v, operand(v));
  Operation *clone = b.clone(*op, mapping);
  for (auto [orig, copy] : llvm::zip(op->getResults(), clone->getResults()))
    scope.values[orig] = copy;
  return success();
}

FailureOr<Value> KernelEmitter::emitMasked(OpBuilder &b, Scope &scope,
                                           MaskedOp masked) {
  // The region may read out of bounds where the mask is false: run it
  // under the mask. Values it captures were emitted outside already.
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{masked.getType()},
                                lookup(&scope, masked.getMask()),
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Scope inner;
  inner.parent = &scope;
  inner.x = scope.x;
  inner.r = scope.r;
  inner.valid = scope.valid;
  auto yield = cast<YieldOp>(masked.getBody().front().getTerminator());
  FailureOr<Value> v = materialize(b, inner, yield.getValues().front());
  if (failed(v))
    return failure();
  scf::YieldOp::create(b, loc, *v);
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, loc, lookup(&scope, masked.getOther()));
  return ifOp.getResult(0);
}

FailureOr<KernelEmitter::PendingStore>
KernelEmitter::prepareStore(OpBuilder &b, Scope &scope, StoreOp store) {
  FailureOr<Value> value = materialize(b, scope, store.getValue());
  if (failed(value))
    return failure();
  SmallVector<Value> symbols;
  for (Value s : store.getIndices().drop_front(store.getMap().getNumDims())) {
    FailureOr<Value> sym = materialize(b, scope, s);
    if (failed(sym))
      return failure();
    symbols.push_back(*sym);
  }
  FailureOr<Value> index =
      emitIndex(b, scope, store, symbols, b.getIndexType());
  if (failed(index))
    return failure();
  NodeOp node = plan.getMember(store).node;
  Value result = node.getResultForHandle(cast<BlockArgument>(store.getBuffer()));
  return PendingStore{store, getMemref(result), *index, *value};
}

void KernelEmitter::emitStores(OpBuilder &b, ArrayRef<PendingStore> stores,
                               Value guard) {
  if (stores.empty())
    return;
  OpBuilder::InsertionGuard insertionGuard(b);
  if (guard) {
    auto ifOp = scf::IfOp::create(b, loc, guard, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  for (const PendingStore &store : stores) {
    firstStorePhase.try_emplace(store.memref, phase);
    StoreOp op = store.op;
    if (op.getMode()) {
      auto kind = isa<FloatType>(store.value.getType())
                      ? arith::AtomicRMWKind::addf
                      : arith::AtomicRMWKind::addi;
      memref::AtomicRMWOp::create(b, loc, kind, store.value, store.memref,
                                  ValueRange{store.index});
      continue;
    }
    memref::StoreOp::create(b, loc, store.value, store.memref,
                            ValueRange{store.index});
  }
}

/// The conjunction of two optional conditions.
static Value andConditions(OpBuilder &b, Location loc, Value a, Value c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return arith::AndIOp::create(b, loc, a, c);
}

std::unique_ptr<KernelEmitter::Scope>
KernelEmitter::makeElementScope(OpBuilder &b, Scope &row, Value position,
                                bool mayBePast) {
  auto scope = std::make_unique<Scope>();
  scope->parent = &row;
  scope->x = row.x;
  scope->r = position;
  if (mayBePast) {
    // Elements past the end compute on the last element and are masked out.
    Value last = createIntConstant(b, loc, indexType, plan.rnumel - 1);
    Value end = createIntConstant(b, loc, indexType, plan.rnumel);
    scope->valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         position, end);
    scope->r = arith::MinUIOp::create(b, loc, position, last);
  }
  return scope;
}

LogicalResult
KernelEmitter::accumulate(OpBuilder &b, Scope &element,
                          ArrayRef<Accumulator *> accumulators,
                          MutableArrayRef<SmallVector<Value>> values) {
  for (auto [acc, current] : llvm::zip(accumulators, values)) {
    SmallVector<Value> inputs;
    for (Value input : acc->reduce.getInputs()) {
      FailureOr<Value> v = materialize(b, element, input);
      if (failed(v))
        return failure();
      inputs.push_back(*v);
    }
    Value position;
    if (acc->combiner.needsPosition())
      position = castIntegerLike(b, loc, element.r, b.getI64Type());
    SmallVector<Value> lifted =
        acc->combiner.emitLift(b, loc, inputs, position);
    SmallVector<Value> combined =
        acc->combiner.emitCombine(b, loc, current, lifted);
    for (auto [slot, next] : llvm::zip(current, combined))
      slot = element.valid
                 ? arith::SelectOp::create(b, loc, element.valid, next, slot)
                       .getResult()
                 : next;
  }
  return success();
}

LogicalResult
KernelEmitter::emitLevel(OpBuilder &b, Scope &row, unsigned level,
                         const RowLayout &layout,
                         SmallVectorImpl<std::unique_ptr<Scope>> &elements) {
  SmallVector<std::unique_ptr<Accumulator>> owned;
  SmallVector<Accumulator *> accumulators;
  for (ReduceOp reduce : plan.reduces)
    if (plan.representative.lookup(reduce) == reduce &&
        plan.getLevel(reduce) == level) {
      owned.push_back(std::make_unique<Accumulator>(Accumulator{
          reduce, ReductionCombiner(reduce.getKind(),
                                    reduce.getInputs().getTypes())}));
      accumulators.push_back(owned.back().get());
    }
  SmallVector<StoreOp> stores;
  for (StoreOp store : plan.memoryStores)
    if (plan.isElementStore(store) && plan.getStoreDepth(store) == level)
      stores.push_back(store);
  if (accumulators.empty() && stores.empty())
    return success();

  SmallVector<SmallVector<Value>> values;
  for (Accumulator *acc : accumulators)
    values.push_back(acc->combiner.emitIdentity(b, loc));

  auto emitElementStores = [&](OpBuilder &eb, Scope &element) -> LogicalResult {
    SmallVector<PendingStore> pending;
    for (StoreOp store : stores) {
      FailureOr<PendingStore> p = prepareStore(eb, element, store);
      if (failed(p))
        return failure();
      pending.push_back(*p);
    }
    emitStores(eb, pending,
               andConditions(eb, loc, element.valid, layout.rowValid));
    return success();
  };

  int64_t numLanes = layout.numLanes;
  if (layout.persistent) {
    // The lane's elements, unrolled; their scopes live for the whole row so
    // that later levels reuse the values in registers.
    if (elements.empty())
      for (int64_t j = 0; j < layout.elementsPerLane; ++j) {
        Value position = arith::AddIOp::create(
            b, loc, layout.lane,
            createIntConstant(b, loc, indexType, j * numLanes));
        bool mayBePast = (j + 1) * numLanes > plan.rnumel;
        elements.push_back(makeElementScope(b, row, position, mayBePast));
      }
    for (auto &element : elements)
      if (failed(accumulate(b, *element, accumulators, values)))
        return failure();
    // Values first, then the stores: an in-place update must not be seen
    // by the loads of the same pass.
    for (auto &element : elements)
      if (failed(emitElementStores(b, *element)))
        return failure();
  } else {
    int64_t chunk = numLanes * layout.elementsPerLane;
    int64_t iterations = llvm::divideCeil(plan.rnumel, chunk);
    bool mayBePast = plan.rnumel % chunk != 0;
    SmallVector<Value> init;
    for (auto &v : values)
      llvm::append_range(init, v);
    LogicalResult bodyResult = success();
    auto loop = scf::ForOp::create(
        b, loc, createIntConstant(b, loc, indexType, 0),
        createIntConstant(b, loc, indexType, iterations),
        createIntConstant(b, loc, indexType, 1), init,
        [&](OpBuilder &lb, Location, Value iv, ValueRange iterArgs) {
          SmallVector<SmallVector<Value>> current;
          unsigned pos = 0;
          for (auto &v : values) {
            ValueRange slice = iterArgs.slice(pos, v.size());
            current.emplace_back(slice.begin(), slice.end());
            pos += v.size();
          }
          Value base = arith::MulIOp::create(
              lb, loc, iv, createIntConstant(lb, loc, indexType, chunk));
          base = arith::AddIOp::create(lb, loc, base, layout.lane);
          SmallVector<std::unique_ptr<Scope>> unrolled;
          for (int64_t u = 0; u < layout.elementsPerLane; ++u) {
            Value position = arith::AddIOp::create(
                lb, loc, base,
                createIntConstant(lb, loc, indexType, u * numLanes));
            unrolled.push_back(makeElementScope(lb, row, position, mayBePast));
            if (failed(accumulate(lb, *unrolled.back(), accumulators,
                                  current)))
              bodyResult = failure();
          }
          for (auto &element : unrolled)
            if (succeeded(bodyResult) &&
                failed(emitElementStores(lb, *element)))
              bodyResult = failure();
          SmallVector<Value> yielded;
          for (auto &v : current)
            llvm::append_range(yielded, v);
          scf::YieldOp::create(lb, loc, yielded);
        });
    if (failed(bodyResult))
      return failure();
    unsigned pos = 0;
    for (auto &v : values) {
      for (Value &slot : v)
        slot = loop.getResult(pos++);
    }
  }

  if (layout.combineAcrossLanes)
    for (auto [acc, v] : llvm::zip(accumulators, values))
      v = layout.combineAcrossLanes(b, loc, acc->combiner, v);

  for (ReduceOp reduce : plan.reduces) {
    ReduceOp rep = plan.representative.lookup(reduce);
    auto it = llvm::find_if(accumulators,
                            [&](Accumulator *a) { return a->reduce == rep; });
    if (it == accumulators.end())
      continue;
    SmallVector<Value> results =
        (*it)->combiner.emitResults(b, loc, values[it - accumulators.begin()]);
    for (auto [result, v] : llvm::zip(reduce.getResults(), results))
      row.values[result] = v;
  }
  return success();
}

LogicalResult KernelEmitter::emitRow(OpBuilder &b, Value x,
                                     const RowLayout &layout) {
  Scope row;
  row.x = x;
  SmallVector<std::unique_ptr<Scope>> elements;
  for (unsigned level = 0; level <= plan.numLevels; ++level) {
    // Per-row stores whose values wait for `level` reductions.
    ++phase;
    SmallVector<PendingStore> pending;
    for (StoreOp store : plan.memoryStores) {
      if (plan.isElementStore(store) || plan.getStoreDepth(store) != level)
        continue;
      FailureOr<PendingStore> p = prepareStore(b, row, store);
      if (failed(p))
        return failure();
      pending.push_back(*p);
    }
    emitStores(b, pending, layout.rowStoreGuard);
    if (level == plan.numLevels)
      break;
    ++phase;
    if (failed(emitLevel(b, row, level, layout, elements)))
      return failure();
  }
  return success();
}
