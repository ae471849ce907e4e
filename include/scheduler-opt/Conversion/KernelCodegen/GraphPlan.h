//===- GraphPlan.h - Run-time layout of a lowered fusion.graph --*- C++ -*-===//
//
// What the GPU and CPU lowerings of a graph share above the kernels: the
// order in which kernels and externs run, and where every buffer lives at
// run time. Buffers are flat storages (1-D memrefs) indexed by the flat
// offsets of the dialect: a graph input's storage is a host-function
// argument, a node result read by the graph's consumer is written straight
// into an output argument, other results get temporaries, views (nops) and
// in-place updates share the storage they alias, and buffers produced and
// consumed inside a `fusion.fused` group get no storage at all. Sorts and
// scans along rows of symbolic or large length keep their rows in
// temporaries of their own (RowOps.h, needsRowScratchStorage).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_GRAPHPLAN_H
#define SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_GRAPHPLAN_H

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::fusion {
class DependenceGraph;
} // namespace mlir::fusion

namespace mlir::fusion::codegen {

/// Where the buffers of one graph live at run time.
struct StoragePlan {
  enum class Role { Input, Output, Temp };
  struct Storage {
    /// The buffer name (`arg0_1`, `buf3`), or `output<j>` for an output
    /// argument filled by a copy.
    std::string name;
    Role role;
    /// The graph input or output number of an Input or Output storage.
    unsigned argNumber = 0;
    Type elementType;
    /// The number of elements: static, or kSymbolicSize when it depends on
    /// the graph's size symbols, and as an expression in them.
    int64_t numElements = 0;
    AffineExpr numElementsExpr;
    bool hasStaticSize() const { return numElements != kSymbolicSize; }
  };
  /// A graph output: the output argument's storage, and the storage copied
  /// into it once every kernel ran when the producer did not write it
  /// directly (an input returned as output, a view, an in-place update,
  /// a buffer returned twice).
  struct Output {
    unsigned storage;
    std::optional<unsigned> copyFrom;
  };

  /// Inputs (in graph order), then outputs, then temporaries.
  SmallVector<Storage> storages;
  SmallVector<Output> outputs;
  /// The storage of every buffer value that reaches memory: graph inputs,
  /// results of nodes, externs, nops and containers, member results; and
  /// of the results of sorts and scans whose rows are kept in memory
  /// (their scratch temporaries, numel x rnumel elements of the result's
  /// type).
  DenseMap<Value, unsigned> storageOf;
  /// Results of `fusion.fused` members read only inside their group.
  DenseSet<Value> registerBuffers;

  std::optional<unsigned> lookup(Value buffer) const {
    auto it = storageOf.find(buffer);
    if (it == storageOf.end())
      return std::nullopt;
    return it->second;
  }
  bool isRegisterBuffer(Value buffer) const {
    return registerBuffers.contains(buffer);
  }
};

/// A graph ready to lower: its steps in execution order (`fusion.node`,
/// `fusion.fused`, `fusion.foreach` and `fusion.extern` ops; members of
/// `fusion.group` are separate steps, nops are aliases and run nothing)
/// and its storages.
struct GraphPlan {
  GraphOp graph;
  SmallVector<Operation *> steps;
  StoragePlan storage;
};

/// Plans `graph`, whose dependences are `deps`. Fails with a diagnostic on
/// the offending op when the graph is not in a valid execution order or
/// uses what the lowerings do not support (views that change the element
/// type or combine several buffers, tuples read by anything but
/// `multi_output` externs).
FailureOr<GraphPlan> planGraph(GraphOp graph, DependenceGraph &deps);

/// The storages a step reads or writes, in first-use order: loads of
/// buffers that are not kept in registers, stores to results that reach
/// memory, the rows of sorts and scans kept in memory, extern operands and
/// results.
SmallVector<unsigned> getStepStorages(Operation *step,
                                      const StoragePlan &storage);

/// A buffer an extern writes: the buffer value, and the position of the
/// tensor in the kernel's returned tuple (-1 when the kernel returns one
/// tensor, or overwrites an operand).
struct ExternOutput {
  Value buffer;
  int64_t index = -1;
};

/// The buffers `op` writes. An extern returning a `!fusion.multi_output`
/// writes the buffers of the `multi_output` externs that extract the
/// tuple's elements (which run nothing themselves), in element order.
SmallVector<ExternOutput> getExternOutputs(ExternOp op);

/// Whether `op` only extracts an element of a tuple (Inductor's
/// MultiOutput); the extern producing the tuple writes its buffer.
bool isTupleElement(ExternOp op);

/// A size expression of a graph (symbol i is its size symbol i) as the
/// manifest writes it: Python syntax (`+ - * // %`, parentheses) over the
/// symbols' Inductor names (`symbol_names`, else `s<i>`), which the runtime
/// evaluates once it bound them (python/scheduler_opt/sizes.py).
std::string printManifestSize(AffineExpr expr, ArrayRef<std::string> names);

/// The names the manifest and host functions give a graph's size symbols.
SmallVector<std::string> getSizeSymbolNames(GraphOp graph);

/// A short name for an element type as the manifest and harness use it:
/// the manifest name of its dtype (scheduler-opt/Support/Dtypes.def: f32, i1, u8,
/// f8e4m3fn, ...).
std::string getDTypeName(Type elementType);

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_KERNELCODEGEN_GRAPHPLAN_H
