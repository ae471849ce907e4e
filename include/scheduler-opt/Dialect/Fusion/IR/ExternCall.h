//===- ExternCall.h - The recorded call of a fusion.extern ------*- C++ -*-===//
//
// A `fusion.extern` names its kernel and the whole buffers it reads and
// writes; how the kernel is called (argument order, views of the buffers
// passed, constant and keyword arguments, output layouts) is what Inductor's
// wrapper needs to run it. The importer attaches that call, as recorded
// beside the dump (`extern_calls.json`, docs/Importer.md), to the op as the
// discardable dictionary attribute `fusion.call`; passes keep it and the GPU
// lowering copies it verbatim into the launch manifest's extern step.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_IR_EXTERNCALL_H
#define SCHEDULER_OPT_DIALECT_FUSION_IR_EXTERNCALL_H

#include "llvm/ADT/StringRef.h"

namespace mlir::fusion {
/// The name of the dictionary attribute holding an extern's call.
inline constexpr llvm::StringLiteral kExternCallAttrName = "fusion.call";
} // namespace mlir::fusion

#endif // SCHEDULER_OPT_DIALECT_FUSION_IR_EXTERNCALL_H
