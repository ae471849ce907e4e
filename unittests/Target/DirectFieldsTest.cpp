//===- DirectFieldsTest.cpp - Field text read without Python values -------===//
//
// The direct readers (DirectFields.cpp) must read exactly what parsing the
// text as a Python value and reading that with ValueReader gives, and
// leave to that path every text whose reading they cannot match.
//
//===----------------------------------------------------------------------===//

#include "DumpFields.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::fusion::inductor;

namespace {
class DirectFieldsTest : public ::testing::Test {
protected:
  /// The readers' integers come from getCachedConstantExpr's table, which
  /// only a context with the fusion dialect fills.
  DirectFieldsTest() { ctx.loadDialect<mlir::fusion::FusionDialect>(); }

  /// A locator over `text`, whose parsed values point into it.
  StringRef load(StringRef text) {
    unsigned id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text), llvm::SMLoc());
    return sourceMgr.getMemoryBuffer(id)->getBuffer();
  }

  /// The generic reading of a dependence list, or nothing when it fails.
  std::optional<DumpDepList> genericDeps(StringRef text) {
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    FailureOr<PyValue *> value = parsePyValue(text, locator, arena);
    DumpDepList list;
    if (failed(value) || failed(reader.readDepList(*value, list)))
      return std::nullopt;
    return list;
  }

  std::optional<SmallVector<DumpUser>> genericUsers(StringRef text) {
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    FailureOr<PyValue *> value = parsePyValue(text, locator, arena);
    if (failed(value) || (*value)->kind != PyValue::Kind::List)
      return std::nullopt;
    SmallVector<DumpUser> users;
    for (const PyValue *u : (*value)->elements) {
      FailureOr<DumpUser> user = reader.readUser(u);
      if (failed(user))
        return std::nullopt;
      users.push_back(*user);
    }
    return users;
  }

  /// Reads `text` both ways; the direct reader must either agree with the
  /// generic one or decline (`expectDirect` says which is expected).
  void checkDeps(StringRef source, bool expectDirect) {
    StringRef text = load(source);
    DumpDepList direct;
    bool read = readDepListDirect(text, &ctx, direct);
    EXPECT_EQ(read, expectDirect) << source.str();
    if (!read) {
      EXPECT_TRUE(direct.deps.empty()) << source.str();
      return;
    }
    std::optional<DumpDepList> generic = genericDeps(text);
    ASSERT_TRUE(generic) << source.str();
    ASSERT_EQ(direct.deps.size(), generic->deps.size()) << source.str();
    for (auto [a, b] : llvm::zip(direct.deps, generic->deps)) {
      EXPECT_EQ(a.kind, b.kind) << source.str();
      EXPECT_EQ(a.text.data(), b.text.data()) << source.str();
      EXPECT_EQ(a.text, b.text) << source.str();
      EXPECT_EQ(a.name, b.name) << source.str();
      EXPECT_EQ(a.index, b.index) << source.str();
      EXPECT_EQ(a.index.data(), b.index.data()) << source.str();
      EXPECT_EQ(a.sizes, b.sizes) << source.str();
      EXPECT_EQ(a.sizes.data(), b.sizes.data()) << source.str();
      EXPECT_EQ(a.mode, b.mode) << source.str();
      EXPECT_EQ(a.mutatingBuf, b.mutatingBuf) << source.str();
      EXPECT_EQ(a.isFake, b.isFake) << source.str();
    }
  }

  void checkUsers(StringRef source, bool expectDirect) {
    StringRef text = load(source);
    SmallVector<DumpUser> direct;
    bool read = readUserListDirect(text, &ctx, direct);
    EXPECT_EQ(read, expectDirect) << source.str();
    if (!read) {
      EXPECT_TRUE(direct.empty()) << source.str();
      return;
    }
    std::optional<SmallVector<DumpUser>> generic = genericUsers(text);
    ASSERT_TRUE(generic) << source.str();
    ASSERT_EQ(direct.size(), generic->size()) << source.str();
    for (auto [a, b] : llvm::zip(direct, *generic)) {
      EXPECT_EQ(a.loc, b.loc) << source.str();
      EXPECT_EQ(a.nodeClass, b.nodeClass) << source.str();
      EXPECT_EQ(a.nodeName, b.nodeName) << source.str();
      EXPECT_EQ(a.canInplace, b.canInplace) << source.str();
      EXPECT_EQ(a.isWeak, b.isWeak) << source.str();
    }
  }

  MLIRContext ctx;
  llvm::SourceMgr sourceMgr;
  DumpLocator locator{sourceMgr, &ctx};
  SizeSymbols symbols;
  ValueReader reader{locator, symbols};
  PyValueArena arena;
};
} // namespace

