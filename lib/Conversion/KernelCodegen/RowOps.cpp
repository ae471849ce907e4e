//===- RowOps.cpp - Operations along a whole row of a kernel --------------===//

#include "scheduler-opt/Conversion/KernelCodegen/RowOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

bool codegen::isRowOp(Operation *op) {
  if (isa<ScanOp>(op))
    return true;
  auto opaque = dyn_cast<OpaqueOp>(op);
  return opaque &&
         (opaque.getOpName() == "sort" || opaque.getOpName() == "scan");
}

LogicalResult codegen::checkRowOp(Operation *op) {
  if (auto scan = dyn_cast<ScanOp>(op)) {
    if (!scan.hasCombineFunction())
      return scan.emitOpError("'")
             << scan.getName()
             << "' has no combine function: Inductor's dump does not print "
                "it (the torch.compile backend traces it, docs/Importer.md)";
    for (Type type : scan.getInputs().getTypes())
      if (!type.isIntOrFloat())
        return scan.emitOpError("of a ") << type << " has no lowering";
    // A combine function computes on its arguments: scalar ops only, no
    // loads, stores, reductions, indices or nested sorts and scans.
    WalkResult walk = scan.getCombine().walk([&](Operation *inner) {
      Dialect *dialect = inner->getDialect();
      bool scalar =
          (dialect && isa<arith::ArithDialect, math::MathDialect>(dialect) &&
           inner->getNumRegions() == 0) ||
          isa<CastOp, ScanYieldOp>(inner) ||
          (isa<OpaqueOp>(inner) && !isRowOp(inner) &&
           llvm::none_of(inner->getOperandTypes(),
                         llvm::IsaPred<BufferType>));
      if (scalar)
        return WalkResult::advance();
      scan.emitOpError("'")
          << scan.getName() << "' has a combine function holding '"
          << inner->getName()
          << "', which has no lowering there (a combine function computes "
             "on its arguments)";
      return WalkResult::interrupt();
    });
    return failure(walk.wasInterrupted());
  }
  auto opaque = cast<OpaqueOp>(op);
  if (opaque.getOpName() == "scan")
    return op->emitOpError("'scan' (Inductor's ops.scan) has no lowering");
  if (op->getNumOperands() == 0 ||
      op->getOperandTypes() != op->getResultTypes())
    return op->emitOpError("'sort' needs values and results of the same "
                           "types");
  for (Type type : op->getOperandTypes())
    if (!type.isIntOrFloat())
      return op->emitOpError("'sort' of a ") << type << " has no lowering";
  return success();
}

Value codegen::emitSortBefore(OpBuilder &b, Location loc, Value a, Value c,
                              bool descending) {
  Type type = a.getType();
  if (auto intType = dyn_cast<IntegerType>(type)) {
    bool isBool = intType.getWidth() == 1;
    arith::CmpIPredicate pred =
        descending ? (isBool ? arith::CmpIPredicate::ugt
                             : arith::CmpIPredicate::sgt)
                   : (isBool ? arith::CmpIPredicate::ult
                             : arith::CmpIPredicate::slt);
    return arith::CmpIOp::create(b, loc, pred, a, c);
  }
  auto isNaN = [&](Value v) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  };
  auto notNaN = [&](Value v) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, v, v);
  };
  // Ascending: a < b, or b is NaN and a is not. Descending: a > b, or a is
  // NaN and b is not.
  Value ordered = arith::CmpFOp::create(
      b, loc, descending ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
      a, c);
  Value nanFirst = descending
                       ? arith::AndIOp::create(b, loc, isNaN(a), notNaN(c))
                       : arith::AndIOp::create(b, loc, isNaN(c), notNaN(a));
  return arith::OrIOp::create(b, loc, ordered, nanFirst);
}

Value RowScratch::getSize(OpBuilder &b, Location loc) const {
  if (size)
    return size;
  return arith::ConstantIndexOp::create(b, loc, staticSize);
}

Value RowScratch::getPosition(OpBuilder &b, Location loc, Value i) const {
  Value position = i;
  if (stride)
    position = arith::MulIOp::create(b, loc, position, stride);
  if (offset)
    position = arith::AddIOp::create(b, loc, offset, position);
  return position;
}

