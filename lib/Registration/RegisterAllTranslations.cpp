//===- RegisterAllTranslations.cpp - scheduler-opt's translations ---------===//

#include "fusion/InitAllTranslations.h"

#include "fusion/Target/Inductor/ImportInductor.h"

void mlir::fusion::registerAllTranslations() {
  // Registers through function-local statics: a second call does nothing.
  registerInductorTranslations();
}
