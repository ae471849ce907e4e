//===- ParallelBodies.cpp - Loop bodies on the context's threads ----------===//
//
// The loop bodies are most of the import's work and each depends only on
// its own node and on the graph as it stood at that node, so they are built
// on the context's threads, in runs of nodes:
//
//   1. the run's graph-level ops, in dump order, as buildNode builds them,
//      registering each scheduler node's body instead of building it (the
//      graph's maps of values and renames remember what each assignment
//      replaced, so that a body reads them as they were at its node);
//   2. the bodies, in parallel, each reading graph values through
//      placeholders of its own (BodyPlaceholders), so that no thread touches
//      a use list another thread can reach;
//   3. in node order, every use of a graph value that the run made set
//      again, the placeholders replaced by the graph's values among them.
//      MLIR puts a new use first in its value's list, so setting the run's
//      uses again in the order the sequential import made them leaves every
//      use list as that import leaves it (the bytecode writer records
//      use-list orders, and passes may walk uses).
//
// Diagnostics are held with their place in the sequential import (graph-
// level ones between the bodies around them) and only those up to the first
// error are reported, as the sequential import reports them. A body that
// needs a size symbol not numbered yet is built again in step 3, where the
// sequential import would have numbered it.
//
//===----------------------------------------------------------------------===//

#include "ImportInductorImpl.h"
#include "OrderedDiagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/ThreadPool.h"

#include <atomic>
#include <functional>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

/// Nodes per run: enough for the threads' start-up and the barrier to
/// vanish, few enough that the parsed run is small beside its IR.
static constexpr size_t kRunNodes = 4096;

/// The position in the sequential import of the diagnostics made before
/// loop body `version` (graph-level ones) and by it.
static uint64_t positionBefore(unsigned version) {
  return 2 * uint64_t(version);
}
static uint64_t positionOf(unsigned version) {
  return 2 * uint64_t(version) + 1;
}
static constexpr uint64_t kNoError = ~uint64_t(0);

Value BodyPlaceholders::get(Value value) {
  auto [it, inserted] = byValue.try_emplace(value);
  if (inserted) {
    it->second =
        block.addArgument(value.getType(), UnknownLoc::get(value.getContext()));
    real.push_back(value);
  }
  return it->second;
}

void GraphImporter::registerBody(const DumpNode &node, NodeOp op,
                                 unsigned version) {
  // The node's op was just located at the node: its line is the mark.
  bodyJobs.push_back({&node, op, version, locator.mark(), nullptr});
  // Graph-level diagnostics from here on come after this body's.
  orderedDiags->setPosition(positionBefore(bodiesStarted));
}

bool mlir::fusion::inductor::hasBodyThreads(MLIRContext *context) {
  return context->isMultithreadingEnabled() &&
         context->getThreadPool().getMaxConcurrency() > 1;
}

bool GraphImporter::shouldBuildBodiesInParallel() const {
  return threads && dump.nodes.size() >= options.parallelMinNodes;
}

LogicalResult GraphImporter::buildNodesInParallel(
    Block &graphBlock,
    SmallVectorImpl<std::pair<StringRef, const char *>> &outputBuffers) {
  // Threads are enabled only while the bodies are built (buildBodies): the
  // context's uniquers then take a lock and look in a thread-local cache
  // for every attribute, type and location, which the rest of the import,
  // on this thread alone, need not pay.
  bool wasThreaded = ctx->isMultithreadingEnabled();
  OrderedDiagnostics diags(ctx);
  values.setRecording(true);
  mutationRenames.setRecording(true);
  deferBodies = true;
  orderedDiags = &diags;
  llvm::scope_exit restore([&] {
    diags.clearPosition();
    orderedDiags = nullptr;
    deferBodies = false;
    values.setRecording(false);
    mutationRenames.setRecording(false);
    values.clearHistory();
    mutationRenames.clearHistory();
    ctx->disableMultithreading(!wasThreaded);
  });
  for (size_t begin = 0, n = dump.nodes.size(); begin < n; begin += kRunNodes)
    if (failed(buildRun(begin, std::min(n, begin + kRunNodes), graphBlock,
                        diags, outputBuffers)))
      return failure();
  return success();
}

/// Builds the registered bodies on the context's threads. Each thread takes
/// the next body until none is left, with a locator copied from `locator`
/// (moved to each body's node, so that it counts the lines of that node
/// only) and an arena of its own.
static void buildBodies(
    MLIRContext *ctx, const DumpLocator &locator, OrderedDiagnostics &diags,
    function_ref<void(size_t, const DumpLocator &, PyValueArena &)> build,
    size_t count) {
  ctx->disableMultithreading(false);
  {
    llvm::ThreadPoolInterface &pool = ctx->getThreadPool();
    llvm::ThreadPoolTaskGroup group(pool);
    std::atomic<size_t> next(0);
    size_t workers = std::min<size_t>(count, pool.getMaxConcurrency());
    auto work = [&] {
      DumpLocator own = locator.copyForThread();
      PyValueArena arena;
      for (size_t i; (i = next++) < count;) {
        build(i, own, arena);
        arena.DestroyAll();
      }
      diags.clearPosition();
    };
    // This thread is one of the workers.
    for (size_t w = 1; w < workers; ++w)
      group.async(work);
    work();
    group.wait();
  }
  ctx->disableMultithreading(true);
}

