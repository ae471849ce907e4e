//===- scheduler-jit-runner.cpp - A statically linked JIT runner -------------===//
//
// Runs the LLVM dialect that the loop lowering and test-fusion-jit-main
// produce, as `mlir-runner -e main -entry-point-result=void` does, with the
// runtime functions that code calls (printMemrefF64 and the C library's
// allocation, memory and math functions) bound in the binary instead of
// loaded from the runner-utils libraries. A fully static program has no
// dynamic symbol table to look them up in, so each one is named here; a
// function the JIT'd code calls and this list lacks fails the run with
// LLVM's "symbols not found" error. (MLIR 22's JitRunnerMain registers a
// runtime symbol map only after the engine's initialization has
// materialized the module, which then cannot find the symbols: hence a
// main of our own.)
//
//   scheduler-jit-runner [-e main] [-entry-point-result=void] [-O0..3] [lowered.mlir]
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
/// The descriptor of a ranked memref of f64 behind an unranked one.
struct MemRefF64 {
  double *allocated;
  double *aligned;
  int64_t offset;
  int64_t shapeAndStrides[]; // sizes[rank], then strides[rank]
};
struct UnrankedMemRefF64 {
  int64_t rank;
  MemRefF64 *descriptor;
};

/// Prints `desc`'s elements from dimension `dim` on, nested in brackets.
void printElements(const MemRefF64 *desc, int64_t rank, int64_t dim,
                   int64_t at) {
  const int64_t *sizes = desc->shapeAndStrides;
  const int64_t *strides = sizes + rank;
  if (dim == rank) {
    std::printf("%.9g", desc->aligned[at]);
    return;
  }
  std::printf("[");
  for (int64_t i = 0; i < sizes[dim]; ++i) {
    if (i)
      std::printf(", ");
    printElements(desc, rank, dim + 1, at + i * strides[dim]);
  }
  std::printf("]");
}
} // namespace

/// libmlir_runner_utils' printMemrefF64: the same header line, then the
/// elements (9 significant digits instead of 6).
extern "C" void _mlir_ciface_printMemrefF64(UnrankedMemRefF64 *memref) {
  const MemRefF64 *desc = memref->descriptor;
  int64_t rank = memref->rank;
  std::printf("Unranked Memref base@ = %p rank = %" PRId64
              " offset = %" PRId64 " sizes = [",
              static_cast<void *>(desc->aligned), rank, desc->offset);
  for (int64_t i = 0; i < rank; ++i)
    std::printf("%s%" PRId64, i ? ", " : "", desc->shapeAndStrides[i]);
  std::printf("] strides = [");
  for (int64_t i = 0; i < rank; ++i)
    std::printf("%s%" PRId64, i ? ", " : "", desc->shapeAndStrides[rank + i]);
  std::printf("] data = \n");
  printElements(desc, rank, 0, desc->offset);
  std::printf("\n");
  std::fflush(stdout);
}

/// The functions lowered graphs call: printMemrefF64, the C library's
/// allocation and memory functions (memref lowering, LLVM's intrinsics)
/// and libm (math-to-libm).
static llvm::orc::SymbolMap runtimeSymbols(llvm::orc::MangleAndInterner mangle) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](llvm::StringRef name, auto *function) {
    symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                             llvm::JITSymbolFlags::Exported};
  };
  add("_mlir_ciface_printMemrefF64", &_mlir_ciface_printMemrefF64);
  add("malloc", &std::malloc);
  add("free", &std::free);
  add("calloc", &std::calloc);
  add("realloc", &std::realloc);
  add("aligned_alloc", &std::aligned_alloc);
  add("memcpy", &std::memcpy);
  add("memmove", &std::memmove);
  add("memset", &std::memset);
  add("abort", &std::abort);
  add("puts", &std::puts);
  add("printf", &std::printf);
  add("fflush", &std::fflush);
