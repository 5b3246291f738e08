//===- BlockToGPU.cpp - convert-mirage-block-to-gpu -----------------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Compiles each graph_def into a gpu.func. The body runs in three phases
// (DESIGN.md §3.2, LoopPhase.h): loop-invariant ops, then an scf.for over the
// for-loop holding the per-iteration ops and the accumulation steps, then the
// ops on accumulated values. Every op is a loop of the block's threads over
// the elements of its result followed by a barrier (docs/CodeGeneration.md).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Conversion/Passes.h"
#include "Mirage/Conversion/TensorMaps.h"
#include "Mirage/Support/Chip.h"

#include "ChainedMatmul.h"
#include "KernelEmitter.h"
#include "TensorCoreMatmul.h"
#include "WarpgroupMatmul.h"
#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Dialect/Thread/IR/ThreadOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>
#include <numeric>

namespace mlir::mirage {
#define GEN_PASS_DEF_CONVERTMIRAGEBLOCKTOGPUPASS
#include "Mirage/Conversion/Passes.h.inc"
} // namespace mlir::mirage

using namespace mlir;
using namespace mlir::mirage;
using block::LoopPhase;

namespace {

/// The flat buffer type of a kernel tensor.
MemRefType getFlatBufferType(Type tensor) {
  auto shaped = cast<ShapedType>(tensor);
  return MemRefType::get({shaped.getNumElements()}, shaped.getElementType());
}

ArrayRef<int64_t> getShape(Value tile) {
  return cast<ShapedType>(tile.getType()).getShape();
}

Type getElementType(Value tile) {
  return cast<ShapedType>(tile.getType()).getElementType();
}

/// The most shared memory the stages of a pipelined kernel take: at first,
/// then when the kernel does not fit in shared memory with that.
constexpr int64_t kMaxStagingBytes = 128 * 1024, kFallbackStagingBytes = 64 * 1024;
/// The alignment of the shared memory a TMA copy writes, in bytes: every
/// stage of a tile copied by TMA starts at a multiple of it.
constexpr int64_t kTensorCopyAlignment = 128;
/// The time hint of one `mbarrier.try_wait` (ns) before it retries.
constexpr int32_t kWaitTicks = 10000000;
/// The threads per SM a kernel's register budget is sized for
/// (`.minnctapersm`).
constexpr int64_t kThreadsPerSM = 256;

/// Choices of a kernel's code that trade shared memory for speed.
struct LoweringOptions {
  /// The most for-loop iterations whose staged tiles are in shared memory at
  /// once (below 2: no staging).
  int64_t maxStages;
  /// The most shared memory the stages take.
  int64_t stagingBytes;
  /// Whether sums take vector groups (more slices, so larger partial sums).
  bool vectorSums;
  /// Whether f16 matmuls run on tensor cores (`mma.sync`) where they fit.
  bool tensorCores;
  /// Whether f16 matmuls run on sm_90a's warpgroup tensor cores (`wgmma`)
  /// where they fit, before `mma.sync`.
  bool warpgroupMatmuls;
  /// Whether staged tiles are copied by the TMA unit (`cp.async.bulk.tensor`
  /// on TMA descriptors, sm_90a), completing on one mbarrier per stage,
  /// instead of `cp.async`.
  bool tensorCopies;
  /// Whether loop-invariant input tiles are copied into shared memory once,
  /// before any op reads them (else they are read in place).
  bool preloadInvariants;
};

/// Emits the body of the kernel of one graph_def.
class GraphDefLowering {
public:
  /// Lowers `graph` into `kernel` with the choices of `options`.
  GraphDefLowering(kernel::GraphDefOp graph, gpu::GPUFuncOp kernel,
                   const LoweringOptions &options)
      : graph(graph), kernel(kernel), emitter(kernel, graph.getBlock()),
        options(options) {}

  LogicalResult run();
  int64_t getSharedMemoryBytes() const {
    return emitter.getSharedMemoryBytes();
  }
  /// The for-loop iterations whose staged tiles are in shared memory at once
  /// (0: none staged).
  int64_t getStages() const { return numStages; }

private:
  LogicalResult lower(Operation *op);
  /// The terms of the offset of the tile `op` loads, in elements: (grid
  /// axis, or kIterationTerm for the for-loop iteration; elements per step).
  SmallVector<std::pair<unsigned, int64_t>, 4>
  getLoaderOffsetTerms(block::InputLoaderOp op);
  /// The global tile `op` loads at for-loop iteration `iteration` (null
  /// outside the loop).
  Tile getLoaderTile(block::InputLoaderOp op, Value iteration);
  /// The stage of staged loader `op` that holds iteration `iteration`.
  Tile getStage(block::InputLoaderOp op, Value iteration);
  /// Whether the ops read the elements of the tile of `op` more than once:
  /// it has several uses, or one in a for-loop of several iterations, or one
  /// by a matmul or an rms_norm (which read every element several times).
  bool isReadRepeatedly(block::InputLoaderOp op);
  /// Starts copying the tiles of the loop-invariant input_loaders that are
  /// read repeatedly and whose rows are whole 16-byte chunks into shared
  /// memory, all in one `cp.async` group, so that the ops read them there;
  /// false when there are none.
  bool preloadInvariantTiles();
  /// Chooses the loop-varying input_loaders whose tiles are copied into
  /// shared memory ahead of their iteration (software pipelining) and
  /// allocates their stages.
  void planStaging();
  /// Whether the TMA unit can copy the tiles of `op`: at most 5 dimensions
  /// of at most 256 elements, rows of whole 16-byte chunks.
  bool canCopyWithTMA(block::InputLoaderOp op);
  /// Adds a TMA descriptor parameter for every staged input_loader and one
  /// mbarrier per stage, initialised.
  void planTensorCopies();
  /// The coordinates (i32, innermost dimension first) of the box `op` loads
  /// at for-loop iteration `iteration`.
  SmallVector<Value, 5> getBoxCoordinates(block::InputLoaderOp op,
                                          Value iteration);
  /// Starts the copies of every staged tile of iteration `iteration` into
  /// its stage (they join the threads' next cp.async group, or complete on
  /// the stage's mbarrier).
  void copyStagedTiles(Value iteration);
  /// The mbarrier of the stage that holds iteration `iteration`.
  Value getStageBarrier(Value iteration);
  /// Emits the start of for-loop iteration `iteration` of a pipelined
  /// kernel: waits for its staged tiles, then starts the copies of
  /// iteration `iteration + stages - 1`.
  void advancePipeline(Value iteration);
  void lowerInputLoader(block::InputLoaderOp op);
  void lowerOutputSaver(block::OutputSaverOp op);
  void lowerElementwise(Operation *op, double scalar);
  /// Elementwise work over `shape` by runs (KernelEmitter::forEachRun):
  /// each run reads every operand tile once (broadcast operands included),
  /// calls `compute` on each element's operand values (f32), which returns
  /// one f32 value per tile of `outs`, and writes each result run with one
  /// vector store.
  void emitElementwiseRuns(
      ArrayRef<int64_t> shape, ArrayRef<Tile> operands, ArrayRef<Tile> outs,
      function_ref<SmallVector<Value, 2>(ArrayRef<Value> values)> compute);
  /// The most consecutive elements along the last dimension of `shape` that
  /// elementwise work takes at once (a run, see KernelEmitter::forEachRun):
  /// kMaxVectorBytes of the widest of `types`, halved until it divides the
  /// last dimension and `groupSize` (0: any).
  static int64_t getRunWidth(ArrayRef<int64_t> shape, ArrayRef<Type> types,
                             int64_t groupSize = 0);
  /// For every `width` consecutive elements `c`, ..., `c + width - 1` along
  /// the last dimension of `shape` (`c` a multiple of `width` there), sums
  /// `term(c, k)` (`width` values, one per element) over `k < terms` and
  /// calls `finish(c, sums)`. Few groups with many terms split the terms
  /// over the threads (f32 partial sums in shared memory, added in slice
  /// order by one thread per element, which calls `finish` on one element).
  ///
  /// With `termRun` > 1 (`width` must then be 1), the terms of an element
  /// lie consecutively in memory: `term(c, k)` returns the `termRun` terms
  /// from `k` on (`k` a multiple of `termRun`, which divides `terms`). A
  /// thread then adds a run of terms per step, and the slices of an element
  /// go to consecutive threads and take its runs in turn (slice `s` the runs
  /// `s`, `s + slices`, ...), so that a warp reads consecutive runs of a
  /// group rather than one run of each of many groups (bank conflicts).
  void emitSums(ArrayRef<int64_t> shape, int64_t terms, int64_t width,
                function_ref<SmallVector<Value, 8>(ValueRange c, Value k)> term,
                function_ref<void(ValueRange c, ValueRange sums)> finish,
                int64_t termRun = 1);
  /// The most consecutive terms of a sum over the last dimension of `in`
  /// (terms consecutive there) that one vector access reads, at most
  /// kMaxVectorBytes, dividing `terms` and the last dimension.
  static int64_t getTermRun(const Tile &in, int64_t terms);
  /// How many consecutive result elements along the last dimension a sum
  /// of result shape `shape` groups when it reads them from `operand`: as
  /// many as one vector access of `operand` allows, if that leaves at most
  /// one group per thread, else 1.
  int64_t getSumWidth(const Tile &operand, ArrayRef<int64_t> shape);
  void lowerMatmul(block::MatmulOp op);
  struct RegisterChain;
  /// Emits one iteration of the register chain whose second matmul is
  /// `second`.
  void accumulateRegisterChain(block::MatmulOp second, RegisterChain &chain);
  /// The unary elementwise op that is the only reader of `op`'s result, in
  /// the same loop phase, if any: the matmul applies it to its sums as it
  /// stores them (its epilogue), so the matmul's own result is never stored.
  Operation *getEpilogue(block::MatmulOp op);
  void lowerReduction(block::ReductionOp op);
  void lowerRmsNorm(block::RmsNormOp op);
  void lowerConcat(block::ConcatOp op);
  LogicalResult lowerThreadGraph(block::ThreadGraphOp op);
  /// `cluster_reduce`, `cluster_reduce_scatter` and `cluster_gather`.
  void lowerClusterCollective(Operation *op);
  /// Chooses the forloop_accum sums of matmuls that stay in registers
  /// through the loop: register chains first (planRegisterChain), then
  /// tensor-core matmuls in the loop whose only use is the sum
  /// (TensorCoreAccumulator).
  void planRegisterSums();
  /// Makes `accum`, a forloop_accum of registers `count` on, the sum of a
  /// register chain (ChainedMatmulSum) if it sums `E x C` for `E = f(A x B)`
  /// or `E = A x B` computed in the loop, `f` a unary elementwise op, and E
  /// is read by nothing else than `E x C` and forloop_accum sum_last ops
  /// (its row sums); adds the chain's registers to `count`.
  void planRegisterChain(block::ForloopAccumOp accum, int64_t &count);
  /// Whether the state of `accum` stays in registers through the loop.
  bool isInRegisters(block::ForloopAccumOp accum) {
    return registerSums.contains(accum) || chainedAccums.contains(accum);
  }
  /// The op whose lowering reads the operands of `op`: the second matmul of
  /// the register chain whose first matmul `op` is, else `op`.
  Operation *getReader(Operation *op);
  /// The f32 result of unary elementwise op `op` on `operand`.
  Value emitUnary(Operation *op, Value operand);
  void initAccumulator(block::ForloopAccumOp op);
  void accumulate(block::ForloopAccumOp op);
  void finishAccumulator(block::ForloopAccumOp op);

