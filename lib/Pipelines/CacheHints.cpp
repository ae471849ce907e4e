//===- CacheHints.cpp - cache hints for kernels' streamed accesses --------===//
//
// LLVM's NVPTX backend ignores !nontemporal, so the hints are written as
// inline PTX: a row's elements, read once by one block, skip L1
// (`ld.global.nc.L1::no_allocate`), and results are stored evict-first
// (`st.global.cs`); --fusion-to-ptx's `cache-hints` says which of the two
// are written (loads, stores, all). Measured on an H100 (docs/Lowering.md,
// "Results: the floor of the row kernels"): softmax 12.7 -> 12.0 us and
// rmsnorm_silu 13.1 -> 12.5 us at 4096 x 1024 f32 from DRAM;
// `.L1::no_allocate` on loads that every row repeats (weights) made
// layernorm_gelu 8% slower, hence only the emitter's streamed loads carry
// it. With the inputs in L2 the loads' hint makes the same kernels 15 to
// 45% slower ("Results: which cache hint costs in L2"): none by default.
//
//===----------------------------------------------------------------------===//

#include "CacheHints.h"
#include "PTXStores.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::fusion {
namespace {

/// The PTX register constraint and type suffix of one element, or none.
struct ElementKind {
  StringRef constraint;
  StringRef suffix;
};

std::optional<ElementKind> elementKind(Type type) {
  if (type.isF32())
    return ElementKind{"f", "f32"};
  if (type.isInteger(32))
    return ElementKind{"r", "b32"};
  if (type.isF64())
    return ElementKind{"d", "f64"};
  if (type.isInteger(64))
    return ElementKind{"l", "b64"};
  return std::nullopt;
}

/// The load's element type and count when it has a PTX form: 1, 2 or 4
/// elements of 32 or 64 bits, at most 16 bytes, aligned to their size, from
/// a generic or global pointer. (Stores take PTXStores.h's forms.)
struct Access {
  Type element;
  int64_t count;
  ElementKind kind;
  bool generic;
};

std::optional<Access> accessOf(Type type, Value addr, int64_t alignment) {
  auto ptr = dyn_cast<LLVM::LLVMPointerType>(addr.getType());
  if (!ptr || (ptr.getAddressSpace() != 0 && ptr.getAddressSpace() != 1))
    return std::nullopt;
  Type element = type;
  int64_t count = 1;
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.getRank() != 1 || vector.isScalable())
      return std::nullopt;
    element = vector.getElementType();
    count = vector.getDimSize(0);
  }
  std::optional<ElementKind> kind = elementKind(element);
  if (!kind || (count != 1 && count != 2 && count != 4))
    return std::nullopt;
  int64_t bytes = count * element.getIntOrFloatBitWidth() / 8;
  if (bytes > 16 || alignment < bytes)
    return std::nullopt;
  return Access{element, count, *kind, ptr.getAddressSpace() == 0};
}

/// "{$first, ...}" (or "$first" for one element) for `count` operands.
std::string operandList(int64_t first, int64_t count) {
  std::string list;
  for (int64_t i = 0; i < count; ++i)
    list += llvm::formatv("{0}${1}", i ? ", " : "", first + i).str();
  return count == 1 ? list : "{" + list + "}";
}

/// The PTX of a load at operand `$addr` into `operands`: generic addresses
/// are converted to global ones first.
std::string wrapLoad(const Access &access, int64_t addr, StringRef op,
                     StringRef operands) {
  std::string vec =
      access.count == 1 ? "" : llvm::formatv(".v{0}", access.count).str();
  std::string address = access.generic ? "%fusion_ga" : "$" + std::to_string(addr);
  std::string inst = llvm::formatv("{0}{1}.{2} {3}, [{4}];", op, vec,
                                   access.kind.suffix, operands, address)
                         .str();
  if (!access.generic)
    return inst;
  return llvm::formatv("{ .reg .b64 %fusion_ga; cvta.to.global.u64 "
                       "%fusion_ga, ${0}; {1} }",
                       addr, inst)
      .str();
}

void rewriteLoad(LLVM::LoadOp load) {
  std::optional<Access> access =
      accessOf(load.getType(), load.getAddr(), load.getAlignment().value_or(0));
  if (!access)
    return;
  OpBuilder b(load);
  Location loc = load.getLoc();
  int64_t n = access->count;
  std::string constraints;
  for (int64_t i = 0; i < n; ++i)
    constraints += "=" + access->kind.constraint.str() + ",";
  constraints += "l";
  std::string text = wrapLoad(*access, n, "ld.global.nc.L1::no_allocate",
                              operandList(0, n));
  Type resultType =
      n == 1 ? access->element
             : LLVM::LLVMStructType::getLiteral(
                   b.getContext(), SmallVector<Type>(n, access->element));
  Value result = LLVM::InlineAsmOp::create(
                     b, loc, resultType, ValueRange{load.getAddr()}, text,
                     constraints, /*has_side_effects=*/false,
                     /*is_align_stack=*/false,
                     LLVM::tailcallkind::TailCallKind::None,
                     LLVM::AsmDialectAttr(), ArrayAttr())
                     .getResult(0);
  if (isa<VectorType>(load.getType())) {
    Value vector = LLVM::PoisonOp::create(b, loc, load.getType());
    for (int64_t i = 0; i < n; ++i) {
      Value element = LLVM::ExtractValueOp::create(b, loc, result, i);
      Value position = LLVM::ConstantOp::create(b, loc, b.getI32Type(), i);
      vector =
          LLVM::InsertElementOp::create(b, loc, vector, element, position);
    }
    result = vector;
  }
  load.getResult().replaceAllUsesWith(result);
  load.erase();
}

/// `store` as `st.global.cs` when it has a PTX form.
void rewriteStore(LLVM::StoreOp store) {
  if (!getStoreWords(store, nullptr))
    return;
  OpBuilder b(store);
  emitPTXStore(b, store, /*evictFirst=*/true);
  store.erase();
}

struct PTXCacheHintsPass
    : public PassWrapper<PTXCacheHintsPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PTXCacheHintsPass)

  explicit PTXCacheHintsPass(CacheHints hints) : hints(hints) {}

  StringRef getArgument() const final { return "fusion-ptx-cache-hints"; }
  StringRef getDescription() const final {
    return "nontemporal loads and stores of kernels to PTX cache hints";
  }

  void runOnOperation() override {
    bool onLoads = hintsLoads(hints);
    bool onStores = hintsStores(hints);
    SmallVector<LLVM::LoadOp> loads;
    SmallVector<LLVM::StoreOp> stores;
    getOperation().walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op);
          onLoads && load && load.getNontemporal())
        loads.push_back(load);
      if (auto store = dyn_cast<LLVM::StoreOp>(op);
          onStores && store && store.getNontemporal())
        stores.push_back(store);
    });
    for (LLVM::LoadOp load : loads)
      rewriteLoad(load);
    for (LLVM::StoreOp store : stores)
      rewriteStore(store);
  }

  CacheHints hints;
};

} // namespace

std::unique_ptr<Pass> createPTXCacheHintsPass(CacheHints hints) {
  return std::make_unique<PTXCacheHintsPass>(hints);
}

} // namespace mlir::fusion
