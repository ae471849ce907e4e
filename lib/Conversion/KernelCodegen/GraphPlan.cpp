//===- GraphPlan.cpp - Run-time layout of a lowered fusion.graph ----------===//

#include "scheduler-opt/Conversion/KernelCodegen/GraphPlan.h"
#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Analysis/SizeVars.h"
#include "scheduler-opt/Conversion/KernelCodegen/KernelPlan.h"
#include "scheduler-opt/Conversion/KernelCodegen/RowOps.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::codegen;

std::string codegen::getDTypeName(Type type) {
  MLIRContext *ctx = type.getContext();
#define FUSION_DTYPE(FX, TORCH, NAME, TYPE)                                   \
  if (type == TYPE)                                                            \
    return #NAME;
#include "scheduler-opt/Support/Dtypes.def"
  // Integer types no dtype has (signed ones, other widths).
  return (type.isUnsignedInteger() ? "u" : "i") +
         std::to_string(type.getIntOrFloatBitWidth());
}

SmallVector<std::string> codegen::getSizeSymbolNames(GraphOp graph) {
  SmallVector<std::string> names;
  std::optional<ArrayAttr> inductorNames = graph.getSymbolNames();
  for (unsigned i = 0, e = graph.getNumSizeSymbols(); i < e; ++i) {
    if (inductorNames && i < inductorNames->size())
      names.push_back(cast<StringAttr>((*inductorNames)[i]).str());
    else
      names.push_back("s" + std::to_string(i));
  }
  return names;
}

/// Prints `expr` into `os`, parenthesized unless atomic.
static void printPython(raw_ostream &os, AffineExpr expr,
                        ArrayRef<std::string> names, bool parenthesize) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    os << cast<AffineConstantExpr>(expr).getValue();
    return;
  case AffineExprKind::SymbolId:
    os << names[cast<AffineSymbolExpr>(expr).getPosition()];
    return;
  case AffineExprKind::DimId:
    llvm_unreachable("sizes use no dimensions");
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  if (parenthesize)
    os << "(";
  // Sizes are non-negative and divisors positive, so Python's floor
  // division and modulo are the affine ones; ceildiv(a, c) is
  // (a + c - 1) // c for a constant c, else -(-a // b).
  auto divisor = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (expr.getKind() == AffineExprKind::CeilDiv && divisor) {
    os << "(";
    printPython(os, bin.getLHS() + (divisor.getValue() - 1), names, false);
    os << ") // " << divisor.getValue();
  } else if (expr.getKind() == AffineExprKind::CeilDiv) {
    os << "-(-";
    printPython(os, bin.getLHS(), names, true);
    os << " // ";
    printPython(os, bin.getRHS(), names, true);
    os << ")";
  } else {
    // Terms of a sum need no parentheses, nor the left factor a*b of a
    // product; other compound operands do.
    bool isSum = expr.getKind() == AffineExprKind::Add;
    bool leftProduct = expr.getKind() == AffineExprKind::Mul &&
                       bin.getLHS().getKind() == AffineExprKind::Mul;
    printPython(os, bin.getLHS(), names, !isSum && !leftProduct);
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      os << " + ";
      break;
    case AffineExprKind::Mul:
      os << "*";
      break;
    case AffineExprKind::FloorDiv:
      os << " // ";
      break;
    default:
      os << " % ";
      break;
    }
    printPython(os, bin.getRHS(), names, !isSum);
  }
  if (parenthesize)
    os << ")";
}

std::string codegen::printManifestSize(AffineExpr expr,
                                       ArrayRef<std::string> names) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printPython(os, expr, names, /*parenthesize=*/false);
  return text;
}

/// Appends the leaf steps of a top-level scheduler op: nodes, fused groups,
/// foreach (combo) kernels and externs run; nops and tuple-element externs
/// run nothing; group members run one after the other.
static void appendSteps(Operation *op, SmallVectorImpl<Operation *> &steps) {
  if (isa<NopOp>(op))
    return;
  if (auto ext = dyn_cast<ExternOp>(op); ext && isTupleElement(ext))
    return; // the extern producing the tuple writes its elements
  if (isa<GroupOp>(op)) {
    for (Operation &member : op->getRegion(0).front().without_terminator())
      appendSteps(&member, steps);
    return;
  }
  steps.push_back(op);
}

