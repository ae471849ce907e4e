//===- GraphGenerator.cpp - Random valid scheduling graphs ----------------===//

#include "GraphGenerator.h"
#include "SplitMix64.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallBitVector.h"

#include <map>
#include <vector>

using namespace mlir;
using namespace mlir::fusion;

namespace {

using Random = SplitMix64;

/// A buffer the generator may read: its current version.
struct BufferInfo {
  Value value;
  BufferType type;
  bool isInput = false;
  /// The buffer this one is a view of, or -1.
  int viewOf = -1;
  /// Views of this buffer.
  SmallVector<unsigned, 1> views;
  /// False once the buffer has been overwritten in place.
  bool current = true;
  /// Some node reads it.
  bool read = false;
};

/// The loops of a node under construction and the body builder.
struct NodeBuilder {
  NodeOp node;
  OpBuilder builder;
  Location loc;

  NodeBuilder(NodeOp node, Location loc)
      : node(node), builder(node.getContext()), loc(loc) {
    builder.setInsertionPoint(node.getBodyBlock().getTerminator());
  }
  Value loop(unsigned i) { return node.getBodyBlock().getArgument(i); }
  Value handle(unsigned i = 0) {
    return node.getBodyBlock().getArgument(node.getNumLoops() + i);
  }
};

class Generator {
public:
  Generator(OpBuilder &builder, Location loc,
            const GraphGeneratorOptions &options)
      : builder(builder), loc(loc), options(options), rng(options.seed),
        ctx(builder.getContext()), f32(builder.getF32Type()),
        i64(builder.getI64Type()) {}

  GraphOp run();

private:
  //===--- Shapes and buffers ---------------------------------------------===//
  SmallVector<int64_t> randomShape();
  BufferType contiguous(ArrayRef<int64_t> shape, Type element) {
    return BufferType::get(shape, element);
  }
  BufferType transposedLayout(ArrayRef<int64_t> shape, Type element);
  unsigned addInput(BufferType type);
  unsigned addBuffer(Value value, bool isInput);
  std::optional<unsigned> pickRecent(function_ref<bool(const BufferInfo &)>,
                                     bool preferUnread = true);
  void overwrite(unsigned id);
  std::optional<unsigned> pickWithShape(ArrayRef<int64_t> shape,
                                        bool floatOnly);
  unsigned pickOrCreateWithShape(ArrayRef<int64_t> shape);
  void markRead(Value buffer) {
    if (auto it = idOf.find(buffer); it != idOf.end())
      buffers[it->second].read = true;
  }
  /// Buffers created at most this many buffers ago may be read.
  unsigned window(unsigned n) const {
    return options.maxDistance == 0 ? n : std::min(n, options.maxDistance);
  }
  /// A node's buffer created longer ago than the distance allows.
  bool tooFar(unsigned id) const {
    return !buffers[id].isInput && options.maxDistance != 0 &&
           buffers.size() - id > options.maxDistance;
  }
  bool readable(const BufferInfo &info) const {
    return info.current &&
           (info.type.getElementType() == f32 ||
            info.type.getElementType() == i64);
  }

  //===--- Bodies ---------------------------------------------------------===//
  std::string nodeName() { return "op" + std::to_string(numCreated); }
  std::string bufferName() { return "buf" + std::to_string(numCreated); }
  NodeOp createNode(ArrayRef<int64_t> ranges, ArrayRef<int64_t> reduction,
                    BufferType result, Value mutated = {});
  AffineExpr layoutIndex(BufferType type, ArrayRef<AffineExpr> coords);
  std::pair<AffineMap, SmallVector<Value>> access(NodeBuilder &nb,
                                                  AffineExpr expr,
                                                  unsigned numSymbols = 0);
  Value load(NodeBuilder &nb, Value buffer, AffineExpr expr);
  Value loadF32(NodeBuilder &nb, Value buffer, AffineExpr expr);
  void store(NodeBuilder &nb, Value value, AffineExpr expr);
  Value constant(NodeBuilder &nb, double value);
  Value combine(NodeBuilder &nb, Value a, Value b);
  Value activate(NodeBuilder &nb, Value x);
  static SmallVector<AffineExpr> dims(MLIRContext *ctx, unsigned first,
                                      unsigned count);

  //===--- Node kinds -----------------------------------------------------===//
  void emitPointwise();
  void emitTransposeCopy(const BufferInfo &input);
  void emitGather();
  void emitReduction();
  void emitMutation();
  bool emitExtern();
  bool emitNop();

