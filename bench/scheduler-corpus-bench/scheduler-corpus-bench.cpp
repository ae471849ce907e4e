//===- scheduler-corpus-bench.cpp - Compare our schedule with Inductor's -----===//
//
// For each graph folder of the Inductor corpus (ir_pre_fusion.txt and
// ir_post_fusion.txt), this tool
//  1. imports the pre-fusion dump in memory and runs `--fusion-schedule`
//     (buildFusionSchedulePipeline) on it, timing import + schedule
//     in-process with a steady clock over several repetitions, each in a
//     fresh MLIRContext: creating it, loading the dialects and building the
//     pass pipeline are timed as the setup, part of the total (file reading
//     and process start-up excluded);
//  2. describes the kernels of the scheduled graph (computeKernelGrouping);
//  3. imports the post-fusion dump and describes Inductor's kernels the
//     same way;
//  4. optionally runs the pipeline once more, untimed, with options that
//     make the fusion pass explain refused pairs (--explain-options), or a
//     textual pipeline (--explain-pipeline), and collects its remarks: the
//     fusion pass's refusals and summary as the data they carry
//     (FusionRemarks.h), other remarks as text;
// and prints everything as JSON. bench/compare_inductor.py turns that into
// docs/Fidelity.md; bench/fusion_scaling.py reads the summary.
//
// A graph may also be a `.mlir` file holding a fusion.graph (e.g. one of
// scheduler-graph-gen): it is parsed instead of imported, and has no Inductor
// kernels to compare with (--compare=false).
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Analysis/KernelGrouping.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/FusionRemarks.h"
#include "scheduler-opt/Dialect/Fusion/Transforms/Passes.h"
#include "scheduler-opt/Support/AttributeJSON.h"
#include "scheduler-opt/Pipelines/Pipelines.h"
#include "scheduler-opt/Target/Inductor/ImportInductor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include "llvm/Support/ThreadPool.h"
#include <algorithm>
#include <chrono>
#include <functional>
#include <sys/resource.h>

using namespace mlir;
using namespace mlir::fusion;
namespace cl = llvm::cl;

namespace mlir::fusion::test {
void registerTestRefusalRemarksPasses();
} // namespace mlir::fusion::test

/// The bench's own options: --help lists these, not the LLVM back ends'
/// options that the static libraries register.
static cl::OptionCategory benchCategory("scheduler-corpus-bench options");

static cl::list<std::string>
    graphDirs(cl::Positional, cl::OneOrMore,
              cl::desc("<graph folder (holding ir_pre_fusion.txt), or "
                       ".mlir file>..."),
              cl::cat(benchCategory));

static cl::opt<std::string>
    corpusRoot("corpus-root",
               cl::desc("Name graphs by their path relative to this folder"),
               cl::init(""), cl::cat(benchCategory));

static cl::opt<unsigned>
    repetitions("repetitions",
                cl::desc("Timed import + schedule runs per graph; the "
                         "median is reported"),
                cl::init(5), cl::cat(benchCategory));

static cl::opt<std::string> pipelineOptions(
    "pipeline-options",
    cl::desc("Options of the fusion-schedule pipeline for the timed runs, "
             "as on the command line (e.g. 'merge-loops=true')"),
    cl::init(""), cl::cat(benchCategory));

static cl::opt<std::string> explainOptions(
    "explain-options",
    cl::desc("Options of the fusion-schedule pipeline for one untimed run "
             "that collects the fusion pass's remarks on refused pairs; "
             "empty: no such run. If the pipeline does not accept them, the "
             "run is skipped and the JSON says why"),
    cl::init("explain=true"), cl::cat(benchCategory));

static cl::opt<std::string> explainPipeline(
    "explain-pipeline",
    cl::desc("A textual pass pipeline (builtin.module(...)) for the "
             "explaining run instead of --explain-options, for when the "
             "fusion pass's explain option is not a pipeline option"),
    cl::init(""), cl::cat(benchCategory));

static cl::opt<bool> compare(
    "compare",
    cl::desc("Import Inductor's ir_post_fusion.txt and describe both sides' "
             "kernels (--compare=false: time only, for graphs without a "
             "post-fusion dump, such as scheduler-graph-gen --format=inductor's)"),
    cl::init(true), cl::cat(benchCategory));

static cl::opt<unsigned> threads(
    "context-threads",
    cl::desc("Threads of each context's pool (0: threading disabled, as by "
             "default)"),
    cl::init(0), cl::cat(benchCategory));

