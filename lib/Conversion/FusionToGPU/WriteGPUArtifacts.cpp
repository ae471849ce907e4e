//===- WriteGPUArtifacts.cpp - PTX and launch manifests to files ----------===//

#include "scheduler-opt/Conversion/Passes.h"
#include "scheduler-opt/Conversion/FusionToGPU/LaunchManifest.h"
#include "scheduler-opt/Support/AttributeJSON.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

#define DEBUG_TYPE "fusion-write-gpu-artifacts"

namespace mlir::fusion {
#define GEN_PASS_DEF_FUSIONWRITEGPUARTIFACTSPASS
#include "scheduler-opt/Conversion/Passes.h.inc"
} // namespace mlir::fusion

using namespace mlir;
using namespace mlir::fusion;

SmallVector<std::string> mlir::fusion::getCudaToolkitRoots() {
  SmallVector<std::string> roots;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (std::optional<std::string> root = llvm::sys::Process::GetEnv(var))
      roots.push_back(*root);
  roots.push_back("/usr/local/cuda");
  return roots;
}

namespace {
StringRef getExtension(gpu::CompilationTarget format) {
  switch (format) {
  case gpu::CompilationTarget::Assembly:
    return "ptx";
  case gpu::CompilationTarget::Binary:
    return "cubin";
  case gpu::CompilationTarget::Fatbin:
    return "fatbin";
  case gpu::CompilationTarget::Offload:
    return "bc";
  }
  llvm_unreachable("unknown compilation target");
}

/// The ptxas to use: `requested` unless empty, else the one on PATH or
/// under the usual CUDA roots; empty when there is none.
std::string findPtxas(StringRef requested) {
  if (requested == "none")
    return "";
  if (!requested.empty())
    return requested.str();
  if (llvm::ErrorOr<std::string> path = llvm::sys::findProgramByName("ptxas"))
    return *path;
  for (const std::string &root : getCudaToolkitRoots()) {
    SmallString<128> path(root);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  return "";
}

struct FusionWriteGPUArtifactsPass final
    : fusion::impl::FusionWriteGPUArtifactsPassBase<FusionWriteGPUArtifactsPass> {
  using Base::Base;

  LogicalResult writeFile(Operation *anchor, StringRef path,
                          StringRef contents) {
    std::string error;
    auto file = openOutputFile(path, &error);
    if (!file)
      return anchor->emitError("cannot write '") << path << "': " << error;
    file->os() << contents;
    file->keep();
    ++numFilesWritten;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto manifests =
        module->getAttrOfType<DictionaryAttr>("fusion.launch_manifests");
    if (!manifests) {
      module.emitError("has no fusion.launch_manifests; run "
                       "convert-fusion-to-gpu first");
      return signalPassFailure();
    }
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
      module.emitError("cannot create '") << outputDir << "': " << ec.message();
      return signalPassFailure();
    }
    for (NamedAttribute entry : manifests) {
      StringRef graph = entry.getName().getValue();
      auto manifest = cast<DictionaryAttr>(entry.getValue());
      llvm::json::Value json = attributeToJSON(manifest);
      llvm::json::Object &fields = *json.getAsObject();
      auto moduleName = manifest.getAs<StringAttr>("module");
      bool hasKernels = llvm::any_of(
          manifest.getAs<ArrayAttr>("steps"), [](Attribute step) {
            auto kind = cast<DictionaryAttr>(step).getAs<StringAttr>("kind");
            return kind && kind.getValue() == "kernel";
          });
      auto binary = dyn_cast_or_null<gpu::BinaryOp>(
          SymbolTable::lookupSymbolIn(module, moduleName));
      if (hasKernels && (!binary || binary.getObjects().empty())) {
        module.emitError("has no gpu.binary @")
            << moduleName.getValue() << " for graph '" << graph
            << "'; run gpu-module-to-binary first";
        return signalPassFailure();
      }
      if (hasKernels) {
        auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
        StringRef ext = getExtension(object.getFormat());
        SmallString<128> binaryPath(outputDir);
        llvm::sys::path::append(binaryPath, graph + "." + ext);
        if (failed(writeFile(binary, binaryPath,
                             object.getObject().getValue())))
          return signalPassFailure();
        fields["binary"] = (graph + "." + ext).str();
        fields["format"] = ext;
        std::string assembler = findPtxas(ptxas);
        if (object.getFormat() == gpu::CompilationTarget::Assembly &&
            !assembler.empty()) {
          SmallString<128> cubinPath(outputDir);
          llvm::sys::path::append(cubinPath, graph + ".cubin");
          std::string arch = "-arch=" + chip;
          SmallVector<StringRef> args = {assembler, arch, binaryPath, "-o",
                                         cubinPath};
          std::string error;
          if (llvm::sys::ExecuteAndWait(assembler, args, std::nullopt, {}, 0,
                                        0, &error) != 0) {
            binary.emitError("ptxas failed on '")
                << binaryPath << "'" << (error.empty() ? "" : ": ") << error;
            return signalPassFailure();
          }
          ++numFilesWritten;
          fields["cubin"] = (graph + ".cubin").str();
        }
        std::string target;
        llvm::raw_string_ostream(target) << object.getTarget();
        fields["target"] = target;
      }
      fields["version"] = getLaunchManifestVersion();
      std::string schemaError;
      if (failed(checkLaunchManifest(json, schemaError))) {
        module.emitError("the launch manifest of graph '")
            << graph << "' does not follow its schema: " << schemaError;
        return signalPassFailure();
      }
      SmallString<128> manifestPath(outputDir);
      llvm::sys::path::append(manifestPath, graph + ".json");
      std::string text;
      llvm::raw_string_ostream os(text);
      os << llvm::formatv("{0:2}", json) << "\n";
      if (failed(writeFile(module, manifestPath, text)))
        return signalPassFailure();
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
