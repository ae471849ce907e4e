//===- scheduler-graph-gen.cpp - Print a generated scheduling graph ----------===//
//
//   scheduler-graph-gen --nodes 1000 --seed 7 [--shuffle] [-o graph.mlir]
//   scheduler-graph-gen --format=inductor --nodes 100000 -o DIR
//
// Prints a random, valid `fusion.graph` (see test/lib/Utils/GraphGenerator.h),
// or, with --format=inductor, writes a transformer-like model as Inductor
// writes it before fusion (DIR/ir_pre_fusion.txt and the signature in
// DIR/fx_graph_readable.py; see InductorDumpWriter.h): the same options
// always print the same graph.
//
//===----------------------------------------------------------------------===//

#include "GraphGenerator.h"
#include "InductorDumpWriter.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::OptionCategory category("scheduler-graph-gen options");
  llvm::cl::opt<unsigned> numNodes(
      "nodes", llvm::cl::desc("Number of scheduler nodes"), llvm::cl::init(100),
      llvm::cl::cat(category));
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
  enum class Format { MLIR, Inductor };
  llvm::cl::opt<Format> format(
      "format", llvm::cl::desc("What to write"),
      llvm::cl::values(
          clEnumValN(Format::MLIR, "mlir", "a fusion.graph (the default)"),
          clEnumValN(Format::Inductor, "inductor",
                     "a transformer-like model as an Inductor dump in the "
                     "folder -o names")),
      llvm::cl::init(Format::MLIR), llvm::cl::cat(category));
  llvm::cl::opt<int64_t> rows(
      "rows", llvm::cl::desc("--format=inductor: rows of the activations"),
      llvm::cl::init(512), llvm::cl::cat(category));
  llvm::cl::opt<int64_t> hidden(
      "hidden", llvm::cl::desc("--format=inductor: model width"),
      llvm::cl::init(256), llvm::cl::cat(category));
  llvm::cl::opt<std::string> outputFile(
      "o", llvm::cl::desc("Output file (--format=inductor: folder)"),
      llvm::cl::value_desc("filename"), llvm::cl::init("-"),
      llvm::cl::cat(category));
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "scheduler-graph-gen: print a random valid fusion.graph\n");

  if (format == Format::Inductor) {
    if (outputFile == "-" || rows < 2 || hidden < 2) {
      llvm::errs() << "scheduler-graph-gen: --format=inductor needs -o FOLDER "
                      "and --rows, --hidden of at least 2\n";
      return 1;
    }
    if (std::error_code ec = llvm::sys::fs::create_directories(outputFile)) {
      llvm::errs() << "scheduler-graph-gen: " << outputFile << ": " << ec.message()
                   << "\n";
      return 1;
    }
    fusion::InductorDumpOptions options;
    options.numNodes = numNodes;
    options.seed = seed;
    options.rows = rows;
    options.hidden = hidden;
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> dump =
        openOutputFile(outputFile + "/ir_pre_fusion.txt", &error);
    std::unique_ptr<llvm::ToolOutputFile> fx =
        dump ? openOutputFile(outputFile + "/fx_graph_readable.py", &error)
             : nullptr;
    if (!dump || !fx) {
      llvm::errs() << "scheduler-graph-gen: " << error << "\n";
      return 1;
    }
    fusion::writeInductorDump(options, dump->os(), fx->os());
    dump->keep();
    fx->keep();
    return 0;
  }
  if (reductions + externs + nops + mutations > 100) {
    llvm::errs() << "scheduler-graph-gen: the node kind percentages add up to "
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
  OwningOpRef<ModuleOp> module = fusion::generateGraphModule(&context, options);
  if (failed(verify(*module))) {
    llvm::errs() << "scheduler-graph-gen: generated an invalid graph (a bug)\n";
    return 1;
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "scheduler-graph-gen: " << error << "\n";
    return 1;
  }
  module->print(output->os());
  output->os() << "\n";
  output->keep();
  return 0;
}
