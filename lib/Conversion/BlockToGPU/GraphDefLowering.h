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

inline ArrayRef<int64_t> getShape(Value tile) {
  return cast<ShapedType>(tile.getType()).getShape();
}

inline Type getElementType(Value tile) {
  return cast<ShapedType>(tile.getType()).getElementType();
}

/// The most shared memory the stages of a pipelined kernel take: at first,
/// then when the kernel does not fit in shared memory with that.
inline constexpr int64_t kMaxStagingBytes = 128 * 1024, kFallbackStagingBytes = 64 * 1024;

/// The alignment of the shared memory a TMA copy writes, in bytes: every
/// stage of a tile copied by TMA starts at a multiple of it.
inline constexpr int64_t kTensorCopyAlignment = 128;

/// The time hint of one `mbarrier.try_wait` (ns) before it retries.
constexpr int32_t kWaitTicks = 10000000;

/// The threads per SM a kernel's register budget is sized for
/// (`.minnctapersm`).
inline constexpr int64_t kThreadsPerSM = 256;

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

/// `width` (a power of two) halved until it divides `extent`: how many
/// consecutive elements along a last dimension go together.
inline int64_t getGroupWidth(int64_t width, int64_t extent) {
  while (extent % width != 0)
    width /= 2;
  return width;
}

class BlockLowerings;

/// Emits the body of the kernel of one graph_def.
class GraphDefLowering {
public:
  /// Lowers `graph` into `kernel` with the choices of `options`.
  GraphDefLowering(kernel::GraphDefOp graph, gpu::GPUFuncOp kernel,
                   const LoweringOptions &options,
                   const BlockLowerings &lowerings)
      : graph(graph), kernel(kernel), emitter(kernel, graph.getBlock()),
        options(options), lowerings(lowerings) {}

  LogicalResult run();
  int64_t getSharedMemoryBytes() const {
    return emitter.getSharedMemoryBytes();
  }
  /// The for-loop iterations whose staged tiles are in shared memory at once
  /// (0: none staged).
  int64_t getStages() const { return numStages; }

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
  const BlockLowerings &lowerings;
};

/// The lowerings of the block ops, by op: each emits one op of a graph_def
/// into the kernel that a GraphDefLowering builds.
class BlockLowerings {
public:
  using Lowering = std::function<LogicalResult(GraphDefLowering &, Operation *)>;

  /// Lowers the ops `OpTys` with `lowering`.
  template <typename... OpTys>
  void add(Lowering lowering) {
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

} // namespace mlir::mirage::lowering

#endif // MIRAGE_LIB_CONVERSION_BLOCKTOGPU_GRAPHDEFLOWERING_H
