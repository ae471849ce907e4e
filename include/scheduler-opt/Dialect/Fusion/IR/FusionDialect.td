//===- FusionDialect.td - The fusion dialect ---------------*- tablegen -*-===//
//
// The `fusion` dialect models PyTorch Inductor's scheduling graph: kernels to
// be (scheduler nodes), the buffers they read and write, and the memory
// dependencies between them.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONDIALECT_TD
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONDIALECT_TD

include "mlir/IR/OpBase.td"

def Fusion_Dialect : Dialect {
  let name = "fusion";
  let cppNamespace = "::mlir::fusion";
  let summary = "Kernel-fusion scheduling graphs in the style of PyTorch Inductor";
  let description = [{
    A `fusion.graph` holds the scheduler nodes of one Inductor graph. Each
    `fusion.node` is a loop nest (pointwise ranges, then reduction ranges)
    whose body loads from and stores to buffers through affine index maps;
    `fusion.extern` and `fusion.nop` stand for library kernels and views.
    Fusion passes group nodes into `fusion.fused`, `fusion.foreach` and
    `fusion.group` regions. Memory dependencies (`#fusion.memory_dep`,
    `#fusion.star_dep`, `#fusion.weak_dep`) are derived from the node bodies
    by the dependence analysis; they are never stored in the IR.

    Buffers are SSA values of type `!fusion.buffer`. A node that updates a
    buffer in place produces a new SSA version of it, so the def-use chains
    alone order writers after readers of the old version.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();

  private:
    /// Invalidates the getCachedConstantExpr tables when the context goes.
    ConstantExprCacheGuard constantExprCacheGuard;

  public:
  }];
}

class Fusion_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fusion_Dialect, mnemonic, traits>;

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONDIALECT_TD
