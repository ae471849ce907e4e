//===- FusionTypes.td - Types of the fusion dialect --------*- tablegen -*-===//

#ifndef FUSION_DIALECT_FUSION_IR_FUSIONTYPES_TD
#define FUSION_DIALECT_FUSION_IR_FUSIONTYPES_TD

include "fusion/Dialect/Fusion/IR/FusionDialect.td"
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
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "sizes">:$shape,
    "::mlir::Type":$elementType,
    ArrayRefParameter<"int64_t", "strides in elements">:$strides,
    "int64_t":$offset
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType,
                   ::mlir::fusion::BufferType::getContiguousStrides(shape), 0);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Row-major strides of a dense buffer of `shape`.
    static ::llvm::SmallVector<int64_t> getContiguousStrides(
        ::llvm::ArrayRef<int64_t> shape);
    /// True for the element types a buffer may hold (Inductor's dtypes).
    static bool isValidElementType(::mlir::Type type);

    unsigned getRank() const { return getShape().size(); }
    /// Number of logical elements (product of the sizes).
    int64_t getNumElements() const;
    /// Elements of storage the layout spans: offset + max flat index + 1.
    int64_t getStorageSize() const;
    /// Bytes of storage the layout spans.
    int64_t getSizeInBytes() const;
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

#endif // FUSION_DIALECT_FUSION_IR_FUSIONTYPES_TD