/// Checks that every top-level node comes after the nodes it depends on.
static LogicalResult checkOrder(GraphOp graph, DependenceGraph &deps) {
  if (deps.hasCycle())
    return deps.emitCycleError();
  for (unsigned n = 0, e = deps.getNumNodes(); n < e; ++n) {
    ArrayRef<unsigned> preds = deps.getPredecessors(n);
    if (!preds.empty() && preds.back() > n)
      return deps.getNode(n)->emitOpError("runs before '")
             << deps.getNode(preds.back()).getNodeName()
             << "', which it depends on; the lowering runs nodes in the "
                "graph's order (run fusion-topological-sort first)";
  }
  return success();
}

bool codegen::isTupleElement(ExternOp op) {
  return op.getKernel() == "multi_output";
}

SmallVector<ExternOutput> codegen::getExternOutputs(ExternOp op) {
  SmallVector<ExternOutput> outputs;
  for (OpResult result : op->getResults()) {
    if (!isa<MultiOutputType>(result.getType())) {
      outputs.push_back({result, -1});
      continue;
    }
    for (Operation *user : result.getUsers()) {
      auto element = cast<ExternOp>(user);
      auto index = element->getAttrOfType<IntegerAttr>("index");
      outputs.push_back({element->getResult(0), index.getInt()});
    }
  }
  llvm::stable_sort(outputs, [](const ExternOutput &a, const ExternOutput &b) {
    return a.index < b.index;
  });
  return outputs;
}

/// Checks a tuple-returning extern: its tuples are read only by
/// `multi_output` externs, each extracting a distinct element of one tuple.
static LogicalResult checkTupleExtern(ExternOp ext) {
  auto isMulti = [](Type t) { return isa<MultiOutputType>(t); };
  if (isTupleElement(ext)) {
    if (ext.getInputs().size() != 1 || !isMulti(ext.getInputs()[0].getType()) ||
        ext->getNumResults() != 1 || isMulti(ext->getResult(0).getType()) ||
        !ext->getAttrOfType<IntegerAttr>("index"))
      return ext.emitOpError("extracts a tuple element: it needs one "
                             "!fusion.multi_output operand, one buffer result "
                             "and an integer 'index'");
    return success();
  }
  if (llvm::any_of(ext.getInputs().getTypes(), isMulti))
    return ext.emitOpError("takes a !fusion.multi_output; only "
                           "'multi_output' externs read tuples");
  for (OpResult result : ext->getResults()) {
    if (!isMulti(result.getType()))
      continue;
    llvm::SmallDenseSet<int64_t> seen;
    for (Operation *user : result.getUsers()) {
      // Other readers of the tuple are diagnosed on themselves.
      auto element = dyn_cast<ExternOp>(user);
      auto index = element && isTupleElement(element)
                       ? element->getAttrOfType<IntegerAttr>("index")
                       : IntegerAttr();
      if (index && !seen.insert(index.getInt()).second)
        return ext.emitOpError("has its element ")
               << index.getInt() << " extracted twice";
    }
  }
  return success();
}

/// A `fusion.nop` whose inputs were computed into parts of its result's
/// storage (Inductor's ConcatKernel).
static bool isConcatenation(NopOp nop) {
  return static_cast<bool>(nop.getInputOffsetsAttr());
}

/// A `fusion.nop` that reads nothing: an allocation without computation
/// (Inductor's `torch.empty`, a ComputedBuffer whose ranges it set to 0,
/// which an extern or a mutation then writes).
static bool isAllocation(NopOp nop) {
  return nop.getInputs().empty() && nop->getNumResults() == 1;
}

