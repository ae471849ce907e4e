//===- FusionInterfaces.td - Interfaces of the fusion dialect -*- tablegen -*-===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONINTERFACES_TD
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONINTERFACES_TD

include "mlir/IR/OpBase.td"

def Fusion_SchedulerNodeOpInterface : OpInterface<"SchedulerNodeOpInterface"> {
  let cppNamespace = "::mlir::fusion";
  let description = [{
    An op that the scheduler orders as one unit: Inductor's
    `BaseSchedulerNode`. Its results are the buffers it produces. Leaf nodes
    (`fusion.node`, `fusion.extern`, `fusion.nop`) carry a name and one name
    per produced buffer; containers (`fusion.fused`, `fusion.foreach`,
    `fusion.group`) derive both from their members.
  }];
  let methods = [
    InterfaceMethod<[{
        Returns the node name; for a container, the member names joined by
        `_` as Inductor names a FusedSchedulerNode (`op0_op1_op3`).
      }], "std::string", "getNodeName", (ins), [{}], [{
        return $_op.getName().str();
      }]>,
    InterfaceMethod<[{
        Returns the name of the buffer produced as result `resultNumber`.
      }], "::mlir::StringAttr", "getBufferName",
      (ins "unsigned":$resultNumber), [{}], [{
        ::mlir::ArrayAttr names = $_op.getBufferNames();
        if (resultNumber >= names.size())
          return nullptr;
        return ::llvm::dyn_cast<::mlir::StringAttr>(names[resultNumber]);
      }]>,
    InterfaceMethod<[{
        Returns the buffer version that result `resultNumber` overwrites in
        place, or a null value when the result is a fresh buffer.
      }], "::mlir::Value", "getMutatedBuffer",
      (ins "unsigned":$resultNumber), [{}], [{ return nullptr; }]>,
    InterfaceMethod<[{
        Returns true when the node must not be removed even if none of its
        buffers is used (Inductor's `has_side_effects`).
      }], "bool", "hasSideEffects", (ins), [{}], [{ return false; }]>,
    InterfaceMethod<[{
        Returns the leaf nodes in execution order: the op itself for a leaf,
        the flattened members for a container.
      }], "void", "getLeafNodes",
      (ins "::llvm::SmallVectorImpl<::mlir::fusion::SchedulerNodeOpInterface> &":$leaves),
      [{}], [{ leaves.push_back($_op); }]>,
    InterfaceMethod<[{
        Returns the Inductor class this op corresponds to, e.g.
        `SchedulerNode` or `ExternKernelSchedulerNode`.
      }], "::llvm::StringRef", "getInductorClassName">
  ];
}

def Fusion_IndexedOpInterface : OpInterface<"IndexedOpInterface"> {
  let cppNamespace = "::mlir::fusion";
  let description = [{
    An op of a node body that evaluates an index (Inductor's sympy index) as
    an affine map with one result over its index operands: `fusion.load`,
    `fusion.store` and `fusion.index_expr`. The operands are the map's
    dimensions (loop variables of the enclosing `fusion.node`) followed by
    its leading, indirect symbols (indices computed in the body, Inductor's
    `indirect0`); the symbols after those are the graph's size symbols.
  }];
  let methods = [
    InterfaceMethod<"Returns the index map.", "::mlir::AffineMap",
      "getIndexMap", (ins), [{}], [{ return $_op.getMap(); }]>,
    InterfaceMethod<"Returns the index operands: dimensions, then indirect symbols.",
      "::mlir::OperandRange", "getIndexOperands", (ins), [{}],
      [{ return $_op.getIndices(); }]>,
    InterfaceMethod<"Replaces the index map and its operands.", "void",
      "setIndex", (ins "::mlir::AffineMap":$map, "::mlir::ValueRange":$indices),
      [{}], [{
        $_op.setMap(map);
        $_op.getIndicesMutable().assign(indices);
      }]>
  ];
  let extraSharedClassDeclaration = [{
    /// The operands bound to the map's dimensions (loop variables).
    ::mlir::OperandRange getLoopIndices() {
      return $_op.getIndexOperands().take_front(
          $_op.getIndexMap().getNumDims());
    }
    /// The operands bound to the map's leading (indirect) symbols.
    ::mlir::OperandRange getIndirectIndices() {
      return $_op.getIndexOperands().drop_front(
          $_op.getIndexMap().getNumDims());
    }
    /// Number of indirect symbols; the size symbols follow them.
    unsigned getNumIndirectSymbols() { return getIndirectIndices().size(); }
  }];
}

def Fusion_AccessOpInterface
    : OpInterface<"AccessOpInterface", [Fusion_IndexedOpInterface]> {
  let cppNamespace = "::mlir::fusion";
  let description = [{
    An op that reads or writes one element of a buffer at its index:
    `fusion.load` (Inductor's `ops.load`) and `fusion.store` (`ops.store`).
    Analyses derive a node's memory dependences from these.
  }];
  let methods = [
    InterfaceMethod<"Returns the buffer (or output handle) accessed.",
      "::mlir::TypedValue<::mlir::fusion::BufferType>", "getAccessedBuffer",
      (ins), [{}], [{ return $_op.getBuffer(); }]>,
    InterfaceMethod<"Returns true for a write, false for a read.", "bool",
      "isWrite">
  ];
}

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONINTERFACES_TD
