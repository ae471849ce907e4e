//===- DirectStatementsTest.cpp - Statements read without the parser -----===//
//
// The direct statement reader (DirectStatements.cpp) must build exactly the
// Python value that parsePyValue builds from the same text, or decline it:
// checked on hand-written statements of every shape it reads and of shapes
// it must leave to the parser, and on every `name = value` / `return value`
// line of the real dumps (corpus/inductor) and the test dumps
// (test/Target/Inductor).
//
//===----------------------------------------------------------------------===//

#include "InductorDump.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::fusion::inductor;

namespace {
class DirectStatementsTest : public ::testing::Test {
protected:
  StringRef load(StringRef text) {
    unsigned id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text), llvm::SMLoc());
    return sourceMgr.getMemoryBuffer(id)->getBuffer();
  }

  /// Field by field, pointers into the text included; floats bit for bit
  /// (a NaN's sign too).
  static void expectSame(const PyValue *a, const PyValue *b, StringRef src) {
    ASSERT_EQ(a->kind, b->kind) << src.str();
    EXPECT_EQ(a->text.data(), b->text.data()) << src.str();
    EXPECT_EQ(a->text, b->text) << src.str();
    EXPECT_EQ(a->str.data() == nullptr, b->str.data() == nullptr) << src.str();
    if (!a->str.empty()) {
      EXPECT_EQ(a->str.data(), b->str.data()) << src.str();
    }
    EXPECT_EQ(a->str, b->str) << src.str();
    EXPECT_EQ(a->intValue, b->intValue) << src.str();
    uint64_t fa, fb;
    std::memcpy(&fa, &a->floatValue, sizeof(fa));
    std::memcpy(&fb, &b->floatValue, sizeof(fb));
    EXPECT_EQ(fa, fb) << src.str();
    ASSERT_EQ(a->elements.size(), b->elements.size()) << src.str();
    for (auto [x, y] : llvm::zip(a->elements, b->elements))
      expectSame(x, y, src);
    ASSERT_EQ(a->keywords.size(), b->keywords.size()) << src.str();
    for (auto [x, y] : llvm::zip(a->keywords, b->keywords)) {
      EXPECT_EQ(x.first.data(), y.first.data()) << src.str();
      EXPECT_EQ(x.first, y.first) << src.str();
      expectSame(x.second, y.second, src);
    }
  }

  /// Reads `text` (already in the source manager) both ways; the direct
  /// reader must agree with the parser or decline. Returns whether it read.
  bool compare(StringRef text) {
    PyValue *direct = parseStatementValueDirect(text, arena);
    if (!direct)
      return false;
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    FailureOr<PyValue *> generic = parsePyValue(text, locator, arena);
    EXPECT_TRUE(succeeded(generic))
        << "read directly, refused by the parser: " << text.str();
    if (succeeded(generic))
      expectSame(direct, *generic, text);
    return true;
  }

  void check(StringRef source, bool expectDirect) {
    EXPECT_EQ(compare(load(source)), expectDirect) << source.str();
  }

  MLIRContext ctx;
  llvm::SourceMgr sourceMgr;
  DumpLocator locator{sourceMgr, &ctx};
  PyValueArena arena;
};

TEST_F(DirectStatementsTest, CommonShapes) {
  for (StringRef s : {
           "None",
           "add_3",
           "ops.add",
           "reduction[0]",
           "reduction [ 1 ] ",
           "self.get_index('index0')",
           "ops.load('primals_1', get_index)",
           "ops.load(\"buf0\", get_index)",
           "ops.exp(load)",
           "ops.reduction(torch.float32, torch.float32, 'sum', exp)",
           "ops.store('buf2', get_index_2, add, None)",
           "ops.store('buf2', get_index_2, add, 'atomic_add')",
           "ops.constant(0.5, torch.float32)",
           "ops.constant(-0.5, torch.float32)",
           "ops.constant(1e-05, torch.float32)",
           "ops.constant(1E+5, torch.float64)",
           "ops.constant(2.5e-3, torch.float32)",
           "ops.constant(1., torch.float32)",
           "ops.constant(3, torch.int64)",
           "ops.constant(-3, torch.int64)",
           "ops.constant(-0, torch.int64)",
           "ops.constant(9223372036854775807, torch.int64)",
           "ops.constant(-9223372036854775807, torch.int64)",
           "ops.constant(inf, torch.float32)",
           "ops.constant(-inf, torch.float32)",
           "ops.constant(nan, torch.float32)",
           "ops.constant(-nan, torch.float32)",
           "ops.constant(True, torch.bool)",
           "ops.to_dtype(load, torch.float32, src_dtype=torch.float16)",
           "ops.to_dtype(load, torch.float32, src_dtype = torch.float16)",
           "ops.to_dtype(load, torch.float32, src_dtype=torch.float16, "
           "use_compute_types=True)",
           "self.masked_subblock1(lt, 0.0)",
           "self.masked_subblock1(lt, -inf)",
           "ops.rand()",
           "ops.where(a, b, c,)",
           "  ops.add( a ,  b )  ",
           "ops.add(a,\n    b)",
           "ops.add (a, b)",
           "f(inf=1)",
           "ops.index_expr(get_index, torch.int64)",
       })
    check(s, /*expectDirect=*/true);
}

