//===- FusionTypes.cpp - Types of the fusion dialect ----------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.h"
#include "scheduler-opt/Dialect/Fusion/IR/ElementTypes.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fusion;

#define GET_TYPEDEF_CLASSES
#include "scheduler-opt/Dialect/Fusion/IR/FusionOpsTypes.cpp.inc"

void FusionDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "scheduler-opt/Dialect/Fusion/IR/FusionOpsTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// BufferType
//===----------------------------------------------------------------------===//

SmallVector<int64_t> BufferType::getContiguousStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size());
  int64_t running = 1;
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    strides[i] = running;
    running *= std::max<int64_t>(shape[i], 1);
  }
  return strides;
}

bool fusion::isPackedStorageType(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.getRank() != 1 || vector.isScalable())
    return false;
  Type field = vector.getElementType();
  int64_t n = vector.getNumElements();
  if (isa<Float4E2M1FNType>(field))
    return n == 2;
  auto intType = dyn_cast<IntegerType>(field);
  if (!intType || !intType.isSignless())
    return false;
  // bits1x8, bits2x4, bits4x2: a byte; bits8 and bits16: one field.
  unsigned width = intType.getWidth();
  return (width * n == 8 && llvm::is_contained({1u, 2u, 4u, 8u}, width)) ||
         (width == 16 && n == 1);
}

unsigned fusion::getElementBitWidth(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * complex.getElementType().getIntOrFloatBitWidth();
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() *
           vector.getElementType().getIntOrFloatBitWidth();
  return type.getIntOrFloatBitWidth();
}

int64_t fusion::getElementByteSize(Type type) {
  return std::max<int64_t>(getElementBitWidth(type) / 8, 1);
}

bool BufferType::isValidValueType(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64())
    return true;
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
          Float8E5M2FNUZType, Float8E8M0FNUType>(type))
    return true;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, intType.getWidth());
  return false;
}

bool BufferType::isValidElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type);
      intType && intType.isUnsigned())
    return llvm::is_contained({8u, 16u, 32u, 64u}, intType.getWidth());
  // torch.complex32, complex64 and complex128: elements of buffers that
  // only externs read and write, never values of a loop body.
  if (auto complex = dyn_cast<ComplexType>(type)) {
    Type part = complex.getElementType();
    return part.isF16() || part.isF32() || part.isF64();
  }
  return isPackedStorageType(type) || isValidValueType(type);
}

Type BufferType::getValueTypeOf(Type elementType) {
  if (auto intType = dyn_cast<IntegerType>(elementType);
      intType && !intType.isSignless())
    return IntegerType::get(elementType.getContext(), intType.getWidth());
  // A packed storage element is read and written as its bits (Inductor's
  // Triton code moves a float4_e2m1fn_x2 as a tl.uint8).
  if (isPackedStorageType(elementType))
    return IntegerType::get(elementType.getContext(),
                            getElementBitWidth(elementType));
  return elementType;
}

namespace {
/// The parameters of a buffer type whose layout is given as expressions:
/// static values (kSymbolicSize where symbolic) and, if any is symbolic,
/// every expression.
struct LayoutParams {
  SmallVector<int64_t> shape, strides;
  int64_t offset;
  SmallVector<AffineExpr> exprs;

  LayoutParams(ArrayRef<AffineExpr> sizeExprs,
               ArrayRef<AffineExpr> strideExprs, AffineExpr offsetExpr) {
    auto toStatic = [](ArrayRef<AffineExpr> exprs) {
      return llvm::map_to_vector(exprs, getStaticSize);
    };
    shape = toStatic(sizeExprs);
    strides = toStatic(strideExprs);
    offset = getStaticSize(offsetExpr);
    if (llvm::is_contained(shape, kSymbolicSize) ||
        llvm::is_contained(strides, kSymbolicSize) || offset == kSymbolicSize) {
      llvm::append_range(exprs, sizeExprs);
      llvm::append_range(exprs, strideExprs);
      exprs.push_back(offsetExpr);
    }
  }
};
} // namespace