  OpBuilder &builder;
  Location loc;
  const GraphGeneratorOptions &options;
  Random rng;
  MLIRContext *ctx;
  Type f32, i64;
  GraphOp graph;
  SmallVector<int64_t> sizes;
  int64_t batch = 2;
  std::vector<BufferInfo> buffers;
  std::map<std::vector<int64_t>, std::vector<unsigned>> byShape;
  DenseMap<Value, unsigned> idOf;
  /// Buffers in creation order that may still be unread: preferred as
  /// operands, so that most nodes end up used, as in real graphs.
  std::vector<unsigned> unread;
  /// Unread buffers too far back to be read any more: candidates for graph
  /// outputs still.
  std::vector<unsigned> expired;
  std::vector<std::string> inputNames;
  unsigned numCreated = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Shapes and buffers
//===----------------------------------------------------------------------===//

SmallVector<int64_t> Generator::randomShape() {
  unsigned kind = rng.below(10);
  if (kind < 6)
    return {rng.pick<int64_t>(sizes), rng.pick<int64_t>(sizes)};
  if (kind < 8)
    return {batch, rng.pick<int64_t>(sizes), rng.pick<int64_t>(sizes)};
  return {rng.pick<int64_t>(sizes)};
}

BufferType Generator::transposedLayout(ArrayRef<int64_t> shape,
                                       Type element) {
  // Column-major in the last two dimensions: (..., i, j) at j * rows + i.
  SmallVector<int64_t> permuted(shape);
  unsigned rank = shape.size();
  std::swap(permuted[rank - 1], permuted[rank - 2]);
  SmallVector<int64_t> strides = BufferType::getContiguousStrides(permuted);
  std::swap(strides[rank - 1], strides[rank - 2]);
  return BufferType::get(ctx, shape, element, strides, 0);
}

unsigned Generator::addBuffer(Value value, bool isInput) {
  unsigned id = buffers.size();
  auto type = cast<BufferType>(value.getType());
  BufferInfo &info = buffers.emplace_back();
  info.value = value;
  info.type = type;
  info.isInput = isInput;
  idOf[value] = id;
  if (!isInput)
    unread.push_back(id);
  byShape[std::vector<int64_t>(type.getShape().begin(),
                               type.getShape().end())]
      .push_back(id);
  return id;
}

unsigned Generator::addInput(BufferType type) {
  Block &body = graph.getBodyBlock();
  Value arg = body.addArgument(type, loc);
  inputNames.push_back("arg" + std::to_string(inputNames.size()) + "_1");
  return addBuffer(arg, /*isInput=*/true);
}

/// Picks an unread buffer (the latest one or any), so that most nodes end
/// up used as in real graphs, else a recent buffer or any buffer, among
/// those satisfying `accept`.
std::optional<unsigned>
Generator::pickRecent(function_ref<bool(const BufferInfo &)> accept,
                      bool preferUnread) {
  unsigned roll = preferUnread ? rng.below(100) : 100;
  for (unsigned attempt = 0; roll < 90 && attempt < 8 && !unread.empty();
       ++attempt) {
    unsigned slot = roll < 50 ? unread.size() - 1 : rng.below(unread.size());
    const BufferInfo &b = buffers[unread[slot]];
    if (b.read || !b.current || tooFar(unread[slot])) {
      // Stale entry: swap-remove it.
      if (!b.read && b.current)
        expired.push_back(unread[slot]);
      unread[slot] = unread.back();
      unread.pop_back();
      continue;
    }
    if (accept(b))
      return unread[slot];
  }
  for (unsigned attempt = 0; attempt < 24; ++attempt) {
    unsigned n = buffers.size();
    unsigned id = attempt < 12 && rng.percent(70) && n > 8
                      ? n - 1 - rng.below(8)
                      : n - 1 - rng.below(window(n));
    if (accept(buffers[id]))
      return id;
  }
  for (unsigned id = buffers.size(); id > 0; --id)
    if (!tooFar(id - 1) && accept(buffers[id - 1]))
      return id - 1;
  return std::nullopt;
}

std::optional<unsigned> Generator::pickWithShape(ArrayRef<int64_t> shape,
                                                 bool floatOnly) {
  auto it = byShape.find(std::vector<int64_t>(shape.begin(), shape.end()));
  if (it == byShape.end())
    return std::nullopt;
  const std::vector<unsigned> &ids = it->second;
  for (unsigned attempt = 0; attempt < 8; ++attempt) {
    unsigned n = ids.size();
    unsigned id = rng.percent(70) ? ids[n - 1 - rng.below(std::min(n, 4u))]
                                  : ids[rng.below(n)];
    const BufferInfo &info = buffers[id];
    if (tooFar(id))
      continue;
    if (readable(info) && (!floatOnly || info.type.getElementType() == f32))
      return id;
  }
  return std::nullopt;
}

unsigned Generator::pickOrCreateWithShape(ArrayRef<int64_t> shape) {
  if (std::optional<unsigned> id = pickWithShape(shape, /*floatOnly=*/false))
    return *id;
  return addInput(contiguous(shape, f32));
}

/// Marks buffer `id` overwritten in place, with every buffer sharing its
/// storage (the buffer it views and that buffer's other views): later nodes
/// read the new version only, so no reader of an alias can need to run both
/// before and after the mutation.
void Generator::overwrite(unsigned id) {
  unsigned base = buffers[id].viewOf >= 0 ? buffers[id].viewOf : id;
  buffers[base].current = false;
  for (unsigned view : buffers[base].views)
    buffers[view].current = false;
}

//===----------------------------------------------------------------------===//
// Bodies
//===----------------------------------------------------------------------===//

NodeOp Generator::createNode(ArrayRef<int64_t> ranges,
                             ArrayRef<int64_t> reduction, BufferType result,
                             Value mutated) {
  std::string name = nodeName(), buffer = bufferName();
  SmallVector<Value> mutatedValues;
  SmallVector<int64_t> tied = {-1};
  if (mutated) {
    mutatedValues.push_back(mutated);
    tied = {0};
  }
  return NodeOp::create(builder, loc, name, ranges, reduction,
                        ArrayRef<Type>{result}, ArrayRef<StringRef>{buffer},
                        mutatedValues, tied);
}

SmallVector<AffineExpr> Generator::dims(MLIRContext *ctx, unsigned first,
                                        unsigned count) {
  SmallVector<AffineExpr> result;
  for (unsigned i = 0; i < count; ++i)
    result.push_back(getAffineDimExpr(first + i, ctx));
  return result;
}

/// The flat storage offset of the element at `coords` (one expression per
/// dimension of `type`).
AffineExpr Generator::layoutIndex(BufferType type,
                                  ArrayRef<AffineExpr> coords) {
  AffineExpr index = getAffineConstantExpr(type.getOffset(), ctx);
  for (auto [coord, stride] : llvm::zip(coords, type.getStrides()))
    index = index + coord * stride;
  return index;
}

/// Turns an index over the node's loops (dimension i = loop i) into a map
/// over the loop variables it uses, in loop order (the printed form).
std::pair<AffineMap, SmallVector<Value>>
Generator::access(NodeBuilder &nb, AffineExpr expr, unsigned numSymbols) {
  unsigned numLoops = nb.node.getNumLoops();
  expr = simplifyAffineExpr(expr, numLoops, numSymbols);
  llvm::SmallBitVector used(numLoops);
  expr.walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      used.set(dim.getPosition());
  });
  SmallVector<AffineExpr> replacement(numLoops, getAffineConstantExpr(0, ctx));
  SmallVector<Value> operands;
  for (unsigned i = 0; i < numLoops; ++i) {
    if (!used.test(i))
      continue;
    replacement[i] = getAffineDimExpr(operands.size(), ctx);
    operands.push_back(nb.loop(i));
  }
  return {AffineMap::get(operands.size(), numSymbols,
                         expr.replaceDims(replacement)),
          operands};
}

