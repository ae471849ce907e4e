//===- FusionOps.td - Operations of the fusion dialect -----*- tablegen -*-===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONOPS_TD
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONOPS_TD

include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.td"
include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.td"
include "scheduler-opt/Dialect/Fusion/IR/FusionAttrs.td"
include "scheduler-opt/Dialect/Fusion/IR/FusionInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

def Fusion_GraphOp : Fusion_Op<"graph", [
    IsolatedFromAbove, Symbol, SingleBlock,
    DeclareOpInterfaceMethods<RegionKindInterface>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>
  ]> {
  let summary = "A scheduling graph (Inductor's Scheduler over one FX graph)";
  let description = [{
    The body is a graph region: the order of the scheduler nodes in it has
    no meaning until `fusion-topological-sort` orders them. Block arguments
    are the graph's input buffers (their names are the SSA names, kept in
    `input_names`); the `fusion.output` terminator lists the output buffers
    (Inductor's `OutputNode`). `device` is the device of every buffer.

    ```mlir
    fusion.graph @add_sum(%arg0_1: !fusion.buffer<64x4096xf32>,
                          %arg1_1: !fusion.buffer<64x4096xf32>)
        -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
      %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [4096]
          writes(%out : !fusion.buffer<64xf32>) {
        %0 = fusion.load %arg0_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
        %1 = fusion.load %arg1_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
        %2 = arith.addf %0, %1 : f32
        %3 = fusion.reduce sum %2 : f32 -> f32
        fusion.store %3, %out[%p0] : !fusion.buffer<64xf32>
      }
      fusion.output %buf0 : !fusion.buffer<64xf32>
    }
    ```

    The verifier checks that node and buffer names are unique and that the
    def-use edges between scheduler nodes form no cycle.

    A graph compiled for dynamic shapes declares its size symbols (Inductor's
    `s27`, `s77`), named `s0, s1, ...` in order, each with the hint
    Inductor's heuristics use for it when one is known (`size_hints.json`).
    Sizes, strides, offsets, loop ranges and index maps may use them:

    ```mlir
    fusion.graph @softmax symbols(s0 = 1024, s1)
        (%arg2_1: !fusion.buffer<s1 x s0 x f32>) -> (...) attributes {...}
    ```

    `symbol_hints` holds one hint per symbol (`ShapedType::kDynamic` where
    none is known); `symbol_names`, if present, Inductor's names for them.
    The verifier checks that every symbol used is declared and that no
    access reaches past a static buffer at the hints.
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttrOf<FunctionType>:$function_type,
    StrAttr:$device,
    StrArrayAttr:$input_names,
    OptionalAttr<DenseI64ArrayAttr>:$symbol_hints,
    OptionalAttr<StrArrayAttr>:$symbol_names
  );
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name,
                   "::llvm::ArrayRef<::mlir::Type>":$inputTypes,
                   "::llvm::ArrayRef<::llvm::StringRef>":$inputNames,
                   "::llvm::ArrayRef<::mlir::Type>":$resultTypes,
                   "::llvm::StringRef":$device)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::mlir::fusion::OutputOp getOutputOp();
    ::mlir::StringAttr getInputName(unsigned index) {
      return ::llvm::cast<::mlir::StringAttr>(getInputNames()[index]);
    }
    /// Number of size symbols the graph declares.
    unsigned getNumSizeSymbols() {
      auto hints = getSymbolHints();
      return hints ? hints->size() : 0;
    }
    /// The hint of each size symbol (kSymbolicSize where none is known).
    ::llvm::ArrayRef<int64_t> getSizeHints() {
      auto hints = getSymbolHints();
      return hints ? *hints : ::llvm::ArrayRef<int64_t>();
    }
    /// How diagnostics name size symbol `i`: `s0`, or `s0 (s27)` with
    /// Inductor's name.
    std::string getSizeSymbolDisplayName(unsigned i);
  }];
}

