//===- GraphMutator.cpp - Semantic mutations of fusion graphs -------------===//

#include "GraphMutator.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <string>

using namespace mlir;
using namespace mlir::fusion::fuzz;

namespace {

/// Values worth trying where a number was: edge sizes, odd sizes, powers
/// of two and the ends of int64.
const char *const kNumbers[] = {
    "0",          "1",          "2",          "3",
    "7",          "17",         "64",         "-1",
    "-8",         "2147483647", "2147483648", "4294967296",
    "4611686018427387904",      "9223372036854775807",
    "-9223372036854775808"};

/// Words that may stand for one another: element types, extern kinds,
/// reduction kinds, index variables.
const char *const kWords[][20] = {
    {"f32", "f16", "bf16", "f64", "i64", "i32", "i16", "i8", "i1", "ui8",
     "ui16", "ui32", "ui64", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ",
     "f8E8M0FNU", nullptr},
    {"extern_kernels.mm", "extern_kernels.addmm", "aten.var_mean.correction",
     "multi_output", "aten._assert_async.msg", "aten.add_",
     "extern_kernels.bmm", "aten.convolution.default", "", nullptr},
    {"sum", "prod", "min", "max", "argmin", "argmax", "any", "xor_sum",
     "welford_reduce", nullptr},
    {"d0", "d1", "d2", "s0", "s1", nullptr},
};

/// A token of printed text: [begin, end).
struct Token {
  size_t begin, end;
};

/// The integer literals of `text` (a run of digits, with its minus sign,
/// not part of a word such as `f32` or `d0`).
SmallVector<Token> numberTokens(const std::string &text) {
  SmallVector<Token> tokens;
  for (size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i])) ||
        (i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                   text[i - 1] == '_' || text[i - 1] == '.'))) {
      ++i;
      continue;
    }
    size_t begin = i > 0 && text[i - 1] == '-' ? i - 1 : i;
    size_t end = i;
    while (end < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[end])))
      ++end;
    if (end < text.size() && (text[end] == '.' || text[end] == 'e')) {
      i = end + 1; // A float literal: leave it.
      continue;
    }
    tokens.push_back({begin, end});
    i = end;
  }
  return tokens;
}

/// The occurrences in `text` of the words of kWords, with their group.
SmallVector<std::pair<Token, unsigned>> wordTokens(const std::string &text) {
  SmallVector<std::pair<Token, unsigned>> tokens;
  auto isWordChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '.';
  };
  for (auto [group, words] : llvm::enumerate(kWords)) {
    for (unsigned w = 0; words[w]; ++w) {
      std::string word = words[w];
      if (word.empty())
        continue;
      for (size_t at = text.find(word); at != std::string::npos;
           at = text.find(word, at + 1)) {
        size_t end = at + word.size();
        if ((at > 0 && isWordChar(text[at - 1])) ||
            (end < text.size() && isWordChar(text[end])))
          continue;
        tokens.push_back({{at, end}, static_cast<unsigned>(group)});
      }
    }
  }
  return tokens;
}

/// Replaces a number or a word of `text`, chosen by `bytes`.
bool mutateText(std::string &text, FuzzedDataProvider &bytes) {
  if (bytes.ConsumeBool()) {
    SmallVector<Token> numbers = numberTokens(text);
    if (numbers.empty())
      return false;
    Token t = numbers[bytes.ConsumeIntegralInRange<size_t>(
        0, numbers.size() - 1)];
    std::string value =
        bytes.ConsumeBool()
            ? kNumbers[bytes.ConsumeIntegralInRange<size_t>(
                  0, std::size(kNumbers) - 1)]
            : std::to_string(bytes.ConsumeIntegralInRange<int64_t>(-4, 40));
    text.replace(t.begin, t.end - t.begin, value);
    return true;
  }
  SmallVector<std::pair<Token, unsigned>> words = wordTokens(text);
  if (words.empty())
    return false;
  auto [t, group] =
      words[bytes.ConsumeIntegralInRange<size_t>(0, words.size() - 1)];
  unsigned count = 0;
  while (kWords[group][count])
    ++count;
  text.replace(t.begin, t.end - t.begin,
               kWords[group][bytes.ConsumeIntegralInRange<unsigned>(
                   0, count - 1)]);
  return true;
}

template <typename T>
std::string printed(T entity) {
  std::string text;
  llvm::raw_string_ostream os(text);
  entity.print(os);
  return text;
}

/// What a mutation can change.
struct Sites {
  SmallVector<std::pair<Operation *, StringAttr>> attributes;
  SmallVector<Value> typed;   // Block arguments and op results.
  SmallVector<OpOperand *> operands;
  SmallVector<Value> buffers; // Graph-level values an operand may name.
};

Sites collectSites(ModuleOp module) {
  Sites sites;
  module.walk([&](Operation *op) {
    if (op == module.getOperation())
      return;
    for (NamedAttribute attr : op->getAttrs())
      sites.attributes.push_back({op, attr.getName()});
    for (Value result : op->getResults())
      sites.typed.push_back(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          sites.typed.push_back(arg);
    for (OpOperand &operand : op->getOpOperands())
      sites.operands.push_back(&operand);
    // Values of a graph body: its arguments and top-level results.
    if (op->getName().getStringRef() == "fusion.graph")
      for (Region &region : op->getRegions())
        for (Block &block : region) {
          for (BlockArgument arg : block.getArguments())
            sites.buffers.push_back(arg);
          for (Operation &inner : block)
            for (Value result : inner.getResults())
              sites.buffers.push_back(result);
        }
  });
  return sites;
}

} // namespace

bool mlir::fusion::fuzz::mutateGraph(ModuleOp module,
                                     FuzzedDataProvider &bytes) {
  Sites sites = collectSites(module);
  MLIRContext *context = module.getContext();
  switch (bytes.ConsumeIntegralInRange<unsigned>(0, 2)) {
  case 0: { // An attribute: ranges, index maps, kinds, extern names.
    if (sites.attributes.empty())
      return false;
    auto [op, name] = sites.attributes[bytes.ConsumeIntegralInRange<size_t>(
        0, sites.attributes.size() - 1)];
    std::string text = printed(op->getAttr(name));
    if (!mutateText(text, bytes))
      return false;
    Attribute attr = parseAttribute(text, context);
    if (!attr)
      return false;
    op->setAttr(name, attr);
    return true;
  }
  case 1: { // A type: shapes, strides, offsets, element types.
    if (sites.typed.empty())
      return false;
    Value value = sites.typed[bytes.ConsumeIntegralInRange<size_t>(
        0, sites.typed.size() - 1)];
    std::string text = printed(value.getType());
    if (!mutateText(text, bytes))
      return false;
    Type type = parseType(text, context);
    if (!type)
      return false;
    value.setType(type);
    return true;
  }
  default: { // An operand: a dependence or a mutation target.
    if (sites.operands.empty() || sites.buffers.empty())
      return false;
    OpOperand *operand = sites.operands[bytes.ConsumeIntegralInRange<size_t>(
        0, sites.operands.size() - 1)];
    Value value = sites.buffers[bytes.ConsumeIntegralInRange<size_t>(
        0, sites.buffers.size() - 1)];
    if (value.getType() != operand->get().getType() && bytes.ConsumeBool())
      return false; // Mostly keep operands well typed.
    // A value defined inside the operand's own op would not be in scope.
    if (Operation *def = value.getDefiningOp())
      if (def->isAncestor(operand->getOwner()))
        return false;
    operand->set(value);
    return true;
  }
  }
}
