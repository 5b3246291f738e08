//===- MatmulLibrary.cpp - Library matmuls through cuBLASLt ---------------===//
//
// Part of the Mirage-MLIR project, under the Apache License v2.0.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "MatmulLibrary.h"

#include <cublasLt.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace mirage::runtime;

namespace {

/// cuBLASLt's workspace: enough for its split-K and stream-K algorithms.
constexpr size_t kWorkspaceBytes = size_t(32) << 20;
/// The algorithms cuBLASLt's heuristic proposes for a shape, which the first
/// call outside a stream capture times...
constexpr int kProposedAlgorithms = 8;
/// ...after this many calls of the heuristic's first, which bring the GPU to
/// its working clocks (timed from idle clocks, the algorithms timed first
/// looked slower and the choice changed from run to run: 10.5 or 13.3 µs
/// for the same bf16 norm + QKV projection on an H100)...
constexpr int kWarmupCalls = 50;
/// ...in this many rounds, each timing every algorithm over a CUDA graph of
/// this many calls; an algorithm keeps its fastest round, and
/// chooseLibraryAlgorithm picks one (the heuristic's first unless another is
/// clearly faster).
constexpr int kTimingRounds = 3;
constexpr int kTimedCalls = 10;

/// Whether MIRAGE_LIBRARY_LOG=1 asks for each shape's algorithm timings on
/// stderr (docs/Runtime.md, "Library matmuls").
bool logsAlgorithms() {
  static const bool logs = [] {
    const char *value = std::getenv("MIRAGE_LIBRARY_LOG");
    return value && std::strcmp(value, "1") == 0;
  }();
  return logs;
}

/// The heuristic's proposal that MIRAGE_LIBRARY_ALGORITHM=N forces for every
/// library matmul with more than N proposals (docs/Runtime.md, "Library
/// matmuls"), or -1 when unset: a diagnostic, for timing a function with each
/// algorithm in turn.
int forcedAlgorithm() {
  static const int forced = [] {
    const char *value = std::getenv("MIRAGE_LIBRARY_ALGORITHM");
    if (!value || !*value)
      return -1;
    char *end = nullptr;
    long parsed = std::strtol(value, &end, 10);
    return *end || parsed < 0 || parsed >= kProposedAlgorithms
               ? -1
               : static_cast<int>(parsed);
  }();
  return forced;
}

/// A stream and two events for timing algorithms, destroyed (after the
/// stream's work finishes) with the object.
struct TimingStream {
  CUstream stream = nullptr;
  CUevent start = nullptr, end = nullptr;

  TimingStream() = default;
  TimingStream(const TimingStream &) = delete;
  TimingStream &operator=(const TimingStream &) = delete;
  ~TimingStream() {
    if (stream) {
      (void)cuStreamSynchronize(stream);
      (void)cuStreamDestroy(stream);
    }
    if (start)
      (void)cuEventDestroy(start);
    if (end)
      (void)cuEventDestroy(end);
  }

  Error create() {
    if (Error error = checkDriver(
            cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
      return error;
    if (Error error = checkDriver(cuEventCreate(&start, CU_EVENT_DEFAULT),
                                  "cuEventCreate"))
      return error;
    return checkDriver(cuEventCreate(&end, CU_EVENT_DEFAULT), "cuEventCreate");
  }
};

/// Success for CUBLAS_STATUS_SUCCESS; otherwise a Driver error
/// "<call>: <status name>: <description>".
Error checkLt(cublasStatus_t status, const char *call) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return Error::success();
  return Error(ErrorCode::Driver, std::string(call) + ": " +
                                      cublasLtGetStatusName(status) + ": " +
                                      cublasLtGetStatusString(status));
}

cudaDataType_t getDataType(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return CUDA_R_16F;
  case DType::BF16:
    return CUDA_R_16BF;
  case DType::F32:
    return CUDA_R_32F;
  }
  return CUDA_R_32F;
}

/// A column-major layout of `rows` x `cols` (leading dimension `rows`),
/// `batch` of them `rows * cols` elements apart.
Error createLayout(cublasLtMatrixLayout_t &layout, DType dtype, int64_t rows,
                   int64_t cols, int64_t batch) {
  if (Error error = checkLt(cublasLtMatrixLayoutCreate(
                                &layout, getDataType(dtype), rows, cols, rows),
                            "cublasLtMatrixLayoutCreate"))
    return error;
  int32_t count = static_cast<int32_t>(batch);
  int64_t stride = rows * cols;
  if (Error error = checkLt(cublasLtMatrixLayoutSetAttribute(
                                layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                &count, sizeof(count)),
                            "cublasLtMatrixLayoutSetAttribute(BATCH_COUNT)"))
    return error;
  return checkLt(cublasLtMatrixLayoutSetAttribute(
                     layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                     &stride, sizeof(stride)),
                 "cublasLtMatrixLayoutSetAttribute(STRIDED_BATCH_OFFSET)");
}

} // namespace

