//===- BlockScan.cpp - Scans of a row by a whole thread block -------------===//

#include "scheduler-opt/Conversion/FusionToGPU/BlockScan.h"
#include "scheduler-opt/Conversion/FusionToGPU/SharedMemory.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

namespace {
constexpr int64_t kWarpSize = 32;

/// A partial result of the scan, which may be absent (the combine function
/// need have no identity): `present` is an i1, or null when it is always
/// there.
struct Partial {
  SmallVector<Value> values;
  Value present;
};
} // namespace

Value codegen::shuffleScalar(OpBuilder &b, Location loc, Value value,
                             Value offset, gpu::ShuffleMode mode) {
  Type type = value.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Type i32 = b.getI32Type();
  Value warpSize = arith::ConstantIntOp::create(b, loc, i32, kWarpSize);
  auto shuffle = [&](Value v) {
    return gpu::ShuffleOp::create(b, loc, v, offset, warpSize, mode)
        .getShuffleResult();
  };
  if (width == 32)
    return shuffle(value);
  Type intType = b.getIntegerType(width);
  Value bits =
      isa<FloatType>(type)
          ? arith::BitcastOp::create(b, loc, intType, value).getResult()
          : value;
  Value result;
  if (width == 64) {
    Value lo = arith::TruncIOp::create(b, loc, i32, bits);
    Value hi = arith::TruncIOp::create(
        b, loc, i32,
        arith::ShRUIOp::create(b, loc, bits,
                               createIntConstant(b, loc, intType, 32)));
    Value lo64 = arith::ExtUIOp::create(b, loc, intType, shuffle(lo));
    Value hi64 = arith::ExtUIOp::create(b, loc, intType, shuffle(hi));
    result = arith::OrIOp::create(
        b, loc, lo64,
        arith::ShLIOp::create(b, loc, hi64,
                              createIntConstant(b, loc, intType, 32)));
  } else {
    Value wide = arith::ExtUIOp::create(b, loc, i32, bits);
    result = arith::TruncIOp::create(b, loc, intType, shuffle(wide));
  }
  if (isa<FloatType>(type))
    result = arith::BitcastOp::create(b, loc, type, result);
  return result;
}

/// `values` from lane `lane` (an `index`) of the warp.
static SmallVector<Value> shuffleFrom(OpBuilder &b, Location loc,
                                      ValueRange values, Value lane) {
  Value source = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), lane);
  SmallVector<Value> result;
  for (Value v : values)
    result.push_back(shuffleScalar(b, loc, v, source, gpu::ShuffleMode::IDX));
  return result;
}

/// `first` then `second` under `combine`: both combined where both are
/// present, else whichever is.
static FailureOr<Partial> combinePartials(OpBuilder &b, Location loc,
                                          ScanCombineFn combine,
                                          const Partial &first,
                                          const Partial &second) {
  FailureOr<SmallVector<Value>> both = combine(b, first.values, second.values);
  if (failed(both))
    return failure();
  if (!first.present && !second.present)
    return Partial{*both, Value()};
  Partial result;
  // Present when either is (null: always).
  if (first.present && second.present)
    result.present =
        arith::OrIOp::create(b, loc, first.present, second.present);
  for (auto [v, a, c] : llvm::zip(*both, first.values, second.values)) {
    if (!first.present) {
      // `first` is there: `second` may not be.
      result.values.push_back(
          arith::SelectOp::create(b, loc, second.present, v, a));
      continue;
    }
    if (!second.present) {
      result.values.push_back(
          arith::SelectOp::create(b, loc, first.present, v, c));
      continue;
    }
    Value onlyOne = arith::SelectOp::create(b, loc, first.present, a, c);
    Value bothThere =
        arith::AndIOp::create(b, loc, first.present, second.present);
    result.values.push_back(
        arith::SelectOp::create(b, loc, bothThere, v, onlyOne));
  }
  return result;
}