/// Sets every operand of `op` again, in order: each use moves to the front
/// of its value's use list, where the sequential import put it.
static void setOperandsAgain(Operation &op) {
  for (OpOperand &operand : op.getOpOperands())
    operand.set(operand.get());
}

/// Replaces the placeholders of a body by the graph's values, each
/// placeholder's uses in the order they were made (a use list holds the
/// newest first).
static void replacePlaceholders(BodyPlaceholders &placeholders) {
  SmallVector<OpOperand *> uses;
  for (auto [arg, real] :
       llvm::zip_equal(placeholders.block.getArguments(), placeholders.real)) {
    uses.clear();
    for (OpOperand &use : arg.getUses())
      uses.push_back(&use);
    for (OpOperand *use : llvm::reverse(uses))
      use->set(real);
  }
}

/// Empties the body of `op` (a body to build again).
static void eraseBody(NodeOp op) {
  Block &block = op.getBodyBlock();
  for (Operation &inner : block.without_terminator())
    inner.dropAllReferences();
  while (&block.front() != block.getTerminator())
    block.front().erase();
}

LogicalResult GraphImporter::buildRun(
    size_t begin, size_t end, Block &graphBlock, OrderedDiagnostics &diags,
    SmallVectorImpl<std::pair<StringRef, const char *>> &outputBuffers) {
  // What each thread's locator starts from (each moves to its bodies).
  DumpLocator runLocator = locator.copyForThread();
  Operation *last = graphBlock.empty() ? nullptr : &graphBlock.back();
  bodyJobs.clear();
  uint64_t firstError = kNoError;

  // 1. The graph-level ops, up to the first error.
  diags.setPosition(positionBefore(bodiesStarted));
  for (size_t i = begin; i < end; ++i) {
    if (failed(buildNode(*dump.nodes[i]))) {
      firstError = positionBefore(bodiesStarted);
      break;
    }
    collectOutputBuffers(*dump.nodes[i], outputBuffers);
  }

  // 2. The bodies, in parallel.
  for (BodyJob &job : bodyJobs)
    job.placeholders = std::make_unique<BodyPlaceholders>();
  buildBodies(
      ctx, runLocator, diags,
      [&](size_t i, const DumpLocator &own, PyValueArena &arena) {
        BodyJob &job = bodyJobs[i];
        own.seek(job.mark);
        diags.setPosition(positionOf(job.version));
        job.failed = failed(
            BodyImporter(*this, *job.node, job.op,
                         {own, arena, job.version, job.placeholders.get()})
                .run());
      },
      bodyJobs.size());
  for (BodyJob &job : bodyJobs)
    if (job.failed && !job.placeholders->deferred)
      firstError = std::min(firstError, positionOf(job.version));

  // 3. The run's uses of graph values set again in the order the sequential
  // import made them: each op's operands, then, for a scheduler node, its
  // body's. A container's members come after it and its yield after them.
  size_t nextJob = 0;
  std::function<bool(Block &, Block::iterator)> walk =
      [&](Block &block, Block::iterator from) {
        for (Operation &op : llvm::make_range(from, block.end())) {
          setOperandsAgain(op);
          auto node = dyn_cast<NodeOp>(op);
          if (!node) {
            for (Region &region : op.getRegions())
              for (Block &inner : region)
                if (!walk(inner, inner.begin()))
                  return false;
            continue;
          }
          BodyJob &job = bodyJobs[nextJob++];
          assert(job.op == node && "bodies registered in walk order");
          if (positionOf(job.version) > firstError)
            return false;
          if (!job.placeholders->deferred) {
            replacePlaceholders(*job.placeholders);
            continue;
          }
          // Built again where the sequential import builds it.
          eraseBody(node);
          diags.drop(positionOf(job.version));
          diags.setPosition(positionOf(job.version));
          LogicalResult built = BodyImporter(*this, *job.node, node,
                                             {locator, bodyValues, job.version})
                                    .run();
          bodyValues.DestroyAll();
          if (failed(built)) {
            firstError = positionOf(job.version);
            return false;
          }
        }
        return true;
      };
  walk(graphBlock, last ? std::next(last->getIterator()) : graphBlock.begin());

  if (firstError != kNoError) {
    // The module is dropped; the bodies left with placeholders get the
    // graph's values so that none uses a block about to be freed.
    for (BodyJob &job : bodyJobs)
      replacePlaceholders(*job.placeholders);
    bodyJobs.clear();
    diags.report(firstError);
    return failure();
  }
  diags.report(kNoError);
  bodyJobs.clear();
  values.clearHistory();
  mutationRenames.clearHistory();
  if (!keepParsed)
    for (size_t i = begin; i < end; ++i)
      dump.nodes[i].reset();
  return success();
}
