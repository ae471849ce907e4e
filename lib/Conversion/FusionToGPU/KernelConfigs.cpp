//===- KernelConfigs.cpp - Per-kernel settings of the GPU lowering --------===//

#include "scheduler-opt/Conversion/FusionToGPU/KernelConfigs.h"

#include "llvm/ADT/StringExtras.h"

#include <tuple>

using namespace mlir;
using namespace mlir::fusion;

/// True for a kernel name or an option name: letters, digits, `_`, `-`.
static bool isName(StringRef s) {
  return !s.empty() && llvm::all_of(s, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '-';
  });
}

FailureOr<KernelConfigs> fusion::parseKernelConfigs(StringRef text,
                                                    std::string &error) {
  KernelConfigs configs;
  SmallVector<StringRef> entries;
  text.split(entries, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    entry = entry.trim();
    // Not structured bindings: lambdas below capture them (C++20).
    StringRef kernel, settings;
    std::tie(kernel, settings) = entry.split(':');
    kernel = kernel.trim();
    if (!isName(kernel) || !entry.contains(':')) {
      error = ("'" + entry + "' is not 'kernel_name:key=value,...'").str();
      return failure();
    }
    auto *named = llvm::find_if(
        configs, [&](const auto &entry) { return entry.first == kernel; });
    KernelConfig &config =
        named != configs.end()
            ? named->second
            : configs.emplace_back(kernel.str(), KernelConfig()).second;
    SmallVector<StringRef> pairs;
    settings.split(pairs, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    if (pairs.empty()) {
      error = ("kernel '" + kernel + "' has no settings").str();
      return failure();
    }
    for (StringRef pair : pairs) {
      StringRef key, value;
      std::tie(key, value) = pair.split('=');
      key = key.trim();
      value = value.trim();
      int64_t number;
      if (!isName(key) || !pair.contains('=') ||
          value.getAsInteger(10, number)) {
        error = ("setting '" + pair.trim() + "' of kernel '" + kernel +
                 "' is not 'key=integer'")
                    .str();
        return failure();
      }
      auto *existing = llvm::find_if(
          config, [&](const auto &kv) { return kv.first == key; });
      if (existing != config.end())
        existing->second = number;
      else
        config.emplace_back(key.str(), number);
    }
  }
  return configs;
}
