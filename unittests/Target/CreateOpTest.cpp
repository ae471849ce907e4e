//===- CreateOpTest.cpp - createOp builds what OpTy::create builds --------===//
//
// The importer creates its ops through createOp (lib/Target/Inductor/
// CreateOp.h), which skips OperationState's copies but runs the same ODS
// builders. Each pair here is built both ways and must print the same in
// MLIR's generic form (which shows every property and attribute) and be
// equivalent; an op whose builder adds attributes or regions takes
// OpBuilder::create's own path.
//
//===----------------------------------------------------------------------===//

#include "CreateOp.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

namespace {

/// `op` in MLIR's generic form, with every SSA name as `%_` (the names are
/// numbered in the module; OperationEquivalence compares the values).
std::string generic(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().printGenericOpForm().enableDebugInfo());
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '%')
      for (out += '_'; i + 1 < text.size() &&
                       (llvm::isAlnum(text[i + 1]) || text[i + 1] == '_');)
        ++i;
  }
  return out;
}

class CreateOpTest : public ::testing::Test {
protected:
  CreateOpTest() {
    ctx.loadDialect<FusionDialect, arith::ArithDialect, math::MathDialect>();
    module = ModuleOp::create(UnknownLoc::get(&ctx));
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// Builds an op with `ods` (OpTy::create), then one with `ours`
  /// (createOp), and checks that they are the same op and that createOp
  /// inserted its op where the builder points.
  template <typename Ods, typename Ours>
  Operation *expectSame(Ods ods, Ours ours) {
    Operation *a = ods();
    Operation *b = ours();
    EXPECT_EQ(generic(a), generic(b));
    EXPECT_TRUE(OperationEquivalence::isEquivalentTo(
        a, b, OperationEquivalence::exactValueMatch,
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations));
    EXPECT_EQ(a->getLoc(), b->getLoc());
    EXPECT_EQ(b->getBlock(), module->getBody());
    EXPECT_EQ(a->getNextNode(), b);
    EXPECT_EQ(b->getNextNode(), nullptr);
    return b;
  }

  MLIRContext ctx;
  OpBuilder builder{&ctx};
  OwningOpRef<ModuleOp> module;
  Location loc = FileLineColLoc::get(&ctx, "dump.txt", 7, 9);
};

TEST_F(CreateOpTest, ConstantsAndArithmetic) {
  OpBuilder &b = builder;
  Location l = loc;
  Value x =
      expectSame(
          [&] {
            return arith::ConstantOp::create(b, l, b.getF32FloatAttr(0.5));
          },
          [&] {
            return createOp<arith::ConstantOp>(b, l, b.getF32FloatAttr(0.5));
          })
          ->getResult(0);
  expectSame([&] { return arith::AddFOp::create(b, l, x, x); },
             [&] { return createOp<arith::AddFOp>(b, l, x, x); });
  auto fast = arith::FastMathFlags::fast;
  expectSame([&] { return arith::MulFOp::create(b, l, x, x, fast); },
             [&] { return createOp<arith::MulFOp>(b, l, x, x, fast); });
  auto olt = arith::CmpFPredicate::OLT;
  expectSame([&] { return arith::CmpFOp::create(b, l, olt, x, x); },
             [&] { return createOp<arith::CmpFOp>(b, l, olt, x, x); });
  expectSame([&] { return math::ExpOp::create(b, l, x); },
             [&] { return createOp<math::ExpOp>(b, l, x); });
  Value i = arith::ConstantOp::create(b, l, b.getI32IntegerAttr(3)).getResult();
  auto nsw = arith::IntegerOverflowFlags::nsw;
  expectSame([&] { return arith::AddIOp::create(b, l, i, i, nsw); },
             [&] { return createOp<arith::AddIOp>(b, l, i, i, nsw); });
  // An op without properties.
  expectSame([&] { return arith::AndIOp::create(b, l, i, i); },
             [&] { return createOp<arith::AndIOp>(b, l, i, i); });
}

TEST_F(CreateOpTest, FusionOps) {
  OpBuilder &b = builder;
  Location l = loc;
  // fusion.load infers its result type from the buffer; its map is a
  // property.
  Block block;
  Type buffer = BufferType::get({4, 8}, b.getF32Type());
  Value buf = block.addArgument(buffer, l);
  Value p = block.addArgument(b.getIndexType(), l);
  AffineMap map = AffineMap::get(1, 0, getAffineDimExpr(0, &ctx) * 8);
  expectSame([&] { return LoadOp::create(b, l, buf, ValueRange{p}, map); },
             [&] { return createOp<LoadOp>(b, l, buf, ValueRange{p}, map); });
  // A graph's builder adds attributes and a region, a node's a region:
  // createOp goes through OpBuilder::create.
  ArrayRef<Type> types(buffer);
  SmallVector<StringRef> names = {"buf0"};
  expectSame(
      [&] { return GraphOp::create(b, l, "g", types, names, types, "cpu"); },
      [&] { return createOp<GraphOp>(b, l, "g", types, names, types, "cpu"); });
  SmallVector<int64_t> ranges = {4}, reductionRanges = {8};
  expectSame(
      [&] {
        return NodeOp::create(b, l, "op0", ranges, reductionRanges, types,
                              names);
      },
      [&] {
        return createOp<NodeOp>(b, l, "op0", ranges, reductionRanges, types,
                                names);
      });
  // The loads use `block`'s arguments: erase them first.
  module->getBody()->clear();
}

} // namespace
