//===- KernelSchedule.h - The decisions behind one kernel -------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The kernel schedule of a graph_def: every decision the code generator
// makes about its kernel, made before any IR is emitted, as a pure function
// of (block graph, chip, options). Which tiles are preloaded or staged (and
// how many for-loop iterations the stages hold, copied by cp.async or TMA),
// which matmul runs on which engine, which for-loop sums stay in registers
// (alone or as chains of two matmuls), which unary ops run as matmul
// epilogues, every shared-memory buffer with its offset (allocated first fit
// as tiles die), the kernel's shared bytes, a register estimate and the
// blocks per SM. The lowering (convert-mirage-block-to-gpu) emits from it
// once; the search's feasibility check and the cost model read the same
// schedule. docs/CodeGeneration.md describes the rules.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_ANALYSIS_KERNELSCHEDULE_H
#define MIRAGE_ANALYSIS_KERNELSCHEDULE_H

#include "Mirage/Analysis/RunningMaxima.h"
#include "Mirage/Analysis/TileLayout.h"
#include "Mirage/Dialect/Block/IR/BlockOps.h"
#include "Mirage/Dialect/Block/IR/LoopPhase.h"
#include "Mirage/Dialect/Kernel/IR/KernelOps.h"
#include "Mirage/Support/Chip.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include <optional>