BufferType BufferType::get(ArrayRef<AffineExpr> sizes, Type elementType,
                           ArrayRef<AffineExpr> strides, AffineExpr offset) {
  LayoutParams params(sizes, strides, offset);
  return Base::get(elementType.getContext(), params.shape, elementType,
                   params.strides, params.offset, params.exprs);
}

BufferType BufferType::getContiguous(ArrayRef<AffineExpr> sizes,
                                     Type elementType) {
  return get(sizes, elementType, getContiguousStrideExprs(sizes),
             getCachedConstantExpr(0, elementType.getContext()));
}

/// `values` as expressions: the constants, or the symbolic expressions
/// `exprs` gives for them.
static SmallVector<AffineExpr> toExprs(MLIRContext *ctx,
                                       ArrayRef<int64_t> values,
                                       ArrayRef<AffineExpr> exprs) {
  if (!exprs.empty())
    return SmallVector<AffineExpr>(exprs);
  return llvm::map_to_vector(
      values, [&](int64_t v) { return getCachedConstantExpr(v, ctx); });
}

SmallVector<AffineExpr> BufferType::getSizeExprs() const {
  ArrayRef<AffineExpr> exprs = getLayoutExprs();
  return toExprs(getContext(), getShape(),
                 exprs.empty() ? exprs : exprs.take_front(getRank()));
}

SmallVector<AffineExpr> BufferType::getStrideExprs() const {
  ArrayRef<AffineExpr> exprs = getLayoutExprs();
  return toExprs(getContext(), getStrides(),
                 exprs.empty() ? exprs : exprs.slice(getRank(), getRank()));
}

AffineExpr BufferType::getOffsetExpr() const {
  if (!hasStaticLayout())
    return getLayoutExprs().back();
  return getCachedConstantExpr(getOffset(), getContext());
}

unsigned BufferType::getNumSizeSymbols() const {
  unsigned n = 0;
  for (AffineExpr e : getLayoutExprs())
    n = std::max(n, getNumSymbolsUsed(e));
  return n;
}

std::optional<int64_t>
BufferType::getNumElements(ArrayRef<int64_t> symbolValues) const {
  int64_t n = 1;
  // A static layout's sizes are its shape: multiplied without building and
  // uniquing an expression for each (the planner asks for every buffer).
  if (hasStaticLayout()) {
    for (int64_t size : getShape())
      if (llvm::MulOverflow(n, size, n))
        return std::nullopt;
    return n;
  }
  for (AffineExpr size : getSizeExprs()) {
    std::optional<int64_t> v = evaluateSizeExpr(size, symbolValues);
    if (!v || llvm::MulOverflow(n, *v, n))
      return std::nullopt;
  }
  return n;
}

AffineExpr BufferType::getStorageSizeExpr() const {
  // A static layout gives the constant the expression below folds to,
  // computed without building and uniquing the constants of every
  // dimension (the fusion planner asks for it for every candidate pair).
  if (hasStaticLayout()) {
    int64_t last = getOffset();
    bool overflow = false;
    for (auto [size, stride] : llvm::zip(getShape(), getStrides())) {
      int64_t extent;
      overflow |= llvm::MulOverflow(size - 1, stride, extent) ||
                  llvm::AddOverflow(last, extent, last);
    }
    overflow |= llvm::AddOverflow(last, int64_t(1), last);
    if (!overflow)
      return getCachedConstantExpr(last, getContext());
  }
  AffineExpr last = getOffsetExpr();
  for (auto [size, stride] : llvm::zip(getSizeExprs(), getStrideExprs()))
    last = last + (size - 1) * stride;
  return last + 1;
}

std::optional<int64_t>
BufferType::getStorageSize(ArrayRef<int64_t> symbolValues) const {
  std::optional<int64_t> numel = getNumElements(symbolValues);
  if (!numel)
    return std::nullopt;
  if (*numel == 0)
    return 0;
  return evaluateSizeExpr(getStorageSizeExpr(), symbolValues);
}

