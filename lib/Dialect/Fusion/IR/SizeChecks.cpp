//===- SizeChecks.cpp - Sizes that int64 can represent --------------------===//

#include "scheduler-opt/Dialect/Fusion/IR/SizeChecks.h"

#include "scheduler-opt/Dialect/Fusion/IR/ElementTypes.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionTypes.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::fusion;

std::optional<int64_t>
fusion::getCheckedSizeInBytes(ArrayRef<int64_t> shape,
                              ArrayRef<int64_t> strides, int64_t offset,
                              Type elementType) {
  int64_t numel = 1;
  for (int64_t size : shape)
    if (llvm::MulOverflow(numel, size, numel))
      return std::nullopt;
  if (numel == 0)
    return 0;
  int64_t last = offset;
  for (auto [size, stride] : llvm::zip(shape, strides)) {
    int64_t step;
    if (llvm::MulOverflow(size - 1, stride, step) ||
        llvm::AddOverflow(last, step, last))
      return std::nullopt;
  }
  int64_t extent, bytes;
  int64_t itemSize = getElementByteSize(elementType);
  if (llvm::AddOverflow(last, int64_t(1), extent) ||
      llvm::MulOverflow(extent, itemSize, bytes))
    return std::nullopt;
  return bytes;
}

LogicalResult
fusion::verifyBufferSize(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, ArrayRef<int64_t> strides,
                         int64_t offset, Type elementType) {
  if (getCheckedSizeInBytes(shape, strides, offset, elementType))
    return success();
  InFlightDiagnostic diag = emitError();
  diag << "buffer of shape [";
  llvm::interleaveComma(shape, diag);
  diag << "], strides [";
  llvm::interleaveComma(strides, diag);
  diag << "] and offset " << offset << " of " << elementType
       << " takes more bytes than int64 can count";
  return diag;
}

LogicalResult fusion::verifyIterationCount(Operation *op,
                                           ArrayRef<int64_t> loopSizes) {
  int64_t iterations = 1;
  for (int64_t size : loopSizes) {
    if (size < 1 || !llvm::MulOverflow(iterations, size, iterations))
      continue;
    InFlightDiagnostic diag = op->emitOpError("loop sizes [");
    llvm::interleaveComma(loopSizes, diag, [&](int64_t s) {
      if (s < 1)
        diag << "?";
      else
        diag << s;
    });
    return diag << "] make more iterations than int64 can count";
  }
  return success();
}

namespace {
/// The values an expression takes: [lo, hi].
struct Interval {
  int64_t lo, hi;
};

/// Bounds index expressions over loop ranges in checked arithmetic.
class IndexBounds {
public:
  explicit IndexBounds(ArrayRef<int64_t> dimSizes) : dimSizes(dimSizes) {}

  /// The interval of `expr`, nullopt when unbounded; sets `overflow` when a
  /// bounded subexpression leaves int64.
  std::optional<Interval> bound(AffineExpr expr) {
    if (auto c = dyn_cast<AffineConstantExpr>(expr))
      return Interval{c.getValue(), c.getValue()};
    if (auto d = dyn_cast<AffineDimExpr>(expr)) {
      unsigned pos = d.getPosition();
      if (pos >= dimSizes.size() || dimSizes[pos] < 1)
        return std::nullopt;
      return Interval{0, dimSizes[pos] - 1};
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!bin)
      return std::nullopt; // A symbol: an indirect index.
    // Both sides first, so that an overflow on either side is found even
    // when the other is unbounded.
    std::optional<Interval> lhs = bound(bin.getLHS());
    std::optional<Interval> rhs = bound(bin.getRHS());
    if (overflow)
      return std::nullopt;
    if (expr.getKind() == AffineExprKind::Mod && rhs && rhs->lo == rhs->hi &&
        rhs->lo > 0)
      return Interval{0, rhs->lo - 1};
    if (!lhs || !rhs)
      return std::nullopt;
    switch (expr.getKind()) {
    case AffineExprKind::Add: {
      Interval r;
      if (llvm::AddOverflow(lhs->lo, rhs->lo, r.lo) ||
          llvm::AddOverflow(lhs->hi, rhs->hi, r.hi))
        return fail();
      return r;
    }
    case AffineExprKind::Mul: {
      int64_t corners[4];
      if (llvm::MulOverflow(lhs->lo, rhs->lo, corners[0]) ||
          llvm::MulOverflow(lhs->lo, rhs->hi, corners[1]) ||
          llvm::MulOverflow(lhs->hi, rhs->lo, corners[2]) ||
          llvm::MulOverflow(lhs->hi, rhs->hi, corners[3]))
        return fail();
      return Interval{*std::min_element(corners, corners + 4),
                      *std::max_element(corners, corners + 4)};
    }
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv: {
      // Affine maps divide by positive constants only.
      if (rhs->lo != rhs->hi || rhs->lo <= 0)
        return std::nullopt;
      bool ceil = expr.getKind() == AffineExprKind::CeilDiv;
      auto divide = [&](int64_t v) {
        return ceil ? llvm::divideCeilSigned(v, rhs->lo)
                    : llvm::divideFloorSigned(v, rhs->lo);
      };
      return Interval{divide(lhs->lo), divide(lhs->hi)};
    }
    default:
      return std::nullopt;
    }
  }

  bool overflowed() const { return overflow; }

private:
  std::optional<Interval> fail() {
    overflow = true;
    return std::nullopt;
  }

  ArrayRef<int64_t> dimSizes;
  bool overflow = false;
};
} // namespace

LogicalResult fusion::verifyIndexRange(Operation *op, AffineMap map,
                                       ArrayRef<int64_t> dimSizes) {
  for (AffineExpr result : map.getResults()) {
    IndexBounds bounds(dimSizes);
    (void)bounds.bound(result);
    if (!bounds.overflowed())
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    result.print(os);
    return op->emitOpError("index ")
           << text << " leaves int64 over its loop ranges";
  }
  return success();
}

bool fusion::detail::addStaticBufferBytes(BufferType type, int64_t &total) {
  if (!type.hasStaticLayout())
    return true;
  std::optional<int64_t> bytes =
      getCheckedSizeInBytes(type.getShape(), type.getStrides(),
                            type.getOffset(), type.getElementType());
  return bytes && !llvm::AddOverflow(total, *bytes, total);
}

LogicalResult fusion::detail::emitTotalBytesError(Operation *graph) {
  return graph->emitOpError(
      "buffers take more bytes together than int64 can count");
}

void fusion::printSizeHints(InFlightDiagnostic &diag,
                            ArrayRef<int64_t> hints) {
  llvm::interleaveComma(llvm::seq<unsigned>(0, hints.size()), diag,
                        [&](unsigned i) {
                          diag << "s" << i << " = ";
                          if (hints[i] == kSymbolicSize)
                            diag << "?";
                          else
                            diag << hints[i];
                        });
}

int64_t fusion::saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  return llvm::AddOverflow(a, b, r) ? INT64_MAX : r;
}

int64_t fusion::saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return llvm::MulOverflow(a, b, r) ? INT64_MAX : r;
}
