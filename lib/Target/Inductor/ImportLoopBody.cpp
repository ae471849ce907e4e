//===- ImportLoopBody.cpp - Loop bodies -----------------------------------===//
//
// Translates the `class opN_loop_body:` of a SchedulerNode (Inductor's
// LoopBody) into the body of its fusion.node: the index expressions become
// affine maps, each block's statements become ops, masked subblocks become
// fusion.masked regions. `ops.<name>` calls go through the operation table
// (ImportOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "CreateOp.h"
#include "ImportInductorImpl.h"
#include "IndexExpr.h"

#include "scheduler-opt/Analysis/DependenceGraph.h"
#include "scheduler-opt/Dialect/Fusion/IR/ElementTypes.h"
#include "scheduler-opt/Dialect/Fusion/IR/FusionOps.h"
#include "scheduler-opt/Dialect/Fusion/IR/SizeExpr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::fusion;
using namespace mlir::fusion::inductor;

BodyImporter::BodyImporter(GraphImporter &graph, const DumpNode &node,
                           NodeOp op, const BodySite &site)
    : graph(graph), node(node), body(*node.body), op(op),
      builder(op.getContext(), graph.bodyFlags,
              site.placeholders ? nullptr : &graph.floatAttrs,
              site.placeholders ? nullptr : &graph.opNames),
      values(site.values), locator(site.locator), version(site.version),
      placeholders(site.placeholders) {
  // The statements are in the text of the node's op's location: their
  // locations are made from that file name and the lines and columns the
  // parser counted, without the locator, whose place then stays at the
  // nodes (which foreach lists may build out of the text's order).
  if (auto fileLoc = dyn_cast<FileLineColLoc>(op.getLoc()))
    file = fileLoc.getFilename();
  for (const DumpDepList *list : {&node.unmet, &node.met})
    for (const DumpDep &dep : list->deps)
      depNames.insert(dep.name);
}

InFlightDiagnostic BodyImporter::error(const char *at) {
  return locator.emitError(at);
}
Location BodyImporter::loc(const char *at) {
  // The ops of a statement are located at its start: the parser counted
  // its line, and the first such location of the body names the file. A
  // position further in the statement (a literal's) is on the same line;
  // any other position is counted by the locator.
  if (!currentStmt || !currentStmt->line || at < currentStmt->loc ||
      at >= currentStmt->valueText.end())
    return locator.get(at);
  if (at != currentStmt->loc) {
    // SourceMgr counts a column from the last '\n' or '\r' before it.
    size_t offset = at - currentStmt->loc;
    if (!file || std::memchr(currentStmt->loc, '\r', offset))
      return locator.get(at);
    return FileLineColLoc::get(file, currentStmt->line,
                               currentStmt->column + offset);
  }
  if (!currentStmtLoc) {
    if (file) {
      currentStmtLoc =
          FileLineColLoc::get(file, currentStmt->line, currentStmt->column);
    } else {
      Location first = locator.get(at);
      currentStmtLoc = first;
      if (auto fileLoc = dyn_cast<FileLineColLoc>(first))
        file = fileLoc.getFilename();
    }
  }
  return currentStmtLoc;
}

FloatAttr BodyImporter::floatAttr(FloatType type, double value) {
  return builder.floatAttr(type, value);
}

AffineMap BodyImporter::indexMap(unsigned numDims, unsigned numSymbols,
                                 AffineExpr expr) {
  if (placeholders)
    return AffineMap::get(numDims, numSymbols, expr);
  AffineMap &map = graph.indexMaps[{numDims, numSymbols, expr}];
  if (!map)
    map = AffineMap::get(numDims, numSymbols, expr);
  return map;
}

AffineMapAttr BodyImporter::indexMapAttr(AffineMap map) {
  if (placeholders)
    return AffineMapAttr::get(map);
  AffineMapAttr &attr = graph.indexMapAttrs[map];
  if (!attr)
    attr = AffineMapAttr::get(map);
  return attr;
}

