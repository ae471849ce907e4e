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

/// The alignment (bytes) of the block's row arrays (block scans and
/// sorts): that of the widest vector access, so that a lane's adjacent
/// elements from an aligned position load and store as vectors.
inline constexpr int64_t kRowArrayAlignment = 16;

/// A shared-memory array of `count` elements of `type` (a scalar type),
/// added to `kernel` as a workgroup attribution; its bytes (a byte at least
/// an element) are added to `sharedBytes`. `alignment` (bytes), when not
/// 0, aligns it (`llvm.align`; else its type's alignment), so that
/// accesses of adjacent elements from aligned positions may be vectors.
inline Value addSharedArray(gpu::GPUFuncOp kernel, Location loc, int64_t count,
                            Type type, int64_t &sharedBytes,
                            int64_t alignment = 0) {
  sharedBytes += count * getElementByteSize(type);
  auto workgroup = gpu::AddressSpaceAttr::get(loc.getContext(),
                                              gpu::AddressSpace::Workgroup);
  Value array = kernel.addWorkgroupAttribution(
      MemRefType::get({count}, type, AffineMap(), workgroup), loc);
  if (alignment) {
    Builder b(loc.getContext());
    kernel.setWorkgroupAttributionAttr(
        kernel.getNumWorkgroupAttributions() - 1,
        b.getStringAttr("llvm.align"), b.getI64IntegerAttr(alignment));
  }
  return array;
}

} // namespace mlir::fusion::codegen

#endif // SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_SHAREDMEMORY_H