TEST_F(DirectFieldsTest, DependenceListsAsInductorPrintsThem) {
  checkDeps("[]", true);
  checkDeps("[MemoryDep('buf0', d0, {d0: 512})]", true);
  checkDeps("[MemoryDep('primals_1', 256*d0 + d1, {d0: 512, d1: 256})]",
            true);
  checkDeps("[MemoryDep('buf3', c0, {c0: 4096}, atomic_add)]", true);
  checkDeps("[MemoryDep('buf3', 0, {}, None)]", true);
  // Index functions and sums in parentheses, as Inductor prints them.
  checkDeps("[MemoryDep('buf0', ModularIndexing(d0, 1, 8), {d0: 64})]", true);
  checkDeps("[MemoryDep('buf32', 32768*d0 + 256*d1 + (ModularIndexing((d2 - "
            "256), 1, 256)), {d0: 4, d1: 128, d2: 768})]",
            true);
  checkDeps("[MemoryDep('t', 64*d1 + (ModularIndexing((d2 - 512), 1, 64)) + "
            "8192*(ModularIndexing((d2 - 512), 64, 4)), {d1: 4, d2: 768})]",
            true);
  checkDeps("[MemoryDep('buf0', d0 + ( d1 ) + Max(d0 , 1), {d0: 64})]", true);
  checkDeps("[MemoryDep('buf1', 4096*d0 - d1 + 4095, {d0: 8, d1: 4096})]",
            true);
  checkDeps("[StarDep(name='buf7', mode=None)]", true);
  checkDeps("[StarDep(name='buf7')]", true);
  checkDeps("[StarDep(name='buf7', mode='atomic_add')]", true);
  checkDeps("[WeakDep(name='buf65', mutating_buf='buf97', is_fake=True)]",
            true);
  checkDeps("[WeakDep(name=\"buf65\", mutating_buf='buf97')]", true);
  // Over several lines, as Inductor wraps long lists, with a trailing comma.
  checkDeps("\n    [   MemoryDep('a', d0, {d0: 4}),\n        "
            "MemoryDep('b', d1, {d0: 4, d1: 8}),]",
            true);
}

TEST_F(DirectFieldsTest, OtherShapesGoToThePythonValuePath) {
  // Size symbols are numbered in order of appearance by the generic reader.
  checkDeps("[MemoryDep('buf0', d0, {d0: s77})]", false);
  // Floor division, powers, unary minus, subscripts; index functions with
  // them, or with keywords; a parenthesized index alone (whose text the
  // value parser keeps without the parentheses unless it is a sum).
  checkDeps("[MemoryDep('buf0', (d0//8), {d0: 64})]", false);
  checkDeps("[MemoryDep('buf0', ModularIndexing(d0//2, 1, 8), {d0: 64})]",
            false);
  checkDeps("[MemoryDep('buf0', ModularIndexing(d0, 1, 8,), {d0: 64})]",
            false);
  checkDeps("[MemoryDep('buf0', f(x=d0), {d0: 64})]", false);
  checkDeps("[MemoryDep('buf0', (d0), {d0: 64})]", false);
  checkDeps("[MemoryDep('buf0', (d0 + 1), {d0: 64})]", false);
  checkDeps("[MemoryDep('buf0', d0 + ModularIndexing(d0, 1, 8)(d1), "
            "{d0: 64})]",
            false);
  checkDeps("[MemoryDep('buf0', d0**2, {d0: 64})]", false);
  checkDeps("[MemoryDep('buf0', -d0, {d0: 64})]", false);
  checkDeps("[MemoryDep('buf0', d0 + -1, {d0: 64})]", false);
  checkDeps("[MemoryDep('buf0', x[0], {d0: 64})]", false);
  // Negative, float and oversized sizes; dotted and float names.
  checkDeps("[MemoryDep('buf0', d0, {d0: -1})]", false);
  checkDeps("[MemoryDep('buf0', d0, {d0: 64.0})]", false);
  checkDeps("[MemoryDep('buf0', d0, {d0: 99999999999999999999})]", false);
  checkDeps("[MemoryDep('buf0', d0, {d0.x: 64})]", false);
  checkDeps("[MemoryDep('buf0', d0, {inf: 64})]", false);
  checkDeps("[MemoryDep('buf0', d0, {d0: 64}, inf)]", false);
  // Strings with escapes, keywords in another order, extra arguments.
  checkDeps("[MemoryDep('bu\\'f0', d0, {d0: 64})]", false);
  checkDeps("[StarDep(mode=None, name='buf7')]", false);
  checkDeps("[WeakDep(mutating_buf='b', name='a')]", false);
  checkDeps("[MemoryDep('buf0', d0, {d0: 64}, None, x)]", false);
  checkDeps("[StarDep(name='buf7', mode=atomic_add)]", false);
  // Errors: left to the generic path, which reports them.
  checkDeps("[MemoryDep('buf0', d0, {d0: 64})", false);
  checkDeps("[MemoryDep('buf0', d0, {d0: 64})] x", false);
  checkDeps("[Dep('buf0')]", false);
  checkDeps("MemoryDep('buf0', d0, {d0: 64})", false);
}