  /// The swizzle of the shared tile of `value` (Tile::swizzle): for an
  /// operand or result of a matmul, whose tensor-core fragments read or
  /// write the same columns of 8 rows at once, the most of 128, 64 and 32
  /// dividing the bytes of its rows, if it is whole kSwizzleAlignment blocks;
  /// else 0.
  int64_t getSwizzle(Value value);
  /// A new shared-memory tile for `result`, released after its last use
  /// (releaseDeadTiles).
  Tile &allocateResult(Value result) {
    ownedTiles.insert(result);
    return tiles[result] =
               emitter.allocateShared(getShape(result), getElementType(result),
                                      kMaxVectorBytes, getSwizzle(result));
  }
  /// The loop phase in which `op` runs: its own, but the in-loop step of a
  /// forloop_accum. Ops run phase by phase, each phase in block order.
  LoopPhase getRunPhase(Operation *op);
  /// Releases the own shared tiles (ownedTiles) of the operands of `op`
  /// that no op after it reads. With `loopEnd`, `op` is the for-loop, which
  /// ends the life of the loop-invariant tiles read in it.
  void releaseDeadTiles(Operation *op, bool loopEnd = false);
  /// The global tensor of graph_def body argument or kernel argument `index`.
  Tile globalTensor(unsigned argument, ArrayRef<int64_t> shape) {
    return Tile{SmallVector<int64_t, 4>(shape), kernel.getArgument(argument),
                Value(), getContiguousStrides(shape)};
  }
  /// Adds `term * factor` to `offset` (null means 0).
  Value addScaled(Value offset, Value term, int64_t factor);

  kernel::GraphDefOp graph;
  gpu::GPUFuncOp kernel;
  KernelEmitter emitter;
  block::LoopPhaseMap phases;
  DenseMap<Value, Tile> tiles;
  /// The values whose shared tiles are their own (allocateResult's, the
  /// preloaded ones), not yet released.
  llvm::SetVector<Value> ownedTiles;
  /// Accumulator state (f32) of each forloop_accum.
  DenseMap<Operation *, Tile> accumulators;
  /// A forloop_accum sum of a matmul whose sums stay in registers: the
  /// accumulator and its first register among `registers`.
  struct RegisterSum {
    std::unique_ptr<MatmulAccumulator> sum;
    size_t firstRegister;
  };
  /// The ops that another op's lowering computes, which lower() skips:
  /// matmul epilogues (getEpilogue), and the first matmul of a register
  /// chain and the op between its matmuls.
  DenseSet<Operation *> absorbed;
  /// The register sums, by forloop_accum (the only user of its matmul).
  llvm::MapVector<Operation *, RegisterSum> registerSums;
  /// A chain of two matmuls whose intermediate stays in registers
  /// (ChainedMatmulSum): the sum, its first register among `registers`, the
  /// first matmul and the op between the two (null if none).
  struct RegisterChain {
    std::unique_ptr<ChainedMatmulSum> sum;
    size_t firstRegister;
    block::MatmulOp first;
    Operation *between;
  };
  /// The register chains, by their second matmul.
  llvm::MapVector<Operation *, RegisterChain> registerChains;
  /// The forloop_accums that register chains compute (the sum of the
  /// product, the row sums of the intermediate), to the chain's second
  /// matmul.
  DenseMap<Operation *, Operation *> chainedAccums;
  /// The registers the for-loop carries: their values in the iteration
  /// being emitted, then the loop's results.
  SmallVector<Value> registers;
  /// The for-loop induction variable while emitting the loop body.
  Value iteration;
  /// Loop-invariant input_loaders whose tiles are preloaded, and the tiles
  /// in shared memory.
  DenseMap<Operation *, Tile> preloaded;
  /// Staged input_loaders and their stage buffers in shared memory (shape
  /// `[numStages, tile shape...]`, iteration i in stage i % numStages).
  llvm::MapVector<Operation *, Tile> staged;
  int64_t numStages = 0;
  /// With TMA copies: one mbarrier (an i64) per stage, the bytes of one
  /// iteration's staged tiles, and the descriptor parameter of each staged
  /// input_loader.
  std::optional<Tile> stageBarriers;
  int64_t stageBytes = 0;
  DenseMap<Operation *, BlockArgument> tensorMaps;
  LoweringOptions options;
};

Value GraphDefLowering::addScaled(Value offset, Value term, int64_t factor) {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  if (factor != 1)
    term = arith::MulIOp::create(b, loc, term, emitter.index(factor));
  return offset ? arith::AddIOp::create(b, loc, offset, term) : term;
}

LogicalResult GraphDefLowering::run() {
  Block &body = graph.getBodyBlock();
  FailureOr<block::LoopPhaseMap> analysis =
      block::analyzeLoopPhases(body, graph.getForloop());
  if (failed(analysis))
    return failure();
  phases = std::move(*analysis);
  auto phaseOf = [&](Operation &op) { return phases.lookup(&op); };
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();

  // The copies go first: the preloaded loop-invariant tiles, then the
  // stages of the first iterations; the ops wait for the former only.
  bool preloading = preloadInvariantTiles();
  planStaging();
  for (int64_t stage = 0; stage + 1 < numStages; ++stage) {
    copyStagedTiles(emitter.index(stage));
    if (!stageBarriers)
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }
  if (preloading) {
    // The preloads are the oldest cp.async group.
    int64_t prologueGroups = stageBarriers || numStages == 0 ? 0 : numStages - 1;
    NVVM::CpAsyncWaitGroupOp::create(b, loc, prologueGroups);
    emitter.barrier();
  }

  // Loop-invariant ops, once.
  for (Operation &op : body.without_terminator()) {
    if (isa<block::ForloopAccumOp>(op) || phaseOf(op) != LoopPhase::Invariant)
      continue;
    if (failed(lower(&op)))
      return failure();
    releaseDeadTiles(&op);
  }

  // The for-loop: per-iteration ops and accumulation steps.
  auto accums = llvm::to_vector(body.getOps<block::ForloopAccumOp>());
  planRegisterSums();
  for (block::ForloopAccumOp accum : accums)
    if (!isInRegisters(accum))
      initAccumulator(accum);
  bool hasLoopBody = !accums.empty() ||
                     llvm::any_of(body.without_terminator(), [&](Operation &op) {
                       return phaseOf(op) == LoopPhase::InLoop;
                     });
  if (hasLoopBody) {
    auto loop = scf::ForOp::create(b, loc, emitter.index(0),
                                   emitter.index(graph.getForloop()),
                                   emitter.index(1), registers);
    Block *loopBody = loop.getBody();
    if (loopBody->mightHaveTerminator())
      loopBody->getTerminator()->erase();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(loopBody);
    iteration = loop.getInductionVar();
    registers.assign(loop.getRegionIterArgs().begin(),
                     loop.getRegionIterArgs().end());
    if (numStages != 0)
      advancePipeline(iteration);
    for (Operation &op : body.without_terminator()) {
      if (auto accum = dyn_cast<block::ForloopAccumOp>(op)) {
        if (!isInRegisters(accum))
          accumulate(accum);
      } else if (phaseOf(op) != LoopPhase::InLoop) {
        continue;
      } else if (failed(lower(&op))) {
        return failure();
      }
      releaseDeadTiles(&op);
    }
    scf::YieldOp::create(b, loc, registers);
    registers.assign(loop.getResults().begin(), loop.getResults().end());
    b.setInsertionPointAfter(loop);
    releaseDeadTiles(loop, /*loopEnd=*/true);
  }
  iteration = Value();

  // After the loop: results of the accumulators, then the ops that use them.
  for (block::ForloopAccumOp accum : accums)
    finishAccumulator(accum);
  for (Operation &op : body.without_terminator()) {
    if (isa<block::ForloopAccumOp>(op) || phaseOf(op) != LoopPhase::PostLoop)
      continue;
    if (failed(lower(&op)))
      return failure();
    releaseDeadTiles(&op);
  }
  gpu::ReturnOp::create(b, loc);
  return success();
}

LoopPhase GraphDefLowering::getRunPhase(Operation *op) {
  return isa<block::ForloopAccumOp>(op) ? LoopPhase::InLoop
                                        : phases.lookup(op);
}

void GraphDefLowering::releaseDeadTiles(Operation *op, bool loopEnd) {
  // Other blocks of a cluster read this block's tiles (DSMEM) until the
  // cluster synchronises: no reuse there.
  if (graph.getCluster())
    return;
  auto runsBefore = [&](Operation *a, Operation *b) {
    LoopPhase phaseA = getRunPhase(a), phaseB = getRunPhase(b);
    return phaseA != phaseB ? phaseA < phaseB : a->isBeforeInBlock(b);
  };
  SmallVector<Value> candidates =
      loopEnd ? llvm::to_vector(ownedTiles)
              : llvm::to_vector(op->getOperands());
  // A register chain's second matmul reads the operands of its first.
  if (auto chain = registerChains.find(op);
      !loopEnd && chain != registerChains.end())
    llvm::append_range(candidates, chain->second.first->getOperands());
  for (Value value : candidates) {
    if (!ownedTiles.contains(value))
      continue;
    Operation *last = nullptr;
    for (Operation *user : value.getUsers())
      if (Operation *reader = getReader(user);
          !last || runsBefore(last, reader))
        last = reader;
    if (!last)
      continue;
    // A loop-invariant tile read in the loop lives until the loop ends.
    bool readInLoop =
        phases.lookup(value.getDefiningOp()) != LoopPhase::InLoop &&
        getRunPhase(last) == LoopPhase::InLoop;
    if (loopEnd ? !readInLoop : (last != op || readInLoop))
      continue;
    emitter.releaseShared(tiles[value]);
    ownedTiles.remove(value);
  }
}

LogicalResult GraphDefLowering::lower(Operation *op) {
  if (absorbed.contains(op))
    return success();
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](block::InputLoaderOp loader) {
        lowerInputLoader(loader);
        return success();
      })
      .Case([&](block::OutputSaverOp saver) {
        lowerOutputSaver(saver);
        return success();
      })
      .Case([&](block::MatmulOp matmul) {
        lowerMatmul(matmul);
        return success();
      })
      .Case([&](block::ReductionOp reduction) {
        lowerReduction(reduction);
        return success();
      })
      .Case([&](block::RmsNormOp norm) {
        lowerRmsNorm(norm);
        return success();
      })
      .Case([&](block::ConcatOp concat) {
        lowerConcat(concat);
        return success();
      })
      .Case([&](block::MulScalarOp mulScalar) {
        lowerElementwise(mulScalar, mulScalar.getValue().convertToDouble());
        return success();
      })
      .Case([&](block::ThreadGraphOp threadGraph) {
        return lowerThreadGraph(threadGraph);
      })
      .Case<block::ClusterReduceOp, block::ClusterReduceScatterOp,
            block::ClusterGatherOp>([&](Operation *collective) {
        lowerClusterCollective(collective);
        return success();
      })
      .Default([&](Operation *other) -> LogicalResult {
        if (!isElementwise(other->getName().stripDialect()))
          return other->emitOpError("has no GPU lowering");
        lowerElementwise(other, 0.0);
        return success();
      });
}

