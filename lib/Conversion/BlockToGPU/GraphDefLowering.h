//===- GraphDefLowering.h - Lowering of one graph_def -----------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The state of the lowering of one graph_def into a gpu.func, shared by the
// op-family lowerings (LoadStoreLowering.cpp, ElementwiseLowering.cpp,
// ReductionLowering.cpp, MatmulLowering.cpp, ClusterLowering.cpp), which
// BlockLowerings dispatches to (populateMirageBlockToGPULowerings).
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_LIB_CONVERSION_BLOCKTOGPU_GRAPHDEFLOWERING_H
#define MIRAGE_LIB_CONVERSION_BLOCKTOGPU_GRAPHDEFLOWERING_H

#include "ChainedMatmul.h"
#include "KernelEmitter.h"
#include "MatmulAccumulator.h"
#include "Mirage/Analysis/CombineTail.h"
#include "Mirage/Analysis/KernelSchedule.h"
#include "Mirage/Analysis/SumShapes.h"
#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Block/IR/LoopPhase.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <memory>
#include <optional>

namespace mlir::mirage::lowering {

using block::LoopPhase;

/// The flat buffer type of a kernel tensor.
inline MemRefType getFlatBufferType(Type tensor) {
  auto shaped = cast<ShapedType>(tensor);
  return MemRefType::get({shaped.getNumElements()}, shaped.getElementType());
}

/// The scalar that emitElementwise takes for elementwise op `op`: a
/// mul_scalar's factor, else 0.
inline double getElementwiseScalar(Operation *op) {
  auto mulScalar = dyn_cast<block::MulScalarOp>(op);
  return mulScalar ? mulScalar.getValue().convertToDouble() : 0.0;
}

/// The time hint of one `mbarrier.try_wait` (ns) before it retries.
constexpr int32_t kWaitTicks = 10000000;

class BlockLowerings;

/// Emits the body of the kernel of one graph_def.
class GraphDefLowering {
public:
  /// Lowers `graph` into `kernel` by `schedule`; with `gridDependencies`
  /// (a chip with programmatic dependent launch) the kernel lets the next
  /// one launch early and waits for the kernels before it
  /// (waitForGridDependencies).
  GraphDefLowering(kernel::GraphDefOp graph, gpu::GPUFuncOp kernel,
                   const KernelSchedule &schedule,
                   const BlockLowerings &lowerings, bool gridDependencies)
      : graph(graph), kernel(kernel), emitter(kernel, graph.getBlock()),
        schedule(schedule), lowerings(lowerings),
        gridDependencies(gridDependencies) {
    emitter.setSharedPlan(schedule.buffers);
  }

  LogicalResult run();
  /// Ends the kernel; fails if its shared buffers are not the schedule's.
  LogicalResult finishKernel();