Value Generator::load(NodeBuilder &nb, Value buffer, AffineExpr expr) {
  markRead(buffer);
  auto [map, operands] = access(nb, expr);
  return LoadOp::create(nb.builder, loc, buffer, operands, map);
}

/// Loads an element and converts it to f32 when the buffer holds integers.
Value Generator::loadF32(NodeBuilder &nb, Value buffer, AffineExpr expr) {
  Value value = load(nb, buffer, expr);
  if (value.getType() != f32)
    value = CastOp::create(nb.builder, loc, f32, value);
  return value;
}

void Generator::store(NodeBuilder &nb, Value value, AffineExpr expr) {
  auto [map, operands] = access(nb, expr);
  StoreOp::create(nb.builder, loc, value, nb.handle(), operands, map,
                  StoreModeAttr());
}

Value Generator::constant(NodeBuilder &nb, double value) {
  return arith::ConstantOp::create(nb.builder, loc,
                                   nb.builder.getF32FloatAttr(value));
}

/// A bounded binary combination: the average, a product of values in
/// [-1, 1] after tanh, or the larger of the two.
Value Generator::combine(NodeBuilder &nb, Value a, Value b) {
  switch (rng.below(3)) {
  case 0: {
    Value sum = arith::AddFOp::create(nb.builder, loc, a, b);
    return arith::MulFOp::create(nb.builder, loc, sum, constant(nb, 0.5));
  }
  case 1: {
    // One op per statement: the order of a call's arguments is the
    // compiler's, and the ops' order in the graph must not be.
    Value tanhB = math::TanhOp::create(nb.builder, loc, b);
    Value tanhA = math::TanhOp::create(nb.builder, loc, a);
    return arith::MulFOp::create(nb.builder, loc, tanhA, tanhB);
  }
  default:
    return arith::MaximumFOp::create(nb.builder, loc, a, b);
  }
}

