//===- GPUArtifacts.cpp - Kernels and launch manifests to files -----------===//

#include "scheduler-opt/Target/GPU/GPUArtifacts.h"
#include "scheduler-opt/Support/AttributeJSON.h"
#include "scheduler-opt/Target/GPU/LaunchManifest.h"

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

} // namespace

/// The ptxas to use: `requested` unless empty, else the one on PATH or
/// under the usual CUDA roots; empty when there is none.
std::string mlir::fusion::findPtxas(StringRef requested) {
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

/// Writes `contents` to `path`, a located error on `anchor` if it cannot.
static LogicalResult writeFile(Operation *anchor, StringRef path,
                               unsigned &numFilesWritten, StringRef contents) {
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file)
    return anchor->emitError("cannot write '") << path << "': " << error;
  file->os() << contents;
  file->keep();
  ++numFilesWritten;
  return success();
}

LogicalResult mlir::fusion::writeGPUArtifacts(ModuleOp module,
                                              const GPUArtifactOptions &options,
                                              unsigned &numFilesWritten) {
  auto manifests =
      module->getAttrOfType<DictionaryAttr>("fusion.launch_manifests");
  if (!manifests) {
    module.emitError("has no fusion.launch_manifests; run "
                     "convert-fusion-to-gpu first");
    return failure();
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(options.outputDir)) {
    module.emitError("cannot create '") << options.outputDir << "': " << ec.message();
    return failure();
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
      return failure();
    }
    if (hasKernels) {
      auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
      StringRef ext = getExtension(object.getFormat());
      SmallString<128> binaryPath(options.outputDir);
      llvm::sys::path::append(binaryPath, graph + "." + ext);
      if (failed(writeFile(binary, binaryPath, numFilesWritten,
                           object.getObject().getValue())))
        return failure();
      fields["binary"] = (graph + "." + ext).str();
      fields["format"] = ext;
      std::string assembler = findPtxas(options.ptxas);
      if (object.getFormat() == gpu::CompilationTarget::Assembly &&
          !assembler.empty()) {
        SmallString<128> cubinPath(options.outputDir);
        llvm::sys::path::append(cubinPath, graph + ".cubin");
        std::string arch = "-arch=" + options.chip;
        SmallVector<StringRef> args = {assembler, arch, binaryPath, "-o",
                                       cubinPath};
        std::string error;
        if (llvm::sys::ExecuteAndWait(assembler, args, std::nullopt, {}, 0,
                                      0, &error) != 0) {
          binary.emitError("ptxas failed on '")
              << binaryPath << "'" << (error.empty() ? "" : ": ") << error;
          return failure();
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
      return failure();
    }
    SmallString<128> manifestPath(options.outputDir);
    llvm::sys::path::append(manifestPath, graph + ".json");
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", json) << "\n";
    if (failed(writeFile(module, manifestPath, numFilesWritten, text)))
      return failure();
  }
  return success();
}
