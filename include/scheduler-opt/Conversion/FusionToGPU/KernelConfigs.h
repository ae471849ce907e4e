//===- KernelConfigs.h - Per-kernel settings of the GPU lowering -*- C++ -*-===//
//
// convert-fusion-to-gpu chooses each kernel's thread mapping by rules
// (FusionToGPU.cpp); its options fix a setting for every kernel of the
// module. `kernel-configs` fixes settings per kernel, by the kernel's name,
// in the text form
//
//   kernel_op0_op1:reduction-lanes=64,early-loads=1;kernel_op2:loop-unroll=16
//
// which is what the torch.compile backend's compile-time autotuner
// (python/scheduler_opt/autotune.py) writes for the configurations it
// timed on the GPU. Kernel names are `kernel_` and the node name in
// letters, digits and `_`, so `:`, `,`, `;` and `=` never occur in them.
//
//===----------------------------------------------------------------------===//
#ifndef SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_KERNELCONFIGS_H
#define SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_KERNELCONFIGS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <string>

namespace mlir::fusion {

/// One kernel's settings: option names (as the pass spells them) and
/// integer values, in the order written (a key written twice keeps the
/// last value).
using KernelConfig = SmallVector<std::pair<std::string, int64_t>>;

/// Kernel names and their settings, in the order first written (a kernel
/// written twice has its settings merged).
using KernelConfigs = SmallVector<std::pair<std::string, KernelConfig>>;

/// Parses `text` into settings by kernel name; on malformed text returns
/// failure and sets `error` to what is wrong and where. An empty text has
/// no settings.
FailureOr<KernelConfigs> parseKernelConfigs(StringRef text,
                                            std::string &error);

} // namespace mlir::fusion

#endif // SCHEDULER_OPT_CONVERSION_FUSIONTOGPU_KERNELCONFIGS_H