def Fusion_OutputOp : Fusion_Op<"output", [
    Terminator, HasParent<"GraphOp">, Pure
  ]> {
  let summary = "The output buffers of a graph";
  let description = [{
    Terminates a `fusion.graph` and names its output buffers. Every listed
    buffer is used by the graph's consumer (Inductor's `OutputNode`).
  }];
  let arguments = (ins Variadic<Fusion_BufferType>:$buffers);
  let assemblyFormat = "attr-dict ($buffers^ `:` type($buffers))?";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

//===----------------------------------------------------------------------===//
// Scheduler nodes
//===----------------------------------------------------------------------===//

// A scheduler node op: `inductorClass` is the Inductor class it stands for;
// `nodeMethods` the SchedulerNodeOpInterface methods it defines itself (the
// interface's defaults serve a leaf node named by `name` and `buffer_names`).
class Fusion_SchedulerNodeOp<string mnemonic, string inductorClass,
                             list<Trait> traits = [],
                             list<string> nodeMethods = [],
                             list<string> asmMethods = ["getAsmResultNames"]>
    : Fusion_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<Fusion_SchedulerNodeOpInterface, nodeMethods>,
        DeclareOpInterfaceMethods<OpAsmOpInterface, asmMethods>,
        ParentOneOf<["GraphOp", "FusedOp", "ForeachOp", "GroupOp"]>
      ])> {
  code inductorClassDefinition = [{
    ::llvm::StringRef $cppClass::getInductorClassName() {
      return "}] # inductorClass # [{";
    }
  }];
  // A leaf's results print with the names in `buffer_names`.
  let extraClassDefinition = inductorClassDefinition # [{
    void $cppClass::getAsmResultNames(::mlir::OpAsmSetValueNameFn setNameFn) {
      ::mlir::fusion::detail::setBufferResultNames(*this, getBufferNames(),
                                                   setNameFn);
    }
  }];
}

