//===- ImportOpaqueOps.cpp - Operations kept by name ----------------------===//
//
// Translators of the operations that become fusion.opaque: special
// functions, frexp, random numbers, scan, sort, bucketize, device asserts,
// dot, inline assembly, halide_clamp.
//
//===----------------------------------------------------------------------===//

#include "CreateOp.h"
#include "ImportInductorImpl.h"

#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionScanOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

void BodyImporter::setResults(BodyValue &result, ValueRange values,
                              bool tuple) {
  if (values.size() == 1 && !tuple) {
    result.kind = BodyValue::Scalar;
    result.value = values.front();
    return;
  }
  result.kind = values.empty() ? BodyValue::Nothing : BodyValue::Tuple;
  result.tuple.assign(values.begin(), values.end());
}

OpaqueOp BodyImporter::createOpaque(const OpCall &c, ValueRange operands,
                                    TypeRange results,
                                    ArrayRef<NamedAttribute> attrs) {
  auto op = createOp<OpaqueOp>(
      builder, loc(c.stmt.loc),
      llvm::map_to_vector(results, BufferType::getValueTypeOf),
      builder.getStringAttr(c.name), operands);
  for (NamedAttribute attr : attrs)
    op->setAttr(attr.getName(), attr.getValue());
  for (auto [result, type] : llvm::zip(op.getResults(), results))
    setTorchType(result, type);
  setResults(c.result, op.getResults());
  return op;
}

FailureOr<bool> BodyImporter::boolArg(const PyValue *arg) {
  if (arg->isName("True"))
    return true;
  if (arg->isName("False"))
    return false;
  return error(arg->loc()) << "expected True or False, found " << arg->text;
}

LogicalResult BodyImporter::translateSpecial(const OpCall &c,
                                             const OpDef &def) {
  unsigned arity = def.arity;
  FailureOr<SmallVector<Value, 3>> args = scalarArgs(c, arity);
  if (failed(args))
    return failure();
  Type type = (*args)[0].getType();
  for (Value v : *args)
    type = promote(type, v.getType());
  createOpaque(c, *args, floatTypeFor(type));
  return success();
}

LogicalResult BodyImporter::translateFrexp(const OpCall &c, const OpDef &def) {
  FailureOr<Value> x = unaryOperand(c);
  if (failed(x))
    return failure();
  Location l = loc(c.stmt.loc);
  Type type = floatTypeFor(x->getType());
  createOpaque(c, convert(*x, type, l), {type, builder.getI32Type()});
  return success();
}

LogicalResult BodyImporter::translateRandom(const OpCall &c, const OpDef &def) {
  // randn(seed, offset), randint64(seed, offset, low, high),
  // rand_eager(seed, base_offset, threads_per_round, tid, vec).
  unsigned arity = c.name == "randn" ? 2 : c.name == "randint64" ? 4 : 5;
  FailureOr<SmallVector<Value, 3>> args = scalarArgs(c, arity);
  if (failed(args))
    return failure();
  Type result = c.name == "randint64" ? Type(builder.getI64Type())
                                      : Type(builder.getF32Type());
  createOpaque(c, *args, result);
  return success();
}

LogicalResult BodyImporter::translateDot(const OpCall &c, const OpDef &def) {
  FailureOr<std::pair<Value, Value>> xy = binaryOperands(c);
  if (failed(xy))
    return failure();
  createOpaque(c, {xy->first, xy->second},
               promote(torchType(xy->first), torchType(xy->second)));
  return success();
}

/// Reads `(torch.float32, torch.int64)` into types.
FailureOr<SmallVector<Type>> BodyImporter::dtypeTuple(const PyValue *arg) {
  if (arg->kind != PyValue::Kind::Tuple)
    return error(arg->loc())
           << "expected a tuple of dtypes, found " << arg->text;
  SmallVector<Type> types;
  for (const PyValue *e : arg->elements) {
    FailureOr<Type> t = dtypeArg(e);
    if (failed(t))
      return failure();
    types.push_back(*t);
  }
  return types;
}

/// Reads `(a, b)` into values converted to `types`.
FailureOr<SmallVector<Value>> BodyImporter::valueTuple(const PyValue *arg,
                                                       BodyEnv &env,
                                                       TypeRange types,
                                                       Location l) {
  if (arg->kind != PyValue::Kind::Tuple || arg->elements.size() != types.size())
    return error(arg->loc()) << "expected a tuple of " << types.size()
                             << " values, found " << arg->text;
  SmallVector<Value> values;
  for (auto [e, type] : llvm::zip(arg->elements, types)) {
    FailureOr<Value> v = scalar(e, env);
    if (failed(v))
      return failure();
    values.push_back(convert(*v, type, l));
  }
  return values;
}