//===----------------------------------------------------------------------===//
// Loads and stores of kernel tensors
//===----------------------------------------------------------------------===//

/// The for-loop iteration as a term of a loader's offset (grid axes are 0-2).
static constexpr unsigned kIterationTerm = 3;

SmallVector<std::pair<unsigned, int64_t>, 4>
GraphDefLowering::getLoaderOffsetTerms(block::InputLoaderOp op) {
  ArrayRef<int64_t> whole = getShape(op.getSource());
  ArrayRef<int64_t> shape = getShape(op.getResult());
  SmallVector<int64_t, 4> strides = getContiguousStrides(whole);
  SmallVector<std::pair<unsigned, int64_t>, 4> terms;
  // This block's chunk along each mapped grid axis, then this iteration's.
  for (unsigned axis = 0; axis < 3; ++axis) {
    int32_t dim = op.getImap().getDim(axis);
    if (dim >= 0 && graph.getGrid()[axis] != 1)
      terms.emplace_back(axis, whole[dim] / graph.getGrid()[axis] * strides[dim]);
  }
  if (op.isLoopVarying())
    terms.emplace_back(kIterationTerm,
                       shape[op.getFmap()] * strides[op.getFmap()]);
  return terms;
}

Tile GraphDefLowering::getLoaderTile(block::InputLoaderOp op, Value iteration) {
  auto source = cast<BlockArgument>(op.getSource());
  Tile tile = globalTensor(source.getArgNumber(), getShape(op.getSource()));
  ArrayRef<int64_t> shape = getShape(op.getResult());
  tile.shape.assign(shape.begin(), shape.end());
  for (auto [term, factor] : getLoaderOffsetTerms(op))
    emitter.addToOffset(
        tile, term == kIterationTerm ? iteration : emitter.blockId(term), factor);
  return tile;
}

Tile GraphDefLowering::getStage(block::InputLoaderOp op, Value iteration) {
  // The stages' layout without its outermost (stage) dimension.
  const Tile &stages = staged.lookup(op);
  Tile stage = stages;
  stage.shape.erase(stage.shape.begin());
  stage.strides.erase(stage.strides.begin());
  if (stage.blockExtent != 0)
    --stage.blockedDim;
  Value index = arith::RemUIOp::create(emitter.getBuilder(), emitter.getLoc(),
                                       iteration, emitter.index(numStages));
  emitter.addToOffset(stage, index, stages.strides.front());
  return stage;
}


int64_t GraphDefLowering::getSwizzle(Value value) {
  auto isMatmul = [](Operation *op) { return isa<block::MatmulOp>(op); };
  Operation *def = value.getDefiningOp();
  if (auto accum = dyn_cast_or_null<block::ForloopAccumOp>(def))
    def = accum.getInput().getDefiningOp();
  if (!(def && isMatmul(def)) && llvm::none_of(value.getUsers(), isMatmul))
    return 0;
  auto type = cast<ShapedType>(value.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  if (shape.size() < 2 ||
      elementBytes * type.getNumElements() % kSwizzleAlignment != 0)
    return 0;
  int64_t rowBytes = shape.back() * elementBytes;
  for (int64_t swizzle : {128, 64, 32})
    if (rowBytes % swizzle == 0)
      return swizzle;
  return 0;
}

bool GraphDefLowering::isReadRepeatedly(block::InputLoaderOp op) {
  Value tile = op.getResult();
  if (!tile.hasOneUse())
    return !tile.use_empty();
  Operation *user = *tile.user_begin();
  return isa<block::MatmulOp, block::RmsNormOp>(user) ||
         (graph.getForloop() > 1 && phases.lookup(user) == LoopPhase::InLoop);
}

bool GraphDefLowering::preloadInvariantTiles() {
  if (!options.preloadInvariants)
    return false;
  for (auto op : graph.getBodyBlock().getOps<block::InputLoaderOp>()) {
    if (phases.lookup(op) != LoopPhase::Invariant || !isReadRepeatedly(op))
      continue;
    Tile global = getLoaderTile(op, Value());
    Type type = getElementType(op.getResult());
    int64_t width = kMaxVectorBytes / (type.getIntOrFloatBitWidth() / 8);
    if (getVectorWidth(global) != width || global.shape.back() % width != 0)
      continue;
    Tile shared = emitter.allocateShared(global.shape, type, kMaxVectorBytes,
                                         getSwizzle(op.getResult()));
    emitter.copyAsync(global, shared);
    preloaded[op] = shared;
  }
  if (preloaded.empty())
    return false;
  NVVM::CpAsyncCommitGroupOp::create(emitter.getBuilder(), emitter.getLoc());
  return true;
}

void GraphDefLowering::planStaging() {
  // Tiles of whole 16-byte chunks, 16-byte aligned in global memory.
  SmallVector<block::InputLoaderOp> loaders;
  int64_t bytes = 0;
  for (auto op : graph.getBodyBlock().getOps<block::InputLoaderOp>()) {
    if (!op.isLoopVarying())
      continue;
    auto source = cast<BlockArgument>(op.getSource());
    Tile layout = globalTensor(source.getArgNumber(), getShape(op.getSource()));
    for (auto [term, factor] : getLoaderOffsetTerms(op))
      layout.offsetAlignment = std::gcd(layout.offsetAlignment, factor);
    int64_t elementBytes = layout.getStorageType().getIntOrFloatBitWidth() / 8;
    int64_t width = kMaxVectorBytes / elementBytes;
    ArrayRef<int64_t> shape = getShape(op.getResult());
    if (getVectorWidth(layout) != width || shape.back() % width != 0)
      continue;
    loaders.push_back(op);
    bytes += elementBytes * std::accumulate(shape.begin(), shape.end(),
                                            int64_t(1), std::multiplies<>());
  }
  int64_t stages = std::min<int64_t>(options.maxStages, graph.getForloop());
  while (stages >= 2 && stages * bytes > options.stagingBytes)
    --stages;
  if (loaders.empty() || stages < 2)
    return;
  numStages = stages;
  bool tensorCopies =
      options.tensorCopies &&
      llvm::all_of(loaders, [&](auto op) { return canCopyWithTMA(op); });
  for (block::InputLoaderOp op : loaders) {
    SmallVector<int64_t, 4> shape = {numStages};
    llvm::append_range(shape, getShape(op.getResult()));
    Type type = getElementType(op.getResult());
    int64_t swizzle = getSwizzle(op.getResult());
    // TMA swizzles boxes whose rows are the swizzle's bytes: rows of
    // several 128-byte spans are copied in boxes of 128-byte rows, one block
    // of the stage each, if the blocks keep the swizzle's alignment; other
    // tiles are not swizzled.
    int64_t elementBytes = type.getIntOrFloatBitWidth() / 8;
    int64_t blockExtent = 0;
    if (tensorCopies && swizzle != 0 &&
        swizzle != shape.back() * elementBytes) {
      int64_t rows = std::accumulate(shape.begin() + 1, shape.end() - 1,
                                     int64_t(1), std::multiplies<>());
      if (swizzle == kMaxSwizzle && rows * swizzle % kSwizzleAlignment == 0)
        blockExtent = swizzle / elementBytes;
      else
        swizzle = 0;
    }
    Tile stages = emitter.allocateShared(
        shape, type, tensorCopies ? kTensorCopyAlignment : kMaxVectorBytes,
        swizzle);
    if (blockExtent != 0)
      blockLastDimension(stages, blockExtent, /*firstInner=*/1);
    staged[op] = stages;
  }
  if (tensorCopies)
    planTensorCopies();
}

/// The most dimensions and elements per dimension of a TMA box.
constexpr int64_t kMaxBoxRank = 5, kMaxBoxExtent = 256;

bool GraphDefLowering::canCopyWithTMA(block::InputLoaderOp op) {
  ArrayRef<int64_t> whole = getShape(op.getSource());
  ArrayRef<int64_t> shape = getShape(op.getResult());
  int64_t elementBytes =
      getElementType(op.getResult()).getIntOrFloatBitWidth() / 8;
  int64_t tileBytes = elementBytes * std::accumulate(shape.begin(), shape.end(),
                                                     int64_t(1),
                                                     std::multiplies<>());
  return int64_t(shape.size()) <= kMaxBoxRank &&
         llvm::all_of(shape, [](int64_t e) { return e <= kMaxBoxExtent; }) &&
         (whole.back() * elementBytes) % kMaxVectorBytes == 0 &&
         (shape.back() * elementBytes) % kMaxVectorBytes == 0 &&
         tileBytes % kTensorCopyAlignment == 0;
}

void GraphDefLowering::planTensorCopies() {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  SmallVector<Attribute> params;
  for (Operation *op : staged.keys()) {
    auto loader = cast<block::InputLoaderOp>(op);
    auto source = cast<BlockArgument>(loader.getSource());
    unsigned argument = kernel.getNumArguments();
    if (failed(kernel.insertArguments({argument},
                                      {kernel.getArgument(source.getArgNumber())
                                           .getType()},
                                      {DictionaryAttr()}, {loc})))
      llvm_unreachable("a gpu.func takes any argument");
    tensorMaps[op] = kernel.getArgument(argument);
    ArrayRef<int64_t> shape = getShape(loader.getResult());
    ArrayRef<int64_t> whole = getShape(loader.getSource());
    // A blocked stage is copied one block (box) at a time.
    const Tile &stages = staged.lookup(op);
    SmallVector<int64_t, 4> box(shape);
    if (stages.blockExtent != 0)
      box.back() = stages.blockExtent;
    params.push_back(TensorMapParam{argument, source.getArgNumber(),
                                    SmallVector<int64_t, 4>(whole), box,
                                    stages.swizzle}
                         .toAttr(b.getContext()));
    stageBytes += getElementType(loader.getResult()).getIntOrFloatBitWidth() /
                  8 *
                  std::accumulate(shape.begin(), shape.end(), int64_t(1),
                                  std::multiplies<>());
  }
  kernel->setAttr(kTensorMapsAttrName, b.getArrayAttr(params));
  // One mbarrier per stage, initialised by one thread for one arrival (the
  // thread that starts the stage's copies and announces their bytes).
  stageBarriers = emitter.allocateShared({numStages}, b.getI64Type());
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      emitter.getThreadId(), emitter.index(0));
  auto init = scf::IfOp::create(b, loc, first);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(init.thenBlock()->getTerminator());
    Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
    for (int64_t stage = 0; stage < numStages; ++stage)
      NVVM::MBarrierInitOp::create(
          b, loc,
          emitter.getElementPointer(*stageBarriers, {emitter.index(stage)}),
          one, /*predicate=*/Value());
    NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  emitter.barrier();
}

