//===- SchedulePlanner.cpp - The schedule of one rung ---------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The schedule of one rung walks the body in the order the lowering emits
// it (docs/LanguageReference.md, "Loop phases"): the preloads and stages,
// the loop-invariant ops, the accumulators, the loop body, the
// accumulators' results and the ops after the loop. It follows the layout
// of every tile, takes each op's shared buffers in the order its lowering
// asks for them, and releases a tile after its last reader: at once if that
// reader's lowering ends with a barrier, else at the next barrier.
//
//===----------------------------------------------------------------------===//

#include "SchedulePlanner.h"

#include "Mirage/Analysis/MatmulShapes.h"
#include "Mirage/Analysis/SharedMemoryAllocator.h"
#include "Mirage/Analysis/SumShapes.h"
#include "Mirage/Dialect/Common/ElementwiseOpInterface.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::mirage;
using block::LoopPhase;

/// True for the unary elementwise block ops (mul_scalar included).
static bool isUnaryElementwise(Operation *op) {
  std::optional<ElementwiseKind> kind = getElementwiseKind(op);
  return kind && getElementwiseArity(*kind) == 1;
}

//===----------------------------------------------------------------------===//
// Planner: one rung
//===----------------------------------------------------------------------===//

namespace {

/// Builds the schedule of one graph_def with one rung of choices.
class Planner {
public:
  Planner(kernel::GraphDefOp graph, const ScheduleChoices &choices,
          KernelSchedule &schedule)
      : graph(graph), choices(choices), s(schedule) {
    s.choices = choices;
    ArrayRef<int32_t> block = graph.getBlock();
    s.threads = int64_t(block[0]) * block[1] * block[2];
  }

  void run();

private:
  // Decisions.
  bool isReadRepeatedly(block::InputLoaderOp op);
  /// The layout of the tile `op` loads in place from global memory (that of
  /// the first iteration with `firstIteration`: its offset without the
  /// iteration's term).
  TileLayout getGlobalLayout(block::InputLoaderOp op, bool wholeShape,
                             bool firstIteration = false);
  /// Whether the loop-varying `op`'s tiles are whole 16-byte chunks, as
  /// staging copies them.
  bool isStageable(block::InputLoaderOp op);
  void planPreloads();
  /// Preloads the tiles of every iteration of the loop-varying `op` at once
  /// if they cannot be staged and take at most kMaxWholeLoopPreloadBytes
  /// (KernelSchedule::preloaded).
  void planWholeLoopPreload(block::InputLoaderOp op);
  bool canCopyWithTMA(block::InputLoaderOp op);
  void planStaging();
  void planRegisterSums();
  void planRegisterChain(block::ForloopAccumOp accum, int64_t &count);
  /// The first matmul of a register chain whose E is made by `exp` as
  /// `exp(T - M)` (RegisterChain), M a running maximum that rescales
  /// exactly `sums` and that the loop reads in the `sub` alone; sets
  /// `scale` and `runningMax`. Null when `exp` makes no such E.
  block::MatmulOp matchRunningMaxChain(Operation *exp,
                                       ArrayRef<Operation *> sums,
                                       Operation *&scale,
                                       block::ForloopAccumOp &runningMax);
  Operation *getEpilogue(block::MatmulOp op);
  /// The output_saver `op` stores its result through, if it may: `op` is an
  /// elementwise op or a one-result thread graph whose result's one use is
  /// an output_saver of its element type, outside a cluster.
  Operation *getDirectSaver(Operation *op);
  /// How `norm` keeps its groups in registers when it reads its input from
  /// `in`, if it can: the block's threads split evenly into groups of a
  /// power of two lanes, each lane holding at most kMaxRowRegisters
  /// elements and at least one run.
  std::optional<RegisterRows> getRegisterRows(block::RmsNormOp norm,
                                              const TileLayout &in);
  /// How the body runs as a row program (KernelSchedule::rowProgram), if it
  /// is one: the rows of the loaders' shape split evenly over the threads,
  /// every thread holding as many runs of each row, and the tiles live at
  /// once taking at most kMaxRowProgramRegisters per thread.
  std::optional<RegisterRows> getRowProgram();
  /// Plans the body as a row program if it is one (one buffer of a warp's
  /// f32 per reduction of rows wider than a warp); returns whether it was.
  bool planRowProgram();
  MatmulEngine chooseEngine(block::MatmulOp op);

  // Shared memory, in the lowering's order.
  int64_t allocate(ArrayRef<int64_t> shape, Type type,
                   int64_t alignment = kMaxVectorBytes, int64_t swizzle = 0);
  /// A new shared tile for `result`, released after its last use.
  void allocateResult(Value result);
  void barrier() {
    allocator.synchronize();
    lastIsBarrier = true;
  }
  /// Code that is not a barrier.
  void emitCode() { lastIsBarrier = false; }
  /// A sum over the block's threads (the lowering's emitSums).
  void planSums(ArrayRef<int64_t> shape, int64_t terms, int64_t width,
                int64_t termRun);
  /// The stores of mma.sync sums split into `slices` (storeResults).
  void planStoreResults(int64_t slices, ArrayRef<int64_t> shape);
  /// The K-major copies of a wgmma's operands of `elementType`.
  void planWarpgroupOperands(const WarpgroupPlan &plan, Type elementType);
  void releaseDeadTiles(Operation *op, bool loopEnd = false);

  // Ops.
  void visit(Operation *op);
  void visitLoader(block::InputLoaderOp op);
  void visitMatmul(block::MatmulOp op);
  /// Marks the for-loop row sums that keep lane partials.
  void planLanePartials();
  void initAccumulator(block::ForloopAccumOp op);
  void accumulate(block::ForloopAccumOp op);
  void finishAccumulator(block::ForloopAccumOp op);

  kernel::GraphDefOp graph;
  ScheduleChoices choices;
  KernelSchedule &s;
  SharedMemoryAllocator allocator;
  /// Whether the last op the lowering emitted is a barrier.
  bool lastIsBarrier = false;
  DenseMap<Value, TileLayout> layouts;
  /// Shared tiles of their own, not yet released: (offset, bytes).
  llvm::MapVector<Value, std::pair<int64_t, int64_t>> owned;
  /// Preloaded tiles: (offset, bytes, layout).
  DenseMap<Operation *, std::pair<std::pair<int64_t, int64_t>, TileLayout>>
      preloadedTiles;
};

} // namespace

