//===- fuzz-generated.cpp - Structure-aware: generated, mutated graphs ----===//
//
// The fuzzer's bytes choose the random generator's options (node count,
// seed, sizes, how many reductions, externs, views and mutations) and then
// a few semantic mutations of the generated graph (GraphMutator.h). Graphs
// that still verify go through --fusion-schedule (verified) and the
// lowering to loops (verified). Most inputs reach the passes, unlike
// byte-level mutations of MLIR text.
//
// Speed: an input costs about 10 ms of CPU under ASan + UBSan + coverage
// when every input is scheduled twice and lowered through MLIR's LLVM
// conversions; a quarter of that cost is the second scheduling and its
// printing, and three quarters of the lowering's are the upstream
// conversions (pass timing over 1,950 inputs), which fuzz-lower runs on
// every input. Here the selector's top three bits pick the determinism
// check (the second --fusion-schedule; bits 5 and 6 set) and the lowering
// on from loops to the LLVM dialect (bits 6 and 7 set), each for a quarter
// of the inputs, the same quarter every time an input runs: about 5 ms an
// input (8 nodes at most).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "FuzzTarget.h"
#include "GraphGenerator.h"
#include "GraphMutator.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::fuzz;

SCHEDULER_OPT_FUZZ_TARGET(generated, "fuzz-generated") {
  FuzzedDataProvider bytes(data, size);
  GraphGeneratorOptions options;
  // Up to 8 nodes of at most 16 per dimension: a few milliseconds an
  // input, so that a run reaches a million graphs; scripts/differential.py
  // covers graphs of up to 60 nodes.
  options.numNodes = bytes.ConsumeIntegralInRange<unsigned>(1, 8);
  options.seed = bytes.ConsumeIntegral<uint32_t>();
  options.maxDim = int64_t(1) << bytes.ConsumeIntegralInRange<unsigned>(2, 4);
  options.shuffle = bytes.ConsumeBool();
  options.reductionPercent = bytes.ConsumeIntegralInRange<unsigned>(0, 50);
  options.externPercent = bytes.ConsumeIntegralInRange<unsigned>(0, 20);
  options.nopPercent = bytes.ConsumeIntegralInRange<unsigned>(0, 20);
  options.mutationPercent = bytes.ConsumeIntegralInRange<unsigned>(0, 30);
  options.maxDistance = bytes.ConsumeIntegralInRange<unsigned>(0, 8);
  uint8_t selector = bytes.ConsumeIntegral<uint8_t>();
  unsigned mutations = bytes.ConsumeIntegralInRange<unsigned>(0, 3);

  // SCHEDULER_OPT_FUZZ_DUMP=1: the graph as scheduler-graph-gen makes it (to
  // reproduce a generator failure), then the mutated graph.
  bool dump = std::getenv("SCHEDULER_OPT_FUZZ_DUMP");
  if (dump)
    llvm::errs() << "// scheduler-graph-gen --nodes=" << options.numNodes
                 << " --seed=" << options.seed
                 << " --max-dim=" << options.maxDim
                 << (options.shuffle ? " --shuffle" : "")
                 << " --reduction-percent=" << options.reductionPercent
                 << " --extern-percent=" << options.externPercent
                 << " --nop-percent=" << options.nopPercent
                 << " --mutation-percent=" << options.mutationPercent
                 << " --max-distance=" << options.maxDistance << "\n";
  FuzzContext &ctx = FuzzContext::next();
  OwningOpRef<ModuleOp> module = generateGraphModule(&ctx.get(), options);
  check(succeeded(verify(*module)), "a generated graph does not verify");
  for (unsigned i = 0; i < mutations && bytes.remaining_bytes(); ++i)
    (void)mutateGraph(*module, bytes);
  ctx.resetErrors();
  if (failed(verify(*module))) {
    check(ctx.errors() > 0, "verification failed without an error");
    return 0;
  }
  if (dump)
    module->print(llvm::errs());
  OwningOpRef<ModuleOp> scheduled =
      scheduleChecked(ctx, *module, selector,
                      /*twice=*/(selector & 0x60) == 0x60);
  if (!scheduled)
    return 0;
  lowerChecked(ctx, *scheduled, /*toLLVM=*/(selector & 0xc0) == 0xc0,
               /*gpu=*/false);
  return 0;
}