LogicalResult BodyImporter::translateScan(const DumpStmt &stmt,
                                          StringRef module, const PyValue &call,
                                          BodyEnv &env, BodyValue &result) {
  if (failed(expectArgs(call, 2, 2)))
    return failure();
  FailureOr<SmallVector<Type>> types = dtypeTuple(call.elements[0]);
  if (failed(types))
    return failure();
  Location l = loc(stmt.loc);
  FailureOr<SmallVector<Value>> values =
      valueTuple(call.elements[1], env, *types, l);
  if (failed(values))
    return failure();
  // The combine function is Python code Inductor's dump does not print;
  // the torch.compile backend adds it as `def <module>_combine_fn(self,
  // ops, <partial tuple>, <current tuple>):`. Without it the region stays
  // empty and only the submodule's name identifies the scan.
  SmallVector<Type> valueTypes =
      llvm::map_to_vector(*types, BufferType::getValueTypeOf);
  auto op = createOp<ScanOp>(builder, l, valueTypes,
                             builder.getStringAttr(module), *values);
  if (const DumpBlock *combine =
          blocks.lookup((module + "_combine_fn").str())) {
    Block *block = new Block();
    op.getCombine().push_back(block);
    SmallVector<Value> params;
    for (unsigned side = 0; side < 2; ++side)
      for (auto [type, torchType] : llvm::zip(valueTypes, *types))
        params.push_back(setTorchType(block->addArgument(type, l), torchType));
    usedCombineFns.insert(module);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block);
    BodyValue returned;
    if (failed(translateBlock(*combine, returned, params)))
      return failure();
    if (returned.kind != BodyValue::Tuple ||
        returned.tuple.size() != valueTypes.size())
      return error(combine->loc)
             << "combine function '" << combine->name << "' must return a "
             << "tuple of " << valueTypes.size() << " values";
    SmallVector<Value> yielded;
    for (auto [v, torchType] : llvm::zip(returned.tuple, *types))
      yielded.push_back(convert(v, torchType, l));
    createOp<ScanYieldOp>(builder, l, yielded);
  }
  for (auto [result, type] : llvm::zip(op.getResults(), *types))
    setTorchType(result, type);
  setResults(result, op.getResults(), /*tuple=*/true);
  return success();
}

LogicalResult BodyImporter::translateSort(const OpCall &c, const OpDef &def) {
  if (failed(expectArgs(c.call, 4, 4)))
    return failure();
  FailureOr<SmallVector<Type>> types = dtypeTuple(c.call.elements[0]);
  if (failed(types))
    return failure();
  Location l = loc(c.stmt.loc);
  FailureOr<SmallVector<Value>> values =
      valueTuple(c.call.elements[1], c.env, *types, l);
  if (failed(values))
    return failure();
  FailureOr<bool> stable = boolArg(c.call.elements[2]);
  if (failed(stable))
    return failure();
  FailureOr<bool> descending = boolArg(c.call.elements[3]);
  if (failed(descending))
    return failure();
  // The lowering orders integers as signed: unsigned keys are sorted with
  // their sign bit flipped, and flipped back.
  Value key = values->front();
  bool flip = isUnsigned(key) && !key.getType().isInteger(1);
  if (flip)
    (*values)[0] = flipSignBit(builder, l, key);
  OpaqueOp op = createOpaque(
      c, *values, *types,
      {builder.getNamedAttr("stable", builder.getBoolAttr(*stable)),
       builder.getNamedAttr("descending", builder.getBoolAttr(*descending))});
  SmallVector<Value> results(op.getResults());
  if (flip)
    results[0] = setTorchType(flipSignBit(builder, l, results[0]),
                              types->front());
  setResults(c.result, results, /*tuple=*/true);
  return success();
}

/// `('buf0', get_index_1, ...)`: a buffer read whole and index values.
LogicalResult BodyImporter::bufferAndIndices(const PyValue *arg, BodyEnv &env,
                                             unsigned numIndices,
                                             SmallVectorImpl<Value> &out) {
  if (arg->kind != PyValue::Kind::Tuple ||
      arg->elements.size() != numIndices + 1)
    return error(arg->loc()) << "expected a tuple of a buffer name and "
                             << numIndices << " indices, found " << arg->text;
  FailureOr<Value> buffer = readBuffer(arg->elements[0], "bucketize");
  if (failed(buffer))
    return failure();
  out.push_back(*buffer);
  for (const PyValue *e : ArrayRef(arg->elements).drop_front()) {
    FailureOr<unsigned> index = indexRef(e, env);
    if (failed(index))
      return failure();
    FailureOr<Value> v =
        indexValue(*index, e->loc(), builder.getIndexType(), loc(e->loc()));
    if (failed(v))
      return failure();
    out.push_back(*v);
  }
  return success();
}