/// A bounded unary activation.
Value Generator::activate(NodeBuilder &nb, Value x) {
  switch (rng.below(5)) {
  case 0:
    return math::TanhOp::create(nb.builder, loc, x);
  case 1:
    return arith::MaximumFOp::create(nb.builder, loc, x, constant(nb, 0.0));
  case 2:
    return arith::NegFOp::create(nb.builder, loc, x);
  case 3: {
    // exp(-|x|), in (0, 1].
    Value abs = math::AbsFOp::create(nb.builder, loc, x);
    return math::ExpOp::create(nb.builder, loc,
                               arith::NegFOp::create(nb.builder, loc, abs));
  }
  default: {
    Value quarter = constant(nb, 0.25);
    Value half = arith::MulFOp::create(nb.builder, loc, x, constant(nb, 0.5));
    return arith::AddFOp::create(nb.builder, loc, half, quarter);
  }
  }
}

//===----------------------------------------------------------------------===//
// Node kinds
//===----------------------------------------------------------------------===//

/// An elementwise kernel over the shape of a recent buffer, reading it and
/// up to two more buffers of the same shape or broadcast along rows or
/// columns; sometimes with a padding shift under a mask or an iota term.
void Generator::emitPointwise() {
  // Scalars (rank 0) are mostly read as broadcast operands, not iterated.
  bool allowScalar = rng.percent(5);
  std::optional<unsigned> picked = pickRecent([&](const BufferInfo &b) {
    return readable(b) && (allowScalar || b.type.getRank() >= 1);
  });
  // With --max-distance=1 the one buffer in reach may be a scalar, and
  // every input may have been updated in place (no longer current): then
  // a scalar, else a new input.
  if (!picked && !allowScalar)
    picked = pickRecent([&](const BufferInfo &b) { return readable(b); });
  unsigned primary =
      picked ? *picked : addInput(contiguous(randomShape(), f32));
  BufferInfo input = buffers[primary];
  ArrayRef<int64_t> shape = input.type.getShape();
  unsigned rank = shape.size();
  if (rank >= 2 && rng.percent(12))
    return emitTransposeCopy(input);

  BufferType resultType = rank >= 2 && rng.percent(10)
                              ? transposedLayout(shape, f32)
                              : contiguous(shape, f32);
  NodeOp node = createNode(shape, {}, resultType);
  NodeBuilder nb(node, loc);
  SmallVector<AffineExpr> coords = dims(ctx, 0, rank);
  Value value = loadF32(nb, input.value, layoutIndex(input.type, coords));

  unsigned extra = rng.below(3);
  for (unsigned e = 0; e < extra; ++e) {
    unsigned kind = rng.below(10);
    Value other;
    if (kind < 5 || rank <= 1) {
      unsigned id = pickOrCreateWithShape(shape);
      other = loadF32(nb, buffers[id].value,
                      layoutIndex(buffers[id].type, coords));
    } else if (kind == 5 || kind == 6) {
      // A scalar (a full reduction such as a norm or a loss) read at 0.
      std::optional<unsigned> id = pickRecent([&](const BufferInfo &b) {
        return readable(b) && b.type.getRank() == 0;
      });
      if (!id)
        continue;
      other = loadF32(nb, buffers[*id].value,
                      getAffineConstantExpr(buffers[*id].type.getOffset(), ctx));
    } else if (kind < 9) {
      // Broadcast along rows: a bias over the last dimension.
      unsigned id = pickOrCreateWithShape(shape.take_back());
      other = loadF32(nb, buffers[id].value,
                      layoutIndex(buffers[id].type, coords.back()));
    } else {
      // Broadcast along the last dimension: per-row statistics.
      unsigned id = pickOrCreateWithShape(shape.drop_back());
      other = loadF32(nb, buffers[id].value,
                      layoutIndex(buffers[id].type,
                                  ArrayRef(coords).drop_back()));
    }
    value = combine(nb, value, other);
  }

  if (rank >= 1 && shape.back() > 1 && rng.percent(8)) {
    // Padding: the previous element along the last dimension, 0 at 0.
    AffineExpr last = coords.back();
    Value position = IndexExprOp::create(
        nb.builder, loc, i64, ValueRange{nb.loop(rank - 1)},
        AffineMap::get(1, 0, getAffineDimExpr(0, ctx)));
    Value one = arith::ConstantOp::create(nb.builder, loc,
                                          nb.builder.getI64IntegerAttr(1));
    Value inBounds = arith::CmpIOp::create(
        nb.builder, loc, arith::CmpIPredicate::sge, position, one);
    auto masked =
        MaskedOp::create(nb.builder, loc, f32, inBounds, constant(nb, 0.0));
    Block &region = masked.getBody().emplaceBlock();
    {
      OpBuilder::InsertionGuard guard(nb.builder);
      nb.builder.setInsertionPointToEnd(&region);
      SmallVector<AffineExpr> shifted(coords);
      shifted.back() = last - 1;
      Value previous = loadF32(nb, input.value,
                               layoutIndex(input.type, shifted));
      YieldOp::create(nb.builder, loc, ValueRange{previous});
    }
    value = combine(nb, value, masked.getResult());
  }
  if (rng.percent(6)) {
    // An iota term: the flat position of the element, scaled down.
    auto [map, operands] = access(
        nb, layoutIndex(contiguous(shape, f32), coords));
    Value position = IndexExprOp::create(nb.builder, loc, i64, operands, map);
    Value asFloat = CastOp::create(nb.builder, loc, f32, position);
    value = arith::AddFOp::create(
        nb.builder, loc, value,
        arith::MulFOp::create(nb.builder, loc, asFloat, constant(nb, 1e-4)));
  }
  value = activate(nb, value);
  store(nb, value, layoutIndex(resultType, coords));
  addBuffer(node.getResult(0), false);
}

