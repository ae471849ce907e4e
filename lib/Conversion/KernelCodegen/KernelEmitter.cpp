//===- KernelEmitter.cpp - Emitting the rows of a planned kernel ----------===//

#include "scheduler-opt/Conversion/KernelCodegen/KernelEmitter.h"
#include "scheduler-opt/Conversion/KernelCodegen/InductorScalarOps.h"
#include "scheduler-opt/Conversion/KernelCodegen/RowOps.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
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
  /// The vector group of an element scope (null in row scopes and masked
  /// regions), and the element's place in it.
  ElementGroup *group = nullptr;
  int64_t inGroup = 0;
  DenseMap<Value, Value> values;
  /// Loads without indirect indices already emitted, by storage and index:
  /// different ops of the member bodies often load the same element.
  DenseMap<std::pair<Value, AffineExpr>, Value> loads;
};

/// `width` consecutive elements of a row handled by one lane: contiguous
/// loads and stores of the group move as one vector.
struct KernelEmitter::ElementGroup {
  int64_t width = 1;
  /// The position of the first element (clamped into the row).
  Value start;
  /// i1: false when the whole group is past the end of the row, or null.
  Value valid;
  SmallVector<std::unique_ptr<Scope>> elements;
  /// Vector values of the group's contiguous loads, by storage and index.
  DenseMap<std::pair<Value, AffineExpr>, Value> vectorLoads;
  /// The group at the same element positions in the first of the rows a
  /// thread computes (null in that row): loads that do not depend on the
  /// row are shared with it.
  ElementGroup *peer = nullptr;
  /// For the group inside a masked region (emitGroupMasked): the group
  /// around it, whose vector loads dominate the region.
  ElementGroup *outer = nullptr;
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

/// A level's reductions of one row between folding and merging across
/// lanes: each accumulator's partial values, or its results where already
/// known (two-pass statistics).
struct KernelEmitter::LevelPartials {
  SmallVector<std::unique_ptr<Accumulator>> accumulators;
  SmallVector<SmallVector<Value>> values;
  SmallVector<std::optional<SmallVector<Value>>> finals;
};

KernelEmitter::KernelEmitter(const KernelPlan &plan,
                             std::function<Value(Value)> getMemref,
                             Type indexType, ValueRange sizeSymbols)
    : plan(plan), getMemref(std::move(getMemref)), indexType(indexType),
      sizeSymbols(sizeSymbols.begin(), sizeSymbols.end()),
      loc(plan.op->getLoc()) {}

Value KernelEmitter::emitSize(OpBuilder &b, AffineExpr size) const {
  if (auto constant = dyn_cast<AffineConstantExpr>(size))
    return createIntConstant(b, loc, indexType, constant.getValue());
  return emitAffineExpr(b, loc, size, {}, {}, sizeSymbols, indexType);
}

KernelEmitter::~KernelEmitter() = default;

Value KernelEmitter::lookup(Scope *scope, Value value) const {
  for (; scope; scope = scope->parent)
    if (Value v = scope->values.lookup(value))
      return v;
  return nullptr;
}

SmallVector<Value> KernelEmitter::dependencies(Value value) const {
  Operation *op = value.getDefiningOp();
  if (!op || isa<ReduceOp>(op) || isRowOp(op))
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
    // Buffers are read through their storages, not materialized.
    for (Value v : captured)
      if (!isa<BufferType>(v.getType()))
        deps.push_back(v);
    return deps;
  }
  // Buffers an op reads whole (bucketize's boundaries) are storages.
  SmallVector<Value> deps;
  for (Value v : op->getOperands())
    if (!isa<BufferType>(v.getType()))
      deps.push_back(v);
  return deps;
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
    // A named vector: reversing the temporary would iterate freed memory
    // once it outgrows its inline storage.
    SmallVector<Value> deps = dependencies(value);
    for (Value dep : llvm::reverse(deps))
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
  return emitScopeExpr(b, scope, plan.indexExprs.lookup(op), symbols, op,
                       type);
}

FailureOr<Value> KernelEmitter::emitScopeExpr(OpBuilder &b, Scope &scope,
                                              AffineExpr expr,
                                              ValueRange symbols,
                                              Operation *diagnosticOp,
                                              Type type) {
  if (expr.isFunctionOfDim(1) && !scope.r)
    return diagnosticOp->emitOpError("internal error: a per-row value "
                                     "depends on the position in the row");
  Type evalType =
      indexType.isIndex()
          ? indexType
          : getAffineEvaluationType(b.getContext(), expr,
                                    {plan.numel, plan.rnumel});
  SmallVector<Value> dims = {scope.x, scope.r ? scope.r : scope.x};
  // Size symbols come after the op's indirect indices.
  SmallVector<Value> allSymbols(symbols.begin(), symbols.end());
  llvm::append_range(allSymbols, sizeSymbols);
  Value v = emitAffineExpr(b, loc, expr, dims, {plan.numel, plan.rnumel},
                           allSymbols, evalType);
  return castIntegerLike(b, loc, v, type);
}