bool Planner::isReadRepeatedly(block::InputLoaderOp op) {
  Value tile = op.getResult();
  if (!tile.hasOneUse())
    return !tile.use_empty();
  Operation *user = *tile.user_begin();
  if (auto norm = dyn_cast<block::RmsNormOp>(user))
    return !getRegisterRows(norm, getGlobalLayout(op, /*wholeShape=*/false));
  return isa<block::MatmulOp>(user) ||
         (graph.getForloop() > 1 && s.phases.lookup(user) == LoopPhase::InLoop);
}

TileLayout Planner::getGlobalLayout(block::InputLoaderOp op, bool wholeShape,
                                    bool firstIteration) {
  TileLayout layout;
  ArrayRef<int64_t> whole = getShape(op.getSource());
  layout.shape.assign(whole.begin(), whole.end());
  layout.strides = getContiguousStrides(whole);
  layout.storageType = getElementType(op.getSource());
  for (auto [term, factor] : getLoaderOffsetTerms(graph, op))
    if (!firstIteration || term != kIterationTerm)
      layout.offsetAlignment = std::gcd(layout.offsetAlignment, factor);
  if (!wholeShape) {
    ArrayRef<int64_t> shape = getShape(op.getResult());
    layout.shape.assign(shape.begin(), shape.end());
  }
  return layout;
}

void Planner::planPreloads() {
  if (!choices.preloadInvariants)
    return;
  // A body of one iteration that reads two or more tiles may preload every
  // tile it reads (ScheduleChoices::preloadOnePass).
  auto isRead = [](block::InputLoaderOp op) {
    return !op.getResult().use_empty();
  };
  auto loaders = graph.getBodyBlock().getOps<block::InputLoaderOp>();
  bool onePass = choices.preloadOnePass && graph.getForloop() == 1 &&
                 llvm::count_if(loaders, isRead) >= 2;
  for (auto op : loaders) {
    if (op.isLoopVarying()) {
      planWholeLoopPreload(op);
      continue;
    }
    bool preloaded = onePass ? isRead(op) : isReadRepeatedly(op);
    if (s.phases.lookup(op) != LoopPhase::Invariant || !preloaded)
      continue;
    TileLayout global = getGlobalLayout(op, /*wholeShape=*/false);
    int64_t width = kMaxVectorBytes / global.getElementBytes();
    if (getVectorWidth(global) != width || global.shape.back() % width != 0)
      continue;
    int64_t swizzle = getSharedSwizzle(op.getResult());
    int64_t offset =
        allocate(global.shape, global.storageType, kMaxVectorBytes, swizzle);
    TileLayout layout;
    layout.shape = global.shape;
    layout.strides = getContiguousStrides(global.shape);
    layout.storageType = global.storageType;
    layout.shared = true;
    layout.swizzle = swizzle;
    preloadedTiles[op] = {{offset, s.buffers.back().bytes}, layout};
    s.preloaded.insert(op);
  }
}

bool Planner::isStageable(block::InputLoaderOp op) {
  TileLayout layout = getGlobalLayout(op, /*wholeShape=*/true);
  int64_t width = kMaxVectorBytes / layout.getElementBytes();
  return getVectorWidth(layout) == width &&
         getShape(op.getResult()).back() % width == 0;
}

void Planner::planWholeLoopPreload(block::InputLoaderOp op) {
  if (graph.getForloop() < 2 || op.getResult().use_empty() || isStageable(op))
    return;
  // The tiles of all iterations: the first's, `forloop` times longer along
  // the dimension the loop splits, copied in whole 16-byte chunks.
  TileLayout region =
      getGlobalLayout(op, /*wholeShape=*/true, /*firstIteration=*/true);
  SmallVector<int64_t, 4> shape = getWholeLoopShape(graph, op);
  int64_t width = kMaxVectorBytes / region.getElementBytes();
  if (getVectorWidth(region) != width || shape.back() % width != 0 ||
      region.getElementBytes() * getNumElements(shape) >
          kMaxWholeLoopPreloadBytes)
    return;
  int64_t offset = allocate(shape, region.storageType);
  // Each iteration reads its own part of them.
  TileLayout layout;
  ArrayRef<int64_t> tile = getShape(op.getResult());
  layout.shape.assign(tile.begin(), tile.end());
  layout.strides = getContiguousStrides(shape);
  layout.storageType = region.storageType;
  layout.shared = true;
  int64_t dim = op.getFmap();
  layout.offsetAlignment =
      std::gcd(layout.offsetAlignment, tile[dim] * layout.strides[dim]);
  preloadedTiles[op] = {{offset, s.buffers.back().bytes}, layout};
  s.preloaded.insert(op);
}

/// The most dimensions and elements per dimension of a TMA box.
constexpr int64_t kMaxBoxRank = 5, kMaxBoxExtent = 256;

bool Planner::canCopyWithTMA(block::InputLoaderOp op) {
  ArrayRef<int64_t> whole = getShape(op.getSource());
  ArrayRef<int64_t> shape = getShape(op.getResult());
  int64_t elementBytes =
      getElementType(op.getResult()).getIntOrFloatBitWidth() / 8;
  int64_t tileBytes = elementBytes * getNumElements(shape);
  return int64_t(shape.size()) <= kMaxBoxRank &&
         llvm::all_of(shape, [](int64_t e) { return e <= kMaxBoxExtent; }) &&
         (whole.back() * elementBytes) % kMaxVectorBytes == 0 &&
         (shape.back() * elementBytes) % kMaxVectorBytes == 0 &&
         tileBytes % kTensorCopyAlignment == 0;
}