/// `x.t().contiguous()`: iterates the transposed shape and reads the input
/// across its rows.
void Generator::emitTransposeCopy(const BufferInfo &input) {
  ArrayRef<int64_t> shape = input.type.getShape();
  unsigned rank = shape.size();
  SmallVector<int64_t> transposed(shape);
  std::swap(transposed[rank - 1], transposed[rank - 2]);
  BufferType resultType = contiguous(transposed, f32);
  NodeOp node = createNode(transposed, {}, resultType);
  NodeBuilder nb(node, loc);
  SmallVector<AffineExpr> coords = dims(ctx, 0, rank);
  SmallVector<AffineExpr> inputCoords(coords);
  std::swap(inputCoords[rank - 1], inputCoords[rank - 2]);
  Value value = loadF32(nb, input.value, layoutIndex(input.type, inputCoords));
  store(nb, activate(nb, value), layoutIndex(resultType, coords));
  addBuffer(node.getResult(0), false);
}

/// An embedding lookup: rows of a table chosen by loaded integer ids, read
/// only where the id is in range.
void Generator::emitGather() {
  int64_t tokens = rng.pick<int64_t>(sizes);
  int64_t rows = rng.pick<int64_t>(sizes), width = rng.pick<int64_t>(sizes);
  unsigned ids = pickWithShape({tokens}, /*floatOnly=*/false)
                     .value_or(~0u);
  if (ids == ~0u || buffers[ids].type.getElementType() != i64)
    ids = addInput(contiguous({tokens}, i64));
  unsigned table = pickOrCreateWithShape({rows, width});
  BufferInfo tableInfo = buffers[table];

  BufferType resultType = contiguous({tokens, width}, f32);
  NodeOp node = createNode({tokens, width}, {}, resultType);
  NodeBuilder nb(node, loc);
  AffineExpr p0 = getAffineDimExpr(0, ctx), p1 = getAffineDimExpr(1, ctx);
  Value id = load(nb, buffers[ids].value, layoutIndex(buffers[ids].type, p0));
  Value zero = arith::ConstantOp::create(nb.builder, loc,
                                         nb.builder.getI64IntegerAttr(0));
  Value limit = arith::ConstantOp::create(nb.builder, loc,
                                          nb.builder.getI64IntegerAttr(rows));
  Value belowLimit = arith::CmpIOp::create(
      nb.builder, loc, arith::CmpIPredicate::slt, id, limit);
  Value nonNegative = arith::CmpIOp::create(
      nb.builder, loc, arith::CmpIPredicate::sge, id, zero);
  Value inBounds =
      arith::AndIOp::create(nb.builder, loc, nonNegative, belowLimit);
  Value row = arith::IndexCastOp::create(nb.builder, loc,
                                         nb.builder.getIndexType(), id);
  auto masked =
      MaskedOp::create(nb.builder, loc, f32, inBounds, constant(nb, 0.0));
  Block &region = masked.getBody().emplaceBlock();
  {
    OpBuilder::InsertionGuard guard(nb.builder);
    nb.builder.setInsertionPointToEnd(&region);
    AffineExpr index = layoutIndex(
        tableInfo.type, {getAffineSymbolExpr(0, ctx), p1});
    auto [map, operands] = access(nb, index, /*numSymbols=*/1);
    operands.push_back(row);
    markRead(tableInfo.value);
    Value value = LoadOp::create(nb.builder, loc, tableInfo.value, operands,
                                 map);
    if (value.getType() != f32)
      value = CastOp::create(nb.builder, loc, f32, value);
    YieldOp::create(nb.builder, loc, ValueRange{value});
  }
  store(nb, masked.getResult(), layoutIndex(resultType, {p0, p1}));
  addBuffer(node.getResult(0), false);
}

