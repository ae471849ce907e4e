//===- HostLowering.cpp - The host function of a lowered graph ------------===//

#include "scheduler-opt/Conversion/KernelCodegen/HostLowering.h"
#include "scheduler-opt/Conversion/KernelCodegen/ScalarCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

HostTarget::~HostTarget() = default;

LogicalResult HostTarget::emitComboKernel(OpBuilder &b, ForeachOp op,
                                          ArrayRef<ComboPart> parts,
                                          const GraphPlan &graph,
                                          ArrayRef<unsigned> storages,
                                          ValueRange args) {
  for (const ComboPart &part : parts)
    if (failed(emitKernel(b, part.plan, graph, part.storages, part.args)))
      return failure();
  return success();
}

MemRefType codegen::getStorageType(const StoragePlan::Storage &storage) {
  // Storages hold the values loads yield: an unsigned buffer's storage is
  // a memref of signless integers of its width.
  return MemRefType::get({storage.hasStaticSize() ? storage.numElements
                                                  : ShapedType::kDynamic},
                         BufferType::getValueTypeOf(storage.elementType));
}

Value codegen::emitSizeValue(OpBuilder &b, Location loc, AffineExpr size,
                             ValueRange symbols) {
  return emitAffineExpr(b, loc, size, {}, {}, symbols, b.getIndexType());
}