static cl::opt<unsigned> parallelMinNodes(
    "parallel-min-nodes",
    cl::desc("Build an Inductor dump's loop bodies on the context's threads "
             "when it has at least this many nodes (as "
             "scheduler-translate's --inductor-parallel-min-nodes)"),
    cl::init(InductorImportOptions::kDefaultParallelMinNodes),
    cl::cat(benchCategory));

static cl::opt<uint64_t> parallelParseMinBytes(
    "parallel-parse-min-bytes",
    cl::desc("Parse an Inductor dump in parts on the context's threads when "
             "it has at least this many bytes (as scheduler-translate's "
             "--inductor-parallel-parse-min-bytes)"),
    cl::init(InductorImportOptions::kDefaultParallelParseMinBytes),
    cl::cat(benchCategory));

static cl::opt<std::string> outputFile("o", cl::desc("Output JSON file"),
                                       cl::value_desc("file"), cl::init("-"), cl::cat(benchCategory));

namespace {
/// Diagnostics of one graph, formatted `file:line:col: severity: message`;
/// the fusion pass's remarks as their data, with the message as `text` and
/// its `location` added.
struct Diagnostics {
  std::vector<std::string> errors;
  std::vector<std::string> remarks;
  std::vector<llvm::json::Value> refusals;
  std::optional<llvm::json::Value> summary;
};

/// Collects the diagnostics of a context into `Diagnostics` and echoes
/// errors to stderr.
class CollectingHandler : public ScopedDiagnosticHandler {
public:
  CollectingHandler(MLIRContext *ctx, Diagnostics &sink)
      : ScopedDiagnosticHandler(ctx) {
    setHandler([&sink](Diagnostic &diag) {
      std::string text = format(diag);
      for (Diagnostic &note : diag.getNotes())
        text += "\n" + format(note);
      DictionaryAttr data = diag.getSeverity() == DiagnosticSeverity::Remark
                                ? getFusionRemarkData(diag)
                                : DictionaryAttr();
      if (data) {
        llvm::json::Value json = attributeToJSON(data);
        llvm::json::Object &fields = *json.getAsObject();
        fields.erase("kind");
        fields["text"] = diag.str();
        fields["location"] = location(diag);
        if (data.getAs<StringAttr>("kind").getValue() == "summary")
          sink.summary = std::move(json);
        else
          sink.refusals.push_back(std::move(json));
      } else if (diag.getSeverity() == DiagnosticSeverity::Remark) {
        sink.remarks.push_back(std::move(text));
      } else {
        llvm::errs() << text << "\n";
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          sink.errors.push_back(std::move(text));
      }
      return success();
    });
  }

private:
  static StringRef severityName(DiagnosticSeverity severity) {
    switch (severity) {
    case DiagnosticSeverity::Note:
      return "note";
    case DiagnosticSeverity::Warning:
      return "warning";
    case DiagnosticSeverity::Error:
      return "error";
    case DiagnosticSeverity::Remark:
      return "remark";
    }
    return "error";
  }

  /// `file:line:col`, or the name of a named location; may be empty.
  static std::string location(Diagnostic &diag) {
    if (auto loc = diag.getLocation()->findInstanceOf<FileLineColLoc>())
      return (loc.getFilename().getValue() + ":" + Twine(loc.getLine()) +
              ":" + Twine(loc.getColumn()))
          .str();
    if (auto name = diag.getLocation()->findInstanceOf<NameLoc>())
      return name.getName().str();
    return "";
  }

  static std::string format(Diagnostic &diag) {
    std::string text = location(diag);
    if (!text.empty())
      text += ": ";
    return text + severityName(diag.getSeverity()).str() + ": " + diag.str();
  }
};

/// One repetition: times in seconds (wall clock, and CPU time of the
/// process: user + system, over every thread), and the top-level nodes
/// imported.
struct Sample {
  /// The context, its dialects, the pass manager and its pipeline.
  double setup = 0;
  double import = 0;
  double schedule = 0;
  double setupCpu = 0;
  double importCpu = 0;
  double scheduleCpu = 0;
  unsigned numImportedNodes = 0;
  /// What a user of the library pays per graph once the dump is read.
  double total() const { return setup + import + schedule; }
};

/// Result of importing (and maybe scheduling) one dump: the module and the
/// context that owns it.
struct Scheduled {
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;