SmallVector<Value, 5>
GraphDefLowering::getBoxCoordinates(block::InputLoaderOp op, Value iteration) {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  ArrayRef<int64_t> whole = getShape(op.getSource());
  ArrayRef<int64_t> shape = getShape(op.getResult());
  SmallVector<Value, 5> starts(whole.size());
  auto addTerm = [&](int64_t dim, Value term, int64_t factor) {
    starts[dim] = addScaled(starts[dim], term, factor);
  };
  for (unsigned axis = 0; axis < 3; ++axis) {
    int32_t dim = op.getImap().getDim(axis);
    if (dim >= 0 && graph.getGrid()[axis] != 1)
      addTerm(dim, emitter.blockId(axis), whole[dim] / graph.getGrid()[axis]);
  }
  if (op.isLoopVarying())
    addTerm(op.getFmap(), iteration, shape[op.getFmap()]);
  SmallVector<Value, 5> coordinates;
  for (Value start : llvm::reverse(starts))
    coordinates.push_back(arith::IndexCastOp::create(
        b, loc, b.getI32Type(), start ? start : emitter.index(0)));
  return coordinates;
}

Value GraphDefLowering::getStageBarrier(Value iteration) {
  Value stage = arith::RemUIOp::create(emitter.getBuilder(), emitter.getLoc(),
                                       iteration, emitter.index(numStages));
  return emitter.getElementPointer(*stageBarriers, {stage});
}

void GraphDefLowering::copyStagedTiles(Value iteration) {
  if (!stageBarriers) {
    for (Operation *op : staged.keys()) {
      auto loader = cast<block::InputLoaderOp>(op);
      emitter.copyAsync(getLoaderTile(loader, iteration),
                        getStage(loader, iteration));
    }
    return;
  }
  // One thread announces the stage's bytes (the stage's one arrival) and
  // starts one copy per tile, which completes them.
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Value barrier = getStageBarrier(iteration);
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            emitter.getThreadId(), emitter.index(0)));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(first.thenBlock()->getTerminator());
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, /*res=*/Type(), barrier,
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(stageBytes)),
      NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
  for (Operation *op : staged.keys()) {
    auto loader = cast<block::InputLoaderOp>(op);
    Value address = arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc,
                                                       tensorMaps.lookup(op)));
    Value descriptor = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
    // One box per block of columns (the whole tile if unblocked).
    Tile stage = getStage(loader, iteration);
    SmallVector<Value, 5> coordinates = getBoxCoordinates(loader, iteration);
    int64_t extent = stage.blockExtent ? stage.blockExtent : stage.shape.back();
    SmallVector<Value, 4> at(stage.shape.size(), emitter.index(0));
    for (int64_t column = 0; column < stage.shape.back(); column += extent) {
      SmallVector<Value, 5> box(coordinates);
      if (column != 0) {
        at.back() = emitter.index(column);
        box.front() = arith::AddIOp::create(
            b, loc, coordinates.front(),
            arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(column)));
      }
      emitter.copyTensor(descriptor, box, stage, at, barrier);
    }
  }
}

void GraphDefLowering::advancePipeline(Value iteration) {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  if (stageBarriers) {
    // The stage's k-th filling (k = iteration / numStages) completes the
    // mbarrier's phase k; the wait loops until that phase's parity flips.
    Value parity = arith::AndIOp::create(
        b, loc,
        arith::DivUIOp::create(b, loc, iteration, emitter.index(numStages)),
        emitter.index(1));
    NVVM::MBarrierTryWaitParityOp::create(
        b, loc, getStageBarrier(iteration),
        arith::IndexCastOp::create(b, loc, b.getI32Type(), parity),
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(kWaitTicks)));
  } else {
    // Groups of iterations up to `iteration + numStages - 2` are committed:
    // all but the newest numStages - 2 are complete once this returns.
    NVVM::CpAsyncWaitGroupOp::create(b, loc, numStages - 2);
  }
  // The barrier makes every thread's copies visible, and ends every read of
  // the stage refilled below (that of the previous iteration).
  emitter.barrier();
  Value ahead = arith::AddIOp::create(b, loc, iteration,
                                      emitter.index(numStages - 1));
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ahead,
                                        emitter.index(graph.getForloop()));
  auto copies = scf::IfOp::create(b, loc, inRange);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(copies.thenBlock()->getTerminator());
    copyStagedTiles(ahead);
  }
  // One group per iteration, empty past the end, so that the count holds.
  if (!stageBarriers)
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

void GraphDefLowering::lowerInputLoader(block::InputLoaderOp op) {
  if (auto found = preloaded.find(op); found != preloaded.end()) {
    tiles[op.getResult()] = found->second;
    ownedTiles.insert(op.getResult());
  }
  else if (staged.contains(op))
    tiles[op.getResult()] = getStage(op, iteration);
  else
    tiles[op.getResult()] = getLoaderTile(op, iteration);
}

void GraphDefLowering::lowerOutputSaver(block::OutputSaverOp op) {
  auto position = llvm::find(graph.getBodyBlock().getTerminator()->getOperands(),
                             op.getResult()) -
                  graph.getBodyBlock().getTerminator()->operand_begin();
  ArrayRef<int64_t> shape = getShape(op.getInput());
  Tile out = globalTensor(graph.getInputs().size() + position,
                          getShape(op.getResult()));
  for (unsigned axis = 0; axis < 3; ++axis) {
    int32_t dim = op.getOmap().getDim(axis);
    if (dim < 0 || graph.getGrid()[axis] == 1)
      continue;
    emitter.addToOffset(out, emitter.blockId(axis),
                        shape[dim] * out.strides[dim]);
  }
  const Tile &in = tiles[op.getInput()];
  Type type = in.getStorageType();
  int64_t width = getRunWidth(shape, {type, out.getStorageType()});
  emitter.forEachRun(shape, width, [&](ValueRange c) {
    if (width == 1)
      emitter.store(out, c, emitter.load(in, c));
    else if (type == out.getStorageType()) // Copied without converting.
      emitter.storePacked(out, c, emitter.loadPacked(in, c, width));
    else
      emitter.storeVector(out, c, emitter.loadVector(in, c, width));
  });
}

//===----------------------------------------------------------------------===//
// Compute ops
//===----------------------------------------------------------------------===//

/// `width` (a power of two) halved until it divides `extent`: how many
/// consecutive elements along a last dimension go together.
static int64_t getGroupWidth(int64_t width, int64_t extent) {
  while (extent % width != 0)
    width /= 2;
  return width;
}

void GraphDefLowering::lowerElementwise(Operation *op, double scalar) {
  SmallVector<Tile> operands;
  for (Value operand : op->getOperands())
    operands.push_back(tiles[operand]);
  Value result = op->getResult(0);
  ArrayRef<int64_t> shape = getShape(result);
  Tile out = allocateResult(result);
  StringRef mnemonic = op->getName().stripDialect();
  emitElementwiseRuns(shape, operands, out,
                      [&](ArrayRef<Value> values) -> SmallVector<Value, 2> {
                        return {emitElementwise(emitter.getBuilder(),
                                                emitter.getLoc(), mnemonic,
                                                values, scalar)};
                      });
}