LogicalResult BodyImporter::parseIndices() {
  // var_ranges name the loop variables: pointwise loops, then reduction.
  SmallVector<AffineExpr> sizes;
  for (AffineExpr size : node.ranges)
    sizes.push_back(canonicalizeIndexExpr(size));
  for (AffineExpr size : node.reductionRanges)
    sizes.push_back(canonicalizeIndexExpr(size));
  SmallVector<AffineExpr> varSizes;
  for (auto &[name, size] : body.varRanges)
    varSizes.push_back(canonicalizeIndexExpr(size));
  if (varSizes != sizes) {
    std::string expected, found;
    llvm::raw_string_ostream es(expected), fs(found);
    auto print = [](raw_ostream &os) {
      return [&os](AffineExpr e) { printSizeExpr(os, e); };
    };
    llvm::interleaveComma(sizes, es, print(es));
    llvm::interleaveComma(varSizes, fs, print(fs));
    return error(body.varRangesLoc)
           << "var_ranges [" << found << "] do not match the node sizes ["
           << expected << "]";
  }
  // A few names a node: a small map on the stack, not a StringMap's heap.
  llvm::SmallDenseMap<StringRef, unsigned, 8, BodyNameInfo> loopVars;
  for (auto [i, range] : llvm::enumerate(body.varRanges))
    if (!loopVars.try_emplace(range.first, i).second)
      return error(body.varRangesLoc)
             << "loop variable '" << range.first << "' appears twice";
  MLIRContext *ctx = op.getContext();
  // Index texts repeat from node to node (`1024*p0 + p1`). One that only
  // names loop variables parses to the same expression wherever the loop
  // variables have the same names in the same order: on the importing
  // thread it is kept by those names and its text (GraphImporter::
  // parsedIndices), which no newline separates.
  bool cache = !placeholders;
  SmallString<32> varNames;
  if (cache)
    for (auto &[var, size] : body.varRanges) {
      varNames += var;
      varNames += ',';
    }
  for (auto &[name, text] : body.indices) {
    SmallString<96> key;
    ParsedIndex index;
    if (cache) {
      key = varNames;
      key += '\n';
      key += text;
      index.expr = graph.parsedIndices.lookup(key);
    }
    if (!index.expr) {
      bool onlyLoopVars = true;
      auto resolve = [&](StringRef var) -> AffineExpr {
        if (auto it = loopVars.find(var); it != loopVars.end())
          return getAffineDimExpr(it->second, ctx);
        onlyLoopVars = false;
        unsigned k;
        if (var.consume_front("indirect") && !var.getAsInteger(10, k) &&
            k < kSizeSymbolBase) {
          numIndirect = std::max(numIndirect, k + 1);
          return getAffineSymbolExpr(k, ctx);
        }
        // Size symbols get their places after the indirect ones in buildIndex.
        if (!SizeSymbols::isSizeSymbolName(var))
          return AffineExpr();
        if (!placeholders)
          return graph.dump.symbols.get(var, ctx, kSizeSymbolBase);
        // Apart from the graph, only symbols already numbered: a new one is
        // numbered when the body is built again in node order.
        std::optional<unsigned> number = graph.dump.symbols.lookup(var);
        if (!number) {
          placeholders->deferred = true;
          return AffineExpr();
        }
        return getAffineSymbolExpr(kSizeSymbolBase + *number, ctx);
      };
      FailureOr<ParsedIndex> parsed = parseIndex(
          text, ctx, resolve,
          [&](const char *at) -> InFlightDiagnostic { return error(at); },
          [](unsigned position) { return position >= kSizeSymbolBase; });
      if (failed(parsed))
        return failure();
      if (cache && onlyLoopVars && parsed->terms.empty())
        graph.parsedIndices[key] = parsed->expr;
      index = std::move(*parsed);
    }
    if (!indexNames.try_emplace(name, indices.size()).second)
      return error(name.data()) << "index '" << name << "' is defined twice";
    indices.push_back(index.expr);
    indexTerms.push_back(std::move(index.terms));
  }
  indirect.assign(numIndirect, Value());
  builtIndices.resize(indices.size());
  return success();
}

LogicalResult BodyImporter::run() {
  if (failed(parseIndices()))
    return failure();
  for (const DumpBlock &block : body.blocks)
    if (!blocks.try_emplace(block.name, &block).second)
      return error(block.loc)
             << "block '" << block.name << "' is defined twice";
  Block &entry = op.getBodyBlock();
  builder.setInsertionPoint(entry.getTerminator());
  BodyValue result;
  if (failed(translateBlock(body.blocks.front(), result)))
    return failure();
  // A combine function (a block with parameters) belongs to a scan.
  for (const DumpBlock &block : body.blocks) {
    StringRef scan = StringRef(block.name);
    if (!block.params.empty() &&
        (!scan.consume_back("_combine_fn") || !usedCombineFns.contains(scan)))
      return error(block.loc) << "combine function '" << block.name
                              << "' belongs to no 'self.<scan>(...)' call "
                                 "of the loop body";
  }
  return success();
}

LogicalResult BodyImporter::translateBlock(const DumpBlock &block,
                                           BodyValue &result,
                                           ValueRange params) {
  if (!activeBlocks.insert(block.name).second)
    return error(block.loc) << "block '" << block.name << "' invokes itself";
  if (activeBlocks.size() > kMaxBlockNesting)
    return error(block.loc)
           << "masked blocks nested more than " << kMaxBlockNesting << " deep";
  if (params.size() != block.params.size())
    return error(block.loc)
           << "block '" << block.name << "' takes " << block.params.size()
           << " parameters after 'self, ops'; it is called with "
           << params.size();
  // Sized for every name the block may bind: grown name by name, the
  // table would hash each name again at every growth.
  BodyEnv env;
  env.reserve(block.params.size() + block.stmts.size());
  for (auto [name, v] : llvm::zip(block.params, params)) {
    BodyValue &bound = env[name];
    if (bound.kind != BodyValue::Nothing)
      return error(block.loc) << "parameter '" << name << "' of block '"
                              << block.name << "' is named twice";
    bound.kind = BodyValue::Scalar;
    bound.value = v;
  }
  for (const DumpStmt &stmt : block.stmts)
    if (failed(translateStmt(stmt, env, result)))
      return failure();
  activeBlocks.erase(block.name);
  return success();
}

