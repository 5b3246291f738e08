//===- GraphDefKernels.cpp - Triton kernels of one graph_def --------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// One Triton program runs one thread block of the graph_def: `pid_x`,
// `pid_y`, `pid_z` are its grid coordinates. The body becomes straight-line
// tile code in three parts, by loop phase: the invariant ops, a `for i in
// range(forloop)` loop with the per-iteration ops and the accumulation steps,
// and the post-loop ops. Every tile is a float32 register tensor padded as
// TileIndexing.h says.
//
// Triton has no distributed shared memory, so a cluster collective becomes a
// kernel boundary: the kernel before it stores the collective's input tile of
// every block in a scratch buffer, and the kernel after it reads the tiles
// of the block's cluster from there. Each kernel recomputes what it needs
// of the body (docs/Triton.md, "Clusters").
//
//===----------------------------------------------------------------------===//

#include "GraphDefKernels.h"

#include "Elementwise.h"
#include "TileIndexing.h"

#include "Mirage/Analysis/RunningMaxima.h"
#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Thread/IR/ThreadOps.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mirage;
using namespace mlir::mirage::triton;

namespace {

/// The grid axes' names, as in `pid_x`.
constexpr const char *kAxisNames[3] = {"x", "y", "z"};
/// Triton programs index with int32.
constexpr int64_t kMaxElements = int64_t(1) << 31;
/// Triton's largest tensor, in elements (TRITON_MAX_TENSOR_NUMEL).
constexpr int64_t kMaxTritonTensorElements = int64_t(1) << 20;
/// The most values per thread of a tile once padded. Beyond a thread's 255
/// registers a tile spills; far beyond, Triton takes minutes to compile it:
/// an H200 gave up after 20 s on each of eight MHA candidates whose 2x2x4096
/// tiles, padded to 16x16x4096 for tl.dot, held 8192 values per thread
/// (they would have spilled most of them had they compiled).
constexpr int64_t kMaxValuesPerThread = 2048;
/// tl.dot stages its operands in shared memory (227 KiB per block on an
/// H100): a dot of loaded operands beyond this many bytes walks K in chunks
/// of at most kDotChunkBytes, loading each chunk again (an H200 refused a
/// 16x4096 by 4096x16 dot, 256 KiB of operands).
constexpr int64_t kDotOperandBytes = 128 * 1024;
constexpr int64_t kDotChunkBytes = 64 * 1024;

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

Type elementOf(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

/// `2x24xf16`: the shape and element type of `value`, for comments.
std::string typeText(Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t d : shapeOf(value))
    os << d << "x";
  os << elementOf(value);
  return text;
}

bool isCollective(Operation *op) {
  return isa<block::ClusterReduceOp, block::ClusterReduceScatterOp,
             block::ClusterGatherOp>(op);
}

/// The broadcast of two padded shapes of equal rank.
SmallVector<int64_t> broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  SmallVector<int64_t> result(a);
  for (auto [r, e] : llvm::zip(result, b))
    r = std::max(r, e);
  return result;
}

/// The sum, into lane j of `to` lanes along `dim`, of the lanes k of the
/// rank-`rank` tile `x` (`from` lanes along `dim`) with k % `modulus` == j.
std::string selectedSum(StringRef x, unsigned dim, unsigned rank, int64_t from,
                        int64_t modulus, int64_t to) {
  std::string source = laneRange(from);
  if (modulus < from)
    source += " % " + std::to_string(modulus);
  return llvm::formatv(
      "tl.sum(tl.where({0} == {1}, tl.expand_dims({2}, {3}), 0.0), axis={4})",
      alongDim(source, dim, rank + 1),
      alongDim(laneRange(to), dim + 1, rank + 1), x, dim + 1, dim);
}

/// The strided sum (docs/LanguageReference.md, "Strided reductions") of
/// dimension `dim` of the padded tile `x` of `shape` down to `size`: its
/// padding along `dim` must be zero.
std::string stridedSum(StringRef x, ArrayRef<int64_t> shape, unsigned dim,
                       int64_t size) {
  SmallVector<int64_t> padded = paddedShape(shape);
  unsigned rank = shape.size();
  if (size == 1)
    return llvm::formatv("tl.sum({0}, axis={1}, keep_dims=True)", x, dim);
  if (!llvm::isPowerOf2_64(size))
    return selectedSum(x, dim, rank, padded[dim], size,
                       paddedExtent(size, dim, rank));
  // out[j] = Σ_k x[k * size + j]: split the dimension into (k, j) and sum
  // over k, then spread sizes below their padded extent over it.
  SmallVector<int64_t> split(padded.begin(), padded.begin() + dim);
  split.push_back(padded[dim] / size);
  split.push_back(size);
  split.append(padded.begin() + dim + 1, padded.end());
  std::string sum = llvm::formatv("tl.sum(tl.reshape({0}, {1}), axis={2})", x,
                                  tupleLiteral(split), dim);
  if (paddedExtent(size, dim, rank) == size)
    return sum;
  return selectedSum(sum, dim, rank, size, size, paddedExtent(size, dim, rank));
}

/// A dense tile access: the pointers of the tile of `tile` shape whose first
/// element is at index `starts` (a scalar expression per dimension, empty
/// for 0) of a row-major buffer of `strides` at `base`, and the mask of the
/// lanes inside the tile.
struct TileAccess {
  std::string pointers;
  std::string mask;
};

