//===- KernelEmitter.h - Emitting the rows of a planned kernel --*- C++ -*-===//
//
// Emits the computation of one row of a kernel (see KernelPlan.h) with scf,
// memref, arith and math ops, for targets that spread a row's elements
// over several threads (the GPU: lanes of a warp or a block) or run it on
// one (the CPU). Member bodies are emitted on demand: a value is computed
// where it is first needed and reused within its scope, loads of buffers
// produced inside the group are replaced by the producer's stored value,
// and reductions run level by level, each as one pass over the row that
// folds the elements into per-lane accumulators, which the target then
// merges across lanes.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_KERNELEMITTER_H
#define SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_KERNELEMITTER_H

#include "scheduler-opt/Conversion/KernelCodegen/KernelPlan.h"
#include "scheduler-opt/Conversion/KernelCodegen/ReductionCombiner.h"
#include "scheduler-opt/Conversion/KernelCodegen/RowOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <memory>
#include <optional>

namespace mlir::fusion::codegen {

/// How the elements of a row are spread over the lanes (threads) that
/// compute it, and what the target does across lanes.
struct RowLayout {
  /// Lanes cooperating on one row, and this thread's lane (in the emitter's
  /// index type). Lane l handles elements l, l + numLanes, l + 2 numLanes...
  int64_t numLanes = 1;
  Value lane;
  /// When true, each lane's elements are unrolled and kept in registers
  /// across reduction levels (Inductor's persistent reductions); else each
  /// level loops over the row again.
  bool persistent = false;
  /// Elements per lane when persistent; elements per lane per iteration of
  /// the loop over the row otherwise. A multiple of `vectorWidth`.
  int64_t elementsPerLane = 1;
  /// Lanes take the row in groups of this many adjacent elements (lane l
  /// has groups l, l + numLanes, ...), whose contiguous, aligned loads and
  /// stores become vector accesses. The row length must be a multiple.
  int64_t vectorWidth = 1;
  // Rows of symbolic length are never persistent and never vectorized:
  // neither the unrolled lane count nor the divisibility holds at every
  // size.
  /// i1 that is false for rows past the end (threads of a partial last
  /// block), or null when every row is valid.
  Value rowValid;
  /// i1 that says whether this thread performs the stores of per-row
  /// values (one lane per row), or null when it always does.
  Value rowStoreGuard;
  /// Merges the accumulators of the lanes of a row; every lane gets the
  /// result. Null when a row has a single lane.
  std::function<SmallVector<Value>(OpBuilder &, Location,
                                   const ReductionCombiner &, ValueRange)>
      combineAcrossLanes;
  /// Values of loads that the target already read for this row (a
  /// transposing tile's loads, through shared memory; TransposeTiles.h),
  /// by load op; those loads are not emitted again.
  DenseMap<Operation *, Value> loadedValues;
  /// Welford and online-softmax statistics of rows held in registers are
  /// computed in two passes (as Inductor's persistent reductions do);
  /// false folds them element by element, which split reductions need
  /// (their lanes' partials are merged across blocks).
  bool twoPassStatistics = true;
  /// When set, merges the accumulators of all of a level's reductions, of
  /// all of a thread's rows, at once instead of combineAcrossLanes one by
  /// one (one barrier for all of them in a block; split reductions: one
  /// exchange between the row's blocks); every lane gets the results.
  /// Reductions computed in two passes over registers still use
  /// combineAcrossLanes.
  std::function<SmallVector<SmallVector<Value>>(
      OpBuilder &, Location, ArrayRef<const ReductionCombiner *>,
      ArrayRef<SmallVector<Value>>)>
      combineLevelAcrossLanes;
  /// Rows held in registers: before computing the values a pass stores,
  /// the thread issues the loads they need for all of its element groups
  /// (a normalization's weight and bias: each in flight while the others
  /// are), instead of each group's where the group first needs it, which
  /// leaves a trip to the cache between groups.
  bool earlyLoads = false;
  /// Rows held in registers: before the first reduction, each element
  /// issues the loads of later passes that do not depend on the row (a
  /// normalization's weight and bias, Triton's order), so that a trip to
  /// memory overlaps the row's loads and reductions instead of following
  /// them.
  bool hoistLoads = false;
  /// Where element r of row x lies in the storages of sorts and scans that
  /// keep their rows in memory (KernelPlan::rowScratchInMemory): at
  /// r * numel + x when true, so that threads taking adjacent rows access
  /// adjacent elements (the GPU's one thread per row, as its local memory
  /// interleaves threads); at x * rnumel + r, each row contiguous, when
  /// false (the CPU, and rows that several lanes scan together).
  bool interleavedRowScratch = false;
  /// Scans a row (tuples of the given types) with all `numLanes` lanes of
  /// the row together (the GPU's block scans, BlockScan.h), reading and
  /// putting its elements through the access: the row's scratch arrays in
  /// place, once every lane wrote its elements (every lane may read any
  /// element after it), or, where the scan's results only feed the element
  /// stores of the next pass over the row, the scan's inputs and those
  /// stores (the next pass is then not emitted). Null where a row has one
  /// lane, which scans it alone (emitRowScan).
  std::function<LogicalResult(OpBuilder &, Location, const ScanRowAccess &,
                              TypeRange, ScanCombineFn)>
      scanAcrossLanes;
  /// Sorts a row's scratch arrays in place (ascending when the bool is
  /// false) with all `numLanes` lanes of the row together (the GPU's block
  /// sorts, BlockSort.h), once every lane wrote its elements. Null where
  /// the target sorts rows on one lane (emitRowSort).
  std::function<LogicalResult(OpBuilder &, Location, const RowScratch &,
                              bool)>
      sortAcrossLanes;
  /// Allocates a scratch array of a static row that the row's lanes share
  /// (the GPU's shared memory), where sorts and scans do not keep their
  /// rows in memory. Null: each thread's own stack array.
  std::function<Value(OpBuilder &, Location, MemRefType)> allocateRowArray;
  /// Where a block takes several rows whose lanes share the arrays of
  /// allocateRowArray (of `rowsPerBlock` rows then), the position of the
  /// thread's row's first element in them (`index`). Null: one row.
  Value sharedRowOffset;
  /// Split reductions: set by combineAcrossLanes to the i1 that says
  /// whether this thread's block finished the row (the last of the row's
  /// blocks); per-row stores after a reduction also wait for it. Null
  /// otherwise.
  std::shared_ptr<Value> finishedRow;
  /// Adds `vector` (adjacent f32 elements of a group) into `memref` from
  /// element `index` on (aligned to the vector's size) with one atomic
  /// instruction, each element added atomically as a scalar atomic add
  /// would (sm_90's vector atomics). Null where the target has none: the
  /// group's atomic adds are then emitted element by element.
  std::function<void(OpBuilder &, Location, Value memref, Value index,
                     Value vector)>
      atomicAddVector;
};

/// One of the rows a thread computes: the row index (clamped into the
/// kernel), whether it is a real row, and whether this thread stores its
/// per-row values (see RowLayout::rowValid and rowStoreGuard).
struct RowInstance {
  Value x;
  Value valid;
  Value storeGuard;
};
// Kernels with sorts (RowOps.h) need one lane per row: each thread sorts
// its own row in scratch arrays (stack arrays, or its row of the scratch
// storages). Scans take a row on several lanes where the layout scans
// across them (RowLayout::scanAcrossLanes).

class KernelEmitter {
public:
  /// Bytes of a vector of `width` elements of `type`, or 0 when such
  /// vectors are not used.
  static int64_t getVectorBytes(Type type, int64_t width);
  /// `getMemref` returns the memref holding a buffer's storage. `indexType`
  /// is the type of row and element indices: `index` or an integer type.
  /// `sizeSymbols` are the values of the graph's size symbols in the
  /// kernel (integers or `index`; none for static graphs).
  KernelEmitter(const KernelPlan &plan,
                std::function<Value(Value buffer)> getMemref, Type indexType,
                ValueRange sizeSymbols = {});
  ~KernelEmitter();