LogicalResult KernelEmitter::emitDefinition(OpBuilder &b, Scope &scope,
                                            Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // A loop variable of a member node (a scan's combine function binds its
    // own arguments before it emits).
    if (!isa<NodeOp>(arg.getOwner()->getParentOp()))
      return plan.op->emitOpError("internal error: an argument of a region "
                                  "inside a node body is used outside it");
    const MemberPlan &member = plan.getMember(arg.getOwner()->getParentOp());
    FailureOr<Value> v =
        emitScopeExpr(b, scope, member.loopVars[arg.getArgNumber()], {},
                      plan.op, b.getIndexType());
    if (failed(v))
      return failure();
    scope.values[value] = *v;
    return success();
  }

  Operation *op = value.getDefiningOp();
  auto operand = [&](Value v) { return lookup(&scope, v); };
  if (isa<ReduceOp>(op))
    return op->emitOpError("internal error: result used before its "
                           "reduction finished");
  if (isRowOp(op)) {
    // Each element reads its own position of the sorted or scanned row.
    Operation *rep = plan.rowRepresentative.lookup(op);
    if (!scope.r || !finishedRowOps.contains(rep))
      return op->emitOpError("internal error: result used outside a pass "
                             "over the row after it was computed");
    RowScratch row = getRowScratch(b, rep, scope.x);
    Value position = row.getPosition(
        b, loc, castIntegerLike(b, loc, scope.r, b.getIndexType()));
    for (auto [result, array] : llvm::zip(op->getResults(), row.arrays))
      scope.values[result] =
          memref::LoadOp::create(b, loc, array, ValueRange{position});
    return success();
  }

  if (auto load = dyn_cast<LoadOp>(op)) {
    auto it = plan.producers.find(load.getBuffer());
    if (it != plan.producers.end()) {
      StoreOp producer = it->second;
      scope.values[value] = operand(producer.getValue());
      return success();
    }
    if (Value loaded = loadedValues ? loadedValues->lookup(op) : Value()) {
      scope.values[value] = loaded;
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
    std::pair<Value, AffineExpr> key = {memref, plan.indexExprs.lookup(load)};
    // Loads that are the same for every row of the thread go to the first
    // row's group (rows are emitted in order within each straight-line
    // level, so its values dominate the other rows' uses).
    ElementGroup *group = scope.group;
    Scope *cacheScope = &scope;
    if (group && group->peer && isColumnLoad(load, memref)) {
      group = group->peer;
      cacheScope = group->elements[scope.inGroup].get();
    }
    bool gather = group && group->width > 1 &&
                  isUniformGather(load, group->width);
    if (group && group->width > 1 &&
        (gather || isContiguous(load, group->width))) {
      // One vector load per group; the first element of the group computes
      // its index (elements are emitted in order, so it dominates the rest).
      // A gather's index has indirect symbols that the expression does not
      // name: its vector is the load's own.
      if (gather)
        key = {value, key.second};
      Value &vector = group->vectorLoads[key];
      for (ElementGroup *g = group->outer; g && !vector; g = g->outer)
        vector = g->vectorLoads.lookup(key);
      if (!vector) {
        Scope &first = *group->elements.front();
        FailureOr<Value> start =
            emitIndex(b, first, load, symbols, b.getIndexType());
        if (failed(start))
          return failure();
        auto type = VectorType::get({group->width}, value.getType());
        vector = vector::LoadOp::create(
            b, loc, type, memref, ValueRange{*start},
            /*nontemporal=*/isStreamedLoad(load, memref),
            llvm::MaybeAlign(getVectorBytes(value.getType(), group->width)));
      }
      scope.values[value] =
          vector::ExtractOp::create(b, loc, vector, scope.inGroup);
      return success();
    }
    if (!hasIndirectIndices(load)) {
      for (Scope *s = cacheScope; s; s = s->parent)
        if (Value loaded = s->loads.lookup(key)) {
          scope.values[value] = loaded;
          return success();
        }
      scope.values[value] = cacheScope->loads[key] =
          memref::LoadOp::create(b, loc, memref, *index);
      return success();
    }
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

  if (isInductorScalarOp(op)) {
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(isa<BufferType>(v.getType()) ? getMemref(v)
                                                      : operand(v));
    FailureOr<SmallVector<Value>> results =
        emitInductorScalarOp(b, op, operands);
    if (failed(results))
      return failure();
    for (auto [orig, v] : llvm::zip(op->getResults(), *results))
      scope.values[orig] = v;
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

bool KernelEmitter::variesInRow(Value root) {
  // Post-order over the values `root` depends on, with an explicit stack.
  SmallVector<Value> stack = {root};
  while (!stack.empty()) {
    Value value = stack.back();
    if (variesInRowCache.count(value)) {
      stack.pop_back();
      continue;
    }
    auto exprVaries = [&](Operation *access) {
      return plan.indexExprs.lookup(access).isFunctionOfDim(1);
    };
    // The values `value` is computed from, and whether it varies on its own.
    SmallVector<Value> operands;
    bool varies = false;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      varies = !isa<NodeOp>(owner) ||
               plan.getMember(owner).loopVars[arg.getArgNumber()]
                   .isFunctionOfDim(1);
    } else {
      Operation *op = value.getDefiningOp();
      if (isa<ReduceOp>(op)) {
        varies = false; // one value per row
      } else if (isRowOp(op)) {
        varies = true;
      } else if (auto load = dyn_cast<LoadOp>(op)) {
        auto it = plan.producers.find(load.getBuffer());
        if (it != plan.producers.end()) {
          StoreOp producer = it->second;
          operands.push_back(producer.getValue());
        } else
          varies = exprVaries(load);
        llvm::append_range(
            operands, load.getIndices().drop_front(load.getMap().getNumDims()));
      } else if (auto index = dyn_cast<IndexExprOp>(op)) {
        varies = exprVaries(index);
        llvm::append_range(operands, index.getIndices().drop_front(
                                         index.getMap().getNumDims()));
      } else if (auto masked = dyn_cast<MaskedOp>(op)) {
        operands = {masked.getMask(), masked.getOther(),
                    cast<YieldOp>(masked.getBody().front().getTerminator())
                        .getValues()
                        .front()};
      } else if (op->getNumRegions() != 0) {
        varies = true;
      } else {
        for (Value v : op->getOperands())
          if (!isa<BufferType>(v.getType()))
            operands.push_back(v);
      }
    }
    bool ready = true;
    for (Value v : operands) {
      auto it = variesInRowCache.find(v);
      if (it == variesInRowCache.end()) {
        if (!varies) {
          stack.push_back(v);
          ready = false;
        }
      } else {
        varies |= it->second;
      }
    }
    if (!ready)
      continue;
    variesInRowCache[value] = varies;
    stack.pop_back();
  }
  return variesInRowCache.lookup(root);
}

FailureOr<Value> KernelEmitter::emitGroupMasked(OpBuilder &b, Scope &scope,
                                                MaskedOp masked) {
  ElementGroup &group = *scope.group;
  // What the region captures, for every element (materialize did it for
  // this one).
  SmallVector<Value> captured = dependencies(masked.getResult());
  for (auto &element : group.elements)
    for (Value v : captured)
      if (failed(materialize(b, *element, v)))
        return failure();
  SmallVector<Type> types(group.width, masked.getType());
  auto ifOp = scf::IfOp::create(b, loc, types,
                                lookup(&scope, masked.getMask()),
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    ElementGroup inner;
    inner.width = group.width;
    inner.start = group.start;
    inner.valid = group.valid;
    inner.outer = &group;
    for (auto &element : group.elements) {
      auto s = std::make_unique<Scope>();
      s->parent = element.get();
      s->x = element->x;
      s->r = element->r;
      s->valid = element->valid;
      s->group = &inner;
      s->inGroup = element->inGroup;
      inner.elements.push_back(std::move(s));
    }
    auto yield = cast<YieldOp>(masked.getBody().front().getTerminator());
    SmallVector<Value> results;
    for (auto &element : inner.elements) {
      FailureOr<Value> v =
          materialize(b, *element, yield.getValues().front());
      if (failed(v))
        return failure();
      results.push_back(*v);
    }
    scf::YieldOp::create(b, loc, results);
    b.setInsertionPointToStart(ifOp.elseBlock());
    SmallVector<Value> others;
    for (auto &element : group.elements)
      others.push_back(lookup(element.get(), masked.getOther()));
    scf::YieldOp::create(b, loc, others);
  }
  for (auto [element, result] : llvm::zip(group.elements, ifOp.getResults()))
    element->values[masked.getResult()] = result;
  return ifOp.getResult(scope.inGroup);
}

FailureOr<Value> KernelEmitter::emitMasked(OpBuilder &b, Scope &scope,
                                           MaskedOp masked) {
  if (scope.group && scope.group->width > 1 && !variesInRow(masked.getMask()))
    return emitGroupMasked(b, scope, masked);
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

std::unique_ptr<KernelEmitter::ElementGroup>
KernelEmitter::makeGroup(OpBuilder &b, Scope &row, Value start, int64_t width,
                         bool mayBePast) {
  auto group = std::make_unique<ElementGroup>();
  group->width = width;
  group->start = start;
  if (mayBePast) {
    // A group past the end computes on the last group and is masked out.
    Value last, end;
    if (plan.hasStaticRNumel()) {
      last = createIntConstant(b, loc, indexType, plan.rnumel - width);
      end = createIntConstant(b, loc, indexType, plan.rnumel);
    } else {
      end = rnumelValue;
      last = arith::SubIOp::create(
          b, loc, end, createIntConstant(b, loc, indexType, width));
    }
    group->valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         start, end);
    group->start = arith::MinUIOp::create(b, loc, start, last);
  }
  for (int64_t v = 0; v < width; ++v) {
    auto scope = std::make_unique<Scope>();
    scope->parent = &row;
    scope->x = row.x;
    scope->r = v == 0 ? group->start
                      : arith::AddIOp::create(
                            b, loc, group->start,
                            createIntConstant(b, loc, indexType, v))
                            .getResult();
    scope->valid = group->valid;
    scope->group = group.get();
    scope->inGroup = v;
    group->elements.push_back(std::move(scope));
  }
  return group;
}

/// Whether index `expr` (d0: the row's block, d1: the element in the row)
/// is f(...) + d1 with f a multiple of `width` for every value of its
/// `numSymbols` symbols: a group's `width` elements are adjacent and their
/// vector is aligned.
static bool isAlignedRowStep(AffineExpr expr, int64_t width,
                             unsigned numSymbols) {
  AffineExpr rest = simplifyIndexExpr(
      expr - getAffineDimExpr(1, expr.getContext()), 2, numSymbols);
  if (rest.isFunctionOfDim(1))
    return false;
  AffineExpr misalignment = simplifyIndexExpr(rest % width, 2, numSymbols);
  auto constant = dyn_cast<AffineConstantExpr>(misalignment);
  return constant && constant.getValue() == 0;
}

bool KernelEmitter::isContiguous(Operation *access, int64_t width) const {
  Type type = isa<LoadOp>(access) ? access->getResult(0).getType()
                                  : cast<StoreOp>(access).getValue().getType();
  if (!getVectorBytes(type, width) || access->getNumOperands() == 0)
    return false;
  if (hasIndirectIndices(access) ||
      (isa<StoreOp>(access) && cast<StoreOp>(access).getMode()))
    return false;
  return isAlignedRowStep(plan.indexExprs.lookup(access), width,
                          plan.numSizeSymbols);
}

bool KernelEmitter::isUniformGather(LoadOp load, int64_t width) {
  if (!hasIndirectIndices(load) ||
      !getVectorBytes(load.getResult().getType(), width))
    return false;
  return isRowUniformAlignedStep(load, width);
}

bool KernelEmitter::isRowUniformAlignedStep(IndexedOpInterface access,
                                            int64_t width) {
  // The indirect indices are the same for every element of the row (an
  // embedding's token, loaded once per row), so the group's elements are
  // adjacent when index = f(x, indirect) + r; aligned when f is a multiple
  // of the width for every value of the indirect indices.
  for (Value indirect : access.getIndirectIndices())
    if (variesInRow(indirect))
      return false;
  AffineExpr expr = plan.indexExprs.lookup(access);
  return expr && isAlignedRowStep(expr, width,
                                  access.getNumIndirectSymbols() +
                                      plan.numSizeSymbols);
}

bool KernelEmitter::isVectorAtomicAdd(StoreOp store, int64_t width) {
  if (!store.getMode() || !store.getValue().getType().isF32() ||
      (width != 2 && width != 4))
    return false;
  // Each element of the group adds at its own index; one vector adds at
  // the first element's, which the others follow when the indirect indices
  // are the same for all of them (they depend on the row alone).
  return isRowUniformAlignedStep(store, width);
}

bool KernelEmitter::isColumnLoad(LoadOp load, Value memref) const {
  return !hasIndirectIndices(load) &&
         !plan.indexExprs.lookup(load).isFunctionOfDim(0) &&
         !writtenMemrefs.contains(memref);
}

bool KernelEmitter::isStreamedLoad(LoadOp load, Value memref) const {
  AffineExpr index = plan.indexExprs.lookup(load);
  if (hasIndirectIndices(load) || !index || !index.isFunctionOfDim(0) ||
      writtenMemrefs.contains(memref))
    return false;
  // A mod or a division can map many rows (or flat positions) to one
  // element, as a bias indexed by x mod 1024 does: those stay in L1.
  bool repeats = false;
  index.walk([&](AffineExpr e) {
    AffineExprKind kind = e.getKind();
    repeats |= kind == AffineExprKind::Mod ||
               kind == AffineExprKind::FloorDiv ||
               kind == AffineExprKind::CeilDiv;
  });
  return !repeats;
}

int64_t KernelEmitter::getVectorBytes(Type type, int64_t width) {
  // i1 vectors are bit-packed in LLVM, unlike i1 memrefs (a byte each).
  if (!type.isIntOrFloat() || type.isInteger(1))
    return 0;
  int64_t bytes = width * (type.getIntOrFloatBitWidth() / 8);
  return bytes <= 16 && llvm::isPowerOf2_64(bytes) ? bytes : 0;
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

FailureOr<SmallVector<Value>> KernelEmitter::emitTwoPass(
    OpBuilder &b, Accumulator &acc,
    ArrayRef<std::unique_ptr<ElementGroup>> groups, const RowLayout &layout) {
  SmallVector<std::pair<Value, Value>> elements; // (input, valid)
  for (auto &group : groups)
    for (auto &element : group->elements) {
      FailureOr<Value> v =
          materialize(b, *element, acc.reduce.getInputs().front());
      if (failed(v))
        return failure();
      elements.push_back({*v, element->valid});
    }
  Type type = acc.reduce.getInputs().front().getType();
  // Folds term(element) over the row with `kind`.
  auto fold = [&](ReduceKind kind, function_ref<Value(Value)> term) {
    ReductionCombiner combiner(kind, TypeRange{type});
    SmallVector<Value> a = combiner.emitIdentity(b, loc);
    for (auto [v, valid] : elements) {
      Value next = combiner.emitCombine(b, loc, a, {term(v)}).front();
      a[0] = valid ? arith::SelectOp::create(b, loc, valid, next, a[0])
                         .getResult()
                   : next;
    }
    if (layout.combineAcrossLanes)
      a = layout.combineAcrossLanes(b, loc, combiner, a);
    return a[0];
  };
  auto self = [](Value v) { return v; };
  if (acc.combiner.getKind() == ReduceKind::OnlineSoftmaxReduce) {
    Value max = fold(ReduceKind::Max, self);
    Value sum = fold(ReduceKind::Sum, [&](Value v) -> Value {
      return math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, v, max));
    });
    return SmallVector<Value>{max, sum};
  }
  // Welford: the mean, then the sum of squared deviations from it.
  Value count = createFloatConstant(b, loc, type, double(plan.rnumel));
  Value mean = arith::DivFOp::create(b, loc, fold(ReduceKind::Sum, self), count);
  Value m2 = fold(ReduceKind::Sum, [&](Value v) -> Value {
    Value d = arith::SubFOp::create(b, loc, v, mean);
    return arith::MulFOp::create(b, loc, d, d);
  });
  return SmallVector<Value>{mean, m2, count};
}

void KernelEmitter::allocateRowScratch(OpBuilder &b) {
  // (A stack array needs a static length; emitRows reports rows of
  // symbolic length without storages.)
  if (!plan.rowScratchInMemory && !plan.hasStaticRNumel())
    return;
  for (Operation *op : plan.rowOps) {
    if (plan.rowRepresentative.lookup(op) != op || rowScratch.count(op))
      continue;
    SmallVector<Value> &arrays = rowScratch[op];
    for (OpResult result : op->getResults()) {
      auto type = MemRefType::get({plan.rnumel}, result.getType());
      arrays.push_back(plan.rowScratchInMemory ? getMemref(result)
                       : allocateRowArray
                           ? allocateRowArray(b, loc, type)
                           : memref::AllocaOp::create(b, loc, type).getResult());
    }
  }
}

RowScratch KernelEmitter::getRowScratch(OpBuilder &b, Operation *op,
                                        Value x) const {
  RowScratch row;
  row.arrays = rowScratch.lookup(op);
  // A sort's inputs after the key that are the reduction index itself.
  if (isa<OpaqueOp>(op)) {
    AffineExpr r = getAffineDimExpr(1, op->getContext());
    for (auto [i, input] : llvm::enumerate(op->getOperands())) {
      auto indexExpr = input.getDefiningOp<IndexExprOp>();
      row.positional.push_back(i > 0 && indexExpr &&
                               plan.indexExprs.lookup(indexExpr) == r);
    }
  }
  Type index = b.getIndexType();
  auto size = [&](AffineExpr expr) {
    return emitAffineExpr(b, loc, expr, {}, {}, sizeSymbols, index);
  };
  if (plan.hasStaticRNumel())
    row.staticSize = plan.rnumel;
  else
    row.size = size(plan.rnumelExpr);
  if (!plan.rowScratchInMemory) {
    if (allocateRowArray)
      row.offset = sharedRowOffset;
    return row;
  }
  // Rows of numel x rnumel elements: at r * numel + x, or x * rnumel + r.
  Value xIndex = castIntegerLike(b, loc, x, index);
  if (interleavedRowScratch) {
    row.offset = xIndex;
    row.stride = size(plan.numelExpr);
  } else {
    row.offset = arith::MulIOp::create(b, loc, xIndex, row.getSize(b, loc));
  }
  return row;
}

LogicalResult KernelEmitter::storeRowOpInputs(OpBuilder &b, Scope &element,
                                              ArrayRef<Operation *> rowOps,
                                              Value rowValid) {
  for (Operation *op : rowOps) {
    SmallVector<Value> inputs;
    for (Value input : op->getOperands()) {
      FailureOr<Value> v = materialize(b, element, input);
      if (failed(v))
        return failure();
      inputs.push_back(*v);
    }
    OpBuilder::InsertionGuard guard(b);
    Value valid = plan.rowScratchInMemory
                      ? andConditions(b, loc, element.valid, rowValid)
                      : element.valid;
    if (valid) {
      auto ifOp = scf::IfOp::create(b, loc, valid, /*withElseRegion=*/false);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    }
    RowScratch row = getRowScratch(b, op, element.x);
    Value position = row.getPosition(
        b, loc, castIntegerLike(b, loc, element.r, b.getIndexType()));
    for (auto [v, array] : llvm::zip(inputs, row.arrays))
      memref::StoreOp::create(b, loc, v, array, ValueRange{position});
  }
  return success();
}

LogicalResult KernelEmitter::emitLoadsOf(OpBuilder &b, Scope &element,
                                         ArrayRef<StoreOp> stores) {
  SmallVector<Value> roots;
  for (StoreOp store : stores)
    roots.push_back(store.getValue());
  return emitLoadsFor(b, element, roots, /*columnsOnly=*/false);
}

SmallVector<LoadOp> KernelEmitter::collectLoads(Scope &element,
                                                ArrayRef<Value> roots,
                                                bool columnsOnly) {
  // The values, walked back to their loads with a worklist (a fixed order:
  // the output does not depend on hashing); reductions and sorts end a walk
  // (their results are known, or wait for a later level), and so do values
  // already emitted.
  SmallVector<Value> worklist(roots);
  DenseSet<Value> seen;
  SmallVector<LoadOp> loads;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second || lookup(&element, value))
      continue;
    auto load = value.getDefiningOp<LoadOp>();
    if (load && !plan.producers.contains(load.getBuffer()) &&
        !hasIndirectIndices(load) &&
        (!columnsOnly ||
         !plan.indexExprs.lookup(load).isFunctionOfDim(0)))
      loads.push_back(load);
    if (!isa_and_nonnull<MaskedOp>(value.getDefiningOp()))
      llvm::append_range(worklist, dependencies(value));
  }
  return loads;
}

