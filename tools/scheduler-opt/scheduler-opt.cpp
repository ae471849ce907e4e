//===- scheduler-opt.cpp - The scheduler-opt driver -----------------------===//
//
// An mlir-opt style driver: it only registers, through the same InitAll
// entry points other compilers call (include/scheduler-opt/InitAll*.h), plus
// upstream's generic transforms and the test-only passes of test/lib.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/InitAllDialects.h"
#include "scheduler-opt/InitAllPasses.h"

#include "scheduler-opt/Support/NestingDepth.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::fusion::test {
void registerTestDependenceGraphPasses();
void registerTestJitMainPass();
void registerTestKernelGroupingPasses();
void registerTestMemoryProfilePasses();
void registerTestRefusalRemarksPasses();
void registerTestReorderLoopsPasses();
} // namespace mlir::fusion::test

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::fusion::registerAllPasses();
  mlir::fusion::test::registerTestJitMainPass();
  mlir::fusion::test::registerTestDependenceGraphPasses();
  mlir::fusion::test::registerTestKernelGroupingPasses();
  mlir::fusion::test::registerTestMemoryProfilePasses();
  mlir::fusion::test::registerTestRefusalRemarksPasses();
  mlir::fusion::test::registerTestReorderLoopsPasses();
  mlir::DialectRegistry registry;
  mlir::fusion::registerAllDialects(registry);
  llvm::InitLLVM init(argc, argv);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "scheduler-opt: Inductor-style kernel fusion scheduling\n",
      registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  // As MlirOptMain(argc, argv, ...) does, with textual input's nesting
  // bounded before MLIR's parser sees it (scheduler-opt/Support/NestingDepth.h).
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  // Bytecode is not text: its bytes are no brackets, and its reader does
  // not recurse on them.
  const char *deep = mlir::isBytecode(*input)
                         ? nullptr
                         : mlir::fusion::findExcessiveNesting(input->getBuffer());
  if (deep) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    sourceMgr.PrintMessage(llvm::SMLoc::getFromPointer(deep),
                           llvm::SourceMgr::DK_Error,
                           "brackets nested deeper than " +
                               llvm::Twine(mlir::fusion::kMaxInputNesting) +
                               " levels");
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
