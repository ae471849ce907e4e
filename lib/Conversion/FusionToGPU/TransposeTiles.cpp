//===- TransposeTiles.cpp - Pointwise kernels that change layout ----------===//

#include "scheduler-opt/Conversion/FusionToGPU/TransposeTiles.h"
#include "scheduler-opt/Conversion/KernelCodegen/KernelEmitter.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseSet.h"

#include <limits>

#define DEBUG_TYPE "convert-fusion-to-gpu"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

namespace {
constexpr int64_t kWarpSize = 32;
/// The most columns of a tile: a warp's accesses in either direction cover
/// 32 adjacent elements where the kernel has that many.
constexpr int64_t kMaxTileColumns = 32;
/// Elements a thread takes (as many loads in flight per thread): with one,
/// the H100 moved a weight copy at 2 TB/s, Inductor's at 2.9.
constexpr int64_t kElementsPerThread = 4;
/// Shared memory the staged loads of a block may take (the static limit).
constexpr int64_t kMaxSharedBytes = 48 * 1024;

/// An access's flat index as a function of the kernel's flat index x.
class IndexFunction {
public:
  explicit IndexFunction(AffineExpr expr)
      : map(AffineMap::get(2, 0, expr)), context(expr.getContext()) {}

  int64_t operator()(int64_t x) const {
    Type type = IndexType::get(context);
    SmallVector<Attribute> result;
    // Pointwise kernels have one element per row: r is 0.
    (void)map.constantFold(
        {IntegerAttr::get(type, x), IntegerAttr::get(type, 0)}, result);
    return cast<IntegerAttr>(result.front()).getInt();
  }

  /// The constant divisors of the expression's floordiv and mod terms:
  /// where the delinearized loop variables of x change.
  SmallVector<int64_t> getDivisors() const {
    SmallVector<int64_t> divisors;
    map.getResult(0).walk([&](AffineExpr e) {
      if (e.getKind() != AffineExprKind::FloorDiv &&
          e.getKind() != AffineExprKind::Mod)
        return;
      if (auto c = dyn_cast<AffineConstantExpr>(
              cast<AffineBinaryOpExpr>(e).getRHS()))
        divisors.push_back(c.getValue());
    });
    llvm::sort(divisors);
    divisors.erase(llvm::unique(divisors), divisors.end());
    return divisors;
  }

private:
  AffineMap map;
  MLIRContext *context;
};

/// How an access of a rows x columns view of the kernel moves along a row
/// (x to x + 1) and down a column (x to x + columns), each tested at a few
/// elements spread over the kernel (most of them must agree: a `mod`
/// wraps at some): contiguous (by one element), or strided (by more than
/// one, in either direction: a thread per element would not coalesce; a
/// step of 0 is a broadcast, which the cache serves).
struct Contiguity {
  bool alongRows = false, downColumns = false;
  bool stridedAlongRows = false, stridedDownColumns = false;
};

Contiguity getContiguity(const IndexFunction &f, int64_t rows,
                         int64_t columns) {
  int64_t sampleRows[] = {0, rows / 2, std::max<int64_t>(rows - 2, 0)};
  int64_t sampleColumns[] = {0, columns / 2,
                             std::max<int64_t>(columns - 2, 0)};
  int64_t along = 0, down = 0, stridedAlong = 0, stridedDown = 0;
  int64_t samples = 0;
  for (int64_t row : sampleRows)
    for (int64_t column : sampleColumns) {
      int64_t x = row * columns + column;
      int64_t at = f(x);
      ++samples;
      if (column + 1 < columns) {
        int64_t step = f(x + 1) - at;
        along += step == 1;
        stridedAlong += step > 1 || step < -1;
      }
      if (row + 1 < rows) {
        int64_t step = f(x + columns) - at;
        down += step == 1;
        stridedDown += step > 1 || step < -1;
      }
    }
  return {2 * along > samples, 2 * down > samples, 2 * stridedAlong > samples,
          2 * stridedDown > samples};
}

/// True for loads a tile can read ahead into shared memory: of a storage
/// the kernel does not write (so that nothing it reads can change between
/// the phases), at a position that depends on x alone, unconditionally
/// (outside masked regions), of a type shared memory holds.
bool canStage(LoadOp load, const KernelPlan &plan,
              const DenseSet<unsigned> &written, const StoragePlan &storage) {
  if (!isa<NodeOp>(load->getParentOp()) || plan.isForwarded(load) ||
      hasIndirectIndices(load))
    return false;
  std::optional<unsigned> s = storage.lookup(load.getBuffer());
  if (!s || written.contains(*s))
    return false;
  Type type = load.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  if (isa<FloatType>(type))
    return width == 16 || width == 32 || width == 64;
  return isa<IntegerType>(type) &&
         (width == 8 || width == 16 || width == 32 || width == 64);
}

/// Elements between rows of a tile in shared memory: odd, so that a warp
/// reading a column of 4-byte values hits 32 different banks.
int64_t getPitch(const TransposeTile &tile) {
  return tile.tileColumns % 2 ? tile.tileColumns : tile.tileColumns + 1;
}

/// The tile's rows, threads and elements a thread for its columns: rows
/// for about four elements a thread of a warp per column, 32 x 32 by 256
/// threads, 128 x 9 by 288 (fewer where the kernel has fewer rows).
void setTileShape(TransposeTile &tile) {
  tile.tileRows = std::min(tile.rows, tile.tileColumns < kMaxTileColumns
                                          ? 4 * kWarpSize
                                          : kWarpSize);
  int64_t tileElements = tile.tileRows * tile.tileColumns;
  tile.blockSize = llvm::alignTo(
      llvm::divideCeil(tileElements, kElementsPerThread), kWarpSize);
  tile.elementsPerThread = llvm::divideCeil(tileElements, tile.blockSize);
}
} // namespace