  /// A size expression of the graph (numel, rnumel) in the index type, at
  /// `b`'s insertion point: a constant, or computed from the symbols.
  Value emitSize(OpBuilder &b, AffineExpr size) const;

  /// Emits the computation of row `x` (a valid row: the caller clamps rows
  /// past the end and says so in `layout.rowValid`) at `b`'s insertion
  /// point. Fails with a diagnostic on the kernel when a storage is read
  /// after the kernel overwrote it in place.
  LogicalResult emitRow(OpBuilder &b, Value x, const RowLayout &layout);

  /// Emits `load` (a load without indirect indices of a storage, in a
  /// kernel without reductions) for row `x` at `b`'s insertion point.
  FailureOr<Value> emitDirectLoad(OpBuilder &b, Value x, LoadOp load);

  /// Emits several rows that the same lanes compute at the same element
  /// positions (Triton's 2-D blocks with XBLOCK > 1), level by level: the
  /// rows' element loads that do not depend on the row (a weight or bias
  /// along the row, from a storage the kernel does not write) are loaded
  /// once for all of them. Rows must be persistent (in registers) when
  /// there are several; `layout.rowValid` and `rowStoreGuard` are ignored
  /// for the rows' own.
  LogicalResult emitRows(OpBuilder &b, ArrayRef<RowInstance> rows,
                         const RowLayout &layout);

