//===- InitAllDialects.h - Register scheduler-opt's dialects ----*- C++ -*-===//
//
// The dialect entry point for compilers that link scheduler-opt, as
// mlir/InitAllDialects.h is for MLIR's own dialects:
//
//   mlir::DialectRegistry registry;
//   mlir::registerAllDialects(registry);         // upstream, if wanted
//   mlir::fusion::registerAllDialects(registry);
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_INITALLDIALECTS_H
#define SCHEDULER_OPT_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;

namespace fusion {

/// Adds everything scheduler-opt itself registers: the fusion dialect, the
/// upstream dialects its graphs hold (arith, math, func), the dialects its
/// lowerings produce (cf, gpu, llvm, memref, nvvm, scf, vector), and the
/// interfaces those lowerings need (to-LLVM conversion interfaces, the NVVM
/// target, the translations to LLVM IR).
void registerAllDialects(DialectRegistry &registry);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_INITALLDIALECTS_H