void Planner::planStaging() {
  // Tiles of whole 16-byte chunks, 16-byte aligned in global memory.
  SmallVector<block::InputLoaderOp> loaders;
  int64_t bytes = 0;
  for (auto op : graph.getBodyBlock().getOps<block::InputLoaderOp>()) {
    if (!op.isLoopVarying() || !isStageable(op))
      continue;
    loaders.push_back(op);
    bytes += getElementType(op.getResult()).getIntOrFloatBitWidth() / 8 *
             getNumElements(getShape(op.getResult()));
  }
  // The budget bounds the stages beyond two: tiles too large for two stages
  // within it are still staged twice, since reading them in place is slower
  // still (scheduleKernel's ladder drops staging where the block's shared
  // memory cannot hold two stages).
  int64_t stages = std::min<int64_t>(choices.maxStages, graph.getForloop());
  while (stages > 2 && stages * bytes > choices.stagingBytes)
    --stages;
  if (loaders.empty() || stages < 2)
    return;
  s.stages = stages;
  s.tensorCopies = choices.tensorCopies && llvm::all_of(loaders, [&](auto op) {
                     return canCopyWithTMA(op);
                   });
  for (block::InputLoaderOp op : loaders) {
    ArrayRef<int64_t> tile = getShape(op.getResult());
    Type type = getElementType(op.getResult());
    StagedTile staged;
    staged.swizzle = getSharedSwizzle(op.getResult());
    // TMA swizzles boxes whose rows are the swizzle's bytes: rows of
    // several 128-byte spans are copied in boxes of 128-byte rows, one block
    // of the stage each, if the blocks keep the swizzle's alignment; other
    // tiles are not swizzled.
    int64_t elementBytes = type.getIntOrFloatBitWidth() / 8;
    if (s.tensorCopies && staged.swizzle != 0 &&
        staged.swizzle != tile.back() * elementBytes) {
      int64_t rows = getNumElements(tile.drop_back());
      if (staged.swizzle == kMaxSwizzle &&
          rows * staged.swizzle % kSwizzleAlignment == 0)
        staged.blockExtent = staged.swizzle / elementBytes;
      else
        staged.swizzle = 0;
    }
    SmallVector<int64_t, 4> shape = {stages};
    llvm::append_range(shape, tile);
    allocate(shape, type,
             s.tensorCopies ? kTensorCopyAlignment : kMaxVectorBytes,
             staged.swizzle);
    s.staged[op] = staged;
  }
  if (s.tensorCopies) {
    // One mbarrier per stage, initialised before every thread goes on.
    allocate({stages}, IntegerType::get(graph.getContext(), 64));
    emitCode();
    barrier();
  }
}

Operation *Planner::getEpilogue(block::MatmulOp op) {
  if (!op->hasOneUse())
    return nullptr;
  Operation *user = *op->user_begin();
  if (!isUnaryElementwise(user) || s.getRunPhase(user) != s.getRunPhase(op))
    return nullptr;
  return user;
}

Operation *Planner::getDirectSaver(Operation *op) {
  if (graph.getCluster() || op->getNumResults() != 1 ||
      !op->getResult(0).hasOneUse() ||
      (!getElementwiseKind(op) && !isa<block::ThreadGraphOp>(op) &&
       !s.registerRows.contains(op)))
    return nullptr;
  auto saver = dyn_cast<block::OutputSaverOp>(*op->user_begin());
  if (!saver ||
      getElementType(saver.getResult()) != getElementType(op->getResult(0)))
    return nullptr;
  return saver;
}

std::optional<RegisterRows> Planner::getRegisterRows(block::RmsNormOp norm,
                                                     const TileLayout &in) {
  int64_t size = norm.getSize();
  int64_t groups = getNumElements(in.shape) / size;
  if (s.threads % groups != 0)
    return std::nullopt;
  RegisterRows rows;
  rows.lanes = s.threads / groups;
  rows.width = std::min(
      getTermRun(in, size),
      getRunWidth(in.shape, {in.storageType, getElementType(norm.getResult())},
                  size));
  int64_t runs = size / rows.width;
  rows.runsPerThread = llvm::divideCeil(runs, rows.lanes);
  if (!llvm::isPowerOf2_64(rows.lanes) || runs < rows.lanes ||
      rows.runsPerThread * rows.width > kMaxRowRegisters)
    return std::nullopt;
  return rows;
}