  /// Allocates the per-thread scratch arrays of the kernel's sorts and
  /// scans (RowOps.h) at `b`'s insertion point, which must dominate every
  /// row, or takes their storages when the plan keeps rows in memory.
  /// Targets that emit rows inside a loop call it before the loop;
  /// emitRow allocates those not allocated yet where it starts.
  void allocateRowScratch(OpBuilder &b);

private:
  struct Scope;
  struct ElementGroup;
  struct PendingStore;
  struct Accumulator;
  struct LevelPartials;

  Value lookup(Scope *scope, Value value) const;
  FailureOr<Value> materialize(OpBuilder &b, Scope &scope, Value value);
  SmallVector<Value> dependencies(Value value) const;
  LogicalResult emitDefinition(OpBuilder &b, Scope &scope, Value value);
  /// Evaluates `expr` (of x, r and `symbols`) in `scope` as `type`; a
  /// per-row scope cannot evaluate one that depends on r (reported on
  /// `diagnosticOp`).
  FailureOr<Value> emitScopeExpr(OpBuilder &b, Scope &scope, AffineExpr expr,
                                 ValueRange symbols, Operation *diagnosticOp,
                                 Type type);
  FailureOr<Value> emitIndex(OpBuilder &b, Scope &scope, Operation *op,
                             ValueRange symbols, Type type);
  FailureOr<Value> emitMasked(OpBuilder &b, Scope &scope, MaskedOp masked);
  /// A masked region whose mask is the same for every element of a vector
  /// group: one `scf.if` for the whole group, yielding each element's
  /// value, so that the region's contiguous loads become vector loads.
  FailureOr<Value> emitGroupMasked(OpBuilder &b, Scope &scope,
                                   MaskedOp masked);
  /// True when `value` may differ between the elements of a row (it
  /// depends on r); false for values that only depend on the row.
  bool variesInRow(Value value);

  FailureOr<PendingStore> prepareStore(OpBuilder &b, Scope &scope,
                                       StoreOp store);
  /// Emits in `element` the loads that `stores`' values need and that are
  /// not emitted yet: of storages, without indirect indices, outside
  /// masked regions (RowLayout::earlyLoads).
  LogicalResult emitLoadsOf(OpBuilder &b, Scope &element,
                            ArrayRef<StoreOp> stores);
  /// The loads not emitted yet in `element` that `roots` need (walks stop
  /// at reductions); with `columnsOnly`, those whose index does not depend
  /// on the row.
  SmallVector<LoadOp> collectLoads(Scope &element, ArrayRef<Value> roots,
                                   bool columnsOnly);
  /// Emits in `element` the loads collectLoads finds.
  LogicalResult emitLoadsFor(OpBuilder &b, Scope &element,
                             ArrayRef<Value> roots, bool columnsOnly);
  void emitStores(OpBuilder &b, ArrayRef<PendingStore> stores, Value guard);