namespace mlir::mirage {

/// The most shared memory the stages of a pipelined kernel take beyond two
/// stages: at first, then when the kernel does not fit in shared memory with
/// that. Two stages are kept whatever they take, if the block holds them.
inline constexpr int64_t kMaxStagingBytes = 128 * 1024,
                         kFallbackStagingBytes = 64 * 1024;
/// The alignment of the shared memory a TMA copy writes, in bytes: every
/// stage of a tile copied by TMA starts at a multiple of it.
inline constexpr int64_t kTensorCopyAlignment = 128;
/// The most f32 registers per thread the register sums of a kernel take.
inline constexpr int64_t kMaxSumRegisters = 64;
/// The most f32 registers per thread that a kernel's register chains carry
/// through the loop: a 16-row strip of a 128-column product (64) with its
/// row sums and running maxima (2 each).
inline constexpr int64_t kMaxChainRegisters = 68;
/// The most f32 registers per thread that the scores of one iteration of a
/// register chain with a running maximum take (4 per 16x8 tile of the
/// warp's strip): its row maxima need them all before any `exp`.
inline constexpr int64_t kMaxChainScoreRegisters = 64;
/// The most elements per thread that an rms_norm keeps in registers
/// (RegisterRows): a 4096-element row over 128 threads takes 32.
inline constexpr int64_t kMaxRowRegisters = 64;
/// The most elements per thread that the tiles a row program holds at once
/// take (KernelSchedule::rowProgram): a softmax of 8192-element rows over
/// 128 threads holds its input and its exponentials, 64 each.
inline constexpr int64_t kMaxRowProgramRegisters = 128;
/// The most for-loop iterations of a row program (KernelSchedule::
/// rowProgram), whose loop is unrolled.
inline constexpr int64_t kMaxRowProgramIterations = 64;
/// The most registers per thread that a register chain's loop-invariant lhs
/// fragments may keep through the loop (attention's 16 x 64 query strip of
/// a warp takes 16).
inline constexpr int64_t kMaxPreloadedLhsRegisters = 32;
/// The threads per SM a kernel's register budget is sized for
/// (`.minnctapersm`).
inline constexpr int64_t kThreadsPerSM = 256;

/// What a user's options allow the schedule (CodegenOptions holds their
/// defaults and getScheduleOptions).
struct ScheduleOptions {
  /// The most for-loop iterations whose staged tiles are in shared memory at
  /// once (below 2: no staging).
  int64_t maxStages;
  /// Whether f16 and bf16 matmuls may run on tensor cores.
  bool tensorCores;
  /// Whether f16 and bf16 matmuls may run on warpgroup tensor cores
  /// (`wgmma`) where the chip has them.
  bool warpgroupMatmuls;
  /// Whether staged tiles may be copied by the TMA unit where the chip has
  /// one.
  bool tensorCopies;
  /// The most shared memory per block (0: the chip's limit).
  int64_t maxSharedBytes;
  /// Whether a body of whole rows may run as a row program
  /// (KernelSchedule::rowProgram).
  bool rowPrograms = true;
  /// Whether a body of one iteration that reads two or more input tiles
  /// copies them all into shared memory first
  /// (ScheduleChoices::preloadOnePass).
  bool preloadOnePass = false;
  /// Whether a register chain may keep a running maximum
  /// (ScheduleChoices::runningMaxChains).
  bool runningMaxChains = true;
};

/// Choices that trade shared memory for speed: one rung of the ladder the
/// schedule descends until the kernel fits.
struct ScheduleChoices {
  /// The most for-loop iterations whose staged tiles are in shared memory at
  /// once (below 2: no staging).
  int64_t maxStages;
  /// The most shared memory more than two stages take.
  int64_t stagingBytes;
  /// Whether sums take vector groups (more slices, so larger partial sums).
  bool vectorSums;
  /// Whether f16 and bf16 matmuls run on tensor cores (`mma.sync`) where they
  /// fit.
  bool tensorCores;
  /// Whether f16 and bf16 matmuls run on warpgroup tensor cores (`wgmma`)
  /// where they fit, before `mma.sync`.
  bool warpgroupMatmuls;
  /// Whether staged tiles are copied by the TMA unit (`cp.async.bulk.tensor`
  /// on TMA descriptors), completing on one mbarrier per stage, instead of
  /// `cp.async`.
  bool tensorCopies;
  /// Whether loop-invariant input tiles are copied into shared memory once,
  /// before any op reads them (else they are read in place), and the small
  /// loop-varying tiles that cannot be staged, those of every iteration at
  /// once (KernelSchedule::preloaded).
  bool preloadInvariants;
  /// Whether a body of whole rows runs as a row program
  /// (KernelSchedule::rowProgram).
  bool rowPrograms = true;
  /// Whether a body of one for-loop iteration whose ops read two or more
  /// input tiles preloads them all (with preloadInvariants), so that their
  /// copies are in flight at once, instead of reading each in place in its
  /// op's turn.
  bool preloadOnePass = false;
  /// Whether an online softmax (`exp(T - M)`, M a running maximum) between
  /// two chained matmuls keeps E and M in registers (RegisterChain), instead
  /// of its tiles and maxima in shared memory.
  bool runningMaxChains = true;
};

/// The engine a matmul runs on.
enum class MatmulEngine { Simt, MmaSync, Wgmma };

/// The printed name of `engine`: `simt`, `mma.sync`, `wgmma`.
StringRef stringifyMatmulEngine(MatmulEngine engine);

/// A loop-varying input_loader whose tiles are copied into shared memory
/// ahead of their iteration.
struct StagedTile {
  /// The swizzle of its stages (0: none).
  int64_t swizzle = 0;
  /// 0, or the columns of the blocks its stages are stored in (one TMA box
  /// of 128-byte rows each; blockLastDimension).
  int64_t blockExtent = 0;
};

/// A for-loop sum of a matmul kept in registers through the loop.
struct RegisterSum {
  /// The matmul's engine: `mma.sync` or `wgmma`.
  MatmulEngine engine;
  /// Its first register among the loop's and how many it takes.
  int64_t firstRegister, numRegisters;
};

/// Two chained matmuls `E x C`, `E = f(A x B)`, summed over the for-loop with
/// E kept in registers (and E's row sums, if read).
///
/// With a running maximum M (online softmax), `E = exp(T - M)`: T is
/// `A x B` or `scale` of it, M a forloop_accum max of T's row maxima, and
/// every sum M rescales is the chain's (docs/CodeGeneration.md, "Running
/// maxima in register chains").
struct RegisterChain {
  block::MatmulOp first;
  /// The unary op between the matmuls (null if none); with a running
  /// maximum, the `exp`.
  Operation *between;
  /// The forloop_accums of E's row sums (sum_last).
  SmallVector<block::ForloopAccumOp> rowSums;
  int64_t firstRegister, numRegisters;
  /// Whether A, the first matmul's lhs, is loop-invariant (attention's
  /// queries) and its fragments are loaded once, before the loop (at most
  /// kMaxPreloadedLhsRegisters per thread), not in every iteration.
  bool preloadsLhs;
  /// The running maximum (null if none) and the unary op between `A x B`
  /// and T (null if none).
  block::ForloopAccumOp runningMax;
  Operation *scale = nullptr;
};

/// An rms_norm whose groups stay in registers: each group of `size`
/// elements is held by `lanes` consecutive threads, thread `l` of a group
/// holding runs `l`, `l + lanes`, ... of `width` elements (up to
/// `runsPerThread` of them, read once, from global memory in place or the
/// input's shared tile). The threads add their squares with shuffles (and,
/// for more than a warp, through one f32 per warp in shared memory), then
/// scale and store the runs they hold. A row program with no sum along its
/// rows may have fewer lanes than the block has threads per row: the threads
/// past `lanes` times the groups are idle.
struct RegisterRows {
  int64_t width, lanes, runsPerThread;
};

/// A for-loop sum of the last dimension (`sum_last`, `rms_last`) whose
/// threads keep their partial sums through the loop: `lanes` threads per
/// result, thread `l` adding runs `l`, `l + lanes`, ... of `termRun` terms
/// of each iteration's tile to its own f32 slot in shared memory, with no
/// barrier; after the loop one thread per result adds its slots pairwise.
/// The sums of the other rule (getSumSlices) meet at two barriers in
/// every iteration.
struct LanePartials {
  int64_t lanes, termRun;
};

/// One buffer of a kernel's dynamic shared memory, in the order the lowering
/// asks for them.
struct SharedBuffer {
  int64_t offset, bytes, alignment;
};

/// The decisions behind the kernel of one graph_def.
struct KernelSchedule {
  /// The rung of choices the kernel fits with.
  ScheduleChoices choices;
  /// The phase of every op of the body.
  block::LoopPhaseMap phases;
  /// Threads per block.
  int64_t threads = 0;
  /// The for-loop iterations whose staged tiles are in shared memory at once
  /// (0: none staged), and whether TMA copies them.
  int64_t stages = 0;
  bool tensorCopies = false;
  /// The staged input_loaders, in block order.
  llvm::MapVector<Operation *, StagedTile> staged;
  /// The input_loaders whose tiles are preloaded into shared memory before
  /// the for-loop, in block order: loop-invariant tiles, and the tiles of
  /// every iteration at once (getWholeLoopShape) of a loop-varying loader
  /// that cannot be staged (tiles of less than 16-byte chunks, such as a
  /// split's per-part row sums and maxima) and whose whole loop takes at
  /// most kMaxWholeLoopPreloadBytes; each iteration reads its part. Read in
  /// place, such a tile would wait for a global load in every iteration.
  llvm::SetVector<Operation *> preloaded;
  /// The engine of every matmul that is neither a register sum's nor part of
  /// a register chain.
  DenseMap<Operation *, MatmulEngine> engines;
  /// The register sums, by forloop_accum (the only user of its matmul).
  llvm::MapVector<Operation *, RegisterSum> registerSums;
  /// The running maxima (forloop_accum max read in the loop) and the sums
  /// each rescales as it rises (analyzeRunningMaxima): each keeps, beside
  /// its f32 tile, a tile of the factors `exp(old - new)` of its last step.
  RunningMaxima runningMaxima;
  /// The register chains, by their second matmul.
  llvm::MapVector<Operation *, RegisterChain> registerChains;
  /// The for-loop sums kept as lane partials. A sum qualifies before its
  /// loop (at most one result per thread); its lanes follow from its tile's
  /// layout in the loop.
  llvm::MapVector<Operation *, LanePartials> lanePartials;
  /// The rms_norms whose groups stay in registers.
  DenseMap<Operation *, RegisterRows> registerRows;
  /// Set when the whole body is a *row program* that runs in registers:
  /// a graph_def of one for-loop iteration, outside a cluster, of
  /// input_loaders of one shape S (rows of its last dimension), elementwise
  /// ops and thread graphs of them on S and on one value per row (S with a
  /// last dimension of 1, R), at least one `reduction` of an S tile's last
  /// dimension to R or `rms_norm` of whole S rows, and output_savers of S
  /// and R tiles. The rows split over the threads as these RegisterRows say,
  /// every run of every row held by one thread: loaders read their runs
  /// once, in place from global memory, all before the first sum,
  /// elementwise ops compute on registers (rounded to their type), a
  /// reduction (an rms_norm: of the squares) adds a row's registers with
  /// shuffles (and, for rows wider than a warp, one f32 per warp in shared
  /// memory after one barrier) so that every thread of the row holds its
  /// sum, and savers store the runs (an R value: the row's first thread)
  /// straight to global memory.
  ///
  /// A graph_def of a for-loop (at most kMaxRowProgramIterations
  /// iterations, without running maxima) is a row program too when its
  /// loaders also read R tiles and loop-invariant W tiles (one row of
  /// another length per row of S, each held whole by every thread of the
  /// row and only reduced) and its forloop_accums sum S or R values; no
  /// reduction is needed. The loop is unrolled: the loop-invariant ops
  /// once, the loop's ops per iteration, its sums in f32 registers, then the
  /// ops after the loop. A split µGraph's combining kernel runs so without
  /// a barrier per iteration.
  std::optional<RegisterRows> rowProgram;
  /// The unary op each matmul applies to its sums as it stores them.
  DenseMap<Operation *, Operation *> epilogues;
  /// The ops another op's lowering computes: matmul epilogues, the first
  /// matmul of a register chain and the op between its matmuls, and the
  /// output_savers of `directSaves`.
  DenseSet<Operation *> absorbed;
  /// The output_saver of each elementwise op, thread graph or register-rows
  /// rms_norm that stores its result straight to global memory (its one use, of
  /// the same element type): the result has no shared tile and the saver copies
  /// nothing.
  DenseMap<Operation *, Operation *> directSaves;
  /// The f32 registers the for-loop carries.
  int64_t loopRegisters = 0;
  /// Every shared buffer, in allocation order.
  SmallVector<SharedBuffer> buffers;
  /// The ops after whose lowering the schedule reuses released shared
  /// memory at once: the lowering must end each with a barrier.
  DenseSet<Operation *> synchronizedReleases;
  /// Bytes of dynamic shared memory per block.
  int64_t sharedBytes = 0;
  /// An estimate of the registers per thread: the loop's registers plus a
  /// fixed allowance for addresses and temporaries.
  int64_t registerEstimate = 0;
  /// Blocks of this kernel an SM runs at once (Chip::residentBlocks).
  int64_t residentBlocks = 0;