TileAccess tileAccess(StringRef base, ArrayRef<int64_t> tile,
                      ArrayRef<std::string> starts, ArrayRef<int64_t> strides) {
  SmallVector<int64_t> padded = paddedShape(tile);
  unsigned rank = tile.size();
  SmallVector<std::string> terms;
  bool anyLanes = false;
  for (unsigned d = 0; d < rank; ++d) {
    if (padded[d] == 1) {
      if (!starts[d].empty())
        terms.push_back(scaled("(" + starts[d] + ")", strides[d]));
      continue;
    }
    anyLanes = true;
    std::string index = laneRange(padded[d]);
    if (!starts[d].empty())
      index = starts[d] + " + " + index;
    terms.push_back(scaled(alongDim(index, d, rank), strides[d]));
  }
  if (!anyLanes)
    terms.push_back("tl.zeros(" + tupleLiteral(padded) + ", tl.int32)");
  return {(base + " + " + sumOf(terms)).str(), tileMask(tile)};
}

/// `tl.load` of a tile access as float32, padding lanes 0.
std::string loadExpr(const TileAccess &access) {
  if (access.mask.empty())
    return "tl.load(" + access.pointers + ").to(tl.float32)";
  return "tl.load(" + access.pointers + ", mask=" + access.mask +
         ", other=0.0).to(tl.float32)";
}

/// `tl.store` of `value` through a tile access.
std::string storeStmt(const TileAccess &access, StringRef value) {
  std::string text = "tl.store(" + access.pointers + ", " + value.str();
  if (!access.mask.empty())
    text += ", mask=" + access.mask;
  return text + ")";
}

/// Writes the kernels of one graph_def.
class KernelWriter {
public:
  KernelWriter(kernel::GraphDefOp op, PythonWriter &writer, bool &usesLibdevice)
      : op(op), body(op.getBodyBlock()), w(writer),
        usesLibdevice(usesLibdevice) {}

  GraphDefLaunch write(StringRef name);

private:
  void analyze();
  /// The ops kernel `stage` runs: the backward slice of its targets, which
  /// stops at the collectives an earlier stage prepared.
  llvm::SmallPtrSet<Operation *, 16> sliceOf(unsigned stage);
  void writeKernel(StringRef name, unsigned stage);
  void writePrologue();
  void writeOp(Operation *op);
  void writeLoad(block::InputLoaderOp op);
  /// Where the tile of `load` starts along each dimension (empty: 0).
  SmallVector<std::string> loadStarts(block::InputLoaderOp load) const;
  /// Writes `matmul` of two loaded tiles as tl.dots over chunks of K,
  /// loading each chunk again; false, writing nothing, when it does not
  /// need or allow that (see kDotOperandBytes).
  bool writeChunkedMatmul(block::MatmulOp matmul);
  void writeSave(block::OutputSaverOp op);
  void writeMatmul(block::MatmulOp op);
  void writeReduction(block::ReductionOp op);
  /// The maximum over a dimension, its padding lanes -inf.
  void writeReductionMax(block::ReductionMaxOp op);
  void writeRmsNorm(block::RmsNormOp op);
  void writeThreadGraph(block::ThreadGraphOp op);
  void writeCollective(Operation *op);
  void writeScratchStore(Operation *collective);
  void writeAccumInit(block::ForloopAccumOp op);
  void writeAccumStep(block::ForloopAccumOp op);
  void writeAccumFinish(block::ForloopAccumOp op);
  void comment(Operation *op, StringRef result);
  /// The linear index of the block of cluster rank `rank` (an expression)
  /// of this block's cluster.
  std::string peerBlock(StringRef rank) const;
  std::string scratchBase(Operation *collective) const;

  const std::string &nameOf(Value value) const { return names.at(value); }

  kernel::GraphDefOp op;
  Block &body;
  PythonWriter &w;
  bool &usesLibdevice;
  std::array<int64_t, 3> grid;
  std::array<int64_t, 3> cluster = {1, 1, 1};
  int64_t forloop;
  block::LoopPhaseMap phases;
  /// The running maxima and the sums each rescales.
  RunningMaxima runningMaxima;
  /// Python names: the kernel parameters of the body's arguments and the
  /// tiles of the ops' results.
  llvm::DenseMap<Value, std::string> names;
  /// The kernel parameter of each output_saver's result.
  llvm::DenseMap<Value, std::string> outputs;
  /// The Python name of each op: its result's, or the prefix of its
  /// results' names.
  llvm::DenseMap<Operation *, std::string> stems;
  /// How many collectives precede a value on its longest use-def path.
  llvm::DenseMap<Value, unsigned> depth;
  /// The scratch buffer index of each collective.
  llvm::DenseMap<Operation *, unsigned> scratch;
  SmallVector<Operation *> collectives;
  unsigned stages = 1;
  std::string parameters;
};

