//===- LaunchManifest.h - The launch manifest's schema ----------*- C++ -*-===//
//
// The launch manifest (<graph>.json) is defined once, by
// python/scheduler_opt/manifest_schema.json: its records, their keys and
// the keys' types. This side embeds the schema at build time and checks
// every manifest against it before writing it; the Python reader checks
// every manifest against the same file before reading it.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_TARGET_GPU_LAUNCHMANIFEST_H
#define SCHEDULER_OPT_TARGET_GPU_LAUNCHMANIFEST_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace mlir {
namespace fusion {

/// The schema's version, which every manifest records as `version`.
int64_t getLaunchManifestVersion();

/// Checks `manifest` against the schema. On a mismatch, fails and sets
/// `error` to the path of the first value that does not follow it and why
/// (`manifest.steps[0]: unknown key 'grid_size'`).
LogicalResult checkLaunchManifest(const llvm::json::Value &manifest,
                                  std::string &error);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_TARGET_GPU_LAUNCHMANIFEST_H