/// The inclusive scan of `values` across each aligned group of `width`
/// lanes of the warp (a power of two up to a warp; `lane`, an `index`, is
/// the lane's index in its group, which gets the combination of its
/// group's lanes 0 to `lane`): shuffles up by 1, 2, 4, ... lanes below
/// `width` over the whole warp, a value taken only from a lane of the
/// same group (`lane` at least the distance).
static FailureOr<SmallVector<Value>>
warpInclusiveScan(OpBuilder &b, Location loc, ScanCombineFn combine,
                  ValueRange values, Value lane, int64_t width = kWarpSize) {
  Partial inclusive{SmallVector<Value>(values), Value()};
  for (int32_t offset = 1; offset < width; offset *= 2) {
    Value by = arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset);
    Partial before;
    for (Value v : inclusive.values)
      before.values.push_back(
          shuffleScalar(b, loc, v, by, gpu::ShuffleMode::UP));
    before.present =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, lane,
                              arith::ConstantIndexOp::create(b, loc, offset));
    FailureOr<Partial> next =
        combinePartials(b, loc, combine, before, inclusive);
    if (failed(next))
      return failure();
    inclusive = *next;
  }
  return inclusive.values;
}

/// Starts a row's scan: a barrier (other threads may have written the
/// row), then, for a row whose length is only known at run time, an
/// `scf.if` that the row is not empty (the same for the whole block, so
/// the barriers after it are reached by all threads or none) with `b` in
/// it. Returns the thread's index (`tid`) as an `index`.
static Value beginRowScan(OpBuilder &b, Location loc, const ScanRowAccess &row,
                          Value tid) {
  gpu::BarrierOp::create(b, loc);
  if (ShapedType::isDynamic(row.staticSize)) {
    Value nonEmpty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, row.size,
                              arith::ConstantIndexOp::create(b, loc, 0));
    auto ifOp = scf::IfOp::create(b, loc, nonEmpty, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), tid);
}

namespace {
/// What a chunk's threads of a row give each other past one warp's group
/// of lanes (ChunkExchangeFn): the total of the threads before the
/// thread's own group (absent: none), and the chunk's total.
struct ChunkExchange {
  std::optional<Partial> groupsBefore;
  Partial chunkTotal;
};

/// From the inclusive scan of the threads' totals across the thread's
/// group of lanes, the ChunkExchange of a chunk.
using ChunkExchangeFn =
    function_ref<FailureOr<ChunkExchange>(ArrayRef<Value> inclusive)>;
} // namespace

