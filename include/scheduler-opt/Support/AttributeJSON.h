//===- AttributeJSON.h - Attributes of plain data as JSON -------*- C++ -*-===//
//
// The JSON form of an attribute that holds plain data (dictionaries, arrays,
// strings, booleans, integers, floats; a unit attribute is null): how the
// project writes the data it keeps in attributes (launch manifests, the
// fusion pass's remark data) for tools outside MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_SUPPORT_ATTRIBUTEJSON_H
#define SCHEDULER_OPT_SUPPORT_ATTRIBUTEJSON_H

#include "mlir/IR/Attributes.h"
#include "llvm/Support/JSON.h"

namespace mlir {
namespace fusion {

/// The JSON form of `attr`; attributes other than the above are null. The
/// value owns its strings: it may outlive the attribute's context.
llvm::json::Value attributeToJSON(Attribute attr);

} // namespace fusion
} // namespace mlir

#endif // SCHEDULER_OPT_SUPPORT_ATTRIBUTEJSON_H