/// A reduction of a recent buffer over its last dimension (a row
/// reduction), its first (a column reduction) or, in 3-D, its middle one.
void Generator::emitReduction() {
  // Full reductions to a scalar are rarer than reductions of one dimension.
  unsigned minRank = rng.percent(15) ? 1 : 2;
  std::optional<unsigned> id = pickRecent([&](const BufferInfo &b) {
    return readable(b) && b.type.getRank() >= minRank;
  });
  if (!id)
    return emitPointwise();
  BufferInfo input = buffers[*id];
  ArrayRef<int64_t> shape = input.type.getShape();
  unsigned rank = shape.size();
  unsigned reduced = rank - 1;
  if (rank == 2 && rng.percent(30))
    reduced = 0;
  else if (rank == 3 && rng.percent(30))
    reduced = 1;
  SmallVector<int64_t> kept;
  for (unsigned d = 0; d < rank; ++d)
    if (d != reduced)
      kept.push_back(shape[d]);

  // Loops: the kept dimensions in order, then the reduced one.
  SmallVector<AffineExpr> coords(rank);
  for (unsigned d = 0, k = 0; d < rank; ++d)
    coords[d] = getAffineDimExpr(d == reduced ? rank - 1 : k++, ctx);

  unsigned kind = rng.below(20);
  bool argmax = kind >= 18;
  BufferType resultType = contiguous(kept, argmax ? i64 : f32);
  NodeOp node = createNode(kept, {shape[reduced]}, resultType);
  NodeBuilder nb(node, loc);
  Value value = loadF32(nb, input.value, layoutIndex(input.type, coords));
  if (rng.percent(30)) {
    value = arith::MulFOp::create(nb.builder, loc, value, value);
  } else if (rng.percent(25)) {
    unsigned other = pickOrCreateWithShape(shape);
    value = arith::MulFOp::create(
        nb.builder, loc, value,
        math::TanhOp::create(nb.builder, loc,
                             loadF32(nb, buffers[other].value,
                                     layoutIndex(buffers[other].type,
                                                 coords))));
  }

  Value result;
  if (kind < 8) {
    // A mean: the sum scaled by the reduction size.
    Value sum = ReduceOp::create(nb.builder, loc, TypeRange{f32},
                                 ReduceKindAttr::get(ctx, ReduceKind::Sum),
                                 ValueRange{value})
                    .getResult(0);
    result = arith::MulFOp::create(nb.builder, loc, sum,
                                   constant(nb, 1.0 / shape[reduced]));
  } else if (kind < 12) {
    result = ReduceOp::create(nb.builder, loc, TypeRange{f32},
                              ReduceKindAttr::get(ctx, ReduceKind::Max),
                              ValueRange{value})
                 .getResult(0);
  } else if (kind < 14) {
    result = ReduceOp::create(nb.builder, loc, TypeRange{f32},
                              ReduceKindAttr::get(ctx, ReduceKind::Min),
                              ValueRange{value})
                 .getResult(0);
  } else if (!argmax) {
    auto welford = ReduceOp::create(
        nb.builder, loc, TypeRange{f32, f32, f32},
        ReduceKindAttr::get(ctx, ReduceKind::WelfordReduce),
        ValueRange{value});
    result = welford.getResult(rng.below(2));
  } else {
    result = ReduceOp::create(nb.builder, loc, TypeRange{i64},
                              ReduceKindAttr::get(ctx, ReduceKind::ArgMax),
                              ValueRange{value})
                 .getResult(0);
  }
  SmallVector<AffineExpr> outCoords = dims(ctx, 0, kept.size());
  store(nb, result, layoutIndex(resultType, outCoords));
  addBuffer(node.getResult(0), false);
}

/// An in-place update (an optimizer step on a graph input, an in-place
/// activation on an intermediate): the result is a new version of the
/// buffer, which replaces it for every later reader.
void Generator::emitMutation() {
  // Mostly buffers that nodes already read (their readers must run first),
  // half of them graph inputs (optimizer state), some of them views.
  bool preferInput = rng.percent(50);
  auto mutable_ = [&](const BufferInfo &b, bool requireRead) {
    return b.current && b.type.getRank() >= 1 &&
           b.type.getElementType() == f32 && b.isInput == preferInput &&
           (b.read || !requireRead);
  };
  std::optional<unsigned> target;
  for (unsigned attempt = 0; attempt < 4 && !target; ++attempt) {
    if (attempt == 2)
      preferInput = !preferInput;
    bool requireRead = attempt % 2 == 0;
    target = pickRecent(
        [&](const BufferInfo &b) { return mutable_(b, requireRead); },
        /*preferUnread=*/false);
  }
  if (!target)
    return emitPointwise();
  BufferInfo old = buffers[*target];
  ArrayRef<int64_t> shape = old.type.getShape();
  NodeOp node = createNode(shape, {}, old.type, old.value);
  NodeBuilder nb(node, loc);
  SmallVector<AffineExpr> coords = dims(ctx, 0, shape.size());
  AffineExpr index = layoutIndex(old.type, coords);
  Value value = load(nb, old.value, index);
  if (rng.percent(60)) {
    unsigned id = pickOrCreateWithShape(shape);
    Value update =
        loadF32(nb, buffers[id].value, layoutIndex(buffers[id].type, coords));
    value = arith::SubFOp::create(
        nb.builder, loc, value,
        arith::MulFOp::create(nb.builder, loc, update, constant(nb, 0.1)));
  } else {
    value = arith::MaximumFOp::create(nb.builder, loc, value,
                                      constant(nb, 0.0));
  }
  store(nb, value, index);
  overwrite(*target);
  addBuffer(node.getResult(0), false);
}