std::optional<RegisterRows> Planner::getRowProgram() {
  int64_t forloop = graph.getForloop();
  bool loop = forloop > 1;
  if (!choices.rowPrograms || forloop > kMaxRowProgramIterations ||
      graph.getCluster() || (loop && !s.runningMaxima.empty()))
    return std::nullopt;
  Block &body = graph.getBodyBlock();
  auto loaders = llvm::to_vector(body.getOps<block::InputLoaderOp>());
  if (loaders.empty())
    return std::nullopt;
  // S, the loaders' shape, and R, one value per row of S; in a for-loop
  // also W, a loop-invariant row of another length that every thread of the
  // row holds whole (a split's maxima, which its combining kernel reduces).
  ArrayRef<int64_t> rows = getShape(loaders.front().getResult());
  int64_t size = rows.back();
  SmallVector<int64_t, 4> perRow(rows);
  perRow.back() = 1;
  enum class Kind { Rows, PerRow, Whole, Other };
  auto kindOf = [&](Value value) {
    ArrayRef<int64_t> shape = getShape(value);
    if (shape == rows)
      return Kind::Rows;
    if (shape == ArrayRef<int64_t>(perRow))
      return Kind::PerRow;
    return loop && shape.drop_back() == ArrayRef(perRow).drop_back() &&
                   shape.back() <= kMaxRowProgramRegisters
               ? Kind::Whole
               : Kind::Other;
  };
  auto isRowOrPerRow = [&](Value value) {
    Kind kind = kindOf(value);
    return kind == Kind::Rows || kind == Kind::PerRow;
  };
  // Runs as wide as every access allows; which S values live at each op.
  int64_t width = size;
  SmallVector<Type, 4> types;
  DenseMap<Value, Operation *> lastUse;
  bool sums = false, rowSums = false, rowSumsInLoop = false;
  int64_t wholeElements = 0, rowAccumulators = 0;
  for (Operation &op : body.without_terminator()) {
    for (Value operand : op.getOperands())
      lastUse[operand] = &op;
    if (auto loader = dyn_cast<block::InputLoaderOp>(op)) {
      Kind kind = kindOf(loader.getResult());
      TileLayout global = getGlobalLayout(loader, /*wholeShape=*/false);
      types.push_back(global.storageType);
      if (kind == Kind::Rows) {
        width = std::min(width, getTermRun(global, size));
        continue;
      }
      if (!loop || kind == Kind::Other ||
          (kind == Kind::Whole && loader.isLoopVarying()))
        return std::nullopt;
      if (kind == Kind::Whole)
        wholeElements += getShape(loader.getResult()).back();
      continue;
    }
    if (auto saver = dyn_cast<block::OutputSaverOp>(op)) {
      if (!isRowOrPerRow(saver.getInput()))
        return std::nullopt;
      types.push_back(getElementType(saver.getResult()));
      continue;
    }
    if (isa<block::ReductionOp, block::ReductionMaxOp>(op)) {
      Kind operand = kindOf(op.getOperand(0));
      if ((operand != Kind::Rows && operand != Kind::Whole) ||
          kindOf(op.getResult(0)) != Kind::PerRow)
        return std::nullopt;
      sums = true;
      rowSums |= operand == Kind::Rows;
      rowSumsInLoop |=
          operand == Kind::Rows && s.phases.lookup(&op) == LoopPhase::InLoop;
      continue;
    }
    // In a for-loop: sums of S or R values, held in f32 registers.
    if (auto accum = dyn_cast<block::ForloopAccumOp>(op)) {
      if (!loop || accum.getKind() != block::AccumKind::Sum ||
          !isRowOrPerRow(accum.getInput()))
        return std::nullopt;
      rowAccumulators += kindOf(accum.getInput()) == Kind::Rows;
      types.push_back(getElementType(accum.getResult()));
      continue;
    }
    // An rms_norm of whole S rows: a sum of their squares.
    if (auto norm = dyn_cast<block::RmsNormOp>(op)) {
      if (kindOf(norm.getInput()) != Kind::Rows || norm.getSize() != size)
        return std::nullopt;
      sums = rowSums = true;
      rowSumsInLoop |= s.phases.lookup(&op) == LoopPhase::InLoop;
      types.push_back(getElementType(norm.getResult()));
      continue;
    }
    // Thread graphs and elementwise ops on S and R values.
    auto graphOp = dyn_cast<block::ThreadGraphOp>(op);
    if (graphOp && llvm::any_of(graphOp.getBody().front().without_terminator(),
                                [](Operation &inner) {
                                  return !getElementwiseKind(&inner);
                                }))
      return std::nullopt;
    if ((!graphOp && !getElementwiseKind(&op)) || op.getNumResults() != 1 ||
        !llvm::all_of(op.getOperands(), isRowOrPerRow) ||
        !isRowOrPerRow(op.getResult(0)))
      return std::nullopt;
    types.push_back(getElementType(op.getResult(0)));
  }
  int64_t groups = getNumElements(rows) / size;
  if ((!loop && !sums) || size == 1 || s.threads % groups != 0)
    return std::nullopt;
  RegisterRows program;
  program.lanes = s.threads / groups;
  // With no sum along the rows, threads past a row's elements stay idle
  // (they would miss no barrier): each of the others holds one element.
  if (!rowSums && program.lanes > size)
    program.lanes =
        static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(size)));
  program.width = std::min(width, getRunWidth(rows, types, size));
  // A for-loop's rows may be narrower than the block: runs as narrow as it
  // takes for every thread to hold one.
  while (loop && program.width > 1 &&
         (size / program.width) % program.lanes != 0)
    program.width /= 2;
  int64_t runs = size / program.width;
  if (!llvm::isPowerOf2_64(program.lanes) || runs % program.lanes != 0 ||
      (rowSumsInLoop && program.lanes > kWarpSize))
    return std::nullopt;
  program.runsPerThread = runs / program.lanes;
  // The S tiles live at once, from their op to their last use, besides the
  // for-loop's S sums and the W rows.
  int64_t live = 0, mostLive = 0;
  for (Operation &op : body.without_terminator()) {
    for (Value result : op.getResults())
      if (kindOf(result) == Kind::Rows && lastUse.count(result))
        ++live;
    mostLive = std::max(mostLive, live);
    for (Value operand : op.getOperands())
      if (operand.getDefiningOp() && lastUse.lookup(operand) == &op &&
          kindOf(operand) == Kind::Rows)
        --live;
  }
  if ((mostLive + rowAccumulators) * program.runsPerThread * program.width +
          wholeElements >
      kMaxRowProgramRegisters)
    return std::nullopt;
  return program;
}

bool Planner::planRowProgram() {
  std::optional<RegisterRows> program = getRowProgram();
  if (!program)
    return false;
  s.rowProgram = program;
  emitCode();
  if (program->lanes <= kWarpSize)
    return true;
  // Reductions and rms_norms of S rows wider than a warp (a W row is one
  // thread's).
  Block &body = graph.getBodyBlock();
  ArrayRef<int64_t> rows =
      getShape((*body.getOps<block::InputLoaderOp>().begin()).getResult());
  auto count = llvm::count_if(body, [&](Operation &op) {
    return isa<block::ReductionOp, block::ReductionMaxOp, block::RmsNormOp>(
               op) &&
           getShape(op.getOperand(0)) == rows;
  });
  for (int64_t i = 0; i < count; ++i) {
    allocate({s.threads / kWarpSize}, Float32Type::get(graph.getContext()));
    barrier();
    emitCode();
  }
  return true;
}