bool BodyImporter::translateDirect(const DumpStmt &stmt, BodyEnv &env,
                                   LogicalResult &result) {
  // Two thirds of a body's statements are `x = self.get_index('<name>')`,
  // `x = ops.load('<buffer>', <index>)`, `x = ops.constant(<literal>,
  // torch.<dtype>)`, `x = ops.store(...)` or an elementwise row of named
  // values, `x = ops.add(a, b)`; their Python values cost more than the
  // rest of their translation. Each is read here from its text in exactly
  // that form, down to the spacing, and translated through the general
  // path's cores, which check what it checks in its order and report at
  // the same places of the text. Anything else (other spacing, quotes or
  // escapes, literals among the operands, a name not bound as the form
  // needs, a target bound before) returns false having done nothing, and
  // the general path reads the statement in full or reports it.
  StringRef text = stmt.valueText;
  if (stmt.target.empty() || !text.consume_back(")"))
    return false;
  if (text.consume_front("self.get_index(")) {
    // Only a quoted name, as the index was named.
    if (text.size() < 2 || text.front() != '\'' || text.back() != '\'' ||
        !isPlainQuoted(text.drop_front().drop_back()))
      return false;
    auto it = indexNames.find(text.drop_front().drop_back());
    if (it == indexNames.end())
      return false;
    auto [bound, inserted] = env.try_emplace(stmt.target);
    if (!inserted)
      return false;
    bound->second.kind = BodyValue::Index;
    bound->second.index = it->second;
    result = success();
    return true;
  }
  if (!text.consume_front("ops."))
    return false;
  size_t open = identLength(text);
  if (open == 0 || open == text.size() || text[open] != '(')
    return false;
  const OpDef *def = lookupOp(text.take_front(open));
  if (!def)
    return false;
  StringRef args = text.drop_front(open + 1);
  Translator translate = def->translate;
  if (translate == &BodyImporter::translateLoad)
    return def->name == "load" && loadDirect(stmt, args, env, result);
  if (translate == &BodyImporter::translateStore)
    return storeDirect(stmt, *def, args, env, result);
  if (translate == &BodyImporter::translateConstant)
    return constantDirect(stmt, args, env, result);
  if (translate == &BodyImporter::translateIndexExpr)
    return indexExprDirect(stmt, args, env, result);
  return elementwiseDirect(stmt, *def, args, env, result);
}

LogicalResult BodyImporter::translateStmt(const DumpStmt &stmt,
                                          BodyEnv &env,
                                          BodyValue &result) {
  // loc() of this statement (a masked subblock's statements, translated
  // inside it, take their turn; the rest of this one asks the locator).
  currentStmt = &stmt;
  currentStmtLoc = {};
  if (LogicalResult direct = success(); translateDirect(stmt, env, direct))
    return direct;
  PyValue *parsed = parseStatementValueDirect(stmt.valueText, values);
  if (!parsed) {
    FailureOr<PyValue *> generic =
        parsePyValue(stmt.valueText, locator, values);
    if (failed(generic))
      return failure();
    parsed = *generic;
  }
  const PyValue &value = *parsed;
  if (stmt.target.empty()) {
    // `return x`: the value a masked subblock yields; `return store` and
    // `return None` end the main body.
    if (value.isNone()) {
      result = BodyValue();
      return success();
    }
    if (value.kind == PyValue::Kind::Tuple) {
      // `return (a, b)`: a scan's combine function returns a tuple.
      result = BodyValue();
      result.kind = BodyValue::Tuple;
      for (const PyValue *e : value.elements) {
        auto it = e->kind == PyValue::Kind::Name ? env.find(e->str) : env.end();
        if (it == env.end() || it->second.kind != BodyValue::Scalar)
          return error(e->loc()) << "'return' needs values defined in the "
                                    "block, found "
                                 << e->text;
        result.tuple.push_back(it->second.value);
      }
      return success();
    }
    auto it = value.kind == PyValue::Kind::Name ? env.find(value.str)
                                                : env.end();
    if (it == env.end())
      return error(value.loc()) << "'return' needs a name defined in the "
                                   "block, found "
                                << value.text;
    result = it->second;
    return success();
  }
  if (env.count(stmt.target))
    return error(stmt.loc) << "'" << stmt.target
                           << "' is assigned twice in the block";
  BodyValue out;
  if (value.kind == PyValue::Kind::Subscript) {
    // `getitem = reduction[0]`
    const PyValue *base = value.elements[0], *index = value.elements[1];
    if (base->kind != PyValue::Kind::Name || index->kind != PyValue::Kind::Int)
      return error(value.loc()) << "expected '<name>[<integer>]'";
    auto it = env.find(base->str);
    if (it == env.end() || it->second.kind != BodyValue::Tuple)
      return error(base->loc())
             << "'" << base->str << "' is not a multi-result reduction";
    if (index->intValue < 0 ||
        index->intValue >= static_cast<int64_t>(it->second.tuple.size()))
      return error(index->loc())
             << "index " << index->intValue << " is out of range: '"
             << base->str << "' has " << it->second.tuple.size() << " results";
    out.kind = BodyValue::Scalar;
    out.value = it->second.tuple[index->intValue];
  } else if (value.kind == PyValue::Kind::Call) {
    if (failed(translateCall(stmt, value, env, out)))
      return failure();
  } else {
    return error(value.loc()) << "expected an operation such as "
                                 "'ops.load(...)', found "
                              << value.text;
  }
  // Not bound yet (checked above): moved in, so that a tuple's values are
  // not copied.
  env.try_emplace(stmt.target, std::move(out));
  return success();
}