def Fusion_NodeOp : Fusion_SchedulerNodeOp<"node", "SchedulerNode", [
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>
  ], ["getMutatedBuffer"],
  ["getAsmResultNames", "getAsmBlockArgumentNames"]> {
  let summary = "A loop-nest kernel (Inductor's SchedulerNode)";
  let description = [{
    A pointwise or reduction computation over the iteration space `ranges`
    followed by `reduction_ranges` (Inductor's `node.sizes`). The body is
    Inductor's `LoopBody`: its entry block takes one `index` per loop (the
    pointwise loops first), then one buffer handle per result, which
    `fusion.store` writes. The body reads buffers of the enclosing graph
    with `fusion.load`.

    Loop sizes may be expressions in the graph's size symbols
    (`in [s1] reduce [s0]`); `ranges` then holds `ShapedType::kDynamic` for
    them and `symbolic_loop_sizes` every loop size as an expression (pointwise
    first).

    `name` is Inductor's operation name (`op3`); `buffer_names` names the
    produced buffers (`buf3`) and is taken from the SSA result names when it
    is not written out. A result may overwrite an existing buffer in place
    (`mutates %x`): it is then a new version of `%x`, and every other reader
    of `%x` must run before this node.

    ```mlir
    %buf4 = fusion.node "op4" (%p0, %p1) in [4096, 1024]
        writes(%out : !fusion.buffer<4096x1024xf32>) {
      %0 = fusion.load %primals_3[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %1 = fusion.load %buf0[%p0] : !fusion.buffer<4096x1xf32>
      %2 = arith.subf %0, %1 : f32
      fusion.store %2, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    }
    %buf97 = fusion.node "op97" (%p0) in [256]
        writes(%out : !fusion.buffer<256xf32> mutates %arg18_1) { ... }
    ```
  }];
  let arguments = (ins
    StrAttr:$name,
    DenseI64ArrayAttr:$ranges,
    DenseI64ArrayAttr:$reduction_ranges,
    OptionalAttr<AffineMapAttr>:$symbolic_loop_sizes,
    StrArrayAttr:$buffer_names,
    DenseI64ArrayAttr:$tied_operands,
    Variadic<Fusion_BufferType>:$mutated
  );
  let results = (outs Variadic<Fusion_BufferType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name,
                   "::llvm::ArrayRef<int64_t>":$ranges,
                   "::llvm::ArrayRef<int64_t>":$reductionRanges,
                   "::llvm::ArrayRef<::mlir::Type>":$resultTypes,
                   "::llvm::ArrayRef<::llvm::StringRef>":$bufferNames,
                   CArg<"::mlir::ValueRange", "{}">:$mutated,
                   CArg<"::llvm::ArrayRef<int64_t>", "{}">:$tiedOperands)>,
    // The same from the attributes (the importer reuses equal ones).
    OpBuilder<(ins "::mlir::StringAttr":$name,
                   "::mlir::DenseI64ArrayAttr":$ranges,
                   "::mlir::DenseI64ArrayAttr":$reductionRanges,
                   "::llvm::ArrayRef<::mlir::Type>":$resultTypes,
                   "::mlir::ArrayAttr":$bufferNames,
                   "::mlir::ValueRange":$mutated,
                   "::mlir::DenseI64ArrayAttr":$tiedOperands)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    unsigned getNumPointwiseLoops() { return getRanges().size(); }
    unsigned getNumReductionLoops() { return getReductionRanges().size(); }
    unsigned getNumLoops() {
      return getNumPointwiseLoops() + getNumReductionLoops();
    }
    bool isReduction() { return getNumReductionLoops() != 0; }
    /// All loop sizes, pointwise first (kDynamic where symbolic).
    ::llvm::SmallVector<int64_t> getLoopSizes();
    /// All loop sizes as expressions in the size symbols, pointwise first.
    ::llvm::SmallVector<::mlir::AffineExpr> getLoopSizeExprs();
    ::llvm::SmallVector<::mlir::AffineExpr> getRangeExprs() {
      auto all = getLoopSizeExprs();
      all.resize(getNumPointwiseLoops());
      return all;
    }
    ::llvm::SmallVector<::mlir::AffineExpr> getReductionRangeExprs() {
      auto all = getLoopSizeExprs();
      all.erase(all.begin(), all.begin() + getNumPointwiseLoops());
      return all;
    }
    bool hasStaticLoopSizes() { return !getSymbolicLoopSizesAttr(); }
    /// Sets the loop sizes (pointwise first) from expressions.
    void setLoopSizeExprs(::llvm::ArrayRef<::mlir::AffineExpr> sizes,
                          unsigned numPointwise);
    /// Inductor's `group.iteration`: (numel, rnumel), static (kDynamic if
    /// symbolic) and as expressions.
    int64_t getNumel();
    int64_t getReductionNumel();
    ::mlir::AffineExpr getNumelExpr();
    ::mlir::AffineExpr getReductionNumelExpr();
    /// The loop variables (entry block arguments of type index).
    ::mlir::Block::BlockArgListType getLoopVars() {
      return getBodyBlock().getArguments().take_front(getNumLoops());
    }
    /// The buffer handles the body stores to, one per result.
    ::mlir::Block::BlockArgListType getOutputHandles() {
      return getBodyBlock().getArguments().drop_front(getNumLoops());
    }
    /// The result stored through `handle`, an output handle of this node.
    ::mlir::OpResult getResultForHandle(::mlir::BlockArgument handle) {
      return getOperation()->getResult(handle.getArgNumber() - getNumLoops());
    }
  }];
}