void Planner::planRegisterSums() {
  if (!choices.tensorCores)
    return;
  int64_t count = 0;
  for (auto accum : graph.getBodyBlock().getOps<block::ForloopAccumOp>())
    planRegisterChain(accum, count);
  for (auto accum : graph.getBodyBlock().getOps<block::ForloopAccumOp>()) {
    auto matmul = accum.getInput().getDefiningOp<block::MatmulOp>();
    if (s.isInRegisters(accum) || accum.getKind() != block::AccumKind::Sum ||
        !matmul || !matmul->hasOneUse() ||
        s.phases.lookup(matmul) != LoopPhase::InLoop)
      continue;
    // In-loop values are stored at their element type.
    ArrayRef<int64_t> shape = getShape(matmul.getResult());
    int64_t depth = getShape(matmul.getLhs()).back();
    Type lhsType = getElementType(matmul.getLhs());
    Type rhsType = getElementType(matmul.getRhs());
    RegisterSum sum;
    // wgmma's sums have no rescaling by rows for a running maximum.
    bool rescaled = llvm::any_of(s.runningMaxima, [&](const auto &entry) {
      return llvm::is_contained(entry.second, accum.getOperation());
    });
    if (choices.warpgroupMatmuls && !rescaled &&
        canUseWarpgroupMatmul(lhsType, rhsType, depth, shape, s.threads)) {
      sum.engine = MatmulEngine::Wgmma;
      sum.numRegisters =
          WarpgroupPlan(depth, shape, s.threads).getNumRegisters();
    } else if (canUseTensorCores(lhsType, rhsType, depth, shape, s.threads)) {
      sum.engine = MatmulEngine::MmaSync;
      sum.numRegisters = getTensorCoreSumRegisters(depth, shape, s.threads);
    } else {
      continue;
    }
    if (count + sum.numRegisters > kMaxSumRegisters)
      continue;
    sum.firstRegister = count;
    s.registerSums.insert({accum, sum});
    count += sum.numRegisters;
  }
  s.loopRegisters = count;
}

void Planner::planLanePartials() {
  for (auto accum : graph.getBodyBlock().getOps<block::ForloopAccumOp>()) {
    block::AccumKind kind = accum.getKind();
    if ((kind != block::AccumKind::SumLast &&
         kind != block::AccumKind::RmsLast) ||
        s.isInRegisters(accum) ||
        getNumElements(getShape(accum.getResult())) > s.threads)
      continue;
    // A running maximum rescales its sums' tiles, not the threads' slots.
    bool rescaled = llvm::any_of(s.runningMaxima, [&](const auto &entry) {
      return llvm::is_contained(entry.second, accum.getOperation());
    });
    if (!rescaled)
      s.lanePartials.insert({accum, LanePartials{0, 0}});
  }
}

void Planner::planRegisterChain(block::ForloopAccumOp accum, int64_t &count) {
  auto second = accum.getInput().getDefiningOp<block::MatmulOp>();
  if (accum.getKind() != block::AccumKind::Sum || !second ||
      !second->hasOneUse() || s.phases.lookup(second) != LoopPhase::InLoop)
    return;
  Value intermediate = second.getLhs();
  if (intermediate == second.getRhs())
    return;
  SmallVector<block::ForloopAccumOp> rowSums;
  SmallVector<Operation *> sums = {accum};
  for (Operation *user : intermediate.getUsers()) {
    if (user == second)
      continue;
    auto rowSum = dyn_cast<block::ForloopAccumOp>(user);
    if (!rowSum || rowSum.getKind() != block::AccumKind::SumLast)
      return;
    rowSums.push_back(rowSum);
    sums.push_back(rowSum);
  }
  // E is the first matmul's result, or its epilogue's, or exp(T - M).
  Operation *between = nullptr, *scale = nullptr;
  block::ForloopAccumOp runningMax;
  auto first = intermediate.getDefiningOp<block::MatmulOp>();
  if (!first) {
    between = intermediate.getDefiningOp();
    if (between && between->getNumOperands() == 1)
      first = between->getOperand(0).getDefiningOp<block::MatmulOp>();
    if (first) {
      if (getEpilogue(first) != between)
        return;
    } else if (choices.runningMaxChains) {
      first = matchRunningMaxChain(between, sums, scale, runningMax);
    }
    if (!first)
      return;
  }
  if (s.phases.lookup(first) != LoopPhase::InLoop)
    return;
  ArrayRef<int64_t> shape = getShape(intermediate);
  int64_t depth = getShape(first.getLhs()).back();
  int64_t columns = getShape(second.getResult()).back();
  if (!canChainMatmuls(
          getElementType(first.getLhs()), getElementType(first.getRhs()),
          getElementType(intermediate), getElementType(second.getRhs()), shape,
          depth, columns, s.threads))
    return;
  ChainShape chain(shape, columns, s.threads, !rowSums.empty(),
                   bool(runningMax));
  int64_t added = chain.getNumRegisters();
  if (count + added > kMaxChainRegisters ||
      (runningMax && chain.getScoreRegisters() > kMaxChainScoreRegisters))
    return;
  bool preloadsLhs =
      s.phases.lookup(first.getLhs().getDefiningOp()) == LoopPhase::Invariant &&
      chain.getLhsRegisters(depth) <= kMaxPreloadedLhsRegisters;
  s.absorbed.insert(first);
  if (between)
    s.absorbed.insert(between);
  if (runningMax) {
    // T's row maxima, the shift and the op before T run in the chain too.
    Operation *shift = between->getOperand(0).getDefiningOp();
    s.absorbed.insert(runningMax.getInput().getDefiningOp());
    s.absorbed.insert(shift);
    if (scale)
      s.absorbed.insert(scale);
  }
  s.registerChains.insert(
      {second, RegisterChain{first, between, rowSums, count, added, preloadsLhs,
                             runningMax, scale}});
  count += added;
}