void KernelWriter::analyze() {
  for (unsigned a = 0; a < 3; ++a)
    grid[a] = op.getGrid()[a];
  if (std::optional<ArrayRef<int32_t>> dims = op.getCluster())
    for (unsigned a = 0; a < 3; ++a)
      cluster[a] = (*dims)[a];
  forloop = op.getForloop();
  phases = *block::analyzeLoopPhases(body, forloop);
  runningMaxima = *analyzeRunningMaxima(body, phases);

  SmallVector<std::string> params;
  for (BlockArgument arg : body.getArguments()) {
    names[arg] = "in" + std::to_string(arg.getArgNumber());
    params.push_back(names[arg]);
  }
  auto yield = cast<block::YieldOp>(body.getTerminator());
  for (auto [k, result] : llvm::enumerate(yield.getResults())) {
    outputs[result] = "out" + std::to_string(k);
    params.push_back(outputs[result]);
  }
  for (auto [index, inner] : llvm::enumerate(body.without_terminator())) {
    StringRef mnemonic = inner.getName().stripDialect();
    std::string stem = llvm::StringSwitch<std::string>(mnemonic)
                           .Case("input_loader", "load")
                           .Case("forloop_accum", "acc")
                           .Case("thread_graph", "fused")
                           .Default(mnemonic.str()) +
                       std::to_string(index);
    stems[&inner] = stem;
    for (OpResult result : inner.getResults())
      names[result] =
          inner.getNumResults() == 1
              ? stem
              : stem + "_" + std::to_string(result.getResultNumber());
    unsigned d = 0;
    for (Value operand : inner.getOperands())
      d = std::max(d, depth.lookup(operand));
    if (isCollective(&inner)) {
      ++d;
      scratch[&inner] = collectives.size();
      params.push_back("scratch" + std::to_string(collectives.size()));
      collectives.push_back(&inner);
      stages = std::max(stages, d + 1);
    }
    for (OpResult result : inner.getResults())
      depth[result] = d;
  }
  parameters = llvm::join(params, ", ");
}

llvm::SmallPtrSet<Operation *, 16> KernelWriter::sliceOf(unsigned stage) {
  bool last = stage + 1 == stages;
  SmallVector<Operation *> work;
  for (Operation &inner : body.without_terminator()) {
    if (last && isa<block::OutputSaverOp>(inner))
      work.push_back(&inner);
    if (!last && isCollective(&inner) &&
        depth.lookup(inner.getResult(0)) == stage + 1)
      work.push_back(inner.getOperand(0).getDefiningOp());
  }
  llvm::SmallPtrSet<Operation *, 16> slice;
  while (!work.empty()) {
    Operation *inner = work.pop_back_val();
    if (!slice.insert(inner).second)
      continue;
    if (isCollective(inner))
      continue; // An earlier stage stored its input.
    for (Value operand : inner->getOperands())
      if (Operation *def = operand.getDefiningOp())
        work.push_back(def);
  }
  return slice;
}

GraphDefLaunch KernelWriter::write(StringRef name) {
  analyze();
  GraphDefLaunch launch;
  launch.grid = grid;
  launch.numWarps = getNumWarps(op);
  int64_t blocks = grid[0] * grid[1] * grid[2];
  for (Operation *collective : collectives) {
    SmallVector<int64_t> shape{blocks};
    llvm::append_range(shape, shapeOf(collective->getOperand(0)));
    launch.scratchShapes.push_back(shape);
  }
  for (unsigned stage = 0; stage < stages; ++stage) {
    std::string kernel = stages == 1
                             ? name.str()
                             : (name + "_stage" + std::to_string(stage)).str();
    writeKernel(kernel, stage);
    launch.kernels.push_back(kernel);
  }
  return launch;
}

void KernelWriter::writeKernel(StringRef name, unsigned stage) {
  llvm::SmallPtrSet<Operation *, 16> slice = sliceOf(stage);
  w.blank();
  w.blank();
  w.line("@triton.jit");
  w.line("def " + name + "(" + parameters + "):");
  w.indent();
  std::string what =
      stage + 1 == stages
          ? "the block graph"
          : "stage " + std::to_string(stage) +
                ": the inputs of the cluster collectives that follow";
  w.line(llvm::formatv("# One program per block of grid [{0}, {1}, {2}], a "
                       "for-loop of {3} iterations; computes {4}.",
                       grid[0], grid[1], grid[2], forloop, what)
             .str());
  writePrologue();

  auto inPhase = [&](Operation &inner, block::LoopPhase phase) {
    return slice.contains(&inner) && phases.lookup(&inner) == phase &&
           !isa<block::ForloopAccumOp>(inner);
  };
  for (Operation &inner : body.without_terminator())
    if (inPhase(inner, block::LoopPhase::Invariant))
      writeOp(&inner);

  SmallVector<block::ForloopAccumOp> accums;
  bool inLoop = false;
  for (Operation &inner : body.without_terminator()) {
    if (!slice.contains(&inner))
      continue;
    if (auto accum = dyn_cast<block::ForloopAccumOp>(inner))
      accums.push_back(accum);
    inLoop |= phases.lookup(&inner) == block::LoopPhase::InLoop;
  }
  if (inLoop || !accums.empty()) {
    for (block::ForloopAccumOp accum : accums)
      writeAccumInit(accum);
    if (forloop > 1) {
      w.line(llvm::formatv("for i in range(0, {0}):", forloop).str());
      w.indent();
    }
    for (Operation &inner : body.without_terminator()) {
      if (auto accum = dyn_cast<block::ForloopAccumOp>(inner);
          accum && slice.contains(&inner))
        writeAccumStep(accum);
      else if (inPhase(inner, block::LoopPhase::InLoop))
        writeOp(&inner);
    }
    if (forloop > 1)
      w.dedent();
    for (block::ForloopAccumOp accum : accums)
      writeAccumFinish(accum);
  }
  for (Operation &inner : body.without_terminator())
    if (inPhase(inner, block::LoopPhase::PostLoop))
      writeOp(&inner);
  for (Operation *collective : collectives)
    if (depth.lookup(collective->getResult(0)) == stage + 1)
      writeScratchStore(collective);
  w.dedent();
}