LogicalResult BodyImporter::expectArgs(const PyValue &call, unsigned min,
                                       unsigned max,
                                       ArrayRef<StringRef> keywords) {
  unsigned n = call.elements.size();
  if (n < min || n > max) {
    InFlightDiagnostic diag = error(call.loc())
                              << "'" << call.str << "' takes ";
    if (min == max)
      diag << min;
    else
      diag << min << " to " << max;
    return diag << " positional arguments, got " << n;
  }
  for (auto &[key, value] : call.keywords)
    if (!llvm::is_contained(keywords, key))
      return error(value->loc())
             << "'" << call.str << "' has no argument '" << key << "'";
  return success();
}

FailureOr<Value> BodyImporter::scalar(const PyValue *arg,
                                      BodyEnv &env) {
  if (arg->kind != PyValue::Kind::Name)
    return error(arg->loc())
           << "expected the name of a value, found " << arg->text;
  auto it = env.find(arg->str);
  if (it == env.end())
    return error(arg->loc()) << "'" << arg->str << "' is not defined";
  if (it->second.kind != BodyValue::Scalar)
    return error(arg->loc()) << "'" << arg->str << "' is not a value"
                             << (it->second.kind == BodyValue::Tuple
                                     ? " (it has several results; use "
                                       "'x[i]')"
                                     : "");
  return it->second.value;
}

FailureOr<unsigned> BodyImporter::indexRef(const PyValue *arg,
                                           BodyEnv &env) {
  if (arg->kind == PyValue::Kind::Name)
    if (auto it = env.find(arg->str);
        it != env.end() && it->second.kind == BodyValue::Index)
      return it->second.index;
  return error(arg->loc()) << "expected an index from self.get_index(...), "
                              "found "
                           << arg->text;
}

FailureOr<StringRef> BodyImporter::stringArg(const PyValue *arg,
                                             StringRef what) {
  if (arg->kind != PyValue::Kind::String)
    return error(arg->loc())
           << "expected " << what << " in quotes, found " << arg->text;
  return arg->str;
}

FailureOr<Type> BodyImporter::dtypeArg(const PyValue *arg) {
  if (arg->kind != PyValue::Kind::Name)
    return error(arg->loc()) << "expected a dtype such as torch.float32, "
                                "found "
                             << arg->text;
  return dtypeArg(arg->str, arg->loc());
}

FailureOr<Type> BodyImporter::dtypeArg(StringRef name, const char *at) {
  FailureOr<Type> type = convertDtype(name, at, locator);
  if (succeeded(type) && isa<ComplexType>(*type))
    return complexInBody(at, "", *type);
  if (failed(type))
    return failure();
  return bodyDtypeOf(*type);
}

InFlightDiagnostic BodyImporter::complexInBody(const char *at,
                                               StringRef buffer, Type type) {
  // Inductor lowers no operation on complex tensors to a loop body
  // (lowering.py's fallback_node_due_to_unsupported_type sends them to
  // ATen as FallbackKernels), so such a body is not Inductor's.
  InFlightDiagnostic diag = error(at) << "a loop body ";
  if (buffer.empty())
    diag << "with the complex dtype " << type;
  else
    diag << "reading or writing '" << buffer << "', a buffer of " << type;
  diag << ": Inductor computes complex tensors with ATen (externs), never "
          "in a loop body";
  return diag;
}

Type BodyImporter::bodyDtypeOf(Type elementType) {
  if (!isPackedStorageType(elementType))
    return elementType;
  return IntegerType::get(elementType.getContext(),
                          getElementBitWidth(elementType),
                          IntegerType::Unsigned);
}

Type BodyImporter::torchType(Value v) const {
  if (!isUnsigned(v))
    return v.getType();
  return IntegerType::get(v.getContext(), v.getType().getIntOrFloatBitWidth(),
                          IntegerType::Unsigned);
}