def Fusion_ExternOp : Fusion_SchedulerNodeOp<"extern",
    "ExternKernelSchedulerNode", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>
  ], ["getMutatedBuffer", "hasSideEffects"]> {
  let summary = "A library kernel (Inductor's ExternKernelSchedulerNode)";
  let description = [{
    Calls `kernel` (e.g. `extern_kernels.addmm`) on whole buffers: it reads
    every operand and writes every result as a whole, so its dependences are
    `#fusion.star_dep`s. It is never fused. A result may overwrite an
    operand in place (`mutates %x`); `side_effects` keeps it alive when none
    of its buffers is used. A kernel returning several tensors produces a
    `!fusion.multi_output`, from which `multi_output` externs extract one
    buffer each (Inductor's `MultiOutput`).

    ```mlir
    %buf8 = fusion.extern "op8" "extern_kernels.addmm"(%primals_7, %buf7, %primals_6)
        : (!fusion.buffer<2304xf32>, !fusion.buffer<512x768xf32>,
           !fusion.buffer<768x2304xf32>) -> !fusion.buffer<512x2304xf32>
    ```
  }];
  let arguments = (ins
    StrAttr:$name,
    StrAttr:$kernel,
    StrArrayAttr:$buffer_names,
    DenseI64ArrayAttr:$tied_operands,
    UnitAttr:$side_effects,
    Variadic<Fusion_AnyBuffer>:$inputs
  );
  let results = (outs Variadic<Fusion_AnyBuffer>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "::llvm::StringRef":$kernel,
                   "::mlir::ValueRange":$inputs,
                   "::llvm::ArrayRef<::mlir::Type>":$resultTypes,
                   "::llvm::ArrayRef<::llvm::StringRef>":$bufferNames,
                   CArg<"::llvm::ArrayRef<int64_t>", "{}">:$tiedOperands,
                   CArg<"bool", "false">:$sideEffects)>
  ];
}

def Fusion_NopOp : Fusion_SchedulerNodeOp<"nop", "NopKernelSchedulerNode",
                                          [Pure]> {
  let summary = "A view or alias (Inductor's NopKernelSchedulerNode)";
  let description = [{
    Produces buffers that alias its operands without computing anything
    (views, concatenations into preallocated storage). Readers of a result
    are readers of the operands for mutation ordering.

    A concatenation (Inductor's `ConcatKernel`) has one result, whose
    storage its inputs were computed straight into: each input is a view
    of part of it (a `NonOwningLayout` buffer). `input_offsets`, when
    known, gives the element offset of each input's storage in the
    result's, one map result per input, in the graph's size symbols. The
    inputs keep the types and indices Inductor gives them (relative to
    their own start) until `fusion-place-concat-inputs` moves them into
    the result's storage for the lowering.

    ```mlir
    %buf3 = fusion.nop "op3"(%buf1) : (!fusion.buffer<8x8xf32>) -> !fusion.buffer<64xf32>
    %buf5 = fusion.nop "op5"(%buf0, %buf1) {input_offsets = affine_map<() -> (0, 1)>}
        : (!fusion.buffer<512x1xf32, strides = [2, 1]>,
           !fusion.buffer<512x1xf32, strides = [2, 1]>) -> !fusion.buffer<512x2xf32>
    ```
  }];
  let arguments = (ins
    StrAttr:$name,
    StrArrayAttr:$buffer_names,
    Variadic<Fusion_BufferType>:$inputs,
    OptionalAttr<AffineMapAttr>:$input_offsets
  );
  let results = (outs Variadic<Fusion_BufferType>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Containers
//===----------------------------------------------------------------------===//

// A container derives its names, mutations and side effects from its members
// (FusionOps.h, detail::).
class Fusion_ContainerOp<string mnemonic, string inductorClass,
                         list<Trait> traits = []>
    : Fusion_SchedulerNodeOp<mnemonic, inductorClass, !listconcat(traits, [
        SingleBlock, RecursiveMemoryEffects
      ]), ["getNodeName", "getBufferName", "getMutatedBuffer",
           "hasSideEffects", "getLeafNodes"]> {
  let results = (outs Variadic<Fusion_AnyBuffer>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`->` type($results)^)? attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::ArrayRef<::mlir::Type>":$resultTypes), [{
      $_state.addTypes(resultTypes);
      $_state.addRegion()->emplaceBlock();
    }]>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The member scheduler nodes, in execution order.
    auto getMembers() {
      return getBodyBlock().without_terminator();
    }
  }];
  let extraClassDefinition = inductorClassDefinition # [{
    std::string $cppClass::getNodeName() {
      return ::mlir::fusion::detail::getContainerNodeName(*this);
    }
    ::mlir::StringAttr $cppClass::getBufferName(unsigned resultNumber) {
      auto [member, number] =
          ::mlir::fusion::detail::getContainerMember(*this, resultNumber);
      return member.getBufferName(number);
    }
    ::mlir::Value $cppClass::getMutatedBuffer(unsigned resultNumber) {
      auto [member, number] =
          ::mlir::fusion::detail::getContainerMember(*this, resultNumber);
      return member.getMutatedBuffer(number);
    }
    bool $cppClass::hasSideEffects() {
      return ::mlir::fusion::detail::containerHasSideEffects(*this);
    }
    void $cppClass::getLeafNodes(
        ::llvm::SmallVectorImpl<::mlir::fusion::SchedulerNodeOpInterface>
            &leaves) {
      ::mlir::fusion::detail::getContainerLeafNodes(*this, leaves);
    }
    void $cppClass::getAsmResultNames(::mlir::OpAsmSetValueNameFn setNameFn) {
      ::mlir::fusion::detail::setContainerResultNames(*this, setNameFn);
    }
  }];
}

