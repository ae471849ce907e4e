//===- TestJitMain.cpp - A main function to run lowered graphs ------------===//
//
// `test-fusion-jit-main` adds `func.func @main()` to a module lowered by
// convert-fusion-to-loops: for every host function (the functions whose
// arguments carry `fusion.role`), it allocates the storages, fills inputs
// with a deterministic pseudo-random pattern and outputs with a poison
// value, calls the function and prints every output (all values, or four
// checksums for large ones) with printMemrefF64 from libmlir_runner_utils.
// Running a graph before and after fusion through this main, with the same
// seed, must print the same numbers up to rounding. Graphs with size symbols
// run at the symbols' values given by `sizes` (one per symbol, in order):
// storages of symbolic size get the number of elements their
// `fusion.elements` map gives there.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestJitMainPass
    : PassWrapper<TestJitMainPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestJitMainPass)

  TestJitMainPass() = default;
  TestJitMainPass(const TestJitMainPass &pass) : PassWrapper(pass) {}

  StringRef getArgument() const final { return "test-fusion-jit-main"; }
  StringRef getDescription() const final {
    return "Add a main function that fills, runs and prints every lowered "
           "graph";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect, math::MathDialect,
                    memref::MemRefDialect, scf::SCFDialect>();
  }

  Option<double> poison{*this, "poison",
                        llvm::cl::desc("Value outputs are filled with"),
                        llvm::cl::init(-12345.0)};
  Option<int64_t> seed{*this, "seed",
                       llvm::cl::desc("Seed of the input pattern"),
                       llvm::cl::init(0)};
  Option<int64_t> intRange{
      *this, "int-range",
      llvm::cl::desc("Integer inputs are filled with values in [0, int-range)"),
      llvm::cl::init(4)};
  Option<bool> printInputs{
      *this, "print-inputs",
      llvm::cl::desc("Also print every input after the call (after the "
                     "outputs), to show in-place updates"),
      llvm::cl::init(false)};
  ListOption<int64_t> sizes{
      *this, "sizes",
      llvm::cl::desc("Values of the size symbols of graphs that have some")};
  Option<bool> checksum{
      *this, "checksum",
      llvm::cl::desc("Print (sum, sum of |v|, weighted sum, NaN count) per "
                     "output instead of every value"),
      llvm::cl::init(false)};

  /// A 31-bit hash of (i, salt) in i64 arithmetic.
  Value hash(OpBuilder &b, Location loc, Value i, int64_t salt) {
    auto c = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v)
          .getResult();
    };
    Value u = arith::IndexCastOp::create(b, loc, b.getI64Type(), i);
    u = arith::MulIOp::create(b, loc, u, c(2654435761));
    u = arith::AddIOp::create(b, loc, u, c(salt * 40503 + seed * 97 + 12345));
    for (int64_t shift : {13, 16}) {
      u = arith::XOrIOp::create(b, loc, u,
                                arith::ShRUIOp::create(b, loc, u, c(shift)));
      u = arith::MulIOp::create(b, loc, u, c(1274126177));
    }
    u = arith::XOrIOp::create(b, loc, u,
                              arith::ShRUIOp::create(b, loc, u, c(15)));
    return arith::AndIOp::create(b, loc, u, c(0x7fffffff));
  }

  /// h mod n as f64 in [lo, lo + n * step).
  Value spread(OpBuilder &b, Location loc, Value h, int64_t n, double lo,
               double step) {
    Value m = arith::RemUIOp::create(
        b, loc, h, arith::ConstantIntOp::create(b, loc, b.getI64Type(), n));
    Value f = arith::UIToFPOp::create(b, loc, b.getF64Type(), m);
    f = arith::MulFOp::create(
        b, loc, f, arith::ConstantFloatOp::create(b, loc, b.getF64Type(),
                                                  APFloat(step)));
    return arith::AddFOp::create(
        b, loc, f,
        arith::ConstantFloatOp::create(b, loc, b.getF64Type(), APFloat(lo)));
  }

  /// Converts an f64 to `type` (floats round, integers truncate).
  Value fromF64(OpBuilder &b, Location loc, Value v, Type type) {
    if (type.isF64())
      return v;
    if (isa<FloatType>(type))
      return arith::TruncFOp::create(b, loc, type, v);
    return arith::FPToSIOp::create(b, loc, type, v);
  }

  Value toF64(OpBuilder &b, Location loc, Value v) {
    Type type = v.getType();
    Type f64 = b.getF64Type();
    if (type.isF64())
      return v;
    if (isa<FloatType>(type))
      return arith::ExtFOp::create(b, loc, f64, v);
    if (type.isInteger(1))
      return arith::UIToFPOp::create(b, loc, f64, v);
    return arith::SIToFPOp::create(b, loc, f64, v);
  }

  /// for i in [0, n): body(i)
  void loop(OpBuilder &b, Location loc, int64_t n,
            function_ref<void(OpBuilder &, Value)> body) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    scf::ForOp::create(b, loc, zero, arith::ConstantIndexOp::create(b, loc, n),
                       one, ValueRange{},
                       [&](OpBuilder &lb, Location, Value i, ValueRange) {
                         body(lb, i);
                         scf::YieldOp::create(lb, loc);
                       });
  }

  void fill(OpBuilder &b, Location loc, Value memref, int64_t salt,
            bool isInput) {
    auto type = cast<MemRefType>(memref.getType());
    Type element = type.getElementType();
    loop(b, loc, type.getDimSize(0), [&](OpBuilder &lb, Value i) {
      Value v;
      if (!isInput) {
        v = fromF64(lb, loc,
                    arith::ConstantFloatOp::create(lb, loc, lb.getF64Type(),
                                                   APFloat(double(poison))),
                    element);
        if (element.isInteger(1))
          v = arith::ConstantIntOp::create(lb, loc, element, 1);
      } else {
        Value h = hash(lb, loc, i, salt);
        if (isa<FloatType>(element))
          v = fromF64(lb, loc, spread(lb, loc, h, 4001, -2.0, 0.001), element);
        else if (element.isInteger(1))
          v = arith::TruncIOp::create(lb, loc, element, h);
        else
          v = fromF64(lb, loc, spread(lb, loc, h, intRange, 0.0, 1.0),
                      element);
      }
      memref::StoreOp::create(lb, loc, v, memref, ValueRange{i});
    });
  }

  void print(OpBuilder &b, Location loc, Value memref, func::FuncOp printer) {
    auto type = cast<MemRefType>(memref.getType());
    int64_t n = type.getDimSize(0);
    Type f64 = b.getF64Type();
    Value asF64;
    if (!checksum) {
      asF64 = memref::AllocOp::create(b, loc, MemRefType::get({n}, f64));
      loop(b, loc, n, [&](OpBuilder &lb, Value i) {
        Value v = memref::LoadOp::create(lb, loc, memref, ValueRange{i});
        memref::StoreOp::create(lb, loc, toF64(lb, loc, v), asF64,
                                ValueRange{i});
      });
    } else {
      asF64 = memref::AllocOp::create(b, loc, MemRefType::get({4}, f64));
      Value zero = arith::ConstantFloatOp::create(b, loc, b.getF64Type(),
                                                  APFloat(0.0));
      for (int64_t k = 0; k < 4; ++k)
        memref::StoreOp::create(
            b, loc, zero, asF64,
            ValueRange{arith::ConstantIndexOp::create(b, loc, k)});
      loop(b, loc, n, [&](OpBuilder &lb, Value i) {
        Value v = toF64(lb, loc,
                        memref::LoadOp::create(lb, loc, memref, ValueRange{i}));
        Value isNaN =
            arith::CmpFOp::create(lb, loc, arith::CmpFPredicate::UNO, v, v);
        Value w = spread(lb, loc, hash(lb, loc, i, 99), 2001, -1.0, 0.001);
        Value terms[4] = {
            v, math::AbsFOp::create(lb, loc, v),
            arith::MulFOp::create(lb, loc, v, w),
            arith::UIToFPOp::create(lb, loc, f64, isNaN)};
        for (int64_t k = 0; k < 4; ++k) {
          Value idx = arith::ConstantIndexOp::create(lb, loc, k);
          Value old = memref::LoadOp::create(lb, loc, asF64, ValueRange{idx});
          memref::StoreOp::create(lb, loc,
                                  arith::AddFOp::create(lb, loc, old, terms[k]),
                                  asF64, ValueRange{idx});
        }
      });
    }
    Value unranked = memref::CastOp::create(
        b, loc, UnrankedMemRefType::get(f64, Attribute()), asF64);
    func::CallOp::create(b, loc, printer, ValueRange{unranked});
    memref::DeallocOp::create(b, loc, asF64);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> hosts;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.getNumArguments() > 0 && func.getArgAttr(0, "fusion.role"))
        hosts.push_back(func);
    Location loc = module.getLoc();
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Type f64 = b.getF64Type();
    auto printer = func::FuncOp::create(
        b, loc, "printMemrefF64",
        b.getFunctionType({UnrankedMemRefType::get(f64, Attribute())}, {}));
    printer.setPrivate();
    printer->setAttr("llvm.emit_c_interface", b.getUnitAttr());
    auto main = func::FuncOp::create(b, loc, "main", b.getFunctionType({}, {}));
    b.setInsertionPointToStart(main.addEntryBlock());
    for (func::FuncOp host : hosts) {
      SmallVector<Value> args, operands;
      unsigned numSymbols = 0;
      for (unsigned i = 0, e = host.getNumArguments(); i < e; ++i) {
        auto role = host.getArgAttrOfType<StringAttr>(i, "fusion.role");
        if (role && role.getValue() == "symbol") {
          if (numSymbols >= sizes.size()) {
            host.emitError("test-fusion-jit-main: give a value for each "
                           "size symbol with sizes=...");
            return signalPassFailure();
          }
          args.push_back(nullptr);
          operands.push_back(
              arith::ConstantIndexOp::create(b, loc, sizes[numSymbols++]));
          continue;
        }
        auto type = cast<MemRefType>(host.getArgument(i).getType());
        MemRefType allocType = type;
        if (!type.hasStaticShape()) {
          auto elements = host.getArgAttrOfType<AffineMapAttr>(
              i, "fusion.elements");
          SmallVector<int64_t> values(sizes.begin(), sizes.end());
          std::optional<int64_t> n =
              elements && elements.getValue().getNumSymbols() <= values.size()
                  ? fusion::evaluateSizeExpr(elements.getValue().getResult(0),
                                             values)
                  : std::nullopt;
          if (!n) {
            host.emitError("test-fusion-jit-main: no size for argument ")
                << i;
            return signalPassFailure();
          }
          allocType = MemRefType::get({*n}, type.getElementType());
        }
        Value memref = memref::AllocOp::create(b, loc, allocType);
        fill(b, loc, memref, i, role && role.getValue() == "input");
        args.push_back(memref);
        operands.push_back(
            allocType == type
                ? memref
                : memref::CastOp::create(b, loc, type, memref).getResult());
      }
      func::CallOp::create(b, loc, host, operands);
      for (StringRef printed : {"output", "input"}) {
        if (printed == "input" && !printInputs)
          continue;
        for (unsigned i = 0, e = host.getNumArguments(); i < e; ++i) {
          auto role = host.getArgAttrOfType<StringAttr>(i, "fusion.role");
          if (role && role.getValue() == printed)
            print(b, loc, args[i], printer);
        }
      }
      for (Value memref : args)
        if (memref)
          memref::DeallocOp::create(b, loc, memref);
    }
    func::ReturnOp::create(b, loc);
  }
};
} // namespace

namespace mlir::fusion::test {
void registerTestJitMainPass() { PassRegistration<TestJitMainPass>(); }
} // namespace mlir::fusion::test