/// bucketize's boundary_indices and sorter_indices: a value of the body,
/// or, as Inductor's lowering passes for one-dimensional boundaries, the
/// integer literal itself (`ops.bucketize(load, ('arg1_1', ...), 0, ...)`),
/// taken as an int64 constant like the body's `ops.constant(0, torch.int64)`.
FailureOr<Value> BodyImporter::indexOperand(const PyValue *arg,
                                            BodyEnv &env) {
  if (arg->kind == PyValue::Kind::Int)
    return literal(arg, builder.getI64Type());
  return scalar(arg, env);
}

LogicalResult BodyImporter::translateBucketize(const OpCall &c,
                                               const OpDef &def) {
  // bucketize(values, (name, size, offset, stride), boundary_indices,
  //           indexing_dtype, right, sorter=None, sorter_indices=None)
  if (failed(expectArgs(c.call, 5, 7, {"sorter", "sorter_indices"})))
    return failure();
  SmallVector<const PyValue *, 7> args(c.call.elements.begin(),
                                       c.call.elements.end());
  args.resize(7, nullptr);
  for (auto &[key, value] : c.call.keywords)
    args[key == "sorter" ? 5 : 6] = value;
  FailureOr<Value> values = scalar(args[0], c.env);
  if (failed(values))
    return failure();
  SmallVector<Value> operands = {*values};
  if (failed(bufferAndIndices(args[1], c.env, 3, operands)))
    return failure();
  FailureOr<Value> boundaryIndices = indexOperand(args[2], c.env);
  if (failed(boundaryIndices))
    return failure();
  operands.push_back(*boundaryIndices);
  FailureOr<Type> type = dtypeArg(args[3]);
  if (failed(type))
    return failure();
  FailureOr<bool> right = boolArg(args[4]);
  if (failed(right))
    return failure();
  bool sorter = args[5] && !args[5]->isNone();
  if (sorter) {
    if (failed(bufferAndIndices(args[5], c.env, 1, operands)))
      return failure();
    if (!args[6] || args[6]->isNone())
      return error(args[5]->loc()) << "a sorter needs sorter_indices";
    FailureOr<Value> sorterIndices = indexOperand(args[6], c.env);
    if (failed(sorterIndices))
      return failure();
    operands.push_back(*sorterIndices);
  }
  createOpaque(c, operands, *type,
               {builder.getNamedAttr("right", builder.getBoolAttr(*right)),
                builder.getNamedAttr("sorter", builder.getBoolAttr(sorter))});
  return success();
}

LogicalResult BodyImporter::translateDeviceAssert(const OpCall &c,
                                                  const OpDef &def) {
  if (failed(expectArgs(c.call, 2, 2)))
    return failure();
  FailureOr<Value> cond = scalar(c.call.elements[0], c.env);
  if (failed(cond))
    return failure();
  FailureOr<StringRef> msg = stringArg(c.call.elements[1], "a message");
  if (failed(msg))
    return failure();
  // Its value is the condition: Inductor's assertion node stores it.
  createOpaque(c, convert(*cond, builder.getI1Type(), loc(c.stmt.loc)),
               builder.getI1Type(),
               {builder.getNamedAttr("msg", builder.getStringAttr(*msg))});
  return success();
}

LogicalResult BodyImporter::translateInlineAsm(const OpCall &c,
                                               const OpDef &def) {
  if (failed(expectArgs(
          c.call, 1, ~0u,
          {"asm", "constraints", "dtype", "is_pure", "pack", "input_dtypes"})))
    return failure();
  FailureOr<SmallVector<Value, 3>> inputs = scalars(c.call, c.env);
  if (failed(inputs))
    return failure();
  Type type = builder.getF32Type();
  SmallVector<NamedAttribute> attrs;
  for (auto &[key, value] : c.call.keywords) {
    if (key == "dtype") {
      FailureOr<Type> t = dtypeArg(value);
      if (failed(t))
        return failure();
      type = *t;
    } else if (value->kind == PyValue::Kind::String) {
      attrs.push_back(
          builder.getNamedAttr(key, builder.getStringAttr(value->str)));
    } else {
      attrs.push_back(
          builder.getNamedAttr(key, builder.getStringAttr(value->text)));
    }
  }
  createOpaque(c, *inputs, type, attrs);
  return success();
}

LogicalResult BodyImporter::translateHalideClamp(const OpCall &c,
                                                 const OpDef &def) {
  if (failed(expectArgs(c.call, 3, 3)))
    return failure();
  FailureOr<Value> v = scalar(c.call.elements[0], c.env);
  if (failed(v))
    return failure();
  FailureOr<bool> check = boolArg(c.call.elements[2]);
  if (failed(check))
    return failure();
  createOpaque(c, *v, torchType(*v),
               {builder.getNamedAttr(
                    "size", builder.getStringAttr(c.call.elements[1]->text)),
                builder.getNamedAttr("check", builder.getBoolAttr(*check))});
  return success();
}