def Fusion_FusedOp : Fusion_ContainerOp<"fused", "FusedSchedulerNode"> {
  let summary = "Nodes fused into one kernel (Inductor's FusedSchedulerNode)";
  let description = [{
    Holds `fusion.node`s that run as one kernel, in execution order. A
    buffer produced and consumed inside the group need not reach memory.
    The terminator yields every member result in order; they are the results
    of the op, so the graph outside refers to them as before fusion.

    ```mlir
    %buf0, %buf1 = fusion.fused -> !fusion.buffer<64xf32>, !fusion.buffer<64x4096xf32> {
      %buf0_0 = fusion.node "op0" ... 
      %buf1_0 = fusion.node "op1" ...   // may load %buf0_0
      fusion.yield %buf0_0, %buf1_0 : !fusion.buffer<64xf32>, !fusion.buffer<64x4096xf32>
    }
    ```
  }];
}

def Fusion_ForeachOp : Fusion_ContainerOp<"foreach",
                                          "ForeachKernelSchedulerNode"> {
  let summary = "Independent kernels launched together (Inductor's ForeachKernelSchedulerNode)";
  let description = [{
    Holds `fusion.node`s and `fusion.fused`s that become one horizontal
    (combo) kernel. The members do not depend on each other.
  }];
}

def Fusion_GroupOp : Fusion_ContainerOp<"group", "GroupedSchedulerNode"> {
  let summary = "Nodes scheduled together (Inductor's GroupedSchedulerNode)";
  let description = [{
    Holds scheduler nodes that must be scheduled back to back and are never
    fused with nodes outside the group.
  }];
}

def Fusion_YieldOp : Fusion_Op<"yield", [
    Pure, Terminator,
    ParentOneOf<["NodeOp", "MaskedOp", "FusedOp", "ForeachOp", "GroupOp"]>
  ]> {
  let summary = "Terminates a node body, a masked region or a container";
  let description = [{
    In a `fusion.node` body it takes no operands and may be omitted. In a
    `fusion.masked` region it yields the value computed where the mask is
    true. In a container it yields the results of every member, in order.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
}

//===----------------------------------------------------------------------===//
// Loop body operations
//===----------------------------------------------------------------------===//

def Fusion_LoadOp : Fusion_Op<"load", [
    Fusion_IndexedOpInterface, Fusion_AccessOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result type matches the buffer's value type",
                   "buffer", "result",
                   "::llvm::cast<::mlir::fusion::BufferType>($_self).getValueType()">
  ]> {
  let summary = "Reads one element of a buffer (Inductor's ops.load)";
  let description = [{
    Reads the element at flat storage offset `map(indices)`. The map has one
    result; its dimensions are loop variables of the enclosing `fusion.node`;
    its first symbols are indirect indices computed in the body (Inductor's
    `indirect0`), bound with `symbol(...)`, and the symbols after them the
    graph's size symbols `s0, s1, ...` (`%x[%p0 * s0 + %p1]`). The result
    has the buffer's value type: its element type, signless for an unsigned
    one (a `ui8` buffer yields `i8`).

    ```mlir
    %0 = fusion.load %arg0[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %i = arith.index_cast %ids : i64 to index
    %1 = fusion.load %wte[symbol(%i) * 768 + %p2] : !fusion.buffer<50257x768xf32>
    ```
  }];
  let arguments = (ins
    Fusion_BufferType:$buffer,
    Variadic<Index>:$indices,
    AffineMapAttr:$map
  );
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $buffer `` custom<Index>($indices, $map) attr-dict `:` qualified(type($buffer))
  }];
  let hasVerifier = 1;
  // The result type is the buffer's value type. Given here rather than
  // inferred through InferTypeOpInterface, which ODS would add for the
  // TypesMatchWith above: its verifier would infer the type of every load
  // again after TypesMatchWith has checked it.
  let builders = [
    OpBuilder<(ins "::mlir::Value":$buffer, "::mlir::ValueRange":$indices,
                   "::mlir::AffineMap":$map), [{
      build($_builder, $_state,
            ::llvm::cast<::mlir::fusion::BufferType>(buffer.getType())
                .getValueType(),
            buffer, indices, map);
    }]>
  ];
  let extraClassDeclaration = [{
    ::mlir::fusion::BufferType getBufferType() { return getBuffer().getType(); }
    bool isWrite() { return false; }
  }];
}