  std::unique_ptr<ElementGroup> makeGroup(OpBuilder &b, Scope &row,
                                          Value start, int64_t width,
                                          bool mayBePast);
  /// True when the elements of a group of `width` access adjacent elements
  /// from an aligned start (index = f(x) + r, f(x) a multiple of width).
  bool isContiguous(Operation *access, int64_t width) const;
  /// True when `load` has indirect indices that do not vary in the row
  /// (they depend on the row alone) and reads a group's `width` adjacent
  /// elements at an aligned position: one vector load for the group.
  bool isUniformGather(LoadOp load, int64_t width);
  /// True when the atomic add `store` of a group of `width` f32 elements
  /// adds to adjacent elements from an aligned position: index = f(x,
  /// indirect) + r, f a multiple of `width` for every value of its
  /// indirect indices, which do not vary in the row (a scatter into an
  /// embedding's gradient at 256 * token + r).
  bool isVectorAtomicAdd(StoreOp store, int64_t width);
  /// The test both share: `access`'s indirect indices do not vary in the
  /// row and its index is f(x, indirect) + r with f a multiple of `width`.
  bool isRowUniformAlignedStep(IndexedOpInterface access, int64_t width);
  LogicalResult accumulate(OpBuilder &b, Scope &element,
                           ArrayRef<Accumulator *> accumulators,
                           MutableArrayRef<SmallVector<Value>> values);
  /// Welford and online-softmax statistics of a row held in registers, in
  /// two passes as Inductor's persistent reductions compute them (mean,
  /// then squared deviations; maximum, then exponentials): no division or
  /// exponential per element in the combine.
  FailureOr<SmallVector<Value>>
  emitTwoPass(OpBuilder &b, Accumulator &acc,
              ArrayRef<std::unique_ptr<ElementGroup>> groups,
              const RowLayout &layout);
  /// Writes the inputs of the sorts and scans of a level for one element
  /// into their scratch arrays.
  /// `rowValid` (or null) is false for rows past the end, which must not
  /// write rows kept in memory: their clamped row is another thread's.
  LogicalResult storeRowOpInputs(OpBuilder &b, Scope &element,
                                 ArrayRef<Operation *> rowOps, Value rowValid);
  /// Sorts or scans the scratch arrays of `op` once the row's pass wrote
  /// them (in memory, only for a valid row).
  LogicalResult emitRowOp(OpBuilder &b, Scope &row, Operation *op,
                          Value rowValid, const RowLayout &layout);
  /// Emits the combine function of `scan` on the partial `lhs` and the
  /// elements `rhs`, in a scope of its own under `row`.
  FailureOr<SmallVector<Value>> emitScanCombine(OpBuilder &b, Scope &row,
                                                ScanOp scan, ValueRange lhs,
                                                ValueRange rhs);
  /// True when level `level`'s pass holds nothing but the block scan of
  /// `rowOps` (one scan, no reductions, no stores) and the next pass, the
  /// row's last, nothing but element stores: the scan then computes its
  /// inputs where it reads them and stores the next pass's values where
  /// it has its results (no scratch arrays, one pass over the row).
  bool canFuseBlockScan(unsigned level, const RowLayout &layout,
                        ArrayRef<Operation *> rowOps, bool hasAccumulators,
                        bool hasStores) const;
  /// The scratch arrays of row `x` of the sort or scan `op` (a
  /// representative) and where its elements lie in them.
  RowScratch getRowScratch(OpBuilder &b, Operation *op, Value x) const;
  /// One pass over row `row` at `level`; `peers` are the groups of the
  /// first row of the thread (empty for that row), whose row-independent
  /// loads this row reuses.
  /// With `deferred`, stops before merging the reductions across lanes
  /// and leaves their partials there (emitRows merges the levels of all
  /// of a thread's rows at once, then finishes each with finishLevel).
  LogicalResult
  emitLevel(OpBuilder &b, Scope &row, unsigned level, const RowLayout &layout,
            Value rowValid,
            SmallVectorImpl<std::unique_ptr<ElementGroup>> &groups,
            ArrayRef<std::unique_ptr<ElementGroup>> peers,
            LevelPartials *deferred = nullptr);
  /// Merges the open partials of `levels` across lanes with one call of
  /// `layout.combineLevelAcrossLanes`.
  void combineLevels(OpBuilder &b, const RowLayout &layout,
                     MutableArrayRef<LevelPartials> levels);
  /// Computes the reduce results of `level` (merging across lanes what
  /// combineLevels did not) and binds them in `row`.
  void finishLevel(OpBuilder &b, Scope &row, const RowLayout &layout,
                   LevelPartials &level);
  /// True when `load` reads the same element for every row at a given
  /// position in the row (its index does not depend on x, it has no
  /// indirect index, and the kernel does not write its storage).
  bool isColumnLoad(LoadOp load, Value memref) const;
  /// True when `load` reads elements of the row's own (its index depends on
  /// x, with no mod or division and no indirect index) from a storage the
  /// kernel does not write: read once, through the read-only path, they
  /// need not stay in L1 (the vector load is nontemporal; --fusion-to-ptx's
  /// cache-hints=loads or all).
  bool isStreamedLoad(LoadOp load, Value memref) const;

  const KernelPlan &plan;
  std::function<Value(Value)> getMemref;
  Type indexType;
  SmallVector<Value> sizeSymbols;
  /// rnumel in the index type for the row being emitted.
  Value rnumelValue;
  /// The row layout's loads read by the target (RowLayout::loadedValues).
  const DenseMap<Operation *, Value> *loadedValues = nullptr;
  Location loc;
  /// Phases of the row (one per row segment and per pass over the row), to
  /// detect loads of a storage after the kernel overwrote it.
  unsigned phase = 0;
  DenseMap<Value, unsigned> firstStorePhase;
  /// Scratch arrays of the sorts and scans, and those already computed
  /// (sorted or scanned) in the row being emitted.
  DenseMap<Operation *, SmallVector<Value>> rowScratch;
  DenseSet<Operation *> finishedRowOps;
  /// The level whose pass a block scan emitted with its own (emitLevel),
  /// for the row being emitted.
  std::optional<unsigned> fusedScanLevel;
  /// RowLayout::interleavedRowScratch of the rows being emitted.
  bool interleavedRowScratch = false;
  /// RowLayout::allocateRowArray of the rows being emitted.
  std::function<Value(OpBuilder &, Location, MemRefType)> allocateRowArray;
  /// RowLayout::sharedRowOffset of the rows being emitted.
  Value sharedRowOffset;
  /// Storages the kernel stores to (filled by emitRows).
  DenseSet<Value> writtenMemrefs;
  /// variesInRow's answers.
  DenseMap<Value, bool> variesInRowCache;
};

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_KERNELEMITTER_H