TEST_F(DirectFieldsTest, NodeUsers) {
  checkUsers("[]", true);
  checkUsers("[NodeUser(node=SchedulerNode(name='op4'), can_inplace=False, "
             "is_weak=False)]",
             true);
  checkUsers("[\n        NodeUser(node=OUTPUT, can_inplace=False, "
             "is_weak=False),\n        "
             "NodeUser(node=ExternKernelSchedulerNode(name='op3'), "
             "can_inplace=True, is_weak=True),\n    ]",
             true);
  checkUsers("[NodeUser(node=OUTPUT, is_weak=False, can_inplace=False)]",
             false);
  checkUsers("[NodeUser(node=op4, can_inplace=False, is_weak=False)]", false);
  checkUsers("[NodeUser(node=OUTPUT, can_inplace=0, is_weak=False)]", false);
  checkUsers("[NodeUser(node=OUTPUT, can_inplace=False)]", false);
}

TEST_F(DirectFieldsTest, Sizes) {
  AffineExpr numel, rnumel;
  EXPECT_TRUE(readSizePairDirect(load("(512, 256)"), &ctx, numel, rnumel));
  EXPECT_EQ(numel, getAffineConstantExpr(512, &ctx));
  EXPECT_EQ(rnumel, getAffineConstantExpr(256, &ctx));
  EXPECT_FALSE(readSizePairDirect(load("(s0, 1)"), &ctx, numel, rnumel));
  EXPECT_FALSE(readSizePairDirect(load("(512)"), &ctx, numel, rnumel));

  SmallVector<AffineExpr> ranges, reductionRanges;
  EXPECT_TRUE(readSizeListPairDirect(load("([512, 4], [])"), &ctx, ranges,
                                     reductionRanges));
  EXPECT_EQ(ranges, (SmallVector<AffineExpr>{getAffineConstantExpr(512, &ctx),
                                             getAffineConstantExpr(4, &ctx)}));
  EXPECT_TRUE(reductionRanges.empty());
  ranges.clear();
  EXPECT_FALSE(readSizeListPairDirect(load("([512, s0], [4])"), &ctx, ranges,
                                      reductionRanges));
  EXPECT_TRUE(ranges.empty());
  EXPECT_TRUE(reductionRanges.empty());

  SmallVector<std::pair<StringRef, AffineExpr>> vars;
  EXPECT_TRUE(readVarSizesDirect(load("{p0: 512, p1: 256}"), &ctx, vars));
  ASSERT_EQ(vars.size(), 2u);
  EXPECT_EQ(vars[1].first, "p1");
  EXPECT_EQ(vars[1].second, getAffineConstantExpr(256, &ctx));
  vars.clear();
  EXPECT_FALSE(readVarSizesDirect(load("{p0: s77}"), &ctx, vars));
  EXPECT_TRUE(vars.empty());

  // Integers up to INT64_MAX, however many digits they are written with.
  int64_t max = std::numeric_limits<int64_t>::max();
  for (auto [text, value] :
       {std::pair<StringRef, int64_t>{"{p0: 999999999999999999}",
                                      999999999999999999},
        {"{p0: 9223372036854775807}", max},
        {"{p0: 0000000000000000000064}", 64}}) {
    vars.clear();
    EXPECT_TRUE(readVarSizesDirect(load(text), &ctx, vars)) << text.str();
    ASSERT_EQ(vars.size(), 1u) << text.str();
    EXPECT_EQ(vars[0].second, getAffineConstantExpr(value, &ctx))
        << text.str();
  }
  for (StringRef text : {"{p0: 9223372036854775808}",
                         "{p0: 18446744073709551616}",
                         "{p0: 99999999999999999999}"}) {
    vars.clear();
    EXPECT_FALSE(readVarSizesDirect(load(text), &ctx, vars)) << text.str();
    EXPECT_TRUE(vars.empty()) << text.str();
  }
}

