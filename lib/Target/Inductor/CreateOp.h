//===- CreateOp.h - Cheaper op creation for the importer -------*- C++ -*-===//
//
// createOp<OpTy>(builder, loc, args...) builds the same operation as
// OpTy::create(builder, loc, args...), through OpTy's own ODS builder, for
// less: ODS's create names the op by its string (a hash and a probe of the
// context's table of operation names), allocates the op's properties on the
// heap, and OpBuilder::create copies the state's attributes through a
// DictionaryAttr and a NamedAttrList on their way to Operation::create. Here
// the op is named by its TypeID (at a loop body's builder, from the import's
// cache of the names), its properties live on the stack until the
// op copies them, and an op without discardable attributes or successors (a
// node with its body as much as an op of that body) is created from the
// state's fields directly. The importer builds about 9 ops a node.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_CREATEOP_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_CREATEOP_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace mlir::fusion::inductor {

/// Creates the op `state` describes at `builder`'s insertion point. An op
/// without attributes or successors (its regions, such as a node's body,
/// moved into it as Operation::create moves them) is created from the
/// state's fields directly: Operation::create(state) would turn the empty
/// attribute list into a DictionaryAttr, back into a NamedAttrList for the
/// op's default attributes, and into a DictionaryAttr again.
inline Operation *createFromState(OpBuilder &builder, OperationState &state) {
  if (!state.attributes.empty() || state.propertiesAttr ||
      !state.successors.empty())
    return builder.create(state);
  Operation *op = Operation::create(
      state.location, state.name, state.types, state.operands,
      DictionaryAttr::get(builder.getContext()), state.getRawProperties(),
      /*successors=*/{}, state.regions.size());
  for (auto [region, built] : llvm::zip(op->getRegions(), state.regions))
    region.takeBody(*built);
  return builder.insert(op);
}

/// Float attributes by their type and value's bits.
using FloatAttrCache = llvm::DenseMap<std::pair<Type, uint64_t>, FloatAttr>;

/// The registered names of op types, by their TypeID: a probe of a small
/// table where RegisteredOperationName::lookup, an out-of-line probe of the
/// context's table of every registered op, takes about 70 instructions, for
/// each of the 9 or so ops of a node.
using OpNameCache =
    llvm::SmallDenseMap<TypeID, std::optional<RegisteredOperationName>, 32>;

/// The builder of a loop body. Most arith and math ops of a body carry their
/// `none` fast-math or overflow flags, an attribute that their ODS builders
/// ask the context's uniquer for at every op (about 210 instructions), and
/// infer their result type through InferTypeOpInterface; the importer makes
/// the two attributes once (uniqued attributes are immutable, so the bodies
/// built on the context's threads share them) and createOp, given this
/// builder, makes those ops from them and the operand's type (below). The
/// op is the same. Float attributes go through `floatAttrs`
/// where the body has one (the graph importer's, on the importing thread:
/// the map is not for threads).
class BodyBuilder : public OpBuilder {
public:
  struct Flags {
    arith::FastMathFlagsAttr noFastMath;
    arith::IntegerOverflowFlagsAttr noOverflow;
    /// The attributes of an op without discardable ones.
    DictionaryAttr noAttrs;

    static Flags get(MLIRContext *ctx) {
      return {arith::FastMathFlagsAttr::get(ctx, arith::FastMathFlags::none),
              arith::IntegerOverflowFlagsAttr::get(
                  ctx, arith::IntegerOverflowFlags::none),
              DictionaryAttr::get(ctx)};
    }
  };

  BodyBuilder(MLIRContext *ctx, Flags flags, FloatAttrCache *floatAttrs,
              OpNameCache *opNames)
      : OpBuilder(ctx), flags(flags), floatAttrs(floatAttrs),
        opNames(opNames) {}

  const Flags &getFlags() const { return flags; }

  /// getFloatAttr(type, value), through the cache when there is one.
  FloatAttr floatAttr(Type type, double value) {
    if (!floatAttrs)
      return getFloatAttr(type, value);
    FloatAttr &attr = (*floatAttrs)[{type, llvm::bit_cast<uint64_t>(value)}];
    if (!attr)
      attr = getFloatAttr(type, value);
    return attr;
  }

  /// RegisteredOperationName::lookup(id), through the cache when there is
  /// one.
  std::optional<RegisteredOperationName> opName(TypeID id) {
    if (!opNames)
      return RegisteredOperationName::lookup(id, getContext());
    auto [it, inserted] = opNames->try_emplace(id);
    if (inserted)
      it->second = RegisteredOperationName::lookup(id, getContext());
    return it->second;
  }

private:
  Flags flags;
  FloatAttrCache *floatAttrs;
  OpNameCache *opNames;
};