std::optional<TransposeTile>
codegen::chooseTransposeTile(const KernelPlan &plan,
                             const StoragePlan &storage) {
  if (plan.isReduction || !plan.rowOps.empty() || plan.numSizeSymbols != 0 ||
      !plan.hasStaticNumel() || plan.numel < 2 * kWarpSize)
    return std::nullopt;

  // The accesses whose positions depend on x alone.
  SmallVector<std::pair<Operation *, IndexFunction>> stores, loads;
  DenseSet<unsigned> written;
  for (StoreOp store : plan.memoryStores) {
    if (std::optional<unsigned> s = storage.lookup(store.getBuffer()))
      written.insert(*s);
    if (!hasIndirectIndices(store))
      stores.push_back({store, IndexFunction(plan.indexExprs.lookup(store))});
  }
  // In program order (indexExprs is a hash map), for deterministic output.
  plan.op->walk([&](LoadOp load) {
    if (!plan.isForwarded(load) && !hasIndirectIndices(load))
      loads.push_back({load, IndexFunction(plan.indexExprs.lookup(load))});
  });

  // The columns: the first access (stores first) that does not step by one
  // with x gives the smallest step of x after which it does.
  int64_t columns = 0;
  for (auto *accesses : {&stores, &loads}) {
    for (auto &[op, f] : *accesses) {
      // Contiguous and broadcast accesses coalesce as they are.
      int64_t step = f(1) - f(0);
      if (step >= -1 && step <= 1)
        continue;
      for (int64_t divisor : f.getDivisors())
        if (divisor > 1 && divisor < plan.numel &&
            plan.numel % divisor == 0 && f(divisor) - f(0) == 1) {
          columns = divisor;
          break;
        }
      if (columns)
        break;
    }
    if (columns)
      break;
  }
  if (!columns)
    return std::nullopt;

  TransposeTile tile;
  tile.columns = columns;
  tile.rows = plan.numel / columns;
  // Up to 32 columns (fewer where the kernel has fewer).
  tile.tileColumns = std::min(columns, kMaxTileColumns);
  setTileShape(tile);
  // The kernel computes in the order most of its stores are contiguous in.
  int64_t storesDown = 0, storesAlong = 0;
  for (auto &[op, f] : stores) {
    Contiguity c = getContiguity(f, tile.rows, columns);
    storesDown += c.downColumns && c.stridedAlongRows;
    storesAlong += c.alongRows && c.stridedDownColumns;
  }
  tile.computeDownColumns = storesDown > storesAlong;
  int64_t bytes = 0;
  DenseSet<std::pair<Value, AffineExpr>> accepted;
  for (auto &[op, f] : loads) {
    auto load = cast<LoadOp>(op);
    Contiguity c = getContiguity(f, tile.rows, columns);
    // Contiguous in the other direction, strided in the kernel's.
    bool other = tile.computeDownColumns ? c.alongRows && c.stridedDownColumns
                                         : c.downColumns && c.stridedAlongRows;
    if (!other || !canStage(load, plan, written, storage))
      continue;
    // One tile of shared memory per storage and position.
    std::pair<Value, AffineExpr> key = {load.getBuffer(),
                                        plan.indexExprs.lookup(load)};
    if (!accepted.contains(key)) {
      int64_t tileBytes = tile.tileRows * getPitch(tile) *
                          load.getType().getIntOrFloatBitWidth() / 8;
      if (bytes + tileBytes > kMaxSharedBytes)
        continue;
      bytes += tileBytes;
      accepted.insert(key);
    }
    tile.staged.push_back(load);
  }
  if (!tile.staged.empty())
    return tile;
  // Nothing to stage: the kernel is tiled only to compute in the order its
  // stores are contiguous in, when that is down the columns (every access
  // of resnet18's batch norms after their loops took the statistics'
  // order, [n, c, h, w] over channels-last buffers, moves by 512 along x
  // and by 1 down a column). No shared memory is used, so the tile's
  // columns need not be 32: the largest divisor of the kernel's columns
  // from 4 to 32 (blocks of 128 to 1024 threads) leaves no partial tile
  // across (7 of 49: 128 x 7 by 224 threads).
  if (!tile.computeDownColumns)
    return std::nullopt;
  if (columns > kMaxTileColumns && columns % kMaxTileColumns != 0) {
    for (int64_t d = kMaxTileColumns - 1; d >= 4; --d)
      if (columns % d == 0) {
        tile.tileColumns = d;
        break;
      }
  }
  setTileShape(tile);
  return tile;
}