/// A library kernel: a matmul with a weight input, a kernel with several
/// outputs and their extractors, a side-effecting call, or an in-place
/// update. Returns false when the graph has no suitable operand.
bool Generator::emitExtern() {
  unsigned kind = rng.below(20);
  std::optional<unsigned> matrix = pickRecent([&](const BufferInfo &b) {
    return readable(b) && b.type.getRank() == 2 &&
           b.type.getElementType() == f32;
  });
  if (!matrix)
    return false;
  BufferInfo a = buffers[*matrix];
  markRead(a.value);
  int64_t rows = a.type.getShape()[0], inner = a.type.getShape()[1];
  unsigned remaining = options.numNodes - numCreated;

  if (kind < 15) {
    int64_t cols = rng.pick<int64_t>(sizes);
    Value weight = buffers[addInput(contiguous({inner, cols}, f32))].value;
    BufferType resultType = contiguous({rows, cols}, f32);
    std::string name = nodeName(), buffer = bufferName();
    ExternOp op;
    if (kind < 10) {
      op = ExternOp::create(builder, loc, name, "extern_kernels.mm",
                            ValueRange{a.value, weight},
                            ArrayRef<Type>{resultType},
                            ArrayRef<StringRef>{buffer});
    } else {
      Value bias = buffers[addInput(contiguous({cols}, f32))].value;
      op = ExternOp::create(builder, loc, name, "extern_kernels.addmm",
                            ValueRange{bias, a.value, weight},
                            ArrayRef<Type>{resultType},
                            ArrayRef<StringRef>{buffer});
    }
    addBuffer(op.getResult(0), false);
    return true;
  }
  if (kind < 17 && remaining >= 3) {
    std::string name = nodeName(), buffer = bufferName();
    auto multi = ExternOp::create(
        builder, loc, name, "aten.var_mean.correction", ValueRange{a.value},
        ArrayRef<Type>{MultiOutputType::get(ctx)},
        ArrayRef<StringRef>{buffer});
    for (int64_t index = 0; index < 2; ++index) {
      ++numCreated;
      std::string partName = nodeName(), partBuffer = bufferName();
      auto part = ExternOp::create(
          builder, loc, partName, "multi_output", ValueRange{multi.getResult(0)},
          ArrayRef<Type>{contiguous({rows}, f32)},
          ArrayRef<StringRef>{partBuffer});
      part->setAttr("index", builder.getI64IntegerAttr(index));
      addBuffer(part.getResult(0), false);
    }
    return true;
  }
  if (kind < 18) {
    ExternOp::create(builder, loc, nodeName(), "aten._assert_async.msg",
                     ValueRange{a.value}, ArrayRef<Type>{},
                     ArrayRef<StringRef>{}, ArrayRef<int64_t>{},
                     /*sideEffects=*/true);
    return true;
  }
  // An in-place library update of a buffer of the operand's type.
  std::optional<unsigned> target = pickRecent([&](const BufferInfo &b) {
    return b.current && b.type == a.type && b.value != a.value;
  });
  if (!target)
    return false;
  Value old = buffers[*target].value;
  auto op = ExternOp::create(builder, loc, nodeName(), "aten.add_",
                             ValueRange{old, a.value},
                             ArrayRef<Type>{a.type},
                             ArrayRef<StringRef>{bufferName()},
                             ArrayRef<int64_t>{0});
  overwrite(*target);
  addBuffer(op.getResult(0), false);
  return true;
}

