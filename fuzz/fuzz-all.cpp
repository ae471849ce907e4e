//===- fuzz-all.cpp - Every libFuzzer target in one binary ----------------===//
//
// SCHEDULER_OPT_FUZZ_TARGET=fuzz-lower fuzz-all [libFuzzer options] CORPUS runs
// fuzz-lower, and so on for every target of this directory (FuzzTarget.h).
// An unknown or missing name lists the targets and exits.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

using namespace mlir::fusion::fuzz;

static std::vector<std::pair<const char *, TargetFn>> &targets() {
  static std::vector<std::pair<const char *, TargetFn>> registered;
  return registered;
}

TargetRegistration::TargetRegistration(const char *name, TargetFn fn) {
  targets().push_back({name, fn});
}

/// The target SCHEDULER_OPT_FUZZ_TARGET names; exits listing them when none does.
static TargetFn selectTarget() {
  const char *wanted = std::getenv("SCHEDULER_OPT_FUZZ_TARGET");
  for (auto &[name, fn] : targets())
    if (wanted && std::strcmp(wanted, name) == 0)
      return fn;
  std::fprintf(stderr, "fuzz-all: set SCHEDULER_OPT_FUZZ_TARGET to one of:");
  for (auto &[name, fn] : targets())
    std::fprintf(stderr, " %s", name);
  std::fprintf(stderr, "\n");
  std::exit(2);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static TargetFn target = selectTarget();
  return target(data, size);
}