/// Checks that the inputs of a concatenation share its storage: each is
/// placed at its offset (fusion-place-concat-inputs) and is the fresh
/// result of a node, which the storage plan can point at the result's
/// storage before the node runs.
static LogicalResult checkConcatenation(NopOp nop) {
  for (auto [i, input] : llvm::enumerate(nop.getInputs())) {
    if (getStaticSize(nop.getInputOffsetsAttr().getValue().getResult(i)) != 0)
      return nop.emitOpError("has input ")
             << i
             << " outside its storage: run fusion-place-concat-inputs "
                "before the lowering";
    auto result = dyn_cast<OpResult>(lookThroughContainers(input));
    auto node = result ? dyn_cast<NodeOp>(result.getOwner()) : NodeOp();
    if (!node || node.getMutatedBuffer(result.getResultNumber()))
      return nop.emitOpError("has input ")
             << i
             << ", which is not the fresh result of a fusion.node; only "
                "those can be computed into the concatenation's storage";
    for (Operation *user : input.getUsers())
      if (isa<OutputOp>(user) ||
          (user != nop.getOperation() && isa<NopOp>(user) &&
           isConcatenation(cast<NopOp>(user))))
        return nop.emitOpError("has input ")
               << i << ", which also has a storage of its own ("
               << user->getName() << " takes it)";
  }
  return success();
}

