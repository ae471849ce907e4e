//===- BlockSort.cpp - Sorts of a row by the lanes of a block --------------===//

#include "scheduler-opt/Conversion/FusionToGPU/BlockSort.h"
#include "scheduler-opt/Conversion/FusionToGPU/SharedMemory.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

static constexpr int64_t kWarpSize = 32;

/// Exchanges elements `i` and `p` (`index`, i < p) of the row and their
/// positions where `p` comes first: its key strictly before `i`'s, or a
/// tie (neither before the other: equal keys, two NaNs) with the smaller
/// original position.
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
  Value partnerFirst = emitSortBefore(b, loc, partnerKey, key, descending);
  Value tie = arith::XOrIOp::create(
      b, loc, emitSortBefore(b, loc, key, partnerKey, descending),
      arith::ConstantIntOp::create(b, loc, 1, 1));
  Value earlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        partnerPosition, position);
  Value exchange = arith::OrIOp::create(
      b, loc, partnerFirst, arith::AndIOp::create(b, loc, tie, earlier));
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