  Scheduled() = default;
  Scheduled(Scheduled &&) = default;
  /// Destroys the old module before the context it lives in.
  Scheduled &operator=(Scheduled &&other) {
    module = nullptr;
    context = std::move(other.context);
    module = std::move(other.module);
    return *this;
  }
};
} // namespace

static double median(SmallVector<double> values) {
  if (values.empty())
    return 0;
  llvm::sort(values);
  size_t mid = values.size() / 2;
  if (values.size() % 2)
    return values[mid];
  return (values[mid - 1] + values[mid]) / 2;
}

static GraphOp getGraph(ModuleOp module) {
  auto graphs = module.getOps<GraphOp>();
  return graphs.empty() ? GraphOp() : *graphs.begin();
}

/// CPU seconds (user + system) the process has used so far.
static double cpuSeconds() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval &t) { return t.tv_sec + t.tv_usec * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// The pool of every context with --threads.
static llvm::DefaultThreadPool &threadPool() {
  static llvm::DefaultThreadPool pool(
      llvm::hardware_concurrency(std::max(1u, unsigned(threads))));
  return pool;
}

static std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  registry.insert<FusionDialect, arith::ArithDialect, math::MathDialect>();
  auto context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  // Threading::DISABLED only keeps the context from making a thread pool:
  // its attribute, type and affine uniquers keep locking and consulting
  // thread-local caches until disableMultithreading() tells them too
  // (MLIRContext.cpp). A context with a pool of its own needs both.
  if (threads)
    context->setThreadPool(threadPool());
  else
    context->disableMultithreading();
  context->loadAllAvailableDialects();
  // Diagnostics are kept in the JSON: without the printed ops they stay one
  // line each.
  context->printOpOnDiagnostic(false);
  return context;
}

/// The importer's options: its defaults but for the thresholds of its
/// threads, which the context's threads (--context-threads) make matter.
static InductorImportOptions importOptions() {
  InductorImportOptions options;
  options.parallelMinNodes = parallelMinNodes;
  options.parallelParseMinBytes = parallelParseMinBytes;
  return options;
}

/// Adds a pipeline to a pass manager anchored on builtin.module.
using PipelineBuilder = std::function<LogicalResult(OpPassManager &)>;

/// Imports the dump held in `contents` (whose buffer identifier is the dump's
/// path, for locations and the FX graph lookup) into a fresh context. With
/// `pipeline`, also runs that pipeline on it. Fills `sample` with the times
/// taken. Returns a null module on failure, after reporting into
/// `diagnostics`.
static Scheduled importAndSchedule(std::unique_ptr<llvm::MemoryBuffer> contents,
                                   const PipelineBuilder *pipeline,
                                   Diagnostics &diagnostics, Sample &sample) {
  using Clock = std::chrono::steady_clock;
  Scheduled result;
  double cpuSetupStart = cpuSeconds();
  Clock::time_point setupStart = Clock::now();
  result.context = makeContext();
  MLIRContext *ctx = result.context.get();
  CollectingHandler handler(ctx, diagnostics);
  // The dump is released once imported, as a compiler that reads it from
  // a file would: the schedule does not hold it.
  bool isMlir = contents->getBufferIdentifier().ends_with(".mlir");
  auto sourceMgr = std::make_unique<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(contents), llvm::SMLoc());
  std::unique_ptr<PassManager> pm;
  bool pipelineBuilt = true;
  if (pipeline) {
    pm = std::make_unique<PassManager>(ctx);
    // The importer verifies what it builds and the result is verified once
    // below; verifying between passes is a debugging aid, not compilation.
    pm->enableVerifier(false);
    pipelineBuilt = succeeded((*pipeline)(*pm));
  }

  double cpuStart = cpuSeconds();
  Clock::time_point start = Clock::now();
  result.module = isMlir ? parseSourceFile<ModuleOp>(*sourceMgr, ctx)
                         : importInductorDump(*sourceMgr, ctx, importOptions());
  Clock::time_point imported = Clock::now();
  double cpuImported = cpuSeconds();
  sourceMgr.reset();
  // Scheduler nodes, also those the importer put in foreach kernels.
  if (GraphOp graph = result.module ? getGraph(*result.module) : GraphOp())
    for (Operation &op : graph.getBodyBlock().without_terminator())
      if (auto node = dyn_cast<SchedulerNodeOpInterface>(op)) {
        SmallVector<SchedulerNodeOpInterface> leaves;
        node.getLeafNodes(leaves);
        sample.numImportedNodes += leaves.size();
      }
  double cpuScheduleStart = cpuSeconds();
  Clock::time_point scheduleStart = Clock::now();
  if (result.module && pipeline) {
    if (!pipelineBuilt || failed(pm->run(*result.module)))
      result.module = nullptr;
  }
  Clock::time_point scheduled = Clock::now();
  sample.setupCpu = cpuStart - cpuSetupStart;
  sample.importCpu = cpuImported - cpuStart;
  sample.scheduleCpu = cpuSeconds() - cpuScheduleStart;

  sample.setup = std::chrono::duration<double>(start - setupStart).count();
  sample.import = std::chrono::duration<double>(imported - start).count();
  sample.schedule =
      std::chrono::duration<double>(scheduled - scheduleStart).count();
  if (result.module && pipeline && failed(verify(*result.module)))
    result.module = nullptr;
  return result;
}