def Fusion_StoreOp : Fusion_Op<"store", [
    Fusion_IndexedOpInterface, Fusion_AccessOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"value type matches the buffer's value type",
                   "buffer", "value",
                   "::llvm::cast<::mlir::fusion::BufferType>($_self).getValueType()">
  ]> {
  let summary = "Writes one element of a node's output (Inductor's ops.store)";
  let description = [{
    Writes `value` at flat storage offset `map(indices)` of an output handle
    of the enclosing `fusion.node`. In a reduction node the stored value is a
    reduced value and the index uses pointwise loops only (Inductor's
    `store_reduction`). `atomic_add` accumulates into memory instead of
    overwriting it.

    ```mlir
    fusion.store %3, %out[%p0] : !fusion.buffer<64xf32>
    fusion.store %v, %out[symbol(%i) * 256 + %p1] atomic_add : !fusion.buffer<256x256xf32>
    ```
  }];
  let arguments = (ins
    AnyType:$value,
    Fusion_BufferType:$buffer,
    Variadic<Index>:$indices,
    AffineMapAttr:$map,
    OptionalAttr<Fusion_StoreModeAttr>:$mode
  );
  let assemblyFormat = [{
    $value `,` $buffer `` custom<Index>($indices, $map) `` custom<StoreMode>($mode)
    attr-dict `:` qualified(type($buffer))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::fusion::BufferType getBufferType() { return getBuffer().getType(); }
    bool isWrite() { return true; }
  }];
}

def Fusion_ReduceOp : Fusion_Op<"reduce", [
    Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>
  ]> {
  let summary = "Combines a value over the reduction loops (Inductor's ops.reduction)";
  let description = [{
    Combines `inputs` over every iteration of the enclosing node's reduction
    loops; the results are per pointwise iteration. Arity by kind:
    `welford_reduce` takes a value and returns (mean, m2, weight);
    `welford_combine` takes and returns such triples;
    `online_softmax_reduce` returns (max, sum of exp(x - max)); `argmax` and
    `argmin` return an `i64` position in the reduction space; the others
    take and return one value of the same type (`any` on `i1`).

    ```mlir
    %s = fusion.reduce sum %x : f32 -> f32
    %mean, %m2, %w = fusion.reduce welford_reduce %x : f32 -> f32, f32, f32
    ```
  }];
  let arguments = (ins Fusion_ReduceKindAttr:$kind, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    `` $kind $inputs attr-dict `:` type($inputs) `->` type($results)
  }];
  let hasVerifier = 1;
}