Value BodyImporter::setTorchType(Value v, Type type) {
  if (type.isUnsignedInteger())
    unsignedValues.insert(v);
  return v;
}

/// float -> uintN as PyTorch's c10::static_cast_with_inter_type: through
/// int64 (so -1.0 gives 255 for uint8), except that uint64 takes values
/// from 2^63 on with an unsigned conversion.
static Value floatToUnsigned(OpBuilder &b, Location l, Value v,
                             IntegerType to) {
  Type f = v.getType();
  if (f.getIntOrFloatBitWidth() < 16) // float8: convert from f32
    v = createOp<CastOp>(b, l, b.getF32Type(), v);
  Value wide = createOp<CastOp>(b, l, b.getI64Type(), v);
  if (to.getWidth() < 64)
    return createOp<CastOp>(b, l, to, wide);
  auto ft = cast<FloatType>(v.getType());
  Value bound = createOp<arith::ConstantOp>(
      b, l, b.getFloatAttr(ft, 9223372036854775808.0));
  Value large =
      createOp<arith::CmpFOp>(b, l, arith::CmpFPredicate::OGE, v, bound);
  Value asUnsigned = createOp<arith::FPToUIOp>(b, l, to, v);
  return createOp<arith::SelectOp>(b, l, large, asUnsigned, wide);
}

Value BodyImporter::convert(Value v, Type type, Location l) {
  Type from = torchType(v);
  if (from == type)
    return v;
  Type to = BufferType::getValueTypeOf(type);
  Value result;
  if (v.getType() == to) {
    // intN <-> uintN: the same bits (C's conversion modulo 2^N); a value
    // of its own, since its users read it with the other signedness.
    result = createOp<arith::BitcastOp>(builder, l, to, v);
  } else if (from.isUnsignedInteger() && isa<FloatType>(to)) {
    Type wide = to.getIntOrFloatBitWidth() < 16 ? builder.getF32Type() : to;
    result = createOp<arith::UIToFPOp>(builder, l, wide, v);
    if (wide != to)
      result = createOp<CastOp>(builder, l, to, result);
  } else if (from.isUnsignedInteger() && isa<IntegerType>(to) &&
             to.getIntOrFloatBitWidth() > v.getType().getIntOrFloatBitWidth()) {
    result = createOp<arith::ExtUIOp>(builder, l, to, v);
  } else if (type.isUnsignedInteger() && isa<FloatType>(v.getType())) {
    result = floatToUnsigned(builder, l, v, cast<IntegerType>(to));
  } else {
    result = createOp<CastOp>(builder, l, to, v);
  }
  return setTorchType(result, type);
}

Value BodyImporter::constant(Type type, double value, Location l) {
  Type valueType = BufferType::getValueTypeOf(type);
  if (auto ft = dyn_cast<FloatType>(valueType))
    return createOp<arith::ConstantOp>(builder, l,
                                       floatAttr(ft, value));
  return setTorchType(
      createOp<arith::ConstantOp>(
          builder, l,
          builder.getIntegerAttr(valueType, static_cast<int64_t>(value))),
      type);
}

FailureOr<Value> BodyImporter::literal(const PyValue *v, Type torchType) {
  Location l = loc(v->loc());
  Type type = BufferType::getValueTypeOf(torchType);
  auto result = [&](Value c) -> FailureOr<Value> {
    return setTorchType(c, torchType);
  };
  if (v->isName("True") || v->isName("False")) {
    bool b = v->isName("True");
    if (isa<FloatType>(type))
      return constant(type, b ? 1.0 : 0.0, l);
    return result(createOp<arith::ConstantOp>(
        builder, l, builder.getIntegerAttr(type, b ? 1 : 0)));
  }
  if (v->kind == PyValue::Kind::Int) {
    if (auto ft = dyn_cast<FloatType>(type))
      return Value(createOp<arith::ConstantOp>(
          builder, l,
          floatAttr(ft, static_cast<double>(v->intValue))));
    auto it = llvm::cast<IntegerType>(type);
    bool fits = torchType.isUnsignedInteger()
                    ? v->intValue >= 0 && (it.getWidth() == 64 ||
                                           llvm::isUIntN(it.getWidth(),
                                                         v->intValue))
                    : it.getWidth() == 64 ||
                          llvm::isIntN(it.getWidth(), v->intValue) ||
                          (it.getWidth() == 1 &&
                           (v->intValue == 0 || v->intValue == 1));
    if (!fits)
      return error(v->loc())
             << "constant " << v->intValue << " does not fit in " << torchType;
    int64_t value = it.getWidth() == 1 ? (v->intValue != 0) : v->intValue;
    return result(createOp<arith::ConstantOp>(
        builder, l, builder.getIntegerAttr(type, value)));
  }
  if (v->kind == PyValue::Kind::Float) {
    if (auto ft = dyn_cast<FloatType>(type))
      return Value(createOp<arith::ConstantOp>(
          builder, l, floatAttr(ft, v->floatValue)));
    double integral;
    if (std::isfinite(v->floatValue) &&
        std::modf(v->floatValue, &integral) == 0.0 &&
        std::abs(integral) < 9.0e18 &&
        (!torchType.isUnsignedInteger() || integral >= 0))
      return result(createOp<arith::ConstantOp>(
          builder, l,
          builder.getIntegerAttr(type, static_cast<int64_t>(integral))));
    return error(v->loc()) << "constant " << v->text
                           << " is not a value of integer type " << torchType;
  }
  return error(v->loc()) << "expected a number, True or False, found "
                         << v->text;
}

