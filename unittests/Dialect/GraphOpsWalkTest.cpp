//===- GraphOpsWalkTest.cpp - The graph verifier's walk, window by window -===//
//
// The one-pass import builds a graph a few nodes at a time and has a
// GraphOpsWalk visit each window's ops right after building them; the graph
// verifier's checks of the top-level nodes (names, mutations, acyclicity)
// are passes taken in those visits, and where one fails verifyGraphRegions
// runs the whole graph's check for the diagnostic. Dumps cannot reach these
// errors (the importer reports duplicate nodes and uses before writes
// itself), so the graphs here are parsed unverified and put back into their
// block a window at a time, each error's two ops in different windows: a
// pass that missed it would let the graph through.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/GraphOpsWalk.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fusion;

namespace {

/// A node `name` writing buffer `buffer` from a load of `from`; `extra` goes
/// into its `writes(...)` (a mutation).
std::string node(StringRef result, StringRef name, StringRef from,
                 StringRef extra = "", StringRef attrs = "") {
  return ("  %" + result + " = fusion.node \"" + name +
          "\" (%p0) in [4] writes(%out : !fusion.buffer<4xf32>" + extra + ")" +
          attrs + " {\n    %0 = fusion.load %" + from +
          "[%p0] : !fusion.buffer<4xf32>\n    fusion.store %0, %out[%p0] : "
          "!fusion.buffer<4xf32>\n  }\n")
      .str();
}

std::string graph(StringRef nodes) {
  return ("fusion.graph @g(%x: !fusion.buffer<4xf32>) attributes {device = "
          "\"cuda:0\"} {\n" +
          nodes + "  fusion.output\n}\n")
      .str();
}

class GraphOpsWalkTest : public ::testing::Test {
protected:
  GraphOpsWalkTest() {
    ctx.loadDialect<FusionDialect>();
    ctx.printOpOnDiagnostic(false);
  }

  /// Parses `text` without verifying it, then verifies its graph as the
  /// one-pass import does: the top-level ops put back `window` at a time,
  /// the walk visiting each window, then verifyGraphRegions. Returns the
  /// diagnostics, "ok" if none and the graph passes.
  std::string verifyByWindows(StringRef text, unsigned window) {
    ParserConfig config(&ctx, /*verifyAfterParse=*/false);
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
    if (!module)
      return "parse error";
    auto graphOp = cast<GraphOp>(module->getBody()->front());
    Block &block = graphOp.getBodyBlock();
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      ops.push_back(&op);
    for (Operation *op : ops)
      op->remove();
    GraphOpsWalk walk(graphOp);
    for (size_t i = 0; i < ops.size(); i += window) {
      for (size_t j = i; j < std::min(i + window, ops.size()); ++j)
        block.push_back(ops[j]);
      walk.visitNewOps();
    }
    std::string messages;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
      messages += diag.str();
      for (Diagnostic &note : diag.getNotes())
        messages += " | note: " + note.str();
      return success();
    });
    if (succeeded(verifyGraphRegions(graphOp, walk)))
      messages += "ok";
    return messages;
  }

  /// verifyByWindows(text, window) is `expected` for each of `windows`.
  void expectAtWindows(StringRef text, std::initializer_list<unsigned> windows,
                       StringRef expected) {
    for (unsigned window : windows)
      EXPECT_EQ(verifyByWindows(text, window), expected) << "window " << window;
  }

  MLIRContext ctx;
};

TEST_F(GraphOpsWalkTest, ValidGraphPasses) {
  std::string text =
      graph(node("buf0", "op0", "x") + node("buf1", "op1", "buf0") +
            node("buf2", "op2", "buf1", " mutates %buf0"));
  expectAtWindows(text, {1, 2, 10}, "ok");
}

TEST_F(GraphOpsWalkTest, NodeNameAcrossWindows) {
  std::string text =
      graph(node("buf0", "op0", "x") + node("buf1", "op1", "buf0") +
            node("buf2", "op0", "buf1"));
  expectAtWindows(text, {1, 2, 10},
                  "'fusion.node' op node name 'op0' is already used | note: "
                  "first used here");
}

TEST_F(GraphOpsWalkTest, BufferNameOfAnInput) {
  // The graph's input names are added after every window.
  std::string text = graph(
      node("buf0", "op0", "x") +
      node("buf1", "op1", "buf0", "", " attributes {buffer_names = [\"x\"]}"));
  expectAtWindows(text, {1, 10},
                  "'fusion.node' op buffer name 'x' is already used | note: "
                  "first used here");
}

TEST_F(GraphOpsWalkTest, MutatedTwiceAcrossWindows) {
  std::string text =
      graph(node("buf0", "op0", "x", " mutates %x") + node("buf1", "op1", "x") +
            node("buf2", "op2", "x", " mutates %x"));
  expectAtWindows(
      text, {1, 2, 10},
      "'fusion.node' op overwrites a buffer version that 'op0' "
      "already overwrote; mutate that node's result instead | note: "
      "first mutation here");
}

TEST_F(GraphOpsWalkTest, CycleAcrossWindows) {
  // op0 loads op2's result: the edge op2 -> op0 goes backward, seen when
  // op2's window is visited, after op0's.
  std::string text =
      graph(node("buf0", "op0", "buf2") + node("buf1", "op1", "buf0") +
            node("buf2", "op2", "buf1"));
  expectAtWindows(
      text, {1, 2, 10},
      "'fusion.node' op is on a dependence cycle: op0 -> op1 -> op2 "
      "-> op0");
}

TEST_F(GraphOpsWalkTest, SelfCycle) {
  std::string text =
      graph(node("buf0", "op0", "x") + node("buf1", "op1", "buf1"));
  expectAtWindows(text, {1, 10},
                  "'fusion.node' op is on a dependence cycle: op1 -> op1");
}

} // namespace