/// The loop over a row's chunks of `threadsPerRow` x `elementsPerThread`
/// elements that both scans run (the file comment's steps): the thread
/// (`threadInRow` of the row's threads, `lane` of its group of
/// `groupWidth` lanes) scans its adjacent elements, the group's lanes
/// their totals, `exchange` gives what lies past the group, and each
/// element becomes carry . groups before . lanes before . its own, then
/// is stored; `afterChunk` runs at the end of each chunk.
static LogicalResult
emitChunkLoop(OpBuilder &b, Location loc, const ScanRowAccess &row,
              TypeRange types, ScanCombineFn combine, Value threadInRow,
              Value lane, int64_t groupWidth, int64_t threadsPerRow,
              int64_t elementsPerThread, ChunkExchangeFn exchange,
              function_ref<void()> afterChunk) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t k = elementsPerThread;
  int64_t chunk = threadsPerRow * k;
  Value numChunks =
      row.staticSize != ShapedType::kDynamic
          ? index(llvm::divideCeil(row.staticSize, chunk))
          : arith::CeilDivUIOp::create(b, loc, row.size, index(chunk))
                .getResult();
  // The carry: the total of the chunks before, absent in the first.
  SmallVector<Value> init;
  for (Type type : types)
    init.push_back(arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(type))));
  init.push_back(arith::ConstantIntOp::create(b, loc, 0, 1));
  LogicalResult result = success();
  scf::ForOp::create(
      b, loc, index(0), numChunks, index(1), init,
      [&](OpBuilder &fb, Location, Value c, ValueRange iterArgs) {
        OpBuilder::InsertionGuard bodyGuard(b);
        b.setInsertionPoint(fb.getInsertionBlock(), fb.getInsertionPoint());
        auto fail = [&] {
          result = failure();
          scf::YieldOp::create(b, loc, iterArgs);
        };
        Partial carry{SmallVector<Value>(iterArgs.drop_back()),
                      iterArgs.back()};
        // This thread's elements: first .. first + k - 1 (clamped into the
        // row; those past it are not written back).
        Value first = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, c, index(chunk)),
            arith::MulIOp::create(b, loc, threadInRow, index(k)));
        FailureOr<SmallVector<SmallVector<Value>>> elements =
            row.load(b, first, k);
        if (failed(elements))
          return fail();
        SmallVector<SmallVector<Value>> scanned = {elements->front()};
        for (const SmallVector<Value> &element :
             ArrayRef(*elements).drop_front()) {
          FailureOr<SmallVector<Value>> next =
              combine(b, scanned.back(), element);
          if (failed(next))
            return fail();
          scanned.push_back(*next);
        }
        // The threads' totals, scanned across the group's lanes.
        FailureOr<SmallVector<Value>> inclusive = warpInclusiveScan(
            b, loc, combine, scanned.back(), lane, groupWidth);
        if (failed(inclusive))
          return fail();
        Value one = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
        Partial lanesBefore;
        for (Value v : *inclusive)
          lanesBefore.values.push_back(
              shuffleScalar(b, loc, v, one, gpu::ShuffleMode::UP));
        lanesBefore.present = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ne, lane, index(0));
        FailureOr<ChunkExchange> exchanged = exchange(*inclusive);
        if (failed(exchanged))
          return fail();
        FailureOr<Partial> prefix = carry;
        if (exchanged->groupsBefore)
          prefix = combinePartials(b, loc, combine, *prefix,
                                   *exchanged->groupsBefore);
        if (succeeded(prefix))
          prefix = combinePartials(b, loc, combine, *prefix, lanesBefore);
        if (failed(prefix))
          return fail();
        SmallVector<SmallVector<Value>> results;
        for (const SmallVector<Value> &element : scanned) {
          FailureOr<Partial> out = combinePartials(b, loc, combine, *prefix,
                                                   Partial{element, Value()});
          if (failed(out))
            return fail();
          results.push_back(out->values);
        }
        if (failed(row.store(b, first, results)))
          return fail();
        FailureOr<Partial> nextCarry =
            combinePartials(b, loc, combine, carry, exchanged->chunkTotal);
        if (failed(nextCarry))
          return fail();
        afterChunk();
        SmallVector<Value> yielded(nextCarry->values);
        yielded.push_back(arith::ConstantIntOp::create(b, loc, 1, 1));
        scf::YieldOp::create(b, loc, yielded);
      });
  // The results before other threads read them.
  gpu::BarrierOp::create(b, loc);
  return result;
}