std::optional<int64_t>
BufferType::getSizeInBytes(ArrayRef<int64_t> symbolValues) const {
  std::optional<int64_t> storage = getStorageSize(symbolValues);
  if (!storage)
    return std::nullopt;
  int64_t bytes;
  if (llvm::MulOverflow(*storage, getElementByteSize(getElementType()), bytes))
    return std::nullopt;
  return bytes;
}

bool BufferType::isContiguous() const {
  if (hasStaticLayout())
    return getOffset() == 0 &&
           llvm::equal(getStrides(), getContiguousStrides(getShape()));
  return getOffsetExpr() == getCachedConstantExpr(0, getContext()) &&
         getStrideExprs() == getContiguousStrideExprs(getSizeExprs());
}

LogicalResult
BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<int64_t> shape, Type elementType,
                   ArrayRef<int64_t> strides, int64_t offset,
                   ArrayRef<AffineExpr> layoutExprs) {
  if (!isValidElementType(elementType))
    return emitError() << "unsupported buffer element type " << elementType
                       << "; expected a torch dtype: f16, bf16, f32, f64, a "
                          "float8 type, i1, i8 to i64, ui8 to ui64, "
                          "complex of f16, f32 or f64, or a packed storage "
                          "type (vector<2xf4E2M1FN>, vector<8xi1>, "
                          "vector<4xi2>, vector<2xi4>, vector<1xi8>, "
                          "vector<1xi16>)";
  if (strides.size() != shape.size())
    return emitError() << "buffer of rank " << shape.size() << " has "
                       << strides.size() << " strides";
  if (layoutExprs.empty()) {
    for (int64_t size : shape)
      if (size < 0)
        return emitError() << "buffer sizes must be non-negative";
    for (int64_t stride : strides)
      if (stride < 0)
        return emitError() << "buffer strides must be non-negative";
    if (offset < 0)
      return emitError() << "buffer offset must be non-negative";
    return verifyBufferSize(emitError, shape, strides, offset, elementType);
  }
  if (layoutExprs.size() != 2 * shape.size() + 1)
    return emitError() << "symbolic buffer layout of rank " << shape.size()
                       << " needs " << 2 * shape.size() + 1
                       << " expressions, got " << layoutExprs.size();
  SmallVector<int64_t> values(shape);
  llvm::append_range(values, strides);
  values.push_back(offset);
  for (auto [value, expr] : llvm::zip(values, layoutExprs)) {
    if (!isSizeExpr(expr))
      return emitError() << "buffer layout expression " << sizeExprToString(expr)
                         << " uses a loop variable; only size symbols "
                            "are allowed";
    if (value != getStaticSize(expr))
      return emitError() << "buffer layout entry " << value
                         << " does not match its expression " << sizeExprToString(expr);
    if (value != kSymbolicSize && value < 0)
      return emitError() << "buffer sizes, strides and offset must be "
                            "non-negative";
    if (hasNonPositiveDivisor(expr))
      return emitError() << "buffer layout expression "
                         << sizeExprToString(expr)
                         << " divides by a non-positive constant";
    if (getNumSymbolsUsed(expr) > kMaxSizeSymbols)
      return emitError() << "buffer layout expression "
                         << sizeExprToString(expr)
                         << " uses a size symbol beyond s"
                         << kMaxSizeSymbols - 1;
  }
  return success();
}

