//===- PlaceConcatInputs.cpp - Concatenation inputs into their storage ----===//
//
// Inductor's ConcatKernel has its inputs computed straight into parts of
// its output (NonOwningLayout views), with indices relative to each part's
// start. This pass moves each input into the output's storage: its type
// gets the part's offset and every access adds it, so that the lowering
// sees one storage with storage-relative indices, as it does for every
// other buffer. docs/Lowering.md says where it runs.
//
// Besides loads and stores, Inductor's `ops.bucketize` reads a buffer
// whole: its boundaries `(name, size, numel, stride)` at `boundary_indices
// + stride * i` while below `numel`, and its sorter `(name, stride)` at
// `sorter_indices + stride * i`, each relative to the buffer's start (the
// Triton kernel gets a pointer to the view). An input the concatenation
// took after bucketize had realized it (2.11: `s = x.sum(1);
// torch.bucketize(v, s); torch.cat([y, s])`) is read so; the pass adds
// the offset to boundary_indices and numel, or to sorter_indices.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// Operand positions of a `fusion.opaque "bucketize"` (ImportOpaqueOps.cpp,
/// Bucketize.cpp): values, boundaries, size, numel, stride,
/// boundary_indices[, sorter, sorter stride, sorter_indices].
enum BucketizeOperand : unsigned {
  kBoundaries = 1,
  kNumel = 3,
  kBoundaryIndices = 5,
  kSorter = 6,
  kSorterIndices = 8,
};

/// The operands of `op`, a bucketize reading a buffer whole at operand
/// `use`, that count from that buffer's start; empty for any other use.
static SmallVector<unsigned, 2> wholeReadIndices(Operation *op,
                                                 unsigned use) {
  auto opaque = dyn_cast<OpaqueOp>(op);
  if (!opaque || opaque.getOpName() != "bucketize")
    return {};
  auto sorter = opaque->getAttrOfType<BoolAttr>("sorter");
  unsigned expected = sorter && sorter.getValue() ? 9 : 6;
  if (opaque->getNumOperands() != expected)
    return {};
  if (use == kBoundaries)
    return {kNumel, kBoundaryIndices};
  if (use == kSorter && expected == 9)
    return {kSorterIndices};
  return {};
}

/// Whether operand `position` of `op` can move by an offset: an index,
/// i32 or i64 value.
static bool isMovable(Operation *op, unsigned position) {
  Type type = op->getOperand(position).getType();
  return type.isIndex() || type.isInteger(32) || type.isInteger(64);
}

/// Replaces operand `position` of `op` (`isMovable`) by itself plus
/// `shift` (in size symbols).
static void shiftOperand(Operation *op, unsigned position, AffineExpr shift) {
  Value value = op->getOperand(position);
  OpBuilder b(op);
  AffineMap map = AffineMap::get(0, getNumSymbolsUsed(shift), shift);
  Value offset = IndexExprOp::create(b, op->getLoc(), value.getType(),
                                     ValueRange{}, AffineMapAttr::get(map));
  op->setOperand(position,
                 arith::AddIOp::create(b, op->getLoc(), value, offset));
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
          offsets.getNumResults(), getCachedConstantExpr(0, &getContext()));
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
    SmallVector<std::pair<Operation *, unsigned>> wholeReads;
    for (Value alias : aliases) {
      for (OpOperand &use : alias.getUses()) {
        Operation *user = use.getOwner();
        if (isa<LoadOp, StoreOp, YieldOp, ExternOp>(user) || user == nop)
          continue;
        if (isa<OutputOp>(user))
          return fail("the graph returns it");
        SmallVector<unsigned, 2> positions =
            wholeReadIndices(user, use.getOperandNumber());
        for (unsigned position : positions) {
          if (!isMovable(user, position))
            return fail("operand ")
                   << position << " of the '" << user->getName()
                   << "' reading it counts from its start and must be an "
                      "index, i32 or i64 to move with it";
          wholeReads.push_back({user, position});
        }
        if (!positions.empty())
          continue;
        InFlightDiagnostic diag =
            fail("it is read whole from its start by '")
            << user->getName() << "'";
        diag.attachNote(user->getLoc()) << "read here";
        return diag;
      }
    }
    for (auto [user, position] : wholeReads)
      shiftOperand(user, position, shift);
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
