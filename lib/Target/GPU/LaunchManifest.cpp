//===- LaunchManifest.cpp - The launch manifest's schema ------------------===//
//
// The schema's types (its comment says the same): string, int, size (an
// integer or a string), object, [T], {T}, a record's name, or R:K for R
// when the object's kind is K; a trailing ? marks a key that may be left
// out, and a key the record does not name is an error.
//
//===----------------------------------------------------------------------===//

#include "scheduler-opt/Target/GPU/LaunchManifest.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::fusion;

#include "LaunchManifestSchema.inc"

/// The schema, parsed once; it is part of the build, so it must parse.
static const llvm::json::Object &getSchema() {
  static const llvm::json::Value schema = [] {
    llvm::Expected<llvm::json::Value> parsed =
        llvm::json::parse(kLaunchManifestSchema);
    if (!parsed || !parsed->getAsObject())
      llvm::report_fatal_error("manifest_schema.json does not parse");
    return std::move(*parsed);
  }();
  return *schema.getAsObject();
}

int64_t mlir::fusion::getLaunchManifestVersion() {
  return *getSchema().getInteger("version");
}

/// Checks `value` against `type`; on a mismatch, sets `error`.
static bool check(const llvm::json::Value &value, StringRef type,
                  const std::string &path, std::string &error) {
  auto fail = [&](const Twine &why) {
    error = (path + ": " + why).str();
    return false;
  };
  if (type == "string")
    return value.getAsString() ? true : fail("expected a string");
  if (type == "int")
    return value.getAsInteger() ? true : fail("expected an integer");
  if (type == "size")
    return value.getAsInteger() || value.getAsString()
               ? true
               : fail("expected a size (an integer or an expression)");
  if (type == "object")
    return value.getAsObject() ? true : fail("expected an object");
  if (type.starts_with("[")) {
    const llvm::json::Array *array = value.getAsArray();
    if (!array)
      return fail("expected an array");
    for (auto [i, element] : llvm::enumerate(*array))
      if (!check(element, type.drop_front().drop_back(),
                 path + "[" + std::to_string(i) + "]", error))
        return false;
    return true;
  }
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return fail("expected an object");
  if (type.starts_with("{")) {
    for (const auto &[key, element] : *object)
      if (!check(element, type.drop_front().drop_back(),
                 path + "." + key.str(), error))
        return false;
    return true;
  }
  const llvm::json::Object &records = *getSchema().getObject("records");
  const llvm::json::Object *record = records.getObject(type);
  if (!record) {
    std::optional<StringRef> kind = object->getString("kind");
    if (kind)
      record = records.getObject((type + ":" + *kind).str());
    if (!record)
      return fail("unknown " + type + " kind '" + kind.value_or("") + "'");
  }
  for (const auto &entry : *object)
    if (!record->get(entry.first))
      return fail("unknown key '" + entry.first.str() + "'");
  // In key order, so that the first mismatch is the same on every run.
  SmallVector<StringRef> keys;
  for (const auto &entry : *record)
    keys.push_back(entry.first);
  llvm::sort(keys);
  for (StringRef key : keys) {
    StringRef fieldType = *record->getString(key);
    bool optional = fieldType.consume_back("?");
    if (const llvm::json::Value *field = object->get(key)) {
      if (!check(*field, fieldType, path + "." + key.str(), error))
        return false;
    } else if (!optional) {
      return fail("missing key '" + key + "'");
    }
  }
  return true;
}

LogicalResult mlir::fusion::checkLaunchManifest(
    const llvm::json::Value &manifest, std::string &error) {
  return success(check(manifest, "manifest", "manifest", error));
}
