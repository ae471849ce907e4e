//===- fusion-graph-gen.cpp - Print a generated scheduling graph ----------===//
//
//   fusion-graph-gen --nodes 1000 --seed 7 [--shuffle] [-o graph.mlir]
//
// Prints a random, valid `fusion.graph` (see fusion/Utils/GraphGenerator.h):
// the same options always print the same graph.
//
//===----------------------------------------------------------------------===//

#include "fusion/Utils/GraphGenerator.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::OptionCategory category("fusion-graph-gen options");
  llvm::cl::opt<unsigned> numNodes(
      "nodes", llvm::cl::desc("Number of scheduler nodes"),
      llvm::cl::init(100), llvm::cl::cat(category));
  llvm::cl::opt<uint64_t> seed("seed", llvm::cl::desc("Random seed"),
                               llvm::cl::init(0), llvm::cl::cat(category));
  llvm::cl::opt<int64_t> maxDim(
      "max-dim", llvm::cl::desc("Largest size of a tensor dimension"),
      llvm::cl::init(64), llvm::cl::cat(category));
  llvm::cl::opt<bool> oddSizes(
      "odd-sizes",
      llvm::cl::desc("Draw dimension sizes among odd ones and 1 too"),
      llvm::cl::init(false), llvm::cl::cat(category));
  llvm::cl::opt<bool> shuffle(
      "shuffle",
      llvm::cl::desc("Emit the nodes in random order instead of dependence "
                     "order"),
      llvm::cl::init(false), llvm::cl::cat(category));
  llvm::cl::opt<unsigned> reductions(
      "reduction-percent", llvm::cl::desc("Percentage of reduction nodes"),
      llvm::cl::init(20), llvm::cl::cat(category));
  llvm::cl::opt<unsigned> externs(
      "extern-percent", llvm::cl::desc("Percentage of extern kernels"),
      llvm::cl::init(4), llvm::cl::cat(category));
  llvm::cl::opt<unsigned> nops("nop-percent",
                               llvm::cl::desc("Percentage of views"),
                               llvm::cl::init(3), llvm::cl::cat(category));
  llvm::cl::opt<unsigned> mutations(
      "mutation-percent", llvm::cl::desc("Percentage of in-place updates"),
      llvm::cl::init(6), llvm::cl::cat(category));
  llvm::cl::opt<unsigned> outputs(
      "outputs",
      llvm::cl::desc("Least number of graph outputs (0: one per 25 nodes)"),
      llvm::cl::init(0), llvm::cl::cat(category));
  llvm::cl::opt<unsigned> maxDistance(
      "max-distance",
      llvm::cl::desc("How many buffers back a node may read another node's "
                     "buffer (0: any, so edges can span the whole graph)"),
      llvm::cl::init(256), llvm::cl::cat(category));
  llvm::cl::opt<std::string> name("name", llvm::cl::desc("Graph symbol name"),
                                  llvm::cl::init("generated"),
                                  llvm::cl::cat(category));
  llvm::cl::opt<std::string> outputFile(
      "o", llvm::cl::desc("Output file"), llvm::cl::value_desc("filename"),
      llvm::cl::init("-"), llvm::cl::cat(category));
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "fusion-graph-gen: print a random valid fusion.graph\n");

  if (reductions + externs + nops + mutations > 100) {
    llvm::errs() << "fusion-graph-gen: the node kind percentages add up to "
                    "more than 100\n";
    return 1;
  }
  fusion::GraphGeneratorOptions options;
  options.numNodes = numNodes;
  options.seed = seed;
  options.maxDim = maxDim;
  options.shuffle = shuffle;
  options.oddSizes = oddSizes;
  options.reductionPercent = reductions;
  options.externPercent = externs;
  options.nopPercent = nops;
  options.mutationPercent = mutations;
  options.numOutputs = outputs;
  options.maxDistance = maxDistance;
  options.name = name;

  MLIRContext context;
  OwningOpRef<ModuleOp> module =
      fusion::generateGraphModule(&context, options);
  if (failed(verify(*module))) {
    llvm::errs() << "fusion-graph-gen: generated an invalid graph (a bug)\n";
    return 1;
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "fusion-graph-gen: " << error << "\n";
    return 1;
  }
  module->print(output->os());
  output->os() << "\n";
  output->keep();
  return 0;
}