void KernelWriter::writePrologue() {
  for (unsigned a = 0; a < 3; ++a)
    w.line(
        llvm::formatv("pid_{0} = tl.program_id({1})", kAxisNames[a], a).str());
  if (collectives.empty())
    return;
  w.line(llvm::formatv("block_id = pid_x + {0} * (pid_y + {1} * pid_z)",
                       grid[0], grid[1])
             .str());
  SmallVector<std::string> rankTerms;
  int64_t stride = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (cluster[a] == 1)
      continue;
    std::string axis = kAxisNames[a];
    w.line(
        llvm::formatv("cluster_{0} = pid_{0} - pid_{0} % {1}", axis, cluster[a])
            .str());
    rankTerms.push_back(scaled(
        "(pid_" + axis + " % " + std::to_string(cluster[a]) + ")", stride));
    stride *= cluster[a];
  }
  w.line("rank = " + sumOf(rankTerms) + "  # this block's rank in its cluster");
}

std::string KernelWriter::peerBlock(StringRef rank) const {
  int64_t size = cluster[0] * cluster[1] * cluster[2];
  int64_t below = 1;
  std::array<std::string, 3> coords;
  for (unsigned a = 0; a < 3; ++a) {
    std::string axis = kAxisNames[a];
    if (cluster[a] == 1) {
      coords[a] = grid[a] == 1 ? "" : "pid_" + axis;
      continue;
    }
    std::string index = ("(" + rank + ")").str();
    if (below > 1)
      index = "(" + index + " // " + std::to_string(below) + ")";
    if (below * cluster[a] < size)
      index = "(" + index + " % " + std::to_string(cluster[a]) + ")";
    coords[a] = "cluster_" + axis + " + " + index;
    below *= cluster[a];
  }
  return sumOf({coords[0].empty() ? "" : "(" + coords[0] + ")",
                coords[1].empty() ? "" : scaled("(" + coords[1] + ")", grid[0]),
                coords[2].empty()
                    ? ""
                    : scaled("(" + coords[2] + ")", grid[0] * grid[1])});
}

std::string KernelWriter::scratchBase(Operation *collective) const {
  return "scratch" + std::to_string(scratch.lookup(collective));
}

void KernelWriter::comment(Operation *inner, StringRef result) {
  std::string text = "# ";
  if (!result.empty())
    text += result.str() + " = ";
  text += inner->getName().stripDialect().str() + "(";
  text += llvm::join(
      llvm::map_range(inner->getOperands(), [&](Value v) { return nameOf(v); }),
      ", ");
  text += ")";
  if (!inner->getAttrDictionary().empty()) {
    llvm::raw_string_ostream os(text);
    os << " " << inner->getAttrDictionary();
  }
  if (inner->getNumResults() == 1)
    text += " -> " + typeText(inner->getResult(0));
  w.line(text);
}

void KernelWriter::writeOp(Operation *inner) {
  if (auto load = dyn_cast<block::InputLoaderOp>(inner))
    return writeLoad(load);
  if (auto save = dyn_cast<block::OutputSaverOp>(inner))
    return writeSave(save);
  if (auto matmul = dyn_cast<block::MatmulOp>(inner))
    return writeMatmul(matmul);
  if (auto reduction = dyn_cast<block::ReductionOp>(inner))
    return writeReduction(reduction);
  if (auto max = dyn_cast<block::ReductionMaxOp>(inner))
    return writeReductionMax(max);
  if (auto norm = dyn_cast<block::RmsNormOp>(inner))
    return writeRmsNorm(norm);
  if (auto fused = dyn_cast<block::ThreadGraphOp>(inner))
    return writeThreadGraph(fused);
  if (isCollective(inner))
    return writeCollective(inner);
  // checkGraphDef admitted only elementwise ops besides.
  const std::string &result = nameOf(inner->getResult(0));
  comment(inner, result);
  SmallVector<std::string> operands = llvm::map_to_vector(
      inner->getOperands(), [&](Value v) { return nameOf(v); });
  w.line(
      result + " = " +
      *elementwiseExpr(inner, operands, ArrayLibrary::Triton, usesLibdevice));
}

SmallVector<std::string>
KernelWriter::loadStarts(block::InputLoaderOp load) const {
  ArrayRef<int64_t> whole = shapeOf(load.getSource());
  ArrayRef<int64_t> tile = shapeOf(load.getResult());
  SmallVector<int32_t, 3> imap = load.getImap().getDims();
  SmallVector<std::string> starts(tile.size());
  for (unsigned d = 0; d < tile.size(); ++d) {
    SmallVector<std::string> terms;
    for (unsigned a = 0; a < 3; ++a)
      if (imap[a] == static_cast<int32_t>(d) && grid[a] > 1)
        terms.push_back(
            scaled(std::string("pid_") + kAxisNames[a], whole[d] / grid[a]));
    if (load.getFmap() == static_cast<int64_t>(d) && forloop > 1)
      terms.push_back(scaled("i", tile[d]));
    if (!terms.empty())
      starts[d] = sumOf(terms);
  }
  return starts;
}

void KernelWriter::writeLoad(block::InputLoaderOp load) {
  const std::string &result = nameOf(load.getResult());
  comment(load, result);
  TileAccess access =
      tileAccess(nameOf(load.getSource()), shapeOf(load.getResult()),
                 loadStarts(load), rowMajorStrides(shapeOf(load.getSource())));
  w.line(result + " = " + loadExpr(access));
}

