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

/// A store's value as PTX registers: `words` stored as `storedBits` each
/// (the value bitcast; 1- and 8-bit values widened to 16-bit registers,
/// which `st.b8` truncates), with their inline-asm constraint.
struct StoreWords {
  SmallVector<Value> words;
  int64_t storedBits;
  StringRef constraint;
};

/// The inline-asm constraint of a register holding `type`: f32 and f64
/// values stay floats (no bitcast for LLVM to fold into integer code).
StringRef constraintOf(Type type) {
  if (type.isF32())
    return "f";
  if (type.isF64())
    return "d";
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits == 16 ? "h" : bits == 32 ? "r" : "l";
}

/// True when `address` points into global memory: a global pointer, or a
/// generic one reached from a kernel argument (the storages) through
/// element offsets. A generic pointer may also hold a thread's stack array
/// (a sort's row), which `st.global` must not write.
bool isGlobalAddress(Value address) {
  while (true) {
    auto ptr = dyn_cast<LLVM::LLVMPointerType>(address.getType());
    if (!ptr)
      return false;
    if (ptr.getAddressSpace() == 1)
      return true;
    if (ptr.getAddressSpace() != 0)
      return false;
    if (auto argument = dyn_cast<BlockArgument>(address))
      return isa<LLVM::LLVMFuncOp>(argument.getOwner()->getParentOp()) &&
             argument.getOwner()->isEntryBlock();
    if (auto gep = address.getDefiningOp<LLVM::GEPOp>())
      address = gep.getBase();
    else if (auto cast = address.getDefiningOp<LLVM::AddrSpaceCastOp>())
      address = cast.getArg();
    else
      return false;
  }
}

/// The registers of `store`'s value when the store has a predicated PTX
/// form: a plain store of an 8- to 64-bit scalar, or of a 32-, 64- or
/// 128-bit vector aligned to its size, into global memory. Without `emit`
/// only the check is made.
std::optional<StoreWords> storeWords(LLVM::StoreOp store, OpBuilder *emit) {
  if (store.getVolatile_() ||
      store.getOrdering() != LLVM::AtomicOrdering::not_atomic ||
      !isGlobalAddress(store.getAddr()))
    return std::nullopt;
  Type type = store.getValue().getType();
  Location loc = store.getLoc();
  MLIRContext *ctx = store.getContext();
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.getRank() != 1 || vector.isScalable() ||
        !vector.getElementType().isIntOrFloat())
      return std::nullopt;
    int64_t elementBits = vector.getElementType().getIntOrFloatBitWidth();
    int64_t bits = vector.getDimSize(0) * elementBits;
    if ((elementBits % 8 != 0) || (bits != 32 && bits != 64 && bits != 128))
      return std::nullopt;
    // Without an alignment the layout's is the vector's size.
    if (store.getAlignment().value_or(bits / 8) < uint64_t(bits / 8))
      return std::nullopt;
    // 32- and 64-bit elements are stored as they are, narrower ones
    // packed into 32-bit words.
    Type word = elementBits >= 32 ? vector.getElementType()
                                  : IntegerType::get(ctx, 32);
    int64_t wordBits = word.getIntOrFloatBitWidth();
    int64_t count = bits / wordBits;
    StoreWords result{{}, wordBits, constraintOf(word)};
    if (!emit)
      return result;
    if (count == 1) {
      result.words.push_back(
          LLVM::BitcastOp::create(*emit, loc, word, store.getValue()));
      return result;
    }
    Value words = store.getValue();
    if (word != vector.getElementType())
      words = LLVM::BitcastOp::create(
          *emit, loc, VectorType::get({count}, word), words);
    for (int64_t i = 0; i < count; ++i) {
      Value position = LLVM::ConstantOp::create(*emit, loc, emit->getI32Type(), i);
      result.words.push_back(
          LLVM::ExtractElementOp::create(*emit, loc, words, position));
    }
    return result;
  }
  if (!type.isIntOrFloat())
    return std::nullopt;
  int64_t bits = type.getIntOrFloatBitWidth();
  if (bits != 1 && bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return std::nullopt;
  int64_t storedBits = std::max<int64_t>(bits, 8);
  if (store.getAlignment().value_or(storedBits / 8) < uint64_t(storedBits / 8))
    return std::nullopt;
  Value value = store.getValue();
  if (type.isF32() || type.isF64())
    return StoreWords{{value}, storedBits, constraintOf(type)};
  int64_t registerBits = std::max<int64_t>(bits, 16);
  Type word = IntegerType::get(ctx, registerBits);
  StoreWords result{{}, storedBits, constraintOf(word)};
  if (!emit)
    return result;
  if (isa<FloatType>(type))
    value = LLVM::BitcastOp::create(*emit, loc, IntegerType::get(ctx, bits),
                                    value);
  // An i1 in memory is a byte of 0 or 1.
  if (bits < registerBits)
    value = LLVM::ZExtOp::create(*emit, loc, word, value);
  result.words.push_back(value);
  return result;
}

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
      if (!storeWords(store, nullptr))
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