LogicalResult codegen::emitTransposeTileBody(
    OpBuilder &b, gpu::GPUFuncOp kernel, const KernelPlan &plan,
    const TransposeTile &tile, const std::function<Value(Value)> &getMemref,
    int64_t &sharedBytes) {
  Location loc = plan.op->getLoc();
  constexpr int64_t kMaxI32 = std::numeric_limits<int32_t>::max();
  Type indexType = plan.numel < kMaxI32 - tile.getBlockSize()
                       ? Type(b.getI32Type())
                       : Type(b.getI64Type());
  KernelEmitter emitter(plan, getMemref, indexType);
  auto constant = [&](int64_t v) {
    return createIntConstant(b, loc, indexType, v);
  };
  auto toIndex = [&](Value v) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v)
        .getResult();
  };
  Value tid = arith::IndexCastUIOp::create(
      b, loc, indexType, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value bid = arith::IndexCastUIOp::create(
      b, loc, indexType, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  int64_t tilesAcross = llvm::divideCeil(tile.columns, tile.tileColumns);
  // Tiles row by row: block b takes tile (b / tilesAcross, b mod
  // tilesAcross); firstColumn is null (0) when one tile spans the columns.
  Value firstRow, firstColumn;
  if (tilesAcross == 1) {
    firstRow = arith::MulIOp::create(b, loc, bid, constant(tile.tileRows));
  } else {
    firstRow = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, bid, constant(tilesAcross)),
        constant(tile.tileRows));
    firstColumn = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, bid, constant(tilesAcross)),
        constant(tile.tileColumns));
  }

  int64_t tileElements = tile.tileRows * tile.tileColumns;
  int64_t blockSize = tile.getBlockSize();
  // Thread t takes the tile's positions t, t + blockSize, ... in either
  // order; the last round may run past the tile (clamped, then masked).
  bool pastTile = blockSize * tile.elementsPerThread != tileElements;
  auto positionOf = [&](Value round) -> Value {
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, round, constant(blockSize)),
        tid);
  };
  // (row, column) within the tile of position p, row by row or column by
  // column.
  auto position = [&](Value p, bool downColumns) -> std::pair<Value, Value> {
    int64_t fastest = downColumns ? tile.tileRows : tile.tileColumns;
    Value slow = arith::DivUIOp::create(b, loc, p, constant(fastest));
    Value fast = arith::RemUIOp::create(b, loc, p, constant(fastest));
    return downColumns ? std::pair{fast, slow} : std::pair{slow, fast};
  };
  // The kernel's element x at a tile position (clamped into the kernel:
  // a partial tile's threads compute on its last element and store
  // nothing), and whether it lies inside (null when every one does).
  auto element = [&](Value row, Value column) -> std::pair<Value, Value> {
    row = arith::AddIOp::create(b, loc, firstRow, row);
    if (firstColumn)
      column = arith::AddIOp::create(b, loc, firstColumn, column);
    Value valid;
    if (tile.rows % tile.tileRows) {
      valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                    constant(tile.rows));
      row = arith::MinUIOp::create(b, loc, row, constant(tile.rows - 1));
    }
    if (tile.columns % tile.tileColumns) {
      Value inside = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, column, constant(tile.columns));
      valid = valid ? arith::AndIOp::create(b, loc, valid, inside).getResult()
                    : inside;
      column =
          arith::MinUIOp::create(b, loc, column, constant(tile.columns - 1));
    }
    Value x = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, constant(tile.columns)),
        column);
    return {x, valid};
  };
  auto slot = [&](std::pair<Value, Value> at) {
    return toIndex(arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, at.first, constant(getPitch(tile))),
        at.second));
  };
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);

  DenseMap<std::pair<Value, AffineExpr>, Value> tiles;
  auto keyOf = [&](LoadOp load) {
    return std::pair{getMemref(load.getBuffer()),
                     plan.indexExprs.lookup(load)};
  };
  // Phase 1: the staged loads in the order they are contiguous in, into
  // shared memory (one tile per storage and position); every load of the
  // thread is issued before the first store, so that they are in flight
  // together. A tile with nothing staged only changes the order.
  if (!tile.staged.empty()) {
    SmallVector<Value> loadXs, loadSlots;
    for (int64_t round = 0; round < tile.elementsPerThread; ++round) {
      Value p = positionOf(constant(round));
      if (pastTile)
        p = arith::MinUIOp::create(b, loc, p, constant(tileElements - 1));
      std::pair<Value, Value> at = position(p, !tile.computeDownColumns);
      loadXs.push_back(element(at.first, at.second).first);
      loadSlots.push_back(slot(at));
    }
    SmallVector<std::pair<Value, SmallVector<Value>>> pending;
    for (LoadOp load : tile.staged) {
      Value &shared = tiles[keyOf(load)];
      if (shared)
        continue;
      int64_t elements = tile.tileRows * getPitch(tile);
      shared = kernel.addWorkgroupAttribution(
          MemRefType::get({elements}, load.getType(), AffineMap(), workgroup),
          loc);
      sharedBytes += elements * load.getType().getIntOrFloatBitWidth() / 8;
      SmallVector<Value> values;
      for (Value x : loadXs) {
        FailureOr<Value> value = emitter.emitDirectLoad(b, x, load);
        if (failed(value))
          return failure();
        values.push_back(*value);
      }
      pending.push_back({shared, values});
    }
    for (auto &[shared, values] : pending)
      for (auto [value, at] : llvm::zip(values, loadSlots))
        memref::StoreOp::create(b, loc, value, shared, ValueRange{at});
    gpu::BarrierOp::create(b, loc);
  }

  // Phase 2: each thread computes its elements in the order the stores are
  // contiguous in, one per iteration, the staged loads read from shared
  // memory.
  LogicalResult result = success();
  scf::ForOp::create(
      b, loc, constant(0), constant(tile.elementsPerThread), constant(1),
      ValueRange{}, [&](OpBuilder &lb, Location, Value round, ValueRange) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(lb.getInsertionBlock(),
                            lb.getInsertionPoint());
        Value p = positionOf(round);
        Value inTile;
        if (pastTile) {
          inTile = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, p,
                                         constant(tileElements));
          p = arith::MinUIOp::create(b, loc, p, constant(tileElements - 1));
        }
        std::pair<Value, Value> at = position(p, tile.computeDownColumns);
        auto [x, valid] = element(at.first, at.second);
        if (inTile)
          valid = valid ? arith::AndIOp::create(b, loc, valid, inTile)
                              .getResult()
                        : inTile;
        RowLayout layout;
        layout.lane = constant(0);
        layout.rowValid = layout.rowStoreGuard = valid;
        DenseMap<std::pair<Value, AffineExpr>, Value> values;
        Value computeSlot;
        for (LoadOp load : tile.staged) {
          auto key = keyOf(load);
          Value &value = values[key];
          if (!computeSlot)
            computeSlot = slot(at);
          if (!value)
            value = memref::LoadOp::create(b, loc, tiles.lookup(key),
                                           ValueRange{computeSlot});
          layout.loadedValues[load] = value;
        }
        result = emitter.emitRow(b, x, layout);
        scf::YieldOp::create(b, loc);
      });
  return result;
}