static void writeNames(llvm::json::OStream &json, ArrayRef<StringAttr> names) {
  json.array([&] {
    for (StringAttr name : names)
      json.value(name.getValue());
  });
}

static void writeTraffic(llvm::json::OStream &json, StringRef key,
                         ArrayRef<BufferTraffic> traffic) {
  json.attributeObject(key, [&] {
    for (const BufferTraffic &access : traffic)
      json.attribute(access.buffer.getValue(), access.bytes);
  });
}

static void writeUnits(llvm::json::OStream &json, StringRef key,
                       ArrayRef<ScheduledUnit> units) {
  json.attributeArray(key, [&] {
    for (const ScheduledUnit &unit : units) {
      json.object([&] {
        json.attribute("name", unit.name);
        json.attribute("kind", unit.kind);
        json.attributeBegin("members");
        writeNames(json, unit.members);
        json.attributeEnd();
        if (!unit.parts.empty()) {
          json.attributeArray("parts", [&] {
            for (ArrayRef<StringAttr> part : unit.parts)
              writeNames(json, part);
          });
        }
        json.attribute("bytes_read", unit.getBytesRead());
        json.attribute("bytes_written", unit.getBytesWritten());
        writeTraffic(json, "reads", unit.reads);
        writeTraffic(json, "writes", unit.writes);
      });
    }
  });
}

static void writeGrouping(llvm::json::OStream &json, StringRef key,
                          GraphOp graph) {
  if (!graph) {
    json.attribute(key, nullptr);
    return;
  }
  KernelGrouping grouping = computeKernelGrouping(graph);
  json.attributeObject(key, [&] {
    json.attribute("num_nodes", int64_t(grouping.numTopLevelNodes));
    json.attribute("num_kernels", int64_t(grouping.kernels.size()));
    json.attribute("num_externs", int64_t(grouping.externs.size()));
    json.attribute("num_nops", int64_t(grouping.numNops));
    json.attribute("kernel_bytes", grouping.getKernelBytes());
    json.attribute("extern_bytes", grouping.getExternBytes());
    writeUnits(json, "kernels", grouping.kernels);
    writeUnits(json, "externs", grouping.externs);
  });
}

/// Reads `path`; reports a located error when it cannot.
static std::unique_ptr<llvm::MemoryBuffer> readDump(StringRef path,
                                                    Diagnostics &diagnostics) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (file)
    return std::move(*file);
  std::string text =
      (path + ": error: cannot read the dump: " + file.getError().message())
          .str();
  llvm::errs() << text << "\n";
  diagnostics.errors.push_back(std::move(text));
  return nullptr;
}

/// The name of a graph in the report: its folder relative to the corpus
/// root when it lies under it, else the folder as given.
static std::string graphId(StringRef dir) {
  SmallString<256> path(dir);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  if (!corpusRoot.empty()) {
    SmallString<256> root(corpusRoot);
    llvm::sys::path::remove_dots(root, /*remove_dot_dot=*/true);
    StringRef rel = path;
    if (rel.consume_front(root) &&
        (rel.empty() || llvm::sys::path::is_separator(rel.front())))
      return rel.ltrim("/").str();
  }
  return std::string(path.str());
}

