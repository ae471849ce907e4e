//===- fusion-capi.c - The C API of scheduler-opt, used from C ------------===//
//
// A C program that uses only include/scheduler-opt-c/ and mlir-c/: registers the
// dialect through its handle, imports Inductor dumps from a string and from
// a file, runs passes created through the C API and a registered pipeline,
// and gets the importer's errors through a diagnostic handler.
//
// RUN: scheduler-opt-capi-test %corpus 2>&1 | FileCheck %s
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt-c/Dialect/Fusion.h"
#include "scheduler-opt-c/RegisterEverything.h"
#include "scheduler-opt-c/Target/Inductor.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), printToStdout,
                    NULL);
  printf(": ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static char *readFile(const char *path, size_t *length) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  *length = (size_t)ftell(file);
  fseek(file, 0, SEEK_SET);
  char *data = malloc(*length);
  if (data && fread(data, 1, *length, file) != *length) {
    free(data);
    data = NULL;
  }
  fclose(file);
  return data;
}

static MlirContext createContext(void) {
  MlirContext ctx = mlirContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  return ctx;
}

/// Runs `pm` on `module`, prints `what: success|failure` and the module,
/// then destroys all three.
static void runPrintAndDestroy(MlirContext ctx, MlirPassManager pm,
                               MlirModule module, const char *what) {
  MlirOperation op = mlirModuleGetOperation(module);
  MlirLogicalResult result = mlirPassManagerRunOnOp(pm, op);
  printf("%s: %s\n", what,
         mlirLogicalResultIsSuccess(result) ? "success" : "failure");
  mlirOperationPrint(op, printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
}

// The dialect handle alone is enough to parse and verify fusion IR.
static int testDialectHandle(void) {
  printf("@testDialectHandle\n");
  MlirContext ctx = createContext();
  MlirDialectHandle handle = mlirGetDialectHandle__fusion__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  printf("namespace: %.*s\n", (int)ns.length, ns.data);
  mlirDialectHandleLoadDialect(handle, ctx);
  const char *ir =
      "module {\n"
      "fusion.graph @copy(%x: !fusion.buffer<8xf32>) -> (!fusion.buffer<8xf32>)\n"
      "    attributes {device = \"cuda:0\"} {\n"
      "  %y = fusion.node \"op0\" (%p0) in [8] writes(%out : !fusion.buffer<8xf32>) {\n"
      "    %0 = fusion.load %x[%p0] : !fusion.buffer<8xf32>\n"
      "    fusion.store %0, %out[%p0] : !fusion.buffer<8xf32>\n"
      "  }\n"
      "  fusion.output %y : !fusion.buffer<8xf32>\n"
      "}\n"
      "}\n";
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(ir));
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation op = mlirModuleGetOperation(module);
  printf("verified: %d\n", (int)mlirOperationVerify(op));
  mlirOperationPrint(op, printToStdout, NULL);
  printf("\n");
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
// CHECK-LABEL: @testDialectHandle
// CHECK: namespace: fusion
// CHECK: verified: 1
// CHECK: fusion.graph @copy(
// CHECK: fusion.node "op0"

// A dump read by the caller, imported from memory, then scheduled by passes
// created one by one through the C API.
static int testImportStringAndCreatedPasses(const char *corpus) {
  printf("@testImportStringAndCreatedPasses\n");
  char path[4096];
  snprintf(path, sizeof(path), "%s/add_sum/model__0_inference_0.0/ir_pre_fusion.txt",
           corpus);
  size_t length = 0;
  char *dump = readFile(path, &length);
  if (!dump)
    return 1;
  MlirContext ctx = createContext();
  MlirFusionInductorImportOptions options =
      mlirFusionInductorImportOptionsGetDefault();
  options.graphName = mlirStringRefCreateFromCString("add_sum");
  MlirModule module =
      mlirFusionImportInductorDump(ctx, mlirStringRefCreate(dump, length),
                                   mlirStringRefCreateFromCString(path), options);
  free(dump);
  if (mlirModuleIsNull(module))
    return 1;

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager graphPm = mlirPassManagerGetNestedUnder(
      pm, mlirStringRefCreateFromCString("fusion.graph"));
  mlirOpPassManagerAddOwnedPass(graphPm, mlirCreateFusionTopologicalSortPass());
  mlirOpPassManagerAddOwnedPass(graphPm, mlirCreateFusionDeadNodeEliminationPass());
  mlirOpPassManagerAddOwnedPass(graphPm, mlirCreateFusionFuseNodesPass());
  runPrintAndDestroy(ctx, pm, module, "passes");
  return 0;
}
// Inductor's sum(a + b, dim=1) on 64x4096: one reduction node over both
// inputs (corpus/inductor/add_sum, ir_pre_fusion.txt).
// CHECK-LABEL: @testImportStringAndCreatedPasses
// CHECK: passes: success
// CHECK: fusion.graph @add_sum(%{{.*}}: !fusion.buffer<64x4096xf32>, %{{.*}}: !fusion.buffer<64x4096xf32>) -> (!fusion.buffer<64xf32>)
// CHECK: fusion.node "op0"
// CHECK-SAME: in [64] reduce [4096]

// A dump imported from its file, scheduled by the registered pipeline.
static int testImportFileAndPipeline(const char *corpus) {
  printf("@testImportFileAndPipeline\n");
  char path[4096];
  snprintf(path, sizeof(path),
           "%s/layernorm_gelu/model__0_forward_1.0/ir_pre_fusion.txt", corpus);
  MlirContext ctx = createContext();
  MlirModule module = mlirFusionImportInductorDumpFile(
      ctx, mlirStringRefCreateFromCString(path),
      mlirFusionInductorImportOptionsGetDefault());
  if (mlirModuleIsNull(module))
    return 1;

  mlirFusionRegisterAllPasses();
  mlirFusionRegisterAllPasses(); // a second call does nothing
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("builtin.module(fusion-schedule)"),
      printToStdout, NULL);
  printf("pipeline parsed: %d\n", (int)mlirLogicalResultIsSuccess(parsed));
  runPrintAndDestroy(ctx, pm, module, "fusion-schedule");
  return 0;
}
// Inductor fuses gelu(layer_norm(x))'s five nodes into one kernel: its
// post-fusion dump holds `op0_op1_op3_op4_op5: FusedSchedulerNode`.
// CHECK-LABEL: @testImportFileAndPipeline
// CHECK: pipeline parsed: 1
// CHECK: fusion-schedule: success
// CHECK: fusion.graph @graph(
// CHECK: fusion.fused
// CHECK-NEXT: fusion.node "op0"
// CHECK: fusion.node "op1"
// CHECK: fusion.node "op3"
// CHECK: fusion.node "op4"
// CHECK: fusion.node "op5"
// CHECK: fusion.yield
// CHECK-NOT: fusion.node
// CHECK: fusion.output

