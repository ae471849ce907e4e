//===- InitAllTranslations.h - Register scheduler-opt's translations -*- C++ -*-===//
//
// The translation entry point for mlir-translate style tools, as
// mlir/InitAllTranslations.h is for MLIR's own translations.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_INITALLTRANSLATIONS_H
#define SCHEDULER_OPT_INITALLTRANSLATIONS_H

namespace mlir {
namespace fusion {

/// Registers the translations from Inductor's dumps (import-inductor,
/// compare-inductor-deps) with their command-line options. Calling it more
/// than once is harmless.
void registerAllTranslations();

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_INITALLTRANSLATIONS_H