/// Benchmarks one graph folder and writes its JSON object. Returns false
/// when something failed (the object says what).
static bool benchGraph(llvm::json::OStream &json, StringRef dirArg,
                       const PipelineBuilder &timed,
                       const PipelineBuilder *explain, StringRef explainError) {
  SmallString<256> dir(dirArg);
  if (llvm::sys::path::filename(dir) == "ir_pre_fusion.txt")
    llvm::sys::path::remove_filename(dir);
  SmallString<256> prePath(dir), postPath(dir);
  bool isMlir = dir.ends_with(".mlir");
  if (!isMlir) {
    llvm::sys::path::append(prePath, "ir_pre_fusion.txt");
    llvm::sys::path::append(postPath, "ir_post_fusion.txt");
  }

  Diagnostics diagnostics;
  if (isMlir && compare) {
    std::string text = (dir + ": error: a .mlir graph has no Inductor "
                               "schedule to compare with; use --compare=false")
                           .str();
    llvm::errs() << text << "\n";
    diagnostics.errors.push_back(std::move(text));
  }
  SmallVector<Sample> samples;
  Scheduled ours, inductor;
  Diagnostics explainDiagnostics;
  bool explained = false;

  // Each run reads the dump itself (from the page cache after the first)
  // and holds only its own graph: the previous one is freed first.
  for (unsigned rep = 0; rep < std::max(1u, unsigned(repetitions)); ++rep) {
    std::unique_ptr<llvm::MemoryBuffer> pre = readDump(prePath, diagnostics);
    if (!pre)
      break;
    ours = Scheduled();
    Sample sample;
    Scheduled run =
        importAndSchedule(std::move(pre), &timed, diagnostics, sample);
    if (!run.module)
      break;
    samples.push_back(sample);
    ours = std::move(run);
  }
  if (ours.module && explain) {
    if (std::unique_ptr<llvm::MemoryBuffer> pre =
            readDump(prePath, diagnostics)) {
      Sample ignored;
      Scheduled run = importAndSchedule(std::move(pre), explain,
                                        explainDiagnostics, ignored);
      explained = bool(run.module);
      llvm::append_range(diagnostics.errors, explainDiagnostics.errors);
    }
  }
  if (std::unique_ptr<llvm::MemoryBuffer> post =
          compare && !isMlir ? readDump(postPath, diagnostics) : nullptr) {
    Sample ignored;
    inductor = importAndSchedule(std::move(post), /*pipeline=*/nullptr,
                                 diagnostics, ignored);
  }

  json.object([&] {
    json.attribute("graph", graphId(dir));
    json.attribute("pre_fusion", prePath.str());
    if (isMlir)
      json.attribute("post_fusion", nullptr);
    else
      json.attribute("post_fusion", postPath.str());
    // Top-level scheduler nodes of the imported pre-fusion graph.
    if (samples.empty())
      json.attribute("nodes", nullptr);
    else
      json.attribute("nodes", int64_t(samples.front().numImportedNodes));
    json.attributeObject("time", [&] {
      SmallVector<double> setups, imports, schedules, totals, setupCpus,
          importCpus, scheduleCpus;
      for (const Sample &sample : samples) {
        setups.push_back(sample.setup);
        setupCpus.push_back(sample.setupCpu);
        imports.push_back(sample.import);
        schedules.push_back(sample.schedule);
        totals.push_back(sample.total());
        importCpus.push_back(sample.importCpu);
        scheduleCpus.push_back(sample.scheduleCpu);
      }
      json.attribute("repetitions", int64_t(samples.size()));
      json.attribute("import_s", median(imports));
      json.attribute("schedule_s", median(schedules));
      json.attribute("import_cpu_s", median(importCpus));
      json.attribute("schedule_cpu_s", median(scheduleCpus));
      json.attribute("setup_s", median(setups));
      json.attribute("setup_cpu_s", median(setupCpus));
      // Setup + import + schedule.
      json.attribute("total_s", median(totals));
      json.attribute("total_min_s",
                     totals.empty() ? 0.0 : *llvm::min_element(totals));
      json.attributeArray("total_samples_s", [&] {
        for (double total : totals)
          json.value(total);
      });
    });
    GraphOp scheduled = ours.module ? getGraph(*ours.module) : GraphOp();
    if (compare) {
      writeGrouping(json, "ours", scheduled);
      writeGrouping(json, "inductor",
                    inductor.module ? getGraph(*inductor.module) : GraphOp());
    } else if (scheduled) {
      json.attribute("scheduled_nodes",
                     int64_t(llvm::range_size(
                         scheduled.getBodyBlock().without_terminator())));
    }
    json.attributeObject("explain", [&] {
      if (!explainPipeline.empty())
        json.attribute("pipeline", explainPipeline);
      else
        json.attribute("options", explainOptions);
      json.attribute("available", explained);
      if (!explainError.empty())
        json.attribute("error", explainError);
      json.attributeArray("refusals", [&] {
        for (const llvm::json::Value &refusal : explainDiagnostics.refusals)
          json.value(refusal);
      });
      if (explainDiagnostics.summary)
        json.attribute("summary", *explainDiagnostics.summary);
      else
        json.attribute("summary", nullptr);
      json.attributeArray("remarks", [&] {
        for (const std::string &remark : explainDiagnostics.remarks)
          json.value(remark);
      });
    });
    json.attributeArray("errors", [&] {
      for (const std::string &error : diagnostics.errors)
        json.value(error);
    });
  });
  return diagnostics.errors.empty() && ours.module &&
         (inductor.module || !compare);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(benchCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "scheduler-corpus-bench: time import + --fusion-schedule on Inductor "
      "dumps and compare the kernels with Inductor's post-fusion dump\n");

  FusionScheduleOptions timedOptions;
  std::string optionError;
  llvm::raw_string_ostream optionErrors(optionError);
  if (failed(timedOptions.parseFromString(pipelineOptions, optionErrors))) {
    llvm::errs() << "error: invalid --pipeline-options '" << pipelineOptions
                 << "': " << optionError << "\n";
    return 1;
  }
  PipelineBuilder timed = [&](OpPassManager &pm) {
    buildFusionSchedulePipeline(pm, timedOptions);
    return success();
  };

  // The explaining run is optional: a pipeline without the option (before
  // the fusion pass exists) is recorded, not fatal. A textual pipeline is
  // the user's explicit request, so an invalid one is an error.
  FusionScheduleOptions explainScheduleOptions;
  std::string explainError;
  PipelineBuilder explainBuilder;
  if (!explainPipeline.empty()) {
    registerFusionPasses();
    registerFusionPipelines();
    // Emits remarks in the fusion pass's format, for testing this tool.
    test::registerTestRefusalRemarksPasses();
    std::string error;
    llvm::raw_string_ostream errors(error);
    FailureOr<OpPassManager> parsed =
        parsePassPipeline(explainPipeline, errors);
    if (succeeded(parsed) &&
        parsed->getOpAnchorName() != ModuleOp::getOperationName())
      errors << "the pipeline must be anchored on builtin.module";
    if (failed(parsed) || !error.empty()) {
      llvm::errs() << "error: invalid --explain-pipeline '" << explainPipeline
                   << "': " << StringRef(error).trim() << "\n";
      return 1;
    }
    explainBuilder = [parsed = *parsed](OpPassManager &pm) {
      pm = parsed;
      return success();
    };
  } else if (!explainOptions.empty()) {
    // The explaining run schedules as the timed runs do, plus the options
    // that make the fusion pass explain.
    llvm::raw_string_ostream errors(explainError);
    std::string combined = pipelineOptions + " " + explainOptions;
    if (succeeded(explainScheduleOptions.parseFromString(combined, errors))) {
      explainBuilder = [&](OpPassManager &pm) {
        buildFusionSchedulePipeline(pm, explainScheduleOptions);
        return success();
      };
    } else {
      explainError = "the fusion-schedule pipeline does not accept '" +
                     explainOptions +
                     "': " + StringRef(explainError).trim().str();
    }
  }
  const PipelineBuilder *explain = explainBuilder ? &explainBuilder : nullptr;

  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFile, &errorMessage);
  if (!output) {
    llvm::errs() << outputFile << ": error: " << errorMessage << "\n";
    return 1;
  }

  bool ok = true;
  {
    llvm::json::OStream json(output->os(), /*IndentSize=*/1);
    json.object([&] {
      json.attribute("tool", "scheduler-corpus-bench");
      json.attribute("pipeline_options", pipelineOptions);
      json.attribute("repetitions", int64_t(repetitions));
      json.attribute("threads", int64_t(threads));
      json.attributeArray("graphs", [&] {
        for (const std::string &dir : graphDirs)
          ok &= benchGraph(json, dir, timed, explain, explainError);
      });
      // Peak resident memory of the process (Linux: KiB).
      struct rusage usage;
      getrusage(RUSAGE_SELF, &usage);
      json.attribute("max_rss_mb", double(usage.ru_maxrss) / 1024);
    });
  }
  output->os() << "\n";
  output->keep();
  return ok ? 0 : 1;
}