void GraphDefLowering::emitElementwiseRuns(
    ArrayRef<int64_t> shape, ArrayRef<Tile> operands, ArrayRef<Tile> outs,
    function_ref<SmallVector<Value, 2>(ArrayRef<Value> values)> compute) {
  SmallVector<Type, 4> types;
  for (const Tile &tile : llvm::concat<const Tile>(operands, outs))
    types.push_back(tile.getStorageType());
  int64_t width = getRunWidth(shape, types);
  emitter.forEachRun(shape, width, [&](ValueRange c) {
    SmallVector<SmallVector<Value, 8>, 4> runs;
    for (const Tile &operand : operands)
      runs.push_back(emitter.loadBroadcastRun(operand, shape, c, width));
    SmallVector<SmallVector<Value, 8>, 2> results(outs.size());
    for (int64_t l = 0; l < width; ++l) {
      SmallVector<Value, 4> values;
      for (ArrayRef<Value> run : runs)
        values.push_back(run[l]);
      for (auto [k, value] : llvm::enumerate(compute(values)))
        results[k].push_back(value);
    }
    for (auto [out, run] : llvm::zip(outs, results))
      emitter.storeVector(out, c, run);
  });
}

int64_t GraphDefLowering::getRunWidth(ArrayRef<int64_t> shape,
                                      ArrayRef<Type> types,
                                      int64_t groupSize) {
  int64_t widestBytes = 1;
  for (Type type : types)
    widestBytes = std::max<int64_t>(widestBytes,
                                    type.getIntOrFloatBitWidth() / 8);
  // groupSize 0 is a multiple of every width.
  return getGroupWidth(
      getGroupWidth(kMaxVectorBytes / widestBytes, shape.back()), groupSize);
}

int64_t GraphDefLowering::getTermRun(const Tile &in, int64_t terms) {
  if (in.strides.back() != 1)
    return 1;
  int64_t run =
      kMaxVectorBytes / (in.getStorageType().getIntOrFloatBitWidth() / 8);
  return getGroupWidth(getGroupWidth(run, terms), in.shape.back());
}

/// The shortest slice of a sum a thread adds up on its own.
static constexpr int64_t kMinSliceLength = 32;

/// How many slices of a sum's terms a block splits over its threads:
/// enough (slice, group) pairs to give every thread two, each slice at least
/// kMinSliceLength long and a multiple of `termRun` terms.
static int64_t getSumSlices(int64_t groups, int64_t terms, int64_t threads,
                            int64_t termRun) {
  int64_t slices = 1;
  while (groups * slices < 2 * threads &&
         terms % (2 * slices * termRun) == 0 &&
         terms / (2 * slices) >= kMinSliceLength)
    slices *= 2;
  return slices;
}

int64_t GraphDefLowering::getSumWidth(const Tile &operand,
                                      ArrayRef<int64_t> shape) {
  if (!options.vectorSums)
    return 1;
  int64_t width = getGroupWidth(getVectorWidth(operand), shape.back());
  int64_t elements = std::accumulate(shape.begin(), shape.end(), int64_t(1),
                                     std::multiplies<>());
  // More groups than threads would give a thread several groups' partials
  // at once (after unrolling): ptxas then spills the larger attention
  // kernels.
  return elements / width <= emitter.getNumThreads() ? width : 1;
}

void GraphDefLowering::emitSums(
    ArrayRef<int64_t> shape, int64_t terms, int64_t width,
    function_ref<SmallVector<Value, 8>(ValueRange c, Value k)> term,
    function_ref<void(ValueRange c, ValueRange sums)> finish,
    int64_t termRun) {
  assert((termRun == 1 || width == 1) && terms % termRun == 0 &&
         "runs of terms sum one element at a time");
  SmallVector<int64_t, 4> groupShape(shape);
  groupShape.back() /= width;
  int64_t groups = 1;
  for (int64_t extent : groupShape)
    groups *= extent;
  int64_t slices =
      getSumSlices(groups, terms, emitter.getNumThreads(), termRun);
  int64_t sliceLength = terms / slices;
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  // The first element of group `g`.
  auto firstOf = [&](ValueRange g) {
    SmallVector<Value, 4> c(g);
    if (width != 1)
      c.back() = arith::MulIOp::create(builder, loc, c.back(),
                                       emitter.index(width));
    return c;
  };
  auto index = [&](int64_t value) { return emitter.index(value); };
  // The group from element `c` summed over slice `slice` of its terms (null:
  // all of them).
  auto sumSlice = [&](ValueRange c, Value slice) -> SmallVector<Value, 8> {
    if (termRun == 1) {
      // Terms [slice * sliceLength, (slice + 1) * sliceLength).
      Value first =
          slice ? arith::MulIOp::create(builder, loc, slice, index(sliceLength))
                : Value();
      return emitter.sequentialSum(sliceLength, width, [&](Value i) {
        Value k = first ? arith::AddIOp::create(builder, loc, first, i) : i;
        return term(c, k);
      });
    }
    // Step i takes run `slice + i * slices`; each position of a run keeps
    // its own sum, and the positions' sums are added last.
    SmallVector<Value, 8> sums = emitter.sequentialSum(
        sliceLength / termRun, termRun, [&](Value i) {
          Value run = i;
          if (slice)
            run = arith::AddIOp::create(
                builder, loc,
                arith::MulIOp::create(builder, loc, i, index(slices)), slice);
          return term(c, arith::MulIOp::create(builder, loc, run,
                                               index(termRun)));
        });
    return {emitter.addPairwise(sums)};
  };
  if (slices == 1) {
    emitter.forEachElement(groupShape, [&](ValueRange g) {
      SmallVector<Value, 4> c = firstOf(g);
      finish(c, sumSlice(c, Value()));
    });
    return;
  }
  // Threads take (slice, group) pairs: consecutive threads consecutive
  // groups (coalesced reads along the last dimension) or, for runs of
  // terms, consecutive slices of one group.
  SmallVector<int64_t, 4> partialShape = {slices};
  llvm::append_range(partialShape, shape);
  Tile partials = emitter.allocateShared(partialShape, builder.getF32Type());
  SmallVector<int64_t, 4> pairShape;
  if (termRun == 1)
    pairShape.push_back(slices);
  llvm::append_range(pairShape, groupShape);
  if (termRun != 1)
    pairShape.push_back(slices);
  emitter.forEachElement(pairShape, [&](ValueRange pg) {
    Value slice = termRun == 1 ? pg.front() : pg.back();
    SmallVector<Value, 5> pc = {slice};
    llvm::append_range(pc, firstOf(termRun == 1 ? pg.drop_front()
                                                : pg.drop_back()));
    emitter.storeVector(partials, pc,
                        sumSlice(ArrayRef(pc).drop_front(), slice));
  });
  if (slices % kWarpSize == 0 && emitter.getNumThreads() % kWarpSize == 0) {
    // A warp per element: lane l adds partials l, l + 32, ..., then the
    // warp adds its lanes' sums with shuffles, and lane 0 finishes.
    SmallVector<int64_t, 5> laneShape(shape);
    laneShape.push_back(kWarpSize);
    emitter.forEachElement(laneShape, [&](ValueRange cl) {
      ValueRange c = cl.drop_back();
      Value lane = cl.back();
      Value sum;
      for (int64_t slice = 0; slice < slices; slice += kWarpSize) {
        SmallVector<Value, 5> pc = {
            slice == 0 ? lane
                       : arith::AddIOp::create(builder, loc, lane,
                                               emitter.index(slice))
                             .getResult()};
        llvm::append_range(pc, c);
        Value partial = emitter.load(partials, pc);
        sum = sum ? arith::AddFOp::create(builder, loc, sum, partial) : partial;
      }
      sum = emitter.warpSum(sum);
      Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                          lane, emitter.index(0));
      auto finishing = scf::IfOp::create(builder, loc, first);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(finishing.thenBlock()->getTerminator());
      finish(c, sum);
    });
    return;
  }
  // One thread per element adds its partials.
  emitter.forEachElement(shape, [&](ValueRange c) {
    Value sum = emitter.f32(0.0);
    for (int64_t slice = 0; slice < slices; ++slice) {
      SmallVector<Value, 5> pc = {emitter.index(slice)};
      llvm::append_range(pc, c);
      sum = arith::AddFOp::create(builder, loc, sum, emitter.load(partials, pc));
    }
    finish(c, sum);
  });
}

void GraphDefLowering::lowerMatmul(block::MatmulOp op) {
  if (auto chain = registerChains.find(op); chain != registerChains.end()) {
    accumulateRegisterChain(op, chain->second);
    return;
  }
  // Groups of consecutive result columns read consecutive rhs columns: one
  // vector load of the rhs per term.
  Tile a = tiles[op.getLhs()], b = tiles[op.getRhs()];
  ArrayRef<int64_t> shape = getShape(op.getResult());
  auto found = op->hasOneUse() ? registerSums.find(*op->user_begin())
                               : registerSums.end();
  if (found != registerSums.end()) {
    RegisterSum &sum = found->second;
    size_t count = sum.sum->getNumRegisters();
    SmallVector<Value> next = sum.sum->accumulate(
        emitter, a, b, ArrayRef(registers).slice(sum.firstRegister, count));
    llvm::copy(next, registers.begin() + sum.firstRegister);
    // Without stages no barrier starts the next iteration, whose ops may
    // overwrite the shared tiles read here.
    if (numStages == 0)
      emitter.barrier();
    return;
  }
  if (options.warpgroupMatmuls &&
      canUseWarpgroupMatmul(a.getStorageType(), b.getStorageType(),
                            a.shape.back(), shape, emitter.getNumThreads())) {
    emitWarpgroupMatmul(emitter, a, b, allocateResult(op.getResult()));
    return;
  }
  // With an epilogue, each sum is rounded to the matmul's element type, as
  // the tile it replaces would hold it, before the epilogue's op.
  OpBuilder &builder = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Operation *epilogue = getEpilogue(op);
  Tile out =
      allocateResult(epilogue ? epilogue->getResult(0) : Value(op.getResult()));
  Type roundedType = getElementType(op.getResult());
  auto finish = [&](Value sum) -> Value {
    if (!epilogue)
      return sum;
    return emitUnary(epilogue, emitter.roundTo(sum, roundedType));
  };
  if (epilogue)
    absorbed.insert(epilogue);
  if (options.tensorCores &&
      canUseTensorCores(a.getStorageType(), b.getStorageType(),
                        a.shape.back(), shape, emitter.getNumThreads())) {
    emitTensorCoreMatmul(emitter, a, b, out, finish);
    return;
  }
  int64_t width = getSumWidth(b, shape);
  emitSums(
      shape, a.shape.back(), width,
      [&](ValueRange c, Value k) {
        SmallVector<Value, 4> ac(c), bc(c);
        ac[c.size() - 1] = k;
        bc[c.size() - 2] = k;
        Value lhs = emitter.load(a, ac);
        SmallVector<Value, 8> products;
        for (Value rhs : emitter.loadVector(b, bc, width))
          products.push_back(arith::MulFOp::create(builder, loc, lhs, rhs));
        return products;
      },
      [&](ValueRange c, ValueRange sums) {
        emitter.storeVector(out, c, llvm::map_to_vector(sums, finish));
      });
}

