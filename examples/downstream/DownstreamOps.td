//===- DownstreamOps.td - A downstream dialect over fusion types -*- tablegen -*-===//
//
// Downstream ODS building on the installed fusion .td files: an op whose
// operand is constrained to the fusion dialect's buffer type.
//
//===----------------------------------------------------------------------===//

#ifndef DOWNSTREAM_OPS_TD
#define DOWNSTREAM_OPS_TD

include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Downstream_Dialect : Dialect {
  let name = "downstream";
  let cppNamespace = "::downstream";
  let summary = "A compiler's own ops over scheduler-opt's types";
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::fusion::FusionDialect"];
  let hasConstantMaterializer = 1;
}

def Downstream_NumElementsOp
    : Op<Downstream_Dialect, "num_elements", [Pure]> {
  let summary = "Number of logical elements of a fusion buffer";
  let arguments = (ins Fusion_BufferType:$buffer);
  let results = (outs Index:$result);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer)";
  let hasFolder = 1;
}

#endif // DOWNSTREAM_OPS_TD