block::MatmulOp
Planner::matchRunningMaxChain(Operation *exp, ArrayRef<Operation *> sums,
                              Operation *&scale,
                              block::ForloopAccumOp &runningMax) {
  auto kindOf = [](Operation *op) {
    return op ? getElementwiseKind(op) : std::nullopt;
  };
  if (kindOf(exp) != ElementwiseKind::Exp)
    return nullptr;
  Operation *shift = exp->getOperand(0).getDefiningOp();
  if (kindOf(shift) != ElementwiseKind::Sub || !shift->hasOneUse())
    return nullptr;
  Value scores = shift->getOperand(0);
  auto max = shift->getOperand(1).getDefiningOp<block::ForloopAccumOp>();
  if (!max || !s.runningMaxima.contains(max))
    return nullptr;
  SmallVector<Operation *, 2> rescaled = s.runningMaxima.lookup(max);
  if (rescaled.size() != sums.size() ||
      !llvm::all_of(rescaled, [&](Operation *sum) {
        return llvm::is_contained(sums, sum);
      }))
    return nullptr;
  // The maximum of T's rows, read in the loop by the shift alone.
  auto rowMax = max.getInput().getDefiningOp<block::ReductionMaxOp>();
  if (!rowMax || rowMax.getInput() != scores || !rowMax->hasOneUse())
    return nullptr;
  auto [dim, size] = block::getReductionShape(rowMax);
  if (size != 1 || dim != int64_t(getShape(scores).size()) - 1)
    return nullptr;
  for (Operation *user : max->getUsers())
    if (user != shift && s.getRunPhase(user) == LoopPhase::InLoop)
      return nullptr;
  // T, read by its row maxima and the shift only, is A x B or a unary op of
  // it.
  if (!llvm::all_of(scores.getUsers(), [&](Operation *user) {
        return user == shift || user == rowMax;
      }))
    return nullptr;
  Operation *def = scores.getDefiningOp();
  scale = nullptr;
  if (def && isUnaryElementwise(def)) {
    scale = def;
    def = def->getOperand(0).getDefiningOp();
    if (!def || !def->hasOneUse())
      return nullptr;
  }
  auto first = dyn_cast_or_null<block::MatmulOp>(def);
  if (!first || s.phases.lookup(rowMax) != LoopPhase::InLoop)
    return nullptr;
  runningMax = max;
  return first;
}

