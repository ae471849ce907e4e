//===- AttributeJSON.cpp - Attributes of plain data as JSON ---------------===//

#include "scheduler-opt/Support/AttributeJSON.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

llvm::json::Value mlir::fusion::attributeToJSON(Attribute attr) {
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute entry : dict)
      object[entry.getName().str()] = attributeToJSON(entry.getValue());
    return object;
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array result;
    for (Attribute element : array)
      result.push_back(attributeToJSON(element));
    return result;
  }
  if (auto str = dyn_cast<StringAttr>(attr))
    return str.str();
  if (auto boolean = dyn_cast<BoolAttr>(attr))
    return boolean.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getInt();
  if (auto real = dyn_cast<FloatAttr>(attr))
    return real.getValueAsDouble();
  return nullptr;
}