/// A view: a contiguous buffer seen flattened (Inductor's reshape of a
/// contiguous tensor, which computes nothing).
bool Generator::emitNop() {
  std::optional<unsigned> id = pickRecent([&](const BufferInfo &b) {
    return readable(b) && b.type.getRank() >= 2 && b.type.isContiguous() &&
           b.type.getOffset() == 0;
  });
  if (!id)
    return false;
  BufferInfo &input = buffers[*id];
  markRead(input.value);
  BufferType viewType =
      contiguous({*input.type.getNumElements()}, input.type.getElementType());
  auto nop = NopOp::create(builder, loc, TypeRange{viewType}, nodeName(),
                           builder.getStrArrayAttr({bufferName()}),
                           ValueRange{input.value}, /*input_offsets=*/nullptr);
  unsigned view = addBuffer(nop.getResult(0), false);
  buffers[view].viewOf = *id;
  buffers[*id].views.push_back(view);
  return true;
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

GraphOp Generator::run() {
  int64_t maxDim = std::max<int64_t>(4, options.maxDim);
  for (int64_t size = 4; size <= maxDim; size *= 2)
    sizes.push_back(size);
  if (options.oddSizes)
    for (int64_t size : {1, 3, 5, 7, 13, 17, 31, 63})
      if (size <= maxDim)
        sizes.push_back(size);
  // A few sizes per graph, so that shapes repeat as in real models.
  while (sizes.size() > 3)
    sizes.erase(sizes.begin() + rng.below(sizes.size()));
  batch = rng.percent(50) ? 2 : 4;
  if (options.oddSizes && rng.percent(50))
    batch = rng.percent(50) ? 1 : 3;

  graph = GraphOp::create(builder, loc, options.name, ArrayRef<Type>{},
                          ArrayRef<StringRef>{}, ArrayRef<Type>{}, "cuda:0");
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&graph.getBodyBlock());

  unsigned numInputs = 2 + options.numNodes / 40;
  for (unsigned i = 0; i < numInputs; ++i)
    addInput(contiguous(randomShape(), f32));

  while (numCreated < options.numNodes) {
    unsigned roll = rng.below(100);
    unsigned threshold = options.reductionPercent;
    if (roll < threshold) {
      emitReduction();
    } else if (roll < (threshold += options.externPercent)) {
      if (!emitExtern())
        emitPointwise();
    } else if (roll < (threshold += options.nopPercent)) {
      if (!emitNop())
        emitPointwise();
    } else if (roll < (threshold += options.mutationPercent)) {
      emitMutation();
    } else if (rng.percent(6)) {
      emitGather();
    } else {
      emitPointwise();
    }
    ++numCreated;
  }

  // Outputs: the last buffer produced, then most buffers nothing reads (the
  // values a model returns), then others among the current ones up to the
  // requested number.
  SmallVector<Value> outputs;
  llvm::SmallDenseSet<Value, 16> chosen;
  auto addOutput = [&](const BufferInfo &b) {
    if (b.current && !b.isInput && chosen.insert(b.value).second)
      outputs.push_back(b.value);
  };
  unsigned numOutputs = options.numOutputs
                            ? options.numOutputs
                            : std::max(1u, options.numNodes / 25);
  for (unsigned id = buffers.size(); id > 0 && outputs.empty(); --id)
    addOutput(buffers[id - 1]);
  // Most buffers nothing reads are returned; the others are dead code.
  for (const std::vector<unsigned> *list : {&expired, &unread})
    for (unsigned id : *list)
      if (!buffers[id].read && rng.percent(85))
        addOutput(buffers[id]);
  for (unsigned attempt = 0;
       !outputs.empty() && outputs.size() < numOutputs &&
       attempt < 4 * numOutputs;
       ++attempt)
    addOutput(buffers[rng.below(buffers.size())]);
  OutputOp::create(builder, loc, outputs);

  SmallVector<Type> inputTypes(graph.getBodyBlock().getArgumentTypes());
  graph.setFunctionTypeAttr(TypeAttr::get(
      builder.getFunctionType(inputTypes, ValueRange(outputs).getTypes())));
  SmallVector<StringRef> names(inputNames.begin(), inputNames.end());
  graph.setInputNamesAttr(builder.getStrArrayAttr(names));

  if (options.shuffle) {
    // Fisher-Yates over the nodes, then rebuild the block in that order.
    SmallVector<Operation *> nodes;
    for (Operation &op : graph.getBodyBlock().without_terminator())
      nodes.push_back(&op);
    for (size_t i = nodes.size(); i > 1; --i)
      std::swap(nodes[i - 1], nodes[rng.below(i)]);
    Operation *terminator = graph.getBodyBlock().getTerminator();
    for (Operation *op : nodes)
      op->moveBefore(terminator);
  }
  return graph;
}

GraphOp mlir::fusion::generateGraph(OpBuilder &builder, Location loc,
                                    const GraphGeneratorOptions &options) {
  return Generator(builder, loc, options).run();
}

OwningOpRef<ModuleOp>
mlir::fusion::generateGraphModule(MLIRContext *context,
                                  const GraphGeneratorOptions &options) {
  context->loadDialect<FusionDialect, arith::ArithDialect,
                       math::MathDialect>();
  OpBuilder builder(context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  generateGraph(builder, loc, options);
  return module;
}