  LogicalResult lower(Operation *op);
  /// The global tile `op` loads at for-loop iteration `iteration` (null
  /// outside the loop: a loop-varying loader's first iteration's).
  Tile getLoaderTile(block::InputLoaderOp op, Value iteration);
  /// The stage of staged loader `op` that holds iteration `iteration`.
  Tile getStage(block::InputLoaderOp op, Value iteration);
  /// Allocates the shared memory of the preloaded input_loaders' tiles (a
  /// loop-varying one's of every iteration).
  void allocatePreloads();
  /// Starts copying the preloaded tiles into shared memory, all in one
  /// `cp.async` group, so that the ops read them there.
  void preloadTiles();
  /// With `gridDependencies`: lets the next kernel of the stream launch
  /// once every block of this one has started (`griddepcontrol.
  /// launch_dependents`), at the kernel's start.
  void launchDependents();
  /// With `gridDependencies`: waits until the kernels this one depends on
  /// have finished and their writes are visible (`griddepcontrol.wait`).
  /// Nothing but copies of the function's inputs (isFunctionInput) may
  /// come before it: no kernel of the function writes those.
  void waitForGridDependencies();
  /// Whether `op` loads an input of the function (not a result of an
  /// earlier kernel of it).
  bool isFunctionInput(block::InputLoaderOp op) const;
  /// Allocates the stages of the staged input_loaders.
  void allocateStages();
  /// Adds a TMA descriptor parameter for every staged input_loader and one
  /// mbarrier per stage, initialised.
  void initTensorCopies();
  /// The coordinates (i32, innermost dimension first) of the box `op` loads
  /// at for-loop iteration `iteration`.
  SmallVector<Value, 5> getBoxCoordinates(block::InputLoaderOp op,
                                          Value iteration);
  /// Which staged tiles copyStagedTiles copies.
  enum class Copies { All, FunctionInputs, Others };
  /// Starts the copies of the staged tiles `which` of iteration `iteration`
  /// into its stage (they join the threads' next cp.async group, or
  /// complete on the stage's mbarrier, whose one arrival, announcing every
  /// tile's bytes, comes with `All` and `FunctionInputs`; only TMA copies
  /// are split).
  void copyStagedTiles(Value iteration, Copies which = Copies::All);
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
  /// calls `compute` on the operands' runs (f32 values, one per element of
  /// the run), which returns one run of f32 values per tile of `outs`, and
  /// writes each result run with one vector store.
  void emitElementwiseRuns(ArrayRef<int64_t> shape, ArrayRef<Tile> operands,
                           ArrayRef<Tile> outs,
                           function_ref<SmallVector<SmallVector<Value, 8>, 2>(
                               ArrayRef<SmallVector<Value, 8>> runs)>
                               compute);
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
  ///
  /// With `combine` Max, the same takes maxima instead of sums.
  void emitSums(ArrayRef<int64_t> shape, int64_t terms, int64_t width,
                function_ref<SmallVector<Value, 8>(ValueRange c, Value k)> term,
                function_ref<void(ValueRange c, ValueRange sums)> finish,
                int64_t termRun = 1,
                KernelEmitter::Combine combine = KernelEmitter::Combine::Add);
  void lowerMatmul(block::MatmulOp op);
  /// Emits one iteration of the register chain whose second matmul is
  /// `second`.
  void accumulateRegisterChain(block::MatmulOp second);
  /// A `reduction`, or a `reduction_max` (`op`).
  void lowerReduction(Operation *op);
  void lowerRmsNorm(block::RmsNormOp op);
  /// Emits the whole body as the row program of the schedule, its rows
  /// split over the threads as `rows` says (RowProgramLowering.cpp).
  void lowerRowProgram(const RegisterRows &rows);
  void lowerConcat(block::ConcatOp op);
  LogicalResult lowerThreadGraph(block::ThreadGraphOp op);
  /// `cluster_reduce`, `cluster_reduce_scatter` and `cluster_gather`.
  void lowerClusterCollective(Operation *op);
  /// Creates the register sums and chains of the schedule, and the loop's
  /// registers (zeros).
  void createRegisterSums();
  /// The f32 result of unary elementwise op `op` on `operand`.
  Value emitUnary(Operation *op, Value operand);
  void initAccumulator(block::ForloopAccumOp op);
  void accumulate(block::ForloopAccumOp op);
  /// One step of running maximum `op`: the maximum so far rises to
  /// `max(old, step)` and the sums its shift reaches are multiplied, row by
  /// row, by `exp(old - new)` (docs/CodeGeneration.md, "Running maxima").
  void accumulateRunningMax(block::ForloopAccumOp op);
  /// One step of lane-partials sum `op`: each (result, lane) pair's thread
  /// adds its runs of the tile, mapped by `square` (the squares of rms_last),
  /// to its slot, with no barrier.
  void accumulateLanePartials(
      block::ForloopAccumOp op, const LanePartials &plan,
      function_ref<SmallVector<Value, 8>(SmallVector<Value, 8>)> square);
  void finishAccumulator(block::ForloopAccumOp op);

  /// A new shared-memory tile for `result`.
  Tile &allocateResult(Value result) {
    return tiles[result] = emitter.allocateShared(
               getShape(result), getElementType(result), kMaxVectorBytes,
               getSharedSwizzle(result));
  }
  /// The tile op `op` writes its result `result` to: a new shared tile, or
  /// the block's tile of the global tensor of its direct save.
  Tile getResultTile(Operation *op, Value result) {
    if (Operation *saver = schedule.directSaves.lookup(op))
      return getSavedTile(cast<block::OutputSaverOp>(saver));
    return allocateResult(result);
  }
  /// The block's tile of the global tensor that `saver` writes.
  Tile getSavedTile(block::OutputSaverOp saver);
  /// Checks that the lowering of `op` ends with the barrier after which the
  /// schedule reuses the shared memory of the tiles `op` read last.
  LogicalResult checkReleases(Operation *op);
  /// The global tensor of graph_def body argument or kernel argument `index`.
  Tile globalTensor(unsigned argument, ArrayRef<int64_t> shape) {
    Tile tile;
    tile.shape.assign(shape.begin(), shape.end());
    tile.strides = getContiguousStrides(shape);
    Value buffer = kernel.getArgument(argument);
    tile.storageType = cast<MemRefType>(buffer.getType()).getElementType();
    tile.buffer = buffer;
    return tile;
  }
  /// Adds `term * factor` to `offset` (null means 0).
  Value addScaled(Value offset, Value term, int64_t factor);

