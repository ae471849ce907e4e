//===- InductorDumpWriter.cpp - Generated graphs as Inductor dumps --------===//
//
// The model is built first (nodes, buffers, who reads what), then printed
// as Inductor prints it: SchedulerNode.debug_str with its read/write
// dependences (pformat of the sorted sets, trailing unused loop variables
// dropped), the outputs and their users, the layouts of every buffer a node
// touches, and LoopBody.debug_str (index0..., get_index, load, ops.* named
// with Inductor's per-name counters). Pointwise nodes whose accesses are
// all contiguous have their loops merged into one, as simplify_loops does.
//
//===----------------------------------------------------------------------===//

#include "InductorDumpWriter.h"

#include "SplitMix64.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::fusion;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

namespace {

using Random = SplitMix64;

enum class NodeKind { Pointwise, Reduction, ColumnReduction, Extern, Copy };

/// How a node's loops index a buffer it reads. Loops are (rows, cols) for
/// a pointwise node or a reduction over the last dim, and (cols, rows) for
/// a reduction over the rows.
enum class Access {
  Full,       // the buffer has the node's shape: row-major
  Row,        // a buffer of one value per row (a statistic)
  Col,        // a buffer of one value per column (a bias)
  Transposed, // a (cols, rows) buffer read across
};

struct Read {
  unsigned buffer;
  Access access;
};

struct Buffer {
  /// `primals_<n>` for graph inputs, `buf<n>` (n: the producer) otherwise.
  unsigned number;
  bool isInput;
  SmallVector<int64_t, 2> size;
  SmallVector<unsigned, 4> users;
  bool isOutput = false;
  /// A Copy node's buffer: the graph input it updates in place.
  int mutates = -1;
};

struct Node {
  NodeKind kind;
  unsigned out;
  SmallVector<Read, 4> reads;
  /// Reductions: the size of the reduced dim.
  int64_t reduced = 0;
  /// Extern: the kernel; reductions: the reduction type.
  const char *what = "";
  /// Pointwise math ops after the loads.
  unsigned depth = 0;
  uint64_t seed = 0;
};

class Model {
public:
  explicit Model(const InductorDumpOptions &options)
      : options(options), rng(options.seed) {}
  void build();
  void print(llvm::raw_ostream &os) const;
  void printFxGraph(llvm::raw_ostream &os) const;

private:
  unsigned input(SmallVector<int64_t, 2> size);
  unsigned add(NodeKind kind, SmallVector<int64_t, 2> size,
               SmallVector<Read, 4> reads, const char *what = "",
               unsigned depth = 0, int64_t reduced = 0);
  unsigned pointwise(SmallVector<int64_t, 2> size, SmallVector<Read, 4> reads,
                     unsigned depth) {
    return add(NodeKind::Pointwise, size, reads, "", depth);
  }
  unsigned mm(StringRef kernel, SmallVector<unsigned, 2> inputs,
              SmallVector<int64_t, 2> size);
  unsigned layerNorm(unsigned x);
  void layer(unsigned layerIndex);

  std::string bufferName(unsigned b) const {
    const Buffer &buffer = buffers[b];
    return (buffer.isInput ? "primals_" : "buf") +
           std::to_string(buffer.number);
  }
  /// The loops of node n: sizes and reduction sizes, after simplify_loops.
  std::pair<SmallVector<int64_t, 2>, SmallVector<int64_t, 1>>
  loops(const Node &node) const;
  /// The index of an access in the loop variables `prefix`0, 1, ...; sets
  /// `numVars` to the variables a MemoryDep keeps (trailing unused ones go).
  std::string index(const Node &node, Access access, char prefix,
                    unsigned &numVars) const;
  std::string memoryDep(const Node &node, unsigned buffer, Access access,
                        bool write) const;
  std::string layout(unsigned b) const;
  void printNode(llvm::raw_ostream &os, unsigned n) const;
  void printBody(llvm::raw_ostream &os, const Node &node,
                 const SmallVector<int64_t, 2> &vars) const;

  const InductorDumpOptions &options;
  Random rng;
  std::vector<Buffer> buffers;
  std::vector<Node> nodes;
  unsigned numInputs = 0;
  /// The residual stream after each layer.
  std::vector<unsigned> residual;
};

} // namespace

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

unsigned Model::input(SmallVector<int64_t, 2> size) {
  Buffer buffer;
  buffer.number = ++numInputs;
  buffer.isInput = true;
  buffer.size = std::move(size);
  buffers.push_back(std::move(buffer));
  return buffers.size() - 1;
}

