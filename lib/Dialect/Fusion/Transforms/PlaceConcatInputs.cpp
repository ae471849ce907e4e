//===- PlaceConcatInputs.cpp - Concatenation inputs into their storage ----===//
//
// Inductor's ConcatKernel has its inputs computed straight into parts of
// its output (NonOwningLayout views), with indices relative to each part's
// start. This pass moves each input into the output's storage: its type
// gets the part's offset and every access adds it, so that the lowering
// sees one storage with storage-relative indices, as it does for every
// other buffer. docs/Lowering.md says where it runs.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::fusion {
#define GEN_PASS_DEF_PLACECONCATINPUTSPASS
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;

/// `type` with its offset moved by `shift` (an expression in size symbols).
static BufferType withOffset(BufferType type, AffineExpr shift) {
  AffineExpr offset = simplifyAffineExpr(type.getOffsetExpr() + shift, 0,
                                         std::max(type.getNumSizeSymbols(),
                                                  getNumSymbolsUsed(shift)));
  return BufferType::get(type.getSizeExprs(), type.getElementType(),
                         type.getStrideExprs(), offset);
}

/// Adds `shift` (in size symbols) to the index of `access`, whose map puts
/// its indirect symbols before the size symbols.
static void shiftIndex(IndexedOpInterface access, AffineExpr shift) {
  AffineMap map = access.getIndexMap();
  unsigned indirect = access.getNumIndirectSymbols();
  unsigned sizeSymbols = getNumSymbolsUsed(shift);
  AffineExpr moved = shift.shiftSymbols(sizeSymbols, indirect);
  unsigned numSymbols = std::max(map.getNumSymbols(), indirect + sizeSymbols);
  AffineExpr index = simplifyAffineExpr(map.getResult(0) + moved,
                                        map.getNumDims(), numSymbols);
  SmallVector<Value> operands(access.getIndexOperands());
  access.setIndex(AffineMap::get(map.getNumDims(), numSymbols, index,
                                 map.getContext()),
                  operands);
}

namespace {
struct PlaceConcatInputsPass
    : fusion::impl::PlaceConcatInputsPassBase<PlaceConcatInputsPass> {
  void runOnOperation() override {
    GraphOp graph = getOperation();
    llvm::DenseSet<Value> placed;
    WalkResult result = graph.getBody().walk([&](NopOp nop) -> WalkResult {
      AffineMapAttr attr = nop.getInputOffsetsAttr();
      if (!attr)
        return WalkResult::advance();
      AffineMap offsets = attr.getValue();
      for (auto [i, input] : llvm::enumerate(nop.getInputs())) {
        if (!placed.insert(input).second)
          return nop.emitOpError("places input ")
                     << i << " in a second concatenation",
                 WalkResult::interrupt();
        AffineExpr shift = offsets.getResult(i);
        if (getStaticSize(shift) == 0)
          continue;
        if (failed(place(nop, i, input, shift)))
          return WalkResult::interrupt();
        ++numPlaced;
      }
      SmallVector<AffineExpr> zeros(
          offsets.getNumResults(), getAffineConstantExpr(0, &getContext()));
      nop.setInputOffsetsAttr(
          AffineMapAttr::get(AffineMap::get(0, 0, zeros, &getContext())));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  /// Moves input `index` of `nop` (`input`) by `shift` elements.
  LogicalResult place(NopOp nop, unsigned index, Value input,
                      AffineExpr shift) {
    auto fail = [&](StringRef why) {
      return nop.emitOpError("cannot place input ")
             << index << " in its storage: " << why;
    };
    // The input, the member results of the containers re-exporting it,
    // down to the leaf result.
    SmallVector<Value> aliases = {input};
    for (Value member = getMemberResult(input); member != aliases.back();
         member = getMemberResult(member))
      aliases.push_back(member);
    Value leaf = aliases.back();
    auto result = dyn_cast<OpResult>(leaf);
    auto node = result ? dyn_cast<NodeOp>(result.getOwner()) : NodeOp();
    if (!node)
      return fail("only the result of a fusion.node can be placed");
    if (node.getMutatedBuffer(result.getResultNumber()))
      return fail("it overwrites a buffer in place");
    BlockArgument handle = node.getOutputHandles()[result.getResultNumber()];
    aliases.push_back(handle);

    // Every access to the storage goes through one of the aliases; check
    // all of them before changing anything.
    for (Value alias : aliases) {
      for (Operation *user : alias.getUsers()) {
        if (isa<LoadOp, StoreOp, YieldOp, ExternOp>(user) || user == nop)
          continue;
        if (isa<OutputOp>(user))
          return fail("the graph returns it");
        InFlightDiagnostic diag =
            fail("it is read whole from its start by '")
            << user->getName() << "'";
        diag.attachNote(user->getLoc()) << "read here";
        return diag;
      }
    }
    for (Value alias : aliases) {
      alias.setType(withOffset(cast<BufferType>(alias.getType()), shift));
      for (Operation *user : alias.getUsers())
        if (isa<LoadOp, StoreOp>(user))
          shiftIndex(cast<IndexedOpInterface>(user), shift);
    }
    return success();
  }
};
} // namespace