/// Parses the symbolic dimensions after the static prefix: (`sN` | `(`
/// expr `)` | int) `x` ..., up to the element type.
static ParseResult parseSymbolicDims(AsmParser &parser,
                                     SmallVectorImpl<AffineExpr> &sizes,
                                     Type &elementType) {
  while (true) {
    SMLoc loc = parser.getCurrentLocation();
    AffineExpr size;
    if (succeeded(parser.parseOptionalLParen())) {
      if (parseIndexExpr(parser, size) || parser.parseRParen())
        return failure();
    } else {
      int64_t value = 0;
      OptionalParseResult integer = parser.parseOptionalInteger(value);
      if (integer.has_value()) {
        if (failed(*integer))
          return failure();
        size = getCachedConstantExpr(value, parser.getContext());
      } else {
        OptionalParseResult type = parser.parseOptionalType(elementType);
        if (type.has_value())
          return *type;
        StringRef name;
        unsigned position;
        if (parser.parseKeyword(&name))
          return failure();
        if (!name.consume_front("s") || name.getAsInteger(10, position) ||
            position >= kMaxSizeSymbols)
          return parser.emitError(loc, "expected a size, a size symbol "
                                       "'s<N>' or the element type (symbolic "
                                       "sizes are separated by ' x ')");
        size = getAffineSymbolExpr(position, parser.getContext());
      }
    }
    if (!isSizeExpr(size))
      return parser.emitError(loc, "buffer sizes cannot use loop variables");
    sizes.push_back(size);
    if (parser.parseKeyword("x"))
      return failure();
  }
}

/// Parses `<` (dim `x`)* type (`,` `strides` `=` `[` sizes `]`)?
/// (`,` `offset` `=` size)? `>`. Static dims may be written `64x4096x`;
/// symbolic ones are spaced: `s0 x 4096 x`.
Type BufferType::parse(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true))
    return {};
  SmallVector<AffineExpr> sizes = llvm::map_to_vector(
      shape, [&](int64_t v) { return getCachedConstantExpr(v, ctx); });
  if (parseSymbolicDims(parser, sizes, elementType))
    return {};
  SmallVector<AffineExpr> strides = getContiguousStrideExprs(sizes);
  AffineExpr offset = getCachedConstantExpr(0, ctx);
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword) || parser.parseEqual())
      return {};
    if (keyword == "strides") {
      strides.clear();
      if (parseSizeList(parser, strides))
        return {};
    } else if (keyword == "offset") {
      SMLoc offsetLoc = parser.getCurrentLocation();
      if (parseIndexExpr(parser, offset))
        return {};
      if (!isSizeExpr(offset)) {
        parser.emitError(offsetLoc, "buffer offset cannot use loop variables");
        return {};
      }
    } else {
      parser.emitError(loc) << "expected 'strides' or 'offset', got '"
                            << keyword << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  if (strides.size() != sizes.size()) {
    parser.emitError(parser.getNameLoc())
        << "buffer of rank " << sizes.size() << " has " << strides.size()
        << " strides";
    return {};
  }
  LayoutParams params(sizes, strides, offset);
  return parser.getChecked<BufferType>(ctx, params.shape, elementType,
                                       params.strides, params.offset,
                                       params.exprs);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << "<";
  if (hasStaticLayout()) {
    for (int64_t size : getShape())
      printer << size << "x";
    printer << getElementType();
    if (!llvm::equal(getStrides(), getContiguousStrides(getShape()))) {
      printer << ", strides = [";
      llvm::interleaveComma(getStrides(), printer);
      printer << "]";
    }
    if (getOffset() != 0)
      printer << ", offset = " << getOffset();
    printer << ">";
    return;
  }
  SmallVector<AffineExpr> sizes = getSizeExprs();
  for (AffineExpr size : sizes) {
    if (isa<AffineBinaryOpExpr>(size)) {
      printer << "(";
      printSizeExpr(printer.getStream(), size);
      printer << ")";
    } else {
      printSizeExpr(printer.getStream(), size);
    }
    printer << " x ";
  }
  printer << getElementType();
  SmallVector<AffineExpr> strides = getStrideExprs();
  if (strides != getContiguousStrideExprs(sizes)) {
    printer << ", strides = ";
    printSizeList(printer.getStream(), strides);
  }
  AffineExpr offset = getOffsetExpr();
  if (offset != getCachedConstantExpr(0, getContext())) {
    printer << ", offset = ";
    printSizeExpr(printer.getStream(), offset);
  }
  printer << ">";
}
