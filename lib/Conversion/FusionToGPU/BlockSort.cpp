//===- BlockSort.cpp - Sorts of a row by the lanes of a block --------------===//

#include "scheduler-opt/Conversion/FusionToGPU/BlockSort.h"
#include "scheduler-opt/Conversion/FusionToGPU/BlockScan.h"
#include "scheduler-opt/Conversion/FusionToGPU/SharedMemory.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

static constexpr int64_t kWarpSize = 32;

/// True (an i1) when the element of key `aKey` at original position
/// `aPosition` comes strictly before the one of `cKey` at `cPosition`: its
/// key strictly first (emitSortBefore), or a tie (neither before the
/// other: equal keys, two NaNs) with the smaller position. Both sort forms
/// order by it, so that either gives the insertion sort's stable order.
/// `earlier`, when given, receives the positions' comparison.
static Value emitStableBefore(OpBuilder &b, Location loc, Value aKey,
                              Value aPosition, Value cKey, Value cPosition,
                              bool descending, Value *earlier = nullptr) {
  Value first = emitSortBefore(b, loc, aKey, cKey, descending);
  Value after = emitSortBefore(b, loc, cKey, aKey, descending);
  Value aEarlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         aPosition, cPosition);
  if (earlier)
    *earlier = aEarlier;
  Value notAfter = arith::XOrIOp::create(
      b, loc, after, arith::ConstantIntOp::create(b, loc, 1, 1));
  return arith::OrIOp::create(
      b, loc, first, arith::AndIOp::create(b, loc, notAfter, aEarlier));
}

/// Exchanges elements `i` and `p` (`index`, i < p) of the row and their
/// positions where `p` comes first (emitStableBefore).
static void emitCompareExchange(OpBuilder &b, Location loc,
                                const RowScratch &row, Value positions,
                                Value i, Value p, bool descending) {
  Value at = row.getPosition(b, loc, i);
  Value partnerAt = row.getPosition(b, loc, p);
  Value key = memref::LoadOp::create(b, loc, row.arrays.front(), at);
  Value partnerKey =
      memref::LoadOp::create(b, loc, row.arrays.front(), partnerAt);
  Value position = memref::LoadOp::create(b, loc, positions, at);
  Value partnerPosition = memref::LoadOp::create(b, loc, positions, partnerAt);
  Value exchange = emitStableBefore(b, loc, partnerKey, partnerPosition, key,
                                    position, descending);
  auto ifOp = scf::IfOp::create(b, loc, exchange, /*withElseRegion=*/false);
  OpBuilder tb = OpBuilder::atBlockTerminator(ifOp.thenBlock());
  memref::StoreOp::create(tb, loc, partnerKey, row.arrays.front(), at);
  memref::StoreOp::create(tb, loc, key, row.arrays.front(), partnerAt);
  memref::StoreOp::create(tb, loc, partnerPosition, positions, at);
  memref::StoreOp::create(tb, loc, position, positions, partnerAt);
  for (Value array : ArrayRef<Value>(row.arrays).drop_front()) {
    Value v = memref::LoadOp::create(tb, loc, array, at);
    Value w = memref::LoadOp::create(tb, loc, array, partnerAt);
    memref::StoreOp::create(tb, loc, w, array, at);
    memref::StoreOp::create(tb, loc, v, array, partnerAt);
  }
}

namespace {
/// An element of a row held in a lane's registers: its original position
/// (i32) and the values of its tuple, the key first; null for the values
/// that are the position itself (RowScratch::positional), rebuilt from it
/// at the end.
struct RegisterElement {
  Value position;
  SmallVector<Value> values;
};
} // namespace

/// True (an i1) when `a` comes strictly before `c` (emitStableBefore);
/// where the row is padded (`size` below `padded`), positions past the row
/// sort after every element, by position.
static Value emitElementBefore(OpBuilder &b, Location loc,
                               const RegisterElement &a,
                               const RegisterElement &c, int64_t size,
                               int64_t padded, bool descending) {
  Value earlier;
  Value ordered =
      emitStableBefore(b, loc, a.values.front(), a.position,
                       c.values.front(), c.position, descending, &earlier);
  if (size == padded)
    return ordered;
  Value last = arith::MaxUIOp::create(b, loc, a.position, c.position);
  Value padding = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge, last,
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), size));
  return arith::SelectOp::create(b, loc, padding, earlier, ordered);
}

/// `element` where `take` is false, else `other`.
static RegisterElement selectElement(OpBuilder &b, Location loc, Value take,
                                     const RegisterElement &other,
                                     const RegisterElement &element) {
  RegisterElement result;
  result.position = arith::SelectOp::create(b, loc, take, other.position,
                                            element.position);
  for (auto [o, v] : llvm::zip_equal(other.values, element.values))
    result.values.push_back(
        v ? arith::SelectOp::create(b, loc, take, o, v).getResult() : Value());
  return result;
}