  /// Whether the state of `accum` stays in registers through the loop.
  bool isInRegisters(block::ForloopAccumOp accum) const;
  /// The engine `matmul` runs on: its own, its register sum's, or
  /// `mma.sync` for the matmuls of a register chain.
  MatmulEngine getEngine(block::MatmulOp matmul) const;
  /// The register chain whose second matmul or forloop_accum (a sum or its
  /// running maximum) is `op`, if any.
  const RegisterChain *getChain(Operation *op) const;
  /// The op whose lowering reads the operands of `op`: the second matmul of
  /// the register chain whose first matmul `op` is, else `op`.
  Operation *getReader(Operation *op) const;
  /// The loop phase in which `op` runs: its own, but the in-loop step of a
  /// forloop_accum. Ops run phase by phase, each phase in block order.
  block::LoopPhase getRunPhase(Operation *op) const;

  /// Prints the schedule (the test pass's output, docs/CodeGeneration.md).
  void print(raw_ostream &os, kernel::GraphDefOp graph) const;
};

/// The schedule of `graph` for `chip` within `options`: the first rung of
/// choices whose kernel fits in shared memory, then, of its stage counts,
/// the one that lets the most blocks run at once (counting no more than
/// each SM has to run; ties: more stages). Fails with an error on `graph`
/// when no rung fits or the graph cannot be scheduled.
FailureOr<KernelSchedule> scheduleKernel(kernel::GraphDefOp graph,
                                         const Chip &chip,
                                         const ScheduleOptions &options);

/// The schedule of `graph` with `choices`, however much shared memory it
/// takes; failure (with an error) when the loop phases are invalid.
FailureOr<KernelSchedule> planKernel(kernel::GraphDefOp graph, const Chip &chip,
                                     const ScheduleChoices &choices);

/// The swizzle of the shared tile of `value` (TileLayout::swizzle): for an
/// operand or result of a matmul, whose tensor-core fragments read or write
/// the same columns of 8 rows at once, the most of 128, 64 and 32 dividing
/// the bytes of its rows, if it is whole kSwizzleAlignment blocks; else 0.
int64_t getSharedSwizzle(Value value);

/// The terms of the offset of the tile `loader` loads in graph `graph`, in
/// elements: (grid axis, or kIterationTerm for the for-loop iteration;
/// elements per step).
SmallVector<std::pair<unsigned, int64_t>, 4>
getLoaderOffsetTerms(kernel::GraphDefOp graph, block::InputLoaderOp loader);
/// The for-loop iteration as a term of a loader's offset (grid axes are 0-2).
inline constexpr unsigned kIterationTerm = 3;

/// The shape of the tiles the loop-varying `loader` loads over the whole
/// for-loop of `graph`: its tile, `forloop` times longer along the dimension
/// the loop splits.
SmallVector<int64_t, 4> getWholeLoopShape(kernel::GraphDefOp graph,
                                          block::InputLoaderOp loader);
/// The most bytes of a loop-varying tile's whole loop that are preloaded
/// (KernelSchedule::preloaded).
inline constexpr int64_t kMaxWholeLoopPreloadBytes = 4096;

} // namespace mlir::mirage

#endif // MIRAGE_ANALYSIS_KERNELSCHEDULE_H
