//===- MatmulLibrary.h - Library matmuls through cuBLASLt -------*- C++ -*-===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A bundle's library matmuls (plan.json launches with "library": "matmul",
// docs/Runtime.md) run as cuBLASLt calls: a vendor GEMM is as fast as any
// generated kernel for a matmul nothing is fused into, at every shape.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_RUNTIME_LIB_MATMULLIBRARY_H
#define MIRAGE_RUNTIME_LIB_MATMULLIBRARY_H

#include "mirage/runtime/Driver.h"
#include "mirage/runtime/Error.h"
#include "mirage/runtime/Plan.h"

#include <cublasLt.h>
#include <cuda.h>

#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace mirage::runtime {

/// One cuBLASLt handle and workspace in one context, with the algorithm of
/// each matmul shape, and of each pair of shapes run side by side, chosen
/// once (by timing what cuBLASLt's heuristic proposes) and cached.
/// `run` and `runBeside` may be called from several threads; they never
/// allocate, so they may be captured in a CUDA graph.
class MatmulLibrary {
public:
  /// Creates the handle and allocates the workspace in the current context;
  /// with `beside`, also the side stream, events and second workspace that
  /// `runBeside` uses.
  static Expected<std::unique_ptr<MatmulLibrary>> create(bool beside = false);
  MatmulLibrary(const MatmulLibrary &) = delete;
  MatmulLibrary &operator=(const MatmulLibrary &) = delete;
  /// Destroys the handle and the cached descriptors; the workspace is freed
  /// in the context current then, which must be the creating one.
  ~MatmulLibrary();

  /// The device memory of one call: its operands, its result and, where
  /// `LibraryMatmul::addend` is set, the matrices added to the product.
  struct Operands {
    CUdeviceptr lhs = 0, rhs = 0, result = 0, addend = 0;
  };

  /// Enqueues `result = lhs x rhs [+ addend]` for `call` on `stream`
  /// (row-major matrices, `call.batch` of each in a row, f32 sums). Fails
  /// with a Driver error naming the cuBLASLt call.
  Error run(const LibraryMatmul &call, const Operands &operands,
            CUstream stream) const;

  /// Enqueues two independent calls to run at once: `first` on the side
  /// stream, forked from `stream` and joined back into it, `second` on
  /// `stream` (each with its own workspace). Work enqueued on `stream`
  /// afterwards runs after both. Without `create(/*beside=*/true)` the two
  /// run one after the other on `stream`.
  Error runBeside(const LibraryMatmul &first, const Operands &firstOperands,
                  const LibraryMatmul &second, const Operands &secondOperands,
                  CUstream stream) const;

private:
  struct Prepared;
  MatmulLibrary() = default;
  /// The descriptors and algorithm for `call`, prepared on first use: of
  /// the algorithms cuBLASLt's heuristic proposes, the one timeAlgorithms
  /// keeps, timed on the call's own buffers (`result` is overwritten), unless
  /// the first use is inside a stream capture (then the heuristic's first).
  Expected<const Prepared *> prepare(const LibraryMatmul &call,
                                     const Operands &operands,
                                     CUstream stream) const;
  /// The index among `p.proposals` of the algorithm to keep,
  /// by the time a CUDA graph of its calls takes on a stream of its own,
  /// once `stream` has finished (chooseLibraryAlgorithm), or 0 when `stream`
  /// is being captured.
  Expected<int> timeAlgorithms(const Prepared &p, const Operands &operands,
                               CUstream stream) const;
  /// The algorithms of two calls that run side by side: indices into their
  /// Prepared::proposals.
  using PairChoice = std::pair<int, int>;
  /// The algorithms `runBeside` runs `first` and `second` with, chosen on
  /// the pair's first use by timing every pair of their proposals side by
  /// side (timePairs), since a pair's fastest algorithms are not always
  /// each call's fastest alone; cached per pair of shapes. Inside a stream
  /// capture, or with MIRAGE_LIBRARY_ALGORITHM set, each call's own choice.
  Expected<PairChoice> choosePair(const Prepared &first,
                                  const Operands &firstOperands,
                                  const Prepared &second,
                                  const Operands &secondOperands,
                                  CUstream stream) const;
  /// The index among `choices` (the two calls' own choices first) of the
  /// pair to keep, by the time a CUDA graph of its runs side by side takes
  /// on streams of their own once `stream` has finished
  /// (chooseLibraryAlgorithm).
  Expected<int> timePairs(const Prepared &first, const Operands &firstOperands,
                          const Prepared &second,
                          const Operands &secondOperands,
                          const std::vector<PairChoice> &choices,
                          CUstream stream) const;
  /// Enqueues one cublasLtMatmul of `p` with `algo`, using `scratch` (a
  /// workspace no other stream uses meanwhile).
  Error call(const Prepared &p, const cublasLtMatmulAlgo_t &algo,
             const Operands &operands, CUstream stream,
             CUdeviceptr scratch) const;

  void *handle = nullptr;
  DeviceMemory workspace;
  /// For runBeside: the side stream, its workspace, and the events that
  /// fork it from and join it into the caller's stream (enqueued under
  /// `besideMutex`, so that concurrent callers' waits see their own
  /// records).
  CUstream side = nullptr;
  DeviceMemory sideWorkspace;
  CUevent fork = nullptr, join = nullptr;
  mutable std::mutex besideMutex;
  mutable std::mutex cacheMutex;
  mutable std::map<
      std::tuple<int64_t, int64_t, int64_t, int64_t, int, int, bool>,
      std::unique_ptr<Prepared>>
      cache;
  /// choosePair's choices, by the two calls' cache entries (under
  /// `cacheMutex`).
  mutable std::map<std::pair<const Prepared *, const Prepared *>, PairChoice>
      pairs;
};

} // namespace mirage::runtime

#endif // MIRAGE_RUNTIME_LIB_MATMULLIBRARY_H