bool KernelWriter::writeChunkedMatmul(block::MatmulOp matmul) {
  auto lhsLoad = matmul.getLhs().getDefiningOp<block::InputLoaderOp>();
  auto rhsLoad = matmul.getRhs().getDefiningOp<block::InputLoaderOp>();
  ArrayRef<int64_t> lhsShape = shapeOf(matmul.getLhs());
  ArrayRef<int64_t> rhsShape = shapeOf(matmul.getRhs());
  Type element = elementOf(matmul.getLhs());
  if (!lhsLoad || !rhsLoad || lhsShape.size() != 2 ||
      element != elementOf(matmul.getRhs()) || element.isF32())
    return false;
  int64_t rows = paddedExtent(lhsShape[0]), depth = lhsShape[1],
          columns = paddedExtent(rhsShape[1]);
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  // Rows or columns of 1 take the broadcasting path; K must split evenly.
  if (lhsShape[0] == 1 || rhsShape[1] == 1 || !llvm::isPowerOf2_64(depth) ||
      (rows + columns) * depth * bytes <= kDotOperandBytes)
    return false;
  int64_t chunk = depth;
  while (chunk > 16 && (rows + columns) * chunk * bytes > kDotChunkBytes)
    chunk /= 2;
  const std::string &result = nameOf(matmul.getResult());
  w.line(llvm::formatv("# (K of {0} in {1} chunks of {2}, each loaded again: "
                       "tl.dot stages its operands in shared memory)",
                       depth, depth / chunk, chunk)
             .str());
  std::string index = result + "_k";
  auto chunkLoad = [&](block::InputLoaderOp load, unsigned kDim) {
    SmallVector<int64_t> tile(shapeOf(load.getResult()));
    SmallVector<std::string> starts = loadStarts(load);
    std::string offset = scaled(index, chunk);
    starts[kDim] =
        starts[kDim].empty() ? offset : starts[kDim] + " + " + offset;
    tile[kDim] = chunk;
    return "(" +
           loadExpr(tileAccess(nameOf(load.getSource()), tile, starts,
                               rowMajorStrides(shapeOf(load.getSource())))) +
           ").to(" + tritonDType(element) + ")";
  };
  w.line(result + " = tl.zeros(" + tupleLiteral({rows, columns}) +
         ", dtype=tl.float32)");
  w.line(
      llvm::formatv("for {0} in range(0, {1}):", index, depth / chunk).str());
  w.indent();
  w.line(result + "_lhs = " + chunkLoad(lhsLoad, 1));
  w.line(result + "_rhs = " + chunkLoad(rhsLoad, 0));
  w.line(result + " += tl.dot(" + result + "_lhs, " + result + "_rhs)");
  w.dedent();
  return true;
}

void KernelWriter::writeSave(block::OutputSaverOp save) {
  const std::string &output = outputs.at(save.getResult());
  comment(save, output);
  ArrayRef<int64_t> tile = shapeOf(save.getInput());
  SmallVector<int32_t, 3> omap = save.getOmap().getDims();
  SmallVector<std::string> starts(tile.size());
  for (unsigned d = 0; d < tile.size(); ++d) {
    SmallVector<std::string> terms;
    for (unsigned a = 0; a < 3; ++a)
      if (omap[a] == static_cast<int32_t>(d) && grid[a] > 1)
        terms.push_back(scaled(std::string("pid_") + kAxisNames[a], tile[d]));
    if (!terms.empty())
      starts[d] = sumOf(terms);
  }
  TileAccess access = tileAccess(output, tile, starts,
                                 rowMajorStrides(shapeOf(save.getResult())));
  w.line(storeStmt(access, nameOf(save.getInput()) + ".to(" +
                               tritonDType(elementOf(save.getResult())) + ")"));
}

