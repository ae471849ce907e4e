//===- FusionInterfaces.td - Interfaces of the fusion dialect -*- tablegen -*-===//

#ifndef FUSION_DIALECT_FUSION_IR_FUSIONINTERFACES_TD
#define FUSION_DIALECT_FUSION_IR_FUSIONINTERFACES_TD

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
      }], "std::string", "getNodeName">,
    InterfaceMethod<[{
        Returns the name of the buffer produced as result `resultNumber`.
      }], "::mlir::StringAttr", "getBufferName",
      (ins "unsigned":$resultNumber)>,
    InterfaceMethod<[{
        Returns the buffer version that result `resultNumber` overwrites in
        place, or a null value when the result is a fresh buffer.
      }], "::mlir::Value", "getMutatedBuffer",
      (ins "unsigned":$resultNumber)>,
    InterfaceMethod<[{
        Returns true when the node must not be removed even if none of its
        buffers is used (Inductor's `has_side_effects`).
      }], "bool", "hasSideEffects">,
    InterfaceMethod<[{
        Returns the leaf nodes in execution order: the op itself for a leaf,
        the flattened members for a container.
      }], "void", "getLeafNodes",
      (ins "::llvm::SmallVectorImpl<::mlir::fusion::SchedulerNodeOpInterface> &":$leaves)>,
    InterfaceMethod<[{
        Returns the Inductor class this op corresponds to, e.g.
        `SchedulerNode` or `ExternKernelSchedulerNode`.
      }], "::llvm::StringRef", "getInductorClassName">
  ];
}

#endif // FUSION_DIALECT_FUSION_IR_FUSIONINTERFACES_TD