unsigned Model::add(NodeKind kind, SmallVector<int64_t, 2> size,
                    SmallVector<Read, 4> reads, const char *what,
                    unsigned depth, int64_t reduced) {
  Buffer buffer;
  buffer.number = nodes.size();
  buffer.isInput = false;
  buffer.size = std::move(size);
  buffers.push_back(std::move(buffer));
  Node node;
  node.kind = kind;
  node.out = buffers.size() - 1;
  node.reads = std::move(reads);
  node.what = what;
  node.depth = depth;
  node.reduced = reduced;
  node.seed = rng.next();
  for (const Read &read : node.reads) {
    SmallVector<unsigned, 4> &users = buffers[read.buffer].users;
    if (users.empty() || users.back() != nodes.size())
      users.push_back(nodes.size());
  }
  nodes.push_back(std::move(node));
  return buffers.size() - 1;
}

unsigned Model::mm(StringRef kernel, SmallVector<unsigned, 2> inputs,
                   SmallVector<int64_t, 2> size) {
  SmallVector<Read, 4> reads;
  for (unsigned b : inputs)
    reads.push_back({b, Access::Full});
  return add(NodeKind::Extern, size, reads, kernel.data());
}

/// Inductor's layer norm before fusion: mean and variance (reductions over
/// the row), then the normalizing epilogue with weight and bias.
unsigned Model::layerNorm(unsigned x) {
  int64_t rows = options.rows, hidden = options.hidden;
  unsigned mean =
      add(NodeKind::Reduction, {rows}, {{x, Access::Full}}, "sum", 1, hidden);
  unsigned var =
      add(NodeKind::Reduction, {rows}, {{x, Access::Full}, {mean, Access::Row}},
          "sum", 3, hidden);
  unsigned weight = input({hidden}), bias = input({hidden});
  return pointwise({rows, hidden},
                   {{x, Access::Full},
                    {mean, Access::Row},
                    {var, Access::Row},
                    {weight, Access::Col},
                    {bias, Access::Col}},
                   6);
}

/// One transformer block.
void Model::layer(unsigned layerIndex) {
  int64_t rows = options.rows, hidden = options.hidden, seq = 128;
  unsigned x = residual.back();
  unsigned ln1 = layerNorm(x);
  unsigned qkv = mm("extern_kernels.mm", {ln1, input({hidden, 3 * hidden})},
                    {rows, 3 * hidden});
  unsigned scores =
      mm("extern_kernels.mm", {qkv, input({3 * hidden, seq})}, {rows, seq});
  // Softmax: a max and a sum of exponentials (reductions), then the
  // normalizing epilogue.
  unsigned max =
      add(NodeKind::Reduction, {rows}, {{scores, Access::Full}}, "max", 0, seq);
  unsigned sum =
      add(NodeKind::Reduction, {rows},
          {{scores, Access::Full}, {max, Access::Row}}, "sum", 2, seq);
  unsigned probs = pointwise(
      {rows, seq},
      {{scores, Access::Full}, {max, Access::Row}, {sum, Access::Row}}, 3);
  unsigned attn = mm("extern_kernels.bmm", {probs, qkv}, {rows, hidden});
  unsigned proj =
      mm("extern_kernels.mm", {attn, input({hidden, hidden})}, {rows, hidden});
  unsigned x1 = pointwise(
      {rows, hidden},
      {{x, Access::Full}, {proj, Access::Full}, {input({hidden}), Access::Col}},
      2);
  unsigned ln2 = layerNorm(x1);
  unsigned fc1 = mm("extern_kernels.mm", {ln2, input({hidden, 4 * hidden})},
                    {rows, 4 * hidden});
  // A deep pointwise chain (bias, GELU, dropout-like scaling), now and
  // then reading the matmul's output again.
  unsigned h =
      pointwise({rows, 4 * hidden},
                {{fc1, Access::Full}, {input({4 * hidden}), Access::Col}},
                6 + rng.below(6));
  for (unsigned i = 0, e = rng.below(3); i < e; ++i) {
    SmallVector<Read, 4> reads = {{h, Access::Full}};
    if (rng.below(2))
      reads.push_back({fc1, Access::Full});
    h = pointwise({rows, 4 * hidden}, reads, 3 + rng.below(8));
  }
  unsigned fc2 =
      mm("extern_kernels.mm", {h, input({4 * hidden, hidden})}, {rows, hidden});
  // The residual add; every few layers also the stream of a layer far
  // back (a long skip connection).
  SmallVector<Read, 4> reads = {
      {x1, Access::Full}, {fc2, Access::Full}, {input({hidden}), Access::Col}};
  if (options.skipEvery && layerIndex % options.skipEvery == 0 &&
      options.skipDistance && residual.size() > options.skipDistance)
    reads.push_back(
        {residual[residual.size() - 1 - options.skipDistance], Access::Full});
  unsigned x2 = pointwise({rows, hidden}, reads, 2);
  residual.push_back(x2);
  // A running statistic, updated in place (as batch norm's running mean
  // or an optimizer's state): a reduction over the rows, the update, and
  // the copy into the graph input.
  unsigned colsum = add(NodeKind::ColumnReduction, {hidden},
                        {{x2, Access::Full}}, "sum", 1, rows);
  unsigned running = input({hidden});
  unsigned update =
      pointwise({hidden}, {{running, Access::Full}, {colsum, Access::Full}}, 4);
  unsigned copy = add(NodeKind::Copy, {hidden}, {{update, Access::Full}});
  buffers[copy].mutates = running;
  buffers[copy].isOutput = true;
  // A wide fan-out: statistics of the stream (reductions with an
  // epilogue each), graph outputs.
  if (options.probeEvery &&
      layerIndex % options.probeEvery == options.probeEvery - 1)
    for (unsigned i = 0; i < options.probeWidth; ++i) {
      unsigned stat = add(NodeKind::Reduction, {rows}, {{x2, Access::Full}},
                          i % 3 ? "sum" : "max", 1 + i % 3, hidden);
      unsigned out = pointwise({rows}, {{stat, Access::Full}}, 2);
      buffers[out].isOutput = true;
    }
  // Transposed reads: a layer now and then stores its stream transposed
  // for the next one (as a backward pass's permutes do).
  if (rng.below(4) == 0) {
    unsigned t = pointwise({hidden, rows}, {{x2, Access::Transposed}}, 1);
    residual.back() = pointwise(
        {rows, hidden}, {{t, Access::Transposed}, {x2, Access::Full}}, 1);
  }
}