/// The descriptors of one matmul shape, the algorithms cuBLASLt's heuristic
/// proposed for it (in its order) and the one chosen.
struct MatmulLibrary::Prepared {
  cublasLtMatmulDesc_t operation = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  std::vector<cublasLtMatmulAlgo_t> proposals;
  int chosen = 0;
  /// "a batch of B MxK by KxN <dtype> matmuls", for messages.
  std::string shape;

  const cublasLtMatmulAlgo_t &algorithm() const { return proposals[chosen]; }

  ~Prepared() {
    if (c)
      cublasLtMatrixLayoutDestroy(c);
    if (b)
      cublasLtMatrixLayoutDestroy(b);
    if (a)
      cublasLtMatrixLayoutDestroy(a);
    if (operation)
      cublasLtMatmulDescDestroy(operation);
  }
};

Expected<std::unique_ptr<MatmulLibrary>> MatmulLibrary::create(bool beside) {
  std::unique_ptr<MatmulLibrary> library(new MatmulLibrary());
  cublasLtHandle_t handle = nullptr;
  if (Error error = checkLt(cublasLtCreate(&handle), "cublasLtCreate"))
    return error;
  library->handle = handle;
  if (Error error = library->workspace.allocate(kWorkspaceBytes))
    return error;
  if (!beside)
    return library;
  if (Error error = library->sideWorkspace.allocate(kWorkspaceBytes))
    return error;
  if (Error error =
          checkDriver(cuStreamCreate(&library->side, CU_STREAM_NON_BLOCKING),
                      "cuStreamCreate"))
    return error;
  for (CUevent *event : {&library->fork, &library->join})
    if (Error error = checkDriver(cuEventCreate(event, CU_EVENT_DISABLE_TIMING),
                                  "cuEventCreate"))
      return error;
  return library;
}

MatmulLibrary::~MatmulLibrary() {
  for (CUevent event : {fork, join})
    if (event)
      (void)cuEventDestroy(event);
  if (side)
    (void)cuStreamDestroy(side);
  cache.clear();
  if (handle)
    cublasLtDestroy(static_cast<cublasLtHandle_t>(handle));
}

Expected<const MatmulLibrary::Prepared *>
MatmulLibrary::prepare(const LibraryMatmul &call, const Operands &operands,
                       CUstream stream) const {
  std::lock_guard<std::mutex> lock(cacheMutex);
  auto key = std::make_tuple(call.batch, call.m, call.n, call.k,
                             static_cast<int>(call.dtype),
                             static_cast<int>(call.resultDType), call.addend);
  if (auto found = cache.find(key); found != cache.end())
    return found->second.get();

  // Row-major C (m x n) = A (m x k) B (k x n) is column-major
  // C^T (n x m) = B^T (n x k) A^T (k x m): cuBLASLt's "A" is our rhs.
  auto prepared = std::make_unique<Prepared>();
  prepared->shape = "a batch of " + std::to_string(call.batch) + " " +
                    std::to_string(call.m) + "x" + std::to_string(call.k) +
                    " by " + std::to_string(call.k) + "x" +
                    std::to_string(call.n) + " " +
                    std::string(dtypeName(call.dtype)) + " matmuls" +
                    (call.addend ? " plus an addend" : "");
  if (Error error =
          checkLt(cublasLtMatmulDescCreate(&prepared->operation,
                                           CUBLAS_COMPUTE_32F, CUDA_R_32F),
                  "cublasLtMatmulDescCreate"))
    return error;
  if (Error error =
          createLayout(prepared->a, call.dtype, call.n, call.k, call.batch))
    return error;
  if (Error error =
          createLayout(prepared->b, call.dtype, call.k, call.m, call.batch))
    return error;
  if (Error error = createLayout(prepared->c, call.resultDType, call.n, call.m,
                                 call.batch))
    return error;

  cublasLtMatmulPreference_t preference = nullptr;
  if (Error error = checkLt(cublasLtMatmulPreferenceCreate(&preference),
                            "cublasLtMatmulPreferenceCreate"))
    return error;
  uint64_t workspaceBytes = kWorkspaceBytes;
  cublasLtMatmulHeuristicResult_t heuristics[kProposedAlgorithms] = {};
  int found = 0;
  Error error =
      checkLt(cublasLtMatmulPreferenceSetAttribute(
                  preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                  &workspaceBytes, sizeof(workspaceBytes)),
              "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)");
  if (!error)
    error =
        checkLt(cublasLtMatmulAlgoGetHeuristic(
                    static_cast<cublasLtHandle_t>(handle), prepared->operation,
                    prepared->a, prepared->b, prepared->c, prepared->c,
                    preference, kProposedAlgorithms, heuristics, &found),
                "cublasLtMatmulAlgoGetHeuristic");
  cublasLtMatmulPreferenceDestroy(preference);
  if (error)
    return error;
  if (found == 0)
    return Error(ErrorCode::Driver,
                 "cublasLtMatmulAlgoGetHeuristic: no algorithm for " +
                     prepared->shape);
  for (int i = 0; i < found; ++i)
    prepared->proposals.push_back(heuristics[i].algo);
  if (int forced = forcedAlgorithm(); forced >= 0 && forced < found) {
    prepared->chosen = forced;
    if (logsAlgorithms())
      std::fprintf(stderr,
                   "mirage: library matmul %s: algorithm %d of %d "
                   "(MIRAGE_LIBRARY_ALGORITHM)\n",
                   prepared->shape.c_str(), forced, found);
  } else if (found > 1) {
    Expected<int> fastest = timeAlgorithms(*prepared, operands, stream);
    if (!fastest)
      return fastest.takeError();
    prepared->chosen = *fastest;
  }
  const Prepared *chosen = prepared.get();
  cache.emplace(key, std::move(prepared));
  return chosen;
}

