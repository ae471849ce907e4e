//===- FuzzTarget.h - One libFuzzer target, alone or in fuzz-all -*- C++ -*-===//
//
// SCHEDULER_OPT_FUZZ_TARGET(id, "fuzz-name") { body over data, size } defines a
// target's entry. Built alone (fuzz-generated, ...) it is libFuzzer's
// LLVMFuzzerTestOneInput; in fuzz-all (SCHEDULER_OPT_FUZZ_ALL defined) it
// registers under its name, and fuzz-all runs the target that the
// environment variable SCHEDULER_OPT_FUZZ_TARGET names. One binary holding every
// target is a fifth of the five to copy to another machine (each links
// the same MLIR and LLVM libraries).
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_FUZZ_FUZZTARGET_H
#define SCHEDULER_OPT_FUZZ_FUZZTARGET_H

#include <cstddef>
#include <cstdint>

namespace mlir::fusion::fuzz {
using TargetFn = int (*)(const uint8_t *data, size_t size);

/// Registers a target of fuzz-all under `name` (at static initialization).
struct TargetRegistration {
  TargetRegistration(const char *name, TargetFn fn);
};
} // namespace mlir::fusion::fuzz

#ifdef SCHEDULER_OPT_FUZZ_ALL
#define SCHEDULER_OPT_FUZZ_TARGET(id, name)                                           \
  static int fuzzTarget_##id(const uint8_t *data, size_t size);                \
  static ::mlir::fusion::fuzz::TargetRegistration fuzzRegistration_##id(       \
      name, fuzzTarget_##id);                                                  \
  static int fuzzTarget_##id(const uint8_t *data, size_t size)
#else
#define SCHEDULER_OPT_FUZZ_TARGET(id, name)                                           \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#endif

#endif // SCHEDULER_OPT_FUZZ_FUZZTARGET_H
