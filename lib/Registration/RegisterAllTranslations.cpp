//===- RegisterAllTranslations.cpp - scheduler-opt's translations ---------===//

#include "scheduler-opt/InitAllTranslations.h"

#include "scheduler-opt/Target/Inductor/ImportInductor.h"

void mlir::fusion::registerAllTranslations() {
  // Registers through function-local statics: a second call does nothing.
  registerInductorTranslations();
}
