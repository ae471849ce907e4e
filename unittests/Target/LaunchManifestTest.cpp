//===- LaunchManifestTest.cpp - The launch manifest's schema check --------===//
//
// checkLaunchManifest against hand-written manifests: the writer's side of
// python/scheduler_opt/manifest_schema.json (the reader's side is
// python/tests/test_manifest.py).
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Target/GPU/LaunchManifest.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {

/// A manifest of the schema's version: one input, one output, a kernel
/// with a symbolic grid, an extern and a copy.
const char *kValid = R"json({
  "version": VERSION, "graph": "g", "module": "g_kernels",
  "binary": "g.ptx", "format": "ptx",
  "storages": [
    {"name": "x", "role": "input", "dtype": "f32", "elements": "s0*8"},
    {"name": "buf1", "role": "output", "dtype": "f32", "elements": 32}],
  "inputs": [{"name": "x", "storage": "x", "dtype": "f32",
              "shape": ["s0", 8], "strides": [8, 1], "offset": 0}],
  "outputs": [{"name": "buf1", "storage": "buf1", "dtype": "f32",
               "shape": [32], "strides": [1], "offset": 0}],
  "buffers": {"x": "x", "buf1": "buf1"},
  "steps": [
    {"kind": "kernel", "name": "kernel_op0", "node": "op0",
     "grid": ["(s0*8 + 255) // 256", 1, 1], "block": [256, 1, 1],
     "shared_bytes": 0, "args": ["x", "buf1"], "symbols": ["s0"]},
    {"kind": "extern", "name": "extern_kernels.mm", "node": "op1",
     "args": ["x", "buf1"], "inputs": ["x"],
     "outputs": [{"buffer": "buf1", "storage": "buf1", "index": -1}],
     "buffers": {"x": "x", "buf1": "buf1"}, "call": {"kwargs": {}}},
    {"kind": "copy", "src": "x", "dst": "buf1", "elements": 32}]
})json";

/// kValid with the schema's version, after replacing `from` by `to`.
llvm::json::Value manifest(StringRef from = "", StringRef to = "") {
  std::string text = kValid;
  std::string version = std::to_string(getLaunchManifestVersion());
  text.replace(text.find("VERSION"), 7, version);
  if (!from.empty()) {
    size_t at = text.find(from.str());
    EXPECT_NE(at, std::string::npos) << from.str();
    text.replace(at, from.size(), to.str());
  }
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  EXPECT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  return std::move(*parsed);
}

std::string errorOf(const llvm::json::Value &value) {
  std::string error;
  if (succeeded(checkLaunchManifest(value, error)))
    return "";
  return error;
}

TEST(LaunchManifestTest, ValidManifest) {
  EXPECT_GE(getLaunchManifestVersion(), 1);
  EXPECT_EQ(errorOf(manifest()), "");
  // Optional keys may be left out.
  EXPECT_EQ(errorOf(manifest(R"("shared_bytes": 0, )", "")), "");
  EXPECT_EQ(errorOf(manifest(R"(, "symbols": ["s0"])", "")), "");
}

TEST(LaunchManifestTest, UnknownKey) {
  EXPECT_EQ(errorOf(manifest(R"("shared_bytes": 0)", R"("smem_bytes": 0)")),
            "manifest.steps[0]: unknown key 'smem_bytes'");
  EXPECT_EQ(errorOf(manifest(R"("graph": "g")", R"("graph": "g", "x": 1)")),
            "manifest: unknown key 'x'");
}

TEST(LaunchManifestTest, MissingKey) {
  EXPECT_EQ(errorOf(manifest(R"("role": "input", )", "")),
            "manifest.storages[0]: missing key 'role'");
  EXPECT_EQ(errorOf(manifest(R"("graph": "g", )", "")),
            "manifest: missing key 'graph'");
}

TEST(LaunchManifestTest, WrongType) {
  EXPECT_EQ(errorOf(manifest(R"("block": [256, 1, 1])",
                             R"("block": [256, "1", 1])")),
            "manifest.steps[0].block[1]: expected an integer");
  EXPECT_EQ(errorOf(manifest(R"("offset": 0)", R"("offset": null)")),
            "manifest.inputs[0].offset: expected a size (an integer or an "
            "expression)");
  EXPECT_EQ(errorOf(manifest(R"("buffers": {"x": "x", "buf1": "buf1"},
  "steps")",
                             R"("buffers": {"x": 1}, "steps")")),
            "manifest.buffers.x: expected a string");
}

TEST(LaunchManifestTest, UnknownStepKind) {
  EXPECT_EQ(errorOf(manifest(R"("kind": "copy")", R"("kind": "memset")")),
            "manifest.steps[2]: unknown step kind 'memset'");
}

} // namespace