/// Returns a private declaration of the extern kernel `kernel` with `type`,
/// creating it (with a numbered name when the kernel's name is taken by a
/// declaration of another type).
static func::FuncOp getExternDeclaration(ModuleOp module, OpBuilder &b,
                                         StringRef kernel, FunctionType type) {
  SymbolTable symbols(module);
  std::string name = kernel.str();
  for (unsigned n = 1;; ++n) {
    auto existing = symbols.lookup<func::FuncOp>(name);
    if (existing && existing.getFunctionType() == type &&
        existing->hasAttr("fusion.extern_kernel"))
      return existing;
    if (!symbols.lookup(name))
      break;
    name = (kernel + "." + Twine(n)).str();
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(b, module.getLoc(), name, type);
  decl.setPrivate();
  decl->setAttr("fusion.extern_kernel", b.getStringAttr(kernel));
  return decl;
}

/// Views the first `n` elements of a 1-D memref as a memref of `n`
/// elements (static when `n` is a constant).
static Value prefix(OpBuilder &b, Location loc, Value memref, Value n) {
  auto type = cast<MemRefType>(memref.getType());
  std::optional<int64_t> count = getConstantIntValue(n);
  if (count && type.getDimSize(0) == *count)
    return memref;
  if (count) {
    auto target = MemRefType::get({*count}, type.getElementType());
    return memref::ReinterpretCastOp::create(
        b, loc, target, memref, /*offset=*/0, ArrayRef<int64_t>{*count},
        ArrayRef<int64_t>{1});
  }
  auto target = MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  return memref::ReinterpretCastOp::create(
      b, loc, target, memref, b.getIndexAttr(0), ArrayRef<OpFoldResult>{n},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

FailureOr<func::FuncOp> codegen::lowerGraph(const GraphPlan &plan,
                                            HostTarget &target,
                                            unsigned &numExternCalls) {
  GraphOp graph = plan.graph;
  const StoragePlan &storage = plan.storage;
  Location loc = graph.getLoc();
  auto module = graph->getParentOfType<ModuleOp>();
  OpBuilder b(graph);

  // Inputs, then outputs, as the graph numbers them.
  SmallVector<unsigned> argStorages;
  for (auto role : {StoragePlan::Role::Input, StoragePlan::Role::Output}) {
    SmallVector<unsigned> ofRole;
    for (auto [i, s] : llvm::enumerate(storage.storages))
      if (s.role == role)
        ofRole.push_back(i);
    llvm::stable_sort(ofRole, [&](unsigned a, unsigned c) {
      return storage.storages[a].argNumber < storage.storages[c].argNumber;
    });
    llvm::append_range(argStorages, ofRole);
  }
  SmallVector<Type> argTypes;
  for (unsigned s : argStorages)
    argTypes.push_back(getStorageType(storage.storages[s]));
  unsigned numSymbols = graph.getNumSizeSymbols();
  argTypes.append(numSymbols, b.getIndexType());
  auto func = func::FuncOp::create(b, loc, (graph.getSymName() + ".host").str(),
                                   b.getFunctionType(argTypes, {}));
  for (auto [i, s] : llvm::enumerate(argStorages)) {
    const StoragePlan::Storage &st = storage.storages[s];
    func.setArgAttr(i, "fusion.name", b.getStringAttr(st.name));
    func.setArgAttr(i, "fusion.role",
                    b.getStringAttr(st.role == StoragePlan::Role::Input
                                        ? "input"
                                        : "output"));
    if (!st.hasStaticSize())
      func.setArgAttr(i, "fusion.elements",
                      AffineMapAttr::get(AffineMap::get(
                          0, numSymbols, st.numElementsExpr, b.getContext())));
  }
  SmallVector<std::string> symbolNames = getSizeSymbolNames(graph);
  for (unsigned i = 0; i < numSymbols; ++i) {
    func.setArgAttr(argStorages.size() + i, "fusion.name",
                    b.getStringAttr(symbolNames[i]));
    func.setArgAttr(argStorages.size() + i, "fusion.role",
                    b.getStringAttr("symbol"));
  }
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  target.sizeSymbols.assign(entry->getArguments().take_back(numSymbols).begin(),
                            entry->getArguments().take_back(numSymbols).end());
  auto sizeOf = [&](const StoragePlan::Storage &s) {
    return emitSizeValue(b, loc, s.numElementsExpr, target.sizeSymbols);
  };

  SmallVector<Value> memrefs(storage.storages.size());
  for (auto [i, s] : llvm::enumerate(argStorages))
    memrefs[s] = entry->getArgument(i);
  SmallVector<Value> temps;
  for (auto [i, s] : llvm::enumerate(storage.storages))
    if (s.role == StoragePlan::Role::Temp) {
      memrefs[i] = target.allocate(b, loc, getStorageType(s),
                                   s.hasStaticSize() ? Value() : sizeOf(s));
      temps.push_back(memrefs[i]);
    }

  for (Operation *step : plan.steps) {
    SmallVector<unsigned> stepStorages = getStepStorages(step, storage);
    SmallVector<Value> args;
    for (unsigned s : stepStorages)
      args.push_back(memrefs[s]);
    if (auto ext = dyn_cast<ExternOp>(step)) {
      SmallVector<Value> operands;
      for (Value input : ext.getInputs())
        operands.push_back(memrefs[*storage.lookup(input)]);
      for (const ExternOutput &output : getExternOutputs(ext))
        operands.push_back(memrefs[*storage.lookup(output.buffer)]);
      auto type = b.getFunctionType(ValueRange(operands).getTypes(), {});
      func::FuncOp decl = getExternDeclaration(module, b, ext.getKernel(), type);
      func::CallOp::create(b, ext.getLoc(), decl, operands);
      target.noteExtern(ext, plan, stepStorages);
      ++numExternCalls;
      continue;
    }
    if (auto foreach = dyn_cast<ForeachOp>(step)) {
      SmallVector<HostTarget::ComboPart, 0> parts;
      for (Operation &member : foreach.getMembers()) {
        FailureOr<KernelPlan> kernel = planKernel(&member, storage);
        if (failed(kernel))
          return failure();
        HostTarget::ComboPart &part = parts.emplace_back();
        part.plan = std::move(*kernel);
        part.storages = getStepStorages(&member, storage);
        for (unsigned s : part.storages)
          part.args.push_back(memrefs[s]);
      }
      if (failed(target.emitComboKernel(b, foreach, parts, plan, stepStorages,
                                        args)))
        return failure();
      continue;
    }
    FailureOr<KernelPlan> kernel = planKernel(step, storage);
    if (failed(kernel))
      return failure();
    if (failed(target.emitKernel(b, *kernel, plan, stepStorages, args)))
      return failure();
  }

  for (const StoragePlan::Output &output : storage.outputs) {
    if (!output.copyFrom)
      continue;
    Value to = memrefs[output.storage];
    Value from = memrefs[*output.copyFrom];
    const StoragePlan::Storage &toStorage = storage.storages[output.storage];
    const StoragePlan::Storage &fromStorage =
        storage.storages[*output.copyFrom];
    Value n;
    if (toStorage.hasStaticSize() && fromStorage.hasStaticSize())
      n = arith::ConstantIndexOp::create(
          b, loc, std::min(toStorage.numElements, fromStorage.numElements));
    else
      n = arith::MinUIOp::create(b, loc, sizeOf(toStorage),
                                 sizeOf(fromStorage));
    target.copy(b, loc, prefix(b, loc, from, n), prefix(b, loc, to, n));
  }
  for (Value temp : temps)
    target.deallocate(b, loc, temp);
  func::ReturnOp::create(b, loc);
  return func;
}

void codegen::replaceGraph(GraphOp graph, func::FuncOp host) {
  std::string name = graph.getSymName().str();
  graph.erase();
  host.setSymName(name);
}