TEST_F(DirectFieldsTest, DependenceSizesReadOnDemand) {
  // A dependence keeps its sizes' text; readDepSizes gives what reading
  // that text as a Python value gives, integers or size symbols, from a
  // list read either way.
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  for (auto [source, direct] :
       {std::pair<StringRef, bool>{"[MemoryDep('b', d0, {d0: 8, d1: 64})]",
                                   true},
        {"[MemoryDep('b', 0, {})]", true},
        {"[MemoryDep('b', d0, {d0: s77, d1: 3*s0})]", false}}) {
    StringRef text = load(source);
    DumpDepList list;
    EXPECT_EQ(readDepListDirect(text, &ctx, list), direct) << source.str();
    if (!direct)
      list = *genericDeps(text);
    ASSERT_EQ(list.deps.size(), 1u) << source.str();
    SmallVector<std::pair<StringRef, AffineExpr>> sizes, expected;
    ASSERT_TRUE(succeeded(readDepSizes(list.deps[0], locator, symbols, sizes)))
        << source.str();
    FailureOr<PyValue *> dict =
        parsePyValue(list.deps[0].sizes, locator, arena);
    ASSERT_TRUE(succeeded(dict)) << source.str();
    ASSERT_TRUE(succeeded(reader.readVarSizes(*dict, expected, "sizes")));
    EXPECT_EQ(sizes, expected) << source.str();
  }
  EXPECT_EQ(symbols.getNames().size(), 2u);
}

TEST_F(DirectFieldsTest, Layouts) {
  // Reads `source` both ways: the direct reader must agree with the
  // generic one or decline, leaving its output as it was.
  auto check = [&](StringRef source, bool expectDirect) {
    StringRef text = load(source);
    DumpLayout direct;
    bool read = readLayoutDirect(text, &ctx, direct);
    EXPECT_EQ(read, expectDirect) << source.str();
    if (!read) {
      EXPECT_EQ(direct.loc, nullptr) << source.str();
      EXPECT_TRUE(direct.size.empty()) << source.str();
      return;
    }
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    FailureOr<PyValue *> value = parsePyValue(text, locator, arena);
    ASSERT_TRUE(succeeded(value)) << source.str();
    FailureOr<DumpLayout> generic = reader.readLayout(*value);
    ASSERT_TRUE(succeeded(generic)) << source.str();
    EXPECT_EQ(direct.kind, generic->kind) << source.str();
    EXPECT_EQ(direct.className, generic->className) << source.str();
    EXPECT_EQ(direct.className.data(), generic->className.data());
    EXPECT_EQ(direct.loc, generic->loc) << source.str();
    EXPECT_EQ(direct.device, generic->device) << source.str();
    EXPECT_EQ(direct.dtype, generic->dtype) << source.str();
    EXPECT_EQ(direct.dtypeLoc, generic->dtypeLoc) << source.str();
    EXPECT_EQ(direct.size, generic->size) << source.str();
    EXPECT_EQ(direct.stride, generic->stride) << source.str();
    EXPECT_EQ(direct.offset, generic->offset) << source.str();
  };
  check("FixedLayout('cuda:0', torch.float32, size=[64, 4096], "
        "stride=[4096, 1])",
        true);
  check("MutationLayoutSHOULDREMOVE('cuda:0', torch.float32, size=[], "
        "stride=[])",
        true);
  check("FlexibleLayout('cuda:0', torch.int64, size=[8], stride=[1], "
        "offset=16)",
        true);
  check("  FixedLayout ( 'cuda:0' ,torch.bool,size = [2],stride=[1] )  ", true);
  // Sizes in size symbols, other argument orders, other classes, dtypes
  // that are not one dotted name, and errors go to the generic path.
  check("FixedLayout('cuda:0', torch.float32, size=[s0, 64], stride=[64, 1])",
        false);
  check("FixedLayout('cuda:0', torch.float32, stride=[1], size=[8])", false);
  check("NoneLayout(device=device(type='cuda', index=0), size=[0], "
        "stride=[0])",
        false);
  check("FixedLayout(device(type='cuda', index=0), torch.float32, size=[8], "
        "stride=[1])",
        false);
  check("FixedLayout('cuda:0', torch . float32, size=[8], stride=[1])", false);
  check("FixedLayout('cuda:0', torch.float32, size=[8, 2], stride=[1])", false);
  check("FixedLayout('cuda:0', torch.float32, size=[8], stride=[1]) + 1",
        false);
  check("Layout2('cuda:0', torch.float32, size=[8], stride=[1])", false);
}
