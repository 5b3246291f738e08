//===- Materialize.h - Compact programs back to IR --------------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_MATERIALIZE_H
#define MIRAGE_SEARCH_MATERIALIZE_H

#include "Mirage/Search/ProgramSchedule.h"
#include "Mirage/Semantics/Program.h"
#include "Mirage/Support/Chip.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::mirage::search {

/// Threads per block of a graph_def whose body has no matmul and nothing
/// recorded: enough for each thread to hold at most this many elements of
/// the body's largest tile...
constexpr int64_t kElementsPerThread = 8;
/// ...between these bounds. Bodies with matmuls get kMinBlockThreads.
constexpr int64_t kMinBlockThreads = 128;
constexpr int64_t kMaxBlockThreads = kMaxThreadsPerBlock;

/// Threads for at most `elementsPerThread` elements of the largest tile of
/// `body` per thread: a power of two between kMinBlockThreads and
/// kMaxBlockThreads.
///
/// Example: a body whose largest tile is 4x1024 gets 512 threads for 8
/// elements per thread, 256 for 16.
int64_t getTileThreads(const sem::Graph &body, int64_t elementsPerThread);

/// The threads per block of a graph_def whose body is `body`: `requested`
/// when positive (the user's choice), else the body's own `threads` when
/// recorded, else kMinBlockThreads for bodies with matmuls (whose warp
/// tiling the code generator plans for four warps) and enough threads for
/// kElementsPerThread elements of the largest tile otherwise
/// (getTileThreads: elementwise and reduction bodies, whose threads each
/// walk their share of a tile).
///
/// Example: a row softmax whose blocks hold 1x8192 tiles gets 1024 threads.
int64_t getBlockThreads(const sem::Graph &body, int32_t requested);

/// `program` with every graph_def body that has a matmul and no recorded
/// block size at twice kMinBlockThreads, the alternative the tuner measures
/// beside the default (more warps for the same tiles); nothing when no body
/// has a matmul.
std::optional<sem::Program> getWideBlockVariant(const sem::Program &program);

/// `program` with every graph_def body whose tiles the TMA unit copies
/// (`facts`, the program's schedule facts) marked `async_copies`, so that
/// cp.async copies them: the alternative the tuner measures beside TMA,
/// since which is faster depends on the kernel; nothing when no body copies
/// with TMA.
std::optional<sem::Program> getAsyncCopyVariant(const sem::Program &program,
                                                const ProgramFacts &facts);

/// Builds the kernel graph of `program` at the builder's insertion point on
/// `inputs` (its kernel-graph inputs) and returns its outputs: the inverse
/// of sem::buildProgram for what the search produces (graph_defs of loads,
/// elementwise ops, matmuls, reductions, accumulators and saves, with
/// getBlockThreads(body, threads) threads per block, and predefined kernel
/// ops of those kinds, such as the matmul after a prefix's kernel) and for
/// thread graphs,
/// which come back as their block-level elementwise ops
/// (mirage-form-thread-graphs fuses them again). Fails with a diagnostic at
/// `loc` for anything else.
FailureOr<SmallVector<Value>>
materializeProgram(const sem::Program &program, OpBuilder &builder,
                   Location loc, ValueRange inputs, int32_t threads);

/// The type of a function computing `program`: tensors of its kernel
/// graph's input and output types.
FunctionType getFunctionType(const sem::Program &program, MLIRContext *context);

} // namespace mlir::mirage::search

#endif // MIRAGE_SEARCH_MATERIALIZE_H