LogicalResult codegen::emitBlockRowScan(
    OpBuilder &b, Location loc, gpu::GPUFuncOp kernel, Value tid,
    int64_t blockSize, int64_t elementsPerThread, const ScanRowAccess &row,
    TypeRange types, ScanCombineFn combine, int64_t &sharedBytes) {
  assert(blockSize % kWarpSize == 0 && "a block scan takes whole warps");
  OpBuilder::InsertionGuard guard(b);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value thread = beginRowScan(b, loc, row, tid);
  Value warp = arith::DivUIOp::create(b, loc, thread, index(kWarpSize));
  Value lane = arith::RemUIOp::create(b, loc, thread, index(kWarpSize));
  int64_t numWarps = blockSize / kWarpSize;
  // One total per warp and value of the tuple.
  SmallVector<Value> slots;
  for (Type type : types)
    slots.push_back(addSharedArray(kernel, loc, numWarps, type, sharedBytes));
  auto exchange = [&](ArrayRef<Value> inclusive) -> FailureOr<ChunkExchange> {
    if (numWarps == 1) {
      // One warp: its last lane has the chunk's total.
      Partial chunkTotal{shuffleFrom(b, loc, inclusive, index(kWarpSize - 1)),
                         Value()};
      return ChunkExchange{Partial{chunkTotal.values,
                                   arith::ConstantIntOp::create(b, loc, 0, 1)},
                           chunkTotal};
    }
    // The warp's last lane publishes the warp's total; after a barrier,
    // lane l of every warp takes warp l's and the warp scans them: lane w
    // then holds the total of warps 0 to w.
    {
      OpBuilder::InsertionGuard publishGuard(b);
      Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           lane, index(kWarpSize - 1));
      auto ifOp = scf::IfOp::create(b, loc, isLast, /*withElseRegion=*/false);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      for (auto [v, slot] : llvm::zip(inclusive, slots))
        memref::StoreOp::create(b, loc, v, slot, ValueRange{warp});
    }
    gpu::BarrierOp::create(b, loc);
    Value from = arith::MinUIOp::create(b, loc, lane, index(numWarps - 1));
    SmallVector<Value> totals;
    for (Value slot : slots)
      totals.push_back(memref::LoadOp::create(b, loc, slot, ValueRange{from}));
    FailureOr<SmallVector<Value>> upTo =
        warpInclusiveScan(b, loc, combine, totals, lane);
    if (failed(upTo))
      return failure();
    Partial chunkTotal{shuffleFrom(b, loc, *upTo, index(numWarps - 1)),
                       Value()};
    Value hasBefore =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, warp, index(0));
    Value previous = arith::SubIOp::create(
        b, loc, arith::MaxUIOp::create(b, loc, warp, index(1)), index(1));
    return ChunkExchange{
        Partial{shuffleFrom(b, loc, *upTo, previous), hasBefore}, chunkTotal};
  };
  // The warps' totals are read before the next chunk's overwrite them (one
  // warp has none).
  auto afterChunk = [&] {
    if (numWarps > 1)
      gpu::BarrierOp::create(b, loc);
  };
  return emitChunkLoop(b, loc, row, types, combine, thread, lane, kWarpSize,
                       blockSize, elementsPerThread, exchange, afterChunk);
}

LogicalResult codegen::emitLaneGroupRowScan(OpBuilder &b, Location loc,
                                            Value tid, int64_t lanesPerRow,
                                            int64_t elementsPerThread,
                                            const ScanRowAccess &row,
                                            TypeRange types,
                                            ScanCombineFn combine) {
  assert(llvm::isPowerOf2_64(lanesPerRow) && lanesPerRow <= kWarpSize &&
         "a row's lanes are an aligned group of a warp");
  OpBuilder::InsertionGuard guard(b);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value thread = beginRowScan(b, loc, row, tid);
  // The thread's lane in its row's group, and the warp lane of the
  // group's last.
  Value lane = arith::RemUIOp::create(b, loc, thread, index(lanesPerRow));
  Value lastOfRow = arith::AddIOp::create(
      b, loc,
      arith::SubIOp::create(
          b, loc, arith::RemUIOp::create(b, loc, thread, index(kWarpSize)),
          lane),
      index(lanesPerRow - 1));
  // The chunk's total, from the row's last lane; nothing past the group.
  auto exchange = [&](ArrayRef<Value> inclusive) -> FailureOr<ChunkExchange> {
    return ChunkExchange{
        std::nullopt,
        Partial{shuffleFrom(b, loc, inclusive, lastOfRow), Value()}};
  };
  return emitChunkLoop(b, loc, row, types, combine, lane, lane, lanesPerRow,
                       lanesPerRow, elementsPerThread, exchange, [] {});
}