Type BodyImporter::promote(Type a, Type b) {
  if (a == b)
    return a;
  bool fa = isa<FloatType>(a), fb = isa<FloatType>(b);
  if (fa && fb) {
    unsigned wa = a.getIntOrFloatBitWidth(), wb = b.getIntOrFloatBitWidth();
    if (wa == wb) // float16 with bfloat16: torch promotes to float32.
      return Float32Type::get(a.getContext());
    return wa > wb ? a : b;
  }
  if (fa)
    return a;
  if (fb)
    return b;
  unsigned wa = a.getIntOrFloatBitWidth(), wb = b.getIntOrFloatBitWidth();
  bool ua = a.isUnsignedInteger(), ub = b.isUnsignedInteger();
  if (ua == ub || wa == 1 || wb == 1)
    return wa >= wb ? a : b;
  // Signed with unsigned: the signed type if it is wider, else the signed
  // type of twice the unsigned width (uint8 with int8: int16), as torch.
  unsigned ws = ua ? wb : wa, wu = ua ? wa : wb;
  if (ws > wu)
    return ua ? b : a;
  return IntegerType::get(a.getContext(), std::min(2 * wu, 64u));
}

Type BodyImporter::floatTypeFor(Type t) {
  return isa<FloatType>(t) ? t : Float32Type::get(t.getContext());
}

LogicalResult BodyImporter::buildIndex(unsigned index, const char *at,
                                       AffineMap &map,
                                       SmallVectorImpl<Value> &operands) {
  // A body loads and stores through the same index several times (each
  // buffer of a pointwise node at `index0`).
  auto &[builtMap, builtOperands] = builtIndices[index];
  if (builtMap) {
    map = builtMap;
    operands.append(builtOperands);
    return success();
  }
  size_t first = operands.size();
  if (failed(buildMap(indices[index], indexTerms[index], at, map, operands)))
    return failure();
  // Without symbol operands the map uses no indirect index and no index
  // term, the only values that change as the body is built.
  if (map.getNumDims() == operands.size() - first) {
    builtMap = map;
    builtOperands.assign(operands.begin() + first, operands.end());
  }
  return success();
}

/// Marks the loop variables (dimensions below `dims.size()`) and indirect
/// indices (symbols below `indirect.size()`) that `e` uses, and sets
/// `sizeSymbols` when it uses a size symbol (from `sizeSymbolBase` to the
/// index terms). By hand rather than through AffineExpr::walk, which costs
/// more than the marking for an index.
static void collectUses(AffineExpr e, MutableArrayRef<bool> dims,
                        MutableArrayRef<bool> indirect, unsigned sizeSymbolBase,
                        bool &sizeSymbols) {
  switch (e.getKind()) {
  case AffineExprKind::Constant:
    return;
  case AffineExprKind::DimId:
    if (unsigned p = cast<AffineDimExpr>(e).getPosition(); p < dims.size())
      dims[p] = true;
    return;
  case AffineExprKind::SymbolId: {
    unsigned p = cast<AffineSymbolExpr>(e).getPosition();
    if (p < indirect.size())
      indirect[p] = true;
    else if (p >= sizeSymbolBase && p < kIndexTermSymbolBase)
      sizeSymbols = true;
    return;
  }
  default: {
    auto binary = cast<AffineBinaryOpExpr>(e);
    collectUses(binary.getLHS(), dims, indirect, sizeSymbolBase, sizeSymbols);
    collectUses(binary.getRHS(), dims, indirect, sizeSymbolBase, sizeSymbols);
    return;
  }
  }
}