/// OpTy::create(builder, loc, args...), cheaper (see the file comment),
/// for the registered name `name` of OpTy.
template <typename OpTy, typename... Args>
OpTy createNamedOp(OpBuilder &builder,
                   std::optional<RegisteredOperationName> name, Location loc,
                   Args &&...args) {
  // An op of a dialect the context has not loaded: ODS's create, which
  // reports it as it always has.
  if (!name)
    return OpTy::create(builder, loc, std::forward<Args>(args)...);
  OperationState state(loc, *name);
  if constexpr (OpTy::hasProperties()) {
    typename OpTy::Properties properties{};
    state.useProperties(properties);
    OpTy::build(builder, state, std::forward<Args>(args)...);
    return cast<OpTy>(createFromState(builder, state));
  } else {
    OpTy::build(builder, state, std::forward<Args>(args)...);
    return cast<OpTy>(createFromState(builder, state));
  }
}

/// OpTy::create(builder, loc, args...), cheaper (see the file comment).
template <typename OpTy, typename... Args>
OpTy createOp(OpBuilder &builder, Location loc, Args &&...args) {
  return createNamedOp<OpTy>(
      builder,
      RegisteredOperationName::lookup(TypeID::get<OpTy>(),
                                      builder.getContext()),
      loc, std::forward<Args>(args)...);
}

namespace detail {
template <typename Props>
using FastMathMember = decltype(std::declval<Props &>().fastmath);
template <typename Props>
using OverflowMember = decltype(std::declval<Props &>().overflowFlags);

/// Whether OpTy(args...) is an elementwise op of operands of one type whose
/// result has that type, with fast-math or overflow flags.
template <typename OpTy, typename... Args>
constexpr bool isFlaggedElementwise() {
  if constexpr (sizeof...(Args) == 0 || !OpTy::hasProperties() ||
                !(std::is_convertible_v<Args, Value> && ...))
    return false;
  else if constexpr (!OpTy::template hasTrait<
                         OpTrait::SameOperandsAndResultType>())
    return false;
  else
    return llvm::is_detected<FastMathMember,
                             typename OpTy::Properties>::value ||
           llvm::is_detected<OverflowMember, typename OpTy::Properties>::value;
}

/// Whether OpTy(args...) is an elementwise op of operands of one type whose
/// result has that type, without properties (arith.andi, arith.maxsi): its
/// ODS builder sets the operands and infers the result type alone.
template <typename OpTy, typename... Args>
constexpr bool isPlainElementwise() {
  if constexpr (sizeof...(Args) == 0 || OpTy::hasProperties() ||
                !(std::is_convertible_v<Args, Value> && ...))
    return false;
  else
    return OpTy::template hasTrait<OpTrait::SameOperandsAndResultType>();
}

/// Whether OpTy(predicate, lhs, rhs) is a comparison whose ODS builder sets
/// the predicate (and, for a float one, `none` fast-math flags) and infers
/// an i1 of the operands' shape: arith.cmpi and arith.cmpf.
template <typename OpTy, typename... Args>
constexpr bool isComparison() {
  using ArgTuple = std::tuple<std::decay_t<Args>...>;
  if constexpr (sizeof...(Args) != 3)
    return false;
  else if constexpr (!std::is_convertible_v<std::tuple_element_t<1, ArgTuple>,
                                            Value> ||
                     !std::is_convertible_v<std::tuple_element_t<2, ArgTuple>,
                                            Value>)
    return false;
  else if constexpr (std::is_same_v<OpTy, arith::CmpIOp>)
    return std::is_same_v<std::tuple_element_t<0, ArgTuple>,
                          arith::CmpIPredicate> &&
           sizeof(typename OpTy::Properties) == sizeof(Attribute);
  else if constexpr (std::is_same_v<OpTy, arith::CmpFOp>)
    return std::is_same_v<std::tuple_element_t<0, ArgTuple>,
                          arith::CmpFPredicate> &&
           sizeof(typename OpTy::Properties) == 2 * sizeof(Attribute);
  else
    return false;
}
} // namespace detail