/// Float literals on both sides of the reader's exact path (a significand
/// up to 2^53, a power of ten up to 10^22 either way) and past it, and
/// random doubles printed with 1 to 17 significant digits: bit for bit the
/// parser's value.
TEST_F(DirectStatementsTest, FloatLiterals) {
  for (StringRef s : {
           "0.0", "0.999", "1e-08", "1e22", "1e23", "1e-22", "1e-23",
           "9007199254740992.0", "9007199254740993.0", "9007199254740995.5",
           "0.9007199254740993", "123456789012345678901234567890.5",
           "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e+308",
           "3.4028234663852886e+38", "1.0000000000000002",
           "0.30000000000000004", "5e-1", "5E+0", "0.000000000000000000000001",
           "100000000000000000000000.0", "1e+022", "1e-0022",
       }) {
    std::string statement = ("ops.constant(" + s + ", torch.float64)").str();
    check(statement, /*expectDirect=*/true);
    check("ops.constant(-" + s.str() + ", torch.float64)", true);
  }
  uint64_t state = 0x9e3779b97f4a7c15u;
  for (unsigned i = 0; i < 2000; ++i) {
    // splitmix64: doubles of every exponent, from their bits.
    uint64_t z = (state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    double value;
    std::memcpy(&value, &z, sizeof(value));
    if (!std::isfinite(value))
      continue;
    // Small magnitudes too, where the exact path applies.
    int exponent;
    if (i % 2)
      value = std::ldexp(std::frexp(value, &exponent), int(i % 40) - 20);
    for (int digits = 1; digits <= 17; ++digits) {
      char text[64];
      std::snprintf(text, sizeof(text), "ops.constant(%.*g, torch.float64)",
                    digits, std::fabs(value));
      check(text, /*expectDirect=*/true);
    }
  }
}

TEST_F(DirectStatementsTest, OtherShapesGoToTheParser) {
  for (StringRef s : {
           "",
           "(add, mul)",
           "reduction[-1]",
           "reduction[1.5]",
           "reduction[0][1]",
           "reduction[0](x)",
           "reduction[i]",
           "ops.reduction((torch.float32, torch.float32), torch.float32, "
           "'welford_reduce', (load, load_1))",
           "ops.add(a, b)(c)",
           "ops.add(a, b) + 1",
           "ops.add(a, b) c",
           "ops.add(f(a), b)",
           "ops.add(a[0], b)",
           "ops.add(a + b, c)",
           "ops.constant(2*3, torch.int64)",
           "ops.constant(- 1, torch.int64)",
           "ops.constant(--1, torch.int64)",
           "ops.constant(-x, torch.int64)",
           "ops.constant(-inf.x, torch.int64)",
           "ops.constant(1.5.3, torch.float32)",
           "ops.constant(12ab, torch.float32)",
           "ops.constant(1e, torch.float32)",
           "ops.constant(99999999999999999999, torch.int64)",
           "ops.constant(1e999, torch.float64)",
           "ops.load('a\\'b', i)",
           "ops.load('buf0, i)",
           "ops.load(torch . float32, i)",
           "ops.load(torch.float32., i)",
           "ops.to_dtype(x, dtype=torch.float32, y)",
           "ops.to_dtype(x, a.b=1)",
           "ops.to_dtype(x, a==1)",
           "ops.add(,)",
           "ops.add(a",
           "ops.add(a b)",
           "x y",
           "inf",
           "nan",
           "inf(1)",
           "-1",
           "'buf0'",
           "3",
           "[a, b]",
           "{p0: 64}",
           "256*p0 + p1",
       })
    check(s, /*expectDirect=*/false);
}

/// Every statement-like line of the real and the test dumps: the direct
/// reader agrees with the parser wherever it reads, and it reads nearly
/// all loop-body statements of the real dumps.
TEST_F(DirectStatementsTest, EveryStatementOfTheDumps) {
  unsigned statements = 0, direct = 0;
  for (StringRef dir : {"corpus/inductor", "test/Target/Inductor"}) {
    SmallString<256> root(SCHEDULER_OPT_SOURCE_DIR);
    llvm::sys::path::append(root, dir);
    std::error_code ec;
    for (llvm::sys::fs::recursive_directory_iterator it(root, ec), e;
         it != e && !ec; it.increment(ec)) {
      StringRef path = it->path();
      if (!path.ends_with(".txt") && !path.ends_with(".test"))
        continue;
      auto file = llvm::MemoryBuffer::getFile(path);
      ASSERT_TRUE(bool(file)) << path.str();
      StringRef text = load((*file)->getBuffer());
      bool isCorpus = dir.starts_with("corpus");
      SmallVector<StringRef> lines;
      text.split(lines, '\n');
      for (StringRef line : lines) {
        StringRef stmt = line.ltrim(" \t");
        // `target = value` with a plain identifier target, or `return v`.
        size_t eq = stmt.find(" = ");
        StringRef value;
        if (stmt.consume_front("return "))
          value = stmt;
        else if (eq != StringRef::npos &&
                 llvm::all_of(stmt.take_front(eq), [](char c) {
                   return llvm::isAlnum(c) || c == '_';
                 }))
          value = stmt.drop_front(eq + 3);
        else
          continue;
        bool read = compare(value);
        // Loop-body statements are indented by eight blanks.
        if (isCorpus && line.starts_with("        ")) {
          ++statements;
          direct += read;
        }
      }
    }
    ASSERT_FALSE(ec) << ec.message();
  }
  EXPECT_GT(statements, 1000u);
  EXPECT_GE(direct * 100, statements * 95)
      << direct << " of " << statements << " read directly";
}
} // namespace