MatmulEngine Planner::chooseEngine(block::MatmulOp op) {
  const TileLayout &a = layouts[op.getLhs()], &b = layouts[op.getRhs()];
  ArrayRef<int64_t> shape = getShape(op.getResult());
  if (choices.warpgroupMatmuls &&
      canUseWarpgroupMatmul(a.storageType, b.storageType, a.shape.back(), shape,
                            s.threads))
    return MatmulEngine::Wgmma;
  if (choices.tensorCores &&
      canUseTensorCores(a.storageType, b.storageType, a.shape.back(), shape,
                        s.threads))
    return MatmulEngine::MmaSync;
  return MatmulEngine::Simt;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

int64_t Planner::allocate(ArrayRef<int64_t> shape, Type type, int64_t alignment,
                          int64_t swizzle) {
  if (swizzle != 0)
    alignment = std::max(alignment, kSwizzleAlignment);
  int64_t bytes = getNumElements(shape) * type.getIntOrFloatBitWidth() / 8;
  int64_t offset = allocator.allocate(bytes, alignment);
  s.buffers.push_back({offset, bytes, alignment});
  return offset;
}

void Planner::allocateResult(Value result) {
  TileLayout layout;
  ArrayRef<int64_t> shape = getShape(result);
  layout.shape.assign(shape.begin(), shape.end());
  layout.strides = getContiguousStrides(shape);
  layout.storageType = getElementType(result);
  layout.shared = true;
  layout.swizzle = getSharedSwizzle(result);
  int64_t offset =
      allocate(shape, layout.storageType, kMaxVectorBytes, layout.swizzle);
  owned[result] = {offset, s.buffers.back().bytes};
  layouts[result] = std::move(layout);
}

void Planner::planSums(ArrayRef<int64_t> shape, int64_t terms, int64_t width,
                       int64_t termRun) {
  int64_t groups = getNumElements(shape) / width;
  int64_t slices = getSumSlices(groups, terms, s.threads, termRun);
  emitCode();
  if (slices != 1) {
    SmallVector<int64_t, 4> partialShape = {slices};
    llvm::append_range(partialShape, shape);
    allocate(partialShape, Float32Type::get(graph.getContext()));
    barrier();
  }
  barrier();
}

void Planner::planStoreResults(int64_t slices, ArrayRef<int64_t> shape) {
  emitCode();
  if (slices != 1) {
    SmallVector<int64_t, 4> partialShape = {slices};
    llvm::append_range(partialShape, shape);
    allocate(partialShape, Float32Type::get(graph.getContext()));
    barrier();
  }
  barrier();
}

void Planner::planWarpgroupOperands(const WarpgroupPlan &plan,
                                    Type elementType) {
  allocate(plan.getPackedShape(plan.paddedRowsA), elementType);
  allocate(plan.getPackedShape(plan.paddedRowsB), elementType);
  emitCode();
  barrier();
}

void Planner::releaseDeadTiles(Operation *op, bool loopEnd) {
  // Other blocks of a cluster read this block's tiles (DSMEM) until the
  // cluster synchronises: no reuse there.
  if (graph.getCluster())
    return;
  auto runsBefore = [&](Operation *a, Operation *b) {
    LoopPhase phaseA = s.getRunPhase(a), phaseB = s.getRunPhase(b);
    return phaseA != phaseB ? phaseA < phaseB : a->isBeforeInBlock(b);
  };
  SmallVector<Value> candidates;
  if (loopEnd)
    candidates = llvm::to_vector(llvm::make_first_range(owned));
  else
    candidates = llvm::to_vector(op->getOperands());
  // A register chain's second matmul reads the operands of its first.
  if (auto chain = s.registerChains.find(op);
      !loopEnd && chain != s.registerChains.end())
    llvm::append_range(candidates, chain->second.first->getOperands());
  for (Value value : candidates) {
    auto found = owned.find(value);
    if (found == owned.end())
      continue;
    Operation *last = nullptr;
    for (Operation *user : value.getUsers())
      if (Operation *reader = s.getReader(user);
          !last || runsBefore(last, reader))
        last = reader;
    if (!last)
      continue;
    // A loop-invariant tile read in the loop lives until the loop ends, as
    // do the preloaded tiles of every iteration.
    Operation *def = value.getDefiningOp();
    bool readInLoop = (s.phases.lookup(def) != LoopPhase::InLoop ||
                       s.preloaded.contains(def)) &&
                      s.getRunPhase(last) == LoopPhase::InLoop;
    if (loopEnd ? !readInLoop : (last != op || readInLoop))
      continue;
    auto [offset, bytes] = found->second;
    allocator.release(offset, bytes, lastIsBarrier);
    if (lastIsBarrier)
      s.synchronizedReleases.insert(op);
    owned.erase(found);
  }
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

void Planner::visitLoader(block::InputLoaderOp op) {
  if (auto found = preloadedTiles.find(op); found != preloadedTiles.end()) {
    owned[op.getResult()] = found->second.first;
    layouts[op.getResult()] = found->second.second;
    return;
  }
  auto staged = s.staged.find(op);
  if (staged == s.staged.end()) {
    layouts[op.getResult()] = getGlobalLayout(op, /*wholeShape=*/false);
    if (!getLoaderOffsetTerms(graph, op).empty())
      emitCode();
    return;
  }
  // One stage of `[stages, tile...]`, at a multiple of the tile's elements.
  ArrayRef<int64_t> tile = getShape(op.getResult());
  TileLayout stages;
  stages.shape = {s.stages};
  llvm::append_range(stages.shape, tile);
  stages.strides = getContiguousStrides(stages.shape);
  if (staged->second.blockExtent != 0)
    blockLastDimension(stages, staged->second.blockExtent, /*firstInner=*/1);
  TileLayout layout = stages;
  layout.shape.erase(layout.shape.begin());
  layout.strides.erase(layout.strides.begin());
  if (layout.blockExtent != 0)
    --layout.blockedDim;
  layout.storageType = getElementType(op.getResult());
  layout.shared = true;
  layout.swizzle = staged->second.swizzle;
  layout.offsetAlignment = std::gcd(layout.offsetAlignment, stages.strides[0]);
  layouts[op.getResult()] = std::move(layout);
  emitCode();
}

void Planner::visitMatmul(block::MatmulOp op) {
  ArrayRef<int64_t> shape = getShape(op.getResult());
  if (s.registerChains.contains(op)) {
    emitCode();
    if (s.stages == 0)
      barrier();
    return;
  }
  if (op->hasOneUse()) {
    if (auto sum = s.registerSums.find(*op->user_begin());
        sum != s.registerSums.end()) {
      if (sum->second.engine == MatmulEngine::Wgmma)
        planWarpgroupOperands(
            WarpgroupPlan(getShape(op.getLhs()).back(), shape, s.threads),
            getElementType(op.getLhs()));
      emitCode();
      if (s.stages == 0)
        barrier();
      return;
    }
  }
  MatmulEngine engine = chooseEngine(op);
  s.engines[op] = engine;
  int64_t depth = layouts[op.getLhs()].shape.back();
  if (engine == MatmulEngine::Wgmma) {
    allocateResult(op.getResult());
    planWarpgroupOperands(WarpgroupPlan(depth, shape, s.threads),
                          layouts[op.getLhs()].storageType);
    emitCode();
    barrier();
    return;
  }
  // Sums rounded to the matmul's type, then its epilogue, as they are stored.
  Operation *epilogue = getEpilogue(op);
  if (epilogue) {
    s.epilogues[op] = epilogue;
    s.absorbed.insert(epilogue);
  }
  allocateResult(epilogue ? epilogue->getResult(0) : Value(op.getResult()));
  if (engine == MatmulEngine::MmaSync) {
    planStoreResults(getTensorCoreSlices(shape, depth, s.threads), shape);
    return;
  }
  int64_t width =
      getSumWidth(layouts[op.getRhs()], shape, s.threads, choices.vectorSums);
  planSums(shape, depth, width, /*termRun=*/1);
}

void Planner::initAccumulator(block::ForloopAccumOp op) {
  ArrayRef<int64_t> shape = getShape(op.getResult());
  Type f32 = Float32Type::get(graph.getContext());
  allocate(shape, f32);
  TileLayout layout;
  layout.shape.assign(shape.begin(), shape.end());
  layout.strides = getContiguousStrides(shape);
  layout.storageType = f32;
  layout.shared = true;
  layouts[op.getResult()] = std::move(layout);
  // A running maximum's factors exp(old - new).
  if (s.runningMaxima.contains(op))
    allocate(shape, f32);
  if (s.lanePartials.contains(op))
    allocate({s.threads}, f32);
  emitCode();
  barrier();
}

void Planner::accumulate(block::ForloopAccumOp op) {
  block::AccumKind kind = op.getKind();
  if (kind == block::AccumKind::Sum || kind == block::AccumKind::Max) {
    emitCode();
    barrier();
    // A running maximum rescales its sums once its factors are in.
    if (s.runningMaxima.contains(op)) {
      emitCode();
      barrier();
    }
    return;
  }
  const TileLayout &in = layouts[op.getInput()];
  int64_t size = kind == block::AccumKind::SumLastTo ? *op.getSize() : 1;
  int64_t terms = in.shape.back() / size;
  int64_t termRun = size == 1 ? getTermRun(in, terms) : 1;
  if (auto found = s.lanePartials.find(op); found != s.lanePartials.end()) {
    int64_t groups = getNumElements(getShape(op.getResult()));
    found->second = {getLanePartialCount(groups, terms / termRun, s.threads),
                     termRun};
    emitCode();
    if (s.stages == 0)
      barrier();
    return;
  }
  planSums(getShape(op.getResult()), terms, /*width=*/1, termRun);
}

void Planner::finishAccumulator(block::ForloopAccumOp op) {
  ArrayRef<int64_t> shape = getShape(op.getResult());
  if (const RegisterChain *chain = s.getChain(op)) {
    allocateResult(op.getResult());
    Operation *second = s.getReader(chain->first);
    ChainShape geometry(getShape(second->getOperand(0)),
                        getShape(second->getResult(0)).back(), s.threads,
                        !chain->rowSums.empty());
    if (op.getInput() == second->getResult(0)) {
      planStoreResults(geometry.slices, shape);
      return;
    }
    emitCode();
    if (geometry.slices != 1) {
      SmallVector<int64_t, 4> partialShape = {geometry.slices};
      llvm::append_range(partialShape, shape);
      allocate(partialShape, Float32Type::get(graph.getContext()));
      barrier();
    }
    barrier();
    return;
  }
  if (auto sum = s.registerSums.find(op); sum != s.registerSums.end()) {
    allocateResult(op.getResult());
    if (sum->second.engine == MatmulEngine::Wgmma) {
      emitCode();
      barrier();
      return;
    }
    auto matmul = op.getInput().getDefiningOp<block::MatmulOp>();
    planStoreResults(
        getTensorCoreSlices(shape, getShape(matmul.getLhs()).back(), s.threads),
        shape);
    return;
  }
  // The slots added up once all are in (lane partials), then in place,
  // rounded to the result's type.
  if (s.lanePartials.contains(op)) {
    barrier();
    emitCode();
    barrier();
  }
  emitCode();
  barrier();
}

void Planner::visit(Operation *op) {
  if (s.absorbed.contains(op))
    return;
  TypeSwitch<Operation *>(op)
      .Case([&](block::InputLoaderOp loader) { visitLoader(loader); })
      .Case([&](block::MatmulOp matmul) { visitMatmul(matmul); })
      .Case<block::ReductionOp, block::ReductionMaxOp>([&](Operation *op) {
        const TileLayout &in = layouts[op->getOperand(0)];
        auto [dim, size] = block::getReductionShape(op);
        allocateResult(op->getResult(0));
        ArrayRef<int64_t> shape = getShape(op->getResult(0));
        int64_t width = getSumWidth(in, shape, s.threads, choices.vectorSums);
        int64_t terms = in.shape[dim] / size;
        bool lastDim = dim == int64_t(in.shape.size()) - 1;
        int64_t termRun = lastDim && size == 1 ? getTermRun(in, terms) : 1;
        if (lastDim)
          width = getGroupWidth(width, size);
        planSums(shape, terms, width, termRun);
      })
      .Case([&](block::RmsNormOp norm) {
        const TileLayout &in = layouts[norm.getInput()];
        if (std::optional<RegisterRows> rows = getRegisterRows(norm, in)) {
          // One f32 per warp of a group, added after a barrier.
          s.registerRows[norm] = *rows;
          emitCode();
          if (rows->lanes > kWarpSize) {
            allocate({s.threads / kWarpSize},
                     Float32Type::get(graph.getContext()));
            barrier();
            emitCode();
          }
          if (Operation *saver = getDirectSaver(norm)) {
            s.directSaves[norm] = saver;
            s.absorbed.insert(saver);
          } else {
            allocateResult(norm.getResult());
          }
          barrier();
          return;
        }
        int64_t groups = getNumElements(in.shape) / norm.getSize();
        allocate({groups}, Float32Type::get(graph.getContext()));
        planSums({groups}, norm.getSize(), /*width=*/1,
                 getTermRun(in, norm.getSize()));
        allocateResult(norm.getResult());
        barrier();
      })
      .Case<block::ClusterReduceOp, block::ClusterReduceScatterOp,
            block::ClusterGatherOp>([&](Operation *collective) {
        Value input = collective->getOperand(0);
        if (!layouts[input].shared)
          allocate(getShape(input), getElementType(input));
        allocateResult(collective->getResult(0));
        emitCode();
      })
      .Case([&](block::OutputSaverOp) {
        emitCode();
        barrier();
      })
      .Default([&](Operation *other) {
        // Elementwise ops, concat, thread graphs: a result tile each, or
        // their output_saver's global tensor.
        if (Operation *saver = getDirectSaver(other)) {
          s.directSaves[other] = saver;
          s.absorbed.insert(saver);
        } else {
          for (Value result : other->getResults())
            allocateResult(result);
        }
        emitCode();
        barrier();
      });
}

void Planner::run() {
  if (planRowProgram()) {
    s.sharedBytes = allocator.getSize();
    return;
  }
  Block &body = graph.getBodyBlock();
  // The copies go first: the preloaded tiles, then the stages of the first
  // iterations; the ops wait for the former only.
  planPreloads();
  planStaging();
  if (!s.preloaded.empty()) {
    emitCode();
    barrier();
  }
  auto phaseOf = [&](Operation &op) { return s.phases.lookup(&op); };
  for (Operation &op : body.without_terminator()) {
    if (isa<block::ForloopAccumOp>(op) || phaseOf(op) != LoopPhase::Invariant)
      continue;
    visit(&op);
    releaseDeadTiles(&op);
  }
  auto accums = llvm::to_vector(body.getOps<block::ForloopAccumOp>());
  planRegisterSums();
  planLanePartials();
  for (block::ForloopAccumOp accum : accums)
    if (!s.isInRegisters(accum))
      initAccumulator(accum);
  bool hasLoopBody =
      !accums.empty() ||
      llvm::any_of(body.without_terminator(), [&](Operation &op) {
        return phaseOf(op) == LoopPhase::InLoop;
      });
  if (hasLoopBody) {
    emitCode();
    if (s.stages != 0) {
      barrier();
      emitCode();
    }
    for (Operation &op : body.without_terminator()) {
      if (auto accum = dyn_cast<block::ForloopAccumOp>(op)) {
        if (!s.isInRegisters(accum))
          accumulate(accum);
      } else if (phaseOf(op) != LoopPhase::InLoop) {
        continue;
      } else {
        visit(&op);
      }
      releaseDeadTiles(&op);
    }
    emitCode();
    releaseDeadTiles(nullptr, /*loopEnd=*/true);
  }
  for (block::ForloopAccumOp accum : accums)
    finishAccumulator(accum);
  for (Operation &op : body.without_terminator()) {
    if (isa<block::ForloopAccumOp>(op) || phaseOf(op) != LoopPhase::PostLoop)
      continue;
    visit(&op);
    releaseDeadTiles(&op);
  }
  s.sharedBytes = allocator.getSize();
}

void mlir::mirage::planSchedule(kernel::GraphDefOp graph,
                                const ScheduleChoices &choices,
                                KernelSchedule &schedule) {
  Planner(graph, choices, schedule).run();
}