def Fusion_IndexExprOp : Fusion_Op<"index_expr", [
    Pure, Fusion_IndexedOpInterface
  ]> {
  let summary = "An index expression as a value (Inductor's ops.index_expr)";
  let description = [{
    Evaluates an index map over loop variables (and indirect indices) and
    returns it as an integer.

    ```mlir
    %0 = fusion.index_expr [%p0 * 128 + %p1] : i64
    ```
  }];
  let arguments = (ins Variadic<Index>:$indices, AffineMapAttr:$map);
  let results = (outs AnyTypeOf<[I32, I64, Index]>:$result);
  let assemblyFormat = "custom<Index>($indices, $map) attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Fusion_MaskedOp : Fusion_Op<"masked", [
    SingleBlock, RecursiveMemoryEffects, AllTypesMatch<["other", "result"]>
  ]> {
  let summary = "A computation guarded by a mask (Inductor's ops.masked)";
  let description = [{
    Runs the region only where `mask` is true and yields its value there,
    `other` elsewhere. Loads in the region may be out of bounds where the
    mask is false (padding).

    ```mlir
    %v = fusion.masked %in_bounds, %neg_inf : f32 {
      %l = fusion.load %buf19[%p0 * 64 + %p1 - 65] : !fusion.buffer<802816xf32>
      fusion.yield %l : f32
    }
    ```
  }];
  let arguments = (ins I1:$mask, AnyType:$other);
  let results = (outs AnyType:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$mask `,` $other attr-dict `:` type($result) $body";
  let hasVerifier = 1;
}

def Fusion_CastOp : Fusion_Op<"cast", [Pure]> {
  let summary = "Converts between element types with PyTorch semantics (ops.to_dtype)";
  let description = [{
    `to_dtype`: floats truncate toward zero when converted to integers,
    conversions to `i1` test for non-zero, `i1` converts to 0 or 1, integers
    sign-extend or truncate.

    ```mlir
    %0 = fusion.cast %mask : i1 to f32
    ```
  }];
  let arguments = (ins AnyType:$input);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
}

def Fusion_RandOp : Fusion_Op<"rand", [Pure]> {
  let summary = "A uniform random number in [0, 1) (Inductor's ops.rand)";
  let description = [{
    Philox-based uniform sample for a 64-bit `seed` and a per-element
    `offset`, as Triton's `tl.rand(seed, offset)`.

    ```mlir
    %r = fusion.rand %seed, %offset : i64, i32 -> f32
    ```
  }];
  let arguments = (ins I64:$seed, AnyTypeOf<[I32, I64]>:$offset);
  let results = (outs F32:$result);
  let assemblyFormat = [{
    $seed `,` $offset attr-dict `:` type($seed) `,` type($offset) `->` type($result)
  }];
}


def Fusion_OpaqueOp : Fusion_Op<"opaque", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>
  ]> {
  let summary = "An Inductor operation kept by name (ops.<name> without an op of its own)";
  let description = [{
    An operation of Inductor's `OpsHandler` that neither an upstream dialect
    nor a dedicated fusion op expresses with PyTorch's semantics: special
    functions (`lgamma`, `erfinv`, `bessel_j0`, ...), `frexp`, `nextafter`,
    `hypot`, `randn`, `randint64`, `scan`, `sort`, `bucketize`,
    `inline_asm_elementwise`, ... It keeps the operation's name, its value
    operands, and its other arguments as attributes (the importer's table in
    docs/Importer.md lists each one).

    Analyses see it as opaque: it reads every buffer it takes as an operand
    entirely (a dependence on the whole buffer) and writes nothing. A lowering
    that does not know `name` reports the op at its location.

    ```mlir
    %m, %e = fusion.opaque "frexp"(%x) : (f32) -> (f32, i32)
    %g = fusion.opaque "lgamma"(%x) : (f32) -> f32
    %b = fusion.opaque "bucketize"(%v, %offsets, %n) {right = false} : (f32, !fusion.buffer<16xf32>, index) -> i64
    ```
  }];
  let arguments = (ins StrAttr:$op_name, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $op_name `(` $operands `)` attr-dict `:` functional-type($operands, $results)
  }];
  let hasVerifier = 1;
}

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONOPS_TD