/// The op OpTy of `operands`, `resultTypes` and `properties` and no other
/// attributes, regions or successors, created without an OperationState:
/// what createFromState does with the state an ODS builder that only sets
/// these fills (an op without properties gets none, as its state has
/// none). Null when the context has not loaded OpTy's dialect.
template <typename OpTy>
OpTy createDirect(BodyBuilder &builder, Location loc, TypeRange resultTypes,
                  ValueRange operands, typename OpTy::Properties &properties) {
  std::optional<RegisteredOperationName> name =
      builder.opName(TypeID::get<OpTy>());
  if (!name)
    return OpTy();
  OpaqueProperties opaque(nullptr);
  if constexpr (OpTy::hasProperties())
    opaque = OpaqueProperties(&properties);
  Operation *op = Operation::create(loc, *name, resultTypes, operands,
                                    builder.getFlags().noAttrs, opaque,
                                    /*successors=*/{}, /*numRegions=*/0);
  return cast<OpTy>(builder.insert(op));
}

/// createOp at a body's builder: the same op, for less. An elementwise op of
/// one type with flags (`none`) and a constant, whose ODS builders set only
/// their operands, result type and their one property (checked by the
/// properties' size: an op with more falls back to its ODS builder, given
/// the flags and the type; a constant's value is a TypedAttr, an attribute
/// and its interface), an elementwise op of one type without properties and
/// a scalar comparison are created directly; other ops as createOp does.
/// Either way the op's name comes from the builder's cache (opName).
template <typename OpTy, typename... Args>
OpTy createOp(BodyBuilder &builder, Location loc, Args &&...args) {
  OpBuilder &base = builder;
  if constexpr (detail::isFlaggedElementwise<OpTy, Args...>()) {
    using Properties = typename OpTy::Properties;
    constexpr bool fastMath =
        llvm::is_detected<detail::FastMathMember, Properties>::value;
    Value operands[] = {Value(args)...};
    Type type = operands[0].getType();
    if constexpr (sizeof(Properties) == sizeof(Attribute)) {
      Properties properties{};
      if constexpr (fastMath)
        properties.fastmath = builder.getFlags().noFastMath;
      else
        properties.overflowFlags = builder.getFlags().noOverflow;
      if (OpTy op =
              createDirect<OpTy>(builder, loc, type, operands, properties))
        return op;
      return createOp<OpTy>(base, loc, std::forward<Args>(args)...);
    } else if constexpr (fastMath) {
      return createOp<OpTy>(base, loc, type, Value(args)...,
                            builder.getFlags().noFastMath);
    } else {
      return createOp<OpTy>(base, loc, type, Value(args)...,
                            builder.getFlags().noOverflow);
    }
  } else if constexpr (detail::isPlainElementwise<OpTy, Args...>()) {
    // Without properties an op could still keep inherent attributes in its
    // dictionary; none of arith's and math's does.
    Value operands[] = {Value(args)...};
    typename OpTy::Properties none;
    if (OpTy::getAttributeNames().empty())
      if (OpTy op = createDirect<OpTy>(builder, loc, operands[0].getType(),
                                       operands, none))
        return op;
    return createOp<OpTy>(base, loc, std::forward<Args>(args)...);
  } else if constexpr (detail::isComparison<OpTy, Args...>()) {
    auto [predicate, lhs, rhs] = std::forward_as_tuple(args...);
    Value operands[] = {Value(lhs), Value(rhs)};
    // A shaped operand compares to a shaped i1: left to the ODS builder.
    if (!isa<ShapedType>(operands[0].getType())) {
      typename OpTy::Properties properties{};
      properties.predicate =
          std::remove_reference_t<decltype(properties.predicate)>::get(
              builder.getContext(), predicate);
      if constexpr (std::is_same_v<OpTy, arith::CmpFOp>)
        properties.fastmath = builder.getFlags().noFastMath;
      if (OpTy op = createDirect<OpTy>(builder, loc, builder.getI1Type(),
                                       operands, properties))
        return op;
    }
    return createOp<OpTy>(base, loc, std::forward<Args>(args)...);
  } else if constexpr (std::is_same_v<OpTy, arith::ConstantOp> &&
                       sizeof...(Args) == 1 &&
                       (std::is_convertible_v<Args, TypedAttr> && ...) &&
                       sizeof(typename OpTy::Properties) == sizeof(TypedAttr)) {
    TypedAttr value = std::get<0>(std::forward_as_tuple(args...));
    typename OpTy::Properties properties{};
    properties.value = value;
    if (OpTy op =
            createDirect<OpTy>(builder, loc, value.getType(), {}, properties))
      return op;
    return createOp<OpTy>(base, loc, std::forward<Args>(args)...);
  } else {
    return createNamedOp<OpTy>(base, builder.opName(TypeID::get<OpTy>()), loc,
                               std::forward<Args>(args)...);
  }
}

} // namespace mlir::fusion::inductor

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_CREATEOP_H
