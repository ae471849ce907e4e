//===- PredicateStores.cpp - guarded stores as predicated PTX -------------===//
//
// The lowering guards a kernel's stores with `scf.if` (threads past the
// last row, lanes other than a row's leader) and issues the loads they use
// before the guard: threads past the end compute on the last row. LLVM
// then sinks those loads into the guarded block, their only users, so a
// kernel tests its bounds before it loads: resnet18's one-element update
// ran 32 ns slower than Triton's, whose SASS issues the load first
// (docs/Lowering.md, "Results: the models' kernels in turns"). Triton
// writes its masked stores and atomic adds as predicated inline PTX,
// leaving no branch to sink into; this pass does the same to guarded
// blocks that hold stores and atomic adds alone, after the lowering to
// NVVM.
//
//===----------------------------------------------------------------------===//

#include "PredicateStores.h"
#include "CacheHints.h"
#include "PTXStores.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::fusion {
namespace {

/// The PTX type of an atomic add whose result is unused, of an f32, f64,
/// i32 or i64 into global memory: NVPTX writes the lowering's `atomicrmw`
/// as `atom.global.add` (relaxed at GPU scope, with no fence), which
/// `red.global.add` of the same type is without the result.
std::optional<StringRef> reductionType(LLVM::AtomicRMWOp rmw) {
  if (!rmw.getRes().use_empty() || rmw.getVolatile_() ||
      rmw.getOrdering() == LLVM::AtomicOrdering::seq_cst ||
      rmw.getSyncscope() || !isGlobalAddress(rmw.getPtr()))
    return std::nullopt;
  Type type = rmw.getVal().getType();
  if (rmw.getBinOp() == LLVM::AtomicBinOp::fadd &&
      (type.isF32() || type.isF64()))
    return type.isF32() ? StringRef("f32") : StringRef("f64");
  if (rmw.getBinOp() == LLVM::AtomicBinOp::add &&
      (type.isInteger(32) || type.isInteger(64)))
    return type.isInteger(32) ? StringRef("u32") : StringRef("u64");
  return std::nullopt;
}

/// True for inline PTX of one instruction with no results and no
/// predicate of its own, such as the lowering's vector atomic adds
/// (`red.global.add.v4.f32 [$0], {...};`): it can run under a predicate.
bool isSingleInstruction(LLVM::InlineAsmOp asmOp) {
  StringRef text = asmOp.getAsmString().trim();
  return asmOp.getNumResults() == 0 && !text.starts_with("{") &&
         !text.starts_with("@") && text.count(';') == 1 &&
         text.ends_with(";");
}

/// The block one side of `branch` runs only when its condition is
/// `!negated`, before both sides rejoin; null unless it holds nothing but
/// stores and atomic adds with a predicated form and speculatable ops.
Block *guardedStores(LLVM::CondBrOp branch, bool negated) {
  Block *guarded = negated ? branch.getFalseDest() : branch.getTrueDest();
  Block *join = negated ? branch.getTrueDest() : branch.getFalseDest();
  if (guarded == join || !branch.getTrueDestOperands().empty() ||
      !branch.getFalseDestOperands().empty() ||
      guarded->getSinglePredecessor() != branch->getBlock() ||
      guarded->getNumArguments() != 0)
    return nullptr;
  auto exit = dyn_cast<LLVM::BrOp>(guarded->getTerminator());
  if (!exit || exit.getDest() != join || !exit.getDestOperands().empty())
    return nullptr;
  bool stores = false;
  for (Operation &op : guarded->without_terminator()) {
    if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
      if (!getStoreWords(store, nullptr))
        return nullptr;
      stores = true;
      continue;
    }
    if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op)) {
      if (!reductionType(rmw))
        return nullptr;
      stores = true;
      continue;
    }
    if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op)) {
      if (!isSingleInstruction(asmOp))
        return nullptr;
      stores = true;
      continue;
    }
    // Run on every thread once moved: a division may trap where the
    // guard was false.
    if (!isPure(&op) || op.getNumRegions() != 0 ||
        isa<LLVM::UDivOp, LLVM::SDivOp, LLVM::URemOp, LLVM::SRemOp>(op))
      return nullptr;
  }
  return stores ? guarded : nullptr;
}