LogicalResult BodyImporter::buildMap(AffineExpr expr, ArrayRef<IndexTerm> terms,
                                     const char *at, AffineMap &map,
                                     SmallVectorImpl<Value> &operands) {
  MLIRContext *ctx = op.getContext();
  unsigned numLoops = op.getNumLoops();
  // The loop variables and indirect indices the index uses, in one walk.
  SmallVector<bool, 8> usesDim(numLoops), usesIndirect(numIndirect);
  bool usesSizeSymbols = false;
  collectUses(expr, usesDim, usesIndirect, kSizeSymbolBase, usesSizeSymbols);
  // Each used one becomes the next operand; the others do not occur.
  SmallVector<Value> dimOperands, symOperands;
  for (unsigned d = 0; d < numLoops; ++d)
    if (usesDim[d])
      dimOperands.push_back(op.getLoopVars()[d]);
  for (unsigned s = 0; s < numIndirect; ++s) {
    if (!usesIndirect[s])
      continue;
    if (!indirect[s])
      return error(at) << "index uses indirect" << s
                       << " before self.set_indirect" << s << "(...)";
    symOperands.push_back(indirect[s]);
  }
  // When the used ones are the first ones, each keeps its position, and
  // replacing each by itself would rebuild the same expression.
  AffineExpr result = expr;
  if (llvm::is_contained(ArrayRef(usesDim).drop_front(dimOperands.size()),
                         true) ||
      llvm::is_contained(
          ArrayRef(usesIndirect).drop_front(symOperands.size()), true)) {
    AffineExpr zero = getCachedConstantExpr(0, ctx);
    auto renumber = [&](ArrayRef<bool> used, auto make) {
      SmallVector<AffineExpr> repl;
      unsigned next = 0;
      for (bool u : used)
        repl.push_back(u ? make(next++) : zero);
      return repl;
    };
    result = expr.replaceDimsAndSymbols(
        renumber(usesDim, [&](unsigned i) { return getAffineDimExpr(i, ctx); }),
        renumber(usesIndirect,
                 [&](unsigned i) { return getAffineSymbolExpr(i, ctx); }));
  }
  // Index terms (symbols from kIndexTermSymbolBase on) are computed here
  // and bound like indirect indices.
  if (!terms.empty()) {
    DenseMap<AffineExpr, AffineExpr> termRepl;
    for (unsigned t = 0, e = terms.size(); t < e; ++t) {
      AffineExpr symbol = getAffineSymbolExpr(kIndexTermSymbolBase + t, ctx);
      if (!result.isFunctionOfSymbol(kIndexTermSymbolBase + t))
        continue;
      FailureOr<Value> value = termValue(terms, t);
      if (failed(value))
        return failure();
      termRepl[symbol] = getAffineSymbolExpr(symOperands.size(), ctx);
      symOperands.push_back(*value);
    }
    result = result.replace(termRepl);
  }
  // Size symbol i follows the symbols bound to operands (the replacements
  // above made none).
  unsigned numSymbols = symOperands.size();
  DenseMap<AffineExpr, AffineExpr> sizeRepl;
  if (usesSizeSymbols)
    result.walk([&](AffineExpr e) {
      auto sym = dyn_cast<AffineSymbolExpr>(e);
      if (!sym || sym.getPosition() < kSizeSymbolBase ||
          sym.getPosition() >= kIndexTermSymbolBase)
        return;
      unsigned to = symOperands.size() + sym.getPosition() - kSizeSymbolBase;
      sizeRepl[e] = getAffineSymbolExpr(to, ctx);
      numSymbols = std::max(numSymbols, to + 1);
    });
  if (!sizeRepl.empty())
    result = canonicalizeIndexExpr(result.replace(sizeRepl));
  map = indexMap(dimOperands.size(), numSymbols, result);
  operands.append(dimOperands);
  operands.append(symOperands);
  return success();
}

static const LoopBodyForm kLoopBodyForms[] = {
    {"indirect_indexing", "self.set_indirect<k>(value)"},
    {"masked", "self.masked_subblock<k>(mask, other)"},
    {"output", "return"},
    {"placeholder", "def <block>(self, ops): the ops parameter"},
    {"scan", "self.scan<k>(dtypes, values)"},
};

ArrayRef<LoopBodyForm> mlir::fusion::inductor::getLoopBodyForms() {
  return kLoopBodyForms;
}

LogicalResult BodyImporter::translateCall(const DumpStmt &stmt,
                                          const PyValue &call,
                                          BodyEnv &env,
                                          BodyValue &result) {
  StringRef callee = call.str;
  if (callee == "self.get_index") {
    if (failed(expectArgs(call, 1, 1)))
      return failure();
    FailureOr<StringRef> name = stringArg(call.elements[0], "an index name");
    if (failed(name))
      return failure();
    auto it = indexNames.find(*name);
    if (it == indexNames.end())
      return error(call.elements[0]->loc())
             << "index '" << *name << "' is not defined in the loop body";
    result.kind = BodyValue::Index;
    result.index = it->second;
    return success();
  }
  if (callee.consume_front("self.set_indirect")) {
    unsigned k;
    if (callee.getAsInteger(10, k) || k >= indirect.size())
      return error(call.loc()) << "'" << call.str
                               << "' sets an indirect index that no index "
                                  "expression uses";
    if (failed(expectArgs(call, 1, 1)))
      return failure();
    FailureOr<Value> v = scalar(call.elements[0], env);
    if (failed(v))
      return failure();
    if (!isa<IntegerType>(v->getType()) || v->getType().isInteger(1))
      return error(call.elements[0]->loc())
             << "an indirect index needs an integer value, got "
             << v->getType();
    indirect[k] =
        isUnsigned(*v)
            ? Value(createOp<arith::IndexCastUIOp>(builder, loc(stmt.loc),
                                                   builder.getIndexType(), *v))
            : Value(createOp<arith::IndexCastOp>(builder, loc(stmt.loc),
                                                 builder.getIndexType(), *v));
    return success();
  }
  if (callee.consume_front("self.")) {
    const DumpBlock *block = blocks.lookup(callee);
    if (!block && callee.starts_with("scan"))
      return translateScan(stmt, callee, call, env, result);
    if (!block || callee == "body")
      return error(call.loc())
             << "unknown loop body method 'self." << callee << "'";
    return translateMasked(stmt, *block, call, env, result);
  }
  if (callee.consume_front("ops."))
    return translateOp(stmt, callee, call, env, result);
  return error(call.loc())
         << "unknown call '" << call.str
         << "' (expected ops.*, self.get_index, "
            "self.set_indirect<k>, self.masked_subblock<k> or self.scan<k>)";
}