/// True when every array of `row` holds scalars that gpu.shuffle can move
/// (shuffleScalar: integers and floats of up to 64 bits).
static bool canShuffleRow(const RowScratch &row) {
  return llvm::all_of(row.arrays, [](Value array) {
    Type type = cast<MemRefType>(array.getType()).getElementType();
    return type.isIntOrFloat() && type.getIntOrFloatBitWidth() <= 64;
  });
}

/// The sort of a row of a warp's lanes or fewer in registers (the file
/// comment): the row padded to a power of two, `padded / lanesPerRow`
/// consecutive elements a lane; the classic bitonic network, stages within
/// a lane as selects, across lanes as xor shuffles, the padding sorting
/// last. Arrays that hold each element's position (RowScratch::positional)
/// are neither loaded nor exchanged: their sorted elements are the
/// sorted positions.
static void emitRegisterRowSort(OpBuilder &b, Location loc, Value tid,
                                int64_t lanesPerRow, const RowScratch &row,
                                bool descending) {
  int64_t size = row.staticSize;
  int64_t padded = llvm::PowerOf2Ceil(size);
  int64_t perLane = padded / lanesPerRow;
  Type i32 = b.getI32Type();
  Type indexType = b.getIndexType();
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v).getResult();
  };
  Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto warpSync = [&] {
    NVVM::SyncWarpOp::create(b, loc, constant(-1));
  };
  Value lane = arith::AndIOp::create(
      b, loc, castIntegerLike(b, loc, tid, i32), constant(lanesPerRow - 1));
  Value base = arith::MulIOp::create(b, loc, lane, constant(perLane));

  auto positional = [&](size_t i) {
    return i < row.positional.size() && row.positional[i];
  };
  // A row without padding (its length a multiple of perLane) in arrays
  // aligned to 16 bytes (kRowArrayAlignment) has each lane's elements from
  // aligned positions: the lane loads and stores them in vectors of up to
  // 16 bytes (a conflict-free ld.shared.v4 of f32), else element by
  // element (past the row: the last element's values, sorting as padding).
  auto vectorWidth = [&](Value array) -> int64_t {
    Type type = cast<MemRefType>(array.getType()).getElementType();
    unsigned bits = type.getIntOrFloatBitWidth();
    if (size != padded || bits < 8 || !llvm::isPowerOf2_32(bits))
      return 1;
    return std::min<int64_t>(perLane, kRowArrayAlignment / (bits / 8));
  };

  // The row's other lanes wrote its elements; each lane loads its own.
  warpSync();
  SmallVector<RegisterElement> elements(perLane);
  SmallVector<Value> ats;
  for (int64_t e = 0; e < perLane; ++e) {
    elements[e].position = arith::AddIOp::create(b, loc, base, constant(e));
    Value clamped =
        size == padded ? elements[e].position
                       : arith::MinUIOp::create(b, loc, elements[e].position,
                                                constant(size - 1))
                             .getResult();
    ats.push_back(row.getPosition(
        b, loc, arith::IndexCastUIOp::create(b, loc, indexType, clamped)));
  }
  for (auto [i, array] : llvm::enumerate(row.arrays)) {
    int64_t width = vectorWidth(array);
    for (int64_t e = 0; e < perLane; e += width) {
      if (positional(i)) {
        for (int64_t f = e; f < e + width; ++f)
          elements[f].values.push_back(Value());
        continue;
      }
      if (width == 1) {
        elements[e].values.push_back(
            memref::LoadOp::create(b, loc, array, ats[e]));
        continue;
      }
      Type type = cast<MemRefType>(array.getType()).getElementType();
      Value vector = vector::LoadOp::create(
          b, loc, VectorType::get({width}, type), array, ValueRange{ats[e]},
          /*nontemporal=*/false,
          llvm::MaybeAlign(width * type.getIntOrFloatBitWidth() / 8));
      for (int64_t f = 0; f < width; ++f)
        elements[e + f].values.push_back(
            vector::ExtractOp::create(b, loc, vector, f));
    }
  }

  // Merges of blocks of k, stages of distance j: position i pairs with
  // i ^ j, ascending where i & k is 0; the lower position takes the
  // earlier element of the pair in an ascending block, the later in a
  // descending one.
  for (int64_t k = 2; k <= padded; k *= 2) {
    // Whether the lane's elements lie in a descending block (a lane's
    // elements share bits from perLane up): null where k < perLane, where
    // this depends on the element.
    Value laneDescending;
    if (k >= padded)
      laneDescending = arith::ConstantIntOp::create(b, loc, 0, 1);
    else if (k >= perLane)
      laneDescending = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(b, loc, lane, constant(k / perLane)),
          constant(0));
    for (int64_t j = k / 2; j >= 1; j /= 2) {
      if (j < perLane) {
        for (int64_t e = 0; e < perLane; ++e) {
          if (e & j)
            continue;
          Value swap = emitElementBefore(b, loc, elements[e | j], elements[e],
                                         size, padded, descending);
          if (!laneDescending) {
            if (e & k)
              swap = arith::XOrIOp::create(b, loc, swap, trueValue);
          } else {
            swap = arith::XOrIOp::create(b, loc, swap, laneDescending);
          }
          RegisterElement lower =
              selectElement(b, loc, swap, elements[e | j], elements[e]);
          RegisterElement upper =
              selectElement(b, loc, swap, elements[e], elements[e | j]);
          elements[e] = std::move(lower);
          elements[e | j] = std::move(upper);
        }
        continue;
      }
      // The partner is the same element of lane ^ (j / perLane); this
      // lane keeps the later element where it is the upper one of an
      // ascending block or the lower one of a descending block.
      Value offset = constant(j / perLane);
      Value upper = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne,
          arith::AndIOp::create(b, loc, lane, offset), constant(0));
      Value keepLater = arith::XOrIOp::create(b, loc, upper, laneDescending);
      for (RegisterElement &element : elements) {
        RegisterElement other;
        other.position = shuffleScalar(b, loc, element.position, offset,
                                       gpu::ShuffleMode::XOR);
        for (Value v : element.values)
          other.values.push_back(
              v ? shuffleScalar(b, loc, v, offset, gpu::ShuffleMode::XOR)
                : Value());
        Value take = arith::XOrIOp::create(
            b, loc,
            emitElementBefore(b, loc, other, element, size, padded,
                              descending),
            keepLater);
        element = selectElement(b, loc, take, other, element);
      }
    }
  }

  // Each lane stores its elements where it loaded them (within the row),
  // then the row's lanes wait for each other before others read the row.
  auto valueOf = [&](OpBuilder &vb, int64_t e, size_t i) {
    Value v = elements[e].values[i];
    if (v)
      return v;
    return castIntegerLike(
        vb, loc, elements[e].position,
        cast<MemRefType>(row.arrays[i].getType()).getElementType());
  };
  if (size == padded) {
    for (auto [i, array] : llvm::enumerate(row.arrays)) {
      int64_t width = vectorWidth(array);
      Type type = cast<MemRefType>(array.getType()).getElementType();
      for (int64_t e = 0; e < perLane; e += width) {
        if (width == 1) {
          memref::StoreOp::create(b, loc, valueOf(b, e, i), array, ats[e]);
          continue;
        }
        SmallVector<Value> values;
        for (int64_t f = e; f < e + width; ++f)
          values.push_back(valueOf(b, f, i));
        vector::StoreOp::create(
            b, loc,
            vector::FromElementsOp::create(
                b, loc, VectorType::get({width}, type), values),
            array, ValueRange{ats[e]}, /*nontemporal=*/false,
            llvm::MaybeAlign(width * type.getIntOrFloatBitWidth() / 8));
      }
    }
    warpSync();
    return;
  }
  // A padded row's elements one by one, those within the row, each at the
  // lane's e-th place (base + e), where the sorted element goes; the
  // element's own position is its original place in the row, the value
  // of the positional arrays.
  for (int64_t e = 0; e < perLane; ++e) {
    Value position = arith::AddIOp::create(b, loc, base, constant(e));
    Value inRow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        position, constant(size));
    auto ifOp = scf::IfOp::create(b, loc, inRow, /*withElseRegion=*/false);
    OpBuilder sb = OpBuilder::atBlockTerminator(ifOp.thenBlock());
    Value at = row.getPosition(
        sb, loc, arith::IndexCastUIOp::create(sb, loc, indexType, position));
    for (auto [i, array] : llvm::enumerate(row.arrays))
      memref::StoreOp::create(sb, loc, valueOf(sb, e, i), array, at);
  }
  warpSync();
}