/// `rmw`, an atomic add whose result is unused, as `red.global.add` run
/// under `predicate` (its negation with `negated`).
void emitPredicatedReduction(OpBuilder &b, LLVM::AtomicRMWOp rmw,
                             Value predicate, bool negated) {
  Value value = rmw.getVal();
  StoreWords words{{value}, value.getType().getIntOrFloatBitWidth(),
                   getPTXConstraint(value.getType())};
  emitPTXStoreInstruction(b, rmw.getLoc(),
                          ("red.global.add." + *reductionType(rmw)).str(),
                          rmw.getPtr(), words, predicate, negated);
}

/// `asmOp`, one instruction, with `predicate` (its negation with
/// `negated`) as its guard: a last operand of constraint `b`, before the
/// clobbers.
void predicateInstruction(OpBuilder &b, LLVM::InlineAsmOp asmOp,
                          Value predicate, bool negated) {
  SmallVector<Value> operands(asmOp.getOperands());
  SmallVector<StringRef> constraints;
  asmOp.getConstraints().split(constraints, ',');
  auto clobbers = llvm::find_if(
      constraints, [](StringRef c) { return c.starts_with("~"); });
  std::string predicated = llvm::join(
      llvm::make_range(constraints.begin(), clobbers), ",");
  predicated += predicated.empty() ? "b" : ",b";
  for (StringRef clobber : llvm::make_range(clobbers, constraints.end()))
    predicated += "," + clobber.str();
  std::string text =
      llvm::formatv("@{0}${1} {2}", negated ? "!" : "", operands.size(),
                    asmOp.getAsmString().trim())
          .str();
  operands.push_back(predicate);
  LLVM::InlineAsmOp::create(b, asmOp.getLoc(), Type(), operands, text,
                            predicated, asmOp.getHasSideEffects(),
                            asmOp.getIsAlignStack(), asmOp.getTailCallKind(),
                            asmOp.getAsmDialectAttr(),
                            asmOp.getOperandAttrsAttr());
}

/// Moves `guarded`'s ops before `branch`, its stores and atomic adds
/// predicated, and replaces the branch with a jump to where both sides
/// rejoin.
void predicate(LLVM::CondBrOp branch, Block *guarded, bool negated,
               bool hintStores) {
  auto exit = cast<LLVM::BrOp>(guarded->getTerminator());
  Block *join = exit.getDest();
  OpBuilder b(branch);
  Value condition = branch.getCondition();
  for (Operation &op :
       llvm::make_early_inc_range(guarded->without_terminator())) {
    if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
      emitPTXStore(b, store, hintStores && store.getNontemporal(), condition,
                   negated);
    } else if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op)) {
      emitPredicatedReduction(b, rmw, condition, negated);
    } else if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op)) {
      predicateInstruction(b, asmOp, condition, negated);
    } else {
      op.moveBefore(branch);
      continue;
    }
    op.erase();
  }
  LLVM::BrOp::create(b, branch.getLoc(), ValueRange(), join);
  branch.erase();
  guarded->erase();
}

struct PTXPredicateStoresPass
    : public PassWrapper<PTXPredicateStoresPass,
                         OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PTXPredicateStoresPass)

  explicit PTXPredicateStoresPass(CacheHints hints) : hints(hints) {}

  StringRef getArgument() const final { return "fusion-ptx-predicate-stores"; }
  StringRef getDescription() const final {
    return "branches around kernels' stores and atomic adds to predicated "
           "PTX";
  }

  void runOnOperation() override {
    bool hintStores = hintsStores(hints);
    SmallVector<LLVM::CondBrOp> branches;
    getOperation().walk([&](LLVM::CondBrOp branch) {
      branches.push_back(branch);
    });
    for (LLVM::CondBrOp branch : branches)
      for (bool negated : {false, true})
        if (Block *guarded = guardedStores(branch, negated)) {
          predicate(branch, guarded, negated, hintStores);
          break;
        }
  }

  CacheHints hints;
};

} // namespace

std::unique_ptr<Pass> createPTXPredicateStoresPass(CacheHints hints) {
  return std::make_unique<PTXPredicateStoresPass>(hints);
}

} // namespace mlir::fusion
