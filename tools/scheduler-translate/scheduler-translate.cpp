//===- scheduler-translate.cpp - The scheduler-translate driver -----------===//
//
// An mlir-translate style driver: it registers the translations between
// the fusion dialect and other formats (Inductor's scheduler dumps) through
// include/scheduler-opt/InitAllTranslations.h.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/InitAllTranslations.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::fusion::registerAllTranslations();
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv,
      "scheduler-translate: Inductor dumps to the fusion dialect\n"));
}
