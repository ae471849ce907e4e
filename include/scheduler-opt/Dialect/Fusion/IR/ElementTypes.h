//===- ElementTypes.h - Sizes of buffer element types -----------*- C++ -*-===//
//
// What a buffer element occupies in memory. Most element types are integers
// or floats of one width; the complex dtypes (complex<f16>, complex<f32>,
// complex<f64>) are two floats, and the packed storage dtypes
// (torch.float4_e2m1fn_x2, bits1x8, bits2x4, bits4x2, bits8, bits16) are
// vectors of their fields (vector<2xf4E2M1FN>, vector<8xi1>, vector<1xi16>)
// whose values in a loop body are their bits as one integer.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_ELEMENTTYPES_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_ELEMENTTYPES_H

#include "mlir/IR/Types.h"

#include <cstdint>

namespace mlir::fusion {

/// Bits of one element of `elementType` (a valid buffer element type:
/// complex<f32> is 64, vector<2xf4E2M1FN> 8, i1 1).
unsigned getElementBitWidth(Type elementType);

/// Bytes of one element of `elementType` in memory (at least 1: a bool is
/// a byte).
int64_t getElementByteSize(Type elementType);

/// True for the packed storage element types: torch.float4_e2m1fn_x2
/// (vector<2xf4E2M1FN>), bits1x8 (vector<8xi1>), bits2x4 (vector<4xi2>),
/// bits4x2 (vector<2xi4>), bits8 (vector<1xi8>) and bits16 (vector<1xi16>).
bool isPackedStorageType(Type elementType);

} // namespace mlir::fusion

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_ELEMENTTYPES_H