LogicalResult codegen::emitBlockRowSort(OpBuilder &b, Location loc,
                                        gpu::GPUFuncOp kernel, Value tid,
                                        int64_t lanesPerRow,
                                        int64_t rowsPerBlock,
                                        const RowScratch &row, bool descending,
                                        int64_t &sharedBytes) {
  if (ShapedType::isDynamic(row.staticSize) || row.stride)
    return emitError(loc, "internal error: a block sort needs a static row "
                          "in shared memory");
  int64_t size = row.staticSize;
  if (lanesPerRow <= kWarpSize &&
      int64_t(llvm::PowerOf2Ceil(size)) % lanesPerRow == 0 &&
      canShuffleRow(row)) {
    emitRegisterRowSort(b, loc, tid, lanesPerRow, row, descending);
    return success();
  }
  Type i32 = b.getI32Type();
  Type intType = tid.getType();
  Type indexType = b.getIndexType();
  auto constant = [&](int64_t v) { return createIntConstant(b, loc, intType, v); };
  auto toIndex = [&](OpBuilder &ib, Value v) -> Value {
    return arith::IndexCastUIOp::create(ib, loc, indexType, v);
  };
  Value positions =
      addSharedArray(kernel, loc, size * rowsPerBlock, i32, sharedBytes);
  Value lane = arith::AndIOp::create(b, loc, tid, constant(lanesPerRow - 1));
  // A row of a warp's lanes or fewer lies in one warp: its lanes wait for
  // each other alone (bar.warp.sync orders their shared-memory accesses as
  // a barrier does), every lane of the warp reaching it.
  auto barrier = [&](OpBuilder &bb) {
    if (lanesPerRow <= kWarpSize)
      NVVM::SyncWarpOp::create(
          bb, loc, arith::ConstantIntOp::create(bb, loc, i32, -1));
    else
      gpu::BarrierOp::create(bb, loc);
  };

  // Each element's original position, then a barrier for them and for the
  // row's elements that other threads wrote.
  scf::ForOp::create(
      b, loc, lane, constant(size), constant(lanesPerRow), ValueRange{},
      [&](OpBuilder &fb, Location, Value r, ValueRange) {
        memref::StoreOp::create(
            fb, loc, castIntegerLike(fb, loc, r, i32), positions,
            row.getPosition(fb, loc, toIndex(fb, r)));
        scf::YieldOp::create(fb, loc);
      });
  barrier(b);

  // Merges of blocks of k = 2^logK, each in stages of distance j = 2^logJ
  // (logJ = logK - 1 - s), the pairs of each stage spread over the lanes.
  int64_t logPadded = llvm::Log2_64_Ceil(size);
  int64_t pairs = (int64_t(1) << logPadded) / 2;
  Value one = constant(1);
  scf::ForOp::create(
      b, loc, one, constant(logPadded + 1), one, ValueRange{},
      [&](OpBuilder &kb, Location, Value logK, ValueRange) {
        scf::ForOp::create(
            kb, loc, constant(0), logK, one, ValueRange{},
            [&](OpBuilder &sb, Location, Value s, ValueRange) {
              Value logJ = arith::SubIOp::create(
                  sb, loc, arith::SubIOp::create(sb, loc, logK, one), s);
              Value j = arith::ShLIOp::create(sb, loc, one, logJ);
              Value mask = arith::SubIOp::create(sb, loc, j, one);
              Value mirror = arith::SubIOp::create(
                  sb, loc, arith::ShLIOp::create(sb, loc, j, one), one);
              Value first = arith::CmpIOp::create(
                  sb, loc, arith::CmpIPredicate::eq, s, constant(0));
              scf::ForOp::create(
                  sb, loc, lane, constant(pairs), constant(lanesPerRow),
                  ValueRange{},
                  [&](OpBuilder &pb, Location, Value t, ValueRange) {
                    // Pair t's lower position: t with a 0 bit inserted at
                    // logJ.
                    Value high = arith::ShLIOp::create(
                        pb, loc,
                        arith::ShRUIOp::create(pb, loc, t, logJ),
                        arith::AddIOp::create(pb, loc, logJ, one));
                    Value i = arith::OrIOp::create(
                        pb, loc, high, arith::AndIOp::create(pb, loc, t, mask));
                    Value p = arith::SelectOp::create(
                        pb, loc, first,
                        arith::XOrIOp::create(pb, loc, i, mirror),
                        arith::OrIOp::create(pb, loc, i, j));
                    Value inRow = arith::CmpIOp::create(
                        pb, loc, arith::CmpIPredicate::ult, p, constant(size));
                    auto ifOp = scf::IfOp::create(pb, loc, inRow,
                                                  /*withElseRegion=*/false);
                    OpBuilder tb = OpBuilder::atBlockTerminator(ifOp.thenBlock());
                    emitCompareExchange(tb, loc, row, positions,
                                        toIndex(tb, i), toIndex(tb, p),
                                        descending);
                    scf::YieldOp::create(pb, loc);
                  });
              barrier(sb);
              scf::YieldOp::create(sb, loc);
            });
        scf::YieldOp::create(kb, loc);
      });
  return success();
}
