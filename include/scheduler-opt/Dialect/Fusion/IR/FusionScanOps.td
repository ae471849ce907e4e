//===- FusionScanOps.td - Scans along the reduction loops --*- tablegen -*-===//
//
// Inductor's ops.scan: a loop body operation with a region (its combine
// function). Kept apart from FusionOps.td so that adding it does not touch
// the header every lowering and analysis includes.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONSCANOPS_TD
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONSCANOPS_TD

include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Fusion_ScanOp : Fusion_Op<"scan", [
    RecursiveMemoryEffects, SingleBlock
  ]> {
  let summary = "An inclusive scan along the reduction loops (Inductor's ops.scan)";
  let description = [{
    Inductor's `ir.Scan` (`torch.cumsum`, `cumprod`, `logcumsumexp`,
    `cummax`, `cummin`, ...): for each element of the node's reduction
    loops, the combine function folded over the tuples of `inputs` of that
    element and of every element before it along the reduction loops
    (first to last), in a node that stores every element.

    The region is the combine function: its block takes the earlier
    partial tuple, then the current tuple (`2 N` arguments of the inputs'
    types), and ends with `fusion.scan_yield` of the new partial tuple.
    The function must be associative, as Inductor's scans assume
    (`tl.associative_scan`): the CPU lowering folds first to last, the
    GPU's block scans combine in a tree (docs/Lowering.md), so a function
    that is not associative gives different results on the two. It need
    not be commutative, nor have an identity.
    Inductor's dump does not print the function (only the submodule name,
    `self.scan1(dtypes, values)`), so an imported scan may have an empty
    region: the function is unknown, and a lowering reports it by
    `name`. The torch.compile backend traces it (docs/Importer.md).

    ```mlir
    %sum = fusion.scan "scan1"(%x) : (f32) -> f32 combine {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      fusion.scan_yield %s : f32
    }
    %unknown = fusion.scan "scan2"(%x) : (f32) -> f32
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region AnyRegion:$combine);
  let assemblyFormat = [{
    $name `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    (`combine` $combine^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True when the combine function is known (the region has its block).
    bool hasCombineFunction() { return !getCombine().empty(); }
  }];
}

def Fusion_ScanYieldOp : Fusion_Op<"scan_yield", [
    Pure, Terminator, HasParent<"ScanOp">
  ]> {
  let summary = "Returns the new partial tuple of a scan's combine function";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONSCANOPS_TD