void KernelWriter::writeMatmul(block::MatmulOp matmul) {
  const std::string &result = nameOf(matmul.getResult());
  comment(matmul, result);
  if (writeChunkedMatmul(matmul))
    return;
  ArrayRef<int64_t> lhsShape = shapeOf(matmul.getLhs());
  ArrayRef<int64_t> rhsShape = shapeOf(matmul.getRhs());
  unsigned rank = lhsShape.size();
  unsigned m = rank - 2, k = rank - 1, n = rank - 1;
  SmallVector<int64_t> lhsPadded = paddedShape(lhsShape);
  SmallVector<int64_t> rhsPadded = paddedShape(rhsShape);
  // The padding lanes along K must be zero.
  std::string lhs = masked(dimMask(lhsShape, k), nameOf(matmul.getLhs()));
  std::string rhs = masked(dimMask(rhsShape, m), nameOf(matmul.getRhs()));
  // Dimensions of 1 grow to tl.dot's 16 by broadcasting; along K only lane 0
  // may count.
  SmallVector<int64_t> lhsDot(lhsPadded), rhsDot(rhsPadded);
  bool growM = lhsPadded[m] == 1, growK = lhsPadded[k] == 1,
       growN = rhsPadded[n] == 1;
  const int64_t dotMin = paddedExtent(2);
  if (growM)
    lhsDot[m] = dotMin;
  if (growK)
    lhsDot[k] = rhsDot[m] = dotMin;
  if (growN)
    rhsDot[n] = dotMin;
  if (lhsDot != lhsPadded)
    lhs = "tl.broadcast_to(" + lhs + ", " + tupleLiteral(lhsDot) + ")";
  if (growK)
    lhs = masked(alongDim(laneRange(dotMin) + " < 1", k, rank), lhs);
  if (rhsDot != rhsPadded)
    rhs = "tl.broadcast_to(" + rhs + ", " + tupleLiteral(rhsDot) + ")";
  Type lhsElement = elementOf(matmul.getLhs());
  bool lowPrecision =
      lhsElement == elementOf(matmul.getRhs()) && !lhsElement.isF32();
  std::string precision;
  if (lowPrecision) {
    lhs = "(" + lhs + ").to(" + tritonDType(lhsElement) + ")";
    rhs = "(" + rhs + ").to(" + tritonDType(lhsElement) + ")";
  } else {
    precision = ", input_precision=\"ieee\"";
  }
  // tl.dot takes 2-D or 3-D operands: fold the batch dimensions into one,
  // or drop them when they are all 1 (a 2-D dot is the faster).
  SmallVector<int64_t> productShape(lhsDot.begin(), lhsDot.end() - 1);
  productShape.push_back(rhsDot[n]);
  int64_t batch = 1;
  for (unsigned d = 0; d + 2 < rank; ++d)
    batch *= lhsDot[d];
  bool fold = rank > 3 || (rank == 3 && batch == 1);
  if (fold) {
    SmallVector<int64_t> lhsFolded{lhsDot[m], lhsDot[k]};
    SmallVector<int64_t> rhsFolded{rhsDot[m], rhsDot[n]};
    if (batch > 1) {
      lhsFolded.insert(lhsFolded.begin(), batch);
      rhsFolded.insert(rhsFolded.begin(), batch);
    }
    lhs = "tl.reshape(" + lhs + ", " + tupleLiteral(lhsFolded) + ")";
    rhs = "tl.reshape(" + rhs + ", " + tupleLiteral(rhsFolded) + ")";
  }
  w.line(result + "_lhs = " + lhs);
  w.line(result + "_rhs = " + rhs);
  std::string product =
      "tl.dot(" + result + "_lhs, " + result + "_rhs" + precision + ")";
  if (fold)
    product = "tl.reshape(" + product + ", " + tupleLiteral(productShape) + ")";
  // Rows or columns grown from 1 repeat the same values: keep lane 0.
  if (growM)
    product = llvm::formatv(
        "tl.sum({0}, axis={1}, keep_dims=True)",
        masked(alongDim(laneRange(dotMin) + " < 1", m, rank), product), m);
  if (growN)
    product = llvm::formatv(
        "tl.sum({0}, axis={1}, keep_dims=True)",
        masked(alongDim(laneRange(dotMin) + " < 1", n, rank), product), n);
  w.line(result + " = " + product);
}

void KernelWriter::writeReduction(block::ReductionOp reduction) {
  const std::string &result = nameOf(reduction.getResult());
  comment(reduction, result);
  ArrayRef<int64_t> shape = shapeOf(reduction.getInput());
  unsigned dim = reduction.getDim();
  std::string x = masked(dimMask(shape, dim), nameOf(reduction.getInput()));
  w.line(result + " = " +
         stridedSum(x, shape, dim, static_cast<int64_t>(reduction.getSize())));
}

void KernelWriter::writeReductionMax(block::ReductionMaxOp max) {
  const std::string &result = nameOf(max.getResult());
  comment(max, result);
  ArrayRef<int64_t> shape = shapeOf(max.getInput());
  unsigned dim = max.getDim();
  std::string x =
      masked(dimMask(shape, dim), nameOf(max.getInput()), "float('-inf')");
  w.line(llvm::formatv("{0} = tl.max({1}, axis={2}, keep_dims=True)", result, x,
                       dim)
             .str());
}

void KernelWriter::writeRmsNorm(block::RmsNormOp norm) {
  const std::string &result = nameOf(norm.getResult());
  comment(norm, result);
  ArrayRef<int64_t> shape = shapeOf(norm.getInput());
  int64_t size = norm.getSize();
  // The group is the trailing dimensions whose product is `size`.
  SmallVector<unsigned> group;
  int64_t product = 1;
  for (unsigned d = shape.size(); d-- > 0 && product < size;) {
    product *= shape[d];
    group.push_back(d);
  }
  const std::string &x = nameOf(norm.getInput());
  std::string squares = masked(tileMask(shape, group), x + " * " + x);
  for (unsigned d : group)
    squares =
        llvm::formatv("tl.sum({0}, axis={1}, keep_dims=True)", squares, d);
  w.line(result + "_squares = " + squares);
  std::string mean = result + "_squares / " + floatLiteral(size);
  double eps = norm.getEpsAttr().getValueAsDouble();
  if (eps != 0.0)
    mean += " + " + floatLiteral(eps);
  w.line(result + " = " + x + " / tl.sqrt(" + mean + ")");
}