void codegen::emitRowSort(OpBuilder &b, Location loc, const RowScratch &row,
                          bool descending) {
  // Insertion sort: stable, in place, no second array. Element i moves
  // down past every element it comes strictly before.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value size = row.getSize(b, loc);
  auto load = [&](OpBuilder &lb, Value array, Value i) -> Value {
    return memref::LoadOp::create(lb, loc, array,
                                  row.getPosition(lb, loc, i));
  };
  auto store = [&](OpBuilder &sb, Value v, Value array, Value i) {
    memref::StoreOp::create(sb, loc, v, array, row.getPosition(sb, loc, i));
  };
  scf::ForOp::create(
      b, loc, one, size, one, ValueRange{},
      [&](OpBuilder &fb, Location, Value i, ValueRange) {
        SmallVector<Value> moving;
        for (Value array : row.arrays)
          moving.push_back(load(fb, array, i));
        auto loop = scf::WhileOp::create(
            fb, loc, TypeRange{fb.getIndexType()}, ValueRange{i},
            [&](OpBuilder &wb, Location, ValueRange args) {
              Value j = args[0];
              Value positive = arith::CmpIOp::create(
                  wb, loc, arith::CmpIPredicate::ugt, j, zero);
              auto ifOp = scf::IfOp::create(
                  wb, loc, positive,
                  [&](OpBuilder &tb, Location) {
                    Value prev = arith::SubIOp::create(tb, loc, j, one);
                    Value key = load(tb, row.arrays.front(), prev);
                    scf::YieldOp::create(
                        tb, loc,
                        emitSortBefore(tb, loc, moving.front(), key, descending));
                  },
                  [&](OpBuilder &eb, Location) {
                    scf::YieldOp::create(
                        eb, loc,
                        ValueRange{arith::ConstantIntOp::create(eb, loc, 0, 1)});
                  });
              scf::ConditionOp::create(wb, loc, ifOp.getResult(0), j);
            },
            [&](OpBuilder &db, Location, ValueRange args) {
              Value j = args[0];
              Value prev = arith::SubIOp::create(db, loc, j, one);
              for (Value array : row.arrays)
                store(db, load(db, array, prev), array, j);
              scf::YieldOp::create(db, loc, prev);
            });
        for (auto [array, v] : llvm::zip(row.arrays, moving))
          store(fb, v, array, loop.getResult(0));
        scf::YieldOp::create(fb, loc);
      });
}

LogicalResult codegen::emitRowScan(OpBuilder &b, Location loc,
                                   const RowScratch &row,
                                   ScanCombineFn combine) {
  OpBuilder::InsertionGuard guard(b);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value size = row.getSize(b, loc);
  // The first element is read before the loop: a row whose length is
  // only known at run time may have none.
  if (ShapedType::isDynamic(row.staticSize)) {
    Value nonEmpty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                           size, zero);
    auto ifOp = scf::IfOp::create(b, loc, nonEmpty, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  SmallVector<Value> first;
  for (Value array : row.arrays)
    first.push_back(memref::LoadOp::create(b, loc, array,
                                           row.getPosition(b, loc, zero)));
  LogicalResult result = success();
  scf::ForOp::create(
      b, loc, one, size, one, first,
      [&](OpBuilder &fb, Location, Value i, ValueRange partial) {
        Value position = row.getPosition(fb, loc, i);
        SmallVector<Value> current;
        for (Value array : row.arrays)
          current.push_back(memref::LoadOp::create(fb, loc, array, position));
        FailureOr<SmallVector<Value>> next = combine(fb, partial, current);
        if (failed(next)) {
          result = failure();
          scf::YieldOp::create(fb, loc, partial);
          return;
        }
        for (auto [array, v] : llvm::zip(row.arrays, *next))
          memref::StoreOp::create(fb, loc, v, array, position);
        scf::YieldOp::create(fb, loc, *next);
      });
  return result;
}

ScanRowAccess codegen::getScratchAccess(OpBuilder &b, Location loc,
                                        const RowScratch &row) {
  ScanRowAccess access;
  access.size = row.getSize(b, loc);
  access.staticSize = row.staticSize;
  Value size = access.size;
  access.load = [row, size, loc](OpBuilder &lb, Value first, int64_t count)
      -> FailureOr<SmallVector<SmallVector<Value>>> {
    Value last = arith::SubIOp::create(
        lb, loc, size, arith::ConstantIndexOp::create(lb, loc, 1));
    SmallVector<SmallVector<Value>> elements;
    for (int64_t j = 0; j < count; ++j) {
      Value position = arith::AddIOp::create(
          lb, loc, first, arith::ConstantIndexOp::create(lb, loc, j));
      Value at = row.getPosition(
          lb, loc, arith::MinUIOp::create(lb, loc, position, last));
      SmallVector<Value> &element = elements.emplace_back();
      for (Value array : row.arrays)
        element.push_back(memref::LoadOp::create(lb, loc, array, at));
    }
    return elements;
  };
  access.store = [row, size, loc](OpBuilder &sb, Value first,
                                  ArrayRef<SmallVector<Value>> results) {
    for (auto [j, element] : llvm::enumerate(results)) {
      OpBuilder::InsertionGuard guard(sb);
      Value position = arith::AddIOp::create(
          sb, loc, first, arith::ConstantIndexOp::create(sb, loc, j));
      Value inRow = arith::CmpIOp::create(sb, loc, arith::CmpIPredicate::ult,
                                          position, size);
      auto ifOp = scf::IfOp::create(sb, loc, inRow, /*withElseRegion=*/false);
      sb.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      Value at = row.getPosition(sb, loc, position);
      for (auto [v, array] : llvm::zip(element, row.arrays))
        memref::StoreOp::create(sb, loc, v, array, at);
    }
    return success();
  };
  return access;
}