#define FUSION_LIBM(name)                                                      \
  add(#name, static_cast<double (*)(double)>(&::name));                        \
  add(#name "f", static_cast<float (*)(float)>(&::name##f));
  FUSION_LIBM(acos)
  FUSION_LIBM(acosh)
  FUSION_LIBM(asin)
  FUSION_LIBM(asinh)
  FUSION_LIBM(atan)
  FUSION_LIBM(atanh)
  FUSION_LIBM(cbrt)
  FUSION_LIBM(ceil)
  FUSION_LIBM(cos)
  FUSION_LIBM(cosh)
  FUSION_LIBM(erf)
  FUSION_LIBM(erfc)
  FUSION_LIBM(exp)
  FUSION_LIBM(exp2)
  FUSION_LIBM(expm1)
  FUSION_LIBM(fabs)
  FUSION_LIBM(floor)
  FUSION_LIBM(lgamma)
  FUSION_LIBM(log)
  FUSION_LIBM(log10)
  FUSION_LIBM(log1p)
  FUSION_LIBM(log2)
  FUSION_LIBM(nearbyint)
  FUSION_LIBM(rint)
  FUSION_LIBM(round)
  FUSION_LIBM(roundeven)
  FUSION_LIBM(sin)
  FUSION_LIBM(sinh)
  FUSION_LIBM(sqrt)
  FUSION_LIBM(tan)
  FUSION_LIBM(tanh)
  FUSION_LIBM(tgamma)
  FUSION_LIBM(trunc)
#undef FUSION_LIBM
#define FUSION_LIBM2(name)                                                     \
  add(#name, static_cast<double (*)(double, double)>(&::name));                \
  add(#name "f", static_cast<float (*)(float, float)>(&::name##f));
  FUSION_LIBM2(atan2)
  FUSION_LIBM2(copysign)
  FUSION_LIBM2(fmax)
  FUSION_LIBM2(fmin)
  FUSION_LIBM2(fmod)
  FUSION_LIBM2(hypot)
  FUSION_LIBM2(nextafter)
  FUSION_LIBM2(pow)
  FUSION_LIBM2(remainder)
#undef FUSION_LIBM2
  return symbols;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input file>"),
      llvm::cl::init("-"));
  llvm::cl::opt<std::string> entry(
      "e", llvm::cl::desc("The function to run (no arguments, no result)"),
      llvm::cl::init("main"));
  llvm::cl::opt<std::string> entryResult(
      "entry-point-result",
      llvm::cl::desc("The entry point's result type: void only"),
      llvm::cl::init("void"));
  llvm::cl::opt<unsigned> optLevel(
      "O", llvm::cl::Prefix,
      llvm::cl::desc("Code generation level, 0 to 3 (default 2)"),
      llvm::cl::init(2));
  llvm::cl::ParseCommandLineOptions(argc, argv, "fusion JIT runner\n");
  std::optional<llvm::CodeGenOptLevel> codeGenLevel =
      llvm::CodeGenOpt::getLevel(optLevel);
  if (!codeGenLevel) {
    llvm::errs() << "scheduler-jit-runner: -O takes 0 to 3\n";
    return 1;
  }
  if (entryResult != "void") {
    llvm::errs() << "scheduler-jit-runner: only -entry-point-result=void\n";
    return 1;
  }
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();

  mlir::DialectRegistry registry;
  registry.insert<mlir::LLVM::LLVMDialect>();
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::MLIRContext context(registry);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << "scheduler-jit-runner: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  mlir::ExecutionEngineOptions options;
  options.jitCodeGenOptLevel = codeGenLevel;
  auto engine = mlir::ExecutionEngine::create(*module, options);
  if (!engine) {
    llvm::logAllUnhandledErrors(engine.takeError(), llvm::errs(),
                                "scheduler-jit-runner: ");
    return 1;
  }
  (*engine)->registerSymbols(runtimeSymbols);
  (*engine)->initialize();
  if (llvm::Error invoked = (*engine)->invokePacked(entry)) {
    llvm::logAllUnhandledErrors(std::move(invoked), llvm::errs(),
                                "scheduler-jit-runner: ");
    return 1;
  }
  return 0;
}