void KernelWriter::writeThreadGraph(block::ThreadGraphOp fused) {
  const std::string &stem = stems.at(fused);
  comment(fused, stem);
  Block &scalarBody = fused.getBody().front();
  llvm::DenseMap<Value, std::string> scalars;
  llvm::DenseMap<Value, SmallVector<int64_t>> shapes;
  for (auto [arg, operand] :
       llvm::zip(scalarBody.getArguments(), fused.getOperands())) {
    scalars[arg] = nameOf(operand);
    shapes[arg] = paddedShape(shapeOf(operand));
  }
  for (auto [index, inner] : llvm::enumerate(scalarBody.without_terminator())) {
    SmallVector<std::string> operands;
    SmallVector<int64_t> shape = shapes[inner.getOperand(0)];
    for (Value operand : inner.getOperands()) {
      operands.push_back(scalars[operand]);
      shape = broadcastShapes(shape, shapes[operand]);
    }
    std::string name = stem + "_s" + std::to_string(index);
    w.line("# " + name + " = " + inner.getName().getStringRef().str() +
           " per element");
    w.line(name + " = " +
           *elementwiseExpr(&inner, operands, ArrayLibrary::Triton,
                            usesLibdevice));
    scalars[inner.getResult(0)] = name;
    shapes[inner.getResult(0)] = shape;
  }
  for (auto [result, yielded] : llvm::zip(
           fused.getResults(), scalarBody.getTerminator()->getOperands())) {
    SmallVector<int64_t> padded = paddedShape(shapeOf(result));
    std::string value = scalars[yielded];
    if (shapes[yielded] != padded)
      value = "tl.broadcast_to(" + value + ", " + tupleLiteral(padded) + ")";
    w.line(nameOf(result) + " = " + value);
  }
}

void KernelWriter::writeScratchStore(Operation *collective) {
  Value input = collective->getOperand(0);
  ArrayRef<int64_t> tile = shapeOf(input);
  int64_t elements = ShapedType::getNumElements(tile);
  w.line("# the input of " + nameOf(collective->getResult(0)) + " (" +
         collective->getName().getStringRef().str() +
         "), for the blocks of this cluster");
  TileAccess access = tileAccess(
      scratchBase(collective) + " + " + scaled("block_id", elements), tile,
      SmallVector<std::string>(tile.size()), rowMajorStrides(tile));
  w.line(storeStmt(access, nameOf(input)));
}

void KernelWriter::writeCollective(Operation *collective) {
  const std::string &result = nameOf(collective->getResult(0));
  comment(collective, result);
  ArrayRef<int64_t> inTile = shapeOf(collective->getOperand(0));
  ArrayRef<int64_t> outTile = shapeOf(collective->getResult(0));
  SmallVector<int64_t> strides = rowMajorStrides(inTile);
  int64_t elements = ShapedType::getNumElements(inTile);
  int64_t size = cluster[0] * cluster[1] * cluster[2];
  std::string base = scratchBase(collective);
  if (auto gather = dyn_cast<block::ClusterGatherOp>(collective)) {
    // Lane p of `dim` comes from rank p / n, element p % n (n = the input's
    // extent).
    unsigned dim = gather.getDim(), rank = outTile.size();
    int64_t extent = inTile[dim];
    SmallVector<int64_t> padded = paddedShape(outTile);
    std::string lanes = laneRange(padded[dim]);
    std::string along =
        "(" + peerBlock(lanes + " // " + std::to_string(extent)) + ") * " +
        std::to_string(elements) + " + " +
        scaled("(" + lanes + " % " + std::to_string(extent) + ")",
               strides[dim]);
    SmallVector<std::string> terms{alongDim(along, dim, rank)};
    for (unsigned d = 0; d < rank; ++d)
      if (d != dim && padded[d] > 1)
        terms.push_back(
            scaled(alongDim(laneRange(padded[d]), d, rank), strides[d]));
    TileAccess access{base + " + " + sumOf(terms), tileMask(outTile)};
    w.line(result + " = " + loadExpr(access));
    return;
  }
  SmallVector<std::string> starts(outTile.size());
  if (auto scatter = dyn_cast<block::ClusterReduceScatterOp>(collective))
    starts[scatter.getDim()] = scaled("rank", outTile[scatter.getDim()]);
  TileAccess access =
      tileAccess(base + " + " + scaled("(" + peerBlock("peer") + ")", elements),
                 outTile, starts, strides);
  w.line(result + " = tl.zeros(" + tupleLiteral(paddedShape(outTile)) +
         ", tl.float32)");
  w.line(llvm::formatv("for peer in tl.static_range({0}):", size).str());
  w.indent();
  w.line(result + " += " + loadExpr(access));
  w.dedent();
}

void KernelWriter::writeAccumInit(block::ForloopAccumOp accum) {
  const std::string &result = nameOf(accum.getResult());
  std::string shape = tupleLiteral(paddedShape(shapeOf(accum.getResult())));
  w.line("# " + result + " accumulates " + nameOf(accum.getInput()) + " (" +
         block::stringifyAccumKind(accum.getKind()).str() + ")");
  if (accum.getKind() == block::AccumKind::Max)
    w.line(result + " = tl.full(" + shape + ", float(\"-inf\"), tl.float32)");
  else
    w.line(result + " = tl.zeros(" + shape + ", tl.float32)");
}