  kernel::GraphDefOp graph;
  gpu::GPUFuncOp kernel;
  KernelEmitter emitter;
  DenseMap<Value, Tile> tiles;
  /// Accumulator state (f32) of each forloop_accum.
  DenseMap<Operation *, Tile> accumulators;
  /// The factors `exp(old - new)` of each running maximum's last step.
  DenseMap<Operation *, Tile> runningFactors;
  /// The threads' f32 slots of each lane-partials sum (one per thread).
  DenseMap<Operation *, Tile> lanePartialSlots;
  /// The emitters of the schedule's register sums, by forloop_accum.
  DenseMap<Operation *, std::unique_ptr<MatmulAccumulator>> registerSums;
  /// The emitters of the schedule's register chains, by second matmul.
  DenseMap<Operation *, std::unique_ptr<ChainedMatmulSum>> registerChains;
  /// The registers the for-loop carries: their values in the iteration
  /// being emitted, then the loop's results.
  SmallVector<Value> registers;
  /// The for-loop induction variable while emitting the loop body.
  Value iteration;
  /// The tiles of the preloaded input_loaders in shared memory.
  DenseMap<Operation *, Tile> preloaded;
  /// The stage buffers of the staged input_loaders (shape `[stages, tile
  /// shape...]`, iteration i in stage i % stages).
  llvm::MapVector<Operation *, Tile> staged;
  /// With TMA copies: one mbarrier (an i64) per stage, the bytes of one
  /// iteration's staged tiles, and the descriptor parameter of each staged
  /// input_loader.
  std::optional<Tile> stageBarriers;
  int64_t stageBytes = 0;
  DenseMap<Operation *, BlockArgument> tensorMaps;
  const KernelSchedule &schedule;
  const BlockLowerings &lowerings;
  bool gridDependencies;
};

/// The lowerings of the block ops, by op: each emits one op of a graph_def
/// into the kernel that a GraphDefLowering builds.
class BlockLowerings {
public:
  using Lowering =
      std::function<LogicalResult(GraphDefLowering &, Operation *)>;

  /// Lowers the ops `OpTys` with `lowering`.
  template <typename... OpTys> void add(Lowering lowering) {
    (byOp.try_emplace(TypeID::get<OpTys>(), lowering), ...);
  }
  /// Lowers every op that no add() names and that has an ElementwiseKind.
  void addElementwise(Lowering lowering) { elementwise = std::move(lowering); }
  /// Emits `op`, or fails with an error on the op if no lowering takes it.
  LogicalResult lower(GraphDefLowering &lowering, Operation *op) const;

private:
  DenseMap<TypeID, Lowering> byOp;
  Lowering elementwise;
};

/// The lowerings of loads and stores of kernel tensors (input_loader,
/// output_saver).
void populateLoadStoreLowerings(BlockLowerings &lowerings);
/// The lowerings of elementwise ops, concat and thread graphs.
void populateElementwiseLowerings(BlockLowerings &lowerings);
/// The lowerings of reductions and rms_norm.
void populateReductionLowerings(BlockLowerings &lowerings);
/// The lowering of matmuls.
void populateMatmulLowerings(BlockLowerings &lowerings);
/// The lowerings of the cluster collectives.
void populateClusterLowerings(BlockLowerings &lowerings);
/// Every block op's lowering.
void populateMirageBlockToGPULowerings(BlockLowerings &lowerings);

/// The positions of the inputs of `tailGraph` that are not results of
/// `firstGraph`: with the first's inputs, in this order, the inputs of the
/// one launch of both.
SmallVector<unsigned> getTailOwnInputs(kernel::GraphDefOp firstGraph,
                                       kernel::GraphDefOp tailGraph);

/// A new kernel named `name`, beside `firstKernel`, that runs the bodies of
/// `firstKernel` and `tailKernel` (the kernels of `firstGraph` and of its
/// combine tail `tailGraph`, as `combine` pairs them, the tail's compiled
/// for blocks of one warp; CombineTailLowering.cpp): the first body, the
/// block's arrival at its group's counter, then in the group's last block
/// the tail body once per tail block, in one warp each, warp `w`'s shared
/// memory from byte `tailSharedOffset + w * tailSharedStride` on. Moves the
/// bodies out of both kernels, which the caller erases.
FailureOr<gpu::GPUFuncOp>
combineTailKernels(kernel::GraphDefOp firstGraph, kernel::GraphDefOp tailGraph,
                   gpu::GPUFuncOp firstKernel, gpu::GPUFuncOp tailKernel,
                   const CombineTail &combine, int64_t tailSharedOffset,
                   int64_t tailSharedStride, StringRef name);

} // namespace mlir::mirage::lowering

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_GRAPHDEFLOWERING_H