static void countForeach(MlirStringRef text, void *userData) {
  // Printed in pieces: an op name is one piece.
  if (text.length == strlen("fusion.foreach") &&
      !strncmp(text.data, "fusion.foreach", text.length))
    ++*(int *)userData;
}

/// The number of fusion.foreach ops `module` prints.
static int foreachCount(MlirModule module) {
  int count = 0;
  mlirOperationPrint(mlirModuleGetOperation(module), countForeach, &count);
  return count;
}

// adam_step's foreach_lists.json, next to its dump, makes four foreach
// nodes; noForeachLists makes none.
static int testForeachLists(const char *corpus) {
  printf("@testForeachLists\n");
  char path[4096];
  snprintf(path, sizeof(path),
           "%s/adam_step/model__0_inference_0.0/ir_pre_fusion.txt", corpus);
  MlirContext ctx = createContext();
  MlirFusionInductorImportOptions options =
      mlirFusionInductorImportOptionsGetDefault();
  for (int noLists = 0; noLists < 2; ++noLists) {
    options.noForeachLists = noLists;
    MlirModule module = mlirFusionImportInductorDumpFile(
        ctx, mlirStringRefCreateFromCString(path), options);
    if (mlirModuleIsNull(module))
      return 1;
    printf("noForeachLists=%d: %d foreach\n", noLists, foreachCount(module));
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(ctx);
  return 0;
}
// CHECK-LABEL: @testForeachLists
// CHECK: noForeachLists=0: 4 foreach
// CHECK: noForeachLists=1: 0 foreach

// Bad input: a null module and located errors through the handler.
static int testErrors(void) {
  printf("@testErrors\n");
  MlirContext ctx = createContext();
  const char *truncated = "op0: SchedulerNode(ComputedBuffer)\n"
                          "op0.writes = [MemoryDep(\n";
  MlirModule module = mlirFusionImportInductorDump(
      ctx, mlirStringRefCreateFromCString(truncated),
      mlirStringRefCreateFromCString("truncated.txt"),
      mlirFusionInductorImportOptionsGetDefault());
  printf("truncated dump: %s\n", mlirModuleIsNull(module) ? "null" : "module");
  module = mlirFusionImportInductorDumpFile(
      ctx, mlirStringRefCreateFromCString("/nonexistent/ir_pre_fusion.txt"),
      mlirFusionInductorImportOptionsGetDefault());
  printf("missing file: %s\n", mlirModuleIsNull(module) ? "null" : "module");
  mlirContextDestroy(ctx);
  return 0;
}
// CHECK-LABEL: @testErrors
// CHECK: diagnostic: loc("truncated.txt":2:24): '(' is never closed
// CHECK: truncated dump: null
// CHECK: diagnostic: loc("/nonexistent/ir_pre_fusion.txt":0:0): cannot open input file '/nonexistent/ir_pre_fusion.txt'
// CHECK: missing file: null

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: scheduler-opt-capi-test <corpus/inductor directory>\n");
    return 2;
  }
  if (testDialectHandle() || testImportStringAndCreatedPasses(argv[1]) ||
      testImportFileAndPipeline(argv[1]) || testForeachLists(argv[1]) ||
      testErrors()) {
    printf("FAILED\n");
    return 1;
  }
  return 0;
}