void KernelWriter::writeAccumStep(block::ForloopAccumOp accum) {
  const std::string &result = nameOf(accum.getResult());
  comment(accum, result);
  const std::string &x = nameOf(accum.getInput());
  ArrayRef<int64_t> shape = shapeOf(accum.getInput());
  unsigned last = shape.size() - 1;
  std::string lastMask = dimMask(shape, last);
  switch (accum.getKind()) {
  case block::AccumKind::Sum:
    w.line(result + " += " + x);
    return;
  case block::AccumKind::Max:
    if (runningMaxima.contains(accum)) {
      // The maximum so far rises; the sums its shift reaches follow by
      // exp(old - new) (1 where it stays, rows of -inf included).
      w.line(result + "_old = " + result);
      w.line(result + " = tl.maximum(" + result + ", " + x + ")");
      w.line(llvm::formatv("{0}_scale = tl.where({0} == {0}_old, 1.0, "
                           "tl.exp({0}_old - {0}))",
                           result)
                 .str());
      for (Operation *sum : runningMaxima.lookup(accum)) {
        const std::string &state = nameOf(sum->getResult(0));
        w.line(state + " = " + state + " * " + result + "_scale");
      }
      return;
    }
    w.line(result + " = tl.maximum(" + result + ", " + x + ")");
    return;
  case block::AccumKind::SumLast:
    w.line(result + " += " + stridedSum(masked(lastMask, x), shape, last, 1));
    return;
  case block::AccumKind::SumLastTo:
    w.line(result + " += " +
           stridedSum(masked(lastMask, x), shape, last,
                      static_cast<int64_t>(*accum.getSize())));
    return;
  case block::AccumKind::RmsLast:
    w.line(result + " += " +
           stridedSum(masked(lastMask, x + " * " + x), shape, last, 1));
    return;
  }
}

void KernelWriter::writeAccumFinish(block::ForloopAccumOp accum) {
  if (accum.getKind() != block::AccumKind::RmsLast)
    return;
  const std::string &result = nameOf(accum.getResult());
  int64_t count = forloop * shapeOf(accum.getInput()).back();
  double eps = accum.getEps().convertToDouble();
  w.line(result + " = tl.sqrt(" + result + " / " + floatLiteral(count) +
         (eps != 0.0 ? " + " + floatLiteral(eps) : std::string()) + ")");
}

} // namespace

int64_t triton::getNumWarps(kernel::GraphDefOp op) {
  int64_t warps = std::max<int64_t>(1, op.getNumThreads() / 32);
  return static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(warps)));
}

/// Refuses a body op with a result tile of more than Triton's largest
/// tensor once padded, or of more values per thread of the program's
/// `warps` warps than kMaxValuesPerThread. (What does not fit in a block's
/// shared memory shows only when Triton compiles the kernel: an
/// OutOfResources error.)
static LogicalResult checkTileSizes(Operation *inner, int64_t warps) {
  auto paddedElements = [](Value value) {
    return ShapedType::getNumElements(paddedShape(shapeOf(value)));
  };
  for (Value result : inner->getResults()) {
    // A saver's result is the graph_def's tensor in global memory.
    if (!isa<ShapedType>(result.getType()) ||
        isa<RankedTensorType>(result.getType()))
      continue;
    int64_t elements = paddedElements(result);
    if (elements > kMaxTritonTensorElements)
      return inner->emitOpError("makes a tile of ")
             << result.getType() << ", " << elements
             << " elements once padded: more than Triton's largest tensor ("
             << kMaxTritonTensorElements << " elements)";
    int64_t perThread = llvm::divideCeil(elements, warps * 32);
    if (perThread > kMaxValuesPerThread)
      return inner->emitOpError("makes a tile of ")
             << result.getType() << ", " << perThread
             << " values per thread of " << warps
             << " warps once padded: more than the Triton backend compiles ("
             << kMaxValuesPerThread << ")";
  }
  return success();
}

LogicalResult triton::checkGraphDef(kernel::GraphDefOp op) {
  FailureOr<block::LoopPhaseMap> phases =
      block::analyzeLoopPhases(op.getBodyBlock(), op.getForloop());
  if (failed(phases) ||
      failed(analyzeRunningMaxima(op.getBodyBlock(), *phases)))
    return failure();
  for (Value value : op->getOperands())
    if (ShapedType::getNumElements(shapeOf(value)) >= kMaxElements)
      return op.emitOpError("has an operand of ")
             << value.getType()
             << ": the Triton backend indexes tensors with int32";
  for (Value value : op->getResults())
    if (ShapedType::getNumElements(shapeOf(value)) >= kMaxElements)
      return op.emitOpError("has a result of ")
             << value.getType()
             << ": the Triton backend indexes tensors with int32";
  for (Operation &inner : op.getBodyBlock().without_terminator()) {
    if (failed(checkTileSizes(&inner, getNumWarps(op))))
      return failure();
    if (isa<block::ConcatOp>(inner))
      return inner.emitOpError(
          "is not supported by the Triton backend (Triton has no "
          "order-preserving concatenation of register tiles)");
    if (isCollective(&inner) &&
        phases->lookup(&inner) == block::LoopPhase::InLoop)
      return inner.emitOpError(
          "inside the for-loop is not supported by the Triton backend (a "
          "cluster collective becomes a kernel boundary, which cannot cut a "
          "loop)");
    if (!isa<block::InputLoaderOp, block::OutputSaverOp, block::MatmulOp,
             block::ReductionOp, block::ReductionMaxOp, block::RmsNormOp,
             block::ThreadGraphOp, block::ForloopAccumOp>(inner) &&
        !isCollective(&inner) && !getElementwiseKind(&inner))
      return inner.emitOpError("is not supported by the Triton backend");
    if (auto fused = dyn_cast<block::ThreadGraphOp>(inner))
      for (Operation &scalar : fused.getBody().front().without_terminator())
        if (!getElementwiseKind(&scalar))
          return scalar.emitOpError("is not supported by the Triton backend");
  }
  return success();
}

GraphDefLaunch triton::writeGraphDefKernels(kernel::GraphDefOp op,
                                            StringRef name,
                                            PythonWriter &writer,
                                            bool &usesLibdevice) {
  return KernelWriter(op, writer, usesLibdevice).write(name);
}
