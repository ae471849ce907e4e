//===- PTXStores.cpp - kernels' global stores as inline PTX ---------------===//
//
// PTXStores.h says what each function writes.
//
//===----------------------------------------------------------------------===//

#include "PTXStores.h"

#include "llvm/Support/FormatVariadic.h"

namespace mlir::fusion {

StringRef getPTXConstraint(Type type) {
  if (type.isF32())
    return "f";
  if (type.isF64())
    return "d";
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits == 16 ? "h" : bits == 32 ? "r" : "l";
}

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

std::optional<StoreWords> getStoreWords(LLVM::StoreOp store,
                                         OpBuilder *emit) {
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
    StoreWords result{{}, wordBits, getPTXConstraint(word)};
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
    return StoreWords{{value}, storedBits, getPTXConstraint(type)};
  int64_t registerBits = std::max<int64_t>(bits, 16);
  Type word = IntegerType::get(ctx, registerBits);
  StoreWords result{{}, storedBits, getPTXConstraint(word)};
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

void emitPTXStoreInstruction(OpBuilder &b, Location loc,
                             StringRef instruction, Value address,
                             const StoreWords &value, Value predicate,
                             bool negated) {
  int64_t count = value.words.size();
  if (cast<LLVM::LLVMPointerType>(address.getType()).getAddressSpace() == 0)
    address = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), address);
  SmallVector<Value> operands{address};
  llvm::append_range(operands, value.words);
  std::string constraints = "l";
  std::string list;
  for (int64_t i = 0; i < count; ++i) {
    constraints += "," + value.constraint.str();
    list += llvm::formatv("{0}${1}", i ? ", " : "", 1 + i).str();
  }
  if (count > 1)
    list = "{" + list + "}";
  std::string guard;
  if (predicate) {
    operands.push_back(predicate);
    constraints += ",b";
    guard = llvm::formatv("@{0}${1} ", negated ? "!" : "", count + 1).str();
  }
  constraints += ",~{memory}";
  std::string text =
      llvm::formatv("{0}{1} [$0], {2};", guard, instruction, list).str();
  LLVM::InlineAsmOp::create(b, loc, Type(), operands, text, constraints,
                            /*has_side_effects=*/true,
                            /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

void emitPTXStore(OpBuilder &b, LLVM::StoreOp store, bool evictFirst,
                  Value predicate, bool negated) {
  StoreWords value = *getStoreWords(store, &b);
  int64_t count = value.words.size();
  std::string instruction = llvm::formatv(
      "st.global{0}{1}.b{2}", evictFirst ? ".cs" : "",
      count == 1 ? std::string() : llvm::formatv(".v{0}", count).str(),
      value.storedBits);
  emitPTXStoreInstruction(b, store.getLoc(), instruction, store.getAddr(),
                          value, predicate, negated);
}

} // namespace mlir::fusion
