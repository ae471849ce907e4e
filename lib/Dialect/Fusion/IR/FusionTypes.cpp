//===- FusionTypes.cpp - Types of the fusion dialect ----------------------===//

#include "fusion/Dialect/Fusion/IR/FusionTypes.h"
#include "fusion/Dialect/Fusion/IR/FusionDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fusion;

#define GET_TYPEDEF_CLASSES
#include "fusion/Dialect/Fusion/IR/FusionOpsTypes.cpp.inc"

void FusionDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "fusion/Dialect/Fusion/IR/FusionOpsTypes.cpp.inc"
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

bool BufferType::isValidElementType(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64())
    return true;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, intType.getWidth());
  return false;
}

int64_t BufferType::getNumElements() const {
  int64_t n = 1;
  for (int64_t size : getShape())
    n *= size;
  return n;
}

int64_t BufferType::getStorageSize() const {
  if (getNumElements() == 0)
    return 0;
  int64_t last = getOffset();
  for (auto [size, stride] : llvm::zip(getShape(), getStrides()))
    last += (size - 1) * stride;
  return last + 1;
}

int64_t BufferType::getSizeInBytes() const {
  unsigned bits = getElementType().getIntOrFloatBitWidth();
  return getStorageSize() * static_cast<int64_t>(std::max(bits / 8, 1u));
}

bool BufferType::isContiguous() const {
  return getOffset() == 0 &&
         llvm::equal(getStrides(), getContiguousStrides(getShape()));
}

LogicalResult
BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<int64_t> shape, Type elementType,
                   ArrayRef<int64_t> strides, int64_t offset) {
  if (!isValidElementType(elementType))
    return emitError() << "unsupported buffer element type " << elementType
                       << "; expected f16, bf16, f32, f64, i1, i8, i16, i32 "
                          "or i64";
  if (strides.size() != shape.size())
    return emitError() << "buffer of rank " << shape.size() << " has "
                       << strides.size() << " strides";
  for (int64_t size : shape)
    if (size < 0)
      return emitError() << "buffer sizes must be static and non-negative";
  for (int64_t stride : strides)
    if (stride < 0)
      return emitError() << "buffer strides must be non-negative";
  if (offset < 0)
    return emitError() << "buffer offset must be non-negative";
  return success();
}

/// Parses `<` (dim `x`)* type (`,` `strides` `=` `[` ints `]`)?
/// (`,` `offset` `=` int)? `>`.
Type BufferType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  SmallVector<int64_t> strides = getContiguousStrides(shape);
  int64_t offset = 0;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword) || parser.parseEqual())
      return {};
    if (keyword == "strides") {
      strides.clear();
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                return parser.parseInteger(strides.emplace_back());
              }))
        return {};
    } else if (keyword == "offset") {
      if (parser.parseInteger(offset))
        return {};
    } else {
      parser.emitError(loc) << "expected 'strides' or 'offset', got '"
                            << keyword << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<BufferType>(parser.getContext(), shape, elementType,
                                       strides, offset);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << "<";
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
}
