//===- ElementTypes.h - Sizes of buffer element types -----------*- C++ -*-===//
//
// What a buffer element occupies in memory. Most element types are integers
// or floats of one width; the complex dtypes (complex<f16>, complex<f32>,
// complex<f64>) are two floats.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_ELEMENTTYPES_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_ELEMENTTYPES_H

#include "mlir/IR/Types.h"

#include <cstdint>

namespace mlir::fusion {

/// Bits of one element of `elementType` (a valid buffer element type:
/// complex<f32> is 64, i1 1).
unsigned getElementBitWidth(Type elementType);

/// Bytes of one element of `elementType` in memory (at least 1: a bool is
/// a byte).
int64_t getElementByteSize(Type elementType);

} // namespace mlir::fusion

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_ELEMENTTYPES_H