void Model::build() {
  residual.push_back(input({options.rows, options.hidden}));
  for (unsigned index = 0; nodes.size() < options.numNodes; ++index)
    layer(index);
  // The last layer is cut where the nodes run out.
  nodes.resize(options.numNodes);
  for (Buffer &buffer : buffers)
    llvm::erase_if(buffer.users,
                   [&](unsigned user) { return user >= options.numNodes; });
  // What nothing reads is a graph output (the last layer's stream, the
  // statistics, a layer cut short).
  for (Buffer &buffer : buffers)
    if (!buffer.isInput && buffer.number < options.numNodes &&
        buffer.users.empty())
      buffer.isOutput = true;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static void printList(llvm::raw_ostream &os, ArrayRef<int64_t> values) {
  os << '[';
  llvm::interleaveComma(values, os);
  os << ']';
}

/// Inductor's pformat of a (sorted) set: one line when it fits in 80
/// columns, else pprint's indented form on lines of their own.
static void printPformat(llvm::raw_ostream &os, ArrayRef<std::string> items) {
  size_t width = 2;
  for (const std::string &item : items)
    width += item.size() + 2;
  if (items.size() < 2 || width - 2 <= 80) {
    os << (width - 2 > 80 ? "[   " : "[");
    llvm::interleave(items, os, ", ");
    os << "]\n";
    return;
  }
  os << "\n    [   ";
  llvm::interleave(items, os, ",\n        ");
  os << "]\n";
}

std::pair<SmallVector<int64_t, 2>, SmallVector<int64_t, 1>>
Model::loops(const Node &node) const {
  const SmallVector<int64_t, 2> &size = buffers[node.out].size;
  switch (node.kind) {
  case NodeKind::Reduction:
  case NodeKind::ColumnReduction:
    return {size, {node.reduced}};
  case NodeKind::Pointwise:
  case NodeKind::Copy:
  case NodeKind::Extern:
    break;
  }
  bool contiguous = llvm::all_of(
      node.reads, [](const Read &read) { return read.access == Access::Full; });
  if (contiguous && size.size() == 2)
    return {{size[0] * size[1]}, {}};
  return {size, {}};
}

std::string Model::index(const Node &node, Access access, char prefix,
                         unsigned &numVars) const {
  auto [sizes, reduction] = loops(node);
  SmallVector<int64_t, 2> vars(sizes);
  vars.append(reduction.begin(), reduction.end());
  std::string v0 = std::string(1, prefix) + "0";
  std::string v1 = std::string(1, prefix) + "1";
  if (vars.size() == 1) {
    numVars = 1;
    return v0;
  }
  numVars = 2;
  bool columns = node.kind == NodeKind::ColumnReduction;
  switch (access) {
  case Access::Full:
    // (rows, cols) loops read row-major; (cols, rows) loops across.
    return columns ? v0 + " + " + std::to_string(vars[0]) + "*" + v1
                   : std::to_string(vars[1]) + "*" + v0 + " + " + v1;
  case Access::Row:
    if (columns)
      return v1;
    numVars = 1;
    return v0;
  case Access::Col:
    if (!columns)
      return v1;
    numVars = 1;
    return v0;
  case Access::Transposed:
    return v0 + " + " + std::to_string(vars[0]) + "*" + v1;
  }
  llvm_unreachable("unknown access");
}

std::string Model::memoryDep(const Node &node, unsigned buffer, Access access,
                             bool write) const {
  auto [sizes, reduction] = loops(node);
  SmallVector<int64_t, 2> vars(sizes);
  if (!write)
    vars.append(reduction.begin(), reduction.end());
  unsigned numVars;
  std::string expr;
  if (write && !reduction.empty()) {
    expr = "d0";
    numVars = 1;
  } else if (write) {
    expr = vars.size() == 1 ? "d0" : std::to_string(vars[1]) + "*d0 + d1";
    numVars = vars.size();
  } else {
    expr = index(node, access, 'd', numVars);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "MemoryDep('" << bufferName(buffer) << "', " << expr << ", {";
  for (unsigned d = 0; d < numVars; ++d)
    os << (d ? ", " : "") << 'd' << d << ": " << vars[d];
  os << "})";
  return text;
}

std::string Model::layout(unsigned b) const {
  const Buffer &buffer = buffers[b];
  SmallVector<int64_t, 2> stride(buffer.size.size(), 1);
  for (int i = static_cast<int>(buffer.size.size()) - 2; i >= 0; --i)
    stride[i] = stride[i + 1] * buffer.size[i + 1];
  std::string text;
  llvm::raw_string_ostream os(text);
  os << (buffer.mutates >= 0 ? "MutationLayoutSHOULDREMOVE" : "FixedLayout")
     << "('cuda:0', torch.float32, size=";
  printList(os, buffer.size);
  os << ", stride=";
  printList(os, stride);
  os << ')';
  return text;
}

/// Inductor's names of FX nodes: `load`, `load_1`, ...
namespace {
class Namer {
public:
  std::string operator()(StringRef base) {
    unsigned count = counts[base]++;
    return count ? (base + "_" + llvm::Twine(count)).str() : base.str();
  }

private:
  llvm::StringMap<unsigned> counts;
};
} // namespace

void Model::printBody(llvm::raw_ostream &os, const Node &node,
                      const SmallVector<int64_t, 2> &vars) const {
  unsigned n = buffers[node.out].number;
  os << "class op" << n << "_loop_body:\n    var_ranges = {";
  for (auto [i, size] : llvm::enumerate(vars))
    os << (i ? ", " : "") << 'p' << i << ": " << size;
  os << "}\n";
  // Index expressions, numbered in order of first use (the loads', then
  // the store's).
  SmallVector<std::string, 6> indices;
  auto indexOf = [&](const std::string &expr) {
    auto it = llvm::find(indices, expr);
    if (it != indices.end())
      return static_cast<unsigned>(it - indices.begin());
    indices.push_back(expr);
    return static_cast<unsigned>(indices.size() - 1);
  };
  unsigned numVars;
  SmallVector<unsigned, 4> loadIndex;
  for (const Read &read : node.reads)
    loadIndex.push_back(indexOf(index(node, read.access, 'p', numVars)));
  bool reduction = node.kind == NodeKind::Reduction ||
                   node.kind == NodeKind::ColumnReduction;
  std::string storeExpr;
  if (vars.size() == 1 || reduction)
    storeExpr = "p0";
  else
    storeExpr = std::to_string(vars[1]) + "*p0 + p1";
  unsigned storeIndex = indexOf(storeExpr);
  for (auto [i, expr] : llvm::enumerate(indices))
    os << "    index" << i << " = " << expr << "\n";
  os << "    def body(self, ops):\n";

  Namer name;
  Random random(node.seed);
  SmallVector<std::string, 8> values;
  SmallVector<bool, 8> used;
  auto emit = [&](StringRef base, const llvm::Twine &call) {
    std::string target = name(base);
    os << "        " << target << " = " << call << "\n";
    return target;
  };
  for (auto [read, idx] : llvm::zip(node.reads, loadIndex)) {
    std::string getIndex =
        emit("get_index", "self.get_index('index" + llvm::Twine(idx) + "')");
    values.push_back(emit("load", "ops.load('" + bufferName(read.buffer) +
                                      "', " + getIndex + ")"));
    used.push_back(false);
  }
  static const char *const kUnary[] = {"exp",  "tanh", "sigmoid",
                                       "relu", "sqrt", "neg"};
  static const char *const kBinary[] = {"add", "mul", "sub", "truediv",
                                        "maximum"};
  std::string last = values.back();
  used.back() = true;
  for (unsigned i = 0; i < node.depth; ++i) {
    unsigned roll = random.below(10);
    if (roll < 4 && values.size() > 1) {
      unsigned other = random.below(values.size());
      used[other] = true;
      StringRef op = kBinary[random.below(std::size(kBinary))];
      last = emit(op, "ops." + op + "(" + last + ", " + values[other] + ")");
    } else if (roll < 6) {
      std::string constant =
          emit("constant", "ops.constant(0.5, torch.float32)");
      last = emit("mul", "ops.mul(" + last + ", " + constant + ")");
    } else {
      StringRef op = kUnary[random.below(std::size(kUnary))];
      last = emit(op, "ops." + op + "(" + last + ")");
    }
  }
  for (auto [value, isUsed] : llvm::zip(values, used))
    if (!isUsed)
      last = emit("add", "ops.add(" + last + ", " + value + ")");
  if (reduction) {
    std::string result =
        emit("reduction", "ops.reduction(torch.float32, torch.float32, '" +
                              StringRef(node.what) + "', " + last + ")");
    std::string getIndex = emit(
        "get_index", "self.get_index('index" + llvm::Twine(storeIndex) + "')");
    emit("store_reduction", "ops.store_reduction('" + bufferName(node.out) +
                                "', " + getIndex + ", " + result + ")");
    os << "        return None\n";
    return;
  }
  std::string getIndex = emit("get_index", "self.get_index('index" +
                                               llvm::Twine(storeIndex) + "')");
  std::string store =
      emit("store", "ops.store('" + bufferName(node.out) + "', " + getIndex +
                        ", " + last + ", None)");
  os << "        return " << store << "\n";
}

void Model::printNode(llvm::raw_ostream &os, unsigned n) const {
  const Node &node = nodes[n];
  const Buffer &out = buffers[node.out];
  std::string name = "op" + std::to_string(n);
  bool isExtern = node.kind == NodeKind::Extern;
  os << name << ": "
     << (isExtern ? "ExternKernelSchedulerNode(ExternKernelOut)"
                  : "SchedulerNode(ComputedBuffer)")
     << "\n";

  // Dependences: writes, then the reads of produced buffers (unmet) and of
  // graph inputs (met), each sorted by text as Inductor's pformat does.
  SmallVector<std::string, 4> writes, unmet, met;
  if (isExtern)
    writes.push_back("StarDep(name='" + bufferName(node.out) + "', mode=None)");
  else
    writes.push_back(memoryDep(node, node.out, Access::Full, /*write=*/true));
  for (const Read &read : node.reads) {
    std::string dep =
        isExtern ? "StarDep(name='" + bufferName(read.buffer) + "', mode=None)"
                 : memoryDep(node, read.buffer, read.access, false);
    auto &list = buffers[read.buffer].isInput ? met : unmet;
    if (!llvm::is_contained(list, dep))
      list.push_back(dep);
  }
  if (out.mutates >= 0) {
    met.push_back("StarDep(name='" + bufferName(out.mutates) + "', mode=None)");
    // Mutation orders the earlier readers of the input first (WeakDeps on
    // their buffers).
    for (unsigned reader : buffers[out.mutates].users)
      unmet.push_back("WeakDep(name='" + bufferName(nodes[reader].out) +
                      "', mutating_buf='" + bufferName(node.out) +
                      "', is_fake=True)");
  }
  for (auto *list : {&writes, &unmet, &met})
    llvm::sort(*list);
  os << name << ".writes = ";
  printPformat(os, writes);
  os << name << ".unmet_dependencies = ";
  printPformat(os, unmet);
  os << name << ".met_dependencies = ";
  printPformat(os, met);

  std::string buf = bufferName(node.out);
  os << name << ".outputs = [\n    " << buf << ": "
     << (isExtern ? "ExternKernelOut" : "ComputedBuffer") << "\n    " << buf
     << ".layout = " << layout(node.out) << "\n";
  if (out.mutates >= 0)
    os << "    " << buf << ".mutations = ['" << bufferName(out.mutates)
       << "']\n";
  SmallVector<std::string, 4> users;
  for (unsigned user : out.users) {
    const Node &reader = nodes[user];
    bool external = reader.kind == NodeKind::Extern;
    // can_inplace: the reader writes its output at the index it reads
    // this buffer at (same elements, same order), into a buffer of its own
    // (not a mutated input's storage).
    auto strip = [](std::string dep) { return dep.substr(dep.find(',')); };
    bool inplace =
        !external && buffers[reader.out].mutates < 0 &&
        llvm::any_of(reader.reads, [&](const Read &read) {
          return read.buffer == node.out &&
                 strip(memoryDep(reader, read.buffer, read.access, false)) ==
                     strip(memoryDep(reader, reader.out, Access::Full, true));
        });
    users.push_back(
        (llvm::Twine("NodeUser(node=") +
         (external ? "ExternKernelSchedulerNode" : "SchedulerNode") +
         "(name='op" + llvm::Twine(user) +
         "'), can_inplace=" + (inplace ? "True" : "False") + ", is_weak=False)")
            .str());
  }
  if (out.isOutput)
    users.push_back("NodeUser(node=OUTPUT, can_inplace=False, is_weak=False)");
  if (users.size() <= 1) {
    os << "    " << buf << ".users = [" << (users.empty() ? "" : users[0])
       << "]\n";
  } else {
    os << "    " << buf << ".users = [\n";
    for (const std::string &user : users)
      os << "        " << user << ",\n";
    os << "    ]\n";
  }
  os << "]\n";
  if (isExtern) {
    os << name << ".node.kernel = " << node.what << "\n\n\n";
    return;
  }

  auto [sizes, reduction] = loops(node);
  int64_t numel = 1, rnumel = 1;
  for (int64_t size : sizes)
    numel *= size;
  for (int64_t size : reduction)
    rnumel *= size;
  os << name << ".group.device = cuda:0\n"
     << name << ".group.iteration = (" << numel << ", " << rnumel << ")\n"
     << name << ".sizes = (";
  printList(os, sizes);
  os << ", ";
  printList(os, reduction);
  os << ")\n";
  // The layouts of what the node reads and writes, in read_writes order.
  SmallVector<unsigned, 4> seen;
  for (const Read &read : node.reads)
    if (!llvm::is_contained(seen, read.buffer)) {
      seen.push_back(read.buffer);
      os << bufferName(read.buffer) << "_layout = " << layout(read.buffer)
         << "\n";
    }
  if (out.mutates >= 0)
    os << bufferName(out.mutates) << "_layout = " << layout(out.mutates)
       << "\n";
  os << buf << "_layout = " << layout(node.out) << "\n";
  SmallVector<int64_t, 2> vars(sizes);
  vars.append(reduction.begin(), reduction.end());
  printBody(os, node, vars);
  os << "\n\n";
}

void Model::print(llvm::raw_ostream &os) const {
  for (unsigned n = 0, e = nodes.size(); n < e; ++n)
    printNode(os, n);
}

void Model::printFxGraph(llvm::raw_ostream &os) const {
  os << "class GraphModule(torch.nn.Module):\n    def forward(self";
  for (unsigned b = 0, e = buffers.size(); b < e; ++b) {
    if (!buffers[b].isInput)
      continue;
    os << ", " << bufferName(b) << ": \"f32";
    printList(os, buffers[b].size);
    os << '"';
  }
  os << "):\n        pass\n";
}

void mlir::fusion::writeInductorDump(const InductorDumpOptions &options,
                                     llvm::raw_ostream &dump,
                                     llvm::raw_ostream &fxGraph) {
  Model model(options);
  model.build();
  model.print(dump);
  model.printFxGraph(fxGraph);
}
