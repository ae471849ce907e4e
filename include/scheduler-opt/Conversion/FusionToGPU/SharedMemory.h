//===- SharedMemory.h - Shared-memory arrays of GPU kernels -----*- C++ -*-===//
//
// The GPU lowering's kernels exchange partials (reductions' warp totals,
// block scans' warp totals, split reductions' flags) and keep rows (block
// scans) in shared memory: workgroup attributions of their gpu.func, whose
// bytes each kernel counts to check them against the chip's limit.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_SHAREDMEMORY_H
#define SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_SHAREDMEMORY_H

#include "scheduler-opt/Dialect/Fusion/IR/ElementTypes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::fusion::codegen {

/// A shared-memory array of `count` elements of `type` (a scalar type),
/// added to `kernel` as a workgroup attribution; its bytes (a byte at least
/// an element) are added to `sharedBytes`.
inline Value addSharedArray(gpu::GPUFuncOp kernel, Location loc, int64_t count,
                            Type type, int64_t &sharedBytes) {
  sharedBytes += count * getElementByteSize(type);
  auto workgroup = gpu::AddressSpaceAttr::get(loc.getContext(),
                                              gpu::AddressSpace::Workgroup);
  return kernel.addWorkgroupAttribution(
      MemRefType::get({count}, type, AffineMap(), workgroup), loc);
}

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_SHAREDMEMORY_H