LogicalResult KernelEmitter::emitLoadsFor(OpBuilder &b, Scope &element,
                                          ArrayRef<Value> roots,
                                          bool columnsOnly) {
  for (LoadOp load : collectLoads(element, roots, columnsOnly))
    if (failed(materialize(b, element, load.getResult())))
      return failure();
  return success();
}

LogicalResult KernelEmitter::emitRowOp(OpBuilder &b, Scope &row,
                                       Operation *op, Value rowValid,
                                       const RowLayout &layout) {
  OpBuilder::InsertionGuard guard(b);
  bool severalLanes = layout.numLanes > 1;
  if (plan.rowScratchInMemory && rowValid && !severalLanes) {
    auto ifOp = scf::IfOp::create(b, loc, rowValid, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  RowScratch scratch = getRowScratch(b, op, row.x);
  if (auto scan = dyn_cast<ScanOp>(op)) {
    auto combine = [&](OpBuilder &cb, ValueRange lhs, ValueRange rhs) {
      return emitScanCombine(cb, row, scan, lhs, rhs);
    };
    if (severalLanes) {
      // Every lane takes part in the scan (its barriers and shuffles);
      // a row past the last, a copy of the last one, writes nothing to
      // the last one's storages.
      ScanRowAccess access = getScratchAccess(b, scan.getLoc(), scratch);
      if (plan.rowScratchInMemory && rowValid)
        access.store = [store = access.store, rowValid,
                        loc = scan.getLoc()](
                           OpBuilder &sb, Value first,
                           ArrayRef<SmallVector<Value>> results) {
          OpBuilder::InsertionGuard storeGuard(sb);
          auto ifOp =
              scf::IfOp::create(sb, loc, rowValid, /*withElseRegion=*/false);
          sb.setInsertionPoint(ifOp.thenBlock()->getTerminator());
          return store(sb, first, results);
        };
      return layout.scanAcrossLanes(b, scan.getLoc(), access,
                                    scan.getResultTypes(), combine);
    }
    return emitRowScan(b, scan.getLoc(), scratch, combine);
  }
  auto opaque = cast<OpaqueOp>(op);
  if (opaque.getOpName() == "sort") {
    auto descending = op->getAttrOfType<BoolAttr>("descending");
    bool isDescending = descending && descending.getValue();
    // Every lane takes part in the sort (its barriers).
    if (severalLanes)
      return layout.sortAcrossLanes(b, op->getLoc(), scratch, isDescending);
    emitRowSort(b, op->getLoc(), scratch, isDescending);
    return success();
  }
  return checkRowOp(op);
}

FailureOr<SmallVector<Value>>
KernelEmitter::emitScanCombine(OpBuilder &b, Scope &row, ScanOp scan,
                               ValueRange lhs, ValueRange rhs) {
  // The combine function's ops are emitted like the body's, in a scope of
  // their own per step, with its arguments bound to the partial and
  // current tuples; values it captures from the body come from the row.
  Block &combine = scan.getCombine().front();
  auto yield = cast<ScanYieldOp>(combine.getTerminator());
  Scope step;
  step.parent = &row;
  step.x = row.x;
  for (auto [arg, v] : llvm::zip(combine.getArguments(),
                                 llvm::concat<const Value>(lhs, rhs)))
    step.values[arg] = v;
  SmallVector<Value> results;
  for (Value v : yield.getValues()) {
    FailureOr<Value> emitted = materialize(b, step, v);
    if (failed(emitted))
      return failure();
    results.push_back(*emitted);
  }
  return results;
}

bool KernelEmitter::canFuseBlockScan(unsigned level, const RowLayout &layout,
                                     ArrayRef<Operation *> rowOps,
                                     bool hasAccumulators,
                                     bool hasStores) const {
  if (layout.numLanes == 1 || !layout.scanAcrossLanes ||
      rowOps.size() != 1 || !isa<ScanOp>(rowOps.front()) ||
      hasAccumulators || hasStores || level + 2 != plan.numLevels)
    return false;
  return llvm::none_of(plan.reduces,
                       [&](ReduceOp reduce) {
                         return plan.getLevel(reduce) == level + 1;
                       }) &&
         llvm::none_of(plan.rowOps, [&](Operation *op) {
           return plan.getLevel(op) == level + 1;
         });
}

LogicalResult KernelEmitter::emitLevel(
    OpBuilder &b, Scope &row, unsigned level, const RowLayout &layout,
    Value rowValid, SmallVectorImpl<std::unique_ptr<ElementGroup>> &groups,
    ArrayRef<std::unique_ptr<ElementGroup>> peers, LevelPartials *deferred) {
  if (fusedScanLevel == level)
    return success();
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
  SmallVector<Operation *> rowOps;
  for (Operation *op : plan.rowOps)
    if (plan.rowRepresentative.lookup(op) == op && plan.getLevel(op) == level)
      rowOps.push_back(op);
  for (Operation *op : rowOps)
    if (layout.numLanes != 1 &&
        (isa<ScanOp>(op) ? !layout.scanAcrossLanes
                         : !isa<OpaqueOp>(op) || !layout.sortAcrossLanes))
      return op->emitOpError("internal error: a sort or scan where the "
                             "target sorts or scans rows on one lane needs "
                             "one lane per row");
  SmallVector<StoreOp> stores;
  for (StoreOp store : plan.memoryStores)
    if (plan.isElementStore(store) && plan.getEmitDepth(store) == level)
      stores.push_back(store);
  if (accumulators.empty() && stores.empty() && rowOps.empty())
    return success();
  bool fuseScan = !deferred && canFuseBlockScan(level, layout, rowOps,
                                                !accumulators.empty(),
                                                !stores.empty());
  if (fuseScan) {
    // The next pass's element stores are emitted where the scan has its
    // results.
    for (StoreOp store : plan.memoryStores)
      if (plan.isElementStore(store) && plan.getEmitDepth(store) == level + 1)
        stores.push_back(store);
  }

  SmallVector<SmallVector<Value>> values;
  for (Accumulator *acc : accumulators)
    values.push_back(acc->combiner.emitIdentity(b, loc));
  // The reduce results of each accumulator, once known.
  SmallVector<std::optional<SmallVector<Value>>> finals(accumulators.size());
  auto isTwoPass = [&](ReduceKind kind) {
    return layout.persistent && layout.twoPassStatistics &&
           (kind == ReduceKind::WelfordReduce ||
            kind == ReduceKind::OnlineSoftmaxReduce);
  };

  // Stores of a group, after the values of all its elements.
  auto emitGroupStores = [&](OpBuilder &eb, ElementGroup &group) -> LogicalResult {
    SmallVector<SmallVector<PendingStore>> perElement;
    for (auto &element : group.elements) {
      SmallVector<PendingStore> &pending = perElement.emplace_back();
      for (StoreOp store : stores) {
        FailureOr<PendingStore> p = prepareStore(eb, *element, store);
        if (failed(p))
          return failure();
        pending.push_back(*p);
      }
    }
    SmallVector<PendingStore> scalar;
    SmallVector<std::pair<PendingStore, Value>> vectors;
    for (auto [i, store] : llvm::enumerate(stores)) {
      // A group wider than a vector access (16 bytes: 4 elements of 64
      // bits) stores in vectors of 16 bytes, aligned as the group is.
      int64_t piece = group.width;
      if (group.width > 1 &&
          !(isContiguous(store, group.width) ||
            (layout.atomicAddVector &&
             isVectorAtomicAdd(store, group.width)))) {
        Type valueType = store.getValue().getType();
        while (piece > 2 && !getVectorBytes(valueType, piece))
          piece /= 2;
        if (piece == group.width || !isContiguous(store, piece) ||
            !isAlignedRowStep(plan.indexExprs.lookup(store), group.width,
                              plan.numSizeSymbols))
          piece = 1;
      }
      if (piece > 1) {
        SmallVector<Value> values;
        for (auto &pending : perElement)
          values.push_back(pending[i].value);
        auto type = VectorType::get({piece}, values.front().getType());
        for (int64_t k = 0; k < group.width; k += piece)
          vectors.push_back(
              {perElement[k][i],
               vector::FromElementsOp::create(
                   eb, loc, type, ArrayRef<Value>(values).slice(k, piece))});
        continue;
      }
      for (auto &pending : perElement)
        scalar.push_back(pending[i]);
    }
    Value guard = andConditions(eb, loc, group.valid, rowValid);
    emitStores(eb, scalar, guard);
    if (vectors.empty())
      return success();
    OpBuilder::InsertionGuard insertionGuard(eb);
    if (guard) {
      auto ifOp = scf::IfOp::create(eb, loc, guard, /*withElseRegion=*/false);
      eb.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    }
    for (auto &[store, vector] : vectors) {
      firstStorePhase.try_emplace(store.memref, phase);
      if (store.op.getMode()) {
        layout.atomicAddVector(eb, loc, store.memref, store.index, vector);
        continue;
      }
      // Results are stored evict-first (st.global.cs) with --fusion-to-ptx's
      // cache-hints=stores or all.
      vector::StoreOp::create(
          eb, loc, vector, store.memref, ValueRange{store.index},
          /*nontemporal=*/true,
          llvm::MaybeAlign(getVectorBytes(
              store.value.getType(),
              cast<VectorType>(vector.getType()).getNumElements())));
    }
    return success();
  };

  if (fuseScan) {
    auto scan = cast<ScanOp>(rowOps.front());
    // The groups of the elements the scan read last, whose scopes get its
    // results: a vector group of the thread's adjacent elements where whole
    // groups tile the row, else one group per element.
    SmallVector<std::unique_ptr<ElementGroup>> current;
    ScanRowAccess access;
    access.staticSize =
        plan.hasStaticRNumel() ? plan.rnumel : ShapedType::kDynamic;
    access.size =
        plan.hasStaticRNumel()
            ? arith::ConstantIndexOp::create(b, loc, plan.rnumel).getResult()
            : castIntegerLike(b, loc, rnumelValue, b.getIndexType());
    access.load = [&](OpBuilder &lb, Value first, int64_t count)
        -> FailureOr<SmallVector<SmallVector<Value>>> {
      current.clear();
      Value start = castIntegerLike(lb, loc, first, indexType);
      bool vector = plan.hasStaticRNumel() && plan.rnumel % count == 0;
      if (vector) {
        current.push_back(makeGroup(lb, row, start, count, /*mayBePast=*/true));
      } else {
        for (int64_t j = 0; j < count; ++j)
          current.push_back(makeGroup(
              lb, row,
              j == 0 ? start
                     : arith::AddIOp::create(
                           lb, loc, start,
                           createIntConstant(lb, loc, indexType, j))
                           .getResult(),
              1, /*mayBePast=*/true));
      }
      SmallVector<SmallVector<Value>> elements;
      for (auto &group : current)
        for (auto &element : group->elements) {
          SmallVector<Value> &tuple = elements.emplace_back();
          for (Value input : scan.getInputs()) {
            FailureOr<Value> v = materialize(lb, *element, input);
            if (failed(v))
              return failure();
            tuple.push_back(*v);
          }
        }
      return elements;
    };
    access.store = [&](OpBuilder &sb, Value,
                       ArrayRef<SmallVector<Value>> results) {
      unsigned next = 0;
      for (auto &group : current)
        for (auto &element : group->elements) {
          for (Operation *op : plan.rowOps)
            if (plan.rowRepresentative.lookup(op) == scan)
              for (auto [result, v] :
                   llvm::zip(op->getResults(), results[next]))
                element->values[result] = v;
          ++next;
        }
      for (auto &group : current)
        if (failed(emitGroupStores(sb, *group)))
          return failure();
      return success();
    };
    if (failed(layout.scanAcrossLanes(
            b, scan.getLoc(), access, scan.getResultTypes(),
            [&](OpBuilder &cb, ValueRange lhs, ValueRange rhs) {
              return emitScanCombine(cb, row, scan, lhs, rhs);
            })))
      return failure();
    finishedRowOps.insert(scan);
    fusedScanLevel = level + 1;
    return success();
  }

  int64_t numLanes = layout.numLanes;
  int64_t width = layout.vectorWidth;
  auto accumulateGroup = [&](OpBuilder &gb, ElementGroup &group,
                             MutableArrayRef<SmallVector<Value>> current) {
    for (auto &element : group.elements)
      if (failed(accumulate(gb, *element, accumulators, current)) ||
          failed(storeRowOpInputs(gb, *element, rowOps, rowValid)))
        return failure();
    return success();
  };
  if (layout.persistent) {
    if (!plan.hasStaticRNumel())
      return plan.op->emitOpError(
          "internal error: a persistent reduction over rows of symbolic "
          "length");
    // The lane's groups, unrolled; their scopes live for the whole row so
    // that later levels reuse the values in registers.
    int64_t numGroups = layout.elementsPerLane / width;
    bool firstLevel = groups.empty();
    if (firstLevel)
      for (int64_t j = 0; j < numGroups; ++j) {
        Value start = arith::MulIOp::create(
            b, loc,
            arith::AddIOp::create(
                b, loc, layout.lane,
                createIntConstant(b, loc, indexType, j * numLanes)),
            createIntConstant(b, loc, indexType, width));
        bool mayBePast = (j + 1) * numLanes * width > plan.rnumel;
        groups.push_back(makeGroup(b, row, start, width, mayBePast));
        if (!peers.empty())
          groups.back()->peer = peers[j].get();
      }
    // Reductions folded element by element, and those computed in two
    // passes over the registers.
    SmallVector<Accumulator *> onePass;
    SmallVector<SmallVector<Value>> onePassValues;
    for (auto [acc, v] : llvm::zip(accumulators, values))
      if (!isTwoPass(acc->combiner.getKind())) {
        onePass.push_back(acc);
        onePassValues.push_back(v);
      }
    // Before the first level's reductions: the loads of the later levels'
    // stores and reductions that do not depend on the row (a
    // normalization's weight and bias; loads of the row would hold more
    // registers across the reductions), after this level's own loads.
    if (layout.hoistLoads && firstLevel && !groups.empty()) {
      SmallVector<Value> now, later;
      for (StoreOp store : plan.memoryStores)
        if (plan.isElementStore(store))
          (plan.getEmitDepth(store) > level ? later : now)
              .push_back(store.getValue());
      for (ReduceOp reduce : plan.reduces)
        llvm::append_range(plan.getLevel(reduce) > level ? later : now,
                           reduce.getInputs());
      // (Only where later levels load columns that this level does not:
      // a backward layer norm's weight serves its first reduction.)
      Scope &first = *groups.front()->elements.front();
      SmallVector<LoadOp> nowLoads =
          collectLoads(first, now, /*columnsOnly=*/false);
      auto sameAccess = [&](LoadOp a, LoadOp b) {
        return getMemref(a.getBuffer()) == getMemref(b.getBuffer()) &&
               plan.indexExprs.lookup(a) == plan.indexExprs.lookup(b);
      };
      if (llvm::any_of(collectLoads(first, later, /*columnsOnly=*/true),
                       [&](LoadOp load) {
                         return llvm::none_of(nowLoads, [&](LoadOp now) {
                           return sameAccess(load, now);
                         });
                       }))
        for (auto &group : groups)
          for (auto &element : group->elements)
            if (failed(emitLoadsFor(b, *element, now, /*columnsOnly=*/false)) ||
                failed(emitLoadsFor(b, *element, later, /*columnsOnly=*/true)))
              return failure();
    }
    for (auto &group : groups)
      for (auto &element : group->elements)
        if (failed(accumulate(b, *element, onePass, onePassValues)) ||
            failed(storeRowOpInputs(b, *element, rowOps, rowValid)))
          return failure();
    unsigned next = 0;
    for (auto [i, acc] : llvm::enumerate(accumulators)) {
      if (!isTwoPass(acc->combiner.getKind())) {
        values[i] = onePassValues[next++];
        continue;
      }
      FailureOr<SmallVector<Value>> results =
          emitTwoPass(b, *acc, groups, layout);
      if (failed(results))
        return failure();
      finals[i] = *results;
    }
    if (layout.earlyLoads && groups.size() > 1)
      for (auto &group : groups)
        for (auto &element : group->elements)
          if (failed(emitLoadsOf(b, *element, stores)))
            return failure();
    // Values first, then the stores: an in-place update must not be seen
    // by the loads of the same pass.
    for (auto &group : groups)
      if (failed(emitGroupStores(b, *group)))
        return failure();
  } else {
    int64_t groupsPerIteration = layout.elementsPerLane / width;
    int64_t chunk = numLanes * layout.elementsPerLane;
    // ceil(rnumel / chunk) iterations, at run time when rnumel is symbolic.
    Value iterations;
    if (plan.hasStaticRNumel())
      iterations = createIntConstant(b, loc, indexType,
                                     llvm::divideCeil(plan.rnumel, chunk));
    else if (chunk == 1)
      iterations = rnumelValue;
    else
      iterations = arith::DivUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, rnumelValue,
                                createIntConstant(b, loc, indexType, chunk - 1)),
          createIntConstant(b, loc, indexType, chunk));
    bool mayBePast = !plan.hasStaticRNumel() || plan.rnumel % chunk != 0;
    SmallVector<Value> init;
    for (auto &v : values)
      llvm::append_range(init, v);
    LogicalResult bodyResult = success();
    auto loop = scf::ForOp::create(
        b, loc, createIntConstant(b, loc, indexType, 0), iterations,
        createIntConstant(b, loc, indexType, 1), init,
        [&](OpBuilder &lb, Location, Value iv, ValueRange iterArgs) {
          SmallVector<SmallVector<Value>> current;
          unsigned pos = 0;
          for (auto &v : values) {
            ValueRange slice = iterArgs.slice(pos, v.size());
            current.emplace_back(slice.begin(), slice.end());
            pos += v.size();
          }
          // Group g of iteration `iv` starts at
          // ((iv * groupsPerIteration + g) * numLanes + lane) * width.
          Value base = arith::MulIOp::create(
              lb, loc, iv,
              createIntConstant(lb, loc, indexType,
                                groupsPerIteration * numLanes));
          base = arith::AddIOp::create(lb, loc, base, layout.lane);
          SmallVector<std::unique_ptr<ElementGroup>> unrolled;
          for (int64_t g = 0; g < groupsPerIteration; ++g) {
            Value start = arith::MulIOp::create(
                lb, loc,
                arith::AddIOp::create(
                    lb, loc, base,
                    createIntConstant(lb, loc, indexType, g * numLanes)),
                createIntConstant(lb, loc, indexType, width));
            unrolled.push_back(makeGroup(lb, row, start, width, mayBePast));
            if (failed(accumulateGroup(lb, *unrolled.back(), current)))
              bodyResult = failure();
          }
          for (auto &group : unrolled)
            if (succeeded(bodyResult) && failed(emitGroupStores(lb, *group)))
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

  for (Operation *op : rowOps) {
    if (failed(emitRowOp(b, row, op, rowValid, layout)))
      return failure();
    finishedRowOps.insert(op);
  }

  LevelPartials partials{std::move(owned), std::move(values),
                         std::move(finals)};
  if (deferred) {
    *deferred = std::move(partials);
    return success();
  }
  if (layout.combineLevelAcrossLanes)
    combineLevels(b, layout, MutableArrayRef<LevelPartials>(partials));
  finishLevel(b, row, layout, partials);
  return success();
}

void KernelEmitter::combineLevels(OpBuilder &b, const RowLayout &layout,
                                  MutableArrayRef<LevelPartials> levels) {
  SmallVector<const ReductionCombiner *> combiners;
  SmallVector<SmallVector<Value>> partials;
  SmallVector<SmallVector<Value> *> open;
  for (LevelPartials &level : levels)
    for (auto [i, acc] : llvm::enumerate(level.accumulators))
      if (!level.finals[i]) {
        combiners.push_back(&acc->combiner);
        partials.push_back(level.values[i]);
        open.push_back(&level.values[i]);
      }
  if (open.empty())
    return;
  SmallVector<SmallVector<Value>> merged =
      layout.combineLevelAcrossLanes(b, loc, combiners, partials);
  for (auto [target, v] : llvm::zip(open, merged))
    *target = v;
}

void KernelEmitter::finishLevel(OpBuilder &b, Scope &row,
                                const RowLayout &layout, LevelPartials &level) {
  for (auto [i, acc] : llvm::enumerate(level.accumulators)) {
    if (level.finals[i])
      continue;
    SmallVector<Value> &values = level.values[i];
    if (layout.combineAcrossLanes && !layout.combineLevelAcrossLanes)
      values = layout.combineAcrossLanes(b, loc, acc->combiner, values);
    level.finals[i] = acc->combiner.emitResults(b, loc, values);
  }
  for (ReduceOp reduce : plan.reduces) {
    ReduceOp rep = plan.representative.lookup(reduce);
    auto it = llvm::find_if(level.accumulators,
                            [&](const auto &a) { return a->reduce == rep; });
    if (it == level.accumulators.end())
      continue;
    for (auto [result, v] :
         llvm::zip(reduce.getResults(),
                   *level.finals[it - level.accumulators.begin()]))
      row.values[result] = v;
  }
}

FailureOr<Value> KernelEmitter::emitDirectLoad(OpBuilder &b, Value x,
                                               LoadOp load) {
  if (plan.isReduction || hasIndirectIndices(load) || plan.isForwarded(load))
    return load.emitOpError("internal error: a direct load needs a "
                            "pointwise kernel and a load of a storage "
                            "without indirect indices");
  Scope row;
  row.x = x;
  row.r = createIntConstant(b, loc, indexType, 0);
  FailureOr<Value> index = emitIndex(b, row, load, {}, b.getIndexType());
  if (failed(index))
    return failure();
  return memref::LoadOp::create(b, loc, getMemref(load.getBuffer()), *index)
      .getResult();
}

LogicalResult KernelEmitter::emitRow(OpBuilder &b, Value x,
                                     const RowLayout &layout) {
  return emitRows(b, RowInstance{x, layout.rowValid, layout.rowStoreGuard},
                  layout);
}

LogicalResult KernelEmitter::emitRows(OpBuilder &b, ArrayRef<RowInstance> rows,
                                      const RowLayout &layout) {
  if (rows.size() > 1 && (!layout.persistent || !plan.rowOps.empty()))
    return plan.op->emitOpError("internal error: several rows per thread "
                                "need rows held in registers");
  writtenMemrefs.clear();
  for (StoreOp store : plan.memoryStores) {
    NodeOp node = plan.getMember(store).node;
    writtenMemrefs.insert(getMemref(
        node.getResultForHandle(cast<BlockArgument>(store.getBuffer()))));
  }
  struct RowState {
    Scope scope;
    SmallVector<std::unique_ptr<ElementGroup>> groups;
  };
  SmallVector<RowState> states(rows.size());
  for (auto [state, row] : llvm::zip(states, rows))
    state.scope.x = row.x;
  loadedValues = &layout.loadedValues;
  llvm::scope_exit forgetLoadedValues([&] { loadedValues = nullptr; });
  finishedRowOps.clear();
  fusedScanLevel.reset();
  if (!plan.rowOps.empty() && !plan.rowScratchInMemory &&
      !plan.hasStaticRNumel())
    return plan.rowOps.front()->emitOpError(
        "internal error: a sort or scan along rows of symbolic length "
        "without storages for its rows");
  interleavedRowScratch = layout.interleavedRowScratch;
  allocateRowArray = layout.allocateRowArray;
  sharedRowOffset = layout.sharedRowOffset;
  allocateRowScratch(b);
  for (Operation *op : plan.rowOps)
    if (llvm::is_contained(rowScratch.lookup(op), Value()))
      return op->emitOpError("internal error: the kernel does not take the "
                             "storages of its rows");
  // Computed once per row, where it dominates every use.
  rnumelValue = plan.hasStaticRNumel() ? Value() : emitSize(b, plan.rnumelExpr);
  for (unsigned level = 0; level <= plan.numLevels; ++level) {
    // Per-row stores whose values wait for `level` reductions (after a
    // split reduction, only where this block finished the row).
    ++phase;
    for (auto [state, row] : llvm::zip(states, rows)) {
      SmallVector<PendingStore> pending;
      for (StoreOp store : plan.memoryStores) {
        if (plan.isElementStore(store) || plan.getEmitDepth(store) != level)
          continue;
        FailureOr<PendingStore> p = prepareStore(b, state.scope, store);
        if (failed(p))
          return failure();
        pending.push_back(*p);
      }
      Value guard = row.storeGuard;
      if (!pending.empty() && level > 0 && layout.finishedRow &&
          *layout.finishedRow)
        guard = andConditions(b, loc, guard, *layout.finishedRow);
      emitStores(b, pending, guard);
    }
    if (level == plan.numLevels)
      break;
    ++phase;
    // The rows' reductions merge across lanes together (one barrier in
    // a block for all of them), after every row folded its partials.
    bool together = rows.size() > 1 && layout.combineLevelAcrossLanes;
    SmallVector<LevelPartials> partials(together ? rows.size() : 0);
    for (auto [k, state] : llvm::enumerate(states)) {
      ArrayRef<std::unique_ptr<ElementGroup>> peers;
      if (k > 0)
        peers = states.front().groups;
      if (failed(emitLevel(b, state.scope, level, layout, rows[k].valid,
                           state.groups, peers,
                           together ? &partials[k] : nullptr)))
        return failure();
    }
    if (together) {
      combineLevels(b, layout, partials);
      for (auto [state, p] : llvm::zip(states, partials))
        finishLevel(b, state.scope, layout, p);
    }
  }
  return success();
}
