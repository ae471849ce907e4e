//===- FuzzSupport.h - Shared pieces of the libFuzzer targets ---*- C++ -*-===//
//
// Every target runs each input in a context shared by a few hundred inputs
// (FuzzContext::next) and checks the project's invariants on top of the
// sanitizers: a failure always comes with an error diagnostic, a pass's
// output verifies, and the same input gives the same output. A broken
// invariant aborts, which libFuzzer records as a crash. FuzzSupport.cpp
// defines LLVMFuzzerInitialize for all targets (pass registration).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_FUZZ_FUZZSUPPORT_H
#define SCHEDULER_OPT_FUZZ_FUZZSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mlir::fusion::fuzz {

/// A context with every dialect scheduler-opt knows registered (loaded on
/// demand), no threads, and a diagnostic handler that swallows diagnostics
/// and counts the errors.
class FuzzContext {
public:
  FuzzContext();
  ~FuzzContext();
  /// The context for the next input: one context serves kInputsPerContext
  /// inputs in a row (its error count reset), then a fresh one replaces it.
  /// Creating a context and loading the dialects a pipeline needs cost
  /// more than the passes on most inputs; what one input leaves in a
  /// context (uniqued types and attributes, loaded dialects) changes no
  /// pass's result, and the periodic fresh context bounds its memory.
  static FuzzContext &next();
  static constexpr unsigned kInputsPerContext = 1024;
  /// The --fusion-schedule variants the selector's low five bits pick.
  static constexpr unsigned kScheduleVariants = 32;
  MLIRContext &get() { return *context; }
  unsigned errors() const { return numErrors; }
  void resetErrors() { numErrors = 0; }

  /// The --fusion-schedule pipeline with the options `selector` picks
  /// (scheduleChecked), the lowering to loops, from loops to the LLVM
  /// dialect, and to PTX, each built once per context and reused: building a pipeline
  /// and initializing its passes (the conversions' and the canonicalizer's
  /// pattern sets) cost more than running it on a fuzzer's small graphs.
  /// A pass keeps nothing from one run to the next, so a reused pipeline
  /// gives what a fresh one gives; the determinism check runs the same
  /// pipeline twice and would see a pass that does keep something.
  PassManager &schedulePipeline(uint8_t selector);
  PassManager &loopsPipeline();
  PassManager &loopsToLLVMPipeline();
  PassManager &ptxPipeline();

private:
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  unsigned numErrors = 0;
  std::unique_ptr<PassManager> schedule[kScheduleVariants];
  std::unique_ptr<PassManager> loops, loopsToLLVM, ptx;
};

/// Parses `text` as a module and verifies it; null when either fails (after
/// an error diagnostic, checked).
OwningOpRef<ModuleOp> parseAndVerify(FuzzContext &ctx, llvm::StringRef text);

/// For targets whose input is a selector byte (options) and MLIR text: the
/// text after the first byte, parsed and verified as parseAndVerify does.
OwningOpRef<ModuleOp> parseAfterSelector(FuzzContext &ctx,
                                         const uint8_t *data, size_t size);

/// Aborts with `what` when `condition` is false.
void check(bool condition, const char *what);

/// Runs `pm` on a clone of `module` with verification between passes off;
/// on success checks that the result verifies and returns it, on failure
/// checks that an error was emitted and returns null.
OwningOpRef<ModuleOp> runChecked(FuzzContext &ctx, PassManager &pm,
                                 ModuleOp module, const char *pipeline);

/// Prints `op` in the generic form, with locations (for determinism checks).
std::string print(Operation *op);

/// Runs --fusion-schedule (options picked from `selector`) on `module`
/// and checks that the result verifies; with `twice`, runs it again and
/// checks that it prints the same. Returns the scheduled module, or null
/// when scheduling failed with an error.
OwningOpRef<ModuleOp> scheduleChecked(FuzzContext &ctx, ModuleOp module,
                                      uint8_t selector, bool twice = true);

/// Lowers `module` to loops and, with `toLLVM`, on to the LLVM dialect (the
/// CPU path, --fusion-to-cpu in two checked halves), and with `gpu`
/// through convert-fusion-to-gpu and the NVVM lowering to PTX text (no
/// ptxas), checking each result as runChecked does.
void lowerChecked(FuzzContext &ctx, ModuleOp module, bool toLLVM, bool gpu);

} // namespace mlir::fusion::fuzz

#endif // SCHEDULER_OPT_FUZZ_FUZZSUPPORT_H