/// Checks the ops the host side must handle: tuple-returning externs and
/// views that are not a plain reinterpretation of one buffer.
static LogicalResult checkHostOps(GraphOp graph) {
  WalkResult result = graph.walk([&](Operation *op) -> WalkResult {
    if (auto ext = dyn_cast<ExternOp>(op))
      if (failed(checkTupleExtern(ext)))
        return WalkResult::interrupt();
    if (auto nop = dyn_cast<NopOp>(op)) {
      if (isConcatenation(nop))
        return failed(checkConcatenation(nop)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
      if (isAllocation(nop))
        return WalkResult::advance();
      if (nop.getInputs().size() != 1 || nop->getNumResults() != 1)
        return nop.emitOpError("aliases ")
                   << nop.getInputs().size()
                   << " buffers; only views of one buffer and concatenations "
                      "with known input offsets have a lowering (the offsets "
                      "are not in Inductor's dump: the backend writes them "
                      "to buffer_views.json)",
               WalkResult::interrupt();
      auto from = cast<BufferType>(nop.getInputs().front().getType());
      auto to = cast<BufferType>(nop->getResult(0).getType());
      if (from.getElementType() != to.getElementType())
        return nop.emitOpError("reinterprets ")
                   << from.getElementType() << " storage as "
                   << to.getElementType() << "; views have a lowering only "
                   << "when the element type is kept",
               WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {
/// Assigns storages to the buffers of a graph.
class StorageAssigner {
public:
  explicit StorageAssigner(GraphOp graph) : graph(graph) {}

  StoragePlan run() {
    Block &body = graph.getBodyBlock();
    for (BlockArgument arg : body.getArguments()) {
      auto type = cast<BufferType>(arg.getType());
      plan.storageOf[arg] = addStorage(graph.getInputName(arg.getArgNumber()),
                                       StoragePlan::Role::Input,
                                       arg.getArgNumber(), type);
    }
    // Output arguments first, so that their producers write them directly.
    OutputOp output = graph.getOutputOp();
    SmallVector<Value> outputRoots;
    for (auto [j, value] : llvm::enumerate(output.getBuffers())) {
      Value producer = lookThroughContainers(value);
      auto type = cast<BufferType>(value.getType());
      bool direct = isFreshResult(producer) && producer.getType() == type &&
                    !plan.storageOf.count(producer);
      std::string name = direct ? getBufferName(producer).str()
                                : uniqueName("output" + std::to_string(j));
      unsigned storage =
          addStorage(name, StoragePlan::Role::Output, j, type);
      plan.outputs.push_back({storage, std::nullopt});
      if (direct)
        plan.storageOf[producer] = storage;
      outputRoots.push_back(value);
    }
    // A concatenation's storage before the nodes computing its inputs run:
    // they write into it.
    graph.walk([&](NopOp nop) {
      if (!isConcatenation(nop))
        return;
      Value result = nop->getResult(0);
      if (!plan.storageOf.count(result))
        plan.storageOf[result] =
            addStorage(getBufferName(result).getValue(),
                       StoragePlan::Role::Temp, 0,
                       cast<BufferType>(result.getType()));
      for (Value input : nop.getInputs()) {
        plan.storageOf[input] = plan.storageOf[result];
        plan.storageOf[lookThroughContainers(input)] = plan.storageOf[result];
      }
    });
    // Then every value produced in the graph, in op order.
    for (Operation &op : body.without_terminator())
      assign(&op);
    // Outputs not written directly are copied from the value's storage.
    for (auto [j, value] : llvm::enumerate(outputRoots)) {
      unsigned from = plan.storageOf.lookup(value);
      if (from != plan.outputs[j].storage)
        plan.outputs[j].copyFrom = from;
    }
    return std::move(plan);
  }

private:
  /// A result of a node or extern that does not overwrite another buffer,
  /// of a concatenation, whose inputs its storage holds, or of an
  /// allocation.
  static bool isFreshResult(Value value) {
    auto result = dyn_cast<OpResult>(value);
    if (auto nop = result ? dyn_cast<NopOp>(result.getOwner()) : NopOp())
      return isConcatenation(nop) || isAllocation(nop);
    if (!result || !isa<NodeOp, ExternOp>(result.getOwner()))
      return false;
    auto node = cast<SchedulerNodeOpInterface>(result.getOwner());
    return !node.getMutatedBuffer(result.getResultNumber());
  }

  std::string uniqueName(std::string name) {
    while (usedNames.contains(name))
      name += "_";
    return name;
  }

  unsigned addStorage(StringRef name, StoragePlan::Role role,
                      unsigned argNumber, BufferType type) {
    usedNames.insert(name);
    // Contiguous buffers hold the product of their sizes (`s77*s27`, which
    // reads better in manifests than offset + sum (size - 1) * stride + 1).
    AffineExpr size =
        type.isContiguous()
            ? SizeVars::product(type.getContext(), type.getSizeExprs())
            : SizeVars::simplify(type.getStorageSizeExpr());
    plan.storages.push_back({name.str(), role, argNumber,
                             type.getElementType(), getStaticSize(size),
                             size});
    return plan.storages.size() - 1;
  }

  /// Assigns storages to the results of `op` and of its members.
  void assign(Operation *op) {
    if (isContainerNode(op)) {
      // A fused member result that nothing outside the group reads stays in
      // registers, unless it overwrites a buffer in place.
      if (isa<FusedOp>(op))
        for (OpResult result : op->getResults())
          if (isUnusedOutside(result) && !isMutation(getMemberResult(result)))
            plan.registerBuffers.insert(getMemberResult(result));
      for (Operation &member : op->getRegion(0).front().without_terminator())
        assign(&member);
      for (OpResult result : op->getResults())
        if (std::optional<unsigned> s = plan.lookup(getMemberResult(result)))
          plan.storageOf[result] = *s;
      return;
    }
    for (OpResult result : op->getResults()) {
      if (plan.storageOf.count(result) || plan.registerBuffers.count(result))
        continue; // written directly into an output argument, or in registers
      if (isa<MultiOutputType>(result.getType()))
        continue; // a tuple: its elements have the storages
      if (auto nop = dyn_cast<NopOp>(op)) {
        plan.storageOf[result] =
            isAllocation(nop)
                ? addStorage(getBufferName(result).getValue(),
                             StoragePlan::Role::Temp, 0,
                             cast<BufferType>(result.getType()))
                : plan.storageOf.lookup(nop.getInputs()[0]);
        continue;
      }
      auto node = cast<SchedulerNodeOpInterface>(op);
      if (Value old = node.getMutatedBuffer(result.getResultNumber())) {
        plan.storageOf[result] = plan.storageOf.lookup(old);
        continue;
      }
      plan.storageOf[result] =
          addStorage(getBufferName(result).getValue(), StoragePlan::Role::Temp, 0,
                     cast<BufferType>(result.getType()));
    }
  }

  /// True when nothing reads a container result, also through the
  /// `fusion.foreach` holding the container.
  static bool isUnusedOutside(OpResult result) {
    for (OpOperand &use : result.getUses()) {
      auto yield = dyn_cast<YieldOp>(use.getOwner());
      auto foreach = yield ? dyn_cast<ForeachOp>(yield->getParentOp())
                           : ForeachOp();
      if (!foreach ||
          !isUnusedOutside(foreach->getResult(use.getOperandNumber())))
        return false;
    }
    return true;
  }

  static bool isMutation(Value member) {
    auto result = cast<OpResult>(member);
    return static_cast<bool>(cast<SchedulerNodeOpInterface>(result.getOwner())
                                 .getMutatedBuffer(result.getResultNumber()));
  }

  GraphOp graph;
  StoragePlan plan;
  llvm::StringSet<> usedNames;
};
} // namespace

/// Gives the sorts and scans of `kernel` (a node or fused group) the
/// storages that hold their rows where stack arrays cannot
/// (needsRowScratchStorage): one temporary of numel x rnumel elements per
/// result of each sort or scan that the kernel computes, which the
/// storage plan maps that result to.
static void addRowScratch(Operation *kernel, StoragePlan &storage) {
  WalkResult rowOps = kernel->walk([](Operation *op) {
    return isRowOp(op) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!rowOps.wasInterrupted())
    return;
  FailureOr<KernelPlan> plan = failure();
  {
    // A kernel that does not plan gets no storage; its lowering plans it
    // again and reports why, in the order of the steps.
    ScopedDiagnosticHandler quiet(kernel->getContext(),
                                  [](Diagnostic &) { return success(); });
    plan = planKernel(kernel, storage);
  }
  if (failed(plan) || !needsRowScratchStorage(*plan))
    return;
  llvm::StringSet<> names;
  for (const StoragePlan::Storage &s : storage.storages)
    names.insert(s.name);
  AffineExpr size = SizeVars::simplify(plan->numelExpr * plan->rnumelExpr);
  unsigned next = 0;
  for (Operation *op : plan->rowOps) {
    if (plan->rowRepresentative.lookup(op) != op)
      continue;
    for (OpResult result : op->getResults()) {
      std::string name;
      do
        name = plan->name + "_rows" + std::to_string(next++);
      while (names.contains(name));
      names.insert(name);
      storage.storageOf[result] = storage.storages.size();
      storage.storages.push_back({name, StoragePlan::Role::Temp, 0,
                                  result.getType(), getStaticSize(size),
                                  size});
    }
  }
}

FailureOr<GraphPlan> codegen::planGraph(GraphOp graph, DependenceGraph &deps) {
  if (failed(checkOrder(graph, deps)) || failed(checkHostOps(graph)))
    return failure();
  GraphPlan plan;
  plan.graph = graph;
  for (Operation &op : graph.getBodyBlock().without_terminator())
    appendSteps(&op, plan.steps);
  plan.storage = StorageAssigner(graph).run();
  for (Operation *step : plan.steps) {
    if (isa<ExternOp>(step))
      continue;
    if (auto foreach = dyn_cast<ForeachOp>(step)) {
      for (Operation &member : foreach.getMembers())
        addRowScratch(&member, plan.storage);
      continue;
    }
    addRowScratch(step, plan.storage);
  }
  return plan;
}

SmallVector<unsigned> codegen::getStepStorages(Operation *step,
                                               const StoragePlan &storage) {
  SmallVector<unsigned> result;
  auto add = [&](Value buffer) {
    if (std::optional<unsigned> s = storage.lookup(buffer))
      if (!llvm::is_contained(result, *s))
        result.push_back(*s);
  };
  if (auto ext = dyn_cast<ExternOp>(step)) {
    for (Value input : ext.getInputs())
      add(input);
    for (const ExternOutput &output : getExternOutputs(ext))
      add(output.buffer);
    return result;
  }
  SmallVector<SchedulerNodeOpInterface> leaves;
  cast<SchedulerNodeOpInterface>(step).getLeafNodes(leaves);
  for (SchedulerNodeOpInterface leaf : leaves) {
    auto node = cast<NodeOp>(leaf.getOperation());
    node.getBody().walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op)) {
        add(load.getBuffer());
      } else if (isRowOp(op)) {
        // The rows of a sort or scan kept in storages of the graph.
        for (Value result : op->getResults())
          add(result);
      } else if (isa<OpaqueOp>(op)) {
        for (Value v : op->getOperands())
          if (isa<BufferType>(v.getType()))
            add(v);
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        add(node.getResultForHandle(cast<BlockArgument>(store.getBuffer())));
      }
    });
  }
  return result;
}