void GraphDefLowering::accumulateRegisterChain(block::MatmulOp second,
                                               RegisterChain &chain) {
  // E as its tile would hold it: A x B rounded to its element type, then
  // the op between the matmuls, rounded to E's element type.
  Type firstType = getElementType(chain.first.getResult());
  Type intermediateType = getElementType(second.getLhs());
  auto intermediate = [&](Value sum) {
    Value value = emitter.roundTo(sum, firstType);
    if (!chain.between)
      return value;
    return emitter.roundTo(emitUnary(chain.between, value), intermediateType);
  };
  size_t count = chain.sum->getNumRegisters();
  SmallVector<Value> next = chain.sum->accumulate(
      emitter, tiles[chain.first.getLhs()], tiles[chain.first.getRhs()],
      tiles[second.getRhs()], intermediate,
      ArrayRef(registers).slice(chain.firstRegister, count));
  llvm::copy(next, registers.begin() + chain.firstRegister);
  // Without stages no barrier starts the next iteration, whose ops may
  // overwrite the shared tiles read here.
  if (numStages == 0)
    emitter.barrier();
}

Value GraphDefLowering::emitUnary(Operation *op, Value operand) {
  double scalar = 0.0;
  if (auto mulScalar = dyn_cast<block::MulScalarOp>(op))
    scalar = mulScalar.getValue().convertToDouble();
  return emitElementwise(emitter.getBuilder(), emitter.getLoc(),
                         op->getName().stripDialect(), ValueRange{operand},
                         scalar);
}

Operation *GraphDefLowering::getReader(Operation *op) {
  for (auto &[second, chain] : registerChains)
    if (chain.first == op)
      return second;
  return op;
}

Operation *GraphDefLowering::getEpilogue(block::MatmulOp op) {
  if (!op->hasOneUse())
    return nullptr;
  Operation *user = *op->user_begin();
  if (user->getNumOperands() != 1 ||
      !isElementwise(user->getName().stripDialect()) ||
      getRunPhase(user) != getRunPhase(op))
    return nullptr;
  return user;
}

void GraphDefLowering::lowerReduction(block::ReductionOp op) {
  // out[.., j, ..] = sum_k in[.., j + k * size, ..]: the strided rule.
  // Groups of consecutive elements along the last dimension read
  // consecutive inputs when the last dimension is not reduced or `size` is
  // a multiple of the group.
  Tile in = tiles[op.getInput()];
  int64_t dim = op.getDim(), size = op.getSize();
  Tile out = allocateResult(op.getResult());
  int64_t width = getSumWidth(in, out.shape);
  int64_t terms = in.shape[dim] / size;
  // A reduction of the whole last dimension sums consecutive terms.
  bool lastDim = dim == int64_t(in.shape.size()) - 1;
  int64_t termRun = lastDim && size == 1 ? getTermRun(in, terms) : 1;
  if (lastDim)
    width = getGroupWidth(width, size);
  emitSums(
      out.shape, terms, width,
      [&](ValueRange c, Value k) {
        SmallVector<Value, 4> ic(c);
        ic[dim] = addScaled(c[dim], k, size);
        // `width` elements' terms, or a run of one element's (one is 1).
        return emitter.loadVector(in, ic, width * termRun);
      },
      [&](ValueRange c, ValueRange sums) { emitter.storeVector(out, c, sums); },
      termRun);
}

void GraphDefLowering::lowerRmsNorm(block::RmsNormOp op) {
  // Each group of `size` trailing elements: x / sqrt(sum(x^2) / size + eps).
  Tile in = tiles[op.getInput()];
  int64_t size = op.getSize();
  int64_t count = 1;
  for (int64_t d : in.shape)
    count *= d;
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  // The reciprocal of each group's root mean square.
  Tile scale = emitter.allocateShared({count / size}, b.getF32Type());
  double eps = op.getEps().convertToDouble();
  int64_t termRun = getTermRun(in, size);
  emitSums(
      scale.shape, size, /*width=*/1,
      [&](ValueRange group, Value i) -> SmallVector<Value, 8> {
        Value first = arith::MulIOp::create(b, loc, group[0], emitter.index(size));
        Value linear = arith::AddIOp::create(b, loc, first, i);
        SmallVector<Value, 8> squares;
        for (Value x : emitter.loadVector(
                 in, emitter.delinearize(linear, in.shape), termRun))
          squares.push_back(arith::MulFOp::create(b, loc, x, x));
        return squares;
      },
      [&](ValueRange group, ValueRange sum) {
        Value mean =
            arith::DivFOp::create(b, loc, sum[0], emitter.f32(double(size)));
        if (eps != 0.0)
          mean = arith::AddFOp::create(b, loc, mean, emitter.f32(eps));
        emitter.store(scale, group,
                      arith::DivFOp::create(b, loc, emitter.f32(1.0),
                                            math::SqrtOp::create(b, loc, mean)));
      },
      termRun);
  Tile out = allocateResult(op.getResult());
  SmallVector<int64_t, 4> strides = getContiguousStrides(in.shape);
  Tile contiguous{in.shape, Value(), Value(), strides};
  // Runs lie in one group: the width divides the group size.
  int64_t width =
      getRunWidth(out.shape, {in.getStorageType(), out.getStorageType()}, size);
  emitter.forEachRun(out.shape, width, [&](ValueRange c) {
    Value linear = emitter.linearize(contiguous, c);
    Value group = arith::DivUIOp::create(b, loc, linear, emitter.index(size));
    Value factor = emitter.load(scale, ValueRange{group});
    SmallVector<Value, 8> results;
    for (Value x : emitter.loadVector(in, c, width))
      results.push_back(arith::MulFOp::create(b, loc, x, factor));
    emitter.storeVector(out, c, results);
  });
}

void GraphDefLowering::lowerConcat(block::ConcatOp op) {
  Tile lhs = tiles[op.getLhs()], rhs = tiles[op.getRhs()];
  int64_t dim = op.getDim(), split = lhs.shape[dim];
  Tile out = allocateResult(op.getResult());
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  emitter.forEachElement(out.shape, [&](ValueRange c) {
    Value inLhs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c[dim],
                                        emitter.index(split));
    auto select = scf::IfOp::create(b, loc, b.getF32Type(), inLhs,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(select.thenBlock());
      scf::YieldOp::create(b, loc, emitter.load(lhs, c));
      b.setInsertionPointToStart(select.elseBlock());
      SmallVector<Value, 4> rc(c);
      rc[dim] = arith::SubIOp::create(b, loc, c[dim], emitter.index(split));
      scf::YieldOp::create(b, loc, emitter.load(rhs, rc));
    }
    emitter.store(out, c, select.getResult(0));
  });
}

LogicalResult GraphDefLowering::lowerThreadGraph(block::ThreadGraphOp op) {
  SmallVector<Tile> operands;
  for (Value operand : op.getInputs())
    operands.push_back(tiles[operand]);
  ArrayRef<int64_t> shape = getShape(op.getResult(0));
  SmallVector<Tile> outs;
  for (Value result : op.getResults())
    outs.push_back(allocateResult(result));
  Block &body = op.getBody().front();
  for (Operation &inner : body.without_terminator())
    if (!isElementwise(inner.getName().stripDialect()))
      return inner.emitOpError("has no GPU lowering");
  // Per element: the scalars of the body, in f32, rounded to their type
  // after every op.
  emitElementwiseRuns(
      shape, operands, outs,
      [&](ArrayRef<Value> values) -> SmallVector<Value, 2> {
        DenseMap<Value, Value> scalars;
        for (auto [arg, value] : llvm::zip(body.getArguments(), values))
          scalars[arg] = value;
        for (Operation &inner : body.without_terminator()) {
          SmallVector<Value, 2> innerValues;
          for (Value v : inner.getOperands())
            innerValues.push_back(scalars.lookup(v));
          auto factor = inner.getAttrOfType<FloatAttr>("value");
          Value result = emitElementwise(
              emitter.getBuilder(), emitter.getLoc(),
              inner.getName().stripDialect(), innerValues,
              factor ? factor.getValueAsDouble() : 0.0);
          scalars[inner.getResult(0)] =
              emitter.roundTo(result, inner.getResult(0).getType());
        }
        SmallVector<Value, 2> yielded;
        for (Value v : body.getTerminator()->getOperands())
          yielded.push_back(scalars.lookup(v));
        return yielded;
      });
  return success();
}

//===----------------------------------------------------------------------===//
// Cluster collectives
//===----------------------------------------------------------------------===//

