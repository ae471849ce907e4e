//===- CreateOp.h - Cheaper op creation for the importer -------*- C++ -*-===//
//
// createOp<OpTy>(builder, loc, args...) builds the same operation as
// OpTy::create(builder, loc, args...), through OpTy's own ODS builder, for
// less: ODS's create names the op by its string (a hash and a probe of the
// context's table of operation names), allocates the op's properties on the
// heap, and OpBuilder::create copies the state's attributes through a
// DictionaryAttr and a NamedAttrList on their way to Operation::create. Here
// the op is named by its TypeID, its properties live on the stack until the
// op copies them, and an op without attributes, regions or successors (every
// op of a loop body but `fusion.masked` and the scan ops) is created from
// the state's fields directly. The importer builds about 9 ops a node.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_LIB_TARGET_INDUCTOR_CREATEOP_H
#define SCHEDULER_OPT_LIB_TARGET_INDUCTOR_CREATEOP_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"

#include <utility>

namespace mlir::fusion::inductor {

/// Creates the op `state` describes at `builder`'s insertion point.
inline Operation *createFromState(OpBuilder &builder, OperationState &state) {
  if (!state.attributes.empty() || state.propertiesAttr ||
      !state.regions.empty() || !state.successors.empty())
    return builder.create(state);
  Operation *op = Operation::create(
      state.location, state.name, state.types, state.operands,
      DictionaryAttr::get(builder.getContext()), state.getRawProperties(),
      /*successors=*/{}, /*numRegions=*/0);
  return builder.insert(op);
}

/// OpTy::create(builder, loc, args...), cheaper (see the file comment).
template <typename OpTy, typename... Args>
OpTy createOp(OpBuilder &builder, Location loc, Args &&...args) {
  std::optional<RegisteredOperationName> name = RegisteredOperationName::lookup(
      TypeID::get<OpTy>(), builder.getContext());
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

} // namespace mlir::fusion::inductor

#endif // SCHEDULER_OPT_LIB_TARGET_INDUCTOR_CREATEOP_H
