//===- FusionAttrs.td - Attributes of the fusion dialect ---*- tablegen -*-===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONATTRS_TD
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONATTRS_TD

include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Fusion_ReduceKind : I32EnumAttr<"ReduceKind",
    "reduction combine function (Inductor's reduction_type)", [
  I32EnumAttrCase<"Sum", 0, "sum">,
  I32EnumAttrCase<"Prod", 1, "prod">,
  I32EnumAttrCase<"Max", 2, "max">,
  I32EnumAttrCase<"Min", 3, "min">,
  I32EnumAttrCase<"ArgMax", 4, "argmax">,
  I32EnumAttrCase<"ArgMin", 5, "argmin">,
  I32EnumAttrCase<"Any", 6, "any">,
  I32EnumAttrCase<"XorSum", 7, "xor_sum">,
  I32EnumAttrCase<"WelfordReduce", 8, "welford_reduce">,
  I32EnumAttrCase<"WelfordCombine", 9, "welford_combine">,
  I32EnumAttrCase<"OnlineSoftmaxReduce", 10, "online_softmax_reduce">
]> {
  let cppNamespace = "::mlir::fusion";
  let genSpecializedAttr = 0;
}

def Fusion_ReduceKindAttr : EnumAttr<Fusion_Dialect, Fusion_ReduceKind,
                                     "reduce_kind">;

def Fusion_StoreMode : I32EnumAttr<"StoreMode",
    "how a store combines with the value already in memory", [
  I32EnumAttrCase<"AtomicAdd", 0, "atomic_add">
]> {
  let cppNamespace = "::mlir::fusion";
  let genSpecializedAttr = 0;
}

def Fusion_StoreModeAttr : EnumAttr<Fusion_Dialect, Fusion_StoreMode,
                                    "store_mode">;

//===----------------------------------------------------------------------===//
// Dependences
//===----------------------------------------------------------------------===//

class Fusion_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Fusion_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Fusion_MemoryDepAttr : Fusion_Attr<"MemoryDep", "memory_dep"> {
  let summary = "An indexed access to a buffer (Inductor's MemoryDep)";
  let description = [{
    An access of one node to a buffer at the flat offset `index`, a map over
    the node's loop variables whose size is not 1 (named `d0, d1, ...` in
    order), with trailing variables the index does not use dropped, as in
    Inductor's `MemoryDep(name, index, var_names, size)`. Symbols are the
    the graph's size symbols (`s0, s1, ...`, see `fusion.graph`) followed by
    the node's indirect indices (Inductor's `tmp0, tmp1, ...`). `sizes`
    gives the range of each dimension, an expression in the size symbols.

    ```mlir
    #fusion.memory_dep<"arg0_1", (d0, d1) -> (d0 * 4096 + d1), [64, 4096]>
    #fusion.memory_dep<"buf85", (d0, d1)[s0] -> (d1 + s0 * 256), [128, 256], atomic_add>
    #fusion.memory_dep<"arg2_1", (d0, d1)[s0, s1] -> (d0 * s0 + d1), [s1, s0]>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "::mlir::AffineMap":$index,
    ArrayRefParameter<"::mlir::AffineExpr", "range of each index dimension">:$sizes,
    OptionalParameter<"::mlir::fusion::StoreModeAttr">:$mode
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Product of the sizes, the number of accesses, with size symbol `i`
    /// set to `symbolValues[i]`; nullopt if a symbol has no value.
    std::optional<int64_t> getNumAccesses(
        ::llvm::ArrayRef<int64_t> symbolValues = {}) const;
  }];
}

def Fusion_StarDepAttr : Fusion_Attr<"StarDep", "star_dep"> {
  let summary = "An access to a whole buffer (Inductor's StarDep)";
  let description = [{
    A read or write of a buffer as a whole, with no index: the accesses of
    extern kernels and nops, and the ordering of a mutation after the
    previous writer of the mutated buffer.

    ```mlir
    #fusion.star_dep<"buf7">
    #fusion.star_dep<"buf84", atomic_add>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    OptionalParameter<"::mlir::fusion::StoreModeAttr">:$mode
  );
  let assemblyFormat = "`<` $name (`,` $mode^)? `>`";
}

def Fusion_WeakDepAttr : Fusion_Attr<"WeakDep", "weak_dep"> {
  let summary = "An ordering-only dependence of a mutation (Inductor's WeakDep)";
  let description = [{
    The node writing `mutating` updates a buffer in place, so it must run
    after the node that produced `name`, which read the old contents. A weak
    dependence orders nodes but does not keep `name` alive.

    ```mlir
    #fusion.weak_dep<"buf65", mutating = "buf97">
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "::mlir::StringAttr":$mutating
  );
  let assemblyFormat = "`<` $name `,` `mutating` `=` $mutating `>`";
}

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONATTRS_TD
