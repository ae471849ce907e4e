//===- FusionTypes.td - Types of the fusion dialect --------*- tablegen -*-===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONTYPES_TD
#define SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONTYPES_TD

include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Fusion_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Fusion_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Fusion_BufferType : Fusion_Type<"Buffer", "buffer"> {
  let summary = "strided buffer";
  let description = [{
    A buffer with a static shape, an element type, strides in elements and a
    storage offset, as in Inductor's `FixedLayout(device, dtype, size,
    stride, offset)`. Index maps of `fusion.load` and `fusion.store` compute
    flat offsets into the storage, as Inductor's index expressions do.

    Strides equal to the row-major contiguous strides and a zero offset are
    elided when printing:

    ```mlir
    !fusion.buffer<64x4096xf32>                      // strides [4096, 1]
    !fusion.buffer<4096x1xf32, strides = [1, 4096]>
    !fusion.buffer<128xf32, strides = [2], offset = 1>
    !fusion.buffer<f32>                              // zero-dimensional
    ```

    The element type is a torch dtype: `f32`, `f16`, `bf16`, `f64`, the
    float8 types (`f8E4M3FN`, `f8E5M2`, `f8E4M3FNUZ`, `f8E5M2FNUZ`,
    `f8E8M0FNU`), `i1`, signless `i8` to `i64` for the signed integers,
    and unsigned `ui8` to `ui64` for torch.uint8 to uint64. Body values are
    signless: a load of a `ui8` buffer yields an `i8`, and the ops computing
    on it say whether they treat it as unsigned (`arith.divui`,
    `arith.uitofp`, ...; docs/Importer.md).

    Sizes, strides and the offset may be expressions in the size symbols of
    the enclosing graph (`s0`, `s1`, ...; see `fusion.graph`). A symbolic
    shape is written with spaced `x`, compound sizes in parentheses:

    ```mlir
    !fusion.buffer<s1 x 512 x f32>                   // strides [512, 1]
    !fusion.buffer<(s0 * s1) x 512 x f32>
    !fusion.buffer<s1 x 1 x f32, strides = [1, s1]>
    ```

    As upstream's dynamic dimensions, a symbolic entry of `shape`, `strides`
    or `offset` is `ShapedType::kDynamic`; `layoutExprs` then holds every
    size, stride and the offset as expressions (empty for a static layout).
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "sizes">:$shape,
    "::mlir::Type":$elementType,
    ArrayRefParameter<"int64_t", "strides in elements">:$strides,
    "int64_t":$offset,
    OptionalArrayRefParameter<"::mlir::AffineExpr",
        "sizes, strides and offset as expressions, if any is symbolic">:$layoutExprs
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType,
                   ::mlir::fusion::BufferType::getContiguousStrides(shape), 0,
                   ::llvm::ArrayRef<::mlir::AffineExpr>());
    }]>,
    TypeBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape,
                     "::mlir::Type":$elementType,
                     "::llvm::ArrayRef<int64_t>":$strides,
                     "int64_t":$offset), [{
      return $_get($_ctxt, shape, elementType, strides, offset,
                   ::llvm::ArrayRef<::mlir::AffineExpr>());
    }]>,
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<::mlir::AffineExpr>":$sizes,
        "::mlir::Type":$elementType,
        "::llvm::ArrayRef<::mlir::AffineExpr>":$strides,
        "::mlir::AffineExpr":$offset)>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Row-major strides of a dense buffer of `shape`.
    static ::llvm::SmallVector<int64_t> getContiguousStrides(
        ::llvm::ArrayRef<int64_t> shape);
    /// True for the element types a buffer may hold (Inductor's dtypes:
    /// floats including the float8 types, signless integers for the signed
    /// dtypes and bool, unsigned integers for torch.uint8 to uint64).
    static bool isValidElementType(::mlir::Type type);
    /// True for the types body values compute with: the element types,
    /// except that integers are signless (`ui8` elements are `i8` values).
    static bool isValidValueType(::mlir::Type type);
    /// The type of a value of an element of `elementType` (its signless
    /// counterpart for an unsigned integer, else itself).
    static ::mlir::Type getValueTypeOf(::mlir::Type elementType);
    /// The type `fusion.load` yields and `fusion.store` takes.
    ::mlir::Type getValueType() const {
      return getValueTypeOf(getElementType());
    }

    /// A buffer of `sizes` with contiguous strides and no offset.
    static BufferType getContiguous(::llvm::ArrayRef<::mlir::AffineExpr> sizes,
                                    ::mlir::Type elementType);

    unsigned getRank() const { return getShape().size(); }
    /// True if no size, stride or offset uses a size symbol.
    bool hasStaticLayout() const { return getLayoutExprs().empty(); }
    /// Sizes, strides and offset as expressions (constants when static).
    ::llvm::SmallVector<::mlir::AffineExpr> getSizeExprs() const;
    ::llvm::SmallVector<::mlir::AffineExpr> getStrideExprs() const;
    ::mlir::AffineExpr getOffsetExpr() const;
    /// One past the highest size symbol the layout uses.
    unsigned getNumSizeSymbols() const;

    /// Number of logical elements (product of the sizes), storage elements
    /// the layout spans (offset + max flat index + 1), and bytes of that
    /// storage, with size symbol `i` set to `symbolValues[i]`; nullopt if
    /// a symbol the layout uses has no value.
    std::optional<int64_t> getNumElements(
        ::llvm::ArrayRef<int64_t> symbolValues = {}) const;
    std::optional<int64_t> getStorageSize(
        ::llvm::ArrayRef<int64_t> symbolValues = {}) const;
    std::optional<int64_t> getSizeInBytes(
        ::llvm::ArrayRef<int64_t> symbolValues = {}) const;
    /// The storage size as an expression in the size symbols.
    ::mlir::AffineExpr getStorageSizeExpr() const;
    bool isContiguous() const;
  }];
}

def Fusion_MultiOutputType : Fusion_Type<"MultiOutput", "multi_output"> {
  let summary = "tuple of buffers returned by one extern kernel";
  let description = [{
    The result of an extern kernel with several outputs (Inductor's
    `MultiOutputLayout`). It has no storage of its own; `fusion.extern`
    ops with the `multi_output` kernel extract its buffers.
  }];
}

def Fusion_AnyBuffer : AnyTypeOf<[Fusion_BufferType, Fusion_MultiOutputType],
                                 "buffer or multi-output value">;

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_FUSIONTYPES_TD