void GraphDefLowering::lowerClusterCollective(Operation *op) {
  Value input = op->getOperand(0);
  // The dimension a gather concatenates or a reduce-scatter cuts (none for
  // cluster_reduce).
  auto scatter = dyn_cast<block::ClusterReduceScatterOp>(op);
  int64_t dim = scatter ? scatter.getDim() : -1;
  if (auto gather = dyn_cast<block::ClusterGatherOp>(op))
    dim = gather.getDim();
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  MLIRContext *ctx = b.getContext();
  // Peers read this block's tile from shared memory: copy a tile that is
  // still in global memory.
  Tile in = tiles[input];
  if (!in.isShared()) {
    Tile copy = emitter.allocateShared(in.shape, getElementType(input));
    emitter.forEachElement(in.shape, [&](ValueRange c) {
      emitter.store(copy, c, emitter.load(in, c));
    }, /*synchronize=*/false);
    in = copy;
  }
  ArrayRef<int32_t> cluster = *graph.getCluster();
  int64_t size = int64_t(cluster[0]) * cluster[1] * cluster[2];
  // Every block's tile is complete before any block reads it.
  auto clusterBarrier = [&] {
    NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/UnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/UnitAttr());
  };
  clusterBarrier();
  Type elementType = in.getStorageType();
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, 3);
  auto clusterPtr = LLVM::LLVMPointerType::get(ctx, 7);
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, in.buffer);
  Value local = LLVM::IntToPtrOp::create(
      b, loc, sharedPtr,
      arith::IndexCastOp::create(b, loc, b.getI64Type(), address).getResult());
  SmallVector<Value> peers;
  for (int64_t rank = 0; rank < size; ++rank)
    peers.push_back(NVVM::MapaOp::create(
        b, loc, clusterPtr, local,
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(rank))));
  auto loadPeer = [&](Value peer, ValueRange c) -> Value {
    Value position = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                                emitter.linearize(in, c));
    Value element = LLVM::GEPOp::create(b, loc, clusterPtr, elementType, peer,
                                        ValueRange{position});
    Value value = LLVM::LoadOp::create(b, loc, elementType, element);
    return elementType.isF32()
               ? value
               : arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  };
  Tile out = allocateResult(op->getResult(0));
  // A reduce-scatter keeps chunk `rank` of the sum: its element c is the sum
  // at c[dim] + rank * extent.
  Value chunkOffset;
  if (scatter) {
    Value rank = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        NVVM::ClusterId::create(b, loc, b.getI32Type()));
    chunkOffset = arith::MulIOp::create(b, loc, rank,
                                        emitter.index(out.shape[dim]));
  }
  emitter.forEachElement(out.shape, [&](ValueRange c) {
    if (dim < 0 || scatter) {
      SmallVector<Value, 4> ic(c);
      if (scatter)
        ic[dim] = arith::AddIOp::create(b, loc, c[dim], chunkOffset);
      // Sum in rank order, the same in every block.
      Value sum = loadPeer(peers[0], ic);
      for (Value peer : ArrayRef(peers).drop_front())
        sum = arith::AddFOp::create(b, loc, sum, loadPeer(peer, ic));
      emitter.store(out, c, sum);
      return;
    }
    // Element c comes from rank c[dim] / extent, at c[dim] % extent.
    int64_t extent = in.shape[dim];
    SmallVector<Value, 4> ic(c);
    Value rank = arith::DivUIOp::create(b, loc, c[dim], emitter.index(extent));
    ic[dim] = arith::RemUIOp::create(b, loc, c[dim], emitter.index(extent));
    Value value = loadPeer(peers[0], ic);
    for (int64_t r = 1; r < size; ++r) {
      Value isRank = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                                           emitter.index(r));
      // Read only the owning peer: the others' addresses are not loaded.
      auto branch = scf::IfOp::create(b, loc, b.getF32Type(), isRank, true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(branch.thenBlock());
      scf::YieldOp::create(b, loc, loadPeer(peers[r], ic));
      b.setInsertionPointToStart(branch.elseBlock());
      scf::YieldOp::create(b, loc, value);
      value = branch.getResult(0);
    }
    emitter.store(out, c, value);
  }, /*synchronize=*/false);
  // No block leaves or overwrites its tile while a peer may still read it.
  clusterBarrier();
}

//===----------------------------------------------------------------------===//
// Accumulators
//===----------------------------------------------------------------------===//

/// The most f32 registers per thread the register sums of a kernel take.
constexpr int64_t kMaxSumRegisters = 64;

void GraphDefLowering::planRegisterSums() {
  if (!options.tensorCores)
    return;
  int64_t count = 0;
  for (auto accum : graph.getBodyBlock().getOps<block::ForloopAccumOp>())
    planRegisterChain(accum, count);
  for (auto accum : graph.getBodyBlock().getOps<block::ForloopAccumOp>()) {
    auto matmul = accum.getInput().getDefiningOp<block::MatmulOp>();
    if (isInRegisters(accum) || accum.getKind() != block::AccumKind::Sum ||
        !matmul ||
        !matmul->hasOneUse() || phases.lookup(matmul) != LoopPhase::InLoop)
      continue;
    // In-loop values are stored at their element type.
    ArrayRef<int64_t> shape = getShape(matmul.getResult());
    int64_t depth = getShape(matmul.getLhs()).back();
    Type lhsType = getElementType(matmul.getLhs());
    Type rhsType = getElementType(matmul.getRhs());
    int64_t threads = emitter.getNumThreads();
    std::unique_ptr<MatmulAccumulator> sum;
    if (options.warpgroupMatmuls &&
        canUseWarpgroupMatmul(lhsType, rhsType, depth, shape, threads))
      sum = std::make_unique<WarpgroupAccumulator>(depth, shape, threads);
    else if (canUseTensorCores(lhsType, rhsType, depth, shape, threads))
      sum = std::make_unique<TensorCoreAccumulator>(depth, shape, threads);
    if (!sum || count + sum->getNumRegisters() > kMaxSumRegisters)
      continue;
    int64_t added = sum->getNumRegisters();
    registerSums.insert({accum, RegisterSum{std::move(sum), size_t(count)}});
    count += added;
  }
  if (count != 0)
    registers.assign(count, emitter.f32(0.0));
}

void GraphDefLowering::planRegisterChain(block::ForloopAccumOp accum,
                                         int64_t &count) {
  auto second = accum.getInput().getDefiningOp<block::MatmulOp>();
  if (accum.getKind() != block::AccumKind::Sum || !second ||
      !second->hasOneUse() || phases.lookup(second) != LoopPhase::InLoop)
    return;
  Value intermediate = second.getLhs();
  if (intermediate == second.getRhs())
    return;
  // E is the first matmul's result, or its epilogue's.
  Operation *between = nullptr;
  auto first = intermediate.getDefiningOp<block::MatmulOp>();
  if (!first) {
    between = intermediate.getDefiningOp();
    if (between && between->getNumOperands() == 1)
      first = between->getOperand(0).getDefiningOp<block::MatmulOp>();
    if (!first || getEpilogue(first) != between)
      return;
  }
  if (phases.lookup(first) != LoopPhase::InLoop)
    return;
  SmallVector<block::ForloopAccumOp> rowSums;
  for (Operation *user : intermediate.getUsers()) {
    if (user == second)
      continue;
    auto rowSum = dyn_cast<block::ForloopAccumOp>(user);
    if (!rowSum || rowSum.getKind() != block::AccumKind::SumLast)
      return;
    rowSums.push_back(rowSum);
  }
  ArrayRef<int64_t> shape = getShape(intermediate);
  int64_t depth = getShape(first.getLhs()).back();
  int64_t columns = getShape(second.getResult()).back();
  int64_t threads = emitter.getNumThreads();
  if (!canChainMatmuls(getElementType(first.getLhs()),
                       getElementType(first.getRhs()),
                       getElementType(intermediate),
                       getElementType(second.getRhs()), shape, depth, columns,
                       threads))
    return;
  auto sum = std::make_unique<ChainedMatmulSum>(shape, depth, columns, threads,
                                                !rowSums.empty());
  int64_t added = sum->getNumRegisters();
  if (count + added > kMaxSumRegisters)
    return;
  absorbed.insert(first);
  if (between)
    absorbed.insert(between);
  chainedAccums[accum] = second;
  for (block::ForloopAccumOp rowSum : rowSums)
    chainedAccums[rowSum] = second;
  registerChains.insert(
      {second, RegisterChain{std::move(sum), size_t(count), first, between}});
  count += added;
}

void GraphDefLowering::initAccumulator(block::ForloopAccumOp op) {
  Tile acc = emitter.allocateShared(getShape(op.getResult()),
                                    emitter.getBuilder().getF32Type());
  accumulators[op] = acc;
  double init = op.getKind() == block::AccumKind::Max
                    ? -std::numeric_limits<double>::infinity()
                    : 0.0;
  int64_t width = getRunWidth(acc.shape, acc.getStorageType());
  emitter.forEachRun(acc.shape, width, [&](ValueRange c) {
    emitter.storeVector(acc, c, SmallVector<Value, 8>(width, emitter.f32(init)));
  });
}

void GraphDefLowering::accumulate(block::ForloopAccumOp op) {
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Tile in = tiles[op.getInput()];
  Tile acc = accumulators[op];
  size_t last = in.shape.size() - 1;
  block::AccumKind kind = op.getKind();
  auto combine = [&](Value previous, Value step) -> Value {
    if (kind == block::AccumKind::Max)
      return arith::MaximumFOp::create(b, loc, previous, step);
    return arith::AddFOp::create(b, loc, previous, step);
  };
  if (kind == block::AccumKind::Sum || kind == block::AccumKind::Max) {
    int64_t width = getRunWidth(acc.shape, {acc.getStorageType(),
                                            in.getStorageType()});
    emitter.forEachRun(acc.shape, width, [&](ValueRange c) {
      SmallVector<Value, 8> next;
      for (auto [previous, step] : llvm::zip(emitter.loadVector(acc, c, width),
                                             emitter.loadVector(in, c, width)))
        next.push_back(combine(previous, step));
      emitter.storeVector(acc, c, next);
    });
    return;
  }
  // The strided reduction of the last dimension down to `size` (1 for the
  // sum_last kinds), squares first for rms_last, its terms split over the
  // threads like any sum.
  int64_t size = kind == block::AccumKind::SumLastTo ? *op.getSize() : 1;
  int64_t terms = in.shape[last] / size;
  int64_t termRun = size == 1 ? getTermRun(in, terms) : 1;
  emitSums(
      acc.shape, terms, 1,
      [&](ValueRange c, Value k) -> SmallVector<Value, 8> {
        SmallVector<Value, 4> ic(c);
        ic[last] = addScaled(c[last], k, size);
        SmallVector<Value, 8> values = emitter.loadVector(in, ic, termRun);
        if (kind == block::AccumKind::RmsLast)
          for (Value &x : values)
            x = arith::MulFOp::create(b, loc, x, x);
        return values;
      },
      [&](ValueRange c, ValueRange sums) {
        emitter.store(acc, c, combine(emitter.load(acc, c), sums[0]));
      },
      termRun);
}