Error MatmulLibrary::call(const Prepared &p, const cublasLtMatmulAlgo_t &algo,
                          const Operands &operands, CUstream stream,
                          CUdeviceptr scratch) const {
  // With an addend, cuBLASLt's C (read) is the addend and D (written) the
  // result: D = A B + 1 C.
  float alpha = 1.0f, beta = operands.addend ? 1.0f : 0.0f;
  auto pointer = [](CUdeviceptr address) {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  };
  CUdeviceptr c = operands.addend ? operands.addend : operands.result;
  return checkLt(cublasLtMatmul(static_cast<cublasLtHandle_t>(handle),
                                p.operation, &alpha, pointer(operands.rhs), p.a,
                                pointer(operands.lhs), p.b, &beta, pointer(c),
                                p.c, pointer(operands.result), p.c, &algo,
                                pointer(scratch), kWorkspaceBytes, stream),
                 "cublasLtMatmul");
}

namespace {

/// Whether `stream` is being captured (then nothing can be timed).
Expected<bool> isCapturing(CUstream stream) {
  CUstreamCaptureStatus capturing = CU_STREAM_CAPTURE_STATUS_NONE;
  if (Error error = checkDriver(cuStreamIsCapturing(stream, &capturing),
                                "cuStreamIsCapturing"))
    return error;
  return capturing != CU_STREAM_CAPTURE_STATUS_NONE;
}

/// The fastest of kTimingRounds rounds (ms) of each graph in `graphs`,
/// launched in turn on `timing.stream` between its two events; -1 for a
/// graph that is not `usable`.
Expected<std::vector<float>>
timeGraphs(const std::vector<CapturedGraph> &graphs,
           const std::vector<bool> &usable, const TimingStream &timing) {
  std::vector<float> fastestRound(graphs.size(),
                                  std::numeric_limits<float>::max());
  for (int round = 0; round < kTimingRounds; ++round) {
    for (size_t i = 0; i < graphs.size(); ++i) {
      if (!usable[i])
        continue;
      if (Error error = checkDriver(cuEventRecord(timing.start, timing.stream),
                                    "cuEventRecord"))
        return error;
      if (Error error = graphs[i].launch(timing.stream))
        return error;
      if (Error error = checkDriver(cuEventRecord(timing.end, timing.stream),
                                    "cuEventRecord"))
        return error;
      if (Error error =
              checkDriver(cuEventSynchronize(timing.end), "cuEventSynchronize"))
        return error;
      float milliseconds = 0.0f;
      if (Error error = checkDriver(
              cuEventElapsedTime(&milliseconds, timing.start, timing.end),
              "cuEventElapsedTime"))
        return error;
      fastestRound[i] = std::min(fastestRound[i], milliseconds);
    }
  }
  for (size_t i = 0; i < graphs.size(); ++i)
    if (!usable[i])
      fastestRound[i] = -1.0f;
  return fastestRound;
}

/// Prints each timed round of `fastestRounds` (ms for kTimedCalls calls) in
/// µs per call, after `what`.
void logRounds(const std::string &what,
               const std::vector<float> &fastestRounds) {
  std::fprintf(stderr,
               "mirage: %s; fastest rounds (us per call):", what.c_str());
  for (float milliseconds : fastestRounds)
    std::fprintf(stderr, " %.2f", milliseconds * 1000.0f / kTimedCalls);
  std::fprintf(stderr, "\n");
}

/// Times `graphs` (timeGraphs) and returns the index chooseLibraryAlgorithm
/// keeps, 0 when every graph failed; with MIRAGE_LIBRARY_LOG=1 logs
/// `describe(kept)` and the rounds.
template <typename Describe>
Expected<int> keepFastest(const std::vector<CapturedGraph> &graphs,
                          const std::vector<bool> &usable,
                          const TimingStream &timing, Describe &&describe) {
  Expected<std::vector<float>> fastestRounds =
      timeGraphs(graphs, usable, timing);
  if (!fastestRounds)
    return fastestRounds.takeError();
  int kept = std::max(chooseLibraryAlgorithm(*fastestRounds), 0);
  if (logsAlgorithms())
    logRounds(describe(kept), *fastestRounds);
  return kept;
}

} // namespace

