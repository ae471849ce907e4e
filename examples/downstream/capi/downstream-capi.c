//===- downstream-capi.c - scheduler-opt from C ---------------------------===//
//
// What bindings in other languages do: use scheduler-opt through its C API
// only (libSchedulerOpt-C.so). Parses an MLIR file, runs a textual pass
// pipeline that may name fusion and upstream passes, prints the result.
//
//   downstream-capi <file.mlir> '<pipeline>'
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt-c/RegisterEverything.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "mlir-c/Transforms.h"

#include <stdio.h>

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: downstream-capi <file.mlir> <pipeline>\n");
    return 2;
  }
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirFusionRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirFusionRegisterAllPasses();
  mlirRegisterTransformsPasses();

  int status = 1;
  MlirModule module =
      mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(argv[1]));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (!mlirModuleIsNull(module) &&
      mlirLogicalResultIsSuccess(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(argv[2]), print, stderr)) &&
      mlirLogicalResultIsSuccess(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    mlirOperationPrint(mlirModuleGetOperation(module), print, stdout);
    printf("\n");
    status = 0;
  }
  mlirPassManagerDestroy(pm);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return status;
}