void GraphDefLowering::finishAccumulator(block::ForloopAccumOp op) {
  if (auto found = chainedAccums.find(op); found != chainedAccums.end()) {
    Operation *second = found->second;
    RegisterChain &chain = registerChains.find(second)->second;
    ValueRange chainRegisters = ArrayRef(registers).slice(
        chain.firstRegister, chain.sum->getNumRegisters());
    Tile &out = allocateResult(op.getResult());
    if (op.getInput() == second->getResult(0))
      chain.sum->finishProduct(emitter, chainRegisters, out);
    else
      chain.sum->finishRowSums(emitter, chainRegisters, out);
    return;
  }
  if (auto found = registerSums.find(op); found != registerSums.end()) {
    RegisterSum &sum = found->second;
    sum.sum->finish(
        emitter,
        ArrayRef(registers).slice(sum.firstRegister, sum.sum->getNumRegisters()),
        allocateResult(op.getResult()));
    return;
  }
  OpBuilder &b = emitter.getBuilder();
  Location loc = emitter.getLoc();
  Tile acc = accumulators[op];
  Type type = getElementType(op.getResult());
  // rms_last: sqrt(sum / (forloop * n)); every kind: rounded to the result's
  // element type, in place.
  double count = double(graph.getForloop()) * double(getShape(op.getInput()).back());
  bool isRms = op.getKind() == block::AccumKind::RmsLast;
  int64_t width = getRunWidth(acc.shape, acc.getStorageType());
  emitter.forEachRun(acc.shape, width, [&](ValueRange c) {
    SmallVector<Value, 8> values;
    for (Value value : emitter.loadVector(acc, c, width)) {
      if (isRms)
        value = math::SqrtOp::create(
            b, loc, arith::DivFOp::create(b, loc, value, emitter.f32(count)));
      values.push_back(emitter.roundTo(value, type));
    }
    emitter.storeVector(acc, c, values);
  });
  tiles[op.getResult()] = acc;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// A graph_def lowered into a kernel.
struct LoweredKernel {
  gpu::GPUFuncOp kernel;
  /// Its dynamic shared memory per block.
  int64_t sharedBytes = 0;
  /// The for-loop iterations its stages hold (0: not staged).
  int64_t stages = 0;
};

/// Lowers `graph` into a new kernel of `kernels` named `name` (or a fresh
/// name while another kernel has it).
FailureOr<LoweredKernel> lowerKernel(kernel::GraphDefOp graph, StringRef name,
                                     gpu::GPUModuleOp kernels,
                                     const LoweringOptions &options) {
  SmallVector<Type> argumentTypes;
  for (Type type : graph.getInputs().getTypes())
    argumentTypes.push_back(getFlatBufferType(type));
  for (Type type : graph.getResultTypes())
    argumentTypes.push_back(getFlatBufferType(type));
  OpBuilder builder = OpBuilder::atBlockEnd(kernels.getBody());
  auto kernel = gpu::GPUFuncOp::create(
      builder, graph.getLoc(), name, builder.getFunctionType(argumentTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
  kernel.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(graph.getBlock()));
  // Enough blocks per SM for 256 threads: lets ptxas use up to 255
  // registers per thread rather than spill to reach a higher occupancy.
  int64_t threads = int64_t(graph.getBlock()[0]) * graph.getBlock()[1] *
                    graph.getBlock()[2];
  kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  builder.getI32IntegerAttr(
                      std::max<int64_t>(1, kThreadsPerSM / threads)));
  if (std::optional<ArrayRef<int32_t>> cluster = graph.getCluster())
    kernel->setAttr("nvvm.cluster_dim", builder.getDenseI32ArrayAttr(*cluster));
  SymbolTable(kernels).insert(kernel);
  GraphDefLowering lowering(graph, kernel, options);
  if (failed(lowering.run())) {
    kernel.erase();
    return failure();
  }
  return LoweredKernel{kernel, lowering.getSharedMemoryBytes(),
                       lowering.getStages()};
}

struct ConvertMirageBlockToGPUPass
    : mirage::impl::ConvertMirageBlockToGPUPassBase<ConvertMirageBlockToGPUPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// The module's `gpu.module @mirage_kernels`, created on first use.
  gpu::GPUModuleOp getKernelModule();
  LogicalResult convert(kernel::GraphDefOp graph, StringRef name,
                        gpu::GPUModuleOp kernels);
};

gpu::GPUModuleOp ConvertMirageBlockToGPUPass::getKernelModule() {
  ModuleOp module = getOperation();
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>("mirage_kernels"))
    return existing;
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(module.getContext()));
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  return gpu::GPUModuleOp::create(builder, module.getLoc(), "mirage_kernels");
}

LogicalResult ConvertMirageBlockToGPUPass::convert(kernel::GraphDefOp graph,
                                                   StringRef name,
                                                   gpu::GPUModuleOp kernels) {
  const Chip &target = *lookupChip(chip);
  if (graph.getCluster() && !target.hasClusters())
    return graph.emitOpError()
           << "uses a thread-block cluster, which " << chip
           << " does not have (clusters need sm_90a)";
  // A kernel that does not fit in shared memory is lowered again with
  // fewer stages, then without preloaded tiles, then without staging, then
  // without vector groups in its sums.
  int64_t limit = target.sharedBytesPerBlock;
  if (maxSharedMemory > 0)
    limit = std::min(limit, int64_t(maxSharedMemory));
  bool warpgroupMatmuls = wgmma && tensorCores && target.hasWgmma;
  bool tensorCopies = tma && target.hasTMA;
  LoweringOptions attempts[] = {
      {stages, kMaxStagingBytes, true, tensorCores, warpgroupMatmuls,
       tensorCopies, true},
      {stages, kMaxStagingBytes, true, tensorCores, false, tensorCopies, true},
      {stages, kFallbackStagingBytes, true, tensorCores, false, tensorCopies,
       true},
      {stages, kFallbackStagingBytes, true, tensorCores, false, tensorCopies,
       false},
      {0, 0, true, tensorCores, false, false, false},
      {0, 0, false, tensorCores, false, false, false}};
  LoweredKernel lowered;
  LoweringOptions options;
  for (const LoweringOptions &attempt : attempts) {
    FailureOr<LoweredKernel> kernel = lowerKernel(graph, name, kernels, attempt);
    if (failed(kernel))
      return failure();
    lowered = *kernel;
    options = attempt;
    if (lowered.sharedBytes <= limit)
      break;
    if (&attempt != &attempts[std::size(attempts) - 1])
      lowered.kernel.erase();
  }
  if (lowered.sharedBytes > limit) {
    lowered.kernel.erase();
    return graph.emitOpError()
           << "needs " << lowered.sharedBytes
           << " bytes of shared memory per block, more than the " << limit
           << " of " << chip << "; use smaller tiles (a larger grid or for-loop)";
  }

  // Fewer stages take less shared memory, so more blocks may share an SM:
  // the kernel takes the stage count that lets the most of its blocks run at
  // once, counting no more than the blocks each SM has to run (ties: more
  // stages, which hide more of the copies' latency).
  int64_t threads = int64_t(graph.getBlock()[0]) * graph.getBlock()[1] *
                    graph.getBlock()[2];
  int64_t blocks =
      int64_t(graph.getGrid()[0]) * graph.getGrid()[1] * graph.getGrid()[2];
  int64_t wanted = llvm::divideCeil(blocks, target.multiprocessors);
  auto concurrency = [&](const LoweredKernel &kernel) {
    return std::min(wanted,
                    target.residentBlocks(kernel.sharedBytes, threads));
  };
  for (options.maxStages = lowered.stages - 1;
       options.maxStages >= 2 && concurrency(lowered) < wanted;
       --options.maxStages) {
    FailureOr<LoweredKernel> fewer = lowerKernel(graph, name, kernels, options);
    if (failed(fewer))
      return failure();
    if (concurrency(*fewer) <= concurrency(lowered)) {
      fewer->kernel.erase();
      continue;
    }
    lowered.kernel.erase();
    SymbolTable::setSymbolName(fewer->kernel, name);
    lowered = *fewer;
  }

  OpBuilder builder(graph);
  auto symbol = SymbolRefAttr::get(
      kernels.getNameAttr(),
      {FlatSymbolRefAttr::get(lowered.kernel.getNameAttr())});
  auto launch = kernel::LaunchOp::create(
      builder, graph.getLoc(), graph.getResultTypes(), symbol, graph.getInputs(),
      graph.getGridAttr(), graph.getBlockAttr(),
      graph.getClusterAttr() ? graph.getClusterAttr()
                             : builder.getDenseI32ArrayAttr({1, 1, 1}),
      graph.getNonPortableClusterAttr(),
      builder.getI64IntegerAttr(lowered.sharedBytes));
  graph.replaceAllUsesWith(launch.getResults());
  graph.erase();
  return success();
}

void ConvertMirageBlockToGPUPass::runOnOperation() {
  if (!lookupChip(chip)) {
    getOperation().emitError() << "unknown chip '" << chip << "', expected "
                               << getChipNames();
    return signalPassFailure();
  }
  SmallVector<std::pair<kernel::GraphDefOp, std::string>> graphs;
  for (auto function : getOperation().getOps<func::FuncOp>()) {
    unsigned count = 0;
    function.walk([&](kernel::GraphDefOp graph) {
      graphs.emplace_back(graph, (function.getSymName() + "_kernel" +
                                  Twine(count++)).str());
    });
  }
  if (graphs.empty())
    return;
  gpu::GPUModuleOp kernels = getKernelModule();
  for (auto &[graph, name] : graphs)
    if (failed(convert(graph, name, kernels)))
      return signalPassFailure();
}

} // namespace