/// `instruction [address], words;` as inline PTX run under `predicate`
/// (its negation with `negated`), at `b`'s insertion point; `address` is
/// cast to global memory where generic.
void emitPredicated(OpBuilder &b, Location loc, StringRef instruction,
                    Value address, const StoreWords &value, Value predicate,
                    bool negated) {
  int64_t count = value.words.size();
  // A global address: LLVM folds the cast into the kernel argument's own
  // (ld.param, cvta.to.global), as for the stores it writes itself.
  if (cast<LLVM::LLVMPointerType>(address.getType()).getAddressSpace() == 0)
    address = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), address);
  SmallVector<Value> operands{address};
  llvm::append_range(operands, value.words);
  operands.push_back(predicate);
  std::string constraints = "l";
  std::string list;
  for (int64_t i = 0; i < count; ++i) {
    constraints += "," + value.constraint.str();
    list += llvm::formatv("{0}${1}", i ? ", " : "", 1 + i).str();
  }
  if (count > 1)
    list = "{" + list + "}";
  constraints += ",b,~{memory}";
  std::string text = llvm::formatv("@{0}${1} {2} [$0], {3};",
                                   negated ? "!" : "", count + 1,
                                   instruction, list);
  LLVM::InlineAsmOp::create(b, loc, Type(), operands, text, constraints,
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

/// `store` as inline PTX run under `predicate` (its negation with
/// `negated`), at `b`'s insertion point.
void emitPredicatedStore(OpBuilder &b, LLVM::StoreOp store, Value predicate,
                         bool negated, bool evictFirst) {
  StoreWords value = *storeWords(store, &b);
  int64_t count = value.words.size();
  std::string instruction = llvm::formatv(
      "st.global{0}{1}.b{2}", evictFirst ? ".cs" : "",
      count == 1 ? std::string() : llvm::formatv(".v{0}", count).str(),
      value.storedBits);
  emitPredicated(b, store.getLoc(), instruction, store.getAddr(), value,
                 predicate, negated);
}

/// `rmw`, an atomic add whose result is unused, as `red.global.add` run
/// under `predicate` (its negation with `negated`).
void emitPredicatedReduction(OpBuilder &b, LLVM::AtomicRMWOp rmw,
                             Value predicate, bool negated) {
  Value value = rmw.getVal();
  StoreWords words{{value}, value.getType().getIntOrFloatBitWidth(),
                   constraintOf(value.getType())};
  emitPredicated(b, rmw.getLoc(),
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
    if (auto store = dyn_cast<LLVM::StoreOp>(op))
      emitPredicatedStore(b, store, condition, negated,
                          hintStores && store.getNontemporal());
    else if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op))
      emitPredicatedReduction(b, rmw, condition, negated);
    else if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op))
      predicateInstruction(b, asmOp, condition, negated);
    else {
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
    bool hintStores = hints == CacheHints::Stores || hints == CacheHints::All;
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