Expected<int> MatmulLibrary::timeAlgorithms(const Prepared &p,
                                            const Operands &operands,
                                            CUstream stream) const {
  // Inside a stream capture nothing can be timed: the heuristic's first
  // choice stands.
  Expected<bool> capturing = isCapturing(stream);
  if (!capturing)
    return capturing.takeError();
  if (*capturing)
    return 0;
  // The operands are ready once the caller's stream is; the timing runs on
  // a stream of its own, which can be captured (the caller's may be the
  // legacy default stream, which cannot).
  if (Error error = checkDriver(cuStreamSynchronize(stream),
                                "cuStreamSynchronize before timing"))
    return error;
  TimingStream timing;
  if (Error error = timing.create())
    return error;
  // An algorithm that fails here is not chosen; the others are timed.
  int count = static_cast<int>(p.proposals.size());
  std::vector<bool> usable(count, true);
  for (int run = 0; run < kWarmupCalls && usable[0]; ++run)
    usable[0] =
        !call(p, p.proposals[0], operands, timing.stream, workspace.get());
  // One call of each other algorithm outside the capture loads its kernels.
  for (int i = 1; i < count; ++i)
    usable[i] =
        !call(p, p.proposals[i], operands, timing.stream, workspace.get());
  // Each algorithm's calls are one CUDA graph, so that the device runs them
  // back to back: timed as the host enqueues them, a small GEMM measured the
  // host (10-18 us a call for every algorithm of a 16x4096 by 4096x4096
  // GEMM, H200) and the choice was noise.
  std::vector<CapturedGraph> graphs(count);
  for (int i = 0; i < count; ++i)
    usable[i] = usable[i] && !graphs[i].capture(timing.stream, [&] {
      Error called = Error::success();
      for (int run = 0; run < kTimedCalls && !called; ++run)
        called =
            call(p, p.proposals[i], operands, timing.stream, workspace.get());
      return called;
    });
  return keepFastest(graphs, usable, timing, [&](int chosen) {
    return "library matmul " + p.shape + ": algorithm " +
           std::to_string(chosen) + " of " + std::to_string(count);
  });
}

Expected<MatmulLibrary::PairChoice>
MatmulLibrary::choosePair(const Prepared &first, const Operands &firstOperands,
                          const Prepared &second,
                          const Operands &secondOperands,
                          CUstream stream) const {
  std::lock_guard<std::mutex> lock(cacheMutex);
  auto key = std::make_pair(&first, &second);
  if (auto found = pairs.find(key); found != pairs.end())
    return found->second;
  std::vector<PairChoice> choices = getLibraryAlgorithmPairs(
      static_cast<int>(first.proposals.size()), first.chosen,
      static_cast<int>(second.proposals.size()), second.chosen);
  Expected<bool> capturing = isCapturing(stream);
  if (!capturing)
    return capturing.takeError();
  int kept = 0;
  if (!*capturing && choices.size() > 1 && forcedAlgorithm() < 0) {
    Expected<int> fastest = timePairs(first, firstOperands, second,
                                      secondOperands, choices, stream);
    if (!fastest)
      return fastest.takeError();
    kept = *fastest;
  }
  pairs.emplace(key, choices[kept]);
  return choices[kept];
}