LogicalResult BodyImporter::translateMasked(const DumpStmt &stmt,
                                            const DumpBlock &block,
                                            const PyValue &call,
                                            BodyEnv &env,
                                            BodyValue &result) {
  if (failed(expectArgs(call, 2, 2)))
    return failure();
  FailureOr<Value> mask = scalar(call.elements[0], env);
  if (failed(mask))
    return failure();
  Location l = loc(stmt.loc);
  Value maskBit = convert(*mask, builder.getI1Type(), l);

  // Translate the subblock into a detached block, then wrap it.
  auto region = std::make_unique<Block>();
  BodyValue yielded;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(region.get());
    if (failed(translateBlock(block, yielded)))
      return failure();
    if (yielded.kind != BodyValue::Scalar)
      return error(block.loc)
             << "masked block '" << block.name << "' must return one value";
    createOp<YieldOp>(builder, l, ValueRange{yielded.value});
  }
  Type type = torchType(yielded.value);
  const PyValue *otherArg = call.elements[1];
  Value other;
  if (otherArg->kind == PyValue::Kind::Name && env.count(otherArg->str)) {
    FailureOr<Value> v = scalar(otherArg, env);
    if (failed(v))
      return failure();
    other = convert(*v, type, l);
  } else {
    FailureOr<Value> v = literal(otherArg, type);
    if (failed(v))
      return failure();
    other = *v;
  }
  auto masked =
      createOp<MaskedOp>(builder, l, yielded.value.getType(), maskBit, other);
  masked.getBody().push_back(region.release());
  result.kind = BodyValue::Scalar;
  result.value = setTorchType(masked.getResult(), type);
  return success();
}

/// Whether `v` is a Python number or boolean standing for an operand.
static bool isNumberLiteral(const PyValue *v) {
  return v->kind == PyValue::Kind::Int || v->kind == PyValue::Kind::Float ||
         v->isName("True") || v->isName("False");
}

FailureOr<SmallVector<Value, 3>> BodyImporter::scalars(const PyValue &call,
                                                       BodyEnv &env) {
  SmallVector<Value, 3> values(call.elements.size());
  // The named operands first: their promoted type types the literals.
  Type named;
  for (auto [arg, value] : llvm::zip(call.elements, values)) {
    if (isNumberLiteral(arg))
      continue;
    FailureOr<Value> v = scalar(arg, env);
    if (failed(v))
      return failure();
    value = *v;
    named = named ? promote(named, torchType(value)) : torchType(value);
  }
  // torch's elementwise_dtypes over a zero-dimensional tensor of the
  // literal's default dtype: the dimensioned operands' type wins unless the
  // literal's kind (bool < integer < float) is higher.
  auto kindOf = [](Type t) {
    return isa<FloatType>(t) ? 2 : t.isInteger(1) ? 0 : 1;
  };
  for (auto [arg, value] : llvm::zip(call.elements, values)) {
    if (value)
      continue;
    Type own = arg->kind == PyValue::Kind::Float ? Type(builder.getF32Type())
               : arg->kind == PyValue::Kind::Int ? Type(builder.getI64Type())
                                                 : Type(builder.getI1Type());
    Type type = named && kindOf(named) >= kindOf(own) ? named : own;
    FailureOr<Value> v = literal(arg, type);
    if (failed(v))
      return failure();
    value = *v;
  }
  return values;
}

FailureOr<SmallVector<Value, 3>> BodyImporter::scalarArgs(const OpCall &c,
                                                           unsigned n) {
  if (failed(expectArgs(c.call, n, n)))
    return failure();
  return scalars(c.call, c.env);
}

LogicalResult BodyImporter::translateOp(const DumpStmt &stmt, StringRef name,
                                        const PyValue &call, BodyEnv &env,
                                        BodyValue &result) {
  const OpDef *def = lookupOp(name);
  if (!def)
    return error(call.loc()) << "unsupported operation 'ops." << name
                             << "' (docs/Importer.md lists the supported "
                                "operations)";
  result.kind = BodyValue::Scalar;
  return (this->*def->translate)(OpCall{stmt, name, call, env, result}, *def);
}