Expected<int> MatmulLibrary::timePairs(const Prepared &first,
                                       const Operands &firstOperands,
                                       const Prepared &second,
                                       const Operands &secondOperands,
                                       const std::vector<PairChoice> &choices,
                                       CUstream stream) const {
  if (Error error = checkDriver(cuStreamSynchronize(stream),
                                "cuStreamSynchronize before timing"))
    return error;
  // The side workspace is runBeside's too.
  std::lock_guard<std::mutex> lock(besideMutex);
  // `first` runs on `beside`, forked from and joined into `timing` by
  // beside's two events, as runBeside runs it; each pair of algorithms'
  // kTimedCalls runs is one CUDA graph.
  TimingStream timing, beside;
  if (Error error = timing.create())
    return error;
  if (Error error = beside.create())
    return error;
  std::vector<CapturedGraph> graphs(choices.size());
  std::vector<bool> usable(choices.size());
  for (size_t c = 0; c < choices.size(); ++c) {
    const cublasLtMatmulAlgo_t &a = first.proposals[choices[c].first];
    const cublasLtMatmulAlgo_t &b = second.proposals[choices[c].second];
    usable[c] = !graphs[c].capture(timing.stream, [&]() -> Error {
      for (int run = 0; run < kTimedCalls; ++run) {
        if (Error error =
                checkDriver(cuEventRecord(beside.start, timing.stream),
                            "cuEventRecord(fork)"))
          return error;
        if (Error error =
                checkDriver(cuStreamWaitEvent(beside.stream, beside.start, 0),
                            "cuStreamWaitEvent(fork)"))
          return error;
        if (Error error = call(first, a, firstOperands, beside.stream,
                               sideWorkspace.get()))
          return error;
        if (Error error = checkDriver(cuEventRecord(beside.end, beside.stream),
                                      "cuEventRecord(join)"))
          return error;
        if (Error error =
                call(second, b, secondOperands, timing.stream, workspace.get()))
          return error;
        if (Error error =
                checkDriver(cuStreamWaitEvent(timing.stream, beside.end, 0),
                            "cuStreamWaitEvent(join)"))
          return error;
      }
      return Error::success();
    });
  }
  return keepFastest(graphs, usable, timing, [&](int kept) {
    return "library matmuls side by side, " + first.shape + " and " +
           second.shape + ": algorithms " +
           std::to_string(choices[kept].first) + " and " +
           std::to_string(choices[kept].second) + " (" +
           std::to_string(choices.size()) + " pairs, their own choices first)";
  });
}

Error MatmulLibrary::run(const LibraryMatmul &call, const Operands &operands,
                         CUstream stream) const {
  Expected<const Prepared *> prepared = prepare(call, operands, stream);
  if (!prepared)
    return prepared.takeError();
  return this->call(**prepared, (*prepared)->algorithm(), operands, stream,
                    workspace.get());
}

Error MatmulLibrary::runBeside(const LibraryMatmul &first,
                               const Operands &firstOperands,
                               const LibraryMatmul &second,
                               const Operands &secondOperands,
                               CUstream stream) const {
  if (!side) {
    if (Error error = run(first, firstOperands, stream))
      return error;
    return run(second, secondOperands, stream);
  }
  // Both are prepared (their algorithms timed on first use), and the pair's
  // algorithms chosen, before the fork.
  Expected<const Prepared *> a = prepare(first, firstOperands, stream);
  if (!a)
    return a.takeError();
  Expected<const Prepared *> b = prepare(second, secondOperands, stream);
  if (!b)
    return b.takeError();
  Expected<PairChoice> pair =
      choosePair(**a, firstOperands, **b, secondOperands, stream);
  if (!pair)
    return pair.takeError();
  std::lock_guard<std::mutex> lock(besideMutex);
  if (Error error =
          checkDriver(cuEventRecord(fork, stream), "cuEventRecord(fork)"))
    return error;
  if (Error error = checkDriver(cuStreamWaitEvent(side, fork, 0),
                                "cuStreamWaitEvent(fork)"))
    return error;
  if (Error error = call(**a, (*a)->proposals[pair->first], firstOperands, side,
                         sideWorkspace.get()))
    return error;
  if (Error error =
          checkDriver(cuEventRecord(join, side), "cuEventRecord(join)"))
    return error;
  if (Error error = call(**b, (*b)->proposals[pair->second], secondOperands,
                         stream, workspace.get()))
    return error;
  return checkDriver(cuStreamWaitEvent(stream, join, 0),
                     "cuStreamWaitEvent(join)");
}
